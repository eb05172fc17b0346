#!/usr/bin/env bash
# Live-stream soak: 10 000 frames (or $1) through a PoseLandmarker (lite model) in release at the
# lowest priority; prints frames delivered/dropped and resident memory after warm-up and at peak.
set -euo pipefail
cd "$(dirname "$0")/../.."
export VT_SOAK_FRAMES=${1:-10000}
exec nice -n 19 swift test -c release -Xswiftc -enable-testing --filter LiveStreamSoak
