"""`tiltkit map` end to end: a virtual DualShock 4 / DualSense through the kernel's driver, mapped by
tiltkit to its virtual mouse and gamepad through /dev/uinput, read back from the kernel's evdev nodes
of those (found by name in /proc/bus/input/devices) and through the system's SDL2, as a game would.

One `tiltkit map` run per pad serves the cases of that pad in order (a module fixture): gyro to mouse
counts, gyro off while held, buttons and sticks, flick stick, the grab, unplug and replug, SIGTERM.
The DualShock 4 is mapped from its hidraw node, the DualSense from the kernel's motion node (evdev),
so both of the edge's motion paths are proven."""
import json
import math
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import calibration
import evdev_reader as ev
import nodes
import pads
from test_playstation import calibration_report, create
from tiltkit import BINARY, run

MOUSE, GAMEPAD = "Tiltkit Virtual Mouse", "Tiltkit Virtual Gamepad"
XBOX_360 = (0x045E, 0x028E)   # the virtual pad's USB ids (Microsoft Xbox 360 Controller)
COUNTS_PER_360 = 3600
SENSITIVITY = 2.0
# The pad lying flat: the accelerometer reads +1 g on the pad's y axis (up), in raw counts at the
# models' calibration (about 8192 a g); the yaw is the gyro's y (pitch, yaw, roll in PlayStation order).
FLAT_ACCEL = (0, 8192, 0)
YAW_RAW = 1500   # about 91 °/s at the models' calibration
# Reports a second. The kernel suite maps with a debug build under an emulated CPU (TCG), which
# maps a few hundred reports a second at most while the pad's sender and the kernel share the
# two emulated cores; a backlog past the hidraw node's 64 reports drops reports, and the mapper
# rightly takes no motion across a gap over 0.1 s, so the counts would measure the emulator.
# These cases prove the mapping; `bench map` measures its speed.
RATE = 50.0
# hid-tools' button numbers (sony_gamepad.PS4Controller.buttons_map, the same for the DualSense).
SQUARE, CROSS, CIRCLE, TRIANGLE, L1 = 1, 2, 3, 4, 5
CENTRE = (128, 128)


def profile(path, right_stick="flick"):
    """A profile (keys: the core's MapperProfile+TOML, JoyShockMapper's names in lower case): gyro to
    mouse at SENSITIVITY against COUNTS_PER_360, no smoothing, acceleration or cutoff (so counts are
    exactly sensitivity × rotation), gyro off while L1 is held, the right stick as given."""
    with open(path, "w") as f:
        f.write(f"""# kernel test profile
gyro_output = "mouse"
gyro_sens = {SENSITIVITY}
counts_per_360 = {COUNTS_PER_360}
gyro_smooth_threshold = 0
gyro_cutoff_speed = 0
gyro_cutoff_recovery = 0
gyro_off = ["L"]
right_stick_mode = "{right_stick}"
flick_time = 0.1
""")
    return path


