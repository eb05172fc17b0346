#!/usr/bin/env bash
# Property-based API test of `vision-tasks serve` with Schemathesis against the server's own OpenAPI
# document (GET /openapi.json), then a positive check with real images that Schemathesis cannot make.
#
#   scripts/serve/schemathesis.sh
#
# 1. Schemathesis (PyPI, pinned below; in .venv/schemathesis), every check but one, on a server
#    without --token, EXAMPLES test cases at most per operation and phase; then a shorter pass on a
#    server with --token, where `ignored_auth` checks the 401s. Left out:
#    - positive_data_acceptance: it wants every schema-valid request to succeed. A schema can say that
#      a body is "a string of type image/jpeg", not that it decodes, so Schemathesis' bytes are rightly
#      400 invalidImage; and session options are documented as any name with a text, number or boolean
#      value, while each task takes only its own option names (400 invalidOption otherwise).
#    The rest run (`--checks all`): not_a_server_error, status_code_conformance,
#    content_type_conformance, response_headers_conformance, response_schema_conformance,
#    negative_data_rejection (400s for out-of-schema input), missing_required_header,
#    unsupported_method and allow_header_conformance (405 with Allow), use_after_free and
#    ensure_resource_availability (sessions), ignored_auth, object_level_authorization.
# 2. Positive part (curl): three real images (a PNG from ../shared/images/decoded, two JPEGs from
#    ../shared/images/original) to each of the six tasks: 200, JSON valid against the documented
#    schema, and equal to what `vision-tasks TASK IMAGE --threads 1` prints (docs/SERVER.md: the same
#    encoder). Then a pose session over three video frames, equal to `vision-tasks pose --video`, a
#    non-increasing timestamp (400), DELETE (204) and the same DELETE again (404). The server must
#    then stop on SIGTERM with status 0.
#
# Exits non-zero when any check fails; prints "skipped: ..." and exits 0 when there are no models.
# Environment: VISION_TASKS_MODELS (default ../shared/models), VISION_TASKS_BIN (default
# .build/release/vision-tasks, built when missing), EXAMPLES (default 50), SEED (default: random,
# printed), WORKERS (server --workers, default 2), REPORT_DIR (keep Schemathesis' NDJSON and JUnit
# reports there). Needs curl (installed when missing) and python3 with venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/serve/common.sh

SCHEMATHESIS_VERSION=4.32.5
EXAMPLES="${EXAMPLES:-50}"
WORKERS="${WORKERS:-2}"
SEED="${SEED:-$((RANDOM * 32768 + RANDOM))}"
IMAGES=../shared/images
TASKS=(pose hands objects faces face-landmarks segment)

serve_models_or_skip
if [ ! -d "$IMAGES/decoded" ] || [ ! -d "$IMAGES/original" ]; then
  echo "skipped: no images in $IMAGES (decoded/ and original/)"
  exit 0
fi
serve_need curl curl
VENV=.venv/schemathesis
serve_venv "$VENV" "schemathesis==$SCHEMATHESIS_VERSION"
serve_binary

WORK="$(mktemp -d)"
cleanup() {
  serve_stop_all
  rm -rf "$WORK"
}
trap cleanup EXIT

FAILED=()
fail() {
  echo "FAIL $*"
  FAILED+=("$*")
}

