#!/usr/bin/env bash
# Peak RSS and wall time of each stdio server (rondo_stdio, rmcp_stdio) under the driver's fixed
# load: the 2025-11-25 handshake, then 10 000 checked `add` calls with at most WINDOW (default
# 1000) in flight.
# `/usr/bin/time -v` wraps the server alone, not the driver. Runs alternate between the two
# servers; RUNS (default 5) runs each, plus one idle run each (handshake only, no calls).
# Needs GNU time: `apt-get install -y time`.
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-5}
WINDOW=${WINDOW:-1000}
[ -x /usr/bin/time ] || { echo "GNU time is missing: apt-get install -y time" >&2; exit 1; }
cargo build --release --bins --quiet
out=target/rss
mkdir -p "$out"
report() { # server, label, driver output, time -v file
  local rss wall cpu
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$4")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$4")
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$4")
  printf '%-11s %-5s max RSS %6s KiB  wall %s  cpu %ss  driver: %s\n' \
    "$1" "$2" "$rss" "$wall" "$cpu" "$3"
}
for server in rondo_stdio rmcp_stdio; do
  said=$(./target/release/driver --calls 0 -- /usr/bin/time -v -o "$out/$server.idle" "./target/release/$server")
  report "$server" idle "$said" "$out/$server.idle"
done
for i in $(seq "$RUNS"); do
  for server in rondo_stdio rmcp_stdio; do
    said=$(./target/release/driver --calls 10000 --window "$WINDOW" -- \
      /usr/bin/time -v -o "$out/$server.$i" "./target/release/$server")
    report "$server" "run$i" "$said" "$out/$server.$i"
  done
done
