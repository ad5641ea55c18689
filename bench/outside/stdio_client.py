#!/usr/bin/env python3
"""An outside MCP client over real stdio: Python 3's standard library, no SDK.

    stdio_client.py --rev 2026-07-28 --mode sequential --calls 5000 -- SERVER [ARGS..]
    stdio_client.py --rev 2025-11-25 --mode flood --calls 20000 -- SERVER [ARGS..]

Starts SERVER as a child process with its stdin and stdout as pipes (stderr inherited; no CPU
pinning), opens the connection the way the revision says, then calls the server's `add` tool
CALLS times:

- 2025-11-25: `initialize` (id 0, its answer must name 2025-11-25), then
  `notifications/initialized`; the calls carry no `_meta`.
- 2026-07-28: no handshake; every call names the revision and the client's capabilities in
  `params._meta`.

These are the bytes the project's Rust drivers send (`bench/src/wire.rs`): the same capabilities
(form elicitation), call `i` is `add(a=i, b=2i)` with id `i` from 1 on, its answer must be `3i`.

Modes:

- `sequential`: write one JSON line, flush, read one answer line, check it, repeat.
- `flood`: one thread writes all CALLS lines as fast as the pipe takes them (through Python's
  default 8 KiB write buffer, flushed at the end), another reads and checks all CALLS answers,
  in whatever order they come. No window: nothing waits for an answer before writing.

Every answer is checked: a JSON object with a numeric id that was sent and not answered before,
no `error`, `isError` not true, the first content block's text the sum. An answer that fails its
check is counted and the run goes on to the last answer (so the count is whole); then the JSON
line says how many (`bad_answers`, the first three in `first_bad`), they are printed on stderr
and the exit status is 1. A line that is not JSON, a server that closes its output early, does
not answer within --timeout seconds, or does not exit with status 0 once its input is closed,
stop the run at once with a message on stderr and exit status 1.

Prints one JSON line: calls/s, the server's CPU time (utime + stime of /proc/PID/stat, every
thread, read just before the first call is written and just after the last answer is read, in
clock ticks of os.sysconf('SC_CLK_TCK')) as ms per 10,000 calls, and the client's own CPU time
(getrusage of this process, both threads) the same way, with its share of one core.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time

CAPS = '{"elicitation":{"form":{}}}'
REVS = ("2026-07-28", "2025-11-25")


def fail(msg):
    print(f"stdio_client: {msg}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def initialize_line():
    return (
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        f'"capabilities":{CAPS},"clientInfo":{{"name":"rondo-bench","version":"0"}}}}}}'
    )


INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}'


def call_line(rev, i):
    args = f'{{"a":{i},"b":{2 * i}}}'
    if rev == "2025-11-25":
        return (
            f'{{"jsonrpc":"2.0","id":{i},"method":"tools/call",'
            f'"params":{{"name":"add","arguments":{args}}}}}'
        )
    return (
        f'{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"_meta":'
        '{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        f'"io.modelcontextprotocol/clientCapabilities":{CAPS}}},'
        f'"name":"add","arguments":{args}}}}}'
    )


def cpu_ticks(pid):
    """utime + stime of the process (all its threads), in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError as e:
        fail(f"cannot read /proc/{pid}/stat: {e}")
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    fields = stat[stat.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return int(fields[11]) + int(fields[12])


def own_cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def read_answer(out, what):
    line = out.readline()
    if not line:
        fail(f"the server closed its output while {what} was awaited")
    try:
        return json.loads(line)
    except ValueError:
        fail(f"not JSON while {what} was awaited: {line[:300]!r}")


class BadAnswer(Exception):
    """An answer that is not the right result (flood mode counts these, then fails)."""


def _check_sum(msg, first, last, seen):
    """Checks an answer to an `add` call with an id in first..=last; returns the id."""
    if not isinstance(msg, dict):
        raise BadAnswer(f"not a JSON object: {msg!r}")
    i = msg.get("id")
    if not isinstance(i, int) or isinstance(i, bool) or not first <= i <= last:
        raise BadAnswer(f"an answer with an id that was not sent: {json.dumps(msg)[:300]}")
    if seen is not None:
        if seen[i - first]:
            raise BadAnswer(f"answered twice: {json.dumps(msg)[:300]}")
        seen[i - first] = True
    if "error" in msg:
        raise BadAnswer(f"an error answer: {json.dumps(msg)[:300]}")
    result = msg.get("result")
    try:
        text = result["content"][0]["text"]
    except (TypeError, KeyError, IndexError):
        raise BadAnswer(f"no content text in the answer: {json.dumps(msg)[:300]}")
    if result.get("isError") is True:
        raise BadAnswer(f"a tool error: {json.dumps(msg)[:300]}")
    if text != str(3 * i):
        raise BadAnswer(f"add({i}, {2 * i}) answered {text!r}: {json.dumps(msg)[:300]}")
    return i


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rev", choices=REVS, required=True)
    p.add_argument("--mode", choices=("sequential", "flood"), required=True)
    p.add_argument("--calls", type=int, default=20000)
    p.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole run")
    p.add_argument("server", nargs="+", help="the server's command line (after --)")
    a = p.parse_args()
    if a.calls <= 0:
        fail("--calls must be positive")

    proc = subprocess.Popen(a.server, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    timed_out = threading.Event()

    def on_timeout():
        timed_out.set()
        proc.kill()

    watchdog = threading.Timer(a.timeout, on_timeout)
    watchdog.daemon = True
    watchdog.start()
    w, r = proc.stdin, proc.stdout
    try:
        if a.rev == "2025-11-25":
            w.write((initialize_line() + "\n").encode())
            w.flush()
            init = read_answer(r, "the initialize answer")
            version = (init.get("result") or {}).get("protocolVersion")
            if init.get("id") != 0 or version != "2025-11-25":
                fail(f"initialize answered {json.dumps(init)[:300]}")
            w.write((INITIALIZED + "\n").encode())
            w.flush()

        first, last = 1, a.calls
        lines = [(call_line(a.rev, i) + "\n").encode() for i in range(first, last + 1)]
        pid = proc.pid
        cpu0, own0, t0 = cpu_ticks(pid), own_cpu_seconds(), time.perf_counter()
        bad = []  # (count, first few messages) of answers that failed their check

        def check(msg, lo, hi, seen):
            try:
                return _check_sum(msg, lo, hi, seen)
            except BadAnswer as e:
                bad.append(str(e))
                return None

        if a.mode == "sequential":
            for i, line in enumerate(lines, first):
                w.write(line)
                w.flush()
                check(read_answer(r, f"the answer to call {i}"), i, i, None)
        else:
            write_error = []

            def writer():
                try:
                    for line in lines:
                        w.write(line)
                    w.flush()
                except OSError as e:
                    write_error.append(e)

            t = threading.Thread(target=writer, daemon=True)
            t.start()
            seen = [False] * a.calls
            for n in range(a.calls):
                check(read_answer(r, f"answer {n + 1} of {a.calls}"), first, last, seen)
            t.join()
            if write_error:
                fail(f"writing to the server failed: {write_error[0]}")
        t1, cpu1, own1 = time.perf_counter(), cpu_ticks(pid), own_cpu_seconds()
    except SystemExit:
        proc.kill()
        if timed_out.is_set():
            print(f"stdio_client: no answer within {a.timeout} s", file=sys.stderr)
        raise
    except BrokenPipeError:
        proc.kill()
        fail("the server closed its input")

    w.close()
    try:
        status = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("the server did not exit within 30 s of its input closing")
    watchdog.cancel()
    if timed_out.is_set():
        fail(f"no answer within {a.timeout} s")
    if status != 0:
        fail(f"the server exited with status {status}")
    if r.read():
        fail("the server wrote more after the last answer")

    seconds = t1 - t0
    per10k = 10000 / a.calls
    tick = os.sysconf("SC_CLK_TCK")
    print(
        json.dumps(
            {
                "driver": "stdio_client.py",
                "rev": a.rev,
                "mode": a.mode,
                "calls": a.calls,
                "seconds": round(seconds, 4),
                "calls_per_s": round(a.calls / seconds, 1),
                "server_cpu_ms_per_10k": round((cpu1 - cpu0) * 1000 / tick * per10k, 1),
                "server_cpu_ticks": cpu1 - cpu0,
                "client_cpu_ms_per_10k": round((own1 - own0) * 1000 * per10k, 1),
                "client_cpu_share": round((own1 - own0) / seconds, 3),
                "clk_tck": tick,
                "bad_answers": len(bad),
                "first_bad": bad[:3],
            }
        ),
        flush=True,
    )
    if bad:
        for b in bad[:3]:
            print(f"stdio_client: {b}", file=sys.stderr)
        fail(f"{len(bad)} of {a.calls} answers failed their check (the first above)")


if __name__ == "__main__":
    main()
