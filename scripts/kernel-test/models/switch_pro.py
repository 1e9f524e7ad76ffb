# SPDX-License-Identifier: MIT
"""Virtual Nintendo Switch Pro Controller (057e:2009) on uhid, for hid-nintendo.

The model answers what the kernel's hid-nintendo driver (Linux 6.1,
drivers/hid/hid-nintendo.c) asks during probe and then streams 0x30 full
input reports carrying three IMU samples each, so the kernel creates
"Nintendo Switch Pro Controller IMU" from *our* SPI calibration.

Protocol facts used here, and where they come from:
  * output 0x80 <cmd>: USB commands; the device answers input 0x81 <cmd>
    for 0x01/0x02/0x03 and stays silent for 0x04 (no-timeout)
    (hid-nintendo.c joycon_init/joycon_send_usb; dekuNukem
    Nintendo_Switch_Reverse_Engineering USB-HID-Notes.md).
  * output 0x01 [counter, 8 rumble bytes, subcmd, args]: subcommands; reply is
    input 0x21 with the standard 13-byte header, ack at byte 13, subcmd id at
    byte 14, data from byte 15 (struct joycon_input_report/subcmd_reply).
    The driver only accepts replies >= 49 bytes (sizeof joycon_input_report).
  * 0x02 device info: data[2] controller type (3 = Pro), data[4..9] MAC.
  * 0x10 SPI read: args u32 LE address + u8 length; reply echoes address and
    length (bytes 15..19), data from byte 20 (driver reads subcmd_reply.data[5]).
  * SPI layout (dekuNukem spi_flash_notes.md; hid-nintendo JC_CAL_* macros):
    0x603D/0x6046 factory stick cal (9 bytes each, left and right use
    different field orders), 0x8010/0x801B user stick magic (0xB2 0xA1),
    0x6020 factory IMU cal (24 bytes: accel origin xyz, accel scale xyz,
    gyro origin xyz, gyro scale xyz, s16 LE), 0x8026 user IMU magic,
    0x8028 user IMU cal (same 24-byte layout).
  * 0x30 report: byte 1 timer, byte 2 battery/connection, 3..5 buttons,
    6..8/9..11 sticks (2 x 12 bit), 12 vibrator, 13..48 three samples of
    accel xyz + gyro xyz, s16 LE (joycon_input_report_parse_imu_data).

Kernel conversion (joycon_parse_imu_report), which set_motion_physical()
inverts so a harness can speak in g and deg/s:
    evdev ABS_X/Y/Z   = raw_acc * acc_scale / (acc_scale - acc_offset)
                        (resolution 4096 per g; accel offset NOT subtracted)
    evdev ABS_RX/RY/RZ = 1000 * (raw_gyro - gyro_offset) * gyro_scale /
                        (gyro_scale - gyro_offset)   (resolution 14247 per dps)
"""

import struct
import time

from hidtools.uhid import BusType

from threaded_uhid import ThreadedUHIDDevice

VID_NINTENDO = 0x057E
PID_PROCON = 0x2009

# Reply sizes: USB interrupt IN packets are 64 bytes; Bluetooth input reports
# are 49 bytes (INPUT_FACTS.md section 4; hid-nintendo requires >= 49).
USB_REPORT_LEN = 64
BT_REPORT_LEN = 49

ACCEL_RES_PER_G = 4096          # hid-nintendo JC_IMU_ACCEL_RES_PER_G
GYRO_RES_PER_DPS = 14247        # hid-nintendo JC_IMU_GYRO_RES_PER_DPS (x1000)
GYRO_PREC = 1000                # hid-nintendo JC_IMU_PREC_RANGE_SCALE

USER_CAL_MAGIC = bytes([0xB2, 0xA1])


def _rdesc(payload):
    """Vendor-defined report descriptor declaring the report ids the driver
    uses. hid-core drops input reports whose id is not declared, and
    hid-nintendo only claims HIDRAW, so the exact usages do not matter."""
    d = [0x05, 0x01, 0x09, 0x05, 0xA1, 0x01,        # Generic Desktop, Gamepad, App
         0x06, 0x00, 0xFF,                          # Usage Page (Vendor 0xFF00)
         0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08]  # 0..255, 8 bits
    for rid in (0x30, 0x21, 0x81, 0x3F, 0x31):      # inputs
        d += [0x85, rid, 0x09, rid, 0x95, payload, 0x81, 0x02]
    for rid in (0x01, 0x10, 0x80, 0x82):            # outputs
        d += [0x85, rid, 0x09, rid, 0x95, payload, 0x91, 0x02]
    d += [0xC0]
    return d