# run_schemathesis NAME PORT EXAMPLES [schemathesis options...]: one bounded Schemathesis run.
run_schemathesis() {
  local name="$1" port="$2" examples="$3"
  shift 3
  local reports=()
  if [ -n "${REPORT_DIR:-}" ]; then
    mkdir -p "$REPORT_DIR"
    # shellcheck disable=SC2054 # "ndjson,junit" is one argument
    reports=(--report ndjson,junit --report-dir "$REPORT_DIR"
      --report-ndjson-path "$REPORT_DIR/$name.ndjson" --report-junit-path "$REPORT_DIR/$name.xml")
  fi
  echo
  echo "== schemathesis $SCHEMATHESIS_VERSION ($name): http://127.0.0.1:$port/openapi.json, $examples examples, seed $SEED"
  local status=0
  (cd "$WORK" && timeout 150 "$OLDPWD/$VENV/bin/schemathesis" --config-file "$WORK/$name.toml" run \
    "http://127.0.0.1:$port/openapi.json" \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples "$examples" --seed "$SEED" --workers 1 \
    --request-timeout 30 --generation-database none --no-color \
    "${reports[@]}" "$@") || status=$?
  if [ "$status" = 124 ]; then
    fail "schemathesis ($name) did not finish within 150 s"
  elif [ "$status" != 0 ]; then
    fail "schemathesis ($name) exited with status $status (its failures are above)"
  fi
}

# open_session PORT JSON [curl options...]: prints the new session's id.
open_session() {
  local port="$1" json="$2"
  shift 2
  curl -sS --max-time 30 "$@" -H 'Content-Type: application/json' --data "$json" \
    "http://127.0.0.1:$port/v1/sessions" | "$VENV/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}

# A Schemathesis configuration that sends the frames of POST /v1/sessions/{id}/frames to an open
# session (otherwise nearly all of them would be 404 for a random id). Schemathesis runs one worker:
# with more, Hypothesis parses lambdas' source in several threads at once, which CPython 3.11 can
# fail with "SystemError: AST constructor recursion depth mismatch" (an error of the tool, not a finding).
# Warnings: validation_mismatch is not shown (the task operations "mostly reject generated data"
# because random bytes are no image, as expected); those that mean a fault of the server or its
# document fail the run.
write_config() {
  cat > "$WORK/$1.toml" << EOF
[warnings]
display = ["missing_auth", "missing_test_data", "base_url_mismatch", "missing_deserializer",
  "unused_openapi_auth", "unsupported_regex", "method_not_allowed", "unresolvable_reference"]
fail-on = ["missing_auth", "base_url_mismatch", "missing_deserializer", "method_not_allowed",
  "unresolvable_reference"]

[[operations]]
include-operation-id = "session-frame"
parameters = { "path.id" = "$2" }
EOF
}

# ---------------------------------------------------------------- 1. Schemathesis, no token
serve_start "$WORK/serve.err" --workers "$WORKERS"
PORT="$SERVE_PORT"
PID="$SERVE_PID"
write_config open "$(open_session "$PORT" '{"task": "faces"}')"
run_schemathesis open "$PORT" "$EXAMPLES"

# ---------------------------------------------------------------- 2. positive part, same server
echo
echo "== positive: real images, http://127.0.0.1:$PORT"
curl -sS --max-time 30 -o "$WORK/openapi.json" "http://127.0.0.1:$PORT/openapi.json"
export VISION_TASKS_MODELS="$MODELS"
# check STATUS-WANTED METHOD TEMPLATE URL-PATH CONTENT-TYPE BODY-FILE [CLI-JSONL [LINE]]
check() {
  local want="$1" method="$2" template="$3" url="$4" type="$5" body="$6"
  shift 6
  local out="$WORK/answer.json" meta
  meta="$(curl -sS --max-time 60 -o "$out" -w '%{http_code} %{content_type}' -X "$method" \
    -H "Content-Type: $type" --data-binary "@$body" "http://127.0.0.1:$PORT$url")" || meta="000 none"
  local line
  line="$("$VENV/bin/python" scripts/serve/check_answer.py "$WORK/openapi.json" "$method" "$template" "$want" \
    "${meta%% *}" "${meta#* }" "$out" "$@")" || true
  echo "$line  [$method $url, $(basename "$body")]"
  case "$line" in ok*) ;; *) FAILED+=("$method $url with $(basename "$body"): ${line#FAIL "$method $template": }") ;; esac
}
for image in "$IMAGES/decoded/business-person.png" "$IMAGES/original/grace_hopper.jpg" \
  "$IMAGES/original/hand_thumb_up.jpg"; do
  case "$image" in *.png) type=image/png ;; *) type=image/jpeg ;; esac
  for task in "${TASKS[@]}"; do
    "$BIN" "$task" "$image" --threads 1 > "$WORK/cli.jsonl" 2> "$WORK/cli.err" || {
      fail "vision-tasks $task $image: $(tail -1 "$WORK/cli.err")"
      continue
    }
    check 200 POST "/v1/$task" "/v1/$task" "$type" "$image" "$WORK/cli.jsonl"
  done
