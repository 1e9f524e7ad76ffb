#!/usr/bin/env bash
# Builds a Debian package, dist/tiltkit_VERSION_ARCH.deb, from the layout scripts/install.sh makes
# under --prefix /usr. Swift's runtime is linked into the binary and the library
# (--static-swift-stdlib), so the package depends only on Debian's own libraries; dpkg-shlibdeps
# reads which from the ELF files (SDL2, SDL2_image, libGL, libc, libstdc++...). The C library needs
# Swift's runtime libraries; they go with it, in /usr/lib/tiltkit (its RUNPATH, set with patchelf).
#
# Usage: scripts/package-deb.sh [--out DIR] [--from BINDIR]
#   --out DIR      where the .deb goes (default dist/)
#   --from BINDIR  package what is already built (release, --static-swift-stdlib) in BINDIR
set -euo pipefail
cd "$(dirname "$0")/.."

out=dist
from_args=()
while (($#)); do
    case "$1" in
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --from) from_args=(--from "${2:?--from needs a folder}"); shift 2 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "package-deb: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

command -v patchelf >/dev/null && command -v dpkg-shlibdeps >/dev/null \
    || { echo "package-deb: needs patchelf and dpkg-shlibdeps (scripts/setup.sh patchelf dpkg-dev)" >&2; exit 1; }
version="$(scripts/version.sh)"
major="$(scripts/version.sh --major)"
arch="$(dpkg --print-architecture)"
# Reproducible: every date and mtime from the last commit.
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
export SOURCE_DATE_EPOCH

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/root"
scripts/install.sh --prefix /usr --destdir "$root" "${from_args[@]}"
# dpkg keeps its own list of the package's files; install.sh's manifest would let `install.sh --uninstall` remove them behind dpkg's back.
rm "$root/usr/share/tiltkit/install-manifest.txt"

# Debian ships stripped ELF files (Debian Policy 10.1); Swift's reflection metadata lives in allocated sections and stays.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/tiltkit" "$root/usr/lib/libtiltkit.so.$version"

# The library links Swift's runtime dynamically (SwiftPM links no static runtime into a shared library):
# the toolchain's runtime libraries it needs go in /usr/lib/tiltkit, private to it, found through its RUNPATH.
toolchain_runtime="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux"
toolchain_runtime="$(cd "$toolchain_runtime" && pwd -P)"
private="$root/usr/lib/tiltkit"
mkdir -p "$private"
ldd "$root/usr/lib/libtiltkit.so.$version" | awk '{print $3}' | grep "^$toolchain_runtime/" | while read -r runtime; do
    install -m 0644 "$runtime" "$private/"
    patchelf --set-rpath '$ORIGIN' "$private/$(basename "$runtime")"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$private/$(basename "$runtime")"
done
patchelf --set-rpath '$ORIGIN/tiltkit' "$root/usr/lib/libtiltkit.so.$version"

doc="$root/usr/share/doc/tiltkit"
mkdir -p "$doc"
changelog_date="$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
maintainer="Tiltkit maintainers <maintainers@users.noreply.a-seed-9fe585c0.example>"
# A native package's changelog.gz is in Debian's format (Debian Policy 4.4); CHANGELOG.md goes beside it.
gzip -9n >"$doc/changelog.gz" <<CHANGELOG
tiltkit ($version) unstable; urgency=medium

  * Tiltkit $version: see /usr/share/doc/tiltkit/CHANGELOG.md.gz.

 -- $maintainer  $changelog_date
CHANGELOG
[ -f CHANGELOG.md ] && gzip -9n <CHANGELOG.md >"$doc/CHANGELOG.md.gz"
{
    cat <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: tiltkit
Comment: Tiltkit's own code under the zlib licence (LICENSE); the bundled x-io recording under MIT;
 the Swift runtime libraries in usr/lib/tiltkit (for libtiltkit.so) as the Swift project ships them.

Files: *
Copyright: 2026 the Tiltkit authors
License: Zlib
COPYRIGHT
    # LICENSE's own text, indented as the format requires (a blank line becomes " .").
    sed -n '/This software is provided/,$p' LICENSE | sed 's/^$/./; s/^/ /'
    cat <<'COPYRIGHT'

Files: usr/lib/tiltkit/*
Copyright: Apple Inc. and the Swift project authors
License: Apache-2.0 with Runtime Library Exception
 On Debian systems the Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0. The Runtime
 Library Exception: https://swift.org/LICENSE.txt

Files: usr/share/tiltkit/Assets/traces/xio/*
Copyright: x-io Technologies Limited
License: MIT
COPYRIGHT
    # The licence's own text, indented as the format requires (a blank line becomes " .").
    sed -n '/Permission is hereby granted/,$p' Assets/traces/xio/LICENSE | sed 's/^$/./; s/^/ /'
} >"$doc/copyright"

mkdir -p "$root/DEBIAN"
# libtiltkit.so.0 is provided by this package (shlibs), and the loader's cache learns of it (ldconfig trigger).
echo "libtiltkit $major tiltkit (>= $version)" >"$root/DEBIAN/shlibs"
echo "activate-noawait ldconfig" >"$root/DEBIAN/triggers"

# dpkg-shlibdeps reads the libraries the ELF files need and the minimum versions their symbols ask for.
mkdir -p "$work/debian"
printf 'Source: tiltkit\n\nPackage: tiltkit\nArchitecture: any\n' >"$work/debian/control"
depends="$(cd "$work" && dpkg-shlibdeps -O -lroot/usr/lib/tiltkit -e root/usr/bin/tiltkit -e "root/usr/lib/libtiltkit.so.$version" \
    root/usr/lib/tiltkit/*.so* | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "package-deb: dpkg-shlibdeps found no dependencies for usr/bin/tiltkit" >&2; exit 1; }
installed_size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"

cat >"$root/DEBIAN/control" <<CONTROL
Package: tiltkit
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: libgl1-mesa-dri
Section: utils
Priority: optional
Description: Core Motion for Linux: device motion from gyro gamepads and IMUs
 Tiltkit reads the gyroscope and accelerometer of DualShock 4, DualSense and
 Switch pads (hidraw, evdev), IIO sensors and recorded traces, fuses them into
 attitude, gravity and user acceleration, and serves them to emulators (DSU),
 to C programs (libtiltkit.so, tiltkit.h, tiltkit.pc) and to a 3D demo.
 .
 The package installs the tiltkit command, its man pages and shell
 completions, udev rules that let the logged-in user read the pads, systemd
 user services for the DSU server and the mapper, and the C library.
CONTROL

(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
# Files 0644, folders and the command 0755, whatever the umask.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$root/usr/bin/tiltkit"
find "$root" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$out"
deb="$out/tiltkit_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb"
echo "package-deb: $deb ($(du -k "$deb" | cut -f1) kB; Depends: $depends)"
