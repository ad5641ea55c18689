#!/usr/bin/env bash
# The replay guard's Redis command, before and after the fingerprint (BENCHMARKS.md, "The
# replay guard's command: single use against the idempotency key"):
#
#   bench/guard_command.sh                      # RUNS=5 N=20000 (N/10 with fsync) CLIENTS="1 32"
#
# Before issue 45 the guard took a round with `SET rondo:replay:{round} 1 NX PXAT {t}`; since,
# with `SET rondo:replay:{round} {fingerprint} NX GET PXAT {t}` (a 32-character fingerprint, and
# the value before sent back). redis-benchmark sends each to a Redis that fsyncs every write
# (`appendfsync always`, as deploy/kubernetes/redis.yaml runs it) and to one that keeps nothing
# on disk, every round a new key (`-r`), the two commands interleaved, RUNS times; the table is
# the median [min–max] of the runs. Needs Debian's redis-server and redis-tools.
set -euo pipefail
RUNS=${RUNS:-5}
N=${N:-20000}
CLIENTS=${CLIENTS:-1 32}
dir="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Starts a Redis in $dir/NAME and sets $port (not in a subshell: its pid must reach `pids`).
start() { # name, then redis-server args
  local name=$1
  shift
  port=$(free_port)
  mkdir -p "$dir/$name"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --dir "$dir/$name" "$@" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
}
start fsync --appendonly yes --appendfsync always
fsync=$port
start plain --appendonly no
plain=$port

t=$(($(date +%s%3N) + 3600000))
old=(SET "rondo:replay:__rand_int__" 1 NX PXAT "$t")
new=(SET "rondo:replay:__rand_int__" 0123456789abcdef0123456789abcdef NX GET PXAT "$t")

# One run: requests per second and p50 in ms, from redis-benchmark's CSV line.
run() { # port, clients, n, command...
  local port=$1 c=$2 n=$3
  shift 3
  redis-benchmark -p "$port" -c "$c" -n "$n" -r 100000000 --csv "$@" 2>/dev/null |
    tail -n1 | tr -d '"' | awk -F, '{print $2, $5}'
}
spread() { # numbers on stdin: median [min–max]
  sort -g | awk '{v[NR]=$1} END {printf "%s [%s–%s]", v[int((NR+1)/2)], v[1], v[NR]}'
}

echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- nproc: $(nproc); $(redis-server --version | cut -d' ' -f1-3); $RUNS runs, interleaved"
echo
echo "| Redis | clients | before: rounds/s | after: rounds/s | before: p50 ms | after: p50 ms |"
echo "|---|---|---|---|---|---|"
for kind in fsync plain; do
  port=${!kind}
  n=$N
  [[ $kind == fsync ]] && n=$((N / 10))
  for c in $CLIENTS; do
    : >"$dir/old" && : >"$dir/new"
    for _ in $(seq "$RUNS"); do
      run "$port" "$c" "$n" "${old[@]}" >>"$dir/old"
      run "$port" "$c" "$n" "${new[@]}" >>"$dir/new"
    done
    label=$([[ $kind == fsync ]] && echo "fsync always" || echo "no persistence")
    printf '| %s | %s | %s | %s | %s | %s |\n' "$label" "$c" \
      "$(cut -d' ' -f1 "$dir/old" | spread)" "$(cut -d' ' -f1 "$dir/new" | spread)" \
      "$(cut -d' ' -f2 "$dir/old" | spread)" "$(cut -d' ' -f2 "$dir/new" | spread)"
  done
done
echo
echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
