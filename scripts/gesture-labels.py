#!/usr/bin/env python3
"""Rebuilds Assets/gestures/labels.csv, the cart game's labelled gesture set, from ../shared/data.

Usage: scripts/gesture-labels.py [SHARED_DATA_DIR] [BROAD_MAT_DIR]
  SHARED_DATA_DIR: default ../shared/data beside the repository.
  BROAD_MAT_DIR: BROAD's original per-trial .mat files (github.com/dlaidig/broad, folder data_mat,
  CC BY 4.0) for the push labels, written to Assets/gestures/push-labels.csv; only the trials
  named in PUSH_TRIALS are read. Without it that file is left as it is. Either way its rows are
  merged into labels.csv, so the game is scored on pushes too.

Labels come from independent truth, never from the IMU the detectors read:
- BROAD trials (optical motion capture, CC BY 4.0): the truth quaternion q (sensor -> earth) gives
  the rotation rate in the sensor frame, w = 2 Im(conj(q_k) q_k+1) / dt, averaged over 50 ms.
  The pose is the game's (HoldingPose.detect) from the truth's gravity over the first 2 s: every
  trial starts lying flat, so the pad pose: tip axis x (top toward the player: positive about x),
  roll axis y (tip axis x gravity), yaw about gravity. A motion is a run of samples with
  |w| > 0.5 rad/s, split where the dominant component changes sign; in it:
    tip-away    rotation mostly about the tip axis (its share of |w|, RMS over the run, >= 0.8),
                negative, >= 15 deg turned: nothing expected;
    roll        mostly about the roll axis (share >= 0.8), >= 15 deg: nothing expected;
    yaw         mostly about gravity: nothing expected;
    ignore      anything else (mixed axes, or a tip too small to call): not scored.
  tip-toward  a run of tip rate > 0.5 rad/s (positive: top toward the player) peaking at >= 2 rad/s,
              >= 15 deg turned, its share of |w| >= 0.8: a jump is expected (from the run's start,
              the onset, to 0.3 s after its end). A run as strong with a share of 0.5-0.8 is
              `tip-toward-mixed`, `jump-allowed`: the top came toward the player as a tip does, with
              other turning mixed in, so a jump there is right and none is not a miss. A smaller share
              is `ignore`; motion runs overlapping a tip run give way to it.
  still: >= 2 s with |w| < 0.05 rad/s: nothing expected.
  BROAD's rotations are duck negatives ("a flip never reads as a push").
- BROAD's translation trials 10 and 15, pushes from the optical POSITION truth (`opt_pos`, m, in
  the same east/north/up frame as the quaternion, sampled and synchronised with the IMU: the .mat
  has the CSV's sample count and its quaternion and accelerometer equal the CSV's; the position's
  second derivative matches the IMU's acceleration turned into the earth frame with correlation
  0.994 at zero lag, 0.987 at +-2 samples). Velocity v and acceleration a by a Savitzky-Golay fit
  (cubic, 0.1 s), occlusion gaps bridged linearly. A pulse is a run of vertical acceleration beyond
  1 m/s^2 one way:
    push-down   downward (a_z < -1 m/s^2), peaking at >= PUSH (4 m/s^2, about 0.4 g), the device
                moving down at its end (v_z < -0.1 m/s: driven down, not an upward stroke braked),
                not a tip (the truth's orientation at the pulse's end within 15 deg of its start, < 2 rad/s at peak, the tip
                labels' own minimums; hand-held pushes turn about 1 rad/s): a duck is expected
                (onset: its start).
    push-up     upward (a_z > 1 m/s^2) peaking at >= PUSH, rotation as still: nothing expected.
    push-stop   downward, as strong, but not moving down at its end (an upward stroke braked): ignore
                (the truth says "down acceleration", the player meant "up").
    ignore      any pulse touching an occlusion gap > 50 ms, or turning as a tip does.
  push-sideways: a run of horizontal acceleration > 1 m/s^2 peaking at >= PUSH while |a_z| stays
  below 1 m/s^2, not a tip: nothing expected. Weaker pulses are not labelled (a duck
  there is unjudged).
- x-io's sensor_data.csv (MIT; no truth, events from its README and the game's tests): tips toward
  the player fired at 15.35 and 24.82 s, knocks at 81.07 and 100.92 s (windows 0.5 s before to
  0.1 s after); 0-10 s and 110 s-end still; roll 30-45 s, yaw 45-60 s and 65-75 s (from the
  folder's README: these stretches are described, not measured).
- MotionSense (MIT) walking, jogging, stairs: the whole file, nothing expected.

Columns: recording,pose,kind,start_s,end_s,onset_s,expect. Times from the recording's first sample.
"""
import csv, os, sys
import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(root), "shared", "data")
out = os.path.join(root, "Assets", "gestures", "labels.csv")

