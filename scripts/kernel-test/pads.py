"""Virtual PlayStation pads for the kernel tests.

hid-tools' DualShock 4 and DualSense models (the kernel HID maintainers' own, used by the kernel's
HID selftests) answer the drivers' feature-report requests. Two things are added here: the pad's
sensor clock runs (the stock models leave it at 0, so the kernel and Tiltkit see a clock that stands
still), and the sensors take raw counts, so a test knows exactly what the pad sent.
"""
import select
import struct
import threading
import time
import zlib

from hidtools.util import BusType

from hidtools.device import sony_gamepad as sony
from hidtools.uhid import UHIDDevice

import nodes


# Held while anything reads a uhid fd (see RawSensorsMixin.destroy).
UHID_LOCK = threading.Lock()


class Clock:
    """The pad's free-running sensor counter: `bits` wide, `tick` seconds per count, running in
    real time like a pad's crystal (so a report's stamp says when it was sent, however unevenly
    an emulated CPU sends them), or frozen."""

    def __init__(self, offset, bits, tick):
        self.offset, self.bits, self.tick = offset, bits, tick
        self.seconds = 0.0
        self.frozen = False
        self._last = None

    def advance(self):
        now = time.monotonic()
        if not self.frozen and self._last is not None:
            self.seconds += now - self._last
        self._last = now

    def write(self, report):
        ticks = int(round(self.seconds / self.tick)) % (1 << self.bits)
        fmt = "<H" if self.bits == 16 else "<I"
        report[self.offset:self.offset + struct.calcsize(fmt)] = struct.pack(fmt, ticks)


class RawSensorsMixin:
    """Sensor values as raw counts, and a running clock written into every report.

    Every model fills the battery byte after the IMU and before a Bluetooth CRC, so the clock is
    written there; the CRC then covers it.
    """

    def setup_clock(self, clock):
        self.clock = clock
        self.sent = []   # the pad's clock at each report sent
        self.sent_at = []   # time.monotonic() at each send, to pick the sends a stretch of samples came from

    def store_accelerometer_state(self, accel):
        for axis, value in zip("xyz", accel):
            if value is not None:
                setattr(self.accelerometer, f"_raw_{axis}", int(value))

    def store_gyroscope_state(self, gyro):
        for axis, value in zip("xyz", gyro):
            if value is not None:
                setattr(self.gyroscope, f"_raw_{axis}", int(value))

    def fill_battery_values(self, report):
        super().fill_battery_values(report)
        self.clock.write(report)

    def create_kernel_device(self):
        # hid-tools marks a device ready (and only then answers the driver's GET_REPORTs, and only
        # then sends UHID_DESTROY) when it sees the device's uevent within 10 ms of creating it; an
        # emulated CPU often misses that, and the driver's probe then fails after uhid's 5 s wait
        # ("Failed to retrieve DualSense pairing info"). Ready from creation on, then.
        self._ready = True
        super().create_kernel_device()
        if self._sys_path is None:
            nodes.adopt_sys_path(self, 10)

    def destroy(self):
        # hid-tools' destroy() drains the device's last events itself: never at the same time as
        # the dispatcher, or one of them blocks for good in read() on a drained fd.
        with UHID_LOCK:
            super().destroy()

    def send(self, accel, gyro):
        """One input report with these raw counts, stamped with the pad's clock.

        hid-tools builds a report through its descriptor parser, far too slow for 250 Hz under
        an emulated CPU, so a report is built once per set of values and only the clock (and the
        Bluetooth CRC over it) is written per send.
        """
        self.clock.advance()
        self.sent.append(self.clock.seconds)
        self.sent_at.append(time.monotonic())
        key = (tuple(accel), tuple(gyro))
        if getattr(self, "_template_key", None) != key:
            self._template = self.create_report(accel=accel, gyro=gyro)
            self._template_key = key
        report = bytearray(self._template)
        self.clock.write(report)
        if self.bus == BusType.BLUETOOTH:
            # Input reports end in CRC-32 over 0xA1 and bytes 0…73 (hid-playstation PS_INPUT_CRC32_SEED).
            crc = zlib.crc32(bytes(report[0:74]), zlib.crc32(bytes([0xA1])))
            report[74:78] = struct.pack("<I", crc)
        self.call_input_event(report)


# Sensor timestamp fields (offsets include the report ID): DualShock 4 u16 at 10 (USB) / 12 (BT),
# 16/3 µs per count; DualSense u32 at 28 (USB) / 29 (BT), 1/3 µs per count (hid-playstation).
class DS4USB(RawSensorsMixin, sony.PS4ControllerUSB):
    kind, rate = "ds4-usb", 250.0
    def __init__(self):
        super().__init__(); self.setup_clock(Clock(10, 16, 16e-6 / 3))


