#!/usr/bin/env python3
"""Turn the Oxford Step Counter dataset's 12 validation recordings into Tiltkit traces.

Source: Salvi, Velardo, Brynes, Tarassenko, Oxford Step Counter dataset,
github.com/Oxford-step-counter/DataSet, CC BY 4.0. Each validation CSV has the columns
    timestamp (ns since boot), accx, accy, accz (m/s^2, Android sign: +9.8 on the up axis at rest),
    steps by the app's algorithm, ground-truth steps (foot-worn device), hardware step counter
(validation/README.md). We write `# tiltkit-trace v1` files (Sources/Motion/Trace/TiltkitTraceFormat.swift):
t in s from the first kept sample, acceleration in g with Core Motion's sign (face up reads
(0, 0, -1), the negation of Android's), rounded to 4 decimals; the truth and the phone's own
counts go in `# key: value` comments.

    scripts/import-oxford-steps.py [DATASET_DIR_OR_BARE_GIT] [OUT_DIR]

DATASET defaults to the bare mirror /work/.mirror/Oxford-step-counter+DataSet/repo (read with
`git show`), or pass a checkout; OUT_DIR defaults to Assets/traces/oxford-steps.
"""
import os
import subprocess
import sys

STANDARD_GRAVITY = 9.80665  # m/s^2 per g (CGPM 1901), the factor Android's SensorManager uses too
PLACEMENTS = {"hand": "hand", "frontpocket": "front trouser pocket", "backpocket": "back trouser pocket",
              "bag": "bag", "armband": "armband", "neckpouch": "neck pouch"}


def read_source(root, path):
    """The file's text from a checkout or, for a bare git dir, from HEAD."""
    plain = os.path.join(root, path)
    if os.path.isfile(plain):
        with open(plain, encoding="utf-8") as f:
            return f.read()
    return subprocess.run(["git", "-C", root, "show", "HEAD:" + path], check=True,
                          capture_output=True, text=True).stdout


def list_validation(root):
    folder = os.path.join(root, "validation")
    if os.path.isdir(folder):
        names = os.listdir(folder)
    else:
        out = subprocess.run(["git", "-C", root, "ls-tree", "--name-only", "HEAD", "validation/"],
                             check=True, capture_output=True, text=True).stdout
        names = [os.path.basename(n) for n in out.split()]
    return sorted(n for n in names if n.endswith(".csv") and n.startswith("user"))


def fmt(x):
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def convert(root, name, out_dir):
    text = read_source(root, "validation/" + name)
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        cells = line.split(",")
        if len(cells) != 7:
            sys.exit(f"{name}:{number}: expected 7 columns, found {len(cells)}")
        try:
            rows.append((int(cells[0]), float(cells[1]), float(cells[2]), float(cells[3]),
                         int(cells[4]), int(cells[5]), int(cells[6])))
        except ValueError as error:
            sys.exit(f"{name}:{number}: {error}")
    # The app logs an all-zero row before the sensor's first reading: not a measurement.
    while rows and rows[0][1:4] == (0.0, 0.0, 0.0):
        rows.pop(0)
    if len(rows) < 2:
        sys.exit(f"{name}: fewer than 2 samples")
    user, placement = name.split("_")[:2]
    t0 = rows[0][0]
    duration = (rows[-1][0] - t0) / 1e9
    rate = (len(rows) - 1) / duration
    last = rows[-1]
    hardware = str(last[6]) if last[6] > 0 else "not recorded"
    out_name = f"{user}_{placement}.csv"
    lines = [
        "# tiltkit-trace v1",
        f"# source: Oxford Step Counter dataset (Salvi et al., CC BY 4.0), validation/{name}",
        f"# nominal-rate-hz: {rate:.1f}",
        f"# placement: {PLACEMENTS.get(placement, placement)}",
        f"# steps_truth: {last[5]}",
        f"# steps_phone_algorithm: {last[4]}",
        f"# steps_phone_hardware_counter: {hardware}",
        "t (s),ax (g),ay (g),az (g)",
    ]
    # A few rows repeat or go back in time (3 in all 12 files); a trace's time must increase.
    dropped = 0
    last_t = None
    for ns, x, y, z, *_ in rows:
        t = f"{(ns - t0) / 1e9:.4f}"
        if last_t is not None and float(t) <= last_t:
            dropped += 1
            continue
        last_t = float(t)
        lines.append(",".join([t, fmt(-x / STANDARD_GRAVITY), fmt(-y / STANDARD_GRAVITY), fmt(-z / STANDARD_GRAVITY)]))
    with open(os.path.join(out_dir, out_name), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{out_name}: {len(rows) - dropped} samples ({dropped} dropped: time not increasing), "
          f"{duration:.1f} s, {rate:.1f} Hz, truth {last[5]} steps")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Oxford-step-counter+DataSet/repo"
    out_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "Assets", "traces", "oxford-steps")
    os.makedirs(out_dir, exist_ok=True)
    names = list_validation(root)
    if not names:
        sys.exit(f"no validation/user*.csv in {root}")
    for name in names:
        convert(root, name, out_dir)


if __name__ == "__main__":
    main()
