"""What the kernel's drivers and Tiltkit make of a PlayStation pad's raw counts.

The formulas are the drivers' (Linux drivers/hid/hid-playstation.c `dualsense_get_calibration_data`
and `dualshock4_get_calibration_data`; kernel 6.1's hid-sony `dualshock4_get_calibration_data` for
the DualShock 4, which hid-playstation took over in 6.2), written again here so a test can say
what each path should deliver for counts it sent.

Gyro zero-rate offset: kernels before 6.3 subtract the bias of the calibration report
(`(raw - bias) * speed2x / (plus - minus)`); from 6.3 on ("HID: playstation: correct DualSense gyro
bias handling", Sony's Roderick Colenbrander, January 2023, and the same for the DualShock 4) the
bias only enters the sensitivity: `raw * speed2x / (|plus - bias| + |minus - bias|)`. Tiltkit's
hidraw decoder follows the current drivers.
"""
import struct

ACC_RES_PER_G = 8192
GYRO_RES_PER_DEG_S = 1024


def mult_frac(x, numer, denom):
    """The kernel's mult_frac(x, n, d) with C's truncating division."""
    def div(a, b):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    q, r = div(x, denom), x - div(x, denom) * denom
    return q * numer + div(r * numer, denom)


def parse(report, interleaved):
    """Per-axis (bias, plus, minus) for the gyro, the speeds and (plus, minus) for the accel."""
    s = lambda o: struct.unpack_from("<h", bytes(report), o)[0]
    bias = [s(1), s(3), s(5)]
    if interleaved:   # DualShock 4 over Bluetooth: pitch+, yaw+, roll+, pitch-, yaw-, roll-
        plus, minus = [s(7), s(9), s(11)], [s(13), s(15), s(17)]
    else:
        plus, minus = [s(7), s(11), s(15)], [s(9), s(13), s(17)]
    speed2x = s(19) + s(21)
    acc = [(s(23), s(25)), (s(27), s(29)), (s(31), s(33))]
    return bias, plus, minus, speed2x, acc


class Expected:
    """Expected evdev values (counts at the node's resolution) for a pad's calibration report."""

    def __init__(self, report, interleaved):
        self.bias, self.plus, self.minus, self.speed2x, self.acc = parse(report, interleaved)

    def accel_counts(self, raw, exact=False):
        """At 8192 per g; `exact` without the kernel's integer truncation (what a float decoder gives)."""
        frac = (lambda x, n, d: x * n / d) if exact else mult_frac
        out = []
        for value, (plus, minus) in zip(raw, self.acc):
            range2g = plus - minus
            out.append(frac(2 * ACC_RES_PER_G, value - (plus - range2g // 2), range2g))
        return out

    def gyro_counts(self, raw, subtract_bias, exact=False):
        """At 1024 per deg/s, with kernel 6.1's bias subtraction or without it (6.3 on)."""
        frac = (lambda x, n, d: x * n / d) if exact else mult_frac
        out = []
        for value, bias, plus, minus in zip(raw, self.bias, self.plus, self.minus):
            if subtract_bias:   # kernels before 6.3
                out.append(frac(self.speed2x * GYRO_RES_PER_DEG_S, value - bias, plus - minus))
            else:
                out.append(frac(self.speed2x * GYRO_RES_PER_DEG_S, value, abs(plus - bias) + abs(minus - bias)))
        return out


def playstation_from_core_motion(row):
    """A tiltkit trace row (Core Motion frame: g with gravity's sign, rad/s) → the pad's own frame
    (g reading +1 up at rest, deg/s), the inverse of MotionDevices' CoreMotionFrame."""
    import math
    _, ax, ay, az, gx, gy, gz = row[:7]
    accel = (-ax, -az, ay)
    gyro = tuple(math.degrees(v) for v in (gx, gz, -gy))
    return accel, gyro
