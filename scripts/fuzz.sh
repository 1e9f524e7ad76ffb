#!/usr/bin/env bash
# Runs every libFuzzer target in Fuzz/Targets for SECONDS each (default 60), seeded from Assets/
# and the test fixtures, and prints each target's executions and crashes. Exits non-zero on a crash;
# the input that crashed is kept as .build-fuzz/crashes/NAME-crash-… (replay: .build-fuzz/fuzz-NAME FILE).
# Targets: trace, hid, hidrecording, evdev, iiodevice (an IIO device described by its sysfs
# attributes), dsu (the DSU server's packet parser and rules), history (an accelerometer history file).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash Fuzz/build.sh
rm -rf .build-fuzz/seeds && python3 Fuzz/seed.py .build-fuzz/seeds
rm -rf .build-fuzz/crashes && mkdir -p .build-fuzz/crashes
# Swift's backtracer would stop each crash for seconds; libFuzzer and ASan report it themselves.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
failed=0
for target in $(cd Fuzz/Targets && ls *.swift | sed 's/\.swift$//'); do
    corpus=.build-fuzz/corpus/$target
    mkdir -p "$corpus"
    log=.build-fuzz/$target.log
    status=0
    .build-fuzz/fuzz-$target "$corpus" ".build-fuzz/seeds/$target" -max_total_time="$seconds" -max_len=16384 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=".build-fuzz/crashes/$target-" >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    crashes=$(ls .build-fuzz/crashes/ 2>/dev/null | grep -c "^$target-" || true)
    printf '%-14s %12s execs in %ss, %s crashes (exit %s; log %s)\n' "$target" "${execs:-?}" "$seconds" "$crashes" "$status" "$log"
    [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ] || failed=1
done
exit $failed
