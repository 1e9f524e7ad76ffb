#!/usr/bin/env python3
"""Turn MotionSense's device-motion recordings of walks, jogs and stairs into Tiltkit traces.

Source: Malekzadeh, Clegg, Cavallaro, Haddadi, *Mobile Sensor Data Anonymization*, IoTDI 2019,
github.com/mmalekzadeh/motion-sense, MIT. `data/A_DeviceMotion_data.zip` holds one folder per
activity and trial (`wlk_7`, `jog_9`, `ups_3`, `dws_1`, ...) with one CSV per subject (`sub_5.csv`):
an index column, then attitude.roll/pitch/yaw (rad), gravity.x/y/z (g), rotationRate.x/y/z (rad/s),
userAcceleration.x/y/z (g), at 50 Hz, iPhone 6s in a front trouser pocket (the repository's README).

Output: the layout of ../shared/data/traces (its README): `t,ax..az,gx..gz,mx..mz,ref_*`, with
a = gravity + userAcceleration (g), g = rotationRate (rad/s), t = i / 50 s, no magnetometer and
no quaternion; roll/pitch/yaw, gravity and user acceleration as the reference. A first row that is
Core Motion's initialisation sample (zero attitude and user acceleration) is dropped. Files are
named `ACTIVITY_TRIAL_sub_SUBJECT.csv`, as the shared folder's subjects 1-2.

It also reads walks recorded outside MotionSense's trials by the idocal/motionsense project
(github.com/idocal/motionsense, folder `notebooks/real-data`: `wlk1.csv`, `ups2.csv`, ... recorded
with Core Motion on the project members' own phones, 100 Hz, with a `timeIntervalSince1970`
column). The repository states no licence, so these are measured, never bundled. Times come from
that column; the files are named `ACTIVITY_N_sub_idocal.csv` (one subject name: the recordings do
not say who walked).

    scripts/import-motionsense.py SOURCE OUT_DIR [--subjects 5-24] [--activities wlk,jog,ups,dws]

SOURCE: the extracted `A_DeviceMotion_data` folder, the zip itself, or a checkout of the repository;
or idocal/motionsense's `notebooks/real-data` folder (or a checkout of that repository).
Subjects 3 and 4 are never converted: they are held out to check the activity gate's tuning.
"""
import argparse
import io
import os
import re
import sys
import zipfile

RATE_HZ = 50.0  # MotionSense README: "50Hz sample rate"
HELD_OUT = {3, 4}
HEADER = ("t,ax,ay,az,gx,gy,gz,mx,my,mz,ref_qw,ref_qx,ref_qy,ref_qz,ref_roll,ref_pitch,ref_yaw,"
          "ref_gravx,ref_gravy,ref_gravz,ref_uax,ref_uay,ref_uaz")
COLUMNS = ["attitude.roll", "attitude.pitch", "attitude.yaw", "gravity.x", "gravity.y", "gravity.z",
           "rotationRate.x", "rotationRate.y", "rotationRate.z",
           "userAcceleration.x", "userAcceleration.y", "userAcceleration.z"]


OWN_NAME = re.compile(r"(wlk|jog|ups|dws|sit|std)(\d+)\.csv")


def subject_range(text):
    chosen = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        try:
            chosen.update(range(int(low), int(high or low) + 1))
        except ValueError:
            sys.exit(f"--subjects {text}: expected numbers and ranges like 5-24,30")
    return chosen


