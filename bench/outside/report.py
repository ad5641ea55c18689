#!/usr/bin/env python3
"""The bookkeeping of bench/outside.sh: one JSON line per run, and the Markdown table.

    report.py stdio --server rondo --rev 2026-07-28 --mode flood --run 1 --first rondo \
        --status 0 --out OUT --err ERR           # prints the record; exit 1 if the run failed
    report.py http --server rmcp --rev 2025-11-25 --conns 8 --run 2 --first rmcp \
        --session yes --ticks 123 --clk-tck 100 --wrk-cpu 1.93 --status 0 --out WRK_OUT
    report.py table RESULTS.jsonl                # the Markdown table of a results file

A run failed when its driver exited non-zero or printed no result, when an stdio answer failed
its check, or when wrk saw a non-2xx status, a wrong body or a socket error. A failed run keeps
its record (with `ok: false` and why) but is left out of the medians; the table says so.
Standard library only.
"""

import argparse
import json
import statistics
import sys

SERVERS = ("rondo", "rmcp")
# The ceiling under the same driver (FLOOR=1, HTTP only): `floor_http`, bare hyper with a typed
# serde_json reply and no MCP framework (bench/src/floor.rs).
FLOOR = "floor"


def last_lines(path, n=3):
    try:
        with open(path, errors="replace") as f:
            lines = [l.rstrip() for l in f if l.strip()]
    except OSError:
        return ""
    return " / ".join(lines[-n:])