done
# One tracking session: three frames, as `vision-tasks pose --video` (frames 33 ms apart) sees them.
FRAMES=("$IMAGES/frames/gesture_test_video/000.png" "$IMAGES/frames/gesture_test_video/001.png"
  "$IMAGES/frames/gesture_test_video/002.png")
if [ -f "${FRAMES[2]}" ]; then
  "$BIN" pose "${FRAMES[@]}" --video --frame-ms 33 --threads 1 > "$WORK/video.jsonl" 2> /dev/null \
    || fail "vision-tasks pose --video ${FRAMES[*]}"
  id="$(open_session "$PORT" '{"task": "pose", "options": {"num-poses": 1}}')" || id=""
  if [ -z "$id" ]; then
    fail "POST /v1/sessions {task: pose} gave no id"
  else
    for n in 0 1 2; do
      check 200 POST "/v1/sessions/{id}/frames" "/v1/sessions/$id/frames?timestampInMilliseconds=$((n * 33))" \
        image/png "${FRAMES[$n]}" "$WORK/video.jsonl" "$((n + 1))"
    done
    check 400 POST "/v1/sessions/{id}/frames" "/v1/sessions/$id/frames?timestampInMilliseconds=66" \
      image/png "${FRAMES[2]}"
    for want in 204 404; do
      got="$(curl -sS --max-time 30 -o /dev/null -w '%{http_code}' -X DELETE "http://127.0.0.1:$PORT/v1/sessions/$id")" \
        || got=000
      if [ "$got" = "$want" ]; then echo "ok   DELETE /v1/sessions/{id} -> $got"; else
        fail "DELETE /v1/sessions/$id: status $got, want $want"
      fi
    done
  fi
fi
metrics="$(curl -sS --max-time 30 "http://127.0.0.1:$PORT/metrics")" || metrics=""
if grep -q '^vision_tasks_requests_total{endpoint="pose",status="200"} [1-9]' <<< "$metrics"; then
  echo "ok   GET /metrics counts the pose answers"
else
  fail "GET /metrics has no vision_tasks_requests_total{endpoint=\"pose\",status=\"200\"}"
fi
if serve_stop "$PID"; then echo "ok   the server stopped on SIGTERM with status 0"; else
  fail "the server stopped on SIGTERM with status $? (want 0); its standard error: $(tail -3 "$WORK/serve.err")"
fi

# ---------------------------------------------------------------- 3. Schemathesis, --token
TOKEN="schemathesis-$SEED"
serve_start "$WORK/serve-token.err" --workers "$WORKERS" --token "$TOKEN"
write_config token "$(open_session "$SERVE_PORT" '{"task": "faces"}' -H "Authorization: Bearer $TOKEN")"
run_schemathesis token "$SERVE_PORT" "$((EXAMPLES / 2 > 5 ? EXAMPLES / 2 : 5))" -H "Authorization: Bearer $TOKEN"
if ! serve_stop "$SERVE_PID"; then fail "the server with --token did not stop with status 0"; fi

echo
if [ "${#FAILED[@]}" -gt 0 ]; then
  echo "schemathesis.sh: ${#FAILED[@]} failure(s) (seed $SEED):"
  printf '  - %s\n' "${FAILED[@]}"
  exit 1
fi
echo "schemathesis.sh: every check passed (seed $SEED)"
