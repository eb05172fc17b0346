#!/usr/bin/env bash
# Load test of `vision-tasks serve` on loopback with wrk, and two replicas behind nginx.
#
#   scripts/serve/load.sh [--write docs/BENCHMARKS.md] [--replicas-only]
#
# (a) One server (--workers $WORKERS, default 2), warmed up with 20 requests, then wrk for $DURATION s
#     (default 30): 2 threads, 8 connections, POST /v1/pose with a 512x512 JPEG (made from
#     ../shared/images/decoded/astronaut.png) through scripts/serve/post_image.lua. Reports requests/s,
#     p50/p90/p99 latency, non-2xx answers and socket errors (both must be 0), the server's VmRSS
#     before (after the warm-up, so with its models loaded) and after, and compares requests/s with
#     `vision-tasks bench pose IMAGE --threads 1 --json`: a worker runs one task instance on one thread
#     (--threads 1, the server's default), so W workers can answer at most W x 1000 / medianMs
#     requests per second; measured / that = the share the server keeps (HTTP, JPEG decoding, JSON).
# (b) Two replicas (port 0, each --workers $REPLICA_WORKERS, default 1: together as many as there
#     are cores here) behind nginx (a temporary configuration: upstream of both, round robin,
#     client_max_body_size 20m, run in the foreground as a background job and stopped after), the
#     same wrk load for $REPLICA_DURATION s (default 15); then each replica's GET /metrics:
#     vision_tasks_requests_total{endpoint="pose",status="200"} must be > 0 on both, errors 0.
#
# --replicas-only runs (b) alone, for 10 s (for CI). --write FILE puts the markdown section (always
# printed on standard output) in FILE between "<!-- serve:begin (scripts/serve/load.sh) -->" and
# "<!-- serve:end -->", appended with the markers when FILE has none; the rest of FILE is left
# alone. Nothing is written when a check fails; the exit status is then 1.
#
# Traffic goes to 127.0.0.1 only; every run of wrk is bounded (-d, and `timeout`). Installs wrk,
# nginx-light and curl when missing; makes the JPEG with ffmpeg when there is one, else with Pillow
# (PyPI, pinned) in .venv/load.
# Environment: VISION_TASKS_MODELS (default ../shared/models; without models: "skipped:", exit 0),
# VISION_TASKS_BIN, WORKERS, REPLICA_WORKERS, DURATION, REPLICA_DURATION, IMAGE (the PNG to encode).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/serve/common.sh

WRITE=""
REPLICAS_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --write)
      WRITE="${2:?--write needs a file}"
      shift 2
      ;;
    --replicas-only)
      REPLICAS_ONLY=1
      shift
      ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "load.sh: unknown argument '$1' (--help lists them)" >&2
      exit 2
      ;;
  esac
done
WORKERS="${WORKERS:-2}"
REPLICA_WORKERS="${REPLICA_WORKERS:-1}"
DURATION="${DURATION:-30}"
if [ "$REPLICAS_ONLY" = 1 ]; then REPLICA_DURATION="${REPLICA_DURATION:-10}"; else REPLICA_DURATION="${REPLICA_DURATION:-15}"; fi
CONNECTIONS=8
THREADS=2
IMAGE="${IMAGE:-../shared/images/decoded/astronaut.png}"
WARMUP=20

serve_models_or_skip
if [ ! -f "$IMAGE" ]; then
  echo "skipped: $IMAGE not found (the image the load is made of)"
  exit 0
fi
serve_need wrk wrk
serve_need curl curl
serve_need nginx nginx-light
serve_binary

WORK="$(mktemp -d)"
NGINX_PID=""
cleanup() {
  if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2> /dev/null; then
    kill -QUIT "$NGINX_PID" 2> /dev/null || true
    for _ in $(seq 50); do kill -0 "$NGINX_PID" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$NGINX_PID" 2> /dev/null || true
  fi
  serve_stop_all
  rm -rf "$WORK"
}
trap cleanup EXIT

FAILED=()
fail() {
  echo "FAIL $*" >&2
  FAILED+=("$*")
}

# The 512x512 JPEG body: ffmpeg when there is one, else Pillow in .venv/load.
JPEG="$WORK/$(basename "${IMAGE%.*}").jpg"
if command -v ffmpeg > /dev/null; then
  ffmpeg -loglevel error -y -i "$IMAGE" -q:v 2 "$JPEG"
  ENCODER="ffmpeg -q:v 2"
else
  serve_venv .venv/load "pillow==13.0.0"
  .venv/load/bin/python -c 'import sys; from PIL import Image