class Mapping:
    """`tiltkit map` running in the background; its output lines kept as they arrive."""

    def __init__(self, source, profile_path, extra=()):
        self.lines = []
        self.process = subprocess.Popen([BINARY, "map", "--source", source, "--profile", profile_path,
                                         "--gyro-calibration", "off", "--status-interval", "1", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def output(self, last=12):
        return " | ".join(self.lines[-last:])

    def wait_devices(self, timeout=60):
        """(mouse node, gamepad node) once both virtual devices exist."""
        def both():
            if self.process.poll() is not None:
                return "exited"
            mouse, pad = ev.node_named(MOUSE), ev.node_named(GAMEPAD)
            return (mouse, pad) if mouse and pad else None
        found = nodes.wait_for(both, timeout)
        assert found and found != "exited", f"no virtual devices (exit {self.process.poll()}): {self.output()}; " \
            f"input devices {sorted(ev.devices())}"
        return found

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=2)
        return self.process.returncode


def gamepad_node(pad):
    """The physical pad's gamepad evdev node: the one that is neither motion nor touchpad."""
    for name, path in nodes.event_nodes(pad).items():
        if not name.endswith(("Motion Sensors", "Touchpad")):
            return path
    return None


def set_controls(pad, **controls):
    """Sets sticks (0…255, x right, y down), hat (0 north … 7, 8 none) and buttons ({number: bool})
    in the reports the pad sends from now on; the next send carries them."""
    pad.create_report(**controls)
    pad._template_key = None   # pads.RawSensorsMixin.send caches a report per motion values


def still_and_turning(pad, path, motion):
    """The gyro counts of a pad at rest and turning at YAW_RAW more, as the mapper's path reads
    them: hidraw decodes raw 0 as 0 (the current drivers' formula, calibration.py); the kernel's
    evdev node of 6.1 subtracts the calibration's bias, so there the rest is the bias itself."""
    if path == "hidraw":
        return (0, 0, 0), (0, YAW_RAW, 0)
    bias = tuple(calibration.parse(calibration_report(pad), interleaved=False)[0])
    for still in ((0, 0, 0), bias):
        pads.stream(pad, 0.1, FLAT_ACCEL, still, rate=RATE)
        if all(nodes.absinfo(motion, axis)[0] == 0 for axis in (3, 4, 5)):
            return still, (still[0], still[1] + YAW_RAW, still[2])
    raise AssertionError(f"no gyro counts read as rest on {motion}: bias {bias}")


def yaw_rate(case):
    """°/s of yaw the turning reports carry, by the path the mapper reads: hidraw by the current
    drivers' formula; the kernel's evdev node says its own value, read back from it."""
    if case.path == "hidraw":
        expected = calibration.Expected(calibration_report(case.pad), interleaved=case.pad.kind == "ds4-bt")
        return expected.gyro_counts(case.turning, subtract_bias=False, exact=True)[1] / calibration.GYRO_RES_PER_DEG_S
    stream(case, 0.1, case.turning)
    value, resolution = nodes.absinfo(nodes.motion_node(case.pad), 4)   # ABS_RY: yaw
    return value / resolution


def stream(case, seconds, gyro=None):
    """Reports at RATE for `seconds`, at rest unless `gyro` says: (index of the first, index past
    the last) in pad.sent."""
    first = len(case.pad.sent)
    pads.stream(case.pad, seconds, FLAT_ACCEL, gyro or case.still, rate=RATE)
    return first, len(case.pad.sent)


def settle(case, quiet=0.5, timeout=30):
    """Reports at rest until the mouse has been still for `quiet` seconds: the mapper has worked
    through everything before (a debug build under TCG runs seconds behind the pad at times)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stream(case, 0.2)
        moved = next((e[0] for e in reversed(case.reader.events) if e[1] == case.mouse and e[2] == ev.EV_REL), 0)
        if time.monotonic() - moved >= quiet:
            break
    time.sleep(0.1)


class Case:
    pass


PATHS = [(pads.DS4USB, "hidraw"), (pads.DualSenseBluetooth, "evdev")]


@pytest.fixture(scope="module", params=PATHS, ids=lambda p: f"{p[0].kind}-{p[1]}")
def case(request):
    model, path = request.param
    c = Case()
    c.model, c.path = model, path
    c.pad, hidraw, motion = create(model)
    c.uniq = c.pad.uniq
    c.still, c.turning = still_and_turning(c.pad, path, motion)
    c.physical = gamepad_node(c.pad)
    assert c.physical, f"no gamepad node: {nodes.event_nodes(c.pad)}"
    c.profile = profile(f"/tmp/kt-map-{model.kind}.toml")
    c.source = f"{path}:{hidraw if path == 'hidraw' else motion}"
    assert not ev.devices().get(MOUSE) and not ev.devices().get(GAMEPAD), "virtual devices left from before"
    c.map = Mapping(c.source, c.profile)
    c.mouse, c.gamepad = c.map.wait_devices()
    c.reader = ev.Reader([c.mouse, c.gamepad])
    # The devices come before the source runs (a debug build starts it seconds later under TCG):
    # the pad turns until the mouse moves, so every case starts with the mapping live.
    streamer = pads.Streamer(c.pad, [(FLAT_ACCEL, c.turning)], rate=RATE)
    live = nodes.wait_for(lambda: c.reader.since(0, c.mouse, ev.EV_REL), 60, 0.1)
    streamer.stop()
    assert live, f"the mouse never moved: {c.map.output()}"
    settle(c)
    print(f"\n  {model.kind}: tiltkit map --source {c.source}; physical gamepad {c.physical}; "
          f"virtual mouse {c.mouse}, gamepad {c.gamepad}")
    yield c
    c.map.stop(signal.SIGKILL)
    c.reader.close()
    c.pad.destroy()


def test_gyro_to_mouse_counts_are_sensitivity_times_rotation(case):
    rate = yaw_rate(case)
    settle(case)
    mark = case.reader.mark()
    first, end = stream(case, 2.5, case.turning)
    settle(case)
    # The rotation the reports carried: each turns by its rate over the pad's clock since the report
    # before, from the report before the first turning one to the last; a step over 0.1 s is a
    # gap the mapper takes no motion across (Mapper.maximumSampleInterval), which an emulated
    # sender can leave. Steps within 2 ms of that bound could go either way: both are allowed.
    steps = [b - a for a, b in zip(case.pad.sent[first - 1:end - 1], case.pad.sent[first:end])]
    seconds = sum(t for t in steps if t <= 0.098)
    unsure = sum(t for t in steps if 0.098 < t <= 0.102)
    gaps = [round(t, 3) for t in steps if t > 0.098]
    expected = rate * seconds * SENSITIVITY * COUNTS_PER_360 / 360
    upper = rate * (seconds + unsure) * SENSITIVITY * COUNTS_PER_360 / 360
    x = case.reader.total(mark, case.mouse, ev.EV_REL, ev.REL_X)
    y = case.reader.total(mark, case.mouse, ev.EV_REL, ev.REL_Y)
    events = len(case.reader.since(mark, case.mouse, ev.EV_REL, ev.REL_X))
    print(f"    gaps over 0.1 s left by the sender: {gaps}")
    print(f"    yaw {rate:.3f} °/s over {seconds:.3f} s of the pad's clock ({end - first} reports) = "
          f"{rate * seconds:.2f}°; × {SENSITIVITY} × {COUNTS_PER_360}/360 = {expected:.1f} counts; "
          f"REL_X {x} in {events} events ({(abs(x) - expected) / expected * 100:+.2f} %), REL_Y {y}")
    # Positive yaw turns the pad counter-clockwise seen from above (y up, right-handed): to the left,
    # so the view turns left: negative REL_X.
    assert x < 0, f"the pad turned left, the mouse moved {x}"
    assert 0.99 * expected <= abs(x) <= 1.01 * upper, f"REL_X {x}, expected {-expected:.1f} ± 1 %: {case.map.output()}"
    assert abs(y) <= 0.01 * expected, f"REL_Y {y} for a pure yaw"


def test_nothing_while_gyro_off_is_held(case):
    set_controls(case.pad, buttons={L1: True})
    settle(case)
    mark = case.reader.mark()
    stream(case, 1.0, case.turning)
    settle(case)
    held = case.reader.since(mark, case.mouse, ev.EV_REL)
    set_controls(case.pad, buttons={L1: False})
    settle(case)
    # Released, the same turn moves the mouse again: the silence was the button's.
    mark_after = case.reader.mark()
    stream(case, 0.5, case.turning)
    settle(case)
    after = case.reader.total(mark_after, case.mouse, ev.EV_REL, ev.REL_X)
    print(f"    L1 (gyro_off) held: {len(held)} mouse motion events while turning; released: REL_X {after}")
    assert not held, f"mouse moved while gyro_off was held: {held[:5]}"
    assert after < 0, "no mouse motion after gyro_off was released"


def test_buttons_and_sticks_pass_through(case):
    set_controls(case.pad, buttons={CROSS: True, CIRCLE: True}, left=(255, 0), hat_switch=2)
    settle(case)
    held = ev.keys_held(case.gamepad)
    left = [ev.axis(case.gamepad, a) for a in (ev.ABS_X, ev.ABS_Y)]
    hat = [ev.axis(case.gamepad, a)[0] for a in (ev.ABS_HAT0X, ev.ABS_HAT0Y)]
    set_controls(case.pad, buttons={CROSS: False, CIRCLE: False}, left=CENTRE, hat_switch=8)
    settle(case)
    released = ev.keys_held(case.gamepad)
    rest = [ev.axis(case.gamepad, a)[0] for a in (ev.ABS_X, ev.ABS_Y, ev.ABS_HAT0X)]
    print(f"    cross+circle, left stick right-up, d-pad right → keys {sorted(hex(k) for k in held)}, "
          f"ABS_X/Y {left}, HAT0X/Y {hat}; released → keys {sorted(hex(k) for k in released)}, ABS_X/Y, HAT0X {rest}")
    assert {ev.BTN_SOUTH, ev.BTN_EAST} <= held, "cross/circle did not press the virtual pad's south/east"
    (x, lo, hi), (y, _, _) = left
    assert (lo, hi) == (-32768, 32767) or (lo, hi) == (-32767, 32767), f"ABS_X range {lo}…{hi}"
    # Xbox 360 convention (xpad): y up is negative.
    assert x >= 0.95 * hi and y <= 0.95 * lo, f"full right-up reads ABS_X {x}, ABS_Y {y}"
    assert hat == [1, 0]
    assert not ({ev.BTN_SOUTH, ev.BTN_EAST} & released)
    assert all(abs(v) <= 0.05 * 32767 for v in rest[:2]) and rest[2] == 0, f"centred reads {rest}"


def test_flick_stick_turns_by_the_sticks_angle(case):
    """Point the right stick: the view turns to face that way (counts_per_360 × angle / 360)."""
    results = []
    for stick, angle in (((255, 128), 90.0), ((0, 0), -45.0)):
        mark = case.reader.mark()
        set_controls(case.pad, right=stick)
        settle(case)   # until the flick (flick_time 0.1 s) has turned all the way
        x = case.reader.total(mark, case.mouse, ev.EV_REL, ev.REL_X)
        set_controls(case.pad, right=CENTRE)
        settle(case)
        results.append((angle, x))
    print("    flick: " + ", ".join(f"stick at {a:+.0f}° → REL_X {x} (expected {a * COUNTS_PER_360 / 360:+.0f})"
                                    for a, x in results))
    for angle, x in results:
        expected = angle * COUNTS_PER_360 / 360
        # The stick's raw 0…255 centres at 127.5: (255, 128) points 0.2° off 90°.
        assert abs(x - expected) <= 0.01 * abs(expected) + 2, f"stick at {angle}°: REL_X {x}, expected {expected:.0f}"


def test_physical_pad_is_grabbed_while_mapping(case):
    """Another EVIOCGRAB fails, and a reader of the node sees none of the pad's presses (the game
    reads only the virtual pad, never both)."""
    grabbed = ev.grab_error(case.physical)
    outsider = ev.Reader([case.physical])
    mark = case.reader.mark()
    set_controls(case.pad, buttons={SQUARE: True}, left=(0, 128))
    settle(case)
    set_controls(case.pad, buttons={SQUARE: False}, left=CENTRE)
    settle(case)
    outsider.close()
    seen = [e for e in outsider.events if e[2] != ev.EV_SYN]
    virtual = [e for e in case.reader.since(mark, case.gamepad, ev.EV_KEY) if e[3] in (ev.BTN_NORTH, ev.BTN_WEST)]
    others = {path: ev.grab_error(path) for name, path in nodes.event_nodes(case.pad).items() if path != case.physical}
    print(f"    EVIOCGRAB on the physical gamepad node {case.physical}: {grabbed}; another reader saw {len(seen)} events "
          f"while square and the left stick moved; the virtual pad saw {len(virtual)} square events; "
          f"the pad's other nodes: {others}")
    assert grabbed == "EBUSY", f"the physical gamepad node is not grabbed: {grabbed}"
    assert not seen, f"another reader of the grabbed node saw {seen[:4]}"
    # Every node of the pad (motion, touchpad): a game must see only the virtual pad.
    assert all(e == "EBUSY" for e in others.values()), f"nodes of the pad left free: {others}"
    assert virtual, "square reached no one: the grab test proves nothing"


def test_unplug_keeps_the_virtual_devices_and_replug_resumes(case):
    before = (ev.node_named(MOUSE), ev.node_named(GAMEPAD))
    case.pad.destroy()
    time.sleep(1.0)
    during = (ev.node_named(MOUSE), ev.node_named(GAMEPAD))
    alive = case.map.process.poll() is None
    case.pad, hidraw, motion = create(case.model, case.uniq)
    case.physical = gamepad_node(case.pad)
    # The edge reopens the pad when it is back (a source says so at the first report from the new
    # node, so the pad streams meanwhile): the mouse moves again.
    waiting = case.reader.mark()
    streamer = pads.Streamer(case.pad, [(FLAT_ACCEL, case.turning)], rate=RATE)
    back = nodes.wait_for(lambda: case.reader.since(waiting, case.mouse, ev.EV_REL), 20, 0.1)
    streamer.stop()
    settle(case)
    grab = ev.grab_error(case.physical)
    mark = case.reader.mark()
    stream(case, 1.0, case.turning)
    set_controls(case.pad, buttons={CROSS: True})
    settle(case)
    x = case.reader.total(mark, case.mouse, ev.EV_REL, ev.REL_X)
    held = ev.keys_held(case.gamepad)
    set_controls(case.pad, buttons={CROSS: False})
    settle(case)
    print(f"    unplugged: map running {alive}, virtual nodes {before} → {during}; replugged "
          f"({hidraw}, {motion}): mouse moving again {bool(back)}, grab {grab}, REL_X {x} for a 1 s turn, "
          f"cross → BTN_SOUTH {ev.BTN_SOUTH in held}; removed nodes seen by the reader: {case.reader.gone}")
    assert alive, f"map exited on unplug: {case.map.output()}"
    assert during == before, "the virtual devices did not stay through the unplug"
    assert not case.reader.gone, "a virtual node went away during the unplug"
    assert back and x < 0, f"no mouse motion after the replug: {case.map.output()}"
    assert grab == "EBUSY", f"the replugged pad's gamepad node is not grabbed: {grab}"
    assert ev.BTN_SOUTH in held, "buttons did not resume after the replug"


def test_sigterm_removes_the_virtual_devices_and_releases_the_grab(case):
    code = case.map.stop(signal.SIGTERM)
    gone = nodes.wait_for(lambda: not ev.devices().get(MOUSE) and not ev.devices().get(GAMEPAD), 5)
    grabs = {path: ev.grab_error(path) for path in nodes.event_nodes(case.pad).values()}
    print(f"    SIGTERM → exit {code}; virtual devices removed {bool(gone)}; EVIOCGRAB on the pad's nodes now: "
          f"{grabs}; last output: {case.map.output(4)}")
    assert code == 0, f"map exited {code} on SIGTERM: {case.map.output()}"
    assert gone, f"virtual devices still present: {ev.devices().get(MOUSE)} {ev.devices().get(GAMEPAD)}"
    assert all(g is None for g in grabs.values()), f"the physical pad is still grabbed after exit: {grabs}"


def test_sdl_sees_the_virtual_pad_as_a_game_controller():
    """The system's SDL2 (Debian 2.26, evdev backend without udevd in the VM) finds the virtual pad,
    takes it for a game controller by its Xbox 360 ids, and reads the right stick and the face
    buttons by position (triangle is the top button: SDL's Y)."""
    pad, hidraw, _ = create(pads.DS4USB)
    mapping = Mapping(f"hidraw:{hidraw}", profile("/tmp/kt-map-sdl.toml", right_stick="passthrough"))

    def press(**controls):
        # A few reports carry the change: the controls need no stream, and SDL starting under the
        # emulated CPU needs every cycle it can get.
        set_controls(pad, **controls)
        pads.stream(pad, 0.1, FLAT_ACCEL, (0, 0, 0), rate=RATE)
    try:
        _, gamepad = mapping.wait_devices()
        press()
        sdl = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "sdl_controller.py"),
                                f"{XBOX_360[0]:04x}", f"{XBOX_360[1]:04x}", "6"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "SDL_JOYSTICK_DISABLE_UDEV": "1", "SDL_JOYSTICK_HIDAPI": "0"})
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(json.loads(l) for l in sdl.stdout), daemon=True)
        reader.start()
        opened = nodes.wait_for(lambda: any("t" in l or "error" in l for l in lines), 120, 0.1)
        # Right stick full right, then full up with triangle held, then let go.
        for controls in ({"right": (255, 128)}, {"right": (128, 0), "buttons": {TRIANGLE: True}},
                         {"right": CENTRE, "buttons": {TRIANGLE: False}}):
            press(**controls)
            time.sleep(1.0)
        sdl.wait(timeout=120)
        reader.join(timeout=2)
        err = sdl.stderr.read()
    finally:
        mapping.stop()
        pad.destroy()
    found = next((l for l in lines if "joystick" in l), {})
    states = [l for l in lines if "t" in l]
    print(f"\n  SDL: {found}; controller {next((l['controller'] for l in lines if 'controller' in l), None)}; "
          f"{len(states)} state changes, e.g. {states[:6]} {err.strip()[-300:]}")
    assert opened and found, f"SDL did not report in 120 s: {lines} {err}"
    assert found.get("is_game_controller"), f"SDL does not take the virtual pad for a game controller: {found}"
    assert found.get("path") == gamepad, f"SDL's joystick {found.get('path')} is not the virtual pad {gamepad}"
    assert max(s["rightx"] for s in states) > 30000, "SDL did not see the right stick go right"
    assert min(s["righty"] for s in states) < -30000, "SDL did not see the right stick go up"
    assert any(s["y"] and not s["x"] for s in states), "triangle did not read as SDL's Y (the top button)"
    assert not any(s["a"] or s["b"] or s["x"] for s in states), "a button not pressed read as pressed"


