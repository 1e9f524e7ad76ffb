#!/usr/bin/env python3
"""Runs the peer filters from their PyPI packages over BROAD trials for `tiltkit bench accuracy`.

The bench writes each trial (as it will score it: native, resampled or jittered) to a raw file of
little-endian float64 rows `t, gx, gy, gz, ax, ay, az, mx, my, mz` (s, rad/s, m/s² specific force,
µT) and sends a request on stdin:

    {"output": DIR, "peers": ["vqf", "imufusion", "ahrs"],
     "trials": [{"name": NAME, "input": PATH, "period": NOMINAL_SECONDS}]}

For every trial and filter this writes DIR/NAME__ID.f64, float64 rows `w, x, y, z`: the attitude
after each sample, sensor → earth (9D: x east, y north, z up, BROAD's frame; 6D: z up, heading
arbitrary), and prints one JSON object on stdout: the package versions, which peers are missing
and why, and per trial and filter the file and the time per sample. The bench scores the files
with its own BROAD metric, the same code it scores Tiltkit with.

Parameters: VQF's defaults (Laidig & Seel 2023); x-io Fusion's recommended settings (gain 0.5,
acceleration and magnetic rejection 10°, rejection timeout 5 s, its gyroscope bias module);
Madgwick and Mahony at the `ahrs` package's defaults. VQF takes one sampling time for a whole
batch (its API has no per-sample step), so it gets the nominal period; the others get each
sample's own time step.

Install the peers with scripts/install-peers.sh.
"""
import json
import multiprocessing
import os
import sys
import time
from functools import partial

import numpy as np


