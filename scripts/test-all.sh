#!/usr/bin/env bash
# Every check CI runs, in order; stops at the first failure. Installs what it needs itself: the Rust
# crates through cargo, the conformance suite's pinned Node.js packages (including a Node 22
# binary) through `npm ci` in conformance/, the pinned MCP TypeScript SDK and MCP Inspector through
# `npm ci` in interop/ts/, the pinned MCP Python SDK into a virtual environment under target/
# (interop/run.sh), and from Debian's packages, when missing (as root: apt-get), redis-server for
# the Redis task store tests and the fleet test, nginx for the fleet test, and chromium for the
# payment page's browser test (driven by the pinned playwright-core: `npm ci` in
# examples/travel/browser/). One target
# directory, debug builds only.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s [%s]\n' "$*" "$(date +%T)"; }
fail() { printf '\nerror: %s\n' "$*" >&2; exit 1; }

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

step "formatting"
cargo fmt --all -- --check

step "clippy (all targets, all features, warnings are errors)"
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings

step "tests (unit, integration, UI, doc; --all-features includes the Redis task store's, on a redis-server each test starts)"
if ! command -v redis-server >/dev/null; then
  [[ $EUID -eq 0 ]] || fail "redis-server is missing: install it (apt-get install -y redis-server) or run this as root"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi
# The tests run their own redis-server on 127.0.0.1 ports; under CI they fail if it is missing.
cargo test --workspace --all-features --locked
# The UI tests' own build (trybuild's target directory, every dependency with debug info) is
# the largest thing a run leaves: about 11 GB. Nothing after this step reads it, and a CI run
# once failed with the disk full in the next step, so a one-shot run frees it.
if [[ -n "${CI:-}" ]]; then rm -rf target/tests/trybuild; fi

step "docs (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --all-features --no-deps --locked

step "the published crates package and build on their own (together: rondo-mcp needs the macros crate of the same version, and both the skill-format crate)"
cargo package -p rondo-mcp-skill-format -p rondo-mcp-macros -p rondo-mcp --locked

step "the README's first command: the travel demo (it checks its own outcome), then the bookshop's"
cargo run -q -p rondo-example-travel --locked -- demo
cargo run -q -p rondo-example-bookshop --locked -- demo

step "official MCP conformance suite, both revisions, every scenario against its expected outcome"
cargo build -p rondo-example-conformance --bin conformance --locked
bash conformance/run.sh --serve-and-test target/debug/conformance

step "real clients: the official MCP Python and TypeScript SDKs, and the MCP Inspector CLI, against the example servers, both revisions, stdio and HTTP"
bash interop/run.sh

step "the payment page in a real browser: headless Chromium (Debian's chromium, driven by the pinned playwright-core in examples/travel/browser/) pays a trip that pay_for_trip asked for, the tool completes; the used and the foreign link's pages"
if [[ ! -x /usr/bin/chromium ]]; then
  [[ $EUID -eq 0 ]] || fail "chromium is missing: install it (apt-get install -y chromium) or run this as root"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [[ -x /usr/bin/chromium ]] || fail "apt-get installed chromium but /usr/bin/chromium is not there"
fi
# interop/tooling.sh: conformance/'s pinned Node 22 (already there after the interop step), then
# `npm ci` of the browser package unless its node_modules matches its lockfile.
(source interop/tooling.sh && npm_ci examples/travel/browser)
# The test fails (it is not skipped) when the browser, Node.js or playwright-core is missing.
RONDO_NODE="$PWD/conformance/node_modules/.bin/node" CHROMIUM=/usr/bin/chromium \
  cargo test -p rondo-example-travel --test main --locked -- --ignored browser::

step "a fleet: three bookshops sharing one Redis behind nginx (deploy/nginx/rondo.conf), retries and replays across instances, key rotation over rolling restarts, Redis restarted, a killed instance"
missing=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
command -v redis-server >/dev/null || missing+=(redis-server)
if (( ${#missing[@]} )); then
  [[ $EUID -eq 0 ]] || fail "${missing[*]} missing: install (apt-get install -y ${missing[*]}) or run this as root"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The test runs its own nginx in the foreground and its own redis-server (persistent, killed and
# started again by one test) from a temporary directory, on 127.0.0.1 ports.
cargo test -p rondo-example-bookshop --test fleet --locked -- --ignored --test-threads 1

step "all checks passed"
