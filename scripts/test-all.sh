#!/usr/bin/env bash
# Every check CI runs, in order; stops at the first failure and prints how long each step took.
# Installs what it needs itself, in the background while the first steps compile: the Rust
# crates through cargo, the conformance suite's pinned Node.js packages (including a Node 22
# binary) through `npm ci` in conformance/, the pinned MCP TypeScript SDKs (2.x and a 1.x release
# per older revision) and MCP Inspector through `npm ci` in interop/ts/, the browser test's pinned
# playwright-core through `npm ci` in examples/travel/browser/, the pinned MCP Python SDKs (2.x,
# and a 1.x release per older revision) into virtual environments under target/
# (interop/tooling.sh), and from Debian's packages, when missing (as root: apt-get),
# redis-server and redis-tools (the Redis tests and the fleet), nginx (the fleet) and chromium (the payment
# page's browser test). One target directory, debug builds only, every cargo command with the
# same features (`--workspace --all-features`), so no step builds a crate again.
set -euo pipefail
cd "$(dirname "$0")/.."

times=()
current=""
started=0
finish_step() {
  if [[ -n "$current" ]]; then times+=("$(printf '%5ds  %s' $((SECONDS - started)) "$current")"); fi
}
step() {
  finish_step
  current="$1"
  started=$SECONDS
  printf '\n==> %s [%s]\n' "$*" "$(date +%T)"
}
fail() { printf '\nerror: %s\n' "$*" >&2; exit 1; }

# A step that runs beside the next ones: `background NAME CMD...` starts it with its output in
# target/NAME.log, `finished NAME` waits for it, prints its output, and fails if it failed.
declare -A jobs=() job_started=()
background() {
  local name="$1"
  shift
  "$@" >"target/$name.log" 2>&1 &
  jobs[$name]=$!
  job_started[$name]=$SECONDS
  printf '(%s runs in the background, pid %s, log target/%s.log)\n' "$name" "$!" "$name"
}
finished() {
  local name="$1" status=0
  wait "${jobs[$name]}" || status=$?
  printf -- '--- %s (background, %ds):\n' "$name" $((SECONDS - job_started[$name]))
  cat "target/$name.log"
  times+=("$(printf '%5ds  %s (background)' $((SECONDS - job_started[$name])) "$name")")
  ((status == 0)) || fail "$name failed (exit $status; its output is above)"
}

# A one-shot run gains nothing from incremental compilation, and its caches take gigabytes of disk
# (a CI run once failed with the disk full); a developer's own setting is kept.
if [[ -n "${CI:-}" ]]; then export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"; fi

step "toolchain (the UI tests' expected output is pinned to it)"
want="$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)"
have="$(rustc --version | cut -d' ' -f2)"
[[ "$have" == "$want" ]] ||
  fail "rustc is $have but rust-toolchain.toml pins $want: the UI tests would be skipped. Run through rustup (it reads rust-toolchain.toml) or install $want."
pinned="$(grep -o 'stable([0-9.]*)' ui-tests/tests/ui.rs | sort -u)"
[[ "$pinned" == "stable(${want%.*})" ]] ||
  fail "ui-tests/tests/ui.rs pins ${pinned:-nothing} but rust-toolchain.toml pins $want: update both together."
# Under this variable the UI test fails on another compiler instead of being ignored.
export RONDO_REQUIRE_UI_TESTS=1
echo "rustc $have"