def test_bench_map_times_the_real_path():
    """`tiltkit bench map` on a live pad: report arrival → event written to uinput. The figures
    under an emulated CPU measure the emulator; the case asserts that the bench completes with
    figures that make sense, and prints its table for the log."""
    pad, hidraw, _ = create(pads.DS4USB)
    streamer = pads.Streamer(pad, [(FLAT_ACCEL, (0, YAW_RAW, 0))], rate=RATE)
    try:
        args = ("bench", "map", "--source", f"hidraw:{hidraw}", "--gyro-calibration", "off")
        code, text, err = run(*args, "--duration", "3", timeout=180)
        jcode, out, jerr = run(*args, "--duration", "2", "--json", timeout=180)
    finally:
        streamer.stop()
        pad.destroy()
    print("\n" + "\n".join("  " + line for line in text.splitlines()))
    assert code == 0, f"bench map exited {code}: {err}"
    assert jcode == 0, f"bench map --json exited {jcode}: {jerr}"
    report = json.loads(out)["report"]
    latency = report["latency"]
    assert "p99 ≤ 0.5 ms" in text and ("PASS" in text or "MISS" in text)
    # 2 s of a pad at RATE: its reports timed, each within the run, the percentiles in order.
    assert latency["count"] >= RATE, report
    assert 0 < latency["p50"] <= latency["p99"] <= latency["p999"] <= latency["max"] < 2e9, latency
    assert 0 < report["cpuPerReport"] < 0.1 * 1e9, report
