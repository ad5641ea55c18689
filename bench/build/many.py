#!/usr/bin/env python3
"""Build cost as a server grows: N-tool stdio servers, Rondo and rmcp side by side.

Each generated server has N tools. Tool i takes three arguments with descriptions (Rondo:
parameters with `#[arg(description = ..)]`; rmcp: a `Parameters<T>` struct whose fields carry
doc comments) and returns a `String`. With `--questions`, every fifth tool (0, 5, 10, ..) asks
one form question of its own first (Rondo: `#[derive(Elicit)]`, `#[elicit(form, fallback =
refuse)]`, `asks = [..]`, `cx.ask(..)`; rmcp: `elicit_safe!` and `peer.elicit::<T>(..)`).
All Rondo tools sit in one `tools![..]`, all rmcp tools in one `#[tool_router(server_handler)]`.

    bench/build/many.py gen    --out DIR [--tools 1,25,100,300] [--questions]
    bench/build/many.py time   [--tools 1,25,100,300] [--runs 3] [--questions]
    bench/build/many.py lines  [--tools 25,100,300] [--questions]
    bench/build/many.py instr  [--tools 300] [--only "check,rebuild,clean debug"] [--questions]

`gen` only writes the crates. `time` writes them under bench/target/build-many/ and times,
for each framework and tool count, the user's crate alone (its dependencies built once before,
in one target directory per framework): a clean debug build, a rebuild after editing one
tool's body (debug), `cargo check` after the same edit, and a clean release build. The two
frameworks are interleaved, every figure is the median of `--runs` runs. `lines` counts, for
the user's crate, the lines of its MIR and its LLVM IR (debug, `cargo rustc -- --emit=..`,
stable rustc) and of Rondo's macro expansions (`RONDO_MACROS_DEBUG`). Both print Markdown
tables and append them, with the date, commit and load, to bench/results/build-many-*.md.
`instr` counts the instructions rustc executes for `cargo check` after one edit (valgrind),
which a loaded machine does not move.
"""

import argparse
import datetime
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import ir
from generate import EDIT, ROOT, RUNTIMES, generate

BENCH = ROOT / "bench"
FRAMEWORKS = ["rondo", "rmcp"]


def cargo(d, target, *args, env=None, check=True):
    args = list(args)
    tail = args[args.index("--"):] if "--" in args else []
    head = args[:len(args) - len(tail)]
    cmd = ["cargo", *head, "--offline", "--manifest-path", str(d / "Cargo.toml"), "--target-dir", str(target), *tail]
    full_env = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, capture_output=True, text=True, env=full_env)
    if check and p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr[-4000:]}")
    return p


