"""The Steam Deck's controls, the Steam Controller and its wireless adapter, modelled on uhid from
SDL's and the kernel's public sources (models/steam.py), read over hidraw by `tiltkit record` and
`tiltkit serve dsu`: values against what the model was told, rate, the Deck's switched-off IMU, the
adapter's controller leaving and connecting again, unplug and replug.

Which driver binds depends on the kernel: Debian's 6.1 hid-steam knows only the Steam Controller
(aliases 28DE:1102 and 1142); the Deck (1205, hid-steam since 6.3, its motion node since 6.11) gets
hid-generic and plain hidraw. Each case prints the driver it found. hid-steam gives the Controller's
and each adapter slot's vendor interface no hidraw node of its own: userspace reads a client device
it makes with the same ids and phys (and no uniq), whose opening takes hid-steam's evdev node away.

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

import pytest

import nodes
from models.steam import PIDS, SteamDongleKeyboard, SteamPad
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


def hidraw_of(pid, phys):
    """The hidraw node of the Valve device's interface `phys` (hid-steam's own hidraw has no uniq:
    found by its ids and phys; the adapter's keyboard interface shares the ids)."""
    for uevent in glob.glob("/sys/class/hidraw/hidraw*/device/uevent"):
        with open(uevent) as f:
            text = f.read().splitlines()
        if f"HID_ID=0003:000028DE:0000{pid:04X}" in text and f"HID_PHYS={phys}" in text:
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
    return pad, nodes.wait_for(lambda: hidraw_of(PIDS[kind], pad.phys), 20)


def counts_off(row, target):
    """How far a recorded row is from a (accel g, gyro rad/s) target, in the pad's raw counts."""
    ka, kg = target
    return max(max(abs(x - y) * 16384 for x, y in zip(row[1:4], ka)),
               max(abs(math.degrees(x - y)) * 16.384 for x, y in zip(row[4:7], kg)))


def check_values(kind, pad, rows, label):
    """Every sample is one of the sets the model was told (SDL's formula, within one raw count), and
    every set arrived. Returns the worst difference in raw counts."""
    targets = [core_motion(kind, a, g) for a, g in VALUES]
    worst, seen = 0.0, set()
    for r in rows:
        errors = [counts_off(r, t) for t in targets]
        best = min(range(len(errors)), key=errors.__getitem__)
        seen.add(best)
        worst = max(worst, errors[best])
    print(f"    {label}: value sets seen {sorted(seen)}, worst difference {worst:.3f} counts")
    assert seen == set(range(len(VALUES))), f"{label}: value sets {sorted(seen)} arrived, not all {len(VALUES)}"
    assert worst <= 1
    return worst


def check_values_one(rows, target):
    """Every row is `target` within one raw count."""
    errors = [counts_off(r, target) for r in rows]
    off = [(i, round(r[0] - rows[0][0], 4)) for i, (r, e) in enumerate(zip(rows, errors)) if e > 1]
    assert max(errors) <= 1, \
        f"{max(errors):.2f} counts from what the model was told; rows off (index, s after the first): {off[:8]} of {len(rows)}"


def line_after(record, text, since, timeout):
    """The monotonic time of the first stderr line containing `text` that arrived after `since`."""
    return nodes.wait_for(lambda: next((t for t, line in record.lines if t > since and text in line), None), timeout, 0.01)


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
        # Unplugged and replugged with the same recording running: it resumes from the new node.
        uniq, unplugged = pad.uniq, time.monotonic()
        pad.destroy()
        pad.destroy = lambda: None
        gone = line_after(record, "recording resumes if it comes back", unplugged, 3)
        pad, hidraw2 = start("deck", uniq, VALUES[-1])
        replugged = time.monotonic()
        returned = line_after(record, "is back", replugged, 30)
        time.sleep(1.0)
        record.stop()
        after = [r for r in Trace(record.out).rows if r[0] > (returned or math.inf)]
        print(f"\n    replug: disconnect said after {((gone or math.inf) - unplugged) * 1e3:.0f} ms, 'is back' "
              f"{(returned or math.inf) - replugged:.2f} s after the new Deck started (hidraw {hidraw} → {hidraw2}); "
              f"{len(after)} samples after it")
        check_recording_and_dsu("deck", pad, hidraw, record, seen)
        notice = [line for _, line in record.lines if "carry no motion" in line]
        print(f"    IMU off: {notice[:1]}; back after {back - said:.2f} s" if said and back else f"    IMU off: {record.lines}")
        assert said and back, "no notice that the Deck's IMU is off, or none that it is back"
        assert "Gyro Behavior" in notice[0]
        zeros = [r for r in Trace(record.out).rows if all(abs(v) < 1e-9 for v in r[1:7])]
        assert not zeros, f"{len(zeros)} zero samples served while the IMU was off"
        assert gone is not None and gone - unplugged < 0.5, f"the unplug was not said: {record.lines[-4:]}"
        assert returned is not None, f"no 'is back' after the replug: {record.lines[-4:]}"
        assert len(after) > 50, f"only {len(after)} samples after the replug"
        check_values_one(after, core_motion("deck", *VALUES[-1]))
    finally:
        pad.destroy()


