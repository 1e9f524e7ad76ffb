"""A DualShock 4 through the kernel's hid-sony into `tiltkit serve dsu`, and out over loopback to a
DSU client written here from the protocol (cemuhook's, as Dolphin's DualShockUDPProto.h lays it out),
not from tiltkit's code: every packet's CRC, the slot, the values, the timestamps, unplug and replug;
then the whole pad: buttons, d-pad and sticks pressed on the virtual pad come out in the packets'
bitmasks, analog bytes and stick bytes (x as the pad sends it, y as 255 − the pad's down-positive
byte, as DS4Windows sends it), with the pad's connection type, address and battery, for a DualShock 4
over USB, a DualSense over Bluetooth and a Switch Pro Controller over USB (hid-nintendo; its buttons
by position, so B is Cross).

The values the client receives are compared with what `tiltkit record` reads from the same hidraw
node at the same time (itself checked against the drivers' formula in test_playstation.py), mapped to
DSU's convention: accelerometer (x, z, −y) g, gyro pitch ωx, yaw −ωz, roll ωy in °/s."""
import math
import socket
import struct
import subprocess
import time
import zlib

import pads
import pytest
from hidtools.device.sony_gamepad import PSTouchPoint
from test_playstation import VALUES, create
from tiltkit import BINARY, Recording, Trace

PORT = 26761
PAD_DATA, PORT_INFO = 0x100002, 0x100001
# hid-tools' PlayStation button numbers (sony_gamepad.PS4Controller.buttons_map); hat 0 north, 2 east, 8 none.
CROSS, R1 = 2, 6


def request(kind, body):
    """A client packet: 'DSUC', version 1001, length after the header, CRC-32 (field zeroed), id."""
    payload = struct.pack("<I", kind) + body
    header = b"DSUC" + struct.pack("<HHII", 1001, len(payload), 0, 0x7153)
    packet = bytearray(header + payload)
    packet[8:12] = struct.pack("<I", zlib.crc32(bytes(packet)))
    return bytes(packet)


def parse(packet):
    """(type, fields) of a server packet after checking magic, version, length and CRC."""
    assert packet[:4] == b"DSUS", f"magic {packet[:4]!r}"
    version, length, crc, _ = struct.unpack_from("<HHII", packet, 4)
    assert version == 1001 and length == len(packet) - 16, (version, length, len(packet))
    zeroed = bytearray(packet)
    zeroed[8:12] = b"\0\0\0\0"
    assert zlib.crc32(bytes(zeroed)) == crc, "bad CRC"
    kind = struct.unpack_from("<I", packet, 16)[0]
    slot, state = packet[20], packet[21]
    fields = {"slot": slot, "state": state}
    if kind == PAD_DATA:
        assert len(packet) == 100, len(packet)
        fields["counter"] = struct.unpack_from("<I", packet, 32)[0]
        fields["timestamp"] = struct.unpack_from("<Q", packet, 68)[0]
        fields["accel"] = struct.unpack_from("<3f", packet, 76)
        fields["gyro"] = struct.unpack_from("<3f", packet, 88)
        # Offsets +20 from the protocol's table: model, connection, MAC, battery; the two bitmasks, PS,
        # touch click; sticks (left x, y, right x, y); the analog bytes (d-pad L D R U, square, cross,
        # circle, triangle, R1, L1, R2, L2).
        fields["connection"] = packet[23]
        fields["mac"] = ":".join(f"{b:02x}" for b in packet[24:30])
        fields["battery"] = packet[30]
        fields["buttons"] = tuple(packet[36:40])
        fields["sticks"] = tuple(packet[40:44])
        fields["analog"] = tuple(packet[44:56])
        fields["touches"] = [struct.unpack_from("<BBHH", packet, at) for at in (56, 62)]   # active, id, x, y
    return kind, fields