def timed(d, target, *args):
    """(wall-clock seconds, CPU seconds of cargo and the compilers it ran). The CPU time
    barely moves when other work shares the machine; the wall-clock time does."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = cargo(d, target, *args)
    elapsed = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if "Compiling" not in p.stderr and "Checking" not in p.stderr:
        sys.exit(f"{d.name}: `cargo {' '.join(args)}` did not compile the crate")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def edit(d, value):
    """Sets the constant on tool 0's marked line to `value`, or to `value` * 1000 when it is
    even: a body-only change that, as typing does, adds or removes characters, so all that
    follows it in the file moves (rustc checks again the code that moved and holds absolute
    positions, such as what a derive expanded to)."""
    main = d / "src" / "main.rs"
    literal = value * 1000 if value % 2 == 0 and value else value
    text, count = re.subn(rf"(, )\d+(\) // {EDIT})", rf"\g<1>{literal}\2", main.read_text())
    if count != 1:
        sys.exit(f"{main}: no {EDIT} line")
    main.write_text(text)


def one_round(d, target, name, counter, only):
    """Clean debug, rebuild after an edit, check after an edit, clean release (those of them in
    `only`): seconds each."""
    out = {}
    if "clean debug" in only:
        cargo(d, target, "clean", "-p", name)
        out["clean debug"], out["clean debug cpu"] = timed(d, target, "build")
    if "rebuild" in only:
        cargo(d, target, "build")
        counter[0] += 1
        edit(d, counter[0])
        out["rebuild"], out["rebuild cpu"] = timed(d, target, "build")
    if "check" in only:
        cargo(d, target, "check")
        counter[0] += 1
        edit(d, counter[0])
        out["check"], out["check cpu"] = timed(d, target, "check")
    if "clean release" in only:
        cargo(d, target, "clean", "-p", name, "--release")
        out["clean release"], out["clean release cpu"] = timed(d, target, "build", "--release")
    edit(d, 0)
    return out


def context():
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"{now}, commit `{commit}`, {rustc}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the start"


def record(kind, text):
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = BENCH / "results" / f"build-many-{kind}-{stamp}.md"
    path.write_text(text)
    print(text)
    print(f"(written to {path.relative_to(ROOT)})", file=sys.stderr)


def fmt(values):
    return f"{statistics.median(values):.2f}"


COLUMNS = ["clean debug", "clean release", "rebuild", "check"]


def cmd_time(args):
    """Times the crates, appending each round to a `.jsonl` file in bench/results/ as it is
    measured (a run cut short keeps what it measured), then prints the table of that file."""
    out = BENCH / "target" / "build-many"
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    raw = BENCH / "results" / f"build-many-time-{stamp}.jsonl"
    crates = {}
    for fw in FRAMEWORKS:
        target = out / f"target-{fw}"
        for n in args.tools:
            crates[fw, n] = generate(out, fw, n, args.questions, args.args)
        print(f"== {fw}: dependencies (debug, release, check)", file=sys.stderr)
        first = crates[fw, args.tools[0]]
        for profile in ([], ["--release"]):
            cargo(first, target, "build", *profile)
        cargo(first, target, "check")
    header = {"context": context(), "args": args.args, "questions": args.questions, "only": args.only}
    with open(raw, "a") as f:
        f.write(json.dumps(header) + "\n")
    counter = [0]
    for run in range(args.runs):
        for n in args.tools:
            for fw in FRAMEWORKS:
                d = crates[fw, n]
                print(f"== run {run + 1}/{args.runs}: {d.name}", file=sys.stderr)
                row = {"framework": fw, "tools": n, "run": run + 1, **one_round(d, out / f"target-{fw}", d.name, counter, args.only)}
                print(f"   {row}", file=sys.stderr)
                with open(raw, "a") as f:
                    f.write(json.dumps(row) + "\n")
    print(f"(raw figures in {raw.relative_to(ROOT)})", file=sys.stderr)
    print(table([raw]))


def table(files):
    """The Markdown tables of the rounds in `files` (`.jsonl` from `time`; several files are
    pooled): per tool count, each framework's median wall-clock and CPU seconds, the growth
    per tool between tool counts, and every run."""
    rows, contexts = [], []
    for path in files:
        for line in Path(path).read_text().splitlines():
            item = json.loads(line)
            (contexts if "context" in item else rows).append(item)
    frameworks = list(dict.fromkeys(r["framework"] for r in rows))
    counts = sorted({r["tools"] for r in rows})
    cell = lambda fw, n, c: [r[c] for r in rows if r["framework"] == fw and r["tools"] == n and c in r]
    median = lambda fw, n, c: statistics.median(cell(fw, n, c)) if cell(fw, n, c) else None
    lines = [f"- {c['context']}; arguments: {c['args']}{'; every fifth tool asks a form question' if c['questions'] else ''}" for c in contexts]
    for suffix, what in (("", "Wall-clock seconds"), (" cpu", "CPU seconds (user + system, cargo and rustc)")):
        lines += ["", f"{what}, median of the runs, {' / '.join(frameworks)}; per tool: the growth between two rows, in ms.", "",
                  "| tools | clean debug | clean release | rebuild after editing one tool (debug) | `cargo check` after editing one tool |",
                  "|---|---|---|---|---|"]
        for i, n in enumerate(counts):
            cells = [" / ".join(f"{median(fw, n, c + suffix):.2f}" if cell(fw, n, c + suffix) else "–" for fw in frameworks) for c in COLUMNS]
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        for a, b in zip(counts, counts[1:]):
            def growth(fw, c):
                x, y = median(fw, a, c + suffix), median(fw, b, c + suffix)
                return "–" if x is None or y is None else f"{(y - x) / (b - a) * 1000:.0f}"
            cells = [" / ".join(growth(fw, c) for fw in frameworks) for c in COLUMNS]
            lines.append(f"| per tool, {a} → {b} | " + " | ".join(cells) + " |")
    lines += ["", "Every run (wall-clock seconds):", ""]
    for fw in frameworks:
        for n in counts:
            runs = "; ".join(f"{c} {', '.join(f'{v:.2f}' for v in cell(fw, n, c))}" for c in COLUMNS if cell(fw, n, c))
            lines.append(f"- {fw} {n}: {runs}")
    return "\n".join(lines) + "\n"


def cmd_table(args):
    print(table(args.files))


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def emitted(d, target, name, kind):
    """The user crate's MIR or LLVM IR (debug), copied to bench/target/build-many/emitted/."""
    deps = target / "debug" / "deps"
    stem = name.replace("-", "_")
    ext = {"mir": "mir", "llvm-ir": "ll"}[kind]
    cargo(d, target, "clean", "-p", name)
    cargo(d, target, "rustc", "--bin", name, "--", f"--emit={kind},link")
    (found,) = deps.glob(f"{stem}-*.{ext}")
    keep = d.parent / "emitted" / f"{name}.{ext}"
    keep.parent.mkdir(exist_ok=True)
    shutil.copy(found, keep)
    return keep


