"""The Steam Deck's controls and the Steam Controller, modelled on uhid from SDL's and the kernel's
public sources (models/steam.py), read over hidraw by `tiltkit record` and `tiltkit serve dsu`:
values against what the model was told, rate, the Deck's switched-off IMU, unplug and replug.

Which driver binds depends on the kernel: Debian's 6.1 hid-steam knows only the Steam Controller
(aliases 28DE:1102 and 1142); the Deck (1205, hid-steam since 6.3, its motion node since 6.11) gets
hid-generic and plain hidraw. Each case prints the driver it found.

Expected values are SDL's formula (SDL_hidapi_steamdeck.c, SDL_hidapi_steam.c): ±2 g and ±2000 °/s
over the s16 range, the Deck's axes as (x, z, −y) for both sensors, the Controller's gyro as
(x, z, y) and accelerometer as (x, z, −y), in the PlayStation frame; then Core Motion's frame
(x, −z, y), acceleration with gravity's sign."""
import glob
import math
import os
import statistics
import subprocess
import time

import nodes
from models.steam import SteamPad, PID_CONTROLLER, PID_DECK
from test_dsu import PORT, Client, dsu_from_core_motion
from tiltkit import BINARY, Recording, Trace

# Raw counts: (accel x, y, z), (gyro x, y, z); distinct per axis, both signs.
VALUES = [
    ((1000, -2000, 16384), (100, -200, 300)),
    ((-16384, 4096, 0), (-1500, 2500, -3500)),
    ((300, 12000, -9000), (6000, -40, 900)),
]
HOLD = 0.6


def core_motion(kind, accel, gyro):
    """Counts → Core Motion (g with gravity's sign, rad/s), by SDL's formula."""
    a = [v * 2 / 32768 for v in accel]
    g = [v * 2000 / 32768 for v in gyro]
    ps_a = (a[0], a[2], -a[1])
    ps_g = (g[0], g[2], -g[1]) if kind == "deck" else (g[0], g[2], g[1])
    cm = lambda v: (v[0], -v[2], v[1])   # noqa: E731
    return [-v for v in cm(ps_a)], [math.radians(v) for v in cm(ps_g)]


def hidraw_of(pid):
    """The hidraw node of the Valve device (hid-steam's own hidraw has no uniq: found by its ids)."""
    for uevent in glob.glob("/sys/class/hidraw/hidraw*/device/uevent"):
        with open(uevent) as f:
            if f"HID_ID=0003:000028DE:0000{pid:04X}" in f.read():
                return "/dev/" + uevent.split("/")[4]
    return None


def driver_of(pad):
    base = nodes.hid_sysfs(pad)
    link = os.path.join(base, "driver") if base else ""
    return os.path.basename(os.path.realpath(link)) if os.path.exists(link) else "none"


def start(kind, uniq=None, values=VALUES[0]):
    pad = SteamPad(kind)
    if uniq:
        pad.uniq = uniq
    pad.set_motion(*values)
    pad.start_device()
    nodes.adopt_sys_path(pad, 10)
    pid = PID_DECK if kind == "deck" else PID_CONTROLLER
    return pad, nodes.wait_for(lambda: hidraw_of(pid), 20)


def check_values(kind, pad, rows, label):
    """Every sample is one of the sets the model was told (SDL's formula, within one raw count), and
    every set arrived. Returns the worst difference in raw counts."""
    targets = [core_motion(kind, a, g) for a, g in VALUES]
    worst, seen = 0.0, set()
    for r in rows:
        errors = [max(max(abs(x - y) * 16384 for x, y in zip(r[1:4], ka)),
                      max(abs(math.degrees(x - y)) * 16.384 for x, y in zip(r[4:7], kg))) for ka, kg in targets]
        best = min(range(len(errors)), key=errors.__getitem__)
        seen.add(best)
        worst = max(worst, errors[best])
    print(f"    {label}: value sets seen {sorted(seen)}, worst difference {worst:.3f} counts")
    assert seen == set(range(len(VALUES))), f"{label}: value sets {sorted(seen)} arrived, not all {len(VALUES)}"
    assert worst <= 1
    return worst


def check_values_one(rows, target):
    """Every row is `target` within one raw count."""
    ka, kg = target
    worst = max(max(max(abs(x - y) * 16384 for x, y in zip(r[1:4], ka)),
                    max(abs(math.degrees(x - y)) * 16.384 for x, y in zip(r[4:7], kg))) for r in rows)
    assert worst <= 1, f"after the replug: {worst:.2f} counts from what the model was told"


