#!/usr/bin/env bash
# Builds the C API and installs it for C and C++ programs:
#   DIR/lib/libtiltkit.so, DIR/include/tiltkit.h, DIR/lib/pkgconfig/tiltkit.pc, and the bundled
#   trace that source "auto" replays without a device in DIR/share/tiltkit/Assets
# so that, with PKG_CONFIG_PATH=DIR/lib/pkgconfig,
#   cc app.c $(pkg-config --cflags --libs tiltkit)
# builds, and the program finds libtiltkit.so (rpath from the .pc) and the Swift runtime
# (libtiltkit.so's own RUNPATH, which swiftc sets to the toolchain's runtime folder) at run time.
#
# Usage: scripts/install-c-library.sh --prefix DIR [--configuration release|debug] [--from BINDIR]
#   --from installs the libTiltkitC.so already built in BINDIR, without building (the tests use
#   it: `swift build --build-tests` builds the library beside them).
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=""
configuration=release
from=""
while (($#)); do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
        --configuration|-c) configuration="${2:?--configuration needs release or debug}"; shift 2 ;;
        --from) from="${2:?--from needs the folder holding libTiltkitC.so}"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-c-library: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$prefix" ] || { echo "install-c-library: give --prefix DIR" >&2; exit 2; }
case "$configuration" in release|debug) ;; *) echo "install-c-library: --configuration is release or debug" >&2; exit 2 ;; esac

if [ -z "$from" ]; then
    swift build -c "$configuration" --product TiltkitC
    from="$(swift build -c "$configuration" --show-bin-path)"
fi
library="$from/libTiltkitC.so"
[ -f "$library" ] || { echo "install-c-library: $library is missing (build it, or drop --from)" >&2; exit 1; }

traces="share/tiltkit/Assets/traces/xio"
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include" "$prefix/$traces"
prefix="$(cd "$prefix" && pwd)"
install -m 0755 "$library" "$prefix/lib/libtiltkit.so"
install -m 0644 Sources/CTiltkit/tiltkit.h "$prefix/include/tiltkit.h"
# The recording "auto" falls back to without a device (x-io's, MIT: its licence goes with it).
install -m 0644 Assets/traces/xio/sensor_data.csv Assets/traces/xio/LICENSE "$prefix/$traces/"
version="$(git describe --tags --always 2>/dev/null || echo 0)"
cat > "$prefix/lib/pkgconfig/tiltkit.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: tiltkit
Description: Core Motion for Linux: device motion from gyro gamepads, IMUs and traces
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -ltiltkit -Wl,-rpath,\${libdir}
PC
echo "installed $prefix/lib/libtiltkit.so, $prefix/include/tiltkit.h, $prefix/lib/pkgconfig/tiltkit.pc, $prefix/$traces"