def expansion(d, target, name):
    """Tokens of Rondo's macro expansions (`RONDO_MACROS_DEBUG` prints each to stderr)."""
    cargo(d, target, "clean", "-p", name)
    p = cargo(d, target, "check", env={"RONDO_MACROS_DEBUG": "1"})
    return ir.tokens(p.stderr)


def cmd_lines(args):
    out = BENCH / "target" / "build-many"
    rows = []
    for n in args.tools:
        row = {}
        for fw in FRAMEWORKS:
            d = generate(out, fw, n, args.questions, args.args)
            target = out / f"target-{fw}"
            print(f"== {d.name}", file=sys.stderr)
            row[fw, "mir"] = count_lines(emitted(d, target, d.name, "mir"))
            row[fw, "llvm-ir"] = ir.body_lines(emitted(d, target, d.name, "llvm-ir"))
            if fw in RUNTIMES:
                row[fw, "expansion"] = expansion(d, target, d.name)
        rows.append((n, row))
    order = " / ".join(FRAMEWORKS)
    rondos = " / ".join(fw for fw in FRAMEWORKS if fw in RUNTIMES)
    lines = [f"Lines of the user crate, {'every fifth tool asking a form question, ' if args.questions else ''}{context()}\n",
             "MIR: all lines of `--emit=mir`. LLVM IR: lines inside function bodies of `--emit=llvm-ir` (what `cargo llvm-lines` counts). Expansions: the tokens of what Rondo's macros expand to (printed under `RONDO_MACROS_DEBUG`).",
             "",
             f"| tools | MIR, {order} | per tool | LLVM IR, {order} | per tool | expansion tokens, {rondos} | per tool |",
             "|---|---|---|---|---|---|---|"]
    prev = None
    for n, row in rows:
        def cells(kind):
            fws = [fw for fw in FRAMEWORKS if (fw, kind) in row]
            total = " / ".join(f"{row[fw, kind]:,}" for fw in fws)
            if prev is None:
                return total, "–"
            pn, prow = prev
            return total, " / ".join(f"{(row[fw, kind] - prow[fw, kind]) / (n - pn):,.0f}" for fw in fws)
        cols = [c for kind in ("mir", "llvm-ir", "expansion") for c in cells(kind)]
        lines.append(f"| {n} | " + " | ".join(cols) + " |")
        prev = (n, row)
    lines.append("\nPer tool: the growth from the row above, divided by the tools added.")
    record("lines" + ("-questions" if args.questions else ""), "\n".join(lines) + "\n")


