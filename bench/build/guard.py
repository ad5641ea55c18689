#!/usr/bin/env python3
"""CI's guard on the build cost per tool (`scripts/test-all.sh`; CONTRIBUTING.md, "Build cost").

Generates Rondo servers of 10, 30 and 50 tools (`generate.py`, the `mixed` shape with
questions: named arguments, every fifth tool asking a form question, every fifth taking an
`#[args]` object), compiles each with the pinned rustc against the `rondo-mcp` the test step
built (`cargo test --workspace --all-features --no-run`, so nothing is built again), and
measures per tool, from 10 to 50 tools:

- the tokens of Rondo's expansions (`RONDO_MACROS_DEBUG`), and
- the lines of LLVM IR inside function bodies (debug, `--emit=llvm-ir`, what
  `cargo llvm-lines` counts): the macros' output and the runtime's generic code it
  instantiates.

It fails when either is past its bound in `guard-bounds.json`, or when the cost per tool from
30 to 50 tools is more than 10% above that from 10 to 30 (something grows faster than the
tools). About 10 seconds.

    python3 bench/build/guard.py            # check
    python3 bench/build/guard.py --record   # write the measured figures, plus 5%, as the bounds
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import ir
from generate import ROOT, rondo_main

BOUNDS = Path(__file__).resolve().parent / "guard-bounds.json"
COUNTS = (10, 30, 50)
# How much the cost per tool may grow from the first interval to the second.
LINEAR = 1.10


def built_runtime():
    """The `rondo-mcp` library the workspace's test build made, and its dependencies' folder."""
    cmd = ["cargo", "test", "--workspace", "--all-features", "--locked", "--no-run", "--message-format=json"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"`{' '.join(cmd)}` failed:\n{p.stderr[-3000:]}")
    for line in p.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "rondo_mcp" \
                and "lib" in msg["target"]["kind"]:
            rlib = next(f for f in msg["filenames"] if f.endswith(".rlib"))
            return Path(rlib), Path(rlib).parent
    sys.exit("the test build made no rondo_mcp library")


def measure(n, rlib, deps, out):
    """(expansion tokens, LLVM IR body lines) of the `n`-tool server."""
    src = out / f"guard_{n}.rs"
    src.write_text(rondo_main(n, questions=True, style="mixed", serve=False))
    ll = out / f"guard_{n}.ll"
    cmd = ["rustc", "--edition", "2024", "--crate-type", "bin", "--crate-name", f"guard_{n}",
           "--emit=llvm-ir", "-C", "opt-level=0", "-C", "debuginfo=2", "--cap-lints", "allow",
           "-L", f"dependency={deps}", "--extern", f"rondo_mcp={rlib}", "-o", str(ll), str(src)]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, RONDO_MACROS_DEBUG="1"))
    if p.returncode != 0:
        sys.exit(f"compiling {src} failed:\n{p.stderr[-3000:]}")
    return ir.tokens(p.stderr), ir.body_lines(ll)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="write the figures, plus 5%%, as the bounds")
    parser.add_argument("--rlib", type=Path, help="measure against this librondo_mcp-*.rlib (its folder has its dependencies) instead of the test build's")
    args = parser.parse_args()
    rlib, deps = (args.rlib.resolve(), args.rlib.resolve().parent) if args.rlib else built_runtime()
    out = ROOT / "target" / "build-guard"
    out.mkdir(parents=True, exist_ok=True)
    figures = {n: measure(n, rlib, deps, out) for n in COUNTS}
    names = ("expansion tokens", "LLVM IR lines")
    per_tool, failures = {}, []
    for k, name in enumerate(names):
        (a, b, c) = (figures[n][k] for n in COUNTS)
        first = (b - a) / (COUNTS[1] - COUNTS[0])
        second = (c - b) / (COUNTS[2] - COUNTS[1])
        per_tool[name] = (c - a) / (COUNTS[2] - COUNTS[0])
        print(f"{name} per tool: {first:.0f} from {COUNTS[0]} to {COUNTS[1]} tools, "
              f"{second:.0f} from {COUNTS[1]} to {COUNTS[2]}")
        if second > first * LINEAR:
            failures.append(f"{name}: {second:.0f} per tool from {COUNTS[1]} to {COUNTS[2]} tools against "
                            f"{first:.0f} from {COUNTS[0]} to {COUNTS[1]}: something grows faster than the tools")
    if args.record:
        bounds = {name: round(v * 1.05) for name, v in per_tool.items()}
        bounds["measured"] = {name: round(v) for name, v in per_tool.items()}
        BOUNDS.write_text(json.dumps(bounds, indent=2) + "\n")
        print(f"recorded in {BOUNDS.relative_to(ROOT)}: {bounds}")
    else:
        bounds = json.loads(BOUNDS.read_text())
        for name in names:
            if per_tool[name] > bounds[name]:
                failures.append(f"{name}: {per_tool[name]:.0f} per tool, past the bound of {bounds[name]} "
                                f"({BOUNDS.relative_to(ROOT)}; CONTRIBUTING.md, \"Build cost\", says when and how to raise it)")
            else:
                print(f"{name}: {per_tool[name]:.0f} per tool, within the bound of {bounds[name]}")
    if failures:
        sys.exit("build cost guard failed:\n- " + "\n- ".join(failures))


if __name__ == "__main__":
    main()
