#!/usr/bin/env bash
# Prints the last `cargo bench` results as Markdown rows: benchmark, the median time per
# iteration over criterion's samples and their median absolute deviation, criterion's 95%
# interval for the time per iteration (the slope of its fit), and for a benchmark with a
# throughput (64 calls an iteration) the median per call.
set -euo pipefail
cd "$(dirname "$0")/target/criterion"
for f in */*/new/estimates.json; do
  dir=$(dirname "$f")
  jq -r --slurpfile b "$dir/benchmark.json" '
    def t: if . < 1000 then "\(round) ns" elif . < 10000 then "\(. / 10 | round / 100) µs"
           else "\(. / 100 | round / 10) µs" end;
    ($b[0].throughput.Elements // null) as $n
    | (.slope // .mean).confidence_interval as $ci
    | "| \($b[0].full_id) | \(.median.point_estimate | t) | ±\(.median_abs_dev.point_estimate | t) | \($ci.lower_bound | t) – \($ci.upper_bound | t) |"
      + (if $n then " \(.median.point_estimate / $n | t) per call |" else "" end)
  ' "$f"
done
