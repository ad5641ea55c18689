#!/usr/bin/env bash
# Drives Rondo's example servers with real clients at every protocol revision over stdio and
# Streamable HTTP: the official MCP Python SDK (interop/python_sdk.py), the official MCP
# TypeScript SDK's client (interop/ts/sdk.mjs) and, as a smoke test, the MCP Inspector's CLI
# (interop/ts/inspector.mjs), at 2026-07-28 and 2025-11-25; then the bookshop protected by a
# real OAuth authorization server (interop/ts/auth.mjs, with the Python SDK's OAuth client in
# interop/python_auth.py); then both SDKs' 1.x releases, one per older revision (2024-11-05,
# 2025-03-26, 2025-06-18: interop/python_sdk_1x.py, interop/ts/sdk_1x.mjs; the matrix is in
# interop/README.md). Installs the pinned Python SDKs into virtual environments under target/
# (needs python3 >= 3.10 with venv) and the pinned TypeScript SDKs, the Inspector and the
# authorization server with `npm ci` (needs npm; the scripts run on the Node 22 binary
# conformance/'s lockfile pins), builds the servers, runs every driver, and fails if any check
# of any of them failed.
set -euo pipefail
cd "$(dirname "$0")/.."

source interop/tooling.sh
python_venv
python_1x

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

# The 1.x releases, one per revision before 2025-11-25 (tooling.sh's PYTHON_SDKS_1X, and the
# TypeScript SDK's under their npm aliases), over stdio, and over Streamable HTTP from
# 2025-03-26, which brought it. 2024-11-05's clients reach a remote server over HTTP+SSE
# instead (`GET /sse` on the `--http` address).
declare -A TS_SDKS_1X=([2024-11-05]=sdk-1-5 [2025-03-26]=sdk-1-11 [2025-06-18]=sdk-1-20)
declare -A TRANSPORTS_1X=([2024-11-05]="stdio sse" [2025-03-26]="stdio http" [2025-06-18]="stdio http")
for rev in 2024-11-05 2025-03-26 2025-06-18; do
  read -ra transports <<<"${TRANSPORTS_1X[$rev]}"
  echo "== the official MCP Python SDK ${PYTHON_SDKS_1X[$rev]} ($rev)"
  PYTHONPATH="$python_1x_sdks/mcp-${PYTHON_SDKS_1X[$rev]}" \
    "$python_1x" interop/python_sdk_1x.py target/debug "$rev" "${transports[@]}" || status=1
  echo "== the official MCP TypeScript SDK, ${TS_SDKS_1X[$rev]} ($rev)"
  "$node" interop/ts/sdk_1x.mjs target/debug "${TS_SDKS_1X[$rev]}" "$rev" "${transports[@]}" || status=1
done
exit "$status"
