#!/usr/bin/env bash
# Builds Tiltkit (release, Swift's runtime linked in statically) and installs it under a prefix:
#   bin/tiltkit                                  the command
#   share/tiltkit/Assets, share/tiltkit/Shaders  the bundled trace, profiles and shaders it reads at run time
#   lib/libtiltkit.so.X.Y.Z (+ .so.X, .so links), include/tiltkit.h, lib/pkgconfig/tiltkit.pc   the C API
#   share/man/man1/tiltkit*.1.gz                 man pages (swift-argument-parser's generate-manual)
#   bash, zsh and fish completions               where each shell looks under the prefix
#   lib/systemd/user/tiltkit-{dsu,map}.service   user services: `systemctl --user enable --now tiltkit-dsu`
#   udev rules                                   /etc/udev/rules.d (PREFIX/lib/udev/rules.d for --prefix /usr)
# and lists every file (and every folder it made) in share/tiltkit/install-manifest.txt, which
# --uninstall reads: it removes exactly those, nothing else.
#
# Usage: scripts/install.sh [--prefix DIR] [--destdir DIR] [--uninstall] [--udev-dir DIR]
#                           [--only c-library] [--from BINDIR] [--configuration release|debug]
#   --prefix DIR      where it is installed and run from (default /usr/local)
#   --destdir DIR     stage under DIR instead (for packaging: files land in DIR/PREFIX; no udev reload)
#   --udev-dir DIR    where the udev rules go instead of the default above
#   --only c-library  only the C API (library, header, tiltkit.pc) and the trace source "auto" replays
#   --from BINDIR     install what is already built in BINDIR instead of building
# Run with sudo for a system prefix: it builds as the user who ran sudo, and installs as root.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

prefix=/usr/local
destdir=""
udev_dir=""
uninstall=false
only=""
from=""
configuration=release
while (($#)); do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
        --destdir) destdir="${2:?--destdir needs a folder}"; shift 2 ;;
        --udev-dir) udev_dir="${2:?--udev-dir needs a folder}"; shift 2 ;;
        --uninstall) uninstall=true; shift ;;
        --only) only="${2:?--only needs c-library}"; shift 2 ;;
        --from) from="${2:?--from needs the folder the products were built in}"; shift 2 ;;
        --configuration|-c) configuration="${2:?--configuration needs release or debug}"; shift 2 ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case "$only" in ""|c-library) ;; *) echo "install: --only takes c-library, not '$only'" >&2; exit 2 ;; esac
