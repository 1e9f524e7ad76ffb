#!/usr/bin/env python3
"""Cuts an excerpt of a BROAD trial (../shared/data/broad CSV layout) into the layout of the
recordings in Assets/traces/: t (s from the cut), acceleration in g with Core Motion's sign,
rad/s, and the optical ground truth as the reference: ref_q* (sensor -> earth, x east,
y magnetic north, z up) and the gravity it implies in the device frame, ref_grav* (g).
Occluded ground truth (NaN) becomes empty cells. The magnetometer is left out: the excerpt is for
tilt, and the benches take a bundled recording with a magnetometer as their 9-axis input (x-io's).

    scripts/import-broad-excerpt.py ../shared/data/broad/21_undisturbed_fast_combined.csv 28 63 OUT.csv
"""
import csv, math, sys

G = 9.81  # BROAD's m/s^2 to g, as Sources/MotionEvaluation/BroadTrial.swift

def gravity_in_device(qw, qx, qy, qz):
    # q* (0, 0, -1) q: the earth's down in the sensor frame (third row of R(q), negated)
    return (-2 * (qx * qz - qw * qy), -2 * (qy * qz + qw * qx), -(1 - 2 * (qx * qx + qy * qy)))

def main(src, start, end, out):
    start, end = float(start), float(end)
    with open(src) as f, open(out, "w", newline="") as o:
        w = csv.writer(o, lineterminator="\n")
        w.writerow("t,ax,ay,az,gx,gy,gz,ref_qw,ref_qx,ref_qy,ref_qz,ref_gravx,ref_gravy,ref_gravz".split(","))
        for r in csv.DictReader(f):
            t = float(r["t_s"])
            if t < start or t > end:
                continue
            acc = [f"{-float(r[k]) / G:.6f}" for k in ("ax", "ay", "az")]
            gyro = [f"{float(r[k]):.6f}" for k in ("gx", "gy", "gz")]
            q = [float(r[k]) for k in ("qw", "qx", "qy", "qz")]
            if all(math.isfinite(v) for v in q):
                ref = [f"{v:.6f}" for v in q] + [f"{v:.6f}" for v in gravity_in_device(*q)]
            else:
                ref = [""] * 7
            w.writerow([f"{t - start:.6f}"] + acc + gyro + ref)

if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
