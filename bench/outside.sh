#!/usr/bin/env bash
# Rondo against rmcp, measured with drivers nobody on the project wrote: a Python client over
# real stdio and wrk over Streamable HTTP (BENCHMARKS.md, "Outside drivers"). Unlike
# bench/real.sh nothing here is a Rust driver of ours, and only wrk is pinned.
#
#   bench/outside.sh                                   # everything, 3 runs per row
#   RUNS=1 SEQ=500 FLOOD=2000 SECONDS_PER_RUN=1 bench/outside.sh   # a smoke run
#   PARTS=http CONNS=8 bench/outside.sh                # PARTS: any of stdio http
#
# 1. stdio (`outside/stdio_client.py`, Python 3 standard library, no SDK): `rondo_stdio` and
#    `rmcp_stdio` as child processes over pipes, nothing pinned, at each revision of REVS
#    (2025-11-25: initialize + notifications/initialized first; 2026-07-28: `_meta` on every
#    call): SEQ (5000) sequential `add` calls (write a line, flush, read the answer), and FLOOD
#    (20000) written by one thread as fast as the pipe takes them while another reads the
#    answers (no window). Both servers run with their defaults (Rondo: at most 1024 requests at once,
#    the rest wait and the pipe holds the writer back).
# 2. http (wrk with `outside/add.lua`): `rondo_http` and `rmcp_http` on 127.0.0.1, not pinned;
#    `wrk -t1` pinned to core WRK_CPU (0) with taskset, CONNS (1,8,50) keep-alive connections,
#    SECONDS_PER_RUN (5) s per run, a `tools/call add` at each revision of REVS (2025-11-25: the
#    initialize handshake done once with curl, and the session id passed to wrk when the server
#    gives one). Every answer is checked (status 2xx, the sum, no error). With FLOOR=1 (the
#    default) each repetition also runs `floor_http` after the two: bare hyper with a typed
#    serde_json reply and no MCP framework (src/floor.rs), the ceiling under this driver on
#    this machine, reported as floor calls/s, Rondo/floor and floor/rmcp. FLOOR=0 leaves it out.
#    Each run also records how busy each CPU was over it (/proc/stat), reported in a second
#    table: wrk's CPU against the others. SERVER_CPUS (unset by default) is for diagnosis only:
#    it starts every HTTP server under `taskset -c SERVER_CPUS`, and the table says that its
#    figures are not the unpinned ones the targets are stated for. SERVER_WORKERS (unset by
#    default), also for diagnosis only, sets TOKIO_WORKER_THREADS for every HTTP server (all
#    three use `#[tokio::main]`, which reads it), and the table says so too.
#
# Every row: RUNS (3) runs per server, a fresh server process for each, the order of the two
# servers alternating from run to run. The server's CPU time (utime+stime, /proc/PID/stat) over
# the calls is reported per 10,000 calls, and the driver's own CPU time as a share of a core.
# A run that fails a check is recorded and left out of the figures, and the script exits 1 at
# the end. Raw results (one JSON line per run, load averages) go to
# results/outside-DATE.jsonl, the table to results/outside-DATE.md, both printed paths.
# Needs cargo, python3, taskset (util-linux), curl and wrk (Debian's `wrk`: installed with
# apt-get when missing and run as root). Run it on an idle machine.
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-3}
SEQ=${SEQ:-5000}
FLOOD=${FLOOD:-20000}
CONNS=${CONNS:-1,8,50}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-5}
WRK_CPU=${WRK_CPU:-0}
REVS=${REVS:-2026-07-28 2025-11-25}
PARTS=${PARTS:-stdio http}
FLOOR=${FLOOR:-1}
SERVER_CPUS=${SERVER_CPUS:-}
SERVER_WORKERS=${SERVER_WORKERS:-}

die() { echo "outside.sh: $*" >&2; exit 1; }
for rev in $REVS; do
  case $rev in 2026-07-28 | 2025-11-25) ;; *) die "unknown revision in REVS: $rev" ;; esac
done
for part in $PARTS; do
  case $part in stdio | http) ;; *) die "unknown part in PARTS: $part (stdio http)" ;; esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$RUNS'"
[[ $FLOOR == 0 || $FLOOR == 1 ]] || die "FLOOR must be 0 or 1, not '$FLOOR'"
[[ -z $SERVER_CPUS || $SERVER_CPUS =~ ^[0-9,-]+$ ]] || die "SERVER_CPUS must be a CPU list for taskset -c, not '$SERVER_CPUS'"
[[ -z $SERVER_WORKERS || $SERVER_WORKERS =~ ^[1-9][0-9]*$ ]] || die "SERVER_WORKERS must be a positive integer, not '$SERVER_WORKERS'"
command -v python3 >/dev/null || die "python3 is missing"
command -v cargo >/dev/null || die "cargo is missing"
if [[ " $PARTS " == *" http "* ]]; then
  command -v taskset >/dev/null || die "taskset is missing (Debian: apt-get install util-linux)"
  command -v curl >/dev/null || die "curl is missing (Debian: apt-get install curl)"
  if ! command -v wrk >/dev/null; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
      echo "wrk is missing: installing it with apt-get" >&2
      if ! { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }; then
        die "apt-get install wrk failed"
      fi
    else
      die "wrk is missing: install it (Debian/Ubuntu: sudo apt-get install wrk) and run again"
    fi
  fi
