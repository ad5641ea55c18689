#!/usr/bin/env bash
# Drives Rondo's example servers with real clients at both protocol revisions over stdio and
# Streamable HTTP: the official MCP Python SDK (interop/python_sdk.py) and the official MCP
# TypeScript SDK's client (interop/ts/sdk.mjs). Installs the pinned Python SDK into a virtual
# environment under target/ (needs python3 >= 3.10 with venv) and the pinned TypeScript packages
# with `npm ci` (needs npm; the scripts run on the Node 22 binary that conformance/'s lockfile
# pins), builds the servers, and fails if any check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# `npm ci` in $1 unless its node_modules already matches its lockfile.
npm_ci() {
  local marker="$1/node_modules/.package-lock.json"
  if [[ ! -e "$marker" || "$1/package-lock.json" -nt "$marker" ]]; then
    command -v npm >/dev/null 2>&1 || { echo "npm not found (needed to install $1/node_modules)" >&2; exit 2; }
    (cd "$1" && npm ci --no-audit --no-fund --ignore-scripts)
    touch "$marker"
  fi
}

venv=target/interop-venv
stamp="$venv/.requirements"
if ! cmp -s interop/requirements.txt "$stamp" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r interop/requirements.txt
  cp interop/requirements.txt "$stamp"
fi
npm_ci conformance
npm_ci interop/ts
node=conformance/node_modules/.bin/node
[[ "$("$node" --version)" == v22.* ]] || { echo "expected Node 22 at $node" >&2; exit 2; }

cargo build -q --locked -p rondo-example-bookshop -p rondo-example-conformance

status=0
echo "== the official MCP Python SDK"
"$venv/bin/python" interop/python_sdk.py target/debug || status=1
echo "== the official MCP TypeScript SDK"
"$node" interop/ts/sdk.mjs target/debug || status=1
exit "$status"
