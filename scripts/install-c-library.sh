#!/usr/bin/env bash
# Builds the C API and installs it for C and C++ programs (scripts/install.sh --only c-library):
#   DIR/lib/libtiltkit.so.X.Y.Z with its SONAME link libtiltkit.so.X and the link libtiltkit.so,
#   DIR/include/tiltkit.h, DIR/lib/pkgconfig/tiltkit.pc, and the bundled trace that source "auto"
#   replays without a device in DIR/share/tiltkit/Assets
# so that, with PKG_CONFIG_PATH=DIR/lib/pkgconfig,
#   cc app.c $(pkg-config --cflags --libs tiltkit)
# builds, and the program finds libtiltkit.so (rpath from the .pc) at run time. Built by this script,
# the library carries Swift's runtime inside it; one from --from keeps what it was linked with.
# `scripts/install.sh --prefix DIR --uninstall` removes it again.
#
# Usage: scripts/install-c-library.sh --prefix DIR [--configuration release|debug] [--from BINDIR] [--destdir DIR]
#   --from installs the libTiltkitC.so already built in BINDIR, without building (the tests use
#   it: `swift build --build-tests` builds the library beside them).
set -euo pipefail
case " $* " in
    *" -h "*|*" --help "*) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *" --prefix "*) ;;
    *) echo "install-c-library: give --prefix DIR" >&2; exit 2 ;;
esac
exec "$(dirname "$0")/install.sh" --only c-library "$@"