class Client:
    def __init__(self, slots=(0,)):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(0.2)
        self.slots = slots
        self.pad_data = []

    def subscribe(self):
        for slot in self.slots:
            # flags 1: by slot; the slot; no MAC
            self.sock.sendto(request(PAD_DATA, bytes([1, slot]) + bytes(6)), ("127.0.0.1", PORT))

    def slot_state(self):
        self.sock.sendto(request(PORT_INFO, struct.pack("<i", 1) + bytes([0])), ("127.0.0.1", PORT))
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            kind, fields = self.receive()
            if kind == PORT_INFO:
                return fields["state"]
        return None

    def receive(self):
        try:
            packet = self.sock.recv(2048)
        except socket.timeout:
            return None, None
        kind, fields = parse(packet)
        if kind == PAD_DATA:
            self.pad_data.append((time.monotonic(), fields))
        return kind, fields

    def wait_for_data(self, timeout):
        """Subscribes every 0.2 s until pad data arrives for every slot (the server may still be starting)."""
        end = time.monotonic() + timeout
        arrived = lambda: {f["slot"] for _, f in self.pad_data} >= set(self.slots)
        while time.monotonic() < end and not arrived():
            self.subscribe()
            self.receive()
        return arrived()

    def stream(self, seconds):
        """Keeps the subscription alive (clients re-ask about once a second) for `seconds`."""
        end, asked = time.monotonic() + seconds, 0.0
        while time.monotonic() < end:
            if time.monotonic() - asked > 1:
                self.subscribe()
                asked = time.monotonic()
            self.receive()


def dsu_from_core_motion(row):
    """A trace row (t, ax, ay, az, gx, gy, gz: g and rad/s) in DSU's convention."""
    _, ax, ay, az, gx, gy, gz = row[:7]
    return (ax, az, -ay), tuple(math.degrees(v) for v in (gx, -gz, gy))