def stream_values(kind, pad, hidraw):
    """`tiltkit record` and `tiltkit serve dsu` on the node while the model holds each value set;
    returns the running recording and what the DSU client and the model saw."""
    out = f"/tmp/kt-steam-{kind}.csv"
    record = Recording(f"hidraw:{hidraw}", out)
    assert record.wait_started(120), f"record did not start: {record.lines}"
    recording_since = time.monotonic()
    server = subprocess.Popen([BINARY, "serve", "dsu", "--source", f"hidraw:{hidraw}", "--port", str(PORT),
                               "--raw-gyro", "--status-interval", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    client = Client()
    try:
        # A debug binary's first starts in an emulated VM take seconds: stream until it serves.
        deadline = time.monotonic() + 60
        while not any(f["state"] == 2 for _, f in client.pad_data) and time.monotonic() < deadline:
            client.stream(0.5)
        window = [time.monotonic()]
        sent_before = pad.reports_sent
        for accel, gyro in VALUES:
            pad.set_motion(accel, gyro)
            client.stream(HOLD)
        window.append(time.monotonic())
        sent = pad.reports_sent - sent_before
        # The model's reports after the recording had certainly started: each must be a sample.
        sent_recording = len([t for t in pad.sent_at if t > recording_since])
    finally:
        server.terminate()
        served = server.communicate(timeout=30)[0]
    return record, dict(client=client, served=served, window=window, sent=sent, sent_recording=sent_recording)


def check_recording_and_dsu(kind, pad, hidraw, record, seen):
    """After `record` stopped: its values and rate, and the DSU client's values."""
    rows = Trace(record.out).rows if os.path.exists(record.out) else []
    print(f"\n  {kind}: driver {driver_of(pad)}, hidraw {hidraw}, evdev {sorted(nodes.event_nodes(pad))}")
    check_values(kind, pad, rows, "record")
    times = [r[0] for r in rows]
    steps = [b - a for a, b in zip(times, times[1:])]
    window, sent = seen["window"], seen["sent"]
    print(f"    rate: model sent {sent} reports in {window[1] - window[0]:.2f} s "
          f"({sent / (window[1] - window[0]):.0f} Hz, nominal {1e6 / pad.interval_us:.0f} Hz); "
          f"recorded {len(rows)} samples, median interval {statistics.median(steps) * 1e3:.2f} ms")
    print(f"    reports sent while recording {seen['sent_recording']}, samples recorded {len(rows)}")
    assert all(s > 0 for s in steps)
    assert len(rows) >= seen["sent_recording"], "reports were lost between the model and the trace"
    # DSU: every live packet carries one of the sets the model was told, in DSU's convention.
    live = [f for _, f in seen["client"].pad_data if f["state"] == 2]
    reference = [dsu_from_core_motion([0, *a, *g]) for a, g in (core_motion(kind, a, g) for a, g in VALUES)]
    worst, got_sets = 0.0, set()
    for f in live:
        got = f["accel"] + f["gyro"]
        errors = [max(abs(x - y) for x, y in zip(a + g, got)) for a, g in reference]
        best = min(range(len(errors)), key=errors.__getitem__)
        got_sets.add(best)
        worst = max(worst, errors[best])
    print(f"    serve dsu: {len(live)} live packets, value sets {sorted(got_sets)}, worst difference {worst:.2e}; "
          + " | ".join(seen["served"].strip().splitlines()[-2:]))
    assert got_sets == set(range(len(VALUES))) and worst < 0.07, "DSU values differ from SDL's formula by more than 1 count"


def test_steam_deck_values_rate_dsu_and_imu_off():
    pad, hidraw = start("deck")
    try:
        assert hidraw, f"no hidraw node for the Deck model: {nodes.kernel_log(20)}"
        record, seen = stream_values("deck", pad, hidraw)
        # Steam switched the IMU off: no zeros are recorded, the user is told what to change, and
        # the recording resumes once motion is back.
        pad.imu_off = True
        said = record.wait_line("carry no motion", 5)
        pad.imu_off = False
        back = record.wait_line("is back", 5)
        time.sleep(0.3)
        record.stop()
        check_recording_and_dsu("deck", pad, hidraw, record, seen)
        notice = [line for _, line in record.lines if "carry no motion" in line]
        print(f"    IMU off: {notice[:1]}; back after {back - said:.2f} s" if said and back else f"    IMU off: {record.lines}")
        assert said and back, "no notice that the Deck's IMU is off, or none that it is back"
        assert "Gyro Behavior" in notice[0]
        zeros = [r for r in Trace(record.out).rows if all(abs(v) < 1e-9 for v in r[1:7])]
        assert not zeros, f"{len(zeros)} zero samples served while the IMU was off"
    finally:
        pad.destroy()


def test_steam_controller_values_rate_dsu_unplug_replug():
    pad, hidraw = start("controller")
    try:
        assert hidraw, f"no hidraw node for the Steam Controller model: {nodes.kernel_log(20)}"
        record, seen = stream_values("controller", pad, hidraw)
        record.stop()
        check_recording_and_dsu("controller", pad, hidraw, record, seen)
        print(f"    commands the controller received: {[hex(c) for c in pad.commands]}, settings {pad.settings}")
        assert (0x30, 0x18) in pad.settings, "tiltkit did not turn the IMU on"
        # Unplug and replug with a recording running: the new controller (IMU off again) is set up anew.
        replug = Recording(f"hidraw:{hidraw}", "/tmp/kt-steam-replug.csv")
        assert replug.wait_started(120)
        time.sleep(0.5)
        unplugged = time.monotonic()
        uniq = pad.uniq
        pad.destroy()
        pad.destroy = lambda: None
        said = replug.wait_line("recording resumes if it comes back", 3)
        pad, hidraw2 = start("controller", uniq, VALUES[-1])
        replugged = time.monotonic()
        back = replug.wait_line("is back", 30)
        time.sleep(1.0)
        replug.stop()
        times = Trace(replug.out).times
        # Samples after the gap the unplug left, carrying the replugged controller's values.
        gap = max(range(1, len(times)), key=lambda i: times[i] - times[i - 1]) if len(times) > 1 else 0
        after = Trace(replug.out).rows[gap:]
        print(f"    replug: disconnect said after {((said or float('inf')) - unplugged) * 1e3:.0f} ms, "
              f"'is back' {((back or float('inf')) - replugged):.2f} s after the new controller started "
              f"(hidraw {hidraw} → {hidraw2}); {len(times)} samples; settings after replug {pad.settings}")
        assert said is not None and said - unplugged < 0.5
        assert back is not None, f"no 'is back': {replug.lines}"
        assert (0x30, 0x18) in pad.settings, "the replugged controller's IMU was not turned on again"
        assert len(after) > 50, f"only {len(after)} samples after the replug"
        check_values_one(after, core_motion("controller", *VALUES[-1]))
    finally:
        pad.destroy()
