#!/usr/bin/env python3
"""Turn the walks and stairs of UCI HAPT's 30 subjects into Tiltkit traces for `tiltkit bench on-foot`.

Source: J.-L. Reyes-Ortiz, L. Oneto, A. Samà, X. Parra, D. Anguita, *Transition-Aware Human Activity
Recognition Using Smartphones*, Neurocomputing 171, 2016; the UCI Machine Learning Repository's
"Smartphone-Based Recognition of Human Activities and Postural Transitions" (doi:10.24432/C54G7M),
folder `RawData`. The UCI page gives CC BY 4.0; the dataset's own README forbids commercial use.
Those terms disagree, so the recordings are measured here, never bundled.

RawData holds, per experiment, `acc_expNN_userNN.txt` (acceleration, g, gravity included) and
`gyro_expNN_userNN.txt` (rad/s), three space-separated columns per row, no timestamps, 50 Hz
(the README), a Samsung Galaxy S II on the waist; `labels.txt` gives `experiment user activity
first_row last_row` (rows counted from 1, inclusive), activity 1 walking, 2 upstairs, 3 downstairs
(`activity_labels.txt`). Each experiment walks and climbs in stretches of 10-20 s with turns between.

Output, one `# tiltkit-trace v1` file per experiment (Sources/Motion/Trace/TiltkitTraceFormat.swift),
`hapt_expNN_userNN.csv`: from 10 s before the first walking or stairs label (the subject standing, as
a player before walking off) to the end of the last, t in s from its first row (row / 50),
acceleration with Core Motion's sign (Android's specific force negated: face up reads (0, 0, -1)),
rotation rate as recorded (Android's and Core Motion's axes and sense agree). Notes: `# subject:`
and `# on_foot_spans:`, each labelled stretch as `ACTIVITY START END` in the trace's seconds
(wlk, ups, dws), separated by `;`. The bench judges fires inside those stretches only: the turns
between them are not labelled.

    scripts/import-hapt.py RAW_DATA OUT_DIR

RAW_DATA: the `RawData` folder, or a bare git mirror holding `HAPT Dataset/RawData` (read with
`git show`, e.g. /work/.mirror/raviakash+Human_Activity_Postural_Transition_Recognition/repo).
"""
import itertools
import os
import subprocess
import sys

RATE_HZ = 50.0  # HAPT README: "3-axial linear acceleration and 3-axial angular velocity at a constant rate of 50Hz"
ACTIVITIES = {1: "wlk", 2: "ups", 3: "dws"}  # activity_labels.txt: WALKING, WALKING_UPSTAIRS, WALKING_DOWNSTAIRS
LEAD_IN_S = 10.0
MIRROR_FOLDER = "HAPT Dataset/RawData"


