#!/usr/bin/env bash
# The concurrency stress suite under ThreadSanitizer (debug build in .build-tsan, lowest
# priority). VT_STRESS_ROUNDS (default here 2) sets the rounds per thread.
set -euo pipefail
cd "$(dirname "$0")/../.."
export VT_STRESS_ROUNDS=${VT_STRESS_ROUNDS:-2}
exec nice -n 19 swift test --sanitize=thread --scratch-path .build-tsan --filter ConcurrencyStress