class Source:
    """Member files `ACTIVITY_TRIAL/sub_N.csv` of a folder, a checkout or the zip."""

    def __init__(self, path):
        self.zip = None
        self.root = None
        self.own = False  # idocal's real-data: ACTIVITY N .csv in one folder, no subject numbers
        for candidate in (path, os.path.join(path, "notebooks", "real-data")):
            if os.path.isdir(candidate) and any(OWN_NAME.fullmatch(n) for n in os.listdir(candidate)):
                self.root, self.own = candidate, True
                return
        if os.path.isfile(path):
            try:
                self.zip = zipfile.ZipFile(path)
            except zipfile.BadZipFile:
                sys.exit(f"{path}: not a zip file (a Git LFS pointer or a partial download?)")
            return
        for candidate in (path, os.path.join(path, "A_DeviceMotion_data"),
                          os.path.join(path, "data", "A_DeviceMotion_data")):
            if os.path.isdir(candidate) and any(n.startswith("wlk_") for n in os.listdir(candidate)):
                self.root = candidate
                return
        zipped = os.path.join(path, "data", "A_DeviceMotion_data.zip")
        if os.path.isfile(zipped):
            self.__init__(zipped)
            return
        sys.exit(f"{path}: expected A_DeviceMotion_data (folders like wlk_7/sub_5.csv) or its zip")

    def members(self):
        """(trial folder, subject, reader) for every sub_N.csv (idocal's: every ACTIVITY N .csv, subject "idocal")."""
        if self.own:
            for name in sorted(os.listdir(self.root)):
                match = OWN_NAME.fullmatch(name)
                if match and os.path.isfile(os.path.join(self.root, name)):  # not a folder or a pipe
                    yield f"{match[1]}_{match[2]}", "idocal", name
            return
        if self.zip:
            names = [n for n in self.zip.namelist() if n.endswith(".csv") and "__MACOSX" not in n]
        else:
            names = [os.path.join(d, f) for d in os.listdir(self.root)
                     if os.path.isdir(os.path.join(self.root, d))
                     for f in os.listdir(os.path.join(self.root, d))
                     if f.endswith(".csv") and os.path.isfile(os.path.join(self.root, d, f))]
        for name in sorted(names):
            parts = name.replace("\\", "/").split("/")
            if len(parts) < 2 or not parts[-1].startswith("sub_"):
                continue
            try:
                subject = int(parts[-1][4:-4])
            except ValueError:
                continue
            yield parts[-2], subject, name

    def read(self, name):
        if self.zip:
            return io.TextIOWrapper(self.zip.open(name), encoding="utf-8").read()
        try:
            with open(os.path.join(self.root, name), encoding="utf-8") as f:
                return f.read()
        except (OSError, UnicodeDecodeError) as error:
            sys.exit(f"{name}: {error}")


def fmt(value):
    """Six decimals (as the shared folder's subjects 1-2), trailing zeros dropped."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def convert(text, label):
    lines = text.splitlines()
    if not lines:
        sys.exit(f"{label}: empty file")
    header = [c.strip().strip('"') for c in lines[0].split(",")]
    try:
        index = [header.index(c) for c in COLUMNS]
    except ValueError as error:
        sys.exit(f"{label}:1: expected the columns {', '.join(COLUMNS)}; {error}")
    clock = header.index("timeIntervalSince1970") if "timeIntervalSince1970" in header else None
    if clock is not None:
        index.append(clock)
    rows = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        cells = line.split(",")
        if len(cells) != len(header):
            sys.exit(f"{label}:{number}: expected {len(header)} columns, found {len(cells)}")
        try:
            rows.append([float(cells[i]) for i in index])
        except ValueError as error:
            sys.exit(f"{label}:{number}: {error}")
    # Core Motion's first device motion can be its initialisation: identity attitude, no user acceleration.
    if rows and all(v == 0 for v in rows[0][0:3] + rows[0][9:12]):
        rows.pop(0)
    out = [HEADER]
    start = rows[0][12] if rows and clock is not None else 0
    for i, row in enumerate(rows):
        roll, pitch, yaw, gx, gy, gz, rx, ry, rz, ux, uy, uz = row[:12]
        t = row[12] - start if clock is not None else i / RATE_HZ
        cells = [fmt(t)] + [fmt(v) for v in (gx + ux, gy + uy, gz + uz, rx, ry, rz)] + [""] * 7
        cells += [fmt(v) for v in (roll, pitch, yaw, gx, gy, gz, ux, uy, uz)]
        out.append(",".join(cells))
    seconds = rows[-1][12] - start if rows and clock is not None else len(rows) / RATE_HZ
    return "\n".join(out) + "\n", len(rows), seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source")
    parser.add_argument("out_dir")
    parser.add_argument("--subjects", default="5-24")
    parser.add_argument("--activities", default="wlk,jog,ups,dws")
    args = parser.parse_args()
    subjects = subject_range(args.subjects)
    if subjects & HELD_OUT:
        sys.exit("subjects 3 and 4 are held out to check the gate's tuning: leave them out of --subjects")
    activities = set(args.activities.split(","))
    source = Source(args.source)
    os.makedirs(args.out_dir, exist_ok=True)
    written = 0
    for trial, subject, name in source.members():
        if (not source.own and subject not in subjects) or trial.split("_")[0] not in activities:
            continue
        text, count, seconds = convert(source.read(name), name)
        out_name = f"{trial}_sub_{subject}.csv"
        with open(os.path.join(args.out_dir, out_name), "w", encoding="utf-8") as f:
            f.write(text)
        written += 1
        print(f"{out_name}: {count} samples, {seconds:.1f} s")
    if written == 0:
        chosen = "" if source.own else f"subjects {args.subjects} and "
        sys.exit(f"{args.source}: no recording of {chosen}activities {args.activities}")


if __name__ == "__main__":
    main()