def normalise(name):
    """One group for every tool's copy of an item: the crate's name and the numbers in the
    generated names (`t12`, `T12Args`, `ask10`, `Confirm10`, `__rondo_entry_3`) dropped."""
    name = re.sub(r"\b(rondo|base|rmcp)_t\d+q?s?\b", "crate", name)
    return re.sub(r"\b(t|T|ask|Confirm|__rondo_entry_|__RondoArgs_t)(\d+)", r"\1N", name)


def cmd_where(args):
    """Where the LLVM IR per tool goes: the function groups that grow most between two tool
    counts, per framework."""
    out = BENCH / "target" / "build-many"
    low, high = args.tools[0], args.tools[-1]
    lines = [f"LLVM IR lines per tool by function, from {low} to {high} tools{', every fifth tool asking a form question' if args.questions else ''}: {context()}\n"]
    for fw in FRAMEWORKS:
        groups = []
        for n in (low, high):
            d = generate(out, fw, n, args.questions, args.args)
            print(f"== {d.name}", file=sys.stderr)
            groups.append(ir.grouped(emitted(d, out / f"target-{fw}", d.name, "llvm-ir"), normalise))
        rows = []
        for g in set(groups[0]) | set(groups[1]):
            a, b = groups[0].get(g, [0, 0]), groups[1].get(g, [0, 0])
            rows.append(((b[0] - a[0]) / (high - low), (b[1] - a[1]) / (high - low), g))
        rows.sort(reverse=True)
        total = sum(r[0] for r in rows)
        lines += [f"\n{fw}: {total:,.0f} lines per tool\n", "| lines per tool | copies per tool | function |", "|---|---|---|"]
        lines += [f"| {l:,.0f} | {c:.1f} | `{g[:150]}` |" for l, c, g in rows[:args.top] if l > 0]
    record("where" + ("-questions" if args.questions else ""), "\n".join(lines) + "\n")


def rustc_command(d, target, mode):
    """The shell command cargo runs to compile the user's crate (`cargo MODE -v`, which compiles
    it: call it with an edit pending)."""
    p = cargo(d, target, mode, "-v")
    crate = d.name.replace("-", "_")
    for line in p.stderr.splitlines():
        line = line.strip()
        if line.startswith("Running `") and f"--crate-name {crate} " in line:
            return line[len("Running `"):-1]
    sys.exit(f"{d.name}: no rustc command in `cargo {mode} -v`")


def instructions(d, target, mode):
    """Instructions rustc executes for `cargo MODE` after one edit of tool 0 that adds three
    characters (`edit`): the same count on a loaded machine as on an idle one."""
    cargo(d, target, mode)
    edit(d, 2)
    command = rustc_command(d, target, mode)
    edit(d, 0)
    cargo(d, target, mode)  # back to the state before the edit
    edit(d, 2)
    count = valgrind(d, command)
    edit(d, 0)
    cargo(d, target, mode)
    return count


