#!/usr/bin/env bash
# The HTTP+SSE transport of 2024-11-05 driven by the clients that need it: the official MCP Python
# SDK at 1.5.0 (python_sse.py, in a virtual environment under target/ made from requirements.txt)
# and the official MCP TypeScript SDK at 1.5.0 (ts_sse.mjs, installed by interop/tooling.sh with
# `npm ci`), each against `travel --http` at /sse. Called by interop/run.sh once the binaries are
# built (`cargo build --workspace --all-features --bins`); `NODE` is the Node.js to run with
# (interop/tooling.sh's), else the one on PATH. Exits 1 if any check failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/interop-sse-venv
if ! cmp -s interop/sse/requirements.txt "$venv/.requirements" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r interop/sse/requirements.txt
  cp interop/sse/requirements.txt "$venv/.requirements"
fi
if [[ ! -e interop/sse/node_modules/.package-lock.json ]]; then
  (cd interop/sse && npm ci --no-audit --no-fund --ignore-scripts)
fi
node="${NODE:-node}"

# travel on a free loopback port, stopped when this script ends.
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
target/debug/travel --http "127.0.0.1:$port" 2>target/interop-sse-travel.log &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

url="http://127.0.0.1:$port/sse"
workspace="$PWD/examples/travel/workspace"
status=0
"$venv/bin/python" interop/sse/python_sse.py "$url" "$workspace" || status=1
"$node" interop/sse/ts_sse.mjs "$url" "$workspace" || status=1
exit "$status"
