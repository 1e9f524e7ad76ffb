#!/usr/bin/env bash
# One command from a fresh clone to the demo: install what is missing, build, run the teapot.
# With a display it opens a window (a gamepad or IMU if one is found, else the bundled real trace).
# Without one it renders headless and writes a screenshot. Extra arguments go to `tiltkit teapot`.
set -euo pipefail
# The malloc-counting hook is opt-in (sanitizers bring their own malloc): on for these builds.
export TILTKIT_ALLOCATION_COUNTER=1
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product tiltkit
bin=.build/release/tiltkit
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec "$bin" teapot --source auto "$@"
else
    echo "tiltkit: no display found; rendering headless to out/teapot.png (open it, or run with a display for the window)"
    mkdir -p out
    SDL_VIDEODRIVER=offscreen "$bin" teapot --source auto --headless --frames 240 --at 28 --screenshot out/teapot.png "$@"
    echo "tiltkit: wrote out/teapot.png"
fi
