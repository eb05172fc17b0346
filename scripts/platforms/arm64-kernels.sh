#!/usr/bin/env bash
# ARM64 kernels under emulation (issue #27, part 2).
#
# Cross-compiles the C kernels (Sources/CVisionKernels: every build, the thread pool, the
# quantized kernels) for aarch64 Linux with the Swift toolchain's clang, SwiftPM's flags and
# Debian's aarch64 libc and GCC runtime, then runs scripts/platforms/arm64/kernel_parity.c under
# qemu-aarch64-static:
#   1. randomized shapes and data (fixed seeds): every NEON kernel against the portable one, bit
#      for bit, plus the thread pool with 1-4 threads and the denormal flush;
#   2. the same driver built natively for x86-64 (portable build): the portable results' digests
#      of both architectures must be equal (NaNs compared as NaN: IEEE leaves their sign and
#      payload to the CPU);
#   3. layers of the float models and of the quantized SSD captured with LiteRT
#      (scripts/platforms/arm64/capture_layers.py, into a temporary directory): NEON against
#      portable bit for bit, the aarch64 results against the x86-64 ones, and both against LiteRT's
#      tensors (1e-4 scaled for float layers, the golden tolerance; bytes for quantized ones).
#      Skipped with a notice when the models (../shared/models) or a Python with ai-edge-litert
#      are absent.
# Exits non-zero on any mismatch. Installs qemu-user-static, gcc-aarch64-linux-gnu and
# libc6-dev-arm64-cross with apt-get when missing.
#
# Environment: VK_ARM64_PYTHON (a Python with ai_edge_litert and numpy), VK_ARM64_MODELS (the
# models folder), VK_ARM64_SCALE (random case multiplier, default 4), VK_ARM64_KERNELS (a
# directory to take the kernel sources from instead of Sources/CVisionKernels: for checking that
# a deliberate break fails).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$(date +%s)

# MARK: Tools
missing=()
command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
[ -e /usr/lib/gcc-cross/aarch64-linux-gnu ] || missing+=(gcc-aarch64-linux-gnu)
[ -e /usr/aarch64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-arm64-cross)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# clang: SwiftPM's (the one that builds these sources in CI), else any clang on PATH.
clang=""
if command -v swift >/dev/null; then
  candidate="$(dirname "$(readlink -f "$(command -v swift)")")/clang"
  [ -x "$candidate" ] && clang="$candidate"
fi
[ -n "$clang" ] || clang=$(command -v clang || true)
if [ -z "$clang" ]; then
  echo "arm64-kernels: no clang found (the kernels use clang vector extensions; GCC cannot build them)" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/arm64-kernels.XXXXXX")
trap 'rm -rf "$work"' EXIT
kernels="${VK_ARM64_KERNELS:-$root/Sources/CVisionKernels}"
driver="$root/scripts/platforms/arm64/kernel_parity.c"

# MARK: Build
# The kernels with SwiftPM's release flags for C targets (see .build/release.yaml); the driver
# without floating-point contraction, so that its random data are the same on both architectures.
swiftpm_flags=(-O2 -DSWIFT_PACKAGE=1 -fblocks -fPIC -fno-omit-frame-pointer -I "$kernels/include" -I "$kernels")
build() {  # build TARGET OUTPUT EXTRA-SOURCES...
  local target=$1 output=$2
  shift 2
  local objects=()
  for source in dispatch.c kernels_portable.c threadpool.c qgemm.c qdwconv.c "$@"; do
    "$clang" -target "$target" "${swiftpm_flags[@]}" -c "$kernels/$source" -o "$work/$target-${source%.c}.o" &
    objects+=("$work/$target-${source%.c}.o")
  done
  "$clang" -target "$target" -O2 -ffp-contract=off -std=gnu11 -Wall -Werror -I "$kernels/include" \
    -c "$driver" -o "$work/$target-driver.o" &
  wait
  local link=(-lm -pthread)
  [ "$target" = aarch64-linux-gnu ] && link+=(-static -fuse-ld=lld)
  "$clang" -target "$target" "${objects[@]}" "$work/$target-driver.o" "${link[@]}" -o "$output"
}
build aarch64-linux-gnu "$work/parity-arm64" kernels_neon.c
build x86_64-linux-gnu "$work/parity-x86_64" kernels_avx2.c kernels_avx512.c
file "$work/parity-arm64" | grep -q "ARM aarch64" || { echo "arm64-kernels: not an aarch64 binary" >&2; exit 1; }
echo "built for aarch64 with $("$clang" --version | head -1) in $(($(date +%s) - start)) s"

