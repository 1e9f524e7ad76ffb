#!/usr/bin/env bash
# A package of someone else's, Examples/Downstream, copied to a folder OUTSIDE the checkout and
# built there against this checkout by path, as another project would: proves the library products
# (Motion, MotionSources) are enough to open a source and pull device motion, and that source "auto"
# finds the trace it replays without a device in MotionSources' resource bundle, with no checkout
# in reach and no TILTKIT_ASSETS. Without the bundle it must fail naming every place it looked.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
outside="$(mktemp -d /tmp/tiltkit-downstream.XXXXXX)"
trap 'rm -rf "$outside"' EXIT
cp -R Examples/Downstream/Sources "$outside/"
sed "s|path: \"../..\"|path: \"$repo\"|" Examples/Downstream/Package.swift >"$outside/Package.swift"
grep -q "path: \"$repo\"" "$outside/Package.swift" || { echo "test-downstream: Examples/Downstream/Package.swift no longer names Tiltkit by path \"../..\"" >&2; exit 1; }
swift build --package-path "$outside" --scratch-path "$outside/.build"
downstream="$outside/.build/debug/Downstream"

# Run from the package's own folder, with the installed copies (XDG data folders) out of reach too.
run() { (cd "$outside" && env -u TILTKIT_ASSETS XDG_DATA_HOME=/nonexistent XDG_DATA_DIRS=/nonexistent "$downstream" "$@"); }

output="$(run "trace:$repo/Assets/traces/xio/sensor_data.csv")"
echo "$output"
grep -q '^gravity ' <<<"$output"

output="$(run auto)"
echo "$output"
grep -q '^source trace .*sensor_data.csv' <<<"$output" || { echo "test-downstream: auto did not open the bundled trace" >&2; exit 1; }
grep -q '^gravity ' <<<"$output"

bundle="$outside/.build/debug/Tiltkit_MotionSources.resources"
[ -f "$bundle/traces/xio/sensor_data.csv" ] || { echo "test-downstream: $bundle has no traces/xio/sensor_data.csv" >&2; exit 1; }
mv "$bundle" "$bundle.away"
if errors="$(run auto 2>&1)"; then echo "test-downstream: auto ran without the resource bundle: $errors" >&2; exit 1; fi
mv "$bundle.away" "$bundle"
echo "$errors"
grep -q "cannot find the default trace traces/xio/sensor_data.csv (searched .*Tiltkit_MotionSources.resources.*/nonexistent/tiltkit/Assets" <<<"$errors" \
    || { echo "test-downstream: the error does not list the places searched" >&2; exit 1; }
echo "test-downstream: ok (built outside the checkout in $outside; auto replayed the bundled trace)"
