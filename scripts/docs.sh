#!/usr/bin/env bash
# The DocC documentation of the libraries Motion, MotionSources, MotionDevices and MotionSDL (their
# catalogs: Sources/<Target>/<Target>.docc), built with swift-docc-plugin; a broken symbol link or
# article reference fails the build.
# Archives: .build/plugins/Swift-DocC/outputs/<Target>.doccarchive. To browse one:
#   swift package --disable-sandbox preview-documentation --target Motion
set -euo pipefail
cd "$(dirname "$0")/.."
for target in Motion MotionSources MotionDevices MotionSDL; do
    swift package --disable-sandbox generate-documentation --target "$target" --warnings-as-errors
done