Image.open(sys.argv[1]).convert("RGB").save(sys.argv[2], quality=90)' "$IMAGE" "$JPEG"
  ENCODER="Pillow quality 90"
fi
JPEG_SIZE="$(python3 -c 'import sys; from os.path import getsize; print(getsize(sys.argv[1]))' "$JPEG" 2> /dev/null \
  || stat -c %s "$JPEG")"
JPEG_DIMENSIONS="$(python3 - "$JPEG" << 'EOF' 2> /dev/null || echo "?"
import struct, sys
data = open(sys.argv[1], "rb").read()
i = 2
while i < len(data):
    marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
    if marker in (0xC0, 0xC1, 0xC2):
        height, width = struct.unpack(">HH", data[i + 5:i + 9])
        print(f"{width}x{height}")
        break
    i += 2 + length
EOF
)"

# rss_kb PID: VmRSS of the process in kB.
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
# metric PORT NAME{LABELS}: one value from GET /metrics (0 when absent).
metric() {
  local text
  text="$(curl -sS --max-time 30 "http://127.0.0.1:$1/metrics")" || text=""
  awk -v key="$2" '$1 == key {value = $2} END {print value == "" ? 0 : value}' <<< "$text"
}
# warm_up PORT: WARMUP requests, 4 at a time (so that every worker loads its task instance), each
# must be 200.
warm_up() {
  local lane codes lanes=()
  for lane in 1 2 3 4; do
    for _ in $(seq $((WARMUP / 4))); do
      curl -sS --max-time 60 -o /dev/null -w '%{http_code}\n' -H 'Content-Type: image/jpeg' \
        --data-binary "@$JPEG" "http://127.0.0.1:$1/v1/pose" || echo 000
    done > "$WORK/warm-up-$lane" &
    lanes+=($!)
  done
  wait "${lanes[@]}" # not a bare `wait`: that would wait for the servers too
  codes="$(cat "$WORK"/warm-up-* | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
  [ "$codes" = " $((WARMUP / 4 * 4)) 200," ] || fail "warm-up through port $1: answers (count status): $codes"
}
# CPU accounting around a wrk run: cpu_sample prints the machine's busy and total jiffies,
# ticks PID... the user + system jiffies of processes; cores BUSY0 TOTAL0 BUSY1 TOTAL1 TICKS prints
# how many cores the processes used and how many everything else did (wrk, nginx, other jobs).
cpu_sample() { awk '/^cpu / {busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6}' /proc/stat; }
ticks() {
  local pid sum=0
  for pid in "$@"; do sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2> /dev/null || echo 0))); done
  echo "$sum"
}
cores() {
  python3 -c '
import sys
busy0, total0, busy1, total1, ticks, cpus = map(float, sys.argv[1:])
elapsed = (total1 - total0) / cpus
mine = ticks / elapsed
print(f"{mine:.2f} {(busy1 - busy0) / elapsed - mine:.2f}")' "$@" "$(nproc)"
}
# run_wrk URL SECONDS NAME: wrk with the Lua script; the WRK_JSON line goes to $WORK/NAME.json.
run_wrk() {
  local url="$1" seconds="$2" name="$3"
  timeout $((seconds + 30)) wrk -t "$THREADS" -c "$CONNECTIONS" -d "${seconds}s" --latency --timeout 10s \
    -s scripts/serve/post_image.lua "$url" -- "$JPEG" image/jpeg > "$WORK/$name.txt" 2>&1 || {
    fail "wrk against $url failed: $(tail -3 "$WORK/$name.txt")"
    echo '{}' > "$WORK/$name.json"
    return 0
  }
  sed -n 's/^WRK_JSON //p' "$WORK/$name.txt" > "$WORK/$name.json"
  [ -s "$WORK/$name.json" ] || { fail "wrk printed no WRK_JSON line"; echo '{}' > "$WORK/$name.json"; }
}
# field NAME KEY: a number from $WORK/NAME.json.
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], 0))' "$WORK/$1.json" "$2"; }
# free_port: a free loopback TCP port (for nginx, which cannot report one it picked).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
# check_wrk NAME: no socket errors and no answer other than 2xx/3xx.
check_wrk() {
  local key
  for key in non2xx3xx connectErrors readErrors writeErrors timeouts; do
    [ "$(field "$1" "$key")" = 0 ] || fail "wrk ($1): $key = $(field "$1" "$key"), want 0"
  done
  [ "$(field "$1" requests)" -gt 0 ] || fail "wrk ($1): no request answered"
}
mb() { awk -v kb="$1" 'BEGIN {printf "%.1f", kb / 1024}'; }
ms() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / 1000:.1f}")' "$1"; }
rps() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / (float(sys.argv[2]) / 1e6):.1f}")' "$1" "$2"; }

