#!/usr/bin/env python3
"""Checks the README and docs/: every relative link and picture resolves (the file exists, and a
#fragment names a heading of the Markdown file it points at, by GitHub's heading anchors), and every
picture is listed in Assets/screenshots/manifest.tsv with the command that makes it.

    python3 scripts/check-docs.py            # one line per problem (file:line: what), exit 1 if any
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def pages():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").glob("*.md"))


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := HEADING.match(line)):
            found.add(anchor(m.group(1)))
    return found


def links(path):
    """(line number, target) for every link outside code blocks and inline code."""
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield number, m.group(1), m.group(0).startswith("!")


def manifest_images():
    lines = (ROOT / "Assets/screenshots/manifest.tsv").read_text(encoding="utf-8").splitlines()
    return {line.split("\t")[0] for line in lines if line and not line.startswith("#")}


def main():
    listed = manifest_images()
    problems = []
    for page in pages():
        where = page.relative_to(ROOT)
        for number, target, is_picture in links(page):
            if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
                continue
            path_part, _, fragment = target.partition("#")
            resolved = (page.parent / path_part).resolve() if path_part else page
            if not resolved.exists():
                problems.append(f"{where}:{number}: {target}: no such file")
                continue
            if fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
                problems.append(f"{where}:{number}: {target}: no heading #{fragment} in {resolved.relative_to(ROOT)}")
            if is_picture:
                image = resolved.relative_to(ROOT).as_posix()
                if image not in listed:
                    problems.append(f"{where}:{number}: {image}: not in Assets/screenshots/manifest.tsv")
    for problem in problems:
        print(problem)
    print(f"check-docs: {len(problems)} problem(s) in {len(list(pages()))} pages", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
