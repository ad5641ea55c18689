# Sourced by interop/run.sh, interop/inspect.sh and scripts/test-all.sh (from the repository root): installs the pinned
# Node.js tooling, conformance/'s (its Node 22 binary) and interop/ts/'s (the TypeScript SDK, its
# 1.x releases and the Inspector), each with `npm ci` unless its node_modules already matches its
# lockfile, and sets `node` to that Node 22; python_venv and python_1x install the pinned Python
# SDKs.

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

# The official MCP Python SDK's 1.x releases, one per handshake revision before 2025-11-25, each
# speaking that revision as its newest (its LATEST_PROTOCOL_VERSION; interop/python_sdk_1x.py
# checks it). The TypeScript SDK's are in interop/ts/package.json (sdk-1-5, sdk-1-11, sdk-1-20).
declare -A PYTHON_SDKS_1X=([2024-11-05]=1.5.0 [2025-03-26]=1.9.4 [2025-06-18]=1.22.0)

# One virtual environment under target/ with what the three need (interop/requirements-1x.txt),
# and each release, without its dependencies, in a folder of its own there (mcp-VERSION, put on
# PYTHONPATH to run it); made again when either list changes. Sets `python_1x` to its
# interpreter and `python_1x_sdks` to the folder of those folders.
python_1x() {
  local venv=target/interop-venv-1x want v
  want="$(cat interop/requirements-1x.txt; printf 'mcp==%s\n' "${PYTHON_SDKS_1X[@]}" | sort)"
  if [[ "$want" != "$(cat "$venv/.requirements" 2>/dev/null)" ]]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r interop/requirements-1x.txt
    for v in "${PYTHON_SDKS_1X[@]}"; do
      "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --target "$venv/mcp-$v" "mcp==$v"
    done
    printf '%s' "$want" >"$venv/.requirements"
  fi
  python_1x="$venv/bin/python"
  python_1x_sdks="$PWD/$venv"
}

npm_ci conformance
npm_ci interop/ts
node=conformance/node_modules/.bin/node
[[ "$("$node" --version)" == v22.* ]] || { echo "expected Node 22 at $node" >&2; exit 2; }
