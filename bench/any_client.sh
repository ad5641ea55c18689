#!/usr/bin/env bash
# Rondo against rmcp under every driver, in one run (BENCHMARKS.md, "Any client"): our Rust
# drivers as bench/real.sh runs them (driver and server pinned), our HTTP driver with the
# servers free, and the outside drivers of bench/outside.sh (a Python client over stdio, wrk
# over HTTP, nothing but wrk pinned). Writes everything to results/any-client-DATE.txt and the
# outside drivers' raw lines and table beside it; the load average is recorded before, between
# and after. Takes about 15 minutes after the build; run it on an idle machine.
#
#   bench/any_client.sh
#   RUNS=1 SECONDS_PER_RUN=1 SEQ=500 FLOOD=2000 PIPELINED=2000 bench/any_client.sh   # a smoke run
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results
out=results/any-client-$(date -u +%Y%m%dT%H%M%SZ).txt
load() { echo "load average $1: $(cut -d' ' -f1-3 /proc/loadavg)"; }
{
  load "at the start"
  echo "# 1. our drivers, driver on CPU 0, servers on CPU 1 (bench/real.sh)"
  bash real.sh
  load "after bench/real.sh"
  echo "# 2. our HTTP driver, servers not pinned (SERVER_CPU=none PARTS=http bench/real.sh)"
  SERVER_CPU=none PARTS=http bash real.sh
  load "after the unpinned HTTP run"
  echo "# 3. the outside drivers (bench/outside.sh)"
  bash outside.sh
  load "at the end"
} 2>&1 | tee "$out"
echo "written: $out"
