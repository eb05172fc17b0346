#!/usr/bin/env bash
# Kernel timings of two revisions in one run: builds scripts/benchmarks/kernel_timing.c against
# the CVisionKernels sources of REV_A and of REV_B (default: the working tree), then alternates
# the two binaries for ROUNDS rounds and prints, per kernel case and instruction set, the median
# ms of each side and their ratio B / A.
#
#   scripts/benchmarks/kernel_timing.sh 23ab516 [REV_B]    (ROUNDS=5 by default)
#
# On a shared machine separate runs of the same code differ by several per cent; kernel_pairs.sh
# times the two revisions call for call in one process instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
REV_A="${1:?usage: kernel_timing.sh REV_A [REV_B]}"
REV_B="${2:-}"
ROUNDS="${ROUNDS:-5}"
CC="${CC:-clang}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

build() {  # build NAME SOURCES_DIR
  local sources="$2/Sources/CVisionKernels"
  "$CC" -O2 -I"$sources/include" -I"$sources" scripts/benchmarks/kernel_timing.c "$sources"/*.c \
    -lpthread -lm -o "$work/$1.bin"
}
mkdir -p "$work/a"
git archive "$REV_A" Sources/CVisionKernels | tar -x -C "$work/a"
build a "$work/a"
if [ -n "$REV_B" ]; then
  mkdir -p "$work/b"
  git archive "$REV_B" Sources/CVisionKernels | tar -x -C "$work/b"
  build b "$work/b"
else
  build b .
fi
for round in $(seq "$ROUNDS"); do
  "$work/a.bin" | sed 's/^/a /' >> "$work/out"
  "$work/b.bin" | sed 's/^/b /' >> "$work/out"
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); A = $REV_A, B = ${REV_B:-working tree}; $ROUNDS rounds"
python3 - "$work/out" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    side, case, isa, ms = line.split()
    runs.setdefault((case, isa), {}).setdefault(side, []).append(float(ms))
print(f"{'case':28s} {'isa':7s} {'A ms':>8s} {'B ms':>8s} {'B/A':>6s}")
for (case, isa), sides in runs.items():
    a, b = statistics.median(sides["a"]), statistics.median(sides["b"])
    print(f"{case:28s} {isa:7s} {a:8.4f} {b:8.4f} {b / a:6.3f}")
PY