class DS4Bluetooth(RawSensorsMixin, sony.PS4ControllerBluetooth):
    """As a real DualShock 4 over Bluetooth, where hid-tools' model is not: report 0x11's byte 1
    is 0xC0 (HID data present, CRC present; SDL's HIDAPI driver drops 0x11 reports without 0x80
    there, src/joystick/hidapi/SDL_hidapi_ps4.c), and feature report 0x02 is answered (SDL reads it
    first, "this report switches them into advanced report mode", and ignores the calibration when
    it fails); its content is the 0x05 calibration in the USB order (plus and minus not interleaved)."""
    kind, rate = "ds4-bt", 250.0
    def __init__(self):
        super().__init__(); self.setup_clock(Clock(12, 16, 16e-6 / 3))

    def create_report(self, **kwargs):
        report = super().create_report(**kwargs)
        report[1] = 0xC0
        return report

    def get_report(self, req, rnum, rtype):
        if rnum != 0x02:
            return super().get_report(req, rnum, rtype)
        bt = super().get_report(req, 0x05, rtype)[1]
        # 0x05: bias ×3, pitch+ yaw+ roll+ pitch− yaw− roll−, then speeds and accel; 0x02: bias ×3,
        # pitch+ pitch− yaw+ yaw− roll+ roll−, the rest alike (Linux hid-playstation, dualshock4_get_calibration_data).
        pairs = [bt[i:i + 2] for i in range(7, 19, 2)]
        usb = [0x02] + bt[1:7] + sum((pairs[0], pairs[3], pairs[1], pairs[4], pairs[2], pairs[5]), []) + bt[19:37]
        return (0, usb)


class DualSenseUSB(RawSensorsMixin, sony.PS5ControllerUSB):
    kind, rate = "dualsense-usb", 250.0
    def __init__(self):
        super().__init__(); self.setup_clock(Clock(28, 32, 1e-6 / 3))


class DualSenseBluetooth(RawSensorsMixin, sony.PS5ControllerBluetooth):
    kind, rate = "dualsense-bt", 250.0
    def __init__(self):
        super().__init__(); self.setup_clock(Clock(29, 32, 1e-6 / 3))


MODELS = [DS4USB, DS4Bluetooth, DualSenseUSB, DualSenseBluetooth]


def send_paced(pad, sets, rate, running):
    """Sends reports at `rate` while `running()`, cycling through `sets` of (accel, gyro) every 100
    reports. Behind schedule (an emulated CPU) it restarts the schedule rather than burst to catch
    up, as a pad would."""
    start, n, sent = time.monotonic(), 0, 0
    while running():
        wait = start + n / rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        elif wait < -0.02:
            start, n = time.monotonic(), 0
        pad.send(*sets[(sent // 100) % len(sets)])
        n += 1
        sent += 1


def stream(pad, seconds, accel, gyro, rate=250.0):
    """Sends one value set at `rate` for `seconds` of wall time."""
    end = time.monotonic() + seconds
    send_paced(pad, [(accel, gyro)], rate, lambda: time.monotonic() < end)


class Streamer:
    """Keeps a pad sending `sets` (cycled) on a thread of its own until stopped."""

    def __init__(self, pad, sets, rate=250.0):
        self.done = threading.Event()
        self.thread = threading.Thread(target=send_paced, args=(pad, sets, rate, lambda: not self.done.is_set()),
                                       daemon=True)
        self.thread.start()

    def stop(self):
        self.done.set()
        self.thread.join()


class Dispatcher:
    """Answers the kernel's requests (feature reports, output reports) on a thread of its own."""

    def __init__(self):
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        # hid-tools' own dispatch() loops while any fd is ready, and a hung-up fd stays "ready"
        # forever: poll here and act on POLLIN only.
        while self.running:
            try:
                handled = False
                with UHID_LOCK:
                    # The Switch and sensor-hub models answer on threads of their own.
                    mine = {d._fd: d for d in UHIDDevice._devices if isinstance(d, RawSensorsMixin)}
                    if mine:
                        poll = select.poll()
                        for fd in mine:
                            poll.register(fd, select.POLLIN)
                        for fd, mask in poll.poll(0):
                            if mask & select.POLLIN:
                                mine[fd]._process_one_event()
                                handled = True
                if not handled:
                    time.sleep(0.003)
            except Exception as error:  # noqa: BLE001 - a dead dispatcher would stall every later probe
                print(f"kernel-test: dispatcher: {error!r}", flush=True)
                time.sleep(0.01)

    def stop(self):
        self.running = False
        self.thread.join(timeout=1)   # dispatch() can spin on a hung-up fd; the thread is a daemon