fi

cargo build --release --quiet --manifest-path Cargo.toml \
  --bin rondo_stdio --bin rmcp_stdio --bin rondo_http --bin rmcp_http --bin floor_http
bin=target/release
clk_tck=$(getconf CLK_TCK)

mkdir -p results
stamp=$(date -u +%Y%m%dT%H%M%SZ)
raw=results/outside-$stamp.jsonl
md=results/outside-$stamp.md
tmp=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

json_str() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$1"; }
load_line() { # when
  printf '{"kind":"load","when":"%s","loadavg":%s,"uptime":%s}\n' "$1" \
    "$(json_str "$(cut -d' ' -f1-3 /proc/loadavg)")" "$(json_str "$(uptime)")" >>"$raw"
  echo "load average $1: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
}
# utime + stime of a process, in clock ticks (field 2, the name in parentheses, is skipped).
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }

commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD -- . 2>/dev/null || commit="$commit (with uncommitted changes)"
wrk_version=""
if [[ " $PARTS " == *" http "* ]]; then wrk_version=$(wrk -v 2>&1 | head -n1 | cut -d' ' -f1-2 || true); fi
printf '{"kind":"meta","date":%s,"commit":%s,"nproc":%s,"cpu":%s,"python":%s,"wrk":%s,"runs":%s,"seq":%s,"flood":%s,"conns":%s,"seconds_per_run":%s,"wrk_cpu":%s,"server_cpus":%s,"server_workers":%s,"rmcp":%s}\n' \
  "$(json_str "$(date -u '+%Y-%m-%d %H:%M UTC')")" "$(json_str "$commit")" "$(nproc)" \
  "$(json_str "$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)")" \
  "$(json_str "$(python3 --version 2>&1)")" "$(json_str "$wrk_version")" "$RUNS" "$SEQ" \
  "$FLOOD" "$(json_str "$CONNS")" "$SECONDS_PER_RUN" "$WRK_CPU" "$(json_str "$SERVER_CPUS")" "$(json_str "$SERVER_WORKERS")" \
  "$(json_str "$(sed -n '/^name = "rmcp"$/{n;s/^version = "\(.*\)"/\1/p}' Cargo.lock)")" >"$raw"
load_line before

failures=0
# The order of the servers in repetition $1: alternating, rondo first in odd runs.
order() { if (($1 % 2)); then echo "rondo rmcp"; else echo "rmcp rondo"; fi; }