BROAD = ["01_undisturbed_slow_rotation_A", "06_undisturbed_fast_rotation_A",
         "08_undisturbed_fast_rotation_with_breaks_A", "21_undisturbed_fast_combined"]
PUSH_TRIALS = ["10_undisturbed_slow_translation_A", "15_undisturbed_fast_translation_A"]
PUSH, PULSE, DRIVEN, GAP = 4.0, 1.0, 0.1, 0.05
MOVING, STILL, SHARE, PEAK_TIP, MIN_ANGLE = 0.5, 0.05, 0.8, 2.0, np.radians(15)
MIXED_SHARE = 0.5  # a tip toward with at least this share of the turning is still a tip toward


def qmul(a, b):
    aw, ax, ay, az = a.T; bw, bx, by, bz = b.T
    return np.array([aw*bw-ax*bx-ay*by-az*bz, aw*bx+ax*bw+ay*bz-az*by,
                     aw*by-ax*bz+ay*bw+az*bx, aw*bz+ax*by-ay*bx+az*bw]).T


def truth_rate(q, dt):
    """Rotation rate (sensor frame, rad/s) from the truth quaternion, averaged over 50 ms."""
    conj = q * [1, -1, -1, -1]
    dq = qmul(conj[:-1], q[1:])
    dq *= np.sign(dq[:, :1])
    w = np.vstack([2 * dq[:, 1:] / dt, [np.nan] * 3])
    n = max(1, round(0.05 / dt))
    kernel = np.ones(n) / n
    return np.array([np.convolve(w[:, i], kernel, mode="same") for i in range(3)]).T


