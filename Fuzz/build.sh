#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets with swiftc -sanitize=fuzzer,address: the Motion,
# MotionDevices and DSU sources (and the CLinuxInput shim) compiled as testable libraries, each target
# linked against what it imports. Output: .build-fuzz/fuzz-NAME. Usage: Fuzz/build.sh [NAME…]
# FUZZ_OPTIMIZE=-Onone builds in about half the time, for a short smoke; long runs want the default -O.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-fuzz
mkdir -p "$out/CLinuxInput"
flags=("${FUZZ_OPTIMIZE:--O}" -g -sanitize=fuzzer,address -enable-testing -parse-as-library)

# Everything is rebuilt when the flags change; otherwise a part only when a source is newer than it.
if [ "$(cat "$out/flags" 2>/dev/null)" != "${flags[*]}" ]; then
    rm -f "$out"/*.a "$out"/*.o "$out"/fuzz-*
    echo "${flags[*]}" > "$out/flags"
fi
stale() { [ ! -e "$1" ] || [ -n "$(find "${@:2}" -newer "$1" -print -quit)" ]; }

if stale "$out/libMotion.a" Sources/Motion; then
    swiftc "${flags[@]}" -module-name Motion -emit-module -emit-module-path "$out/Motion.swiftmodule" \
        -emit-library -static -o "$out/libMotion.a" $(find Sources/Motion -name '*.swift')
fi
cat > "$out/CLinuxInput/module.modulemap" <<MAP
module CLinuxInput { header "$PWD/Sources/CLinuxInput/include/CLinuxInput.h" export * }
MAP
if stale "$out/shim.o" Sources/CLinuxInput; then
    clang -O1 -g -fsanitize=address -I Sources/CLinuxInput/include -c Sources/CLinuxInput/shim.c -o "$out/shim.o"
fi
if stale "$out/libMotionDevices.a" Sources/MotionDevices "$out/libMotion.a"; then
    swiftc "${flags[@]}" -module-name MotionDevices -I "$out" -emit-module -emit-module-path "$out/MotionDevices.swiftmodule" \
        -emit-library -static -o "$out/libMotionDevices.a" $(find Sources/MotionDevices -name '*.swift')
fi
if stale "$out/libDSU.a" Sources/DSU "$out/libMotion.a"; then
    swiftc "${flags[@]}" -module-name DSU -I "$out" -emit-module -emit-module-path "$out/DSU.swiftmodule" \
        -emit-library -static -o "$out/libDSU.a" $(find Sources/DSU -name '*.swift')
fi

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(cd Fuzz/Targets && ls *.swift | sed 's/\.swift$//'))
for name in "${targets[@]}"; do
    if stale "$out/fuzz-$name" "Fuzz/Targets/$name.swift" "$out/libMotion.a" "$out/libMotionDevices.a" "$out/libDSU.a"; then
        echo "building fuzz-$name"
        swiftc "${flags[@]}" -I "$out" "Fuzz/Targets/$name.swift" \
            "$out/libDSU.a" "$out/libMotionDevices.a" "$out/shim.o" "$out/libMotion.a" -o "$out/fuzz-$name"
    fi
done
