#!/usr/bin/env bash
# `swift format lint` (the toolchain's swift-format) with .swift-format, on every Swift file.
# The rules .swift-format turns off are the project's style (STYLE.md): several short statements
# on a line, `let a = 1, b = 2`, `case a, b, c`, kernel names such as EV_SYN, ω in the maths.
# The pretty printer's layout findings (Indentation, AddLines, RemoveLine, Spacing, LineLength,
# TrailingComma) are left out: the code aligns continuation lines by hand, which swift-format
# would rewrite throughout, and it has no setting to turn those findings off
# (swiftlang/swift-format issues 764 and 964). Every other finding, trailing whitespace
# included, fails the lint.
set -euo pipefail
cd "$(dirname "$0")/.."
layout='\[(Indentation|AddLines|RemoveLine|Spacing|LineLength|TrailingComma)\]'
findings="$(swift format lint --parallel --recursive Package.swift Sources Tests Examples Fuzz 2>&1 | grep -Ev "$layout" || true)"
if [ -n "$findings" ]; then
    echo "$findings"
    echo "lint: $(grep -c 'warning:\|error:' <<<"$findings") findings" >&2
    exit 1
fi
echo "lint: no findings"
