#!/usr/bin/env bash
# Type-checks the package's Apple-only code on Linux (issue #27, part 1).
#
# scripts/platforms/apple-stubs/ holds test-only stub modules named like Apple's (UIKit, CoreGraphics,
# CoreImage, CoreVideo, CoreMedia, ImageIO, AVFoundation, Darwin), written as Swift module interfaces:
# declarations only, exactly the Apple API the code uses, each citing its developer.apple.com page.
# With them on the import path every `#if canImport(UIKit | CoreGraphics | ...)` branch is on, and
# this script compiles, in dependency order and with the dependency graph SwiftPM gives Apple
# platforms (Imaging without CImagingSupport/CJPEG/CPNG):
#   ModelFile, Inference, Imaging, VisionTasks, PoseDetection  (every source file, Apple branches on)
#   Examples/MLKitPoseGuide, PoseLandmarkerGuide, HandLandmarkerGuide, ObjectDetectorGuide
#                                                               (their UIKit/AVFoundation parts on)
# in Swift 6 language mode, so a typo, a wrong argument label, a wrong type or an Apple API used but
# not declared fails the script (non-zero exit). Nothing is linked or run. See README-platforms.md
# for what this proves and what it does not.
#
#   scripts/platforms/apple-typecheck.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
stubs="$root/scripts/platforms/apple-stubs"
start=$SECONDS

command -v swiftc >/dev/null || { echo "apple-typecheck: swiftc not found" >&2; exit 1; }
# ModelFile's CZlib system-library target includes <zlib.h>.
if ! pkg-config --exists zlib 2>/dev/null && [ ! -f /usr/include/zlib.h ]; then
  echo "apple-typecheck: installing zlib1g-dev"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zlib1g-dev \
    || { echo "apple-typecheck: zlib.h missing and zlib1g-dev could not be installed" >&2; exit 1; }
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/apple-typecheck.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/modules" "$work/cache" "$work/cmodules/CVisionKernels"

# C targets as SwiftPM presents them: CZlib has its own module map; CVisionKernels gets the umbrella
# module map SwiftPM generates for include/CVisionKernels.h.
cat >"$work/cmodules/CVisionKernels/module.modulemap" <<EOF
module CVisionKernels {
    umbrella header "$root/Sources/CVisionKernels/include/CVisionKernels.h"
    export *
}
EOF

common=(
  -swift-version 6 -package-name visiontasks
  -module-cache-path "$work/cache"
  -I "$stubs" -I "$work/modules"
  -Xcc "-fmodule-map-file=$root/Sources/CZlib/module.modulemap"
  -Xcc "-fmodule-map-file=$work/cmodules/CVisionKernels/module.modulemap"
  -Xcc "-I$root/Sources/CVisionKernels/include"
)

sources() { find "$root/$1" -name '*.swift' | LC_ALL=C sort; }

# The stub modules first, so that an error in a stub is reported as such.
for interface in "$stubs"/*.swiftinterface; do
  name="$(basename "$interface" .swiftinterface)"
  swiftc -typecheck -swift-version 6 -module-cache-path "$work/cache" -I "$stubs" - <<<"import $name" \
    || { echo "apple-typecheck: stub module $name does not compile" >&2; exit 1; }
done

# Each library module: one whole-module frontend job that type-checks every function body (and runs
# the mandatory SIL diagnostics) and writes the .swiftmodule the next module imports.
for module in ModelFile Inference Imaging VisionTasks PoseDetection; do
  mapfile -t files < <(sources "Sources/$module")
  echo "apple-typecheck: $module (${#files[@]} files)"
  swiftc -emit-module -wmo -parse-as-library -module-name "$module" \
    -emit-module-path "$work/modules/$module.swiftmodule" "${common[@]}" "${files[@]}"
done

# The guide examples (top-level code in main.swift), their UIKit parts included: ML Kit's pose
# detection guide and MediaPipe's pose landmarker, hand landmarker and object detector guides.
for example in MLKitPoseGuide PoseLandmarkerGuide HandLandmarkerGuide ObjectDetectorGuide; do
  mapfile -t files < <(sources "Examples/$example")
  echo "apple-typecheck: $example (${#files[@]} files)"
  swiftc -typecheck -module-name "$example" "${common[@]}" "${files[@]}"
done

# The Apple branches really were compiled: the stub modules were loaded from the stub directory.
for name in UIKit CoreGraphics CoreImage CoreVideo CoreMedia ImageIO AVFoundation Darwin; do
  ls "$work/cache"/"$name"-*.swiftmodule >/dev/null 2>&1 \
    || { echo "apple-typecheck: stub module $name was never loaded" >&2; exit 1; }
done
echo "apple-typecheck: Apple-conditional code type-checks against scripts/platforms/apple-stubs" \
  "($((SECONDS - start)) s)"
