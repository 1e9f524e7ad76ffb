#!/usr/bin/env bash
# A package of someone else's, Examples/Downstream, built against this checkout by path and run
# on the bundled trace: proves the library products (Motion, MotionSources) are enough to open a
# source and pull device motion. Its own scratch folder, so the main .build is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-downstream
swift build --package-path Examples/Downstream --scratch-path "$scratch"
output="$("$scratch/debug/Downstream" "trace:$PWD/Assets/traces/xio/sensor_data.csv")"
echo "$output"
grep -q '^gravity ' <<<"$output"
