#!/usr/bin/env bash
# The Debian package as a user meets it: builds it (scripts/package-deb.sh), checks it with lintian
# (errors fail), installs it with apt-get, then, from a folder with no checkout in reach, runs
# `tiltkit --version`, finds the man page, completes a command in bash, replays the installed trace,
# renders the teapot headless with the installed shaders and builds Examples/C/pull.c against the
# installed C library (pkg-config) and runs it on source "auto"; removes the package and checks that
# none of its files is left. Needs root (or sudo) and a machine where tiltkit is not installed.
#
# Usage: scripts/test-package.sh [--from BINDIR]   (BINDIR: a release --static-swift-stdlib build to package)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
fail() { echo "test-package: $*" >&2; exit 1; }

dpkg-query -W -f='${Status}' tiltkit 2>/dev/null | grep -q "install ok installed" \
    && fail "tiltkit is installed already; this test installs and removes the package, so it will not run here"
"$repo/scripts/setup.sh" lintian patchelf dpkg-dev man-db  # lintian checks, patchelf and dpkg-shlibdeps package, man -w finds

work="$(mktemp -d /tmp/tiltkit-package.XXXXXX)"
trap 'rm -rf "$work"' EXIT
scripts/package-deb.sh --out "$work" "$@"
deb="$(ls "$work"/tiltkit_*.deb)"

echo "== lintian"
lintian --fail-on error --info "$deb" || fail "lintian found errors in $deb"

# Every file the package holds must be new to this machine, or "nothing left" would prove nothing.
mapfile -t files < <(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -n 's|^\./|/|p' | grep -v '/$')
for file in "${files[@]}"; do [ ! -e "$file" ] && [ ! -L "$file" ] || fail "$file exists before the package is installed"; done

echo "== apt-get install"
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
version="$(scripts/version.sh)"

cd "$work"
mkdir away && cd away  # no Assets/, no Shaders/, no checkout above
echo "== tiltkit --version"
[ "$(tiltkit --version)" = "$version" ] || fail "tiltkit --version printed '$(tiltkit --version)', not $version"
ldd /usr/bin/tiltkit | grep -q swift && fail "/usr/bin/tiltkit needs Swift's runtime libraries: $(ldd /usr/bin/tiltkit | grep swift)"

echo "== man -w tiltkit"
[ "$(man -w tiltkit)" = /usr/share/man/man1/tiltkit.1.gz ] || fail "man -w tiltkit says '$(man -w tiltkit 2>&1)'"
man -w tiltkit.serve.dsu >/dev/null || fail "no man page for tiltkit serve dsu"

echo "== bash completion"
completions="$(bash -c 'source /usr/share/bash-completion/completions/tiltkit
    function=$(complete -p tiltkit | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
    COMP_WORDS=(tiltkit rep); COMP_CWORD=1; COMP_LINE="tiltkit rep"; COMP_POINT=${#COMP_LINE}
    "$function" tiltkit rep tiltkit; printf "%s\n" "${COMPREPLY[@]}"')"
grep -qx replay <<<"$completions" || fail "bash completes 'tiltkit rep' to '$completions', not replay"

echo "== tiltkit replay (the installed trace)"
summary="$(tiltkit replay /usr/share/tiltkit/Assets/traces/xio/sensor_data.csv)"
echo "$summary"
grep -q "sensor_data.csv" <<<"$summary" || fail "replay's summary does not name the trace"

echo "== tiltkit teapot --headless (the installed shaders, source auto: the installed trace)"
xvfb-run -a tiltkit teapot --headless --frames 3 --screenshot "$work/teapot.png" \
    || fail "the headless teapot failed from $PWD"
[ -s "$work/teapot.png" ] || fail "the headless teapot wrote no screenshot"

echo "== Examples/C/pull.c against the installed library"
cc -std=c99 -Wall -Wextra -Werror "$repo/Examples/C/pull.c" -o "$work/pull" $(pkg-config --cflags --libs tiltkit)
readelf -d "$work/pull" | grep -q 'Shared library: \[libtiltkit.so.0\]' || fail "pull does not link libtiltkit.so.0 by its SONAME"
pulled="$(env -u TILTKIT_ASSETS "$work/pull" auto 0.5)"
grep -q '^t=' <<<"$pulled" || fail "pull auto printed no samples: $pulled"
[ "$(pkg-config --modversion tiltkit)" = "$version" ] || fail "tiltkit.pc says version $(pkg-config --modversion tiltkit)"

echo "== apt-get remove"
cd /
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get remove -y -qq --purge tiltkit >/dev/null
left=()
for file in "${files[@]}"; do if [ -e "$file" ] || [ -L "$file" ]; then left+=("$file"); fi; done
((${#left[@]} == 0)) || fail "left after removal: ${left[*]}"
[ ! -e /usr/share/tiltkit ] || fail "/usr/share/tiltkit is left after removal"
echo "test-package: ok ($(basename "$deb"), ${#files[@]} files installed, used from $work/away and removed without a trace)"
