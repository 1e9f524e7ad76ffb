# SPDX-License-Identifier: MIT
"""Virtual HID sensor hub (accelerometer, gyrometer, compass, barometer) on uhid.

The kernel's hid-sensor-hub binds any HID device whose descriptor contains a
Sensors-page (0x20) application/physical collection (hid-core
hid_scan_collection -> HID_GROUP_SENSOR_HUB) and creates one platform device
"HID-SENSOR-<usage>" per collection; hid-sensor-accel-3d (200073),
hid-sensor-gyro-3d (200076), hid-sensor-magn-3d (200083) and hid-sensor-press
(200031) turn those into IIO devices.

What those drivers need, and so what this descriptor provides
(drivers/hid/hid-sensor-hub.c sensor_hub_input_get_attribute_info,
drivers/iio/common/hid-sensors/hid-sensor-attributes.c
hid_sensor_parse_common_attributes, hid-sensor-trigger.c
_hid_sensor_power_state; constants from include/linux/hid-sensor-ids.h and
HID Usage Tables, Sensors page 0x20, sections "Property" and "Data Field"):
  * every sensor in its own Physical collection (field->physical must equal
    the sensor usage) with its own report id, used for both the feature and
    the input report;
  * feature fields Reporting State (0x0316) and Power State (0x0319) as
    Named Arrays (a Logical collection whose usage is the property, holding
    the selector usages 0x0840.. / 0x0850..). The kernel writes
    "usage index + 1" (it forces logical_minimum = 1), so the arrays here run
    1..6 and value v means selector v-1. Power State must be readable or the
    IIO probe fails;
  * Report Interval (0x030E, no unit -> driver assumes milliseconds) and
    Sensitivity Absolute (0x030F), which become sampling_frequency and
    hysteresis;
  * one Input main item per data usage (accel 0x0453-55, angular velocity
    0x0457-59, magnetic flux 0x0485-87, atmospheric pressure 0x0431) with a
    Unit Exponent and no Unit, so the drivers use their default units
    (G, deg/s, milligauss, bar) and scale = default * 10^exponent
    (hid_sensor_format_scale unit_conversion table).
  * GET_REPORT on the input report answers in_*_raw reads
    (sensor_hub_input_attr_get_raw_value).
"""

import struct
import time

from hidtools.uhid import BusType

from threaded_uhid import ThreadedUHIDDevice

PAGE_SENSOR = 0x20
U_SENSOR_COLLECTION = 0x0001
U_REPORTING_STATE = 0x0316
U_POWER_STATE = 0x0319
U_REPORT_INTERVAL = 0x030E
U_SENSITIVITY_ABS = 0x030F
REPORTING_SELECTORS = list(range(0x0840, 0x0846))  # no events, all, threshold, +wake variants
POWER_SELECTORS = list(range(0x0850, 0x0856))      # undefined, D0 .. D4
REPORTING_ALL_EVENTS = 2    # array value of 0x0841 (index 1, plus 1)
REPORTING_THRESHOLD = 3     # 0x0842
POWER_D0 = 2                # 0x0851 full power
POWER_D4 = 6                # 0x0855 off

# name: (sensor usage, data usages, IIO name, default bits, default unit exponent,
#        kernel default unit, IIO scale per raw count at exponent 0 in IIO units)
SENSORS = {
    'accel': (0x0073, (0x0453, 0x0454, 0x0455), 'accel_3d', 16, -3, 'g', 9.80665),
    'gyro':  (0x0076, (0x0457, 0x0458, 0x0459), 'gyro_3d', 32, -3, 'deg/s', 0.017453293),
    'magn':  (0x0083, (0x0485, 0x0486, 0x0487), 'magn_3d', 16, 0, 'milligauss', 0.001),
    'press': (0x0031, (0x0431,), 'press', 32, -5, 'bar', 100.0),
}


# ----- report descriptor items (HID 1.11 section 6.2.2) ----------------------
def _item(kind, tag, value=None, unsigned=False):
    if value is None:
        return [(tag << 4) | (kind << 2)]
    for size, code in ((1, 1), (2, 2), (4, 3)):
        lo, hi = (0, (1 << (8 * size)) - 1) if unsigned else \
                 (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1)
        if lo <= value <= hi:
            return [(tag << 4) | (kind << 2) | code] + list(
                (value & ((1 << (8 * size)) - 1)).to_bytes(size, 'little'))
    raise ValueError(value)


