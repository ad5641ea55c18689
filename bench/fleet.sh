#!/usr/bin/env bash
# A fleet's shared state, measured where users run it (BENCHMARKS.md, "A fleet's shared state"):
#
#   bench/fleet.sh                       # both parts: about 10 min after the builds
#   PARTS=guard bench/fleet.sh           # PARTS: any of guard fleet
#   RUNS=1 SECONDS_PER_RUN=1 FLEET_RUNS=1 FLEET_SECONDS=2 bench/fleet.sh   # a smoke run
#   BASELINE=06c99596 PARTS=guard bench/fleet.sh   # the guard part, A/B against that commit
#
# 1. guard (`src/bin/guard_bench.rs`): one `rondo_guarded` server with its replay guard in
#    memory, on a Redis that fsyncs every write, and on one that keeps nothing on disk (both on
#    127.0.0.1), two-round flows from CONNS (1,32) clients, SECONDS_PER_RUN (5) s per run, RUNS
#    (5) runs; the driver on CPU 0 with Redis, the server on CPU 1 (taskset).
#    With BASELINE=COMMIT, that commit's `rondo_guarded` (built from `git archive` in a
#    temporary directory, its own target directory) runs too, interleaved (`--baseline`).
# 2. fleet (`src/bin/fleet_bench.rs`): three release bookshops behind nginx
#    (deploy/nginx/rondo.conf) with and without `--redis`, CLIENTS (32,256,448) clients doing order
#    flows, FLEET_SECONDS (10) s per run, FLEET_RUNS (3) runs, a fresh fleet for each; nothing
#    pinned.
#
# Needs cargo, taskset (util-linux), and Debian's redis-server and nginx
# (apt-get install redis-server nginx). Run it on an idle machine; it prints the load average
# before and after.
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-5}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-5}
CONNS=${CONNS:-1,32}
FLEET_RUNS=${FLEET_RUNS:-3}
FLEET_SECONDS=${FLEET_SECONDS:-10}
CLIENTS=${CLIENTS:-32,256,448}
PARTS=${PARTS:-guard fleet}
command -v taskset >/dev/null || { echo "taskset is missing (util-linux)" >&2; exit 1; }

cargo build --release --quiet --manifest-path Cargo.toml \
  --bin guard_bench --bin rondo_guarded --bin fleet_bench
if [[ " $PARTS " == *" fleet "* ]]; then
  cargo build --release --quiet --manifest-path ../Cargo.toml -p rondo-example-bookshop --bin bookshop
fi
bin=target/release
baseline=()
if [[ -n "${BASELINE:-}" ]]; then
  old="$(mktemp -d)"
  trap 'rm -rf "$old"' EXIT
  git -C .. archive "$BASELINE" | tar -x -C "$old"
  CARGO_TARGET_DIR="$PWD/target/baseline" cargo build --release --quiet \
    --manifest-path "$old/bench/Cargo.toml" --bin rondo_guarded
  baseline=(--baseline "$PWD/target/baseline/release/rondo_guarded" --baseline-name "$BASELINE")
fi

echo "## Machine"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- nproc: $(nproc); CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)"
echo "- $(rustc --version); $(redis-server --version | cut -d' ' -f1-3); $(nginx -v 2>&1)"
echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
echo

for part in $PARTS; do
  case $part in
    guard)
      echo "## The replay guard: in memory, on Redis"
      echo
      taskset -c 0 "$bin/guard_bench" --runs "$RUNS" --seconds "$SECONDS_PER_RUN" \
        --conns "$CONNS" --server-cpu 1 --redis-cpu 0 "${baseline[@]}"
      echo
      ;;
    fleet)
      echo "## Three bookshops behind nginx, with and without Redis"
      echo
      "$bin/fleet_bench" --bookshop ../target/release/bookshop --runs "$FLEET_RUNS" \
        --seconds "$FLEET_SECONDS" --clients "$CLIENTS"
      echo
      ;;
    *) echo "unknown part: $part (PARTS: guard fleet)" >&2; exit 1 ;;
  esac
done
echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
