#!/usr/bin/env bash
# Installs the Debian packages Tiltkit builds and tests with, when any is missing.
# Run by demo.sh, test.sh and kernel-test.sh (which names its extra packages as arguments); safe to
# run again (it does nothing when all are present).
set -euo pipefail

TILTKIT_APT_PACKAGES=(
    libsdl2-dev        # window, GL context, game-controller sensors
    libsdl2-image-dev  # PNG screenshots
    libgl-dev          # OpenGL 3.3 core prototypes (libGL exports them)
    libegl-mesa0 libgl1-mesa-dri  # Mesa software rendering when there is no GPU
    xvfb xauth         # a headless X server for tests and screenshots
    dolphin-emu        # a real DSU client: the test that Dolphin reads what serve dsu --print-config writes
    pkg-config
    gcc g++            # the C API's tests build its C and C++ examples
    time               # GNU time: the memory tests read a command's own peak resident set from it
    "$@"
)

missing=()
for p in "${TILTKIT_APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
    echo "tiltkit setup: installing ${missing[*]}"
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "tiltkit setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
        sudo_cmd=(sudo)
    fi
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v swift >/dev/null || { echo "tiltkit setup: the Swift toolchain (6.0 or newer) is not on PATH" >&2; exit 1; }