CPU_MODEL="$(grep -m1 'model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//')"
CPU_FAMILY="$(awk -F': *' '/^cpu family/ {print $2; exit}' /proc/cpuinfo)"
CPU_MODEL_NUMBER="$(awk -F': *' '/^model[[:space:]]*:/ {print $2; exit}' /proc/cpuinfo)"
[ -z "$CPU_FAMILY" ] || CPU_MODEL="$CPU_MODEL (family $CPU_FAMILY, model $CPU_MODEL_NUMBER)"
CPUS="$(nproc)"
if grep -qw avx512f /proc/cpuinfo; then ISA="avx512f present"; else ISA="no avx512f"; fi
grep -qw avx2 /proc/cpuinfo && ISA="$ISA, avx2 present"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
POSE_200='vision_tasks_requests_total{endpoint="pose",status="200"}'
POSE_ERRORS='vision_tasks_request_errors_total{endpoint="pose"}'
SECTION="$WORK/section.md"
COMMAND="scripts/serve/load.sh${WRITE:+ --write $WRITE}"
[ "$REPLICAS_ONLY" = 0 ] || COMMAND="$COMMAND --replicas-only"

# ---------------------------------------------------------------- (a) one server
if [ "$REPLICAS_ONLY" = 0 ]; then
  echo "(a) one server, --workers $WORKERS: warm-up, then wrk for $DURATION s" >&2
  serve_start "$WORK/serve.err" --workers "$WORKERS"
  PORT="$SERVE_PORT"
  PID="$SERVE_PID"
  warm_up "$PORT"
  RSS_BEFORE="$(rss_kb "$PID")"
  COUNT_BEFORE="$(metric "$PORT" "$POSE_200")"
  read -r BUSY0 TOTAL0 < <(cpu_sample)
  TICKS0="$(ticks "$PID")"
  run_wrk "http://127.0.0.1:$PORT/v1/pose" "$DURATION" single
  read -r BUSY1 TOTAL1 < <(cpu_sample)
  read -r SERVER_CORES OTHER_CORES < <(cores "$BUSY0" "$TOTAL0" "$BUSY1" "$TOTAL1" $(($(ticks "$PID") - TICKS0)))
  RSS_AFTER="$(rss_kb "$PID")"
  HWM="$(awk '/^VmHWM:/ {print $2}' "/proc/$PID/status")"
  COUNT_AFTER="$(metric "$PORT" "$POSE_200")"
  ERRORS_SINGLE="$(metric "$PORT" "$POSE_ERRORS")"
  check_wrk single
  [ "$ERRORS_SINGLE" = 0 ] || fail "the server counted $ERRORS_SINGLE pose errors"
  serve_stop "$PID" || fail "the server did not stop with status 0 on SIGTERM"
  SERVED=$((COUNT_AFTER - COUNT_BEFORE))

  echo "bench: vision-tasks bench pose $(basename "$JPEG") --threads 1 --iterations 100 --json" >&2
  BENCH="$(VISION_TASKS_MODELS="$MODELS" "$BIN" bench pose "$JPEG" --threads 1 --iterations 100 --json)"
  MEDIAN_MS="$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["medianMs"])' "$BENCH")"
  REQUESTS="$(field single requests)"
  RPS="$(rps "$REQUESTS" "$(field single durationUs)")"
  read -r EXPECTED RATIO SERVICE_MS OVERHEAD_MS < <(python3 -c '
import sys
workers, median, rps = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
expected = workers * 1000 / median
service = workers * 1000 / rps if rps else float("nan")
print(f"{expected:.1f} {rps / expected:.2f} {service:.1f} {service - median:.1f}")' "$WORKERS" "$MEDIAN_MS" "$RPS")
fi

# ---------------------------------------------------------------- (b) two replicas behind nginx
echo "(b) two replicas (--workers $REPLICA_WORKERS each) behind nginx: wrk for $REPLICA_DURATION s" >&2
serve_start "$WORK/replica1.err" --workers "$REPLICA_WORKERS"
PORT1="$SERVE_PORT"
PID1="$SERVE_PID"
serve_start "$WORK/replica2.err" --workers "$REPLICA_WORKERS"
PORT2="$SERVE_PORT"
PID2="$SERVE_PID"
NGINX_PORT="$(free_port)"
mkdir -p "$WORK/nginx/logs"
chmod 755 "$WORK" "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" << EOF
# Temporary, written by scripts/serve/load.sh: two vision-tasks serve replicas, round robin.
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/client_body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  upstream vision_tasks {
    server 127.0.0.1:$PORT1;
    server 127.0.0.1:$PORT2;
    keepalive 16;
  }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    client_max_body_size 20m;
    client_body_buffer_size 1m;
    location / {
      proxy_pass http://vision_tasks;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_read_timeout 60s;
    }
  }
}
EOF
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' 2> "$WORK/nginx/stderr" &
NGINX_PID=$!
UP=""
for _ in $(seq 100); do
  if curl -s --max-time 2 -o /dev/null "http://127.0.0.1:$NGINX_PORT/healthz"; then UP=1; break; fi
  kill -0 "$NGINX_PID" 2> /dev/null || break
  sleep 0.1
