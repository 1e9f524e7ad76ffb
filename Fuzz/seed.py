#!/usr/bin/env python3
"""Writes each fuzz target's seed corpus from Assets/ and the test fixtures into OUT/NAME/.
Seeds are cut to a few KB so the fuzzer mutates structure, not megabytes of numbers."""
import glob, os, re, struct, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
out = sys.argv[1]
LIMIT = 4096


def put(target, name, data):
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def head(path, limit=LIMIT):
    with open(path, "rb") as f:
        data = f.read(limit)
    return data[: data.rfind(b"\n") + 1] if len(data) == limit else data


# Traces: every recording and fixture CSV, whole lines only.
csvs = glob.glob(f"{root}/Assets/traces/**/*.csv", recursive=True) + glob.glob(f"{root}/Tests/MotionTests/Fixtures/**/*.csv", recursive=True)
for path in csvs:
    put("trace", os.path.relpath(path, root).replace("/", "_"), head(path))

# Gamepad reports: the hid-recorder file's E: lines and the generated Sony reports, as
# [pad index][length][report]… (pad index as in GamepadDevice.hints sorted by key).
reports = []
for line in open(f"{root}/Assets/hid/ds4-usb-clone.hid-recording"):
    if line.startswith("E:"):
        fields = line.split()[3:]
        reports.append(("ds4-usb", bytes(int(x, 16) for x in fields)))
for line in open(f"{root}/Tests/MotionDevicesTests/Fixtures/sony_generated.txt"):
    fields = line.split()
    if fields and fields[0] in ("feature", "report"):
        reports.append((fields[1], bytes.fromhex(fields[-1])))
model = open(f"{root}/Sources/MotionDevices/GamepadModel.swift").read()
hints = sorted(set(re.findall(r'"([a-z0-9-]+)": GamepadDevice\(', model)))
for device in sorted({d for d, _ in reports} & set(hints)):
    mine = [r for d, r in reports if d == device][:8]
    data = bytes([hints.index(device)]) + b"".join(bytes([min(len(r), 255)]) + r[:255] for r in mine)
    put("hid", device, data)

# hid-recorder text: the recording's first lines.
put("hidrecording", "ds4-usb-clone", head(f"{root}/Assets/hid/ds4-usb-clone.hid-recording"))

# evdev: a gyro and accelerometer burst (EV_ABS x/y/z, rx/ry/rz, MSC_TIMESTAMP, SYN_REPORT).
def event(sec, usec, type_, code, value):
    return struct.pack("<qqHHi", sec, usec, type_, code, value)
burst = b"".join(event(1, 1000 * i, 3, code, 100 * (code + 1)) for i in range(3) for code in (0, 1, 2, 3, 4, 5))
burst += event(1, 4000, 4, 5, 4000) + event(1, 4000, 0, 0, 0)
put("evdev", "playstation", b"\x00" + burst)
put("evdev", "nintendo-resolution", b"\x81" + struct.pack("<6i", 4096, 4096, 4096, 1024, 1024, 1024) + burst)

# DSU: the requests Cemu and Dolphin send, whole (the target decodes them as one packet), and a
# session of them, [sender][length][packet]… (version, port info, subscriptions by slot, MAC, all).
import zlib
def dsu(message_type, body, magic=b"DSUC"):
    packet = bytearray(magic + struct.pack("<HHII", 1001, 4 + len(body), 0, 0x1234) + struct.pack("<I", message_type) + body)
    packet[8:12] = struct.pack("<I", zlib.crc32(bytes(packet)) & 0xFFFFFFFF)
    return bytes(packet)
requests = [dsu(0x100000, b""), dsu(0x100001, struct.pack("<i", 4) + bytes([0, 1, 2, 3])),
            dsu(0x100002, bytes([1, 0]) + bytes(6)), dsu(0x100002, bytes([2, 0, 2, 0x54, 0x4B, 0, 0, 1])),
            dsu(0x100002, bytes(8))]
for i, r in enumerate(requests):
    put("dsu", f"request-{i}", r)
put("dsu", "session", b"".join(bytes([i % 3, len(r)]) + r for i, r in enumerate(requests * 2)))
put("dsu", "response-version", dsu(0x100000, struct.pack("<HH", 1001, 0), magic=b"DSUS"))

# IIO device description: the fake MPU-9250's attribute values, one a line in the target's order
# ("-" for an absent one), a blank line, one scan; and a HID sensor hub at rest.
mpu = ["mpu9250", "50", "0.000598", "0", "320", "-200", "17212", "0.001064724", "78", "1, 0, 0; 0, 1, 0; 0, 0, 1", "-",
       "12.5 26 52 104 208", "1", "0", "le:s16/16>>0", "1", "1", "le:s16/16>>0", "1", "2", "be:s12/16>>4", "1", "3", "le:s64/64>>0"]
put("iiodevice", "mpu9250", ("\n".join(mpu) + "\n\n").encode() + bytes(range(16)))
hub = ["accel_3d", "-", "0.009806650", "-", "981", "-250", "-1000", "-", "-", "-", "0.000000", "-",
       "1", "0", "le:s32/32>>0", "1", "1", "le:s32/32>>0", "0", "-", "-", "1", "2", "le:s64/64>>0"]
# Big-endian shifted and repeated scan types (a count after X), packed as the kernel aligns them.
shifted = mpu[:12] + ["1", "0", "be:s12/16>>4", "1", "1", "le:u8/8X3>>0", "1", "2", "be:u16/16>>0", "0", "-", "-"]
put("iiodevice", "be-shift-repeat", ("\n".join(shifted) + "\n\n").encode() + bytes(range(8)))
put("iiodevice", "hub-at-rest", ("\n".join(hub) + "\n\n").encode() + bytes(range(16)))
# Accelerometer history files (AccelerometerHistoryFile's layout: TKHIST01, capacity, count, head as
# Int64, then t, x, y, z as Float64 per slot): empty, part-full, full and wrapped, and a damaged one.
def history(capacity, readings, head=0):
    slots = [(0.0, 0.0, 0.0, 0.0)] * capacity
    for i, r in enumerate(readings):
        slots[(head + i) % capacity] = r
    data = struct.pack("<8sqqq", b"TKHIST01", capacity, len(readings), head)
    return data + b"".join(struct.pack("<4d", *s) for s in slots)
walk = [(0.01 * i, 0.1 * i, 0.0, -1.0) for i in range(40)]
put("history", "empty", history(8, []))
put("history", "part-full", history(64, walk[:20]))
put("history", "full-wrapped", history(40, walk, head=13))
put("history", "out-of-order", history(8, [(1.0, 0, 0, -1), (0.5, 0, 0, -1)]))