stdio_run() { # server rev mode calls run first
  local server=$1 rev=$2 mode=$3 calls=$4 run=$5 first=$6 status=0
  local cmd=("$bin/${server}_stdio")
  python3 outside/stdio_client.py --rev "$rev" --mode "$mode" --calls "$calls" -- "${cmd[@]}" \
    >"$tmp/out" 2>"$tmp/err" || status=$?
  if python3 outside/report.py stdio --server "$server" --rev "$rev" --mode "$mode" \
    --run "$run" --first "$first" --status "$status" --out "$tmp/out" --err "$tmp/err" >>"$raw"; then
    echo "stdio $rev $mode $server run $run: $(tail -n1 "$tmp/out" | cut -c1-160)" >&2
  else
    failures=$((failures + 1))
    echo "stdio $rev $mode $server run $run FAILED: $(tail -n1 "$raw" | cut -c1-400)" >&2
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# POSTs body $2 to $1 with the headers after; the status on the first line of $tmp/probe.status,
# the headers in $tmp/probe.head, the body in $tmp/probe.body.
post() {
  local url=$1 body=$2
  shift 2
  curl -sS -o "$tmp/probe.body" -D "$tmp/probe.head" -w '%{http_code}' "$url" \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    "$@" --data-binary "$body" >"$tmp/probe.status"
}

http_run() { # server rev conns run first
  local server=$1 rev=$2 conns=$3 run=$4 first=$5 status=0 port url session="" t0 t1
  port=$(free_port)
  url="http://127.0.0.1:$port/mcp"
  local pin=() workers=()
  [[ -n $SERVER_CPUS ]] && pin=(taskset -c "$SERVER_CPUS")
  [[ -n $SERVER_WORKERS ]] && workers=("TOKIO_WORKER_THREADS=$SERVER_WORKERS")
  "${pin[@]}" env "${workers[@]}" "$bin/${server}_http" "127.0.0.1:$port" </dev/null &
  server_pid=$!
  local ready=0
  for _ in $(seq 1 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then ready=1; break; fi
    sleep 0.05
  done
  ((ready)) || die "${server}_http is not listening on 127.0.0.1:$port"

  # The opening, and one call checked before wrk runs (it warms the server up, too).
  local caps='{"elicitation":{"form":{}}}' call
  if [[ $rev == 2025-11-25 ]]; then
    post "$url" '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":'"$caps"',"clientInfo":{"name":"rondo-bench","version":"0"}}}'
    if ! { [[ $(cat "$tmp/probe.status") == 200 ]] && grep -q '"protocolVersion":"2025-11-25"' "$tmp/probe.body"; }; then
      die "${server}_http: initialize answered $(cat "$tmp/probe.status") $(cat "$tmp/probe.body")"
    fi
    session=$(tr -d '\r' <"$tmp/probe.head" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: *//p' | head -n1)
    local sh=()
    [[ -n $session ]] && sh=(-H "Mcp-Session-Id: $session")
    post "$url" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
      -H 'Mcp-Protocol-Version: 2025-11-25' "${sh[@]}"
    if [[ $(cat "$tmp/probe.status") != 2* ]]; then
      die "${server}_http: notifications/initialized answered $(cat "$tmp/probe.status") $(cat "$tmp/probe.body")"
    fi
    call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
    post "$url" "$call" -H 'Mcp-Protocol-Version: 2025-11-25' "${sh[@]}"
  else
    call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":'"$caps"'},"name":"add","arguments":{"a":1,"b":2}}}'
    post "$url" "$call" -H 'Mcp-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' \
      -H 'Mcp-Name: add'
  fi
  if ! { [[ $(cat "$tmp/probe.status") == 200 ]] && grep -q '"text":"3"' "$tmp/probe.body"; }; then
    die "${server}_http: add(1, 2) at $rev answered $(cat "$tmp/probe.status") $(cat "$tmp/probe.body")"
  fi

  t0=$(cpu_ticks "$server_pid")
  grep '^cpu[0-9]' /proc/stat >"$tmp/cpus.before"
  local TIMEFORMAT='%U %S'
  { time taskset -c "$WRK_CPU" wrk -t1 -c"$conns" -d"${SECONDS_PER_RUN}s" -s outside/add.lua \
      "$url" -- "$rev" "$session" >"$tmp/wrk" 2>&1 || status=$?; } 2>"$tmp/wrk.time"
  t1=$(cpu_ticks "$server_pid")
  grep '^cpu[0-9]' /proc/stat >"$tmp/cpus.after"
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  local wrk_cpu
  wrk_cpu=$(awk '{ print $1 + $2 }' "$tmp/wrk.time")
  if python3 outside/report.py http --server "$server" --rev "$rev" --conns "$conns" \
    --run "$run" --first "$first" --session "$([[ -n $session ]] && echo yes || echo no)" \
    --ticks $((t1 - t0)) --clk-tck "$clk_tck" --wrk-cpu "$wrk_cpu" --status "$status" \
    --cpus-before "$tmp/cpus.before" --cpus-after "$tmp/cpus.after" \
    --out "$tmp/wrk" >>"$raw"; then
    echo "http $rev $conns conns $server run $run: $(grep -o '"requests_per_s":[0-9.]*' "$tmp/wrk")" >&2
  else
    failures=$((failures + 1))
    echo "http $rev $conns conns $server run $run FAILED: $(tail -n1 "$raw" | cut -c1-400)" >&2
  fi
}

for part in $PARTS; do
  for rev in $REVS; do
    if [[ $part == stdio ]]; then
      for mode in sequential flood; do
        calls=$SEQ
        [[ $mode == flood ]] && calls=$FLOOD
        for run in $(seq 1 "$RUNS"); do
          servers=$(order "$run")
          for server in $servers; do stdio_run "$server" "$rev" "$mode" "$calls" "$run" "${servers%% *}"; done
        done
      done
    else
      for conns in ${CONNS//,/ }; do
        for run in $(seq 1 "$RUNS"); do
          servers=$(order "$run")
          first=${servers%% *}
          [[ $FLOOR == 1 ]] && servers="$servers floor"
          for server in $servers; do http_run "$server" "$rev" "$conns" "$run" "$first"; done
        done
      done
    fi
  done
done

load_line after
python3 outside/report.py table "$raw" | tee "$md"
echo
echo "raw results: bench/$raw; table: bench/$md" >&2
if ((failures)); then
  echo "outside.sh: $failures runs failed (see 'Failed runs' above)" >&2
  exit 1
fi
