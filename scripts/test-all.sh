#!/usr/bin/env bash
# Every check CI runs, in order; stops at the first failure. Installs what it needs itself: the Rust
# crates through cargo, and the conformance suite's pinned Node.js packages (including a Node 22
# binary) through `npm ci` in conformance/. One target directory, debug builds only.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "formatting"
cargo fmt --all -- --check

step "clippy (all targets, all features, warnings are errors)"
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings

step "tests (unit, integration, UI, doc)"
cargo test --workspace --all-features --locked

step "docs (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --all-features --no-deps --locked

step "the README's main command: the bookshop demo"
cargo run -q -p rondo-example-bookshop --locked -- demo

step "official MCP conformance suite, both revisions"
cargo build -p rondo-example-conformance --bin conformance --locked
bash conformance/run.sh --serve-and-test target/debug/conformance

step "all checks passed"