def stdio_record(a):
    rec = {
        "part": "stdio",
        "server": a.server,
        "rev": a.rev,
        "mode": a.mode,
        "run": a.run,
        "first": a.first,
    }
    result = None
    with open(a.out, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    result = json.loads(line)
                except ValueError:
                    pass
    rec["result"] = result
    why = []
    if a.status != 0:
        why.append(f"the driver exited with {a.status}")
    if result is None:
        why.append("no result line")
    elif result.get("bad_answers"):
        why.append(
            f"{result['bad_answers']} of {result['calls']} answers failed their check, "
            f"first: {result['first_bad'][0] if result['first_bad'] else '?'}"
        )
    if why and a.status != 0 and (result is None or not result.get("bad_answers")):
        why.append(f"stderr: {last_lines(a.err)}")
    rec["ok"] = not why
    rec["why"] = "; ".join(why) or None
    return rec


def cpu_times(path):
    """{cpu number: (busy, total)} jiffies from the `cpuN` lines of /proc/stat saved at `path`:
    busy is all but idle and iowait."""
    out = {}
    with open(path) as f:
        for line in f:
            name, *fields = line.split()
            if not name.startswith("cpu") or name == "cpu":
                continue
            ticks = [int(x) for x in fields]
            idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
            out[int(name[3:])] = (sum(ticks) - idle, sum(ticks))
    return out


def cpu_busy(before, after):
    """{cpu number (a string, as JSON keys are): share of that CPU busy between the two}."""
    b, a = cpu_times(before), cpu_times(after)
    busy = {}
    for n in sorted(a):
        if n in b and a[n][1] > b[n][1]:
            busy[str(n)] = round((a[n][0] - b[n][0]) / (a[n][1] - b[n][1]), 3)
    return busy


def http_record(a):
    rec = {
        "part": "http",
        "server": a.server,
        "rev": a.rev,
        "conns": a.conns,
        "run": a.run,
        "first": a.first,
        "session": a.session == "yes",
        "server_ticks": a.ticks,
        "clk_tck": a.clk_tck,
        "wrk_cpu_s": a.wrk_cpu,
        "cpu_busy": cpu_busy(a.cpus_before, a.cpus_after),
    }
    result = None
    with open(a.out, errors="replace") as f:
        for line in f:
            if line.startswith("OUTSIDE_JSON "):
                result = json.loads(line[len("OUTSIDE_JSON ") :])
    rec["wrk"] = result
    why = []
    if a.status != 0:
        why.append(f"wrk exited with {a.status}: {last_lines(a.out)}")
    if result is None:
        why.append("no OUTSIDE_JSON line from add.lua")
    else:
        if result["non_2xx"]:
            why.append(f"{result['non_2xx']} non-2xx answers of {result['answers']}")
        if result["bad_body"]:
            why.append(f"{result['bad_body']} 2xx answers with a wrong body")
        errors = {k: v for k, v in result["socket_errors"].items() if v}
        if errors:
            why.append(f"socket errors {errors}")
        if why and result.get("first_bad"):
            why.append(f"first: {result['first_bad'][:300]}")
        if result["requests"] == 0:
            why.append("no request completed")
    if result is not None and result["requests"]:
        per10k = 10000 / result["requests"]
        rec["calls_per_s"] = result["requests_per_s"]
        rec["server_cpu_ms_per_10k"] = round(a.ticks * 1000 / a.clk_tck * per10k, 1)
        rec["client_cpu_ms_per_10k"] = round(a.wrk_cpu * 1000 * per10k, 1)
        rec["client_cpu_share"] = round(a.wrk_cpu / (result["duration_us"] / 1e6), 3)
    rec["ok"] = not why
    rec["why"] = "; ".join(why) or None
    return rec


# Fewer clock ticks of server CPU than this in a run, and its CPU figure is marked as coarse.
FEW_TICKS = 20


def figures(rec):
    """(calls/s, server CPU ms per 10k, client CPU share, server CPU ticks) of a record."""
    if rec["part"] == "stdio":
        r = rec["result"]
        return (
            r["calls_per_s"],
            r["server_cpu_ms_per_10k"],
            r["client_cpu_share"],
            r.get("server_cpu_ticks", FEW_TICKS),
        )
    return (
        rec["calls_per_s"],
        rec["server_cpu_ms_per_10k"],
        rec["client_cpu_share"],
        rec["server_ticks"],
    )


def spread(values, fmt="{:.0f}"):
    if not values:
        return "—"
    m = statistics.median(values)
    return f"{fmt.format(m)} [{fmt.format(min(values))}–{fmt.format(max(values))}]"


def ratio(a_by_run, b_by_run):
    """Ratio of the medians [range of the per-repetition ratios], over the runs both passed."""
    a = list(a_by_run.values())
    b = list(b_by_run.values())
    if not a or not b:
        return "—"
    per = [a_by_run[r] / b_by_run[r] for r in a_by_run if r in b_by_run and b_by_run[r]]
    whole = statistics.median(a) / statistics.median(b) if statistics.median(b) else float("inf")
    if not per:
        return f"{whole:.2f}"
    return f"{whole:.2f} [{min(per):.2f}–{max(per):.2f}]"


def row_key(rec):
    if rec["part"] == "stdio":
        return ("stdio", rec["rev"], rec["mode"])
    return ("http", rec["rev"], rec["conns"])


def row_label(key, recs):
    part, rev, what = key
    if part == "stdio":
        calls = next((r["result"]["calls"] for r in recs if r.get("result")), "?")
        return f"stdio {rev} {what} ({calls} calls)"
    session = {r["server"]: r["session"] for r in recs}
    note = ""
    if rev == "2025-11-25":
        with_session = [s for s in SERVERS if session.get(s)]
        note = f"; session: {', '.join(with_session) or 'none'}"
    plural = "" if what == 1 else "s"
    return f"HTTP {rev}, {what} connection{plural}{note}"


def table(path):
    recs, loads, meta = [], [], {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            d = json.loads(line)
            kind = d.get("kind")
            if kind == "load":
                loads.append(d)
            elif kind == "meta":
                meta = d
            else:
                recs.append(d)
    floored = any(r["server"] == FLOOR for r in recs)
    keys = []
    for r in recs:
        if row_key(r) not in keys:
            keys.append(row_key(r))
    out = []
    if meta:
        said = [
            meta.get("date"),
            f"commit {meta.get('commit')}",
            f"nproc {meta.get('nproc')}",
            meta.get("cpu"),
            meta.get("python"),
            meta.get("wrk"),
            f"rmcp {meta.get('rmcp')}",
            f"RUNS={meta.get('runs')}",
        ]
        if any(r["part"] == "http" for r in recs):
            said.append(
                f"wrk -t1 on CPU {meta.get('wrk_cpu')}, {meta.get('seconds_per_run')} s per run"
            )
        out.append("; ".join(str(x) for x in said if x))
        if meta.get("server_cpus"):
            out.append(
                f"DIAGNOSIS ONLY: every HTTP server ran under `taskset -c {meta['server_cpus']}`. "
                "These are not the unpinned figures the targets are stated for."
            )
        if meta.get("server_workers"):
            out.append(
                "DIAGNOSIS ONLY: every HTTP server ran with "
                f"TOKIO_WORKER_THREADS={meta['server_workers']}. These are not the figures "
                "with tokio's defaults that the targets are stated for."
            )
    for l in loads:
        out.append(f"load average {l['when']}: {l['loadavg']} ({l['uptime']})")
    out.append("")
    out.append(
        "| row | rondo calls/s | rmcp calls/s | Rondo/rmcp | rondo server CPU ms/10k | "
        "rmcp server CPU ms/10k | CPU Rondo/rmcp | driver CPU, share of a core (rondo / rmcp) |"
        + (" floor calls/s | Rondo/floor | floor/rmcp |" if floored else "")
    )
    out.append("|---|---|---|---|---|---|---|---|" + ("---|---|---|" if floored else ""))
    notes = []
    coarse = False
    for key in keys:
        rows = [r for r in recs if row_key(r) == key]
        rate, cpu, client, failed, few = {}, {}, {}, {}, {}
        for s in SERVERS + (FLOOR,):
            rate[s], cpu[s], client[s], failed[s], few[s] = {}, {}, {}, [], False
            for r in rows:
                if r["server"] != s:
                    continue
                if not r["ok"]:
                    failed[s].append(r)
                    continue
                c, m, share, ticks = figures(r)
                rate[s][r["run"]], cpu[s][r["run"]], client[s][r["run"]] = c, m, share
                few[s] = few[s] or ticks < FEW_TICKS

        def rate_cell(s):
            """The server's calls/s, and its failed runs (each also noted below the table)."""
            cell = spread(list(rate[s].values()))
            if failed[s]:
                total = len(failed[s]) + len(rate[s])
                cell += f" ({len(failed[s])} of {total} runs failed)"
                for r in failed[s]:
                    notes.append(f"- {row_label(key, rows)}, {s}, run {r['run']}: {r['why']}")
            return cell

        cells = [rate_cell(s) for s in SERVERS]
        cells.append(ratio(rate["rondo"], rate["rmcp"]))
        cells += [spread(list(cpu[s].values())) + (" *" if few[s] else "") for s in SERVERS]
        coarse = coarse or any(few.values())
        cells.append(ratio(cpu["rondo"], cpu["rmcp"]))
        shares = [spread(list(client[s].values()), "{:.2f}") for s in SERVERS]
        cells.append(" / ".join(shares))
        if floored:
            cells.append(rate_cell(FLOOR))
            cells.append(ratio(rate["rondo"], rate[FLOOR]))
            cells.append(ratio(rate[FLOOR], rate["rmcp"]))
        out.append(f"| {row_label(key, rows)} | {' | '.join(cells)} |")
    out.append("")
    out.append(
        "Median [min–max] of the runs that passed; ratios: of the medians [range of the "
        "per-repetition ratios]. Server CPU: utime+stime from /proc/PID/stat over the calls "
        "(clock ticks, so coarse for short runs). Driver CPU: the Python client's own "
        "(getrusage) or wrk's (bash `time`), as a share of one core over the run."
    )
    if floored:
        out.append("")
        out.append(
            "Floor: `floor_http`, bare hyper answering the same bytes from typed serde_json "
            "structs with no MCP framework, under the same wrk in the same repetitions: what a "
            "server on hyper and tokio's defaults reaches on this machine when its own work is "
            "next to nothing. floor/rmcp is what Rondo/rmcp would be if Rondo cost nothing "
            "above hyper."
        )
    if coarse:
        out.append("")
        out.append(
            f"\\* fewer than {FEW_TICKS} clock ticks of server CPU in some run: too short a run "
            "for that figure (more calls, or longer runs)."
        )
    out.extend(cpu_table(recs, keys, meta))
    if notes:
        out.append("")
        out.append("Failed runs (left out of the figures):")
        out.append("")
        out.extend(notes)
    print("\n".join(out))


def cpu_table(recs, keys, meta):
    """How busy each CPU was during the HTTP runs (median share over the runs that passed),
    per server: wrk's CPU first."""
    http = [k for k in keys if k[0] == "http"]
    if not any(r.get("cpu_busy") for r in recs if r["part"] == "http"):
        return []
    wrk_cpu = str(meta.get("wrk_cpu", 0))
    cpus = sorted({c for r in recs for c in r.get("cpu_busy", {})}, key=int)
    cpus = [wrk_cpu] + [c for c in cpus if c != wrk_cpu] if wrk_cpu in cpus else cpus
    servers = [s for s in SERVERS + (FLOOR,) if any(r["server"] == s for r in recs)]
    out = ["", "CPU busy during the HTTP runs, " + " / ".join(
        f"CPU {c}" + (" (wrk's)" if c == wrk_cpu else "") for c in cpus) + ":", ""]
    out.append("| row | " + " | ".join(servers) + " |")
    out.append("|---|" + "---|" * len(servers))
    for key in http:
        cells = []
        for s in servers:
            runs = [r["cpu_busy"] for r in recs
                    if row_key(r) == key and r["server"] == s and r["ok"] and r.get("cpu_busy")]
            if not runs:
                cells.append("—")
                continue
            cells.append(" / ".join(
                f"{100 * statistics.median(b.get(c, 0) for b in runs):.0f}%" for c in cpus))
        out.append(f"| {row_label(key, [r for r in recs if row_key(r) == key])} | "
                   + " | ".join(cells) + " |")
    out.append("")
    out.append(
        "Share of each CPU's time not idle (user, system, interrupts) over the wrk run, all "
        "processes together, from /proc/stat; median over the runs that passed."
    )
    return out


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("stdio")
    h = sub.add_parser("http")
    for q in (s, h):
        q.add_argument("--server", choices=SERVERS + (FLOOR,), required=True)
        q.add_argument("--rev", required=True)
        q.add_argument("--run", type=int, required=True)
        q.add_argument("--first", choices=SERVERS, required=True)
        q.add_argument("--status", type=int, required=True)
        q.add_argument("--out", required=True)
    s.add_argument("--mode", required=True)
    s.add_argument("--err", required=True)
    h.add_argument("--conns", type=int, required=True)
    h.add_argument("--session", choices=("yes", "no"), required=True)
    h.add_argument("--ticks", type=int, required=True)
    h.add_argument("--clk-tck", type=int, required=True)
    h.add_argument("--wrk-cpu", type=float, required=True)
    h.add_argument("--cpus-before", required=True)
    h.add_argument("--cpus-after", required=True)
    t = sub.add_parser("table")
    t.add_argument("results")
    a = p.parse_args()
    if a.cmd == "table":
        table(a.results)
        return 0
    rec = stdio_record(a) if a.cmd == "stdio" else http_record(a)
    print(json.dumps(rec))
    return 0 if rec["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