done
if [ -z "$UP" ]; then
  fail "nginx did not start: $(cat "$WORK/nginx/stderr" "$WORK/nginx/logs/error.log" 2> /dev/null | tail -3)"
else
  warm_up "$NGINX_PORT"
  R1_BEFORE="$(metric "$PORT1" "$POSE_200")"
  R2_BEFORE="$(metric "$PORT2" "$POSE_200")"
  read -r BUSY0 TOTAL0 < <(cpu_sample)
  TICKS0="$(ticks "$PID1" "$PID2")"
  run_wrk "http://127.0.0.1:$NGINX_PORT/v1/pose" "$REPLICA_DURATION" replicas
  read -r BUSY1 TOTAL1 < <(cpu_sample)
  read -r REPLICA_CORES REPLICA_OTHER_CORES < <(cores "$BUSY0" "$TOTAL0" "$BUSY1" "$TOTAL1" \
    $(($(ticks "$PID1" "$PID2") - TICKS0)))
  check_wrk replicas
  R1="$(metric "$PORT1" "$POSE_200")"
  R2="$(metric "$PORT2" "$POSE_200")"
  E1="$(metric "$PORT1" "$POSE_ERRORS")"
  E2="$(metric "$PORT2" "$POSE_ERRORS")"
  R1_LOAD=$((R1 - R1_BEFORE))
  R2_LOAD=$((R2 - R2_BEFORE))
  if [ "$R1_LOAD" -le 0 ] || [ "$R2_LOAD" -le 0 ]; then
    fail "wrk's load did not reach both replicas: $R1_LOAD and $R2_LOAD pose answers"
  fi
  if [ "$E1" != 0 ] || [ "$E2" != 0 ]; then fail "pose errors on the replicas: $E1 and $E2"; fi
  REPLICA_RPS="$(rps "$(field replicas requests)" "$(field replicas durationUs)")"
