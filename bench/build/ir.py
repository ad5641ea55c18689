"""Reading LLVM IR and MIR text: lines per function, grouped the way `cargo llvm-lines` groups
them (one row per function path, generic instances together, their count as copies)."""

import re
from collections import defaultdict

# `define ... @name(` starts a function body in LLVM IR; `}` alone ends it.
DEFINE = re.compile(r'^define [^@]*@"?([^"(]+)"?\(')
# A legacy-mangled name: `_ZN` then length-prefixed segments then `17h<16 hex>E`.
LEGACY = re.compile(r"^_ZN((?:\d+[^\d].*?)+)E$")
ESCAPES = {"$LT$": "<", "$GT$": ">", "$u20$": " ", "$RF$": "&", "$BP$": "*", "$C$": ",",
           "$u7b$": "{", "$u7d$": "}", "$u5b$": "[", "$u5d$": "]", "$u27$": "'", "$LP$": "(",
           "$RP$": ")", "$u3b$": ";", "$u21$": "!", "$u3d$": "=", "$u2b$": "+", "..": "::"}


def demangle(name):
    """The path of a legacy-mangled symbol, without its hash; other names as they are."""
    if not name.startswith("_ZN"):
        return name
    rest, parts = name[3:], []
    while rest and rest[0].isdigit():
        m = re.match(r"(\d+)", rest)
        n = int(m.group(1))
        seg = rest[m.end():m.end() + n]
        rest = rest[m.end() + n:]
        if re.fullmatch(r"h[0-9a-f]{16}", seg):
            break
        for k, v in ESCAPES.items():
            seg = seg.replace(k, v)
        parts.append(seg[1:] if seg.startswith("_$") else seg)
    return "::".join(parts)


def functions(path):
    """(demangled name, body lines) of each function defined in an `.ll` file."""
    out, name, count = [], None, 0
    with open(path, errors="replace") as f:
        for line in f:
            if name is None:
                m = DEFINE.match(line)
                if m:
                    name, count = demangle(m.group(1)), 0
            elif line.startswith("}"):
                out.append((name, count))
                name = None
            else:
                count += 1
    return out


# One token of Rust as the compiler prints a token stream: a string or char literal, a
# lifetime, a word or number, or one punctuation character.
TOKEN = re.compile(r'b?r#*"|b?"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'|\'\w+|\w+|\S')


def tokens(text):
    """How many tokens `text` (Rust, as `RONDO_MACROS_DEBUG` prints it) has, roughly: raw
    strings count as several, which no expansion of Rondo's writes."""
    return len(TOKEN.findall(text))


def body_lines(path):
    """Lines inside function bodies: what `cargo llvm-lines` counts."""
    return sum(n for _, n in functions(path))


def grouped(path, normalise):
    """{group: [lines, copies]}, the names passed through `normalise` first (so one tool's
    items and another's fall in one group)."""
    groups = defaultdict(lambda: [0, 0])
    for name, n in functions(path):
        g = groups[normalise(name)]
        g[0] += n
        g[1] += 1
    return groups
