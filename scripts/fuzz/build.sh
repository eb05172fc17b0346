#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer (and LeakSanitizer) into .build/fuzz/.
#
# Each target compiles the sources of one module together with its entry point in
# Fuzz/Targets, so Package.swift needs no unsafe flags. Usage:
#   scripts/fuzz/build.sh [model|tflite|metadata|image ...]   (default: all)
# Then run, for example:
#   nice -n 19 .build/fuzz/image -max_total_time=600 -rss_limit_mb=1024 Fuzz/Corpus/png
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/fuzz
mkdir -p "$out"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(model tflite metadata image)
swift_flags=(-sanitize=fuzzer,address -parse-as-library -Onone -g -enable-testing -swift-version 6 -package-name VisionTasks)

model_sources() { find Sources/ModelFile -name '*.swift' | sort; }
imaging_sources() { find Sources/Imaging -name '*.swift' | sort; }

build_imaging_support() {
    # The setjmp-guarded libjpeg/libpng wrappers, instrumented like the Swift code.
    local objects=()
    for source in Sources/CImagingSupport/*.c; do
        local object="$out/$(basename "${source%.c}").o"
        clang -c -O1 -g -fsanitize=fuzzer-no-link,address -ISources/CImagingSupport/include \
            "$source" -o "$object"
        objects+=("$object")
    done
    mkdir -p "$out/modules/CImagingSupport"
    cat > "$out/modules/CImagingSupport/module.modulemap" <<MAP
module CImagingSupport {
    header "$PWD/Sources/CImagingSupport/include/CImagingSupport.h"
    export *
}
MAP
    echo "${objects[@]}"
}

for target in "${targets[@]}"; do
    echo "building $target"
    case "$target" in
    model | tflite | metadata)
        swiftc "${swift_flags[@]}" -module-name ModelFile -ISources/CZlib \
            $(model_sources) Fuzz/Targets/ModelReaderFuzz.swift "Fuzz/Targets/Entry/$target.swift" \
            -lz -o "$out/$target"
        ;;
    image)
        objects=$(build_imaging_support)
        swiftc "${swift_flags[@]}" -module-name Imaging -ISources/CJPEG -ISources/CPNG \
            -I"$out/modules/CImagingSupport" \
            $(imaging_sources) Fuzz/Targets/ImageDecoderFuzz.swift Fuzz/Targets/Entry/image.swift \
            $objects -ljpeg -lpng16 -o "$out/image"
        ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
    esac
done