def runs(mask):
    """(first, last) index of each run of True."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(int), [0]])))
    return [(a, b - 1) for a, b in zip(edges[::2], edges[1::2])]


def push_labels(name, matdir):
    from scipy.io import loadmat
    from scipy.signal import savgol_filter
    m = loadmat(os.path.join(matdir, name + ".mat"))
    csv_rows = sum(1 for _ in open(os.path.join(shared, "broad", name + ".csv"))) - 1
    fs = float(m["sampling_rate"][0, 0]); dt = 1 / fs
    p, q = m["opt_pos"], m["opt_quat"]
    assert len(p) == csv_rows, f"{name}: .mat and CSV differ in length"
    t = np.arange(len(p)) * dt
    seen = np.isfinite(p).all(1)
    filled = np.array([np.interp(np.arange(len(p)), np.flatnonzero(seen), p[seen, k]) for k in range(3)]).T
    n = int(round(0.1 * fs)) | 1
    v = savgol_filter(filled, n, 3, deriv=1, delta=dt, axis=0)
    a = savgol_filter(filled, n, 3, deriv=2, delta=dt, axis=0)
    # Occluded stretches longer than GAP, widened by the fit's half window.
    gap = np.zeros(len(p), bool)
    for i, j in runs(~seen):
        if (j - i + 1) * dt > GAP: gap[max(0, i - n // 2): j + n // 2 + 1] = True
    rate = np.linalg.norm(truth_rate(q, dt), axis=1)
    az, ah = a[:, 2], np.hypot(a[:, 0], a[:, 1])
    rows = []
    def turning(i, j):   # a tip by the tip labels' measures: turned >= 15 deg start to end, or >= 2 rad/s
        net = qmul(q[i:i + 1] * [1, -1, -1, -1], q[j:j + 1])[0]
        return not (2 * np.arccos(min(1.0, abs(net[0]))) < MIN_ANGLE and np.nanmax(rate[i:j + 1]) < PEAK_TIP)
    def add(kind, i, j, expect):
        rows.append([name, "gamepad", kind, t[i], t[j], t[i], expect])
    for sign in (-1, 1):
        for i, j in runs(sign * az > PULSE):
            if (sign * az[i:j + 1]).max() < PUSH: continue
            if gap[i:j + 1].any() or turning(i, j): add("ignore", i, j, "ignore")
            elif sign > 0: add("push-up", i, j, "none")
            elif v[j, 2] < -DRIVEN: add("push-down", i, j, "duck")
            else: add("push-stop", i, j, "ignore")
    for i, j in runs((ah > PULSE) & (np.abs(az) < PULSE)):
        if ah[i:j + 1].max() < PUSH or gap[i:j + 1].any() or turning(i, j): continue
        add("push-sideways", i, j, "none")
    return sorted(rows, key=lambda r: r[3])


def broad_labels(name):
    d = np.genfromtxt(os.path.join(shared, "broad", name + ".csv"), delimiter=",", names=True)
    t = d["t_s"]; dt = t[1] - t[0]
    q = np.array([d["qw"], d["qx"], d["qy"], d["qz"]]).T
    w = truth_rate(q, dt)
    # The game's pose from the truth's gravity (Core Motion sign) over the first 2 s of seen markers.
    first = q[np.isfinite(q).all(1)][: int(2 / dt)].mean(0)
    qw, qx, qy, qz = first / np.linalg.norm(first)
    g = -np.array([2*(qx*qz-qw*qy), 2*(qy*qz+qw*qx), 1-2*(qx*qx+qy*qy)])
    assert abs(g[0]) <= 0.4 or abs(g[0]) <= abs(g[1]), "not the pad pose"
    tip = np.array([1.0, 0, 0]); roll = np.cross(tip, g); roll /= np.linalg.norm(roll); yaw = -g
    axes = {"tip": tip, "roll": roll, "yaw": yaw}
    comp = {k: w @ a for k, a in axes.items()}
    mag = np.linalg.norm(w, axis=1)
    rows = []
    finite = np.isfinite(mag)
    moving = finite & (mag > MOVING)
    # Runs of motion, split where the dominant component changes sign.
    dominant = np.argmax(np.abs(np.array([comp["tip"], comp["roll"], comp["yaw"]])), axis=0)
    sign = np.sign(np.choose(dominant, [comp["tip"], comp["roll"], comp["yaw"]]))
    i = 0
    while i < len(t):
        if not moving[i]:
            i += 1; continue
        j = i
        lead = [comp["tip"], comp["roll"], comp["yaw"]][dominant[i]]
        # Split where the run's leading component turns the other way (a tip toward, then away).
        while j + 1 < len(t) and moving[j + 1] and not (np.sign(lead[j + 1]) != sign[i] and abs(lead[j + 1]) > MOVING):
            j += 1
        seg = slice(i, j + 1)
        rms = np.sqrt(np.mean(mag[seg] ** 2))
        share = {k: np.sqrt(np.mean(c[seg] ** 2)) / rms for k, c in comp.items()}
        angle = {k: np.sum(c[seg]) * dt for k, c in comp.items()}
        kind, onset = "ignore", t[i]
        if share["tip"] >= SHARE and abs(angle["tip"]) >= MIN_ANGLE:
            if angle["tip"] < 0:
                kind = "tip-away"   # tips toward come from the tip runs below
        elif share["roll"] >= SHARE and abs(angle["roll"]) >= MIN_ANGLE:
            kind = "roll"
        elif share["yaw"] >= SHARE:
            kind = "yaw"
        expect = "ignore" if kind == "ignore" else "none"
        rows.append([name, "gamepad", kind, t[i], t[j], onset, expect])
        i = j + 1
    # Tips toward the player from the tip component alone: a run with tip rate > 0.5 rad/s. One
    # mostly about the tip axis is a tip-toward (a jump expected); a strong one with other turning
    # mixed in allows a jump; one mostly about other axes is not scored. Generic runs overlapping
    # these give way to them.
    tips = []
    for i, j in runs(finite & (comp["tip"] > MOVING)):
        seg = slice(i, j + 1)
        peak = comp["tip"][seg].max()
        share = np.sqrt(np.mean(comp["tip"][seg] ** 2)) / np.sqrt(np.mean(mag[seg] ** 2))
        angle = np.sum(comp["tip"][seg]) * dt
        if peak >= PEAK_TIP and angle >= MIN_ANGLE:
            kind, expect = (("tip-toward", "jump") if share >= SHARE else
                            ("tip-toward-mixed", "jump-allowed") if share >= MIXED_SHARE else ("ignore", "ignore"))
            tips.append([name, "gamepad", kind, t[i], t[j], t[i], expect])
    rows = [r for r in rows if not any(r[3] <= u[4] and u[3] <= r[4] for u in tips)] + tips
    # Still: >= 2 s below STILL.
    for i, j in runs(finite & (mag < STILL)):
        if t[j] - t[i] >= 2: rows.append([name, "gamepad", "still", t[i], t[j], t[i], "none"])
    return rows


rows = []
for name in BROAD:
    rows += broad_labels(name)
xio = "traces/xio/sensor_data.csv"
for kind, at, expect in [("tip-toward", 15.35, "jump"), ("tip-toward", 24.82, "jump"), ("knock", 81.07, "duck"), ("knock", 100.92, "duck")]:
    rows.append([xio, "auto", kind, at - 0.5, at + 0.1, float("nan"), expect])
xio_end = float(open(os.path.join(shared, xio)).read().strip().split("\n")[-1].split(",")[0])
rows += [[xio, "auto", "still", 0.0, 10.0, 0.0, "none"], [xio, "auto", "still", 110.0, xio_end, 110.0, "none"],
         [xio, "auto", "roll", 30.0, 45.0, 30.0, "none"], [xio, "auto", "yaw", 45.0, 60.0, 45.0, "none"],
         [xio, "auto", "yaw", 65.0, 75.0, 65.0, "none"]]
for f, kind in [("wlk_15_sub_1", "walk"), ("wlk_15_sub_2", "walk"), ("jog_16_sub_1", "jog"), ("jog_16_sub_2", "jog"),
                ("ups_12_sub_1", "stairs"), ("ups_12_sub_2", "stairs"), ("dws_11_sub_1", "stairs"), ("dws_11_sub_2", "stairs")]:
    path = f"traces/motionsense/{f}.csv"
    end = float(open(os.path.join(shared, path)).read().strip().split("\n")[-1].split(",")[0])
    rows.append([path, "auto", kind, 0.0, end, 0.0, "none"])


def write(path, rows, what):
    for r in rows:
        if r[0] in BROAD + PUSH_TRIALS: r[0] = f"broad/{r[0]}.csv"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as fh:
        fh.write(f"# {what}: scripts/gesture-labels.py rebuilds this from ../shared/data (see the script for how each label is derived).\n")
        fh.write("# Recordings: BROAD (CC BY 4.0, Laidig et al. 2021, doi:10.3390/data6070072), x-io Fusion example (MIT), MotionSense (MIT, Malekzadeh et al. 2019).\n")
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["recording", "pose", "kind", "start_s", "end_s", "onset_s", "expect"])
        for r in rows:
            w.writerow(r[:3] + ["nan" if not np.isfinite(v) else f"{v:.3f}" for v in r[3:6]] + [r[6]])


push_out = os.path.join(root, "Assets", "gestures", "push-labels.csv")
if len(sys.argv) > 2:
    pushes = [r for name in PUSH_TRIALS for r in push_labels(name, sys.argv[2])]
    write(push_out, pushes, "Pushes from BROAD's optical position truth (trials 10, 15)")
else:
    # Without the .mat files the push labels are kept as last built (they are merged below).
    with open(push_out) as fh:
        pushes = [r for r in csv.reader(l for l in fh if not l.startswith("#"))][1:]
    pushes = [r[:3] + [float(v) for v in r[3:6]] + [r[6]] for r in pushes]
rows += pushes
write(out, rows, "Cart game gesture labels (pushes from push-labels.csv merged)")
from collections import Counter
print(out, Counter((r[0].split('/')[0] if '/' in r[0] else r[0], r[2]) for r in rows))
