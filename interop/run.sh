#!/usr/bin/env bash
# Drives Rondo's example servers with a real client, the official MCP Python SDK, at both
# protocol revisions over stdio and Streamable HTTP (interop/python_sdk.py). Installs the pinned
# SDK into a virtual environment under target/ (needs python3 >= 3.10 with venv), builds the
# servers, and fails if any check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/interop-venv
stamp="$venv/.requirements"
if ! cmp -s interop/requirements.txt "$stamp" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r interop/requirements.txt
  cp interop/requirements.txt "$stamp"
fi

cargo build -q --locked -p rondo-example-bookshop -p rondo-example-conformance -p rondo-example-travel
"$venv/bin/python" interop/python_sdk.py target/debug
