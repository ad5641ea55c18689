#!/usr/bin/env bash
# Benchmarks where users run the code: each server a release binary with tokio's multi-thread
# runtime (`#[tokio::main]`), driven side by side in one run. Three servers each: Rondo, rmcp
# 3.11 and the floor (a hand-written tokio server, no MCP framework, `src/floor.rs`).
#
#   bench/real.sh                       # everything, 5 runs per figure (about 5 min after the build)
#   RUNS=1 SEQ=200 PIPELINED=2000 SECONDS_PER_RUN=1 bench/real.sh   # a smoke run
#   PARTS=http bench/real.sh            # only the HTTP part (PARTS: any of stdio http)
#
# 1. real stdio (`src/bin/stdio_bench.rs`): `rondo_stdio`, `rmcp_stdio`, `floor_stdio` as child
#    processes over pipes, at 2025-11-25 (handshake) and 2026-07-28 (stateless): SEQ (2000)
#    sequential `add` calls, then PIPELINED (20000) with at most WINDOW (1000) unanswered;
#    then memory per request in flight: W `wait` calls (300 ms each) at once, for W in
#    MEM (1,100,1000).
# 2. Streamable HTTP (`src/bin/http_bench.rs`): `rondo_http`, `rmcp_http`, `floor_http` on
#    127.0.0.1, 2026-07-28 stateless `tools/call add` from CONNS (1,8,50) keep-alive
#    connections, SECONDS_PER_RUN (5) s per run; resident memory idle and after the load.
#
# Each figure: the median of RUNS (5) runs with the range, the servers interleaved within each
# repetition. The drivers run on core DRIVER_CPU (0), the servers on SERVER_CPU (1), with
# `taskset`; `none` for either leaves it free (SERVER_CPU=none: the servers on both cores, as
# users run them). Needs only cargo, taskset (util-linux) and coreutils; run it on an idle machine.
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-5}
SEQ=${SEQ:-2000}
PIPELINED=${PIPELINED:-20000}
WINDOW=${WINDOW:-1000}
MEM=${MEM:-1,100,1000}
CONNS=${CONNS:-1,8,50}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-5}
DRIVER_CPU=${DRIVER_CPU:-0}
SERVER_CPU=${SERVER_CPU:-1}
PARTS=${PARTS:-stdio http}
command -v taskset >/dev/null || { echo "taskset is missing (util-linux)" >&2; exit 1; }

cargo build --release --quiet --manifest-path Cargo.toml \
  --bin stdio_bench --bin rondo_stdio --bin rmcp_stdio --bin floor_stdio \
  --bin http_bench --bin rondo_http --bin rmcp_http --bin floor_http
bin=target/release

echo "## Machine"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- nproc: $(nproc); CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)"
echo "- $(rustc --version)"
echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
echo "- rmcp: $(sed -n '/^name = "rmcp"$/{n;s/^version = "\(.*\)"/\1/p}' Cargo.lock)"
echo "- driver on CPU $DRIVER_CPU, servers on CPU $SERVER_CPU (taskset; none: not pinned); RUNS=$RUNS"
driver=()
[[ $DRIVER_CPU == none ]] || driver=(taskset -c "$DRIVER_CPU")
server=()
[[ $SERVER_CPU == none ]] || server=(--server-cpu "$SERVER_CPU")
echo

for part in $PARTS; do
  case $part in
    stdio)
      echo "## Real stdio"
      echo
      "${driver[@]}" "$bin/stdio_bench" --runs "$RUNS" --seq "$SEQ" \
        --pipelined "$PIPELINED" --window "$WINDOW" --mem "$MEM" "${server[@]}"
      echo
      ;;
    http)
      echo "## Streamable HTTP"
      echo
      "${driver[@]}" "$bin/http_bench" --runs "$RUNS" --seconds "$SECONDS_PER_RUN" \
        --conns "$CONNS" "${server[@]}"
      echo
      ;;
    *) echo "unknown part: $part (PARTS: stdio http)" >&2; exit 1 ;;
  esac
done
