"""A HID sensor hub (accelerometer, gyroscope, magnetometer, barometer) through the kernel's own
hid-sensor-hub and hid-sensor-{accel,gyro,magn}-3d drivers, read by tiltkit over IIO sysfs
(`iio:`) and the IIO buffer (`iio-buffer:`): values, timestamps, unplug and replug, discovery,
the hub's IMU devices as one source, and its barometer riding along as the pressure column."""
import json
import os
import statistics
import struct
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "models"))

import nodes  # noqa: E402
from hidtools.uhid import UHIDDevice  # noqa: E402
from sensor_hub import SensorHub  # noqa: E402
from tiltkit import Recording, Trace, run  # noqa: E402

G = 9.80665
MOTION = ("accel", "gyro", "magn")
# IIO channel type of each model sensor
IIO_TYPE = {"accel": "accel", "gyro": "anglvel", "magn": "magn"}
# Raw counts the hub is told: several distinct values per axis, both signs, small and large.
VALUES = [
    {"accel": (981, -250, 12345), "gyro": (123456, -654321, 7), "magn": (250, -410, 30)},
    {"accel": (-32000, 32000, 1), "gyro": (-1, 2000000, -2000000), "magn": (-1000, 999, 0)},
    {"accel": (0, -981, 500), "gyro": (50000, -50000, 0), "magn": (300, -300, -450)},
    {"accel": (-5000, 7000, -981), "gyro": (-300000, 1000, 999999), "magn": (-20, 480, 100)},
]
# How long each value set is held; the first part is left out (sysfs polling reads nine
# attributes one after another, each waking the sensor for twice its interval).
HOLD = {"iio": 2.0, "iio-buffer": 0.8}
SETTLE = {"iio": 0.8, "iio-buffer": 0.3}


def read(path):
    with open(path) as f:
        return f.read().strip()


def start_hub(uniq=None):
    hub = SensorHub()
    if uniq:
        hub.uniq = uniq
    t0 = time.monotonic()
    hub.start_device()
    ok = nodes.wait_for(lambda: all(hub.iio_dir(k) for k in hub.sensors), 90, 0.1)
    if not ok:
        # gone before the next case looks: a hub left behind would be listed first by `devices`
        made = {os.path.basename(str(hub.iio_dir(k))) for k in hub.sensors}
        destroy(hub)
        pytest.fail(f"the kernel made no IIO devices for the sensor hub within 90 s (its HID device "
                    f"{hub.sys_path}, IIO devices found {sorted(made)})")
    print(f"  hub {hub.uniq}: IIO devices after {time.monotonic() - t0:.1f} s: "
          + ", ".join(f"{k}={os.path.basename(str(hub.iio_dir(k)))}" for k in hub.sensors))
    return hub


def sysfs_dir(hub, key):
    """The sensor's /sys/bus/iio/devices/iio:deviceN (the path users give tiltkit)."""
    return "/sys/bus/iio/devices/" + os.path.basename(str(hub.iio_dir(key)))


def combined(hub, keys=MOTION):
    return "+".join(sysfs_dir(hub, k) for k in keys)


def kernel_value(directory, key):
    """What the kernel reports: (raw + offset) × scale from sysfs, IIO units."""
    t = IIO_TYPE[key]
    scale = float(read(f"{directory}/in_{t}_scale"))
    offset_path = f"{directory}/in_{t}_offset"
    offset = float(read(offset_path)) if os.path.exists(offset_path) else 0.0
    return tuple((int(read(f"{directory}/in_{t}_{a}_raw")) + offset) * scale for a in "xyz")


def to_tiltkit(key, iio_units):
    """IIO units → what a tiltkit trace holds: g in Core Motion's sign (a HID sensor hub reports
    the gravity direction already, as Windows reads the HID sensor usages), rad/s, µT."""
    if key == "accel":
        return tuple(v / G for v in iio_units)
    if key == "magn":
        return tuple(v * 100 for v in iio_units)
    return tuple(iio_units)


def columns(trace):
    names = [c.split(" ")[0] for c in trace.header]
    return {"accel": [names.index(n) for n in ("ax", "ay", "az")],
            "gyro": [names.index(n) for n in ("gx", "gy", "gz")] if "gx" in names else None,
            "magn": [names.index(n) for n in ("mx", "my", "mz")] if "mx" in names else None}


def destroy(hub):
    if not getattr(hub, "destroyed", False):
        hub.destroyed = True
        hub.destroy()