def test_pad_through_the_kernel_into_serve_dsu():
    pad, hidraw, _ = create(pads.DS4USB)
    uniq = pad.uniq
    streaming = pads.Streamer(pad, [VALUES[0]])
    server = subprocess.Popen([BINARY, "serve", "dsu", "--source", f"hidraw:{hidraw}", "--port", str(PORT),
                               "--raw-gyro", "--status-interval", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    record = Recording(f"hidraw:{hidraw}", "/tmp/kt-dsu-reference.csv")
    client = Client()
    try:
        assert record.wait_started(), f"record did not start: {record.lines}"
        client.stream(1.5)
        for accel, gyro in VALUES[1:]:
            streaming.stop()
            streaming = pads.Streamer(pad, [(accel, gyro)])
            client.stream(0.6)
        # The whole pad: cross and d-pad up held, both sticks pushed, then all let go.
        pressed = press_and_release(
            client, lambda: set_controls(pad, buttons={CROSS: True}, hat_switch=0, left=(200, 40), right=(30, 220)),
            lambda: set_controls(pad, buttons={CROSS: False}, hat_switch=8, left=(128, 128), right=(128, 128)))
        streaming.stop()
        before = len(client.pad_data)
        assert before > 100, f"only {before} pad-data packets"

        # Unplug: the slot says disconnected; replug: it streams again.
        pad.destroy()
        time.sleep(0.5)
        state_unplugged = client.slot_state()
        pad, hidraw, _ = create(pads.DS4USB, uniq)
        streaming = pads.Streamer(pad, [VALUES[0]])
        client.stream(3)
        streaming.stop()
        state_back = client.slot_state()
        after = len(client.pad_data) - before
    finally:
        streaming.stop()
        record.stop()
        server.terminate()
        output = server.communicate(timeout=30)[0]
        pad.destroy()

    packets = [f for _, f in client.pad_data]
    arrivals = [t for t, _ in client.pad_data]
    duration = arrivals[before - 1] - arrivals[0]
    # The disconnect is told once, in a packet that repeats the last motion: only live ones count.
    stamps = [f["timestamp"] for f in packets if f["state"] == 2]
    told = sum(1 for f in packets if f["state"] == 0)
    print(f"  packets saying disconnected: {told}")
    counters = [f["counter"] for f in packets]
    print(f"\n  {before} pad-data packets over {duration:.2f} s before the unplug = {(before - 1) / duration:.0f} Hz; "
          f"slot state after the unplug {state_unplugged}, after the replug {state_back}; {after} packets after it")
    print("  server: " + " | ".join(output.strip().splitlines()[-4:]))
    check_whole_pad(pressed, "ds4-usb", uniq, connection=1, buttons=(0x10, 0x40, 0, 0), sticks=(200, 215, 30, 35),
                    analog={3: 255, 5: 255})
    assert all(b > a for a, b in zip(stamps, stamps[1:])), "motion timestamps not strictly increasing"
    assert all(b > a for a, b in zip(counters, counters[1:])), "packet counter not increasing"
    assert all(f["slot"] == 0 for f in packets)
    assert told == 1, "a streaming client was not told of the unplug once"
    assert state_unplugged == 0, "the slot did not report disconnected after the unplug"
    assert state_back == 2 and after > 100, "the slot did not stream again after the replug"

    # Every connected packet carries one of the value sets tiltkit record read from the same node.
    reference = {}
    for row in Trace(record.out).rows:
        a, g = dsu_from_core_motion(row)
        reference[tuple(round(v, 3) for v in a + g)] = (a, g)
    worst, seen = 0.0, set()
    for f in packets:
        if f["state"] != 2:
            continue
        got = f["accel"] + f["gyro"]
        best = min(reference, key=lambda k: max(abs(x - y) for x, y in zip(k, got)))
        seen.add(best)
        a, g = reference[best]
        worst = max(worst, max(abs(x - y) for x, y in zip(a + g, got)))
    for values in sorted(seen):
        print(f"    accel (g) {values[:3]}, gyro pitch/yaw/roll (°/s) {values[3:]}")
    print(f"  worst difference from tiltkit record's values, mapped to DSU: {worst:.2e} (float32)")
    assert len(seen) >= len(VALUES), f"only {len(seen)} distinct value sets reached the client"
    assert worst < 1e-3


def set_controls(pad, **controls):
    """Sticks (0…255, x right, y down), hat and buttons in the reports the pad sends from now on
    (as test_map.py sets them); `touch=[]` lifts every finger."""
    if controls.get("touch") == []:
        # hid-tools' create_report takes a touch list only when it is non-empty (`if touch:`).
        pad.store_touchpad_state([])
    pad.create_report(**controls)
    pad._template_key = None   # pads.RawSensorsMixin.send caches a report per motion values


def press_and_release(client, press, release, slot=0, seconds=0.5, within=15):
    """The slot's pad-data fields received after `press()` (held) and after `release()`: each phase
    until the controls in the packets change (at most `within` s: a loaded emulated CPU delays the
    pad's reports) and `seconds` more; the pad keeps streaming motion meanwhile."""
    phases = []
    # Every press and release here changes the buttons; a stick byte that wobbles is no change.
    controls = lambda f: f["buttons"]
    ours = lambda packets: [f for _, f in packets if f["slot"] == slot]
    for change in (press, release):
        before = next((controls(f) for f in reversed(ours(client.pad_data))), None)
        mark = len(client.pad_data)
        changed = time.monotonic()
        change()
        end = changed + within
        while time.monotonic() < end and all(controls(f) == before for f in ours(client.pad_data[mark:])):
            client.stream(0.1)
        print(f"  slot {slot}: the change reached the client after {time.monotonic() - changed:.2f} s")
        client.stream(seconds)
        phases.append(ours(client.pad_data[mark:]))
    return phases


def check_whole_pad(phases, name, uniq, connection, buttons, sticks, analog, touches=(), centre=(128, 127, 128, 127)):
    """The held phase ends in exactly `buttons`, `sticks`, `analog` ({index: value}, the rest 0) and
    `touches` ((x, y) each, ids the kernel's); the released phase ends neutral: no button, no touch,
    sticks at `centre` (a PlayStation pad's centre bytes: 128, 255 − 128)."""
    held, released = phases
    assert held and released, f"{name}: no pad data while the controls changed ({len(held)}, {len(released)} packets)"
    first = next((i for i, f in enumerate(held) if f["buttons"] == buttons), None)
    last = held[-1]
    print(f"  {name}: held buttons {[hex(b) for b in last['buttons']]} sticks {last['sticks']} analog {last['analog']} "
          f"from packet {first} of {len(held)}; released buttons {released[-1]['buttons']} sticks {released[-1]['sticks']}; "
          f"connection {last['connection']}, MAC {last['mac']} (pad {uniq}), battery {last['battery']:#x}")
    assert first is not None, f"{name}: the held buttons never arrived: {[f['buttons'] for f in held[-3:]]}"
    assert all(f["buttons"] == buttons and f["sticks"] == sticks for f in held[first:]), f"{name}: held controls not steady"
    want = tuple(analog.get(i, 0) for i in range(12))
    assert last["sticks"] == sticks and last["analog"] == want, (last["sticks"], last["analog"], want)
    assert released[-1]["buttons"] == (0, 0, 0, 0) and released[-1]["analog"] == (0,) * 12
    assert released[-1]["sticks"] == centre, released[-1]["sticks"]
    assert last["connection"] == connection, f"{name}: connection {last['connection']}"
    assert last["mac"] == uniq.lower(), f"{name}: MAC {last['mac']} is not the pad's {uniq}"
    assert last["battery"] != 0, f"{name}: no battery level from the pad's power supply"
    got = [(x, y) for active, _, x, y in last["touches"] if active]
    print(f"  {name}: touches held {last['touches']}, released {released[-1]['touches']}")
    assert got == list(touches), f"{name}: touches {last['touches']}, expected {touches}"
    if len(touches) == 2:
        assert last["touches"][0][1] != last["touches"][1][1], "two touches with one id"
    assert not any(active for active, *_ in released[-1]["touches"]), \
        f"{name}: the touches stayed down after the model lifted them: {released[-1]['touches']}"


# hid-nintendo's button bits in report bytes 3..5 (hid-nintendo.c JC_BTN_*).
JC_BTN_B, JC_BTN_R, JC_BTN_ZR, JC_BTN_PLUS, JC_BTN_HOME, JC_BTN_RIGHT = 1 << 2, 1 << 6, 1 << 7, 1 << 9, 1 << 12, 1 << 18
# The model's stick calibration: centre 2048, 1500 counts of travel each way (models/switch_pro.py).
SW_CENTRE, SW_TRAVEL = 2048, 1500


def start_dualsense_bluetooth():
    """The pad, its hidraw node, and the controls held then released (test_map's set_controls)."""
    pad, hidraw, _ = create(pads.DualSenseBluetooth)
    streaming = pads.Streamer(pad, [VALUES[0]])
    # Cross and R1 held, d-pad right, left stick full left, right stick full right and up; two
    # fingers on the touchpad.
    press = dict(buttons={CROSS: True, R1: True}, hat_switch=2, left=(0, 128), right=(255, 0),
                 touch=[PSTouchPoint(1, 500, 300), PSTouchPoint(2, 1500, 1000)])
    release = dict(buttons={CROSS: False, R1: False}, hat_switch=8, left=(128, 128), right=(128, 128), touch=[])
    return pad, hidraw, lambda: streaming.stop(), (lambda: set_controls(pad, **press), lambda: set_controls(pad, **release))


def start_switch_pro():
    """A Switch Pro Controller over USB through hid-nintendo (its own thread streams motion)."""
    from models.switch_pro import SwitchProController
    from test_switch import VALUES as SW_VALUES, hidraw_of
    import evdev_reader as ev
    import nodes
    pad = SwitchProController(bus="usb")
    pad.uniq = ":".join(f"{b:02x}" for b in pad.mac)   # HID_UNIQ, where serve dsu takes the pad's address
    pad.set_motion(*SW_VALUES[0])
    pad.start_device()
    hidraw = nodes.wait_for(lambda: hidraw_of(pad), 30)
    assert hidraw and nodes.wait_for(pad.main_event_node, 30), "hid-nintendo made no hidraw or gamepad node"

    def press():
        # B (south), R, ZR (no analog travel), + and HOME held, d-pad right; left stick full left,
        # right stick full right and up (the Switch's y is up-positive).
        pad.buttons = JC_BTN_B | JC_BTN_R | JC_BTN_ZR | JC_BTN_PLUS | JC_BTN_HOME | JC_BTN_RIGHT
        pad.sticks = ((SW_CENTRE - SW_TRAVEL, SW_CENTRE), (SW_CENTRE + SW_TRAVEL, SW_CENTRE + SW_TRAVEL))
        # What hid-nintendo made of it on the gamepad node (printed: where a press is lost, this says
        # whether the kernel had it).
        node = pad.main_event_node()
        held = nodes.wait_for(lambda: sorted(hex(k) for k in ev.keys_held(node)) or None, 10, 0.05)
        print(f"  {node}: keys held {held}, hat x {ev.axis(node, ev.ABS_HAT0X)[0]}, "
              f"left x {ev.axis(node, ev.ABS_X)[0]}, right y {ev.axis(node, ev.ABS_RY)[0]}")

    def release():
        pad.buttons = 0
        pad.sticks = ((SW_CENTRE, SW_CENTRE), (SW_CENTRE, SW_CENTRE))
    return pad, hidraw, lambda: None, (press, release)


# Per pad: how it starts, and what DSU must carry while held: the two bitmasks, PS and touch click
# (options 0x08, d-pad right 0x20 | R2 0x02, R1 0x08, cross 0x40 | PS), the sticks, the analog
# bytes ({index: value}: d-pad right 2, cross 5, R1 8, R2 10), the touches, the sticks at rest and
# the connection (1 USB, 2 Bluetooth). A DualSense's resting byte 128 is just below centre in y
# (255 − 128); hid-nintendo's calibrated centre is 0, DSU's 128.
WHOLE_PADS = {
    "dualsense-bt": (start_dualsense_bluetooth, dict(connection=2, buttons=(0x20, 0x48, 0, 0), sticks=(0, 127, 255, 255),
                                                     analog={2: 255, 5: 255, 8: 255}, touches=[(500, 300), (1500, 1000)])),
    "switch-pro-usb": (start_switch_pro, dict(connection=1, buttons=(0x28, 0x4A, 1, 0), sticks=(0, 128, 255, 255),
                                              analog={2: 255, 5: 255, 8: 255, 10: 255}, centre=(128, 128, 128, 128))),
}


def test_buttons_and_sticks_into_serve_dsu():
    """Every pad of WHOLE_PADS in a slot of its own of one serve dsu (one server start for all:
    the kernel suite's time), each pressed and released in turn."""
    started, phases = [], {}
    server = None
    try:
        for kind, (start, _) in WHOLE_PADS.items():
            started.append((kind, *start()))
        sources = [arg for _, _, hidraw, _, _ in started for arg in ("--source", f"hidraw:{hidraw}")]
        server = subprocess.Popen([BINARY, "serve", "dsu", *sources, "--port", str(PORT), "--status-interval", "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        client = Client(slots=tuple(range(len(started))))
        begun = time.monotonic()
        assert client.wait_for_data(90), f"no pad data from serve dsu for every slot: {sorted({f['slot'] for _, f in client.pad_data})}"
        print(f"\n  first pad data on every slot {time.monotonic() - begun:.1f} s after serve dsu started")
        for slot, (kind, _, _, _, (press, release)) in enumerate(started):
            phases[kind] = press_and_release(client, press, release, slot=slot)
    finally:
        for _, pad, _, stop_streaming, _ in started:
            stop_streaming()
        output = ""
        if server:
            server.terminate()
            output = server.communicate(timeout=30)[0]
        for _, pad, _, _, _ in started:
            pad.destroy()
    assert output.count("buttons and sticks from /dev/input/event") == len(started), output
    for kind, pad, _, _, _ in started:
        check_whole_pad(phases[kind], kind, pad.uniq, **WHOLE_PADS[kind][1])
