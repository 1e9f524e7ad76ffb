"""A Joy-Con pair through the kernel's hid-nintendo, read by tiltkit as one pad: `record` from the two
hidraw nodes (motion from the right, the default) and from the two "Joy-Con IMU" evdev nodes (motion
from the left), and `serve dsu` serving the pair in one slot, all at once. Values against what each
model was told, in one device frame for both sides; rate; unplug and replug of the left half, which is
the motion side for one reader and the other side for the rest."""
import glob
import math
import os
import statistics
import subprocess
import time

import nodes
from models.joycon import JoyConLeft, JoyConRight
from models.switch_pro import ACCEL_RES_PER_G, GYRO_PREC, GYRO_RES_PER_DPS
from test_dsu import PORT, Client, dsu_from_core_motion
from test_switch import core_motion_from_nintendo
from tiltkit import BINARY, Recording, Trace

# Physical motion in hid-nintendo's common frame (X toward the triggers, Y left, Z up): g and deg/s.
# The halves are told different values, so a reader shows which half its motion comes from.
LEFT_SETS = [((0.25, -0.5, 0.75), (20.0, -35.0, 50.0)), ((-0.6, 0.3, -0.2), (-80.0, 15.0, -25.0))]
RIGHT_SETS = [((0.1, 0.9, -0.3), (-45.0, 60.0, 10.0)), ((0.7, -0.2, 0.4), (30.0, -5.0, -70.0))]
# Each half offers one kind of SPI calibration: the left factory only, the right a user calibration too.
LEFT_FACTORY = dict(accel_offset=(30, -20, 10), accel_scale=(16100, 16300, 16500),
                    gyro_offset=(12, -9, 4), gyro_scale=(13300, 13400, 13350))
RIGHT_USER = dict(accel_offset=(-15, 25, 5), accel_scale=(16200, 16400, 16000),
                  gyro_offset=(-6, 11, -3), gyro_scale=(13420, 13310, 13390))
HOLD = 0.5


def hidraw_of(pad):
    names = glob.glob(os.path.join(str(pad.sys_path), "hidraw", "hidraw*"))
    return f"/dev/{os.path.basename(names[0])}" if names else None


def start(model, mac, uniq=None):
    pad = model(mac=mac, imu_cal=LEFT_FACTORY if model is JoyConLeft else None,
                user_imu_cal=RIGHT_USER if model is JoyConRight else None)
    if uniq:
        pad.uniq = uniq
    sets = LEFT_SETS if model is JoyConLeft else RIGHT_SETS
    pad.set_motion(*pad.counts_for(*sets[0]))
    pad.start_device()
    return pad


def expected(pad, accel_counts, gyro_counts, path):
    """What a reader should give for these raw counts, in Core Motion's frame (g with gravity's sign,
    rad/s) with the LSB sizes (g, deg/s): evdev through hid-nintendo's integer formula, hidraw through
    tiltkit's own (SDL's and JoyShockLibrary's: deg/s = (raw − origin)·936/(sens − origin)), the
    right half's mirrored Y and Z undone as the kernel does."""
    c = pad.active_cal
    if path == "evdev":
        acc, gyr = pad.expected_evdev(accel_counts, gyro_counts)
        a = [v / ACCEL_RES_PER_G for v in acc]
        g = [v / (GYRO_RES_PER_DPS) for v in gyr]   # values carry ×1000, resolution 14247 per deg/s ×1000
        lsb = (1 / ACCEL_RES_PER_G, GYRO_PREC / GYRO_RES_PER_DPS)
    else:
        a = [accel_counts[i] * 4 / (c["accel_scale"][i] - c["accel_offset"][i]) for i in range(3)]
        g = [(gyro_counts[i] - c["gyro_offset"][i]) * 936 / (c["gyro_scale"][i] - c["gyro_offset"][i]) for i in range(3)]
        lsb = (4 / 16384, 936 / 13371)
    if pad.MIRRORED:
        a = [a[0], -a[1], -a[2]]
        g = [g[0], -g[1], -g[2]]
    return ([-v for v in core_motion_from_nintendo(a)], [math.radians(v) for v in core_motion_from_nintendo(g)], lsb)


def match(rows, targets):
    """(indices of the targets seen, worst error in LSB) of trace rows against (accel, gyro, lsb) targets."""
    seen, worst = set(), 0.0
    for r in rows:
        errors = [max(max(abs(x - y) / lsb[0] for x, y in zip(r[1:4], a)),
                      max(abs(math.degrees(x - y)) / lsb[1] for x, y in zip(r[4:7], g))) for a, g, lsb in targets]
        best = min(range(len(errors)), key=errors.__getitem__)
        seen.add(best)
        worst = max(worst, errors[best])
    return seen, worst


