# SPDX-License-Identifier: MIT
"""Virtual Valve pads on uhid: the Steam Deck's controls (28de:1205) and the wired Steam
Controller (28de:1102), written from public sources, not from tiltkit's code.

Protocol facts, and where they come from:
  * Input reports: 64 bytes, no report ID: u16 version 1, u8 message type, u8 payload length, then
    the payload (SDL src/joystick/hidapi/steam/controller_structs.h ValveInReport_t; the kernel's
    drivers/hid/hid-steam.c steam_raw_event). Deck state is type 9 (SteamDeckStatePacket_t: packet
    number at 4, accel x/y/z s16 at 24, gyro x/y/z at 30); Steam Controller state is type 1
    (ValveControllerStatePacket_t: packet number at 4, accel at 28, gyro at 34).
  * Feature reports: 64 bytes, no report ID (65 with the leading 0): message id, payload length,
    payload (FeatureReportMsg). A request is answered by the next GET_REPORT (SDL ReadResponse;
    hid-steam steam_recv_report strips the leading report-ID byte).
      0x83 GET_ATTRIBUTES_VALUES -> (tag u8, value u32 LE) pairs; tag 11 = connection interval in µs
      0x87 SET_SETTINGS_VALUES   -> (setting u8, value u16 LE) triplets; setting 0x30 = IMU mode,
                                    bits 0x08 raw accelerometer, 0x10 raw gyro
      0xAE GET_STRING_ATTRIBUTE  -> hid-steam's serial request (ae 15 01) answered ae 15 01 + serial
  * The Steam Controller sends no IMU data until the IMU mode asks for it (hid-steam's comment:
    "accelerator/gyro is disabled by default"); the Deck sends it by default, and reads zero when
    Steam switched it off (SteamDeckGyroDSU's reports).
  * Rates: the Deck sends a report every ~4 ms (SDL's Steam Deck driver, hid-steam's Deck IMU); the
    Controller's interval is what its attributes say.
  * Buttons: a u32 LE at 8 of either state report (controller_structs.h ulButtons; SDL's
    STEAMDECK_LBUTTON_* and the Steam Controller's masks agree on the low bits: A 0x80, B 0x20,
    X 0x40, Y 0x10).
  * The controller is USB interface 2 (SDL IsSupportedDevice), the phys says /input2.
"""
import struct
import time

from hidtools.uhid import BusType

from threaded_uhid import ThreadedUHIDDevice

VID_VALVE = 0x28DE
PID_DECK = 0x1205
PID_CONTROLLER = 0x1102

REPORT_LEN = 64
FEATURE_LEN = 65
IMU_MODE = 0x30
RAW_ACCEL, RAW_GYRO = 0x08, 0x10
CONNECTION_INTERVAL = 11

# A vendor collection with one 64-byte input, output and feature report and no report IDs: hid-steam
# tells the controller interface by its feature report (steam_is_valve_interface).
RDESC = [0x06, 0x00, 0xFF, 0x09, 0x01, 0xA1, 0x01, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08,
         0x95, 0x40, 0x09, 0x01, 0x81, 0x02,
         0x95, 0x40, 0x09, 0x01, 0x91, 0x02,
         0x95, 0x40, 0x09, 0x01, 0xB1, 0x02, 0xC0]


def _s16(v):
    return max(-32768, min(32767, int(round(v))))


class SteamPad(ThreadedUHIDDevice):
    """kind 'deck' or 'controller'. set_motion(accel_counts, gyro_counts) sets the raw IMU fields;
    imu_off (Deck) zeroes them as Steam does; interval_us is the report interval the Controller
    reports in its attributes and streams at."""

    def __init__(self, kind, interval_us=4000, serial="KTSTEAM001"):
        super().__init__()
        self.kind = kind
        deck = kind == "deck"
        self.name = "Valve Software Steam Deck Controller" if deck else "Valve Software Steam Controller"
        self.info = (BusType.USB, VID_VALVE, PID_DECK if deck else PID_CONTROLLER)
        self.phys = "usb-kmodel-steam/input2"
        self.rdesc = RDESC
        self.serial = serial.encode()[:10].ljust(10, b"\0")
        self.interval_us = interval_us
        self.imu_mode = RAW_ACCEL | RAW_GYRO if deck else 0
        self.imu_off = False
        self.packet = 0
        self.reports_sent = 0
        self.sent_at = []
        self.sent_gyro = []       # the gyro counts each report carried, beside sent_at
        self.buttons = 0
        self.settings = []        # (setting, value) pairs received
        self.commands = []        # message ids received
        self._reply = bytes(FEATURE_LEN)
        self._accel, self._gyro = (0, 0, 16384), (0, 0, 0)
        # Answered from creation on: hid-steam asks for the serial during its probe.
        self._ready = True

    def set_motion(self, accel, gyro):
        with self._mlock:
            self._accel = tuple(_s16(v) for v in accel)
            self._gyro = tuple(_s16(v) for v in gyro)

    # ----- reports ------------------------------------------------------------
    def _state(self):
        r = bytearray(REPORT_LEN)
        deck = self.kind == "deck"
        struct.pack_into("<HBB", r, 0, 1, 0x09 if deck else 0x01, 0x40 if deck else 0x3C)
        struct.pack_into("<II", r, 4, self.packet & 0xFFFFFFFF, self.buttons)
        with self._mlock:
            accel, gyro = self._accel, self._gyro
        if self.imu_off:
            accel = gyro = (0, 0, 0)
        a, g = (24, 30) if deck else (28, 34)
        if self.imu_mode & RAW_ACCEL:
            struct.pack_into("<3h", r, a, *accel)
        if self.imu_mode & RAW_GYRO:
            struct.pack_into("<3h", r, g, *gyro)
        return bytes(r)

    def _stream_loop(self):
        nxt = time.monotonic()
        while not self._quit.is_set():
            nxt += self.interval_us / 1e6
            try:
                report = self._state()
                self.call_input_event(report)
            except OSError:
                return
            self.packet += 1
            self.reports_sent += 1
            self.sent_at.append(time.monotonic())
            self.sent_gyro.append(struct.unpack_from("<3h", report, 30 if self.kind == "deck" else 34))
            delay = nxt - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:
                nxt = time.monotonic()     # fell behind (slow VM): do not burst

    # ----- feature reports ------------------------------------------------------
    def set_report(self, req, rnum, rtype, data):
        msg = bytes(data[1:]) if data and data[0] == 0 else bytes(data)
        if not msg:
            return 0
        cmd, length = msg[0], (msg[1] if len(msg) > 1 else 0)
        self.commands.append(cmd)
        body = msg[2:2 + length]
        if cmd == 0x87:
            for i in range(0, len(body) - 2, 3):
                setting, value = body[i], body[i + 1] | body[i + 2] << 8
                self.settings.append((setting, value))
                if setting == IMU_MODE:
                    self.imu_mode = value
        elif cmd == 0x83:
            attrs = struct.pack("<BI", 1, self.info[2]) + struct.pack("<BI", CONNECTION_INTERVAL, self.interval_us)
            self._reply = (bytes([0, 0x83, len(attrs)]) + attrs).ljust(FEATURE_LEN, b"\0")
        elif cmd == 0xAE:
            self._reply = (bytes([0, 0xAE, 0x15, 0x01]) + self.serial).ljust(FEATURE_LEN, b"\0")
        return 0

    def get_report(self, req, rnum, rtype):
        reply, self._reply = self._reply, bytes(FEATURE_LEN)
        return 0, list(reply)