def leaves_and_returns(pad, record):
    """The adapter's controller switched off and on again under `record`, with a new value set: the
    leaving is said, and motion is turned on again when it connects. Returns when it was back."""
    time.sleep(0.3)
    settings_before = len(pad.settings)
    left = time.monotonic()
    pad.disconnect()
    said = line_after(record, "left its wireless adapter", left, 3)
    time.sleep(0.5)
    pad.set_motion(*VALUES[1])
    connected = time.monotonic()
    pad.connect()
    back = line_after(record, "is back", connected, 10)
    time.sleep(0.5)
    print(f"    wireless: controller left, said after {((said or math.inf) - left) * 1e3:.0f} ms; connected again, "
          f"'is back' {((back or math.inf) - connected):.2f} s after the connect event; "
          f"settings it received on connecting {pad.settings[settings_before:]}")
    assert said is not None, f"the controller's leaving was not said: {record.lines[-4:]}"
    assert back is not None, f"no 'is back' after the controller connected again: {record.lines[-4:]}"
    assert (0x30, 0x18) in pad.settings[settings_before:], "the controller's IMU was not turned on again when it connected"
    return back


@pytest.mark.parametrize("kind", ["controller", "dongle"])
def test_steam_controller_values_rate_dsu_unplug_replug(kind):
    """The wired controller, and the adapter's first slot (beside its keyboard interface). On the
    adapter, the controller also leaves and connects again while the adapter stays plugged in."""
    keyboard = SteamDongleKeyboard() if kind == "dongle" else None
    if keyboard:
        keyboard.start_device()
    pad, hidraw = start(kind)
    try:
        assert hidraw, f"no hidraw node for the {kind} model: {nodes.kernel_log(20)}"
        if keyboard:
            log = [l for l in nodes.kernel_log(40).splitlines() if "Steam" in l]
            print(f"\n  adapter: keyboard interface driver {driver_of(keyboard)}, evdev {sorted(nodes.event_nodes(keyboard))}; "
                  f"slot 1 events sent {[e for _, e in pad.events_sent]}; commands at probe {[hex(c) for c in pad.commands]}; "
                  f"kernel: {log[-3:]}")
        record, seen = stream_values(kind, pad, hidraw)
        record.stop()
        check_recording_and_dsu(kind, pad, hidraw, record, seen)
        print(f"    commands the controller received: {[hex(c) for c in pad.commands]}, settings {pad.settings}")
        assert (0x30, 0x18) in pad.settings, "tiltkit did not turn the IMU on"
        # Unplug and replug with a recording running: the new controller (IMU off again) is set up anew.
        replug = Recording(f"hidraw:{hidraw}", f"/tmp/kt-steam-replug-{kind}.csv")
        assert replug.wait_started(120)
        wireless_back = leaves_and_returns(pad, replug) if kind == "dongle" else None
        time.sleep(0.5)
        unplugged = time.monotonic()
        uniq = pad.uniq
        pad.destroy()
        pad.destroy = lambda: None
        said = line_after(replug, "recording resumes if it comes back", unplugged, 3)
        pad, hidraw2 = start(kind, uniq, VALUES[-1])
        replugged = time.monotonic()
        back = line_after(replug, "is back", replugged, 30)
        time.sleep(1.0)
        replug.stop()
        times = Trace(replug.out).times
        # Samples after the reader said the controller was gone, carrying the replugged one's values.
        # (Not after the unplug itself: a report the kernel queued before it can be read, and stamped
        # on arrival, a few ms after it when the reader runs late; the reader drains those before it
        # meets the missing device.)
        after = [r for r in Trace(replug.out).rows if r[0] > (said or unplugged)]
        print(f"    replug: disconnect said after {((said or float('inf')) - unplugged) * 1e3:.0f} ms, "
              f"'is back' {((back or float('inf')) - replugged):.2f} s after the new {kind} started "
              f"(hidraw {hidraw} → {hidraw2}); {len(times)} samples; settings after replug {pad.settings}")
        assert said is not None and said - unplugged < 0.5
        assert back is not None, f"no 'is back': {replug.lines}"
        assert (0x30, 0x18) in pad.settings, "the replugged controller's IMU was not turned on again"
        assert len(after) > 50, f"only {len(after)} samples after the replug"
        check_values_one(after, core_motion("controller", *VALUES[-1]))
        if wireless_back:
            between = [r for r in Trace(replug.out).rows if wireless_back < r[0] < unplugged]
            print(f"    {len(between)} samples between the controller's return and the unplug")
            assert len(between) > 20, f"only {len(between)} samples after the controller connected again"
            check_values_one(between, core_motion("controller", *VALUES[1]))
    finally:
        pad.destroy()
        if keyboard:
            keyboard.destroy()


