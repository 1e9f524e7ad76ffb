#!/usr/bin/env bash
# Prints Tiltkit's version (e.g. 0.1.0) as Sources/Motion/TiltkitVersion.swift defines it, for the
# scripts that name it (SONAME, tiltkit.pc, the .deb). Optional --major prints its first number.
set -euo pipefail
source_file="$(dirname "$0")/../Sources/Motion/TiltkitVersion.swift"
version="$(sed -n 's/^ *public static let string = "\([0-9][0-9.]*\)"$/\1/p' "$source_file")"
[ -n "$version" ] || { echo "version.sh: $source_file has no 'public static let string = \"X.Y.Z\"'" >&2; exit 1; }
case "${1:-}" in
    --major) echo "${version%%.*}" ;;
    "") echo "$version" ;;
    *) echo "version.sh: unknown argument '$1' (only --major)" >&2; exit 2 ;;
esac
