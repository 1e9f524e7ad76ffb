"""A Switch Pro Controller through the kernel's hid-nintendo (its IMU evdev node, made from the
model's SPI calibration) and through hidraw, read by tiltkit: values, timestamps, unplug."""
import glob
import math
import os
import statistics
import time

import pytest

import nodes
from models.switch_pro import SwitchProController
from tiltkit import Recording, Trace

# Raw counts: (accel x, y, z), (gyro x, y, z), several distinct values per axis, both signs.
VALUES = [
    ((1000, -2000, 4096), (100, -200, 300)),
    ((-4096, 2048, 0), (-1500, 2500, -3500)),
    ((300, 3500, -4000), (6000, -40, 900)),
]
HOLD = 0.5


def hidraw_of(pad):
    names = glob.glob(os.path.join(str(pad.sys_path), "hidraw", "hidraw*"))
    return f"/dev/{os.path.basename(names[0])}" if names else None


def core_motion_from_nintendo(v):
    """hid-nintendo's frame (X toward the triggers, Y left, Z up) → PlayStation (−Y, Z, −X) → Core
    Motion (x, −z, y): the same two steps as MotionDevices' CoreMotionFrame."""
    ps = (-v[1], v[2], -v[0])
    return (ps[0], -ps[2], ps[1])


@pytest.mark.parametrize("bus", ["usb", "bluetooth"])
def test_switch_pro_values_timestamps_unplug(bus):
    pad = SwitchProController(bus=bus)
    pad.set_motion(*VALUES[0])
    pad.start_device()
    try:
        run_case(pad, bus)
    finally:
        pad.destroy()


def run_case(pad, bus):
    imu = nodes.wait_for(pad.imu_event_node, 30)
    hidraw = nodes.wait_for(lambda: hidraw_of(pad), 10)
    assert imu and hidraw, "hid-nintendo made no IMU node from the model's calibration"
    h = Recording(f"hidraw:{hidraw}", "/tmp/kt-sw-hidraw.csv")
    e = Recording(f"evdev:{imu}", "/tmp/kt-sw-evdev.csv")
    assert h.wait_started() and e.wait_started(), f"record did not start: {h.lines} {e.lines}"
    time.sleep(0.5)
    marks, kernel = [], []
    for accel, gyro in VALUES:
        pad.set_motion(accel, gyro)
        begin = time.monotonic()
        time.sleep(HOLD)
        kernel.append([nodes.absinfo(imu, axis) for axis in range(6)])
        marks.append((begin, time.monotonic()))
    unplugged = time.monotonic()
    pad.destroy()
    pad.destroy = lambda: None   # already gone
    latency = {n: (r.wait_line("disconnected", 3) or float("inf")) - unplugged for n, r in (("hidraw", h), ("evdev", e))}
    outcome = {n: r.stop() for n, r in (("hidraw", h), ("evdev", e))}
    print(f"\n  switch-pro {bus}: hidraw {hidraw}, IMU {imu}")
    worst = {"kernel-vs-driver-formula": 0, "evdev-vs-kernel": 0.0, "hidraw-vs-kernel": 0.0}
    for i, (accel, gyro) in enumerate(VALUES):
        values = [kernel[i][a][0] for a in range(6)]
        res = [kernel[i][a][1] for a in range(6)]
        expected = pad.expected_evdev(accel, gyro)
        worst["kernel-vs-driver-formula"] = max(worst["kernel-vs-driver-formula"],
                                                *[abs(a - b) for a, b in zip(values, expected)])
        # The kernel's values in Core Motion's frame and units (g with gravity's sign; rad/s).
        k_accel = [-c for c in core_motion_from_nintendo([v / r for v, r in zip(values[:3], res[:3])])]
        k_gyro = [math.radians(c) for c in core_motion_from_nintendo([v / r for v, r in zip(values[3:], res[3:])])]
        print(f"    set {i}: told accel {accel} gyro {gyro}; kernel {values} (res {res[0]}/g, {res[3]}/(deg/s))")
        for name in ("evdev", "hidraw"):
            begin, end = marks[i]
            rows = [r for r in Trace(f"/tmp/kt-sw-{name}.csv").rows if begin + 0.1 <= r[0] <= end - 0.05]
            assert rows, f"{name}: no samples while set {i} was held"
            for r in rows:
                err_a = max(abs(a - b) * res[0] for a, b in zip(r[1:4], k_accel))
                err_g = max(abs(math.degrees(a - b)) * res[3] for a, b in zip(r[4:7], k_gyro))
                worst[f"{name}-vs-kernel"] = max(worst[f"{name}-vs-kernel"], err_a, err_g)
            got = rows[len(rows) // 2]
            print(f"      {name}: accel {[round(v, 4) for v in got[1:4]]} g, gyro {[round(math.degrees(v), 3) for v in got[4:7]]} deg/s")
    print(f"    worst difference in LSB: {worst}")
    for name in ("evdev", "hidraw"):
        times = Trace(f"/tmp/kt-sw-{name}.csv").times
        steps = [b - a for a, b in zip(times, times[1:])]
        print(f"    {name}: {len(times)} samples, median interval {statistics.median(steps) * 1e3:.2f} ms, "
              f"disconnect said after {latency[name] * 1e3:.0f} ms; {outcome[name][1].strip()}")
        assert all(s > 0 for s in steps)
        assert 0.003 < statistics.median(steps) < 0.008, "three samples per 15 ms report: about 5 ms apart"
        assert latency[name] < 0.5
    assert worst["kernel-vs-driver-formula"] <= 1
    assert worst["evdev-vs-kernel"] <= 1
    assert worst["hidraw-vs-kernel"] <= 1, "tiltkit's own Switch calibration disagrees with hid-nintendo's"
