#!/usr/bin/env bash
# Build cost of a one-tool stdio server (`add`), Rondo against rmcp: bench/build/rondo-one and
# bench/build/rmcp-one, each a workspace of its own with a committed Cargo.lock.
#
# For each crate, with its own target directory (bench/target/build-cost/<name>):
#   - the crates are downloaded first (`cargo fetch --locked`), so no time is network time; the
#     builds then run `--locked --offline`;
#   - RUNS times (default 3): `cargo clean`, then a clean `cargo build --release`, wall time;
#     then the tool body is edited (the constant on the line marked BUILD-COST-EDIT in
#     src/main.rs: `+ 0` becomes `+ 1`) and `cargo build --release` again, wall time (the
#     incremental rebuild), then the edit is undone;
#   - crates: the number of "Compiling" lines of the clean build, i.e. the packages compiled,
#     the server crate and build-time (proc-macro, build script) dependencies included;
#   - the stripped size of the release binary (`strip` of a copy, `stat -c %s`).
# Prints a Markdown table: median of the RUNS, [lowest–highest].
#
#   bench/build.sh            # 3 runs each: about 3 x (clean Rondo + clean rmcp) builds
#   RUNS=5 bench/build.sh
#
# It compiles with every core; run it on an otherwise idle machine.
set -euo pipefail

RUNS=${RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/target/build-cost"
mkdir -p "$out"

# The line `sed` edits, and how it is put back even when a build fails.
edited=""
restore() {
    if [[ -n "$edited" ]]; then
        sed -i 's/+ 1\(.*BUILD-COST-EDIT\)/+ 0\1/' "$edited"
        edited=""
    fi
}
trap restore EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# median [low–high] of the numbers in $@.
summary() {
    printf '%s\n' "$@" | sort -g | awk '
        { v[NR] = $1 }
        END {
            m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%.1f s [%.1f–%.1f]", m, v[1], v[NR]
        }'
}

declare -A clean incr crates size
for name in rondo-one rmcp-one; do
    dir="$here/build/$name"
    manifest="$dir/Cargo.toml"
    target="$out/$name"
    main="$dir/src/main.rs"
    grep -q '+ 0.*BUILD-COST-EDIT' "$main" || { echo "no BUILD-COST-EDIT line in $main" >&2; exit 1; }
    echo "== $name: cargo fetch" >&2
    cargo fetch --locked --manifest-path "$manifest" >&2
    build=(cargo build --release --locked --offline --manifest-path "$manifest" --target-dir "$target")
    cleans=() incrs=()
    for run in $(seq 1 "$RUNS"); do
        cargo clean --manifest-path "$manifest" --target-dir "$target" 2>/dev/null
        echo "== $name: clean build $run/$RUNS" >&2
        log="$target.log"
        t0=$(now)
        "${build[@]}" 2>"$log"
        t1=$(now)
        cleans+=("$(elapsed "$t0" "$t1")")
        n=$(grep -c '^ *Compiling ' "$log")
        if [[ -n "${crates[$name]:-}" && "${crates[$name]}" != "$n" ]]; then
            echo "$name: $n crates compiled in run $run, ${crates[$name]} before" >&2
            exit 1
        fi
        crates[$name]=$n

        echo "== $name: incremental rebuild $run/$RUNS" >&2
        sed -i 's/+ 0\(.*BUILD-COST-EDIT\)/+ 1\1/' "$main"
        edited="$main"
        t0=$(now)
        "${build[@]}" 2>"$log"
        t1=$(now)
        grep -q "Compiling $name " "$log" || { echo "$name was not rebuilt" >&2; exit 1; }
        incrs+=("$(elapsed "$t0" "$t1")")
        restore
    done
    # The binary of the restored source.
    "${build[@]}" 2>/dev/null
    strip -o "$target/$name.stripped" "$target/release/$name"
    size[$name]=$(stat -c %s "$target/$name.stripped")
    clean[$name]=$(summary "${cleans[@]}")
    incr[$name]=$(summary "${incrs[@]}")
    echo "== $name: clean ${cleans[*]} s; incremental ${incrs[*]} s" >&2
done

kib() { awk -v b="$1" 'BEGIN { printf "%.0f KiB", b / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median_of() { awk '{ print $1 }' <<<"$1"; }

echo
echo "Build cost of a one-tool stdio server ($RUNS runs; $(nproc) cores; $(rustc --version))"
echo
echo "| | Rondo | rmcp | Rondo / rmcp |"
echo "| --- | --- | --- | --- |"
echo "| clean release build | ${clean[rondo-one]} | ${clean[rmcp-one]} | $(ratio "$(median_of "${clean[rondo-one]}")" "$(median_of "${clean[rmcp-one]}")") |"
echo "| rebuild after editing the tool body | ${incr[rondo-one]} | ${incr[rmcp-one]} | $(ratio "$(median_of "${incr[rondo-one]}")" "$(median_of "${incr[rmcp-one]}")") |"
echo "| crates compiled (clean build) | ${crates[rondo-one]} | ${crates[rmcp-one]} | $(ratio "${crates[rondo-one]}" "${crates[rmcp-one]}") |"
echo "| stripped binary | $(kib "${size[rondo-one]}") (${size[rondo-one]} B) | $(kib "${size[rmcp-one]}") (${size[rmcp-one]} B) | $(ratio "${size[rondo-one]}" "${size[rmcp-one]}") |"