def _pack12(a, b):
    """Two 12-bit values in three bytes, as the sticks and stick cal use."""
    return bytes([a & 0xFF, ((a >> 8) & 0x0F) | ((b & 0x0F) << 4), (b >> 4) & 0xFF])


def _s16(v):
    v = int(round(v))
    return max(-32768, min(32767, v))


class SwitchProController(ThreadedUHIDDevice):
    """uhid Pro Controller.

    Constructor:
      bus          'usb' (default; answers the 0x80 handshake) or 'bluetooth'
                   (ignores 0x80, like a BT pad; the driver then waits ~2 s
                   for the failed handshake before going on).
      rate_hz      0x30 report rate once full-report mode is on (default
                   66.67 = 15 ms, the USB Pro rate per hid-nintendo comments).
      imu_cal      factory IMU calibration at 0x6020: dict with keys
                   accel_offset, accel_scale, gyro_offset, gyro_scale (3-tuples).
      user_imu_cal same layout, written at 0x8028 with the magic at 0x8026
                   (the driver then prefers it); None = no user calibration.
      mac          6-byte MAC returned by device info (becomes evdev uniq).
      timer_step   increment of the byte-1 timer per report.
    Call start_device() after construction (start() is the uhid callback);
    destroy() when done.
    """

    PRODUCT_ID = PID_PROCON
    # Device info (subcommand 0x02) data[2]: 1 Joy-Con (L), 2 Joy-Con (R), 3 Pro Controller
    # (hid-nintendo.c enum joycon_ctlr_type; the driver takes the pad's side from it).
    CONTROLLER_TYPE = 0x03

    DEFAULT_CAL = dict(accel_offset=(0, 0, 0), accel_scale=(16384, 16384, 16384),
                       gyro_offset=(0, 0, 0), gyro_scale=(13371, 13371, 13371))

    def __init__(self, bus='usb', rate_hz=1000.0 / 15, imu_cal=None,
                 user_imu_cal=None, mac=b'\x98\xb6\xe9\x12\x34\x56',
                 timer_step=1, name='Nintendo Co., Ltd. Pro Controller'):
        super().__init__()
        self.is_usb = (bus == 'usb')
        self.report_len = USB_REPORT_LEN if self.is_usb else BT_REPORT_LEN
        self.name = name
        self.info = (BusType.USB if self.is_usb else BusType.BLUETOOTH,
                     VID_NINTENDO, self.PRODUCT_ID)
        self.phys = 'usb-kmodel/input0' if self.is_usb else '00:11:22:33:44:55'
        self.rdesc = _rdesc(self.report_len - 1)
        self.mac = bytes(mac)
        self.imu_cal = dict(self.DEFAULT_CAL, **(imu_cal or {}))
        self.user_imu_cal = (dict(self.DEFAULT_CAL, **user_imu_cal)
                             if user_imu_cal is not None else None)
        self.rate_hz = float(rate_hz)
        self.timer = 0
        self.timer_step = timer_step
        self.timer_frozen = False
        self.streaming_paused = False
        # state the driver drives
        self.report_mode = None       # set by subcmd 0x03
        self.imu_enabled = False      # subcmd 0x40
        self.imu_sensitivity = None   # subcmd 0x41 args
        self.player_lights = None     # subcmd 0x30
        self.home_light = None        # subcmd 0x38
        self.vibration = None         # subcmd 0x48
        self.log = []                 # (kind, id, args) for every command received
        self.reports_sent = 0
        self.buttons = 0              # 24 bits, report bytes 3..5 (hid-nintendo JC_BTN_*)
        self.sticks = ((2048, 2048), (2048, 2048))   # left, right (x, y up), 12 bits; the cal's centre
        self._samples = [((0, 0, ACCEL_RES_PER_G), (0, 0, 0))] * 3
        self.spi = self._build_spi()

    # ----- SPI flash image -------------------------------------------------
    def _build_spi(self):
        spi = bytearray(b'\xff' * 0x10000)   # erased flash reads 0xFF

        def imu_block(c):
            return struct.pack('<12h', *c['accel_offset'], *c['accel_scale'],
                               *c['gyro_offset'], *c['gyro_scale'])
        spi[0x6020:0x6038] = imu_block(self.imu_cal)
        # Factory stick cal: centre 2048, +-1500 travel; left is
        # (max-above, centre, min-below), right is (centre, min-below, max-above)
        # (hid-nintendo joycon_read_stick_calibration).
        above = below = 1500
        centre = 2048
        spi[0x603D:0x6046] = _pack12(above, above) + _pack12(centre, centre) + _pack12(below, below)
        spi[0x6046:0x604F] = _pack12(centre, centre) + _pack12(below, below) + _pack12(above, above)
        # Colours (body, buttons) - not read by the driver, present on real pads.
        spi[0x6050:0x6056] = bytes([0x32, 0x32, 0x32, 0xFF, 0xFF, 0xFF])
        # 6-axis horizontal offsets (dekuNukem: Pro X -688, Z 4038).
        spi[0x6080:0x6086] = struct.pack('<3h', -688, 0, 4038)
        if self.user_imu_cal is not None:
            spi[0x8026:0x8028] = USER_CAL_MAGIC
            spi[0x8028:0x8040] = imu_block(self.user_imu_cal)
        return spi

    @property
    def active_cal(self):
        """The calibration the driver will use (user if its magic is set)."""
        return self.user_imu_cal if self.user_imu_cal is not None else self.imu_cal

    # ----- motion API --------------------------------------------------------
    def set_motion(self, accel_counts, gyro_counts):
        """Raw s16 counts (sensor frame), same for all three samples."""
        s = (tuple(_s16(v) for v in accel_counts), tuple(_s16(v) for v in gyro_counts))
        with self._mlock:
            self._samples = [s, s, s]

    def set_samples(self, samples):
        """Three (accel_counts, gyro_counts) pairs, sample 0 first in the report."""
        assert len(samples) == 3
        with self._mlock:
            self._samples = [(tuple(_s16(v) for v in a), tuple(_s16(v) for v in g))
                             for a, g in samples]

    def counts_for(self, accel_g, gyro_dps):
        """Raw counts that make hid-nintendo report accel_g (g) and gyro_dps
        (deg/s) given the active calibration (inverse of the kernel formula)."""
        c = self.active_cal
        acc = tuple(g * ACCEL_RES_PER_G * (c['accel_scale'][i] - c['accel_offset'][i]) / c['accel_scale'][i]
                    for i, g in enumerate(accel_g))
        gyr = tuple(d * GYRO_RES_PER_DPS / GYRO_PREC * (c['gyro_scale'][i] - c['gyro_offset'][i]) / c['gyro_scale'][i]
                    + c['gyro_offset'][i] for i, d in enumerate(gyro_dps))
        return acc, gyr

    def set_motion_physical(self, accel_g, gyro_dps):
        self.set_motion(*self.counts_for(accel_g, gyro_dps))

    def expected_evdev(self, accel_counts, gyro_counts):
        """What hid-nintendo 6.1 computes from raw counts (C integer maths:
        mult_frac for gyro, truncating division)."""
        c = self.active_cal

        def tdiv(a, b):            # C division truncates toward zero
            q = abs(a) // abs(b)
            return q if (a >= 0) == (b >= 0) else -q

        def mult_frac(x, n, d):    # include/linux/math.h
            q, r = tdiv(x, d), x - tdiv(x, d) * d
            return q * n + tdiv(r * n, d)
        acc = tuple(tdiv(int(accel_counts[i]) * c['accel_scale'][i],
                         (c['accel_scale'][i] - c['accel_offset'][i]) or 1) for i in range(3))
        gyr = tuple(mult_frac(GYRO_PREC * (int(gyro_counts[i]) - c['gyro_offset'][i]),
                              c['gyro_scale'][i], (c['gyro_scale'][i] - c['gyro_offset'][i]) or 1)
                    for i in range(3))
        return acc, gyr

    # ----- timer / stream control -------------------------------------------
    def set_rate(self, rate_hz):
        self.rate_hz = float(rate_hz)

    def freeze_timer(self, frozen=True):
        self.timer_frozen = frozen

    def set_timer(self, value):
        """Next report carries this timer byte (e.g. 0xFE to force a wrap)."""
        self.timer = value & 0xFF

    def pause_stream(self, paused=True):
        """Stop/restart 0x30 reports (simulates dropped reports / stalls)."""
        self.streaming_paused = paused

    # ----- report building ----------------------------------------------------
    def _header(self, rid):
        r = bytearray(self.report_len)
        r[0] = rid
        r[1] = self.timer
        r[2] = 0x91 if self.is_usb else 0x90   # battery full (4<<5), charging; bit0 host powered
        r[3:6] = self.buttons.to_bytes(3, 'little')
        r[6:9] = _pack12(*self.sticks[0])
        r[9:12] = _pack12(*self.sticks[1])
        r[12] = 0x00                           # vibrator report
        return r

    def _send(self, r):
        self.call_input_event(bytes(r))

    def _imu_report(self):
        r = self._header(0x30)
        if self.imu_enabled:
            with self._mlock:
                samples = list(self._samples)
            off = 13
            for acc, gyr in samples:
                struct.pack_into('<6h', r, off, *acc, *gyr)
                off += 12
        return r

    def _subcmd_reply(self, subcmd, ack, data=b''):
        r = self._header(0x21)
        r[13] = ack
        r[14] = subcmd
        r[15:15 + len(data)] = data
        self._send(r)

    # ----- uhid callbacks -----------------------------------------------------
    def output_report(self, data, size, rtype):
        data = bytes(data[:size])
        if not data:
            return
        rid = data[0]
        if rid == 0x80 and size >= 2:
            self.log.append(('usb', data[1], b''))
            if not self.is_usb:
                return                          # BT pads never answer 0x80
            cmd = data[1]
            if cmd == 0x01:                     # connection status: 0x81 0x01 0x00 type MAC(rev)
                r = bytearray(self.report_len)
                r[0:4] = bytes([0x81, 0x01, 0x00, 0x03])
                r[4:10] = self.mac[::-1]
                self._send(r)
            elif cmd in (0x02, 0x03):           # handshake, 3 Mbit baud: plain ack
                r = bytearray(self.report_len)
                r[0:2] = bytes([0x81, cmd])
                self._send(r)
            # 0x04 (no timeout), 0x05, 0x06: no answer on real hardware
        elif rid == 0x01 and size >= 11:
            self._subcommand(data[10], data[11:])
        elif rid == 0x10:
            self.log.append(('rumble', 0x10, data[2:10]))

    def _subcommand(self, sc, args):
        self.log.append(('subcmd', sc, bytes(args[:8])))
        if sc == 0x02:                          # device info
            info = bytes([0x03, 0x48, self.CONTROLLER_TYPE, 0x02]) + self.mac + bytes([0x01, 0x01])
            self._subcmd_reply(sc, 0x82, info)
        elif sc == 0x10:                        # SPI flash read
            addr, length = struct.unpack_from('<IB', args)
            length = min(length, 0x1D)
            chunk = bytes(self.spi[addr:addr + length]) if addr + length <= len(self.spi) else b'\xff' * length
            self._subcmd_reply(sc, 0x90, struct.pack('<IB', addr, length) + chunk)
        elif sc == 0x03:                        # input report mode
            self.report_mode = args[0]
            self._subcmd_reply(sc, 0x80)
        elif sc == 0x40:                        # IMU on/off
            self.imu_enabled = bool(args[0])
            self._subcmd_reply(sc, 0x80)
        elif sc == 0x41:                        # IMU sensitivity
            self.imu_sensitivity = bytes(args[:4])
            self._subcmd_reply(sc, 0x80)
        elif sc == 0x30:                        # player lights
            self.player_lights = args[0]
            self._subcmd_reply(sc, 0x80)
        elif sc == 0x31:                        # get player lights
            self._subcmd_reply(sc, 0xB0, bytes([self.player_lights or 0]))
        elif sc == 0x38:                        # home light
            self.home_light = bytes(args[:5])
            self._subcmd_reply(sc, 0x80)
        elif sc == 0x48:                        # vibration enable
            self.vibration = bool(args[0])
            self._subcmd_reply(sc, 0x80)
        elif sc == 0x50:                        # regulated voltage
            self._subcmd_reply(sc, 0xD0, struct.pack('<H', 0x0618))
        else:                                   # everything else: plain ack
            self._subcmd_reply(sc, 0x80)

    # ----- threads ------------------------------------------------------------
    def _stream_loop(self):
        nxt = time.monotonic()
        while not self._quit.is_set():
            nxt += 1.0 / self.rate_hz
            if self.report_mode == 0x30 and not self.streaming_paused and self._ready:
                try:
                    self._send(self._imu_report())
                except OSError:
                    return
                self.reports_sent += 1
                if not self.timer_frozen:
                    self.timer = (self.timer + self.timer_step) & 0xFF
            delay = nxt - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:
                nxt = time.monotonic()     # fell behind (slow VM): do not burst

    def imu_event_node(self):
        """/dev/input/eventN of the driver's IMU device, or None."""
        return self._event_node(' IMU')

    def main_event_node(self):
        return self._event_node('')

    def _event_node(self, suffix):
        if self.sys_path is None:
            return None
        for name in self.sys_path.glob('input/input*/name'):
            n = name.read_text().strip()
            if n.endswith('Controller' + suffix) or (suffix and n.endswith(suffix.strip())):
                ev = list(name.parent.glob('event*'))
                if ev:
                    return '/dev/input/' + ev[0].name
        return None