def usage_page(v): return _item(1, 0x0, v, unsigned=True)
def logical_min(v): return _item(1, 0x1, v)
def logical_max(v): return _item(1, 0x2, v)
def unit_exponent(e): return _item(1, 0x5, e & 0x0F, unsigned=True)  # 4-bit two's complement
def report_size(v): return _item(1, 0x7, v, unsigned=True)
def report_id(v): return _item(1, 0x8, v, unsigned=True)
def report_count(v): return _item(1, 0x9, v, unsigned=True)
def usage(v): return _item(2, 0x0, v, unsigned=True)
def collection(kind): return _item(0, 0xA, kind, unsigned=True)  # 0 physical, 1 application, 2 logical
def end_collection(): return _item(0, 0xC)
def feature(flags): return _item(0, 0xB, flags, unsigned=True)     # 0x00 Data,Arr,Abs  0x02 Data,Var,Abs
def input_(flags): return _item(0, 0x8, flags, unsigned=True)


class _Sensor:
    def __init__(self, key, rid, bits=None, exponent=None, interval_ms=10):
        (self.usage, self.data_usages, self.iio_name, dbits, dexp,
         self.unit, self.unit_scale) = SENSORS[key]
        self.key = key
        self.rid = rid
        self.bits = bits or dbits
        self.exponent = dexp if exponent is None else exponent
        self.reporting = 1            # no events
        self.power = POWER_D4
        self.interval_ms = interval_ms
        self.sensitivity = 0
        self.values = [0] * len(self.data_usages)
        self.next_due = 0.0
        self.sets = []                # every SET_REPORT seen: (reporting, power, interval, sensitivity)

    def descriptor(self):
        d = report_id(self.rid) + usage_page(PAGE_SENSOR) + usage(self.usage) + collection(0)
        for prop, sels in ((U_REPORTING_STATE, REPORTING_SELECTORS), (U_POWER_STATE, POWER_SELECTORS)):
            d += usage(prop) + logical_min(1) + logical_max(len(sels)) + report_size(8) + report_count(1)
            d += collection(2)
            for s in sels:
                d += usage(s)
            d += feature(0x00) + end_collection()
        d += usage(U_REPORT_INTERVAL) + logical_min(0) + logical_max(0x7FFFFFFF)
        d += report_size(32) + report_count(1) + unit_exponent(0) + feature(0x02)
        # Sensitivity shares the data fields' exponent and width, so any
        # hysteresis the data can express also fits here.
        d += usage(U_SENSITIVITY_ABS) + logical_min(0) + logical_max((1 << (self.bits - 1)) - 1)
        d += report_size(self.bits) + report_count(1) + unit_exponent(self.exponent) + feature(0x02)
        lo, hi = -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1
        for u in self.data_usages:
            d += usage(u) + logical_min(lo) + logical_max(hi)
            d += report_size(self.bits) + report_count(1) + unit_exponent(self.exponent) + input_(0x02)
        d += end_collection()
        return d

    # report layouts follow descriptor order
    def _ffmt(self):
        return '<BBBI' + ('H' if self.bits == 16 else 'I')

    def feature_bytes(self):
        return struct.pack(self._ffmt(), self.rid, self.reporting, self.power,
                           self.interval_ms, self.sensitivity)

    def parse_feature(self, data):
        if len(data) >= struct.calcsize(self._ffmt()):
            _, self.reporting, self.power, self.interval_ms, self.sensitivity = \
                struct.unpack_from(self._ffmt(), bytes(data))
            self.sets.append((self.reporting, self.power, self.interval_ms, self.sensitivity))

    def input_bytes(self):
        fmt = '<B' + ('h' if self.bits == 16 else 'i') * len(self.values)
        return struct.pack(fmt, self.rid, *self.values)

    def active(self):
        return self.power == POWER_D0 and self.reporting in (REPORTING_ALL_EVENTS, REPORTING_THRESHOLD)

    def iio_scale(self):
        """Scale the kernel should print (IIO units: m/s^2, rad/s, gauss, kPa)."""
        return self.unit_scale * 10.0 ** self.exponent


