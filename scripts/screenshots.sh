#!/usr/bin/env bash
# Regenerates every picture listed in Assets/screenshots/manifest.tsv from its command, headless
# (SDL's offscreen driver), and records in the manifest each image's size and the CRC-32 of the
# command that made it; ScreenshotManifestTests fails when a README picture is missing, unlisted,
# or no longer what its listed command made, and ScreenshotPixelTests when a screenshot's pixels
# are no longer what its command draws.
#
#   scripts/screenshots.sh                 # all of them (a debug build is enough: the frames are stepped)
#   scripts/screenshots.sh teapot-compare  # only the images whose path contains the word
#   scripts/screenshots.sh bench           # only the benchmark plots
#
# Benchmark plots (`tiltkit bench …`) are measurements: they run on a release build
# (TILTKIT_RELEASE, default .build/release/tiltkit, built when missing), the rest on a debug build.
#
# The manifest: one picture a line, tab-separated: image path, bytes, CRC-32 of the command (hex),
# the command (`tiltkit` stands for the built binary; a command may write several listed images).
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=Assets/screenshots/manifest.tsv
bin=${TILTKIT:-.build/debug/tiltkit}
release_bin=${TILTKIT_RELEASE:-.build/release/tiltkit}
command -v rsvg-convert >/dev/null || { echo "screenshots.sh: the plots need rsvg-convert (apt install librsvg2-bin)" >&2; exit 1; }
filter=${1:-}
export SDL_VIDEODRIVER=offscreen

declare -A done_commands=()
while IFS=$'\t' read -r image _ _ command; do
    [[ -z "$image" || "$image" == \#* ]] && continue
    [[ -n "$filter" && "$image" != *"$filter"* ]] && continue
    [[ -n "${done_commands[$command]:-}" ]] && continue
    done_commands[$command]=1
    run=$bin
    if [[ "$command" == "tiltkit bench "* ]]; then
        [ -x "$release_bin" ] || swift build -c release --product tiltkit
        run=$release_bin
    else
        [ -x "$bin" ] || swift build --product tiltkit
    fi
    echo "$ $command"
    eval "\"$run\" ${command#tiltkit }" > /dev/null
done < "$manifest"

# Record what each listed command made now.
python3 - "$manifest" <<'PY'
import os, sys, zlib
path = sys.argv[1]
lines = open(path).read().splitlines()
out = []
for line in lines:
    if not line or line.startswith("#"):
        out.append(line)
        continue
    image, _, _, command = line.split("\t")
    size = os.path.getsize(image) if os.path.exists(image) else 0
    out.append("\t".join([image, str(size), format(zlib.crc32(command.encode()), "08x"), command]))
open(path, "w").write("\n".join(out) + "\n")
PY
echo "screenshots.sh: updated $manifest"
