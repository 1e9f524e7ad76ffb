#!/usr/bin/env bash
# Installs the peer filters Tiltkit's benches measure beside it:
# - for `tiltkit bench accuracy` (scripts/broad-peers.py): VQF (Laidig & Seel, MIT), x-io Fusion's
#   Python package imufusion (MIT) and `ahrs` (Madgwick, Mahony; MIT);
# - for `tiltkit bench fusion`: x-io Fusion's C library, built -O2 from the sources imufusion's
#   source package ships, with scripts/peer-cost/fusion-cost.c timing it, into .build-peers/.
# Versions pinned so the bench's figures are repeatable.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet numpy vqf==2.1.2 imufusion==1.3.3 ahrs==0.4.0
python3 -c 'import vqf, imufusion, ahrs; print("peers installed: vqf, imufusion, ahrs")'

out=.build-peers
version=1.3.3
if [ ! -x "$out/fusion-cost" ] || [ scripts/peer-cost/fusion-cost.c -nt "$out/fusion-cost" ]; then
    mkdir -p "$out"
    [ -f "$out/imufusion-$version.tar.gz" ] ||
        python3 -m pip download --quiet --no-deps --no-binary imufusion "imufusion==$version" -d "$out"
    rm -rf "$out/imufusion-$version"
    tar xzf "$out/imufusion-$version.tar.gz" -C "$out"
    cc -O2 -DIMUFUSION_VERSION="\"$version\"" -o "$out/fusion-cost" scripts/peer-cost/fusion-cost.c \
        -I "$out/imufusion-$version/Fusion" \
        "$out/imufusion-$version"/Fusion/*.c -lm
fi
echo "peer built: x-io Fusion $version (C, -O2) timed by $out/fusion-cost"