case "$configuration" in release|debug) ;; *) echo "install: --configuration is release or debug" >&2; exit 2 ;; esac
# The prefix is where the files are found at run time, so it is absolute; a relative one is taken from here.
[[ "$prefix" = /* ]] || prefix="$PWD/$prefix"
prefix="${prefix%/}"
if [ -n "$destdir" ]; then mkdir -p "$destdir" && destdir="$(cd "$destdir" && pwd)"; destdir="${destdir%/}"; fi

version="$(scripts/version.sh)"
major="$(scripts/version.sh --major)"
manifest="$prefix/share/tiltkit/install-manifest.txt"
if [ -z "$udev_dir" ]; then
    # udev reads /usr/lib/udev/rules.d (the distribution's) and /etc/udev/rules.d (the local admin's), not /usr/local.
    if [ "$prefix" = /usr ]; then udev_dir=/usr/lib/udev/rules.d; else udev_dir=/etc/udev/rules.d; fi
fi

reload_udev() {
    [ -z "$destdir" ] || return 0
    if command -v udevadm >/dev/null && udevadm control --ping 2>/dev/null; then
        udevadm control --reload && udevadm trigger --action=change --subsystem-match=hidraw --subsystem-match=input --subsystem-match=misc
        echo "install: udev reloaded; unplug and replug the controller (or reconnect it over Bluetooth) to apply the rules to it"
    else
        echo "install: no running udev here; the rules apply once udev starts (or: udevadm control --reload && udevadm trigger, then replug the controller)"
    fi
}

# Removes the files a manifest lists, then the folders it made once they are empty; nothing else.
uninstall_from() {
    local list="$destdir$1" line removed_rules=false
    [ -f "$list" ] || { echo "install: $list is absent: nothing installed under $prefix${destdir:+ (in $destdir)} to remove" >&2; return 1; }
    local dirs=()
    while IFS= read -r line; do
        case "$line" in
            */) dirs=("$line" "${dirs[@]}") ;;  # made in order, so removed in reverse
            *) [[ "$line" == */rules.d/* ]] && removed_rules=true
               rm -f -- "$destdir$line" ;;
        esac
    done <"$list"
    rm -f -- "$list"
    for line in "${dirs[@]}"; do rmdir -- "$destdir$line" 2>/dev/null || true; done
    if $removed_rules; then reload_udev; fi
}

if $uninstall; then
    uninstall_from "$manifest"
    echo "install: removed what $manifest listed"
    exit 0
fi

# Build (as the user who ran sudo, so .build stays theirs).
if [ -z "$from" ]; then
    as_user=()
    if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then as_user=(sudo -u "$SUDO_USER" --preserve-env=PATH); fi
    build=("${as_user[@]}" swift build -c "$configuration")
    if [ -z "$only" ]; then
        # Swift's runtime linked in: the command runs without the toolchain.
        "${build[@]}" --static-swift-stdlib --product tiltkit
        "${build[@]}" --static-swift-stdlib --product generate-manual
    fi
    # The SONAME names the ABI's major version: programs linked today load libtiltkit.so.0 tomorrow.
    # SwiftPM cannot link Swift's static runtime into a shared library (it mixes static and shared
    # Foundation), so the library keeps its RUNPATH to the toolchain's runtime; package-deb.sh bundles that.
    "${build[@]}" --product TiltkitC -Xlinker "-soname=libtiltkit.so.$major"
    from="$("${build[@]}" --show-bin-path)"
fi
[ -f "$from/libTiltkitC.so" ] || { echo "install: $from/libTiltkitC.so is missing (build it, or drop --from)" >&2; exit 1; }
[ -n "$only" ] || [ -x "$from/tiltkit" ] || { echo "install: $from/tiltkit is missing (build it, or drop --from)" >&2; exit 1; }

# Reinstalling replaces the previous install exactly (its manifest says what that was).
if [ -f "$destdir$manifest" ]; then uninstall_from "$manifest" >/dev/null; fi

installed=()  # target paths (without destdir), files, and folders ending in /
make_dirs() {  # mkdir -p, remembering each folder it made
    local dir="$1" missing=()
    while [ ! -d "$destdir$dir" ]; do missing=("$dir" "${missing[@]}"); dir="$(dirname "$dir")"; done
    for dir in "${missing[@]}"; do mkdir -- "$destdir$dir"; installed+=("$dir/"); done
}
put() {  # put MODE SOURCE TARGET
    make_dirs "$(dirname "$3")"
    install -m "$1" -- "$2" "$destdir$3"
    installed+=("$3")
}
put_text() {  # put_text MODE TARGET < text (not from a pipe: a pipeline's function runs in a subshell and forgets the file)
    make_dirs "$(dirname "$2")"
    cat >"$destdir$2"
    chmod "$1" "$destdir$2"
    installed+=("$2")
}
put_link() {  # put_link TARGET_OF_LINK LINK
    make_dirs "$(dirname "$2")"
    ln -sfn -- "$1" "$destdir$2"
    installed+=("$2")
}

share="$prefix/share/tiltkit"
libdir="$prefix/lib"

# The trace "auto" replays without a device, with its licence (x-io's, MIT).
for file in sensor_data.csv LICENSE; do
    put 0644 "Assets/traces/xio/$file" "$share/Assets/traces/xio/$file"
done

# The C API: the library under its full version, the SONAME link the loader follows, the link the linker follows.
put 0644 "$from/libTiltkitC.so" "$libdir/libtiltkit.so.$version"
put_link "libtiltkit.so.$version" "$libdir/libtiltkit.so.$major"
put_link "libtiltkit.so.$major" "$libdir/libtiltkit.so"
put 0644 Sources/CTiltkit/tiltkit.h "$prefix/include/tiltkit.h"
# Outside the loader's own folders a program needs the rpath to find the library.
rpath=' -Wl,-rpath,${libdir}'
case "$libdir" in /usr/lib|/lib) rpath="" ;; esac
put_text 0644 "$libdir/pkgconfig/tiltkit.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: tiltkit
Description: Core Motion for Linux: device motion from gyro gamepads, IMUs and traces
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -ltiltkit$rpath
PC

if [ -z "$only" ]; then
    put 0755 "$from/tiltkit" "$prefix/bin/tiltkit"
    for shader in Shaders/*.vert Shaders/*.frag; do put 0644 "$shader" "$share/$shader"; done
    for profile in Assets/profiles/*.toml; do
        [ -e "$profile" ] && put 0644 "$profile" "$share/$profile"
    done

    # Completions where each shell's own default search path looks (Debian's zsh reads vendor-completions under /usr).
    zsh_dir="$prefix/share/zsh/site-functions"
    [ "$prefix" = /usr ] && zsh_dir=/usr/share/zsh/vendor-completions
    # bash-completion sources the file, so the generator's #! line means nothing there.
    put_text 0644 "$prefix/share/bash-completion/completions/tiltkit" < <("$from/tiltkit" --generate-completion-script bash | sed '1{/^#!/d}')
    put_text 0644 "$zsh_dir/_tiltkit" < <("$from/tiltkit" --generate-completion-script zsh)
    put_text 0644 "$prefix/share/fish/vendor_completions.d/tiltkit.fish" < <("$from/tiltkit" --generate-completion-script fish)

    # Man pages, one per command, from the command's own help (swift-argument-parser's generator reads
    # `tiltkit --experimental-dump-help`); dated by SOURCE_DATE_EPOCH when set, so a package build is reproducible.
    pages="$(mktemp -d)"
    trap 'rm -rf "$pages"' EXIT
    date_args=()
    [ -n "${SOURCE_DATE_EPOCH:-}" ] && date_args=(--date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)")
    "$from/generate-manual" "$from/tiltkit" --multi-page "${date_args[@]}" --output-directory "$pages"
    for page in "$pages"/*.1; do
        # An empty line is not mdoc (groff warns); .Pp is its paragraph break.
        put_text 0644 "$prefix/share/man/man1/$(basename "$page").gz" < <(sed 's/^$/.Pp/' "$page" | gzip -9n)
    done

    for unit in Assets/systemd/*.service; do
        put_text 0644 "$prefix/lib/systemd/user/$(basename "$unit")" < <(sed "s|@BINDIR@|$prefix/bin|g" "$unit")
    done

    rules=()
    for rule in Assets/udev/70-tiltkit.rules Assets/udev/71-tiltkit-uinput.rules; do
        [ -e "$rule" ] && rules+=("$rule")
    done
    existing="$udev_dir"  # the folder itself or the nearest one above it that exists: make_dirs makes the rest
    while [ ! -d "$existing" ]; do existing="$(dirname "$existing")"; done
    if [ -n "$destdir" ] || [ -w "$existing" ]; then
        for rule in "${rules[@]}"; do put 0644 "$rule" "$udev_dir/$(basename "$rule")"; done
    else
        echo "install: cannot write $udev_dir; the udev rules are not installed (run as root, or give --udev-dir)" >&2
        rules=()
    fi
fi

make_dirs "$share"
put_text 0644 "$manifest" < <(printf '%s\n' "${installed[@]}" "$manifest")
echo "install: Tiltkit $version, ${#installed[@]} files and folders under $prefix${destdir:+ (staged in $destdir)}; listed in $manifest"
if [ -z "$only" ] && ((${#rules[@]})); then reload_udev; fi
