#!/usr/bin/env bash
# One command from a fresh clone to a passing test run: install what is missing, build, test.
# Rendering tests use SDL's offscreen driver (EGL on Mesa); no display is needed.
# Tests on the large data sets look for ../shared/data (or $TILTKIT_SHARED_DATA) and show as skipped
# with the reason when it is absent (`.needsSharedData`, Tests/TestSupport), except under CI=true, where they fail instead.
set -euo pipefail
# The malloc-counting hook is opt-in (sanitizers bring their own malloc): on for these builds.
export TILTKIT_ALLOCATION_COUNTER=1
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
