# Sourced by interop/run.sh, interop/inspect.sh and scripts/test-all.sh (from the repository root): installs the pinned
# Node.js tooling, conformance/'s (its Node 22 binary) and interop/ts/'s (the TypeScript SDK and
# the Inspector), each with `npm ci` unless its node_modules already matches its lockfile, and
# sets `node` to that Node 22.

npm_ci() {
  local marker="$1/node_modules/.package-lock.json"
  if [[ ! -e "$marker" || "$1/package-lock.json" -nt "$marker" ]]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "npm not found (needed to install $1/node_modules)" >&2
      exit 2
    fi
    (cd "$1" && npm ci --no-audit --no-fund --ignore-scripts)
    # npm ci recreates node_modules; make the marker newer than the lockfile even on coarse clocks.
    touch "$marker"
  fi
}

# The pinned MCP Python SDK in a virtual environment under target/, made again when
# interop/requirements.txt changes; sets `python` to its interpreter.
python_venv() {
  local venv=target/interop-venv
  if ! cmp -s interop/requirements.txt "$venv/.requirements" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r interop/requirements.txt
    cp interop/requirements.txt "$venv/.requirements"
  fi
  python="$venv/bin/python"
}

npm_ci conformance
npm_ci interop/ts
npm_ci interop/sse
node=conformance/node_modules/.bin/node
[[ "$("$node" --version)" == v22.* ]] || { echo "expected Node 22 at $node" >&2; exit 2; }
