#!/usr/bin/env bash
# The tests under a sanitizer, each in its own scratch folder so `.build` is left alone:
#   scripts/sanitize.sh address   every test for memory errors, the device and manager tests
#                                 (Motion, MotionDevices) with the leak checker on as well
#   scripts/sanitize.sh thread    data races in the Motion, MotionDevices and CartGame tests
# The tests on the long shared recordings (`.needsSharedData`) skip here: they put hours of motion
# through code the short tests reach, several times slower instrumented; the plain run has them.
# Extra arguments go to `swift test` (e.g. --filter TraceReplayTests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The allocation counter replaces malloc, as the sanitizers do: never both in one binary.
unset TILTKIT_ALLOCATION_COUNTER
# The sanitizer's report is the one to read; Swift's backtracer would only get in its way.
export SWIFT_BACKTRACE=enable=no
mode="${1:-}"; shift || true
# Tests that load instrumented code into uninstrumented programs (the C API's) skip on this.
export TILTKIT_SANITIZER="$mode"
# No XCTest cases exist; its runner's own objects, kept to exit, would only add leak reports.
test=(swift test --skip-build --disable-xctest)

case "$mode" in
address)
    args=(--scratch-path .build-asan --sanitize=address)
    swift build --build-tests "${args[@]}"
    # Leaks are checked only where no GL driver is loaded: Mesa's drivers, unloaded before the
    # checker runs, leave reports without frames that could be told apart or suppressed.
    # Each test runs once: the device and manager tests only in the leak-checked run.
    leakChecked='^(MotionTests|MotionDevicesTests)\.'
    ASAN_OPTIONS=detect_leaks=0 "${test[@]}" "${args[@]}" --skip "$leakChecked" "$@"
    ASAN_OPTIONS=detect_leaks=1 "${test[@]}" "${args[@]}" --filter "$leakChecked" "$@"
    ;;
thread)
    args=(--scratch-path .build-tsan --sanitize=thread)
    swift build --build-tests "${args[@]}"
    TSAN_OPTIONS=halt_on_error=1 "${test[@]}" "${args[@]}" --filter '^(MotionTests|MotionDevicesTests|CartGameTests)\.' "$@"
    ;;
*)
    echo "usage: scripts/sanitize.sh address|thread [swift test arguments]" >&2
    exit 2
    ;;
esac