class SensorHub(ThreadedUHIDDevice):
    """uhid sensor hub with accel, gyro, magn and press sensors.

    Constructor:
      sensors   iterable of keys from SENSORS (default all four), or dict
                key -> dict(bits=16|32, exponent=int, interval_ms=int)
      bus       'usb' (default) or 'i2c' (BUS_I2C, as i2c-hid hubs appear)
      vid, pid  ids (any: hid-sensor-hub matches on the descriptor group)
    Methods: start_device(), set_value(key, counts), set_physical(key, vals),
      sensor(key) for state (power, reporting, interval_ms, sensitivity,
      sets), iio_dir(key) after probe, destroy().
    """

    def __init__(self, sensors=('accel', 'gyro', 'magn', 'press'), bus='usb',
                 vid=0x8086, pid=0x22D8, name='Tiltkit virtual sensor hub'):
        super().__init__()
        if not isinstance(sensors, dict):
            sensors = {k: {} for k in sensors}
        self.sensors = {}
        for rid, (k, opts) in enumerate(sensors.items(), start=1):
            self.sensors[k] = _Sensor(k, rid, **opts)
        self.by_rid = {s.rid: s for s in self.sensors.values()}
        self.name = name
        self.info = (BusType.I2C if bus == 'i2c' else BusType.USB, vid, pid)
        self.phys = 'kmodel-sensor-hub'
        d = usage_page(PAGE_SENSOR) + usage(U_SENSOR_COLLECTION) + collection(1)
        for s in self.sensors.values():
            d += s.descriptor()
        d += end_collection()
        self.rdesc = d
        self.reports_sent = 0
        self.requests = []            # (kind, rtype, rnum) of GET/SET_REPORT

    def sensor(self, key):
        return self.sensors[key]

    def set_value(self, key, counts):
        s = self.sensors[key]
        lim = 1 << (s.bits - 1)
        with self._mlock:
            s.values = [max(-lim, min(lim - 1, int(round(v)))) for v in counts]

    def set_physical(self, key, values):
        """Values in the HID default unit (g, deg/s, milligauss, bar)."""
        s = self.sensors[key]
        self.set_value(key, [v / 10.0 ** s.exponent for v in values])

    # ----- uhid callbacks -------------------------------------------------------
    def get_report(self, req, rnum, rtype):
        s = self.by_rid.get(rnum)
        self.requests.append(('get', rtype, rnum))
        if s is None:
            return (22, [])                                   # EINVAL
        with self._mlock:
            if rtype == self.UHID_FEATURE_REPORT:
                return (0, list(s.feature_bytes()))
            if rtype == self.UHID_INPUT_REPORT:
                return (0, list(s.input_bytes()))
        return (5, [])

    def set_report(self, req, rnum, rtype, data):
        s = self.by_rid.get(rnum)
        self.requests.append(('set', rtype, rnum))
        if s is None or rtype != self.UHID_FEATURE_REPORT:
            return 5
        with self._mlock:
            was = s.active()
            s.parse_feature(data)
            if s.active() and not was:
                s.next_due = 0.0
        return 0

    # ----- threads ----------------------------------------------------------------
    def _stream_loop(self):
        # Each powered sensor with reporting on sends its input report every
        # report interval, like a hub in "all events" mode.
        while not self._quit.is_set():
            now = time.monotonic()
            wake = now + 0.05
            for s in self.sensors.values():
                with self._mlock:
                    if not s.active() or not self._ready:
                        continue
                    if now >= s.next_due:
                        rep = s.input_bytes()
                        s.next_due = max(now, s.next_due) + max(s.interval_ms, 1) / 1000.0
                    else:
                        rep = None
                if rep is not None:
                    try:
                        self.call_input_event(rep)
                    except OSError:
                        return
                    self.reports_sent += 1
                wake = min(wake, s.next_due)
            d = wake - time.monotonic()
            if d > 0:
                time.sleep(min(d, 0.05))

    def iio_dir(self, key):
        """/sys/bus/iio/devices/iio:deviceN of the sensor's IIO device, or None.
        Found through our own HID device's sysfs subtree, so several hubs or
        real sensors on the machine cannot be confused."""
        if self.sys_path is None:
            return None
        s = self.sensors[key]
        for name in self.sys_path.glob('HID-SENSOR-*/iio:device*/name'):
            if name.read_text().strip() == s.iio_name:
                return name.parent
        return None

