"""A DualShock 4 through the kernel's hid-sony into `tiltkit serve dsu`, and out over loopback to a
DSU client written here from the protocol (cemuhook's, as Dolphin's DualShockUDPProto.h lays it out),
not from tiltkit's code: every packet's CRC, the slot, the values, the timestamps, unplug and replug.

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
from test_playstation import VALUES, create
from tiltkit import BINARY, Recording, Trace

PORT = 26761
PAD_DATA, PORT_INFO = 0x100002, 0x100001


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
    return kind, fields


class Client:
    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(0.2)
        self.pad_data = []

    def subscribe(self):
        # flags 1: by slot; slot 0; no MAC
        self.sock.sendto(request(PAD_DATA, bytes([1, 0]) + bytes(6)), ("127.0.0.1", PORT))

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
