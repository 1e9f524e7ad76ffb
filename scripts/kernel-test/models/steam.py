# SPDX-License-Identifier: MIT
"""Virtual Valve pads on uhid: the Steam Deck's controls (28de:1205), the wired Steam Controller
(28de:1102) and the Steam Controller's wireless adapter (28de:1142), written from public sources,
not from tiltkit's code.

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
  * The wireless adapter (hid-steam.c steam_is_valve_interface; rodrigorc/inputmap STEAM.md): USB
    interface 0 emulates a keyboard, interfaces 1-4 are slots for up to four controllers, each with
    the controller's vendor collection; hid-steam tells the slots by their feature report. A slot
    sends the wired controller's state reports (type 1, same layout: SDL's HIDAPI Steam driver reads
    both through ValveControllerStatePacket_t) only while a controller is connected, and a wireless
    event when one connects or leaves: type 3 (hid-steam STEAM_EV_CONNECT, SDL
    ID_CONTROLLER_WIRELESS), payload byte 0x02 connected, 0x01 disconnected. Feature message 0xB4
    (hid-steam STEAM_CMD_REQUEST_COMM_STATUS, sent at its probe) asks the adapter to post that event
    for the present state. A controller that connects starts with its IMU off, as at power-on.
"""
import struct
import time

from hidtools.uhid import BusType

from threaded_uhid import ThreadedUHIDDevice

VID_VALVE = 0x28DE
PID_DECK = 0x1205
PID_CONTROLLER = 0x1102
PID_DONGLE = 0x1142
PIDS = {"deck": PID_DECK, "controller": PID_CONTROLLER, "dongle": PID_DONGLE}

REPORT_LEN = 64
FEATURE_LEN = 65
IMU_MODE = 0x30
RAW_ACCEL, RAW_GYRO = 0x08, 0x10
CONNECTION_INTERVAL = 11
REQUEST_COMM_STATUS = 0xB4
WIRELESS_EVENT = 0x03
WIRELESS_DISCONNECTED, WIRELESS_CONNECTED = 0x01, 0x02

# A vendor collection with one 64-byte input, output and feature report and no report IDs: hid-steam
# tells the controller interface by its feature report (steam_is_valve_interface).
RDESC = [0x06, 0x00, 0xFF, 0x09, 0x01, 0xA1, 0x01, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08,
         0x95, 0x40, 0x09, 0x01, 0x81, 0x02,
         0x95, 0x40, 0x09, 0x01, 0x91, 0x02,
         0x95, 0x40, 0x09, 0x01, 0xB1, 0x02, 0xC0]


def _s16(v):
    return max(-32768, min(32767, int(round(v))))


class SteamPad(ThreadedUHIDDevice):
    """kind 'deck', 'controller' or 'dongle' (the adapter's first controller slot, interface 1).
    set_motion(accel_counts, gyro_counts) sets the raw IMU fields; imu_off (Deck) zeroes them as
    Steam does; interval_us is the report interval the Controller reports in its attributes and
    streams at. The dongle's controller comes and goes with disconnect() and connect()."""

    def __init__(self, kind, interval_us=4000, serial="KTSTEAM001"):
        super().__init__()
        self.kind = kind
        deck = kind == "deck"
        self.name = {"deck": "Valve Software Steam Deck Controller", "controller": "Valve Software Steam Controller",
                     "dongle": "Valve Software Wireless Steam Controller"}[kind]
        self.info = (BusType.USB, VID_VALVE, PIDS[kind])
        self.phys = "usb-kmodel-steam/input1" if kind == "dongle" else "usb-kmodel-steam/input2"
        self.rdesc = RDESC
        self.serial = serial.encode()[:10].ljust(10, b"\0")
        self.interval_us = interval_us
        self.imu_mode = RAW_ACCEL | RAW_GYRO if deck else 0
        self.imu_off = False
        self.connected = True     # the dongle's controller; wired pads always are
        self.events_sent = []     # (monotonic time, payload byte) of the wireless events sent
        self._pending_events = []
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

    def disconnect(self):
        """The dongle's controller is switched off: a disconnect event, then no state reports."""
        with self._mlock:
            self.connected = False
            self._pending_events.append(WIRELESS_DISCONNECTED)

    def connect(self):
        """The dongle's controller is switched on again: a connect event, its IMU off until asked."""
        with self._mlock:
            self.imu_mode = 0
            self.connected = True
            self._pending_events.append(WIRELESS_CONNECTED)

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

    def _wireless_event(self, status):
        r = bytearray(REPORT_LEN)
        struct.pack_into("<HBBB", r, 0, 1, WIRELESS_EVENT, 1, status)
        return bytes(r)

    def _stream_loop(self):
        nxt = time.monotonic()
        while not self._quit.is_set():
            nxt += self.interval_us / 1e6
            with self._mlock:
                events, self._pending_events = self._pending_events, []
                connected = self.connected
            try:
                for status in events:
                    self.call_input_event(self._wireless_event(status))
                    self.events_sent.append((time.monotonic(), status))
                report = self._state() if connected else None
                if report:
                    self.call_input_event(report)
            except OSError:
                return
            if not report:
                time.sleep(max(0, nxt - time.monotonic()))
                continue
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
        elif cmd == 0x83 and self.connected:
            attrs = struct.pack("<BI", 1, self.info[2]) + struct.pack("<BI", CONNECTION_INTERVAL, self.interval_us)
            self._reply = (bytes([0, 0x83, len(attrs)]) + attrs).ljust(FEATURE_LEN, b"\0")
        elif cmd == REQUEST_COMM_STATUS:
            # Posted from the stream thread: the kernel is waiting for this request's answer.
            with self._mlock:
                self._pending_events.append(WIRELESS_CONNECTED if self.connected else WIRELESS_DISCONNECTED)
        elif cmd == 0xAE:
            self._reply = (bytes([0, 0xAE, 0x15, 0x01]) + self.serial).ljust(FEATURE_LEN, b"\0")
        return 0

    def get_report(self, req, rnum, rtype):
        reply, self._reply = self._reply, bytes(FEATURE_LEN)
        return 0, list(reply)


# A boot keyboard's report descriptor (USB HID 1.11, Appendix B.1): the adapter's interface 0, which
# the controller's lizard mode types Enter, Escape and the arrows on.
KEYBOARD_RDESC = [0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00,
                  0x25, 0x01, 0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01,
                  0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65,
                  0x81, 0x00, 0xC0]


class SteamDongleKeyboard(ThreadedUHIDDevice):
    """The wireless adapter's interface 0: a keyboard with the adapter's ids and no feature report,
    which hid-steam hands to the generic HID input path. It sends nothing here."""

    def __init__(self):
        super().__init__()
        self.name = "Valve Software Wireless Steam Controller"
        self.info = (BusType.USB, VID_VALVE, PID_DONGLE)
        self.phys = "usb-kmodel-steam/input0"
        self.rdesc = KEYBOARD_RDESC
        self._ready = True

    def _stream_loop(self):
        return