def valgrind(d, command):
    """Instructions `command` (a shell command, run in `d`) executes: valgrind's cachegrind with
    no cache simulation."""
    p = subprocess.run(f"valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null {command}",
                       shell=True, cwd=d, capture_output=True, text=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
    if p.returncode != 0 or not m:
        sys.exit(f"{d.name}: valgrind failed:\n{p.stderr[-3000:]}")
    return int(m.group(1).replace(",", ""))


def clean_instructions(d, target):
    """Instructions rustc executes for a clean debug build of the user's crate (its
    dependencies built before)."""
    cargo(d, target, "build")
    cargo(d, target, "clean", "-p", d.name)
    command = rustc_command(d, target, "build")
    cargo(d, target, "clean", "-p", d.name)
    (target / "debug" / "deps").mkdir(parents=True, exist_ok=True)
    return valgrind(d, command)


def cmd_instr(args):
    """Instructions of `cargo check` and `cargo build` after one edit (`--only rebuild,check`),
    or of a clean debug build (`--only "clean debug"`), each framework in turn: a deterministic
    twin of `time`'s columns."""
    out = BENCH / "target" / "build-many"
    modes = [m for c, m in (("clean debug", "clean"), ("check", "check"), ("rebuild", "build")) if c in args.only] or ["check"]
    title = {"clean": "a clean debug build", "check": "`cargo check` after one edit", "build": "`cargo build` after one edit"}
    lines = [f"- {context()}; arguments: {args.args}" + ("; with questions" if args.questions else ""), "",
             "Instructions rustc executes for the user's crate (millions), " + " / ".join(FRAMEWORKS) + ":", "",
             "| tools | " + " | ".join(title[m] for m in modes) + " |", "|---|" + "---|" * len(modes)]
    for n in args.tools:
        cells = []
        for mode in modes:
            counts = []
            for fw in FRAMEWORKS:
                d = generate(out, fw, n, args.questions, args.args)
                print(f"== {d.name}: {title[mode]}", file=sys.stderr)
                target = out / f"target-{fw}"
                counts.append(clean_instructions(d, target) if mode == "clean" else instructions(d, target, mode))
            cells.append(" / ".join(f"{c / 1e6:,.0f}" for c in counts))
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    record("instr" + ("-questions" if args.questions else ""), "\n".join(lines) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["gen", "time", "table", "lines", "where", "instr"])
    p.add_argument("files", nargs="*", help="table: the .jsonl files of `time` runs to pool")
    p.add_argument("--top", type=int, default=25, help="where: how many function groups to show")
    p.add_argument("--tools", default=None, help="tool counts, comma-separated")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--only", default=",".join(COLUMNS),
                   help="time: which figures, comma-separated (default: all): " + ", ".join(COLUMNS))
    p.add_argument("--questions", action="store_true", help="every fifth tool asks a form question")
    p.add_argument("--out", help="gen: where to write the crates")
    p.add_argument("--args", choices=["params", "struct", "mixed"], default="struct",
                   help="Rondo's arguments: one `#[args]` struct like rmcp's (the default), parameters with `#[arg(description)]`, or the CI guard's mix (generate.py)")
    p.add_argument("--base", help="another Rondo checkout, measured as a third framework `base`")
    p.add_argument("--no-rmcp", action="store_true", help="leave rmcp out (a before-and-after of Rondo alone)")
    args = p.parse_args()
    if args.base:
        RUNTIMES["base"] = Path(args.base).resolve() / "runtime"
        FRAMEWORKS.insert(1, "base")
    if args.no_rmcp:
        FRAMEWORKS.remove("rmcp")
    default = {"lines": "25,100,300", "where": "25,100", "instr": "300"}.get(args.command, "1,25,100,300")
    args.tools = [int(t) for t in (args.tools or default).split(",")]
    args.only = [c.strip() for c in args.only.split(",")]
    if unknown := set(args.only) - set(COLUMNS):
        sys.exit(f"--only: unknown {', '.join(sorted(unknown))}; the figures are {', '.join(COLUMNS)}")
    if args.command == "gen":
        if not args.out:
            sys.exit("gen needs --out DIR")
        for fw in FRAMEWORKS:
            for n in args.tools:
                print(generate(args.out, fw, n, args.questions, args.args))
    elif args.command == "time":
        cmd_time(args)
    elif args.command == "instr":
        cmd_instr(args)
    elif args.command == "table":
        cmd_table(args)
    elif args.command == "where":
        cmd_where(args)
    else:
        cmd_lines(args)


if __name__ == "__main__":
    main()
