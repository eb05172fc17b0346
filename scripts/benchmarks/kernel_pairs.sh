#!/usr/bin/env bash
# Kernel timings of two revisions call for call in one process: builds scripts/benchmarks/
# kernel_timing.c (as a library) with the CVisionKernels sources of REV_A and of REV_B (default:
# the working tree) into one relocatable object each, prefixes every global symbol of the first
# with `a_` and of the second with `b_`, links both into scripts/benchmarks/kernel_pairs.c and runs
# it: per kernel case, PAIRS steps (default 400) of one call of each, alternating which goes first.
# Prints, per case and instruction set, the median ms of each side and the median per-step ratio
# B / A. Needs clang, ld and objcopy (binutils).
#
#   scripts/benchmarks/kernel_pairs.sh 23ab516 [REV_B]
set -euo pipefail
cd "$(dirname "$0")/../.."
REV_A="${1:?usage: kernel_pairs.sh REV_A [REV_B]}"
REV_B="${2:-}"
PAIRS="${PAIRS:-400}"
CC="${CC:-clang}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

side() {  # side PREFIX SOURCES_DIR
  local prefix="$1" sources="$2/Sources/CVisionKernels" objects=()
  mkdir -p "$work/$prefix"
  for file in scripts/benchmarks/kernel_timing.c "$sources"/*.c; do
    local object="$work/$prefix/$(basename "$file" .c).o"
    "$CC" -O2 -DKT_LIBRARY -I"$sources/include" -I"$sources" -c "$file" -o "$object"
    objects+=("$object")
  done
  ld -r -o "$work/$prefix.o" "${objects[@]}"
  nm -g --defined-only "$work/$prefix.o" | awk -v p="$prefix" '{print $3, p "_" $3}' > "$work/$prefix.symbols"
  objcopy --redefine-syms="$work/$prefix.symbols" "$work/$prefix.o"
}
mkdir -p "$work/tree_a"
git archive "$REV_A" Sources/CVisionKernels | tar -x -C "$work/tree_a"
side a "$work/tree_a"
if [ -n "$REV_B" ]; then
  mkdir -p "$work/tree_b"
  git archive "$REV_B" Sources/CVisionKernels | tar -x -C "$work/tree_b"
  side b "$work/tree_b"
else
  side b .
fi
"$CC" -O2 -ISources/CVisionKernels/include scripts/benchmarks/kernel_pairs.c "$work/a.o" "$work/b.o" -lpthread -lm \
  -o "$work/pairs"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); A = $REV_A, B = ${REV_B:-working tree}; $PAIRS pairs per case"
printf '%-36s %-7s %8s %8s %6s\n' case isa 'A ms' 'B ms' 'B/A'
"$work/pairs" "$PAIRS" | while read -r name isa a b ratio; do
  printf '%-36s %-7s %8s %8s %6s\n' "$name" "$isa" "$a" "$b" "$ratio"
done
