#!/usr/bin/env bash
# Kernel timings of two revisions in one run: builds scripts/benchmarks/kernel_timing.c against
# the CVisionKernels sources of REV_A and of REV_B (default: the working tree), then alternates
# the two binaries for ROUNDS rounds and prints, per kernel case and instruction set, the median
# ms of each side and their ratio B / A.
#
# With --pairs, the two revisions run call for call in one process instead: kernel_timing.c (built
# with -DKT_LIBRARY) and each revision's kernels become one relocatable object per side, every
# global symbol prefixed `a_` or `b_` (objcopy --redefine-syms), both linked into
# scripts/benchmarks/kernel_pairs.c, which runs PAIRS steps per case (default 400) of one call of
# each, alternating which goes first, and prints each side's median and the median per-step ratio
# B / A. On a shared machine separate runs of the same code differ by several per cent; adjacent
# calls see the same conditions (docs/ENGINE.md, "Shared cores": compare against an A/A run).
# Needs ld, nm and objcopy (binutils) besides the C compiler.
#
#   scripts/benchmarks/kernel_timing.sh [--pairs] 23ab516 [REV_B]    (ROUNDS=5, PAIRS=400 by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
PAIRED=0
if [ "${1:-}" = --pairs ]; then PAIRED=1; shift; fi
REV_A="${1:?usage: kernel_timing.sh [--pairs] REV_A [REV_B]}"
REV_B="${2:-}"
ROUNDS="${ROUNDS:-5}"
PAIRS="${PAIRS:-400}"
CC="${CC:-clang}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The cases of vk_gemm_run_skipping_zeros (from 32a17d6 on) only when both revisions have it, so
# that the two sides time the same cases.
header() { if [ -n "$1" ]; then git show "$1:Sources/CVisionKernels/include/CVisionKernels.h"; else
  cat Sources/CVisionKernels/include/CVisionKernels.h; fi; }
CASES=()
if header "$REV_A" | grep -q vk_gemm_run_skipping_zeros && header "$REV_B" | grep -q vk_gemm_run_skipping_zeros; then
  CASES=(-DKT_SKIPPING)
fi

build() {  # build NAME SOURCES_DIR: a program, or with --pairs one object with prefixed symbols
  local sources="$2/Sources/CVisionKernels"
  if [ "$PAIRED" = 0 ]; then
    "$CC" -O2 "${CASES[@]}" -I"$sources/include" -I"$sources" scripts/benchmarks/kernel_timing.c "$sources"/*.c \
      -lpthread -lm -o "$work/$1.bin"
    return
  fi
  local objects=()
  mkdir -p "$work/$1.objects"
  for file in scripts/benchmarks/kernel_timing.c "$sources"/*.c; do
    objects+=("$work/$1.objects/$(basename "$file" .c).o")
    "$CC" -O2 -DKT_LIBRARY "${CASES[@]}" -I"$sources/include" -I"$sources" -c "$file" -o "${objects[-1]}"
  done
  ld -r -o "$work/$1.o" "${objects[@]}"
  nm -g --defined-only "$work/$1.o" | awk -v p="$1" '{print $3, p "_" $3}' > "$work/$1.symbols"
  objcopy --redefine-syms="$work/$1.symbols" "$work/$1.o"
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
if [ "$PAIRED" = 1 ]; then
  "$CC" -O2 -ISources/CVisionKernels/include scripts/benchmarks/kernel_pairs.c "$work/a.o" "$work/b.o" \
    -lpthread -lm -o "$work/pairs"
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); A = $REV_A, B = ${REV_B:-working tree}; $PAIRS pairs per case"
  printf '%-36s %-7s %8s %8s %6s\n' case isa 'A ms' 'B ms' 'B/A'
  "$work/pairs" "$PAIRS" | while read -r name isa a b ratio; do
    printf '%-36s %-7s %8s %8s %6s\n' "$name" "$isa" "$a" "$b" "$ratio"
  done
  exit 0
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