step "installing what the later steps need, in the background (log: target/prepare.log)"
mkdir -p target
prepare() {
  set -euo pipefail
  local missing=()
  command -v redis-server >/dev/null || missing+=(redis-server)
  # redis-cli makes and reshards the fleet test's Redis Cluster (Debian's redis-server depends on
  # it; a Sentinel is redis-server --sentinel, no package of its own).
  command -v redis-cli >/dev/null || missing+=(redis-tools)
  command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
  [[ -x /usr/bin/chromium ]] || missing+=(chromium)
  if (( ${#missing[@]} )); then
    [[ $EUID -eq 0 ]] || { echo "${missing[*]} missing: install (apt-get install -y ${missing[*]}) or run this as root"; return 1; }
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    [[ -x /usr/bin/chromium ]] || { echo "apt-get installed chromium but /usr/bin/chromium is not there"; return 1; }
  fi
  # interop/tooling.sh: conformance/'s and interop/ts/'s `npm ci`, conformance/'s pinned Node 22.
  source interop/tooling.sh
  npm_ci examples/travel/browser
  python_venv
  python_1x
}
(prepare) >target/prepare.log 2>&1 &
prepare_pid=$!
prepared() {
  wait "$prepare_pid" || { cat target/prepare.log >&2; fail "installing the services and packages failed (above)"; }
}
echo "pid $prepare_pid"

step "formatting"
cargo fmt --all -- --check

step "clippy (all targets, all features, warnings are errors)"
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings

step "tests (unit, integration, UI, doc; --all-features includes the Redis stores', on a redis-server each test starts)"
prepared
cargo test --workspace --all-features --locked --no-run
# The build cost per tool (bench/build/guard.py, about 10 s): servers of 10, 30 and 50 generated
# tools compiled against the rondo-mcp just built; fails when the macros' expansion or the LLVM
# IR per tool passes its bound (bench/build/guard-bounds.json) or grows faster than the tools.
python3 bench/build/guard.py
# trybuild's check of the UI fixtures keeps both cores busy for minutes, while the other test
# binaries mostly wait on timers and child processes: the two run side by side (cargo holds its
# build lock only while it builds, and everything is built above).
background ui-fixtures cargo test --workspace --all-features --locked --test ui -- --exact ui
# The tests run their own redis-server on 127.0.0.1 ports; under CI they fail if it is missing.
cargo test --workspace --all-features --locked -- --exact --skip ui
finished ui-fixtures
# The UI tests' own build (trybuild's target directory: rondo-mcp and the few crates ui-tests/
# depends on, checked again with trybuild's flags) is read by nothing after this step, so a
# one-shot run frees it (a CI run once failed with the disk full).
if [[ -n "${CI:-}" ]]; then rm -rf target/tests/trybuild; fi

step "docs and the packaged crates, in the background beside the demos, conformance and interop (which mostly wait on their clients)"
# Warnings are errors. The libraries only (the examples' binaries are read as code, not docs);
# `--examples` (there are no example targets) makes cargo resolve features with the
# dev-dependencies, as clippy and the tests did, so rustdoc reads the dependencies the test step
# built instead of checking some 160 crates again with dev-only features off. The published crates package and build on their own (together:
# rondo-mcp needs the macros crate of the same version, and both the skill-format crate).
background docs-and-package bash -c 'RUSTDOCFLAGS="-D warnings" cargo doc --workspace --all-features --no-deps --lib --examples --locked &&
  cargo package -p rondo-mcp-skill-format -p rondo-mcp-macros -p rondo-mcp --locked'

# The lib without its default features, with its defaults only, and with HTTP alone: feature
# combinations the all-features steps above never compile, where an item used only under one
# feature turns into a dead-code or unused-import error. Its own target directory, so it
# takes no lock the steps below need; it overlaps the demos, conformance and interop (which
# mostly wait on their clients) and is done before the browser and the fleet, which time servers.
background feature-subsets env CARGO_TARGET_DIR=target/subsets bash -c '
  cargo clippy -p rondo-mcp --no-default-features --lib --locked -- -D warnings &&
  cargo clippy -p rondo-mcp --all-targets --locked -- -D warnings &&
  cargo clippy -p rondo-mcp --all-targets --no-default-features --features http --locked -- -D warnings'

step "the README's first command: the travel demo (it checks its own outcome), then the bookshop's"
# The binaries the test step built (`cargo run -p` alone would build rondo-mcp again with the
# example's features only); the README's `cargo run -p rondo-example-travel -- demo` runs the same code.
target/debug/travel demo
target/debug/bookshop demo

step "official MCP conformance suite: the 2026-07-28 and 2025-11-25 requirement sets, the scenarios tagged 2025-06-18 and 2025-03-26, every scenario; each against its expected outcomes"
bash conformance/run.sh --serve-and-test target/debug/conformance

step "real clients: the official MCP Python and TypeScript SDKs (2.x at 2026-07-28 and 2025-11-25, a 1.x release per older revision), and the MCP Inspector CLI, against the example servers, stdio and HTTP"
bash interop/run.sh --built

step "waiting for the docs and the packaged crates, and for clippy over the lib's feature subsets"
finished docs-and-package
finished feature-subsets
# Read by nothing after this (see the UI tests' build above).
if [[ -n "${CI:-}" ]]; then rm -rf target/subsets; fi

step "the payment page in a real browser: headless Chromium (Debian's chromium, driven by the pinned playwright-core in examples/travel/browser/) pays a trip that pay_for_trip asked for, the tool completes; the used and the foreign link's pages"
# The test fails (it is not skipped) when the browser, Node.js or playwright-core is missing.
RONDO_NODE="$PWD/conformance/node_modules/.bin/node" CHROMIUM=/usr/bin/chromium \
  cargo test --workspace --all-features --test main --locked -- --ignored browser::

step "a fleet: three bookshops sharing one Redis behind nginx (deploy/nginx/rondo.conf), retries and replays across instances, key rotation over rolling restarts, Redis restarted, a killed instance, Redis faults (frozen, stalled, full, killed; restarted without persistence); on a Redis Cluster (replays, faults, a reshard), through a Sentinel failover, on a Redis taking only TLS"
# The test runs its own nginx in the foreground and its own redis-servers (persistent, killed and
# started again; a three-primary cluster, a primary with a replica and three Sentinels, one
# with TLS) from a temporary directory, on 127.0.0.1 ports.
cargo test --workspace --all-features --test fleet --locked -- --ignored --test-threads 1

finish_step
printf '\n==> all checks passed; seconds per step:\n'
printf '%s\n' "${times[@]}"