def unplug(hub):
    """Unplugged as a USB hub is: the device goes while the hub still answers. (SensorHub.destroy
    stops answering first, so a sysfs read waiting on a GET_REPORT sits out uhid's 5 s timeout.)
    The destroy request is written here rather than through hid-tools' destroy(), which drains the
    fd itself: with the hub's event thread reading the same fd, one of the two would block for good
    in read()."""
    hub.destroyed = True
    os.write(hub._fd, struct.pack("< L", UHIDDevice._UHID_DESTROY))   # returns once the kernel removed it
    hub._ready = False
    hub._quit.set()
    for t in hub._threads:
        t.join(timeout=2)
    UHIDDevice._devices.remove(hub)
    hub._remove_fd_from_poll(hub._fd)
    os.close(hub._fd)
    hub._is_destroyed = True


class Sends:
    """When the hub model sent the accelerometer's input reports: its real rate, which under
    software emulation falls short of the interval asked for."""

    def __init__(self, hub):
        self.hub, self.times = hub, []
        rid, original = hub.sensor("accel").rid, hub.call_input_event

        def logged(report):
            if report[0] == rid:
                self.times.append(time.monotonic())
            return original(report)
        hub.call_input_event = logged

    def close(self):
        del self.hub.call_input_event

    def compare(self, times):
        """(model's median spacing ms, median |row − nearest send| ms) over the trace's span."""
        sent = [t for t in self.times if times[0] - 0.05 <= t <= times[-1] + 0.05]
        spacing = statistics.median((b - a) * 1000 for a, b in zip(sent, sent[1:]))
        nearest = statistics.median(min(abs(t - s) for s in sent) * 1000 for t in times)
        return len(sent), spacing, nearest


@pytest.fixture(scope="module")
def hub():
    h = start_hub()
    yield h
    destroy(h)


@pytest.mark.parametrize("kind", ["iio", "iio-buffer"])
def test_values(hub, kind):
    """Model → kernel → tiltkit, for accel, gyro and magn, read as one source."""
    lsb = {k: hub.sensor(k).iio_scale() for k in MOTION}
    lsb_tiltkit = {k: max(abs(v) for v in to_tiltkit(k, (lsb[k],) * 3)) for k in MOTION}
    for k in MOTION:
        hub.set_value(k, VALUES[0][k])
    r = Recording(f"{kind}:{combined(hub)}", f"/tmp/kt-iio-values-{kind}.csv")
    assert r.wait_started(), f"record did not start: {r.lines}"
    time.sleep(SETTLE[kind])
    marks, kernel = [], []
    for values in VALUES:
        for k in MOTION:
            hub.set_value(k, values[k])
        begin = time.monotonic()
        time.sleep(HOLD[kind])
        kernel.append({k: kernel_value(sysfs_dir(hub, k), k) for k in MOTION})
        marks.append((begin + SETTLE[kind], time.monotonic()))
    code, _, err = r.stop()
    trace = Trace(r.out)
    cols = columns(trace)
    print(f"  {kind}: {len(trace.rows)} rows, header {trace.header}; exit {code}")
    assert cols["gyro"] and cols["magn"], f"the combined source recorded no gyro/magn columns: {trace.header}"
    failures = []
    for i, values in enumerate(VALUES):
        begin, end = marks[i]
        rows = [row for row in trace.rows if begin <= row[0] <= end]
        print(f"  set {i}: {len(rows)} rows held")
        if not rows:
            failures.append(f"set {i}: no rows between {begin:.3f} and {end:.3f}")
            continue
        for k in MOTION:
            told = tuple(c * lsb[k] for c in values[k])              # the model, IIO units
            reported = kernel[i][k]                                  # the kernel's sysfs
            expected = to_tiltkit(k, reported)
            got = [tuple(row[c] for c in cols[k]) for row in rows]
            last = got[-1]
            off = max(max(abs(a - b) for a, b in zip(g, expected)) for g in got)
            print(f"    {k:5} model {values[k]} counts = {tuple(round(v, 6) for v in told)}; kernel "
                  f"{tuple(round(v, 6) for v in reported)}; tiltkit {tuple(round(v, 6) for v in last)} "
                  f"(want {tuple(round(v, 6) for v in expected)}, worst of {len(got)} off by {off:.2g}, "
                  f"LSB {lsb_tiltkit[k]:.2g})")
            # the kernel prints the scale to 1e-9 (hid_sensor_format_scale, IIO_VAL_INT_PLUS_NANO):
            # the gyro's 1.7453293e-5 rad/s becomes 1.7453e-5, off by up to 1e-9 per count
            if max(abs(a - b) - abs(c) * 1e-9 for a, b, c in zip(told, reported, values[k])) > lsb[k] * 1.01:
                failures.append(f"set {i} {k}: kernel {reported} != model {told}")
            if off > lsb_tiltkit[k] * 1.01:
                failures.append(f"set {i} {k}: tiltkit {kind} off by {off} (> 1 LSB {lsb_tiltkit[k]})")
    assert not failures, "\n".join(failures + [err])