def test_joycon_pair_values_rate_dsu_unplug_replug():
    left = start(JoyConLeft, b"\x98\xb6\xe9\x11\x11\x11")
    right = start(JoyConRight, b"\x98\xb6\xe9\x22\x22\x22")
    server = None
    readers = {}
    try:
        imu = {s: nodes.wait_for(p.imu_event_node, 30) for s, p in (("L", left), ("R", right))}
        raw = {s: nodes.wait_for(lambda p=p: hidraw_of(p), 10) for s, p in (("L", left), ("R", right))}
        assert all(imu.values()) and all(raw.values()), f"hid-nintendo made no IMU node for a half: {imu} {raw}"
        readers["hidraw"] = Recording(f"joycon-pair:{raw['R']}+{raw['L']}", "/tmp/kt-jc-hidraw.csv")
        readers["evdev"] = Recording(f"joycon-pair:{imu['L']}+{imu['R']},side=left", "/tmp/kt-jc-evdev.csv")
        server = subprocess.Popen([BINARY, "serve", "dsu", "--source", "joycon-pair", "--port", str(PORT),
                                   "--raw-gyro", "--status-interval", "1"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # A cold debug binary loads slowly in an emulated guest when these cases run alone.
        assert all(r.wait_started(200) for r in readers.values()), {n: r.lines for n, r in readers.items()}
        listing = subprocess.run([BINARY, "devices"], capture_output=True, text=True, timeout=60).stdout
        pair_line = next((line for line in listing.splitlines() if "joycon-pair:" in line), "")
        print(f"\n  tiltkit devices: {pair_line.strip()}")
        assert f"joycon-pair:{raw['L']}+{raw['R']}" in pair_line and pair_line.startswith("*"), listing
        client = Client()
        client.stream(0.5)
        counts = {"L": [], "R": []}
        for i in range(2):
            for side, pad, sets in (("L", left, LEFT_SETS), ("R", right, RIGHT_SETS)):
                counts[side].append(tuple(tuple(round(v) for v in part) for part in pad.counts_for(*sets[i])))
                pad.set_motion(*counts[side][i])
            client.stream(HOLD)
        dsu_before = len(client.pad_data)
        # The left half goes: the right-motion readers go on, the left-motion one pauses; then it returns.
        unplugged = time.monotonic()
        uniq = left.uniq
        left.destroy()
        left.destroy = lambda: None
        client.stream(1.0)
        replugged = time.monotonic()
        left = start(JoyConLeft, b"\x98\xb6\xe9\x11\x11\x11", uniq)
        left.set_motion(*counts["L"][0])
        back = readers["evdev"].wait_line("is back", 60)
        whole = readers["hidraw"].wait_line("the pair is whole again", 60)
        client.stream(0.5)
        outcome = {n: r.stop() for n, r in readers.items()}
    finally:
        for r in readers.values():
            r.stop()
        if server:
            server.terminate()
            server_output = server.communicate(timeout=30)[0]
        left.destroy()
        right.destroy()

    print(f"  halves: L hidraw {raw['L']} IMU {imu['L']}; R hidraw {raw['R']} IMU {imu['R']}")
    h, e = Trace("/tmp/kt-jc-hidraw.csv"), Trace("/tmp/kt-jc-evdev.csv")
    source_names = " ".join(h.comments)
    assert "factory calibration" in source_names and "user calibration" in source_names, h.comments[:4]
    worst = {}
    for name, trace, motion_pad, motion_side, other_side in (("hidraw", h, right, "R", "L"), ("evdev", e, left, "L", "R")):
        other_pad = left if motion_side == "R" else right
        targets = [expected(motion_pad, a, g, name) for a, g in counts[motion_side]]
        others = [expected(other_pad, a, g, name) for a, g in counts[other_side]]
        rows = [r for r in trace.rows if r[0] is not None]
        seen, worst[name] = match(rows, targets)
        _, other_error = match(rows, others)
        times = trace.times
        steps = [b - a for a, b in zip(times, times[1:]) if b > a]
        print(f"    {name} (motion from {motion_side}): {len(rows)} samples, sets seen {sorted(seen)}, worst {worst[name]:.2f} LSB "
              f"from what {motion_side} was told (the other half's values are {other_error:.0f} LSB away), "
              f"median interval {statistics.median(steps) * 1e3:.2f} ms; {outcome[name][1].strip()}")
        for i, (a, g, _) in enumerate(targets):
            print(f"      set {i}: told {counts[motion_side][i]}; reads accel {[round(v, 4) for v in a]} g, gyro {[round(v, 4) for v in g]} rad/s")
        assert seen == {0, 1}, f"{name}: value sets {sorted(seen)} arrived, not both"
        assert worst[name] <= 1
        assert other_error > 50, f"{name}: samples match the other half too: motion side not told apart"
        assert 0.003 < statistics.median(steps) < 0.008, "three samples per 15 ms report: about 5 ms apart"
    # Unplug and replug of the left half.
    stderr_h, stderr_e = outcome["hidraw"][2], outcome["evdev"][2]
    during = [t for t in h.times if unplugged + 0.2 < t < replugged]   # trace times are CLOCK_MONOTONIC
    print(f"    left unplugged: right-motion record kept {len(during)} samples in the {replugged - unplugged:.1f} s it was gone; "
          f"rejoined {(whole or math.inf) - replugged:.2f} s after the new pad's start; left-motion record back after "
          f"{(back or math.inf) - replugged:.2f} s")
    print("      " + " | ".join(l for l in stderr_h.splitlines() if "Joy-Con" in l))
    print("      " + " | ".join(l for l in stderr_e.splitlines() if "Joy-Con" in l))
    assert "Joy-Con (L) went away" in stderr_h and "motion goes on from Joy-Con (R)" in stderr_h
    assert whole is not None, "the right-motion reader did not say the pair is whole again"
    assert len(during) > 20, "motion from the right stopped while the left half was gone"
    assert "the pair's motion side, went away" in stderr_e and back is not None
    assert len([t for t in e.times if t > back]) > 20, "no left motion after the replug"
    # DSU: one slot, the right half's motion, as `record` read it from the same hidraw nodes.
    packets = [f for _, f in client.pad_data if f["state"] == 2]
    reference = [dsu_from_core_motion([0, *a, *g]) for a, g, _ in [expected(right, a, g, "hidraw") for a, g in counts["R"]]]
    dsu_worst, dsu_seen = 0.0, set()
    for f in packets:
        # in LSB of the right half's hidraw formula: g and deg/s
        errors = [max(max(abs(x - y) / (4 / 16384) for x, y in zip(a, f["accel"])),
                      max(abs(x - y) / (936 / 13371) for x, y in zip(g, f["gyro"]))) for a, g in reference]
        best = min(range(len(errors)), key=errors.__getitem__)
        dsu_seen.add(best)
        dsu_worst = max(dsu_worst, errors[best])
    arrivals = [t for t, f in client.pad_data[:dsu_before]]
    rate = (len(arrivals) - 1) / (arrivals[-1] - arrivals[0])
    print(f"    serve dsu: {len(packets)} pad-data packets, slots {sorted({f['slot'] for _, f in client.pad_data})}, "
          f"{rate:.0f} Hz before the unplug, sets seen {sorted(dsu_seen)}, worst {dsu_worst:.2f} LSB from the right's values")
    print("      server: " + " | ".join(server_output.strip().splitlines()[-3:]))
    assert {f["slot"] for _, f in client.pad_data} == {0}
    assert dsu_seen == {0, 1} and dsu_worst <= 1


# hid-nintendo's button bits in report bytes 3..5 (hid-nintendo.c JC_BTN_*): A on the right, up on the left.
JC_BTN_A, JC_BTN_UP = 1 << 3, 1 << 17


def test_joycon_pair_mapper_reads_both_halves():
    """`tiltkit map` on the pair: the mouse follows the right half's gyro only, both halves' gamepad
    nodes are read (A from the right, d-pad up from the left reach the virtual pad) and grabbed; the
    left half, unplugged and back, is read and grabbed again."""
    import evdev_reader as ev
    from test_map import GAMEPAD, MOUSE, Mapping, profile
    left = start(JoyConLeft, b"\x98\xb6\xe9\x33\x33\x33")
    right = start(JoyConRight, b"\x98\xb6\xe9\x44\x44\x44")
    mapping = reader = None
    try:
        raw = {s: nodes.wait_for(lambda p=p: hidraw_of(p), 30) for s, p in (("L", left), ("R", right))}
        pads_nodes = {s: nodes.wait_for(lambda p=p: [path for name, path in nodes.event_nodes(p).items()
                                                      if not name.endswith("IMU")], 30) for s, p in (("L", left), ("R", right))}
        assert all(raw.values()) and all(pads_nodes.values()), f"no nodes: {raw} {pads_nodes}"
        still = {s: p.counts_for((0, 0, 1), (0, 0, 0)) for s, p in (("L", left), ("R", right))}
        turning = {s: p.counts_for((0, 0, 1), (0, 0, 90)) for s, p in (("L", left), ("R", right))}   # yaw about Z, up
        left.set_motion(*still["L"])
        right.set_motion(*still["R"])
        mapping = Mapping(f"joycon-pair:{raw['L']}+{raw['R']}", profile("/tmp/kt-jc-map.toml"))
        mouse, gamepad = mapping.wait_devices(200)
        reader = ev.Reader([mouse, gamepad])
        nodes.wait_for(lambda: any("buttons and sticks from" in line for line in mapping.lines), 60)
        # The left half turns: not the pair's motion, the mouse stays.
        mark = reader.mark()
        left.set_motion(*turning["L"])
        time.sleep(1.5)
        left_turn = reader.total(mark, mouse, ev.EV_REL, ev.REL_X)
        left.set_motion(*still["L"])
        # The right half turns: the mouse moves.
        mark = reader.mark()
        right.set_motion(*turning["R"])
        moved = nodes.wait_for(lambda: (lambda total: total if abs(total) > 20 else 0)(reader.total(mark, mouse, ev.EV_REL, ev.REL_X)), 30, 0.1)
        right.set_motion(*still["R"])
        # A button on each half. Buttons pass by position: A is the east face button on a Nintendo
        # pad (hid-nintendo reports it as BTN_EAST), so the virtual pad's east one (Xbox B).
        right.buttons, left.buttons = JC_BTN_A, JC_BTN_UP
        pressed = nodes.wait_for(lambda: ev.BTN_EAST in ev.keys_held(gamepad) and ev.axis(gamepad, ev.ABS_HAT0Y)[0] == -1, 30, 0.1)
        held, hat = ev.keys_held(gamepad), ev.axis(gamepad, ev.ABS_HAT0Y)[0]
        grabs = {path: ev.grab_error(path) for s in ("L", "R") for path in pads_nodes[s]}
        print(f"\n  tiltkit map --source joycon-pair:{raw['L']}+{raw['R']}: left turning → REL_X {left_turn}; "
              f"right turning → REL_X {moved}; A (R) + up (L) → keys {sorted(hex(k) for k in held)}, HAT0Y {hat}; "
              f"grabs {grabs}")
        print("    " + " | ".join(line for line in mapping.lines if "buttons and sticks" in line or "Joy-Con" in line))
        assert abs(left_turn) <= 2, "the left half's turning moved the mouse: motion not from the right"
        assert moved and abs(moved) > 20, "the right half's turning did not move the mouse"
        assert pressed, f"A from the right and up from the left did not both reach {GAMEPAD}: keys {held}, hat {hat}"
        assert all(error == "EBUSY" for error in grabs.values()), f"a half's gamepad node was not grabbed: {grabs}"
        # The left half (not the motion side) goes and comes back: its buttons are read again.
        right.buttons, left.buttons = 0, 0
        nodes.wait_for(lambda: ev.axis(gamepad, ev.ABS_HAT0Y)[0] == 0, 10, 0.05)
        uniq = left.uniq
        left.destroy()
        left.destroy = lambda: None
        time.sleep(1.0)
        left = start(JoyConLeft, b"\x98\xb6\xe9\x33\x33\x33", uniq)
        left.set_motion(*still["L"])
        replugged = time.monotonic()
        left.buttons = JC_BTN_UP
        again = nodes.wait_for(lambda: ev.axis(gamepad, ev.ABS_HAT0Y)[0] == -1, 40, 0.05)
        regrabbed = {path: ev.grab_error(path) for path in nodes.wait_for(
            lambda: [path for name, path in nodes.event_nodes(left).items() if not name.endswith("IMU")], 10) or []}
        print(f"    left half replugged: up reached the virtual pad {time.monotonic() - replugged:.2f} s after it started "
              f"({bool(again)}); its gamepad node grabbed {regrabbed}")
        assert again, f"the replugged left half's d-pad did not reach {GAMEPAD}: {mapping.output()}"
        assert regrabbed and all(e == "EBUSY" for e in regrabbed.values()), f"the replugged half is not grabbed: {regrabbed}"
    finally:
        if mapping:
            mapping.stop()
        if reader:
            reader.close()
        left.destroy()
        right.destroy()