# The mapper: a Valve pad's A (SDL STEAMDECK_LBUTTON_A, the Steam Controller's A: the same bit).
STEAM_A = 0x80
# A yaw of 1500 counts about the pad's up axis (raw z: the PlayStation frame's y for both pads),
# lying flat (raw accel z +1 g): 91.55 °/s by SDL's formula.
FLAT, STILL, YAW = (0, 0, 16384), (0, 0, 0), (0, 0, 1500)
# Reports a second for the mapper cases: a debug build under TCG maps a few hundred a second at most
# (test_map.py's RATE says why the counts would otherwise measure the emulator).
MAP_INTERVAL_US = 20000


def turned_degrees(pad, first, end):
    """Degrees of yaw the reports sent[first:end] carried, each over the sender's time since the report
    before; steps over 0.1 s (which the mapper takes no motion across) apart, as (sure, unsure)."""
    sure = unsure = 0.0
    for i in range(max(first, 1), end):
        step = pad.sent_at[i] - pad.sent_at[i - 1]
        rate = pad.sent_gyro[i][2] * 2000 / 32768
        if step <= 0.098:
            sure += rate * step
        elif step <= 0.102:
            unsure += rate * step
    return sure, unsure


@pytest.mark.parametrize("kind", ["deck", "controller", "dongle"])
def test_steam_pad_through_the_mapper(kind):
    """`tiltkit map` on the pad's hidraw node: the pad has no gamepad evdev node while it is read
    (hid-generic makes none for the Deck's vendor collection; hid-steam drops the Controller's while
    its hidraw node is open), so its buttons come from the same reports as its motion. A 2 s turn
    is sensitivity × rotation in REL_X within 1 % (and one report at each end); A reaches the virtual pad's south button; unplug
    keeps the virtual devices, replug resumes both."""
    import evdev_reader as ev
    from test_map import COUNTS_PER_360, GAMEPAD, MOUSE, SENSITIVITY, Mapping, profile
    keyboard = SteamDongleKeyboard() if kind == "dongle" else None
    if keyboard:
        keyboard.start_device()
    pad = SteamPad(kind, interval_us=MAP_INTERVAL_US)
    pad.set_motion(FLAT, STILL)
    pad.start_device()
    nodes.adopt_sys_path(pad, 10)
    hidraw = nodes.wait_for(lambda: hidraw_of(PIDS[kind], pad.phys), 20)
    mapping = reader = None
    try:
        assert hidraw, f"no hidraw node for the {kind} model: {nodes.kernel_log(20)}"
        before_map = sorted(nodes.event_nodes(pad))
        mapping = Mapping(f"hidraw:{hidraw}", profile(f"/tmp/kt-steam-map-{kind}.toml"))
        mouse, gamepad = mapping.wait_devices(200)
        reader = ev.Reader([mouse, gamepad])
        said = nodes.wait_for(lambda: next((l for l in mapping.lines if "buttons and sticks from" in l), None), 60)
        # Turning until the mouse moves: the mapping is live; then still until the mouse is.
        pad.set_motion(FLAT, YAW)
        live = nodes.wait_for(lambda: reader.since(0, mouse, ev.EV_REL), 120, 0.1)
        pad.set_motion(FLAT, STILL)

        def settle(quiet=0.5, timeout=30):
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                moved = next((e[0] for e in reversed(reader.events) if e[1] == mouse and e[2] == ev.EV_REL), 0)
                if time.monotonic() - moved >= quiet:
                    return
                time.sleep(0.1)

        settle()
        print(f"\n  {kind}: driver {driver_of(pad)}; evdev nodes before map {before_map}, while mapping "
              f"{sorted(nodes.event_nodes(pad))}; {said}")
        assert live, f"the mouse never moved: {mapping.output()}"
        assert said and f"the reports of {hidraw}" in said, f"controls not from the reports: {mapping.output()}"

        def turn(seconds):
            """REL_X and the expected counts for a turn of `seconds`, with how far each end may be off:
            Valve's reports carry no clock, so tiltkit stamps them on arrival, and each end of the turn
            is known to one report interval of the emulated machine's delivery."""
            mark, first = reader.mark(), len(pad.sent_at)
            pad.set_motion(FLAT, YAW)
            time.sleep(seconds)
            pad.set_motion(FLAT, STILL)
            time.sleep(0.1)
            end = len(pad.sent_at)
            settle()
            sure, unsure = turned_degrees(pad, first, end)
            scale = SENSITIVITY * COUNTS_PER_360 / 360
            ends = 2 * MAP_INTERVAL_US / 1e6 * YAW[2] * 2000 / 32768 * scale
            return reader.total(mark, mouse, ev.EV_REL, ev.REL_X), sure * scale, (sure + unsure) * scale, ends

        def press():
            pad.buttons = STEAM_A
            held = nodes.wait_for(lambda: ev.BTN_SOUTH in ev.keys_held(gamepad), 20, 0.05)
            pad.buttons = 0
            released = nodes.wait_for(lambda: ev.BTN_SOUTH not in ev.keys_held(gamepad), 20, 0.05)
            return bool(held), bool(released)

        started = time.monotonic()
        x, expected, upper, ends = turn(2.0)
        pressed = press()
        print(f"    2 s turn: REL_X {x}, expected {-expected:.1f} (sensitivity × rotation; "
              f"{(abs(x) - expected) / expected * 100:+.2f} %; the turn's ends known to ±{ends / 2:.0f} counts each); "
              f"A → BTN_SOUTH held, released: {pressed}")
        assert x < 0 and 0.99 * expected - ends <= abs(x) <= 1.01 * upper + ends, \
            f"REL_X {x}, expected {-expected:.1f} ± 1 % and the turn's ends"
        assert pressed == (True, True), f"A did not reach the virtual pad's south button: {mapping.output()}"
        # Unplug: the virtual devices stay; replug: the mouse and the button work again.
        virtual = (ev.node_named(MOUSE), ev.node_named(GAMEPAD))
        uniq = pad.uniq
        pad.destroy()
        pad.destroy = lambda: None
        time.sleep(1.0)
        during = (ev.node_named(MOUSE), ev.node_named(GAMEPAD))
        alive = mapping.process.poll() is None
        pad = SteamPad(kind, interval_us=MAP_INTERVAL_US)
        pad.uniq = uniq
        pad.set_motion(FLAT, YAW)
        replugged = time.monotonic()
        pad.start_device()
        mark = reader.mark()
        back = nodes.wait_for(lambda: reader.since(mark, mouse, ev.EV_REL), 60, 0.1)
        resumed = (back[0][0] - replugged) if back else math.inf
        pad.set_motion(FLAT, STILL)
        settle()
        x2, expected2, _, _ = turn(1.0)
        pressed2 = press()
        print(f"    unplugged: map running {alive}, virtual nodes {virtual} → {during}; replugged: mouse moving "
              f"{resumed:.2f} s after the new pad started; 1 s turn REL_X {x2}, expected {-expected2:.1f} "
              f"({(abs(x2) - expected2) / expected2 * 100:+.2f} %); A → BTN_SOUTH {pressed2}; "
              f"case {time.monotonic() - started:.1f} s from the first turn")
        print("    " + " | ".join(l for l in mapping.lines if "away" in l or "back" in l))
        assert alive and during == virtual and not reader.gone, "the virtual devices did not stay through the unplug"
        assert back, f"no mouse motion after the replug: {mapping.output()}"
        # As test_map.py's replug case: the mouse follows the turn again (its size is the first turn's case).
        assert x2 < 0, f"after the replug REL_X {x2} for a left turn"
        assert pressed2 == (True, True), f"A did not reach the virtual pad after the replug: {mapping.output()}"
    finally:
        if mapping:
            mapping.stop()
        if reader:
            reader.close()
        pad.destroy()
        if keyboard:
            keyboard.destroy()