class Source:
    """Files of RawData from a folder or from a bare git mirror."""
    def __init__(self, root):
        self.root = root
        self.folder = os.path.isdir(root) and os.path.isfile(os.path.join(root, "labels.txt"))
        if not self.folder:
            probe = subprocess.run(["git", "-C", root, "cat-file", "-e", f"HEAD:{MIRROR_FOLDER}/labels.txt"],
                                   capture_output=True)
            if probe.returncode != 0:
                sys.exit(f"{root}: neither a RawData folder (labels.txt) nor a git mirror holding {MIRROR_FOLDER}")

    def lines(self, name):
        """The file's lines, read as they are used (a recording is never held whole)."""
        if self.folder:
            path = os.path.join(self.root, name)
            if not os.path.isfile(path):  # missing, a folder, or a pipe that would wait for a writer
                sys.exit(f"{path}: not a readable file")
            try:
                with open(path, encoding="utf-8") as f:
                    yield from f
            except (OSError, UnicodeDecodeError) as error:
                sys.exit(f"{path}: {error}")
            return
        git = subprocess.Popen(["git", "-C", self.root, "show", f"HEAD:{MIRROR_FOLDER}/{name}"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        yield from git.stdout
        if git.wait() != 0:
            sys.exit(f"{self.root}: {MIRROR_FOLDER}/{name}: {git.stderr.read().strip()}")


def rows(lines, name):
    """Each row of three numbers, with its line number checked as it is read."""
    for number, line in enumerate(lines, 1):
        cells = line.split()
        if not cells:
            continue
        try:
            values = [float(c) for c in cells]
        except ValueError:
            sys.exit(f"{name}:{number}: expected three numbers, got {line.strip()!r}")
        if len(values) != 3:
            sys.exit(f"{name}:{number}: expected three numbers, got {len(values)}")
        yield values


def labels(text):
    by_experiment = {}
    for number, line in enumerate(text.splitlines(), 1):
        cells = line.split()
        if not cells:
            continue
        try:
            experiment, user, activity, first, last = (int(c) for c in cells)
        except ValueError:
            sys.exit(f"labels.txt:{number}: expected five whole numbers, got {line.strip()!r}")
        by_experiment.setdefault((experiment, user), []).append((activity, first, last))
    return by_experiment


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n\n")[-2])
    source, out_dir = Source(sys.argv[1]), sys.argv[2]
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        sys.exit(f"{out_dir}: not a folder")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as error:
        sys.exit(f"{out_dir}: {error}")
    written = 0
    for (experiment, user), segments in sorted(labels("".join(source.lines("labels.txt"))).items()):
        on_foot = [(ACTIVITIES[a], first, last) for a, first, last in segments if a in ACTIVITIES]
        if not on_foot:
            continue
        stem = f"exp{experiment:02d}_user{user:02d}"
        start = max(0, min(first for _, first, _ in on_foot) - 1 - int(LEAD_IN_S * RATE_HZ))
        end = max(last for _, _, last in on_foot)  # rows from 1, inclusive: index end - 1 is the last
        spans = "; ".join(f"{code} {(first - 1 - start) / RATE_HZ:.2f} {(last - 1 - start) / RATE_HZ:.2f}"
                          for code, first, last in sorted(on_foot, key=lambda s: s[1]))
        path = os.path.join(out_dir, f"hapt_{stem}.csv")
        partial = path + ".partial"  # a failed write (a full disk, a bad row) leaves no half trace behind
        try:
            with open(partial, "w", encoding="utf-8") as f:
                f.write("# tiltkit-trace v1\n")
                f.write(f"# source: UCI HAPT (Reyes-Ortiz et al. 2016), RawData {stem}, rows {start + 1}-{end}\n")
                f.write(f"# nominal-rate-hz: {RATE_HZ}\n")
                f.write(f"# subject: HAPT {user}\n")
                f.write(f"# on_foot_spans: {spans}\n")
                f.write("t (s),ax (g),ay (g),az (g),gx (rad/s),gy (rad/s),gz (rad/s)\n")
                acc = rows(source.lines(f"acc_{stem}.txt"), f"acc_{stem}.txt")
                gyro = rows(source.lines(f"gyro_{stem}.txt"), f"gyro_{stem}.txt")
                count = 0
                for a, g in itertools.zip_longest(acc, gyro):
                    if a is None or g is None:
                        sys.exit(f"{stem}: the acceleration and gyro files differ in length (from row {count + 1})")
                    if start <= count < end:
                        f.write(f"{(count - start) / RATE_HZ:.2f},{-a[0]:.5f},{-a[1]:.5f},{-a[2]:.5f},"
                                f"{g[0]:.5f},{g[1]:.5f},{g[2]:.5f}\n")
                    count += 1
                if end > count:
                    sys.exit(f"{stem}: labels reach row {end}, the recording has {count}")
            os.replace(partial, path)
        except OSError as error:
            sys.exit(f"{path}: {error}")
        finally:
            if os.path.exists(partial):
                os.remove(partial)
        written += 1
    print(f"wrote {written} traces to {out_dir}")


if __name__ == "__main__":
    main()