fi
kill -QUIT "$NGINX_PID" 2> /dev/null || true
for _ in $(seq 50); do kill -0 "$NGINX_PID" 2> /dev/null || break; sleep 0.1; done
serve_stop "$PID1" || fail "replica 1 did not stop with status 0 on SIGTERM"
serve_stop "$PID2" || fail "replica 2 did not stop with status 0 on SIGTERM"
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------- the section
{
  echo "## Server under load"
  echo
  echo "Generated by \`$COMMAND\` on $(date -u +%Y-%m-%d): \`vision-tasks serve\` on loopback, load from"
  echo "\`wrk\` ($(wrk --version 2>&1 | head -1 | awk '{print $2}' || true)) with \`scripts/serve/post_image.lua\`: POST /v1/pose, body a"
  echo "${JPEG_DIMENSIONS} JPEG of $(basename "$IMAGE") ($JPEG_SIZE bytes, $ENCODER), $THREADS wrk threads, $CONNECTIONS connections,"
  echo "default pose options (pose_landmarker_full.task), the server's default --threads 1 per task instance."
  echo
  echo "- CPU: $CPU_MODEL, $CPUS logical CPUs; $ISA. Release build."
  echo "- Load average (1, 5, 15 min) before: $LOAD_BEFORE; after: $LOAD_AFTER. The two cores are shared with"
  echo "  other jobs, and wrk (and nginx) run on the same two cores as the server."
  if [ "$REPLICAS_ONLY" = 0 ]; then
    echo
    echo "### One server"
    echo
    echo "\`vision-tasks serve --port 0 --workers $WORKERS\`, $WARMUP warm-up requests, then"
    echo "\`wrk -t $THREADS -c $CONNECTIONS -d ${DURATION}s --latency --timeout 10s -s scripts/serve/post_image.lua URL/v1/pose -- IMAGE.jpg\`:"
    echo
    echo "| requests | requests/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | socket errors | VmRSS before → after (peak) |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    echo "| $REQUESTS | **$RPS** | $(ms "$(field single p50Us)") | $(ms "$(field single p90Us)") | $(ms "$(field single p99Us)") |" \
      "$(ms "$(field single maxUs)") | $(field single non2xx3xx) |" \
      "$(( $(field single connectErrors) + $(field single readErrors) + $(field single writeErrors) + $(field single timeouts) )) |" \
      "$(mb "$RSS_BEFORE") MB → $(mb "$RSS_AFTER") MB ($(mb "$HWM") MB) |"
    echo
    echo "The server counted $SERVED pose answers with status 200 during the run (wrk counts only those that"
    echo "came back before it stopped) and $ERRORS_SINGLE errors. \`vision-tasks bench pose IMAGE.jpg --threads 1"
    echo "--iterations 100 --json\` on the same JPEG: median **$MEDIAN_MS ms** per detect call, so $WORKERS workers could"
    echo "answer at most $WORKERS × 1000 / $MEDIAN_MS = **$EXPECTED requests/s**; measured / that = **$RATIO**."
    echo "Per request a worker spends $WORKERS × 1000 / $RPS = $SERVICE_MS ms, $OVERHEAD_MS ms more than the detect call:"
    echo "HTTP, JPEG decoding and JSON, and waiting for a core: during the run the server used **$SERVER_CORES** of"
    echo "the $CPUS cores (from /proc/PID/stat) and everything else (wrk, other jobs) $OTHER_CORES (from /proc/stat)."
  fi
  echo
  echo "### Two replicas behind nginx"
  echo
  echo "Two \`vision-tasks serve --port 0 --workers $REPLICA_WORKERS\` behind nginx $(nginx -v 2>&1 | sed 's|.*nginx/||') (upstream of both,"
  echo "round robin, keepalive, \`client_max_body_size 20m\`), $WARMUP warm-up requests, then the same wrk load for"
  echo "${REPLICA_DURATION}s through nginx; the counts are each replica's"
  echo "\`vision_tasks_requests_total{endpoint=\"pose\",status=\"200\"}\` from GET /metrics over the wrk run."
  [ -z "$UP" ] || echo "During the run the replicas used $REPLICA_CORES cores and everything else (nginx, wrk, other jobs) $REPLICA_OTHER_CORES."
  echo
  if [ -n "$UP" ]; then
    echo "| requests | requests/s | p50 ms | p99 ms | non-2xx | socket errors | replica 1 | replica 2 | errors (metrics) |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    echo "| $(field replicas requests) | **$REPLICA_RPS** | $(ms "$(field replicas p50Us)") | $(ms "$(field replicas p99Us)") |" \
      "$(field replicas non2xx3xx) |" \
      "$(( $(field replicas connectErrors) + $(field replicas readErrors) + $(field replicas writeErrors) + $(field replicas timeouts) )) |" \
      "$R1_LOAD | $R2_LOAD | $((E1 + E2)) |"
  else
    echo "nginx did not start: no figures."
  fi
  echo
  if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "**Checks that failed:**"
    printf -- '- %s\n' "${FAILED[@]}"
  else
    echo "Checks: no non-2xx answer, no socket error, no error in the servers' metrics; both replicas answered."
  fi
} > "$SECTION"
cat "$SECTION"

if [ "${#FAILED[@]}" -gt 0 ]; then
  echo "load.sh: ${#FAILED[@]} check(s) failed; nothing written" >&2
  exit 1
fi
if [ -n "$WRITE" ]; then
  python3 - "$WRITE" "$SECTION" << 'EOF'
import sys
path, section_path = sys.argv[1], sys.argv[2]
begin, end = "<!-- serve:begin (scripts/serve/load.sh) -->", "<!-- serve:end -->"
try:
    text = open(path, encoding="utf-8").read()
except FileNotFoundError:
    text = ""
block = begin + "\n\n" + open(section_path, encoding="utf-8").read().rstrip("\n") + "\n\n" + end
start = text.find(begin)
if start >= 0:
    stop = text.find(end, start)
    if stop < 0:
        sys.exit(f"{path}: '{begin}' without '{end}'; not touched")
    text = text[:start] + block + text[stop + len(end):]
else:
    text = text.rstrip("\n") + ("\n\n" if text else "") + block + "\n"
open(path, "w", encoding="utf-8").write(text)
EOF
  echo "wrote the serve section of $WRITE" >&2
fi