def versions():
    out = {}
    try:
        from importlib.metadata import version, PackageNotFoundError
    except ImportError:  # pragma: no cover
        return out
    for name in ("vqf", "imufusion", "ahrs", "numpy"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            pass
    return out


def initial_attitude(acc, mag, frame):
    """Sensor → earth ("nwu": x north, y west, z up; "enu": x east, y north, z up) from the first
    accelerometer and magnetometer sample, so the filters that would start at identity do not
    spend the rest phase converging from it."""
    up = acc / np.linalg.norm(acc)
    north = mag - np.dot(mag, up) * up
    if not np.all(np.isfinite(north)) or np.linalg.norm(north) < 1e-9:
        north = np.cross([0.0, 1.0, 0.0], up)
    north /= np.linalg.norm(north)
    west = np.cross(up, north)
    rows = [north, west, up] if frame == "nwu" else [-west, north, up]  # earth axes in sensor coordinates
    return matrix_to_quaternion(np.vstack(rows))


def matrix_to_quaternion(r):
    w = np.sqrt(max(0.0, 1 + r[0, 0] + r[1, 1] + r[2, 2])) / 2
    x = np.copysign(np.sqrt(max(0.0, 1 + r[0, 0] - r[1, 1] - r[2, 2])) / 2, r[2, 1] - r[1, 2])
    y = np.copysign(np.sqrt(max(0.0, 1 - r[0, 0] + r[1, 1] - r[2, 2])) / 2, r[0, 2] - r[2, 0])
    z = np.copysign(np.sqrt(max(0.0, 1 - r[0, 0] - r[1, 1] + r[2, 2])) / 2, r[1, 0] - r[0, 1])
    q = np.array([w, x, y, z])
    return q / np.linalg.norm(q)


def nwu_to_enu(q):
    """Rz(+90°) ⊗ q: turns sensor → NWU attitudes into sensor → ENU (BROAD's frame)."""
    c = np.sqrt(0.5)
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([c * (w - z), c * (x - y), c * (y + x), c * (z + w)], axis=1)


def run_vqf(t, gyr, acc, mag, period):
    from vqf import VQF
    results = []
    for axes in (9, 6):
        best, quat = None, None
        for _ in range(3):  # the minimum of three batch calls, as the other benches report minima
            filt = VQF(period)
            start = time.perf_counter_ns()
            out = filt.updateBatch(gyr, acc, mag) if axes == 9 else filt.updateBatch(gyr, acc)
            elapsed = time.perf_counter_ns() - start
            if best is None or elapsed < best:
                best = elapsed
            quat = out["quat9D"] if axes == 9 else out["quat6D"]
        results.append(("vqf%d" % axes, "VQF %dD" % axes, axes, quat, best / len(t), "updateBatch (C++ loop)"))
    return results


def run_imufusion(t, gyr, acc, mag, period):
    import imufusion
    gyr_deg = np.ascontiguousarray(np.degrees(gyr))
    acc_g = np.ascontiguousarray(acc / 9.81)
    dts = np.diff(t, prepend=t[0] - period)
    results = []
    for axes in (9, 6):
        settings = imufusion.AhrsSettings()
        settings.convention = imufusion.CONVENTION_ENU
        settings.gain = 0.5
        settings.gyroscope_range = 2000
        settings.acceleration_rejection = 10
        settings.magnetic_rejection = 10
        settings.rejection_timeout = int(5 / period)
        settings.sample_rate = int(round(1 / period))
        bias_settings = imufusion.BiasSettings()
        bias_settings.sample_rate = settings.sample_rate
        ahrs = imufusion.Ahrs()
        ahrs.set_settings(settings)
        bias = imufusion.Bias()
        bias.set_settings(bias_settings)
        quat = np.empty((len(t), 4))
        start = time.perf_counter_ns()
        for i in range(len(t)):
            g = bias.update(gyr_deg[i])
            ahrs.set_sample_period(float(dts[i]))
            if axes == 9:
                ahrs.update(g, acc_g[i], mag[i])
            else:
                ahrs.update_no_magnetometer(g, acc_g[i])
            quat[i] = ahrs.get_quaternion()
        elapsed = time.perf_counter_ns() - start
        results.append(("fusion%d" % axes, "x-io Fusion %dD" % axes, axes, quat, elapsed / len(t), "Python loop"))
    return results


def run_ahrs(t, gyr, acc, mag, period):
    from ahrs.filters import Madgwick, Mahony
    dts = np.diff(t, prepend=t[0] - period)
    results = []
    # The package's Madgwick keeps the field on its x axis (north, west, up); its Mahony on y
    # (east, north, up).
    for name, make, frame in (("Madgwick", lambda: Madgwick(frequency=1 / period), "nwu"),
                              ("Mahony", lambda: Mahony(frequency=1 / period), "enu")):
        for axes in (9, 6):
            filt = make()
            quat = np.empty((len(t), 4))
            q = initial_attitude(acc[0], mag[0], frame)
            start = time.perf_counter_ns()
            for i in range(len(t)):
                dt = float(dts[i])
                q = filt.updateMARG(q, gyr[i], acc[i], mag[i], dt=dt) if axes == 9 else filt.updateIMU(q, gyr[i], acc[i], dt=dt)
                quat[i] = q
            elapsed = time.perf_counter_ns() - start
            results.append((name.lower() + str(axes), "%s %dD" % (name, axes), axes,
                            nwu_to_enu(quat) if frame == "nwu" else quat,
                            elapsed / len(t), "Python loop"))
    return results


RUNNERS = {"vqf": ("vqf", run_vqf), "imufusion": ("imufusion", run_imufusion), "ahrs": ("ahrs", run_ahrs)}


def main():
    request = json.load(sys.stdin)
    output = request["output"]
    wanted = request.get("peers") or list(RUNNERS)
    missing, available = {}, []
    for peer in wanted:
        if peer not in RUNNERS:
            missing[peer] = "unknown peer (known: %s)" % ", ".join(RUNNERS)
            continue
        module, runner = RUNNERS[peer]
        try:
            __import__(module)
            available.append(runner)
        except ImportError as error:
            missing[peer] = "not installed (%s); scripts/install-peers.sh installs it" % error
    # VQF's batch call is timed, so it runs alone first; the per-sample Python loops (slow: the
    # `ahrs` filters take a few hundred µs a sample) then share the cores.
    jobs = [(trial, runner) for runner in available for trial in request["trials"]]
    timed = [job for job in jobs if job[1] is run_vqf]
    loops = [job for job in jobs if job[1] is not run_vqf]
    results = [row for job in timed for row in run_job(job, output)]
    if loops:
        # Spawned, not forked: a fork after VQF and numpy have started threads in this process can
        # inherit a held lock and hang the worker (seen once in the test suite).
        context = multiprocessing.get_context("spawn")
        with context.Pool(max(1, min(len(loops), os.cpu_count() or 1))) as pool:
            for rows in pool.imap(partial(run_job, output=output), loops):
                results += rows
    json.dump({"packages": versions(), "missing": missing, "results": results}, sys.stdout)


def run_job(job, output):
    trial, runner = job
    data = np.fromfile(trial["input"], dtype="<f8").reshape(-1, 10)
    t = np.ascontiguousarray(data[:, 0])
    gyr, acc, mag = (np.ascontiguousarray(data[:, i:i + 3]) for i in (1, 4, 7))
    rows = []
    for ident, name, axes, quat, ns, timing in runner(t, gyr, acc, mag, float(trial["period"])):
        path = os.path.join(output, "%s__%s.f64" % (trial["name"], ident))
        np.ascontiguousarray(quat, dtype="<f8").tofile(path)
        rows.append({"trial": trial["name"], "filter": name, "axes": axes, "file": path,
                     "nanosecondsPerSample": ns, "timing": timing})
    print("peers: %s, %s done" % (trial["name"], runner.__name__[4:]), file=sys.stderr, flush=True)
    return rows


if __name__ == "__main__":
    main()
