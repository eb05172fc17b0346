#!/usr/bin/env bash
# Short live-stream session under AddressSanitizer + LeakSanitizer (Linux): any leak or memory
# error in our code fails the run. Debug build in .build-asan at the lowest priority.
#   scripts/reliability/leak-check.sh [frames]   (default 300)
set -euo pipefail
cd "$(dirname "$0")/../.."
export VT_SOAK_FRAMES=${1:-300} VT_SOAK_CHECK_RSS=0
export LSAN_OPTIONS="suppressions=$PWD/scripts/reliability/lsan.supp:print_suppressions=1"
export ASAN_OPTIONS="detect_leaks=1"
exec nice -n 19 swift test --sanitize=address --scratch-path .build-asan --filter LiveStreamSoak
