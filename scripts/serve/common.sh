# Shared by scripts/serve/schemathesis.sh and scripts/serve/load.sh (sourced, not run): finds the
# binary and the models, installs missing Debian tools, starts and stops `vision-tasks serve`.
# The sourcing script has done `cd` to the package root and `set -euo pipefail`.

# The release binary; built when missing (a fresh clone). VISION_TASKS_BIN overrides it.
serve_binary() {
  BIN="${VISION_TASKS_BIN:-.build/release/vision-tasks}"
  if [ ! -x "$BIN" ]; then
    echo "building the release binary (swift build -c release --product vision-tasks)" >&2
    swift build -c release --product vision-tasks >&2
    BIN="$(swift build -c release --show-bin-path)/vision-tasks"
  fi
}

# The models folder: $VISION_TASKS_MODELS, else ../shared/models. Without models the calling
# script has nothing to test: it prints a "skipped:" line and exits 0.
serve_models_or_skip() {
  MODELS="${VISION_TASKS_MODELS:-../shared/models}"
  if ! compgen -G "$MODELS/*.task" > /dev/null && ! compgen -G "$MODELS/*.tflite" > /dev/null; then
    echo "skipped: no models in $MODELS (set VISION_TASKS_MODELS or lay out ../shared/models)"
    exit 0
  fi
  MODELS="$(cd "$MODELS" && pwd)"
}

# serve_need COMMAND PACKAGE: installs the Debian package when the command is missing.
serve_need() {
  command -v "$1" > /dev/null && return 0
  echo "installing $2 (for $1)" >&2
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  if [ -z "${SERVE_APT_UPDATED:-}" ]; then
    $sudo apt-get update -qq >&2
    SERVE_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$2" >&2
  command -v "$1" > /dev/null || { echo "error: $2 installed but $1 is still missing" >&2; return 1; }
}

# serve_venv DIR PIP-REQUIREMENT... : makes the venv DIR (Debian: python3-venv) when it does not
# have the requirements yet, and installs them.
serve_venv() {
  local dir="$1"
  shift
  if [ -x "$dir/bin/python" ] && [ "$(cat "$dir/.requirements" 2> /dev/null)" = "$*" ]; then
    return 0
  fi
  serve_need python3 python3
  if ! python3 -m venv "$dir" > /dev/null 2>&1; then
    rm -rf "$dir"
    serve_need_package python3-venv
    python3 -m venv "$dir"
  fi
  "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >&2
  echo "$*" > "$dir/.requirements"
}

# serve_need_package PACKAGE: installs a Debian package that has no command to look for.
serve_need_package() {
  dpkg -s "$1" > /dev/null 2>&1 && return 0
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$1" >&2
}

SERVE_PIDS=()

# serve_start LOG [serve options...]: starts `vision-tasks serve --port 0 --models $MODELS ...` in
# the background, its standard error in LOG, and waits (at most 30 s) for its "listening" line.
# Sets SERVE_PID and SERVE_PORT.
serve_start() {
  local log="$1"
  shift
  "$BIN" serve --port 0 --models "$MODELS" "$@" 2> "$log" &
  SERVE_PID=$!
  SERVE_PIDS+=("$SERVE_PID")
  SERVE_PORT=""
  for _ in $(seq 300); do
    SERVE_PORT="$(sed -n '1s|^serve: listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$log")"
    [ -n "$SERVE_PORT" ] && break
    if ! kill -0 "$SERVE_PID" 2> /dev/null; then
      echo "error: vision-tasks serve exited at start:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  if [ -z "$SERVE_PORT" ]; then
    echo "error: vision-tasks serve did not say where it listens within 30 s:" >&2
    cat "$log" >&2
    return 1
  fi
}

# serve_stop PID: SIGTERM, then waits (at most 40 s; the server itself waits at most 30 s for the
# requests under way) and returns the server's exit status; SIGKILL and status 124 past that.
serve_stop() {
  local pid="$1" status=0
  kill -TERM "$pid" 2> /dev/null || true
  for _ in $(seq 400); do
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2> /dev/null; then
    kill -KILL "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    return 124
  fi
  wait "$pid" 2> /dev/null || status=$?
  return "$status"
}

# For an EXIT trap: stops every server this script started that still runs.
serve_stop_all() {
  local pid
  for pid in "${SERVE_PIDS[@]}"; do
    if kill -0 "$pid" 2> /dev/null; then serve_stop "$pid" || true; fi
  done
}
