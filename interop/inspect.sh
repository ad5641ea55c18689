#!/usr/bin/env bash
# Opens one of the example servers in the MCP Inspector's web UI (the pinned
# @modelcontextprotocol/inspector of interop/ts/package-lock.json, on conformance/'s pinned
# Node 22), talking to it over stdio. Builds the example and installs the tooling first if
# needed. The UI listens on 127.0.0.1 only (port 6274, CLIENT_PORT to change it) and opens your
# browser (MCP_AUTO_OPEN_ENABLED=false not to); it keeps its catalog in ~/.mcp-inspector as it
# always does. Stop it with Ctrl-C.
#
#   bash interop/inspect.sh BINARY [INSPECTOR OPTIONS...]
#   bash interop/inspect.sh bookshop                          # 2025-11-25 (the Inspector's default)
#   bash interop/inspect.sh bookshop --protocol-era modern    # 2026-07-28
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 && "$1" != -* ]] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bin="$1"
shift

source interop/tooling.sh
cargo build -q --bin "$bin"
HOST=127.0.0.1 exec "$node" \
  interop/ts/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js \
  "$@" "target/debug/$bin"
