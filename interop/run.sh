#!/usr/bin/env bash
# Drives Rondo's example servers with real clients at both protocol revisions over stdio and
# Streamable HTTP: the official MCP Python SDK (interop/python_sdk.py), the official MCP
# TypeScript SDK's client (interop/ts/sdk.mjs) and, as a smoke test, the MCP Inspector's CLI
# (interop/ts/inspector.mjs); then the bookshop protected by a real OAuth authorization server
# (interop/ts/auth.mjs, with the Python SDK's OAuth client in interop/python_auth.py). Installs
# the pinned Python SDK into a virtual environment under target/ (needs python3 >= 3.10 with
# venv) and the pinned TypeScript SDK, the Inspector and the authorization server with
# `npm ci` (needs npm; the scripts run on the Node 22 binary conformance/'s lockfile pins),
# builds the servers, runs every driver, and fails if any check of any of them failed.
set -euo pipefail
cd "$(dirname "$0")/.."

source interop/tooling.sh
python_venv

# The workspace's binaries with every feature (a build of three packages alone would build
# rondo-mcp again with another set of features). `--built`: the caller built them so
# (scripts/test-all.sh's test step), and its docs build, running beside this, holds cargo's lock.
if [[ "${1:-}" != "--built" ]]; then
  cargo build -q --locked --workspace --all-features --bins
fi

status=0
echo "== the official MCP Python SDK"
"$python" interop/python_sdk.py target/debug || status=1
echo "== the official MCP TypeScript SDK"
"$node" interop/ts/sdk.mjs target/debug || status=1
echo "== the MCP Inspector's CLI"
"$node" interop/ts/inspector.mjs target/debug || status=1
echo "== the protected bookshop against an OAuth authorization server (oauth2-mock-server), and the Python SDK's OAuth client"
"$node" interop/ts/auth.mjs target/debug "$python" || status=1
echo "== HTTP+SSE (2024-11-05): the official Python and TypeScript SDKs at 1.5.0 (interop/sse/)"
NODE="$node" bash interop/sse/run.sh || status=1
exit "$status"