def test_timestamps_buffer(hub):
    """Kernel stamps at the hub's real rate, on the host's monotonic clock."""
    accel = sysfs_dir(hub, "accel")
    with open(f"{accel}/in_accel_sampling_frequency", "w") as f:
        f.write("100")
    interval = hub.sensor("accel").interval_ms
    print(f"  wrote in_accel_sampling_frequency=100 -> hub interval {interval} ms")
    start = time.monotonic()
    sends = Sends(hub)
    r = Recording(f"iio-buffer:{combined(hub)}", "/tmp/kt-iio-times.csv")
    assert r.wait_started(), f"record did not start: {r.lines}"
    time.sleep(3)
    r.stop()
    sends.close()
    end = time.monotonic()
    clock = read(f"{accel}/current_timestamp_clock")
    times = Trace(r.out).times
    assert len(times) > 20, f"only {len(times)} rows"
    deltas = [(b - a) * 1000 for a, b in zip(times, times[1:])]
    steady = deltas[len(deltas) // 4:]
    median = statistics.median(steady)
    span = times[-1] - times[0]
    print(f"  {len(times)} rows over {span:.2f} s = {(len(times) - 1) / span:.1f} Hz; interval {interval} ms; "
          f"deltas ms median {median:.2f}, min {min(deltas):.3f}, max {max(deltas):.2f}; "
          f"first t {times[0]:.3f} in monotonic [{start:.3f}, {end:.3f}]; current_timestamp_clock={clock}")
    sent, spacing, nearest = sends.compare(times)
    print(f"  the model sent {sent} accel reports over that span, median spacing {spacing:.2f} ms; "
          f"each row is {nearest:.2f} ms (median) from a send")
    assert all(b > a for a, b in zip(times, times[1:])), "timestamps not strictly increasing"
    assert start <= times[0] and times[-1] <= end, "timestamps not on the host's monotonic clock"
    assert len(times) >= 0.9 * sent, "samples lost"
    assert abs(median - spacing) < 0.2 * spacing + 1, f"median spacing {median:.2f} ms, the hub's {spacing:.2f} ms"
    assert nearest < 5, "timestamps are not the times the reports were sent"


def test_timestamps_realtime_clock(hub):
    """A buffer left on CLOCK_REALTIME (the default; a user who may not write the attribute):
    tiltkit's times still come out on the host's monotonic clock at the device's spacing."""
    accel = sysfs_dir(hub, "accel")
    node = "/dev/" + os.path.basename(accel)

    def wr(path, value):
        with open(path, "w") as f:
            f.write(str(value))
    wr(f"{accel}/buffer/enable", 0)
    for name in os.listdir(f"{accel}/scan_elements"):
        if name.endswith("_en"):
            wr(f"{accel}/scan_elements/{name}", 1)
    wr(f"{accel}/current_timestamp_clock", "realtime")
    wr(f"{accel}/buffer/length", 128)
    wr(f"{accel}/buffer/enable", 1)
    os.chmod(node, 0o666)
    sends = Sends(hub)
    try:
        start = time.monotonic()
        r = Recording(f"iio-buffer:{accel}", "/tmp/kt-iio-realtime.csv", user=(65534, []))
        assert r.wait_started(), f"record did not start: {r.lines}"
        time.sleep(2)
        _, _, err = r.stop()
        end = time.monotonic()
    finally:
        sends.close()
        wr(f"{accel}/buffer/enable", 0)
        wr(f"{accel}/current_timestamp_clock", "monotonic")
        os.chmod(node, 0o600)
    times = Trace(r.out).times
    assert len(times) > 20, f"only {len(times)} rows: {err}"
    deltas = [(b - a) * 1000 for a, b in zip(times, times[1:])]
    median = statistics.median(deltas[len(deltas) // 4:])
    sent, spacing, nearest = sends.compare(times)
    print(f"  realtime device clock (time.time() {time.time():.0f}): {len(times)} rows, first t {times[0]:.3f} "
          f"in monotonic [{start:.3f}, {end:.3f}], deltas ms median {median:.2f}; the model sent {sent}, "
          f"median spacing {spacing:.2f} ms; rows {nearest:.2f} ms (median) from a send")
    assert all(b > a for a, b in zip(times, times[1:]))
    assert start <= times[0] and times[-1] <= end, "realtime stamps leaked into the trace"
    assert abs(median - spacing) < 0.2 * spacing + 1 and nearest < 5


def test_devices_lists_the_hub(hub):
    code, out, err = run("devices")
    print("  " + out.replace("\n", "\n  "))
    assert code == 0, err
    for key in ("accel", "gyro"):
        assert f"iio:{sysfs_dir(hub, key)} " in out and f"iio-buffer:{sysfs_dir(hub, key)} " in out
    together = combined(hub, MOTION + ("press",))
    assert f"* iio-buffer:{together} " in out, "the hub's devices are not offered together (or not the best)"
    assert f"iio:{together} " in out
    assert f"iio:{sysfs_dir(hub, 'press')} " not in out, "a barometer alone is no motion source"


@pytest.mark.parametrize("kind", ["iio", "iio-buffer"])
def test_pressure(hub, kind):
    """hid-sensor-press's in_pressure (kPa by the IIO ABI) → the trace's p (kPa) column, held on
    the accelerometer's rows between the barometer's readings."""
    if getattr(hub, "destroyed", False):
        pytest.skip("the module's hub was unplugged by an earlier case")
    press = sysfs_dir(hub, "press")
    hub.set_value("press", (100123,))
    r = Recording(f"{kind}:{combined(hub, MOTION + ('press',))}", f"/tmp/kt-iio-pressure-{kind}.csv")
    assert r.wait_started(), f"record did not start: {r.lines}"
    marks, kernel = [], []
    for counts in ((100123,), (99987,)):
        hub.set_value("press", counts)
        begin = time.monotonic()
        time.sleep(HOLD[kind] + SETTLE[kind])
        scale = float(read(f"{press}/in_pressure_scale"))
        offset = float(read(f"{press}/in_pressure_offset")) if os.path.exists(f"{press}/in_pressure_offset") else 0.0
        kernel.append((int(read(f"{press}/in_pressure_raw")) + offset) * scale)
        marks.append((begin + SETTLE[kind], time.monotonic()))
    code, _, err = r.stop()
    trace = Trace(r.out)
    names = [c.split(" ")[0] for c in trace.header]
    print(f"  {kind}: {len(trace.rows)} rows, header {trace.header}; exit {code}")
    assert "p" in names and trace.header[names.index("p")] == "p (kPa)", trace.header
    p = names.index("p")
    lsb = hub.sensor("press").iio_scale()
    for (begin, end), want in zip(marks, kernel):
        got = [row[p] for row in trace.rows if begin <= row[0] <= end]
        print(f"  kernel {want:.6f} kPa; tiltkit {got[-1] if got else None} over {len(got)} rows (LSB {lsb:.2g})")
        assert got and all(v is not None and abs(v - want) <= lsb * 1.01 for v in got), err


def test_requested_rate_reaches_the_hub(hub):
    """`iio-buffer:DIR,rate=50`: written as in_accel_sampling_frequency, the hub's report interval
    becomes 20 ms and the samples come at the model's rate."""
    if getattr(hub, "destroyed", False):
        pytest.skip("the module's hub was unplugged by an earlier case")
    accel = sysfs_dir(hub, "accel")
    sends = Sends(hub)
    r = Recording(f"iio-buffer:{accel},rate=50", "/tmp/kt-iio-rate.csv")
    assert r.wait_started(), f"record did not start: {r.lines}"
    time.sleep(2)
    _, _, err = r.stop()
    sends.close()
    times = Trace(r.out).times
    interval = hub.sensor("accel").interval_ms
    sent, spacing, nearest = sends.compare(times)
    median = statistics.median((b - a) * 1000 for a, b in zip(times, times[1:]))
    print(f"  rate=50: in_accel_sampling_frequency={read(accel + '/in_accel_sampling_frequency')}, hub interval "
          f"{interval} ms; {len(times)} rows, median spacing {median:.2f} ms (the model's {spacing:.2f} ms)")
    assert interval == 20, err
    assert abs(median - spacing) < 0.2 * spacing + 1


def test_update_interval_sets_the_hub_rate(hub):
    """`bench latency --update-interval 0.04 --compare-paths`: the interval reaches the hub (25 Hz,
    40 ms), "device set" through the IIO buffer and sysfs polling, whose reads keep that rate."""
    if getattr(hub, "destroyed", False):
        pytest.skip("the module's hub was unplugged by an earlier case")
    accel = sysfs_dir(hub, "accel")
    code, out, err = run("bench", "latency", "--source", f"iio-buffer:{accel}", "--duration", "2",
                         "--update-interval", "0.04", "--frame-rate", "60", "--json", "--compare-paths", timeout=120)
    assert code == 0, err
    document = json.loads(out)["report"]
    paths = {r["path"]: r for r in document["reports"]}
    interval = hub.sensor("accel").interval_ms
    for path, r in paths.items():
        ts = r["byTimestamp"]
        print(f"  {path}: {r['rateControl']}; {ts['samples']} samples ({ts.get('clock')}), interval mean "
              f"{ts['intervals']['mean'] / 1e6:.2f} ms, p50 {ts['intervals']['p50'] / 1e6:.2f} ms, p99 "
              f"{ts['intervals']['p99'] / 1e6:.2f} ms, p99.9 {ts['intervals']['p999'] / 1e6:.2f} ms")
    print(f"  in_accel_sampling_frequency={read(accel + '/in_accel_sampling_frequency')}, hub interval {interval} ms; "
          f"skipped {document['skipped']}")
    assert interval == 40, err
    assert list(paths) == [f"iio-buffer:{accel}", f"iio:{accel}"], (list(paths), document["skipped"])
    for r in paths.values():
        assert r["rateControl"].startswith("device set to 25 Hz"), r["rateControl"]
    # Each poll's three raw reads are GET_REPORT round trips to the hub model, a few ms under TCG.
    # Tolerance for TCG: the mean within 10 % of 40 ms (a late poll is followed by a short wait),
    # the median within 25 % (late polls and the short waits after them move it: 42.8, 34.4 ms seen), at least 40 polls in the 2 s.
    sysfs = paths[f"iio:{accel}"]["byTimestamp"]
    assert abs(sysfs["intervals"]["mean"] / 1e6 - interval) < 0.1 * interval
    assert abs(sysfs["intervals"]["p50"] / 1e6 - interval) < 0.25 * interval
    assert sysfs["samples"] >= 40


@pytest.mark.parametrize("kind", ["iio", "iio-buffer"])
def test_unplug_replug(hub, kind):
    """The hub unplugged mid-recording, then a new one with the same uniq and name."""
    # the module's hub goes first: a second hub's accel_3d would be taken for the one coming back
    destroy(hub)
    first = start_hub()
    uniq = first.uniq
    for k in MOTION:
        first.set_value(k, VALUES[0][k])
    r = Recording(f"{kind}:{combined(first)}", f"/tmp/kt-iio-unplug-{kind}.csv")
    assert r.wait_started(), f"record did not start: {r.lines}"
    time.sleep(HOLD[kind] + SETTLE[kind])
    unplugged = time.monotonic()
    unplug(first)
    gone = r.wait_line("disconnected", 5)
    latency = (gone or float("inf")) - unplugged
    replugged = time.monotonic()
    second = start_hub(uniq)
    for k in MOTION:
        second.set_value(k, VALUES[1][k])
    back = r.wait_line("is back", 30)
    back_after = (back or float("inf")) - replugged
    time.sleep(HOLD[kind] + SETTLE[kind])
    _, _, err = r.stop()
    destroy(second)
    rows = Trace(r.out).rows
    before = [row for row in rows if row[0] < unplugged]
    after = [row for row in rows if back and row[0] > back]
    want_before, want_after = VALUES[0]["accel"][0] / 1000, VALUES[1]["accel"][0] / 1000
    print(f"  {kind}: 'disconnected' {latency * 1000:.0f} ms after destroy; 'is back' {back_after:.2f} s after the "
          f"new hub's start; rows {len(before)} before, {len(after)} after; ax before {before[-1][1] if before else None}"
          f" (want {want_before}), after {after[-1][1] if after else None} (want {want_after})")
    print("  stderr: " + " | ".join(line for _, line in r.lines))
    assert back is not None, "no 'is back' line"
    assert before and abs(before[-1][1] - want_before) < 1.01e-3, "the trace before the unplug is not intact"
    assert after and abs(after[-1][1] - want_after) < 1.01e-3, "no samples (or wrong ones) after the replug"
    assert all(b[0] > a[0] for a, b in zip(rows, rows[1:]))
    if kind == "iio" and latency > 4.5:
        # A sysfs read that races the removal: hid-sensor-hub sends a GET_REPORT to the dying hub
        # and waits HZ*5 for an answer that never comes, and the removal waits for the read (twice
        # seen here, 10 s, when a second read started before the first device was gone). Open.
        pytest.xfail(f"'disconnected' after {latency:.1f} s: a raw read raced the unplug (hid-sensor-hub's 5 s wait)")
    assert latency < 0.5, "no 'disconnected' line within 0.5 s"