arm64() { qemu-aarch64-static "$work/parity-arm64" "$@"; }
x86() { VK_PARITY_PORTABLE_ONLY=1 "$work/parity-x86_64" "$@"; }

status=0
digests() { grep '^digest ' "$1" | sort; }
compare_digests() {  # compare_digests WHAT ARM-OUTPUT X86-OUTPUT
  if diff <(digests "$2") <(digests "$3") >"$work/digest.diff"; then
    echo "$1: aarch64 and x86-64 portable results identical ($(digests "$2" | wc -l) digests)"
  else
    echo "FAIL $1: aarch64 and x86-64 portable results differ:" >&2
    cat "$work/digest.diff" >&2
    status=1
  fi
}

# MARK: Randomized kernels
scale="${VK_ARM64_SCALE:-4}"
echo "== randomized shapes and data (scale $scale), NEON vs portable under qemu-aarch64-static"
if ! arm64 random "$scale" >"$work/random-arm64.txt"; then status=1; fi
grep -v '^digest ' "$work/random-arm64.txt"
# Across architectures, without the special values (NaN, infinities, subnormals) mixed into the
# element-wise inputs: IEEE 754 leaves NaN signs and payloads to the CPU, and with denormals
# flushed arm64's FMAX flushes a subnormal operand that x86-64's compare-and-select passes.
VK_PARITY_NO_SPECIALS=1 arm64 random "$scale" >"$work/random-arm64-plain.txt" || status=1
VK_PARITY_NO_SPECIALS=1 x86 random "$scale" >"$work/random-x86.txt" || { echo "FAIL: x86-64 portable run" >&2; status=1; }
compare_digests "randomized (no special values)" "$work/random-arm64-plain.txt" "$work/random-x86.txt"

# MARK: Captured layers
models="${VK_ARM64_MODELS:-$root/../shared/models}"
python=""
for candidate in "${VK_ARM64_PYTHON:-}" "$HOME/.cache/mediapipe-oracle-venv/bin/python" "$root/.venv/bench/bin/python"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" -c "import ai_edge_litert, numpy" 2>/dev/null; then
    python=$candidate
    break
  fi
done
# With the models but no such Python, make the venv the benchmarks use (PyPI, as run.sh does).
if [ -d "$models" ] && [ -z "$python" ] && python3 -m venv "$root/.venv/bench" 2>/dev/null \
  && "$root/.venv/bench/bin/python" -m pip install --quiet --disable-pip-version-check ai-edge-litert==2.3.0 numpy \
  && "$root/.venv/bench/bin/python" -c "import ai_edge_litert, numpy" 2>/dev/null; then
  python="$root/.venv/bench/bin/python"
fi
if [ ! -d "$models" ] || [ -z "$python" ]; then
  echo "== captured layers SKIPPED: needs $models and a Python with ai-edge-litert (VK_ARM64_PYTHON)"
else
  echo "== captured layers ($models, LiteRT via $python)"
  "$python" scripts/platforms/arm64/capture_layers.py "$models" "$work/layers.bin"
  if ! arm64 layers "$work/layers.bin" >"$work/layers-arm64.txt"; then status=1; fi
  grep -v '^digest ' "$work/layers-arm64.txt"
  x86 layers "$work/layers.bin" >"$work/layers-x86.txt" || { echo "FAIL: x86-64 portable layer run" >&2; status=1; }
  compare_digests "captured layers" "$work/layers-arm64.txt" "$work/layers-x86.txt"
fi

echo "arm64-kernels: $([ $status -eq 0 ] && echo PASS || echo FAIL) in $(($(date +%s) - start)) s"
exit $status
