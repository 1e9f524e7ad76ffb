# SPDX-License-Identifier: MIT
"""Self-check of the kernel models, run as root inside the test VM:

  vng --disable-kvm --run /boot/vmlinuz-6.1.0-56-amd64 --user root -- \
    'modprobe -a uhid hid-nintendo hid-sensor-hub hid-sensor-accel-3d \
       hid-sensor-gyro-3d hid-sensor-magn-3d hid-sensor-press \
       industrialio-triggered-buffer;
     /root/.pyenv/versions/3.11.7/bin/python3 scripts/kernel-test/models/selfcheck.py'

Creates each model, waits for the kernel's nodes, feeds distinct values,
reads them back through the kernel (evdev struct input_event + EVIOCGABS;
IIO sysfs in_*_raw and the /dev/iio:deviceN buffer) and prints model vs
kernel. Exit status 0 only if every comparison matched.
"""

import fcntl
import glob
import os
import select
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from switch_pro import SwitchProController, ACCEL_RES_PER_G, GYRO_RES_PER_DPS  # noqa: E402
from sensor_hub import SensorHub  # noqa: E402

FAIL = []


def check(ok, what):
    print(('  ok   ' if ok else '  FAIL ') + what, flush=True)
    if not ok:
        FAIL.append(what)


# ----- evdev (linux/input.h) ------------------------------------------------
EV_SYN, EV_ABS, EV_MSC = 0, 3, 4
SYN_REPORT, MSC_TIMESTAMP = 0, 5
ABS = {'X': 0, 'Y': 1, 'Z': 2, 'RX': 3, 'RY': 4, 'RZ': 5}
EVENT = struct.Struct('llHHi')      # struct input_event on 64-bit


def eviocgabs(fd, code):
    req = (2 << 30) | (24 << 16) | (ord('E') << 8) | (0x40 + code)
    buf = fcntl.ioctl(fd, req, bytes(24))
    return dict(zip(('value', 'min', 'max', 'fuzz', 'flat', 'res'), struct.unpack('6i', buf)))


class Evdev:
    def __init__(self, path):
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.state = {c: eviocgabs(self.fd, c)['value'] for c in ABS.values()}
        self.timestamps = []
        self.frames = 0

    def pump(self, timeout):
        """Read events for up to timeout s; returns the ABS state after each
        SYN_REPORT frame."""
        end = time.monotonic() + timeout
        frames = []
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], max(0, end - time.monotonic()))
            if not r:
                break
            try:
                data = os.read(self.fd, EVENT.size * 64)
            except BlockingIOError:
                continue
            for off in range(0, len(data), EVENT.size):
                _, _, t, c, v = EVENT.unpack_from(data, off)
                if t == EV_ABS and c in self.state:
                    self.state[c] = v
                elif t == EV_MSC and c == MSC_TIMESTAMP:
                    self.timestamps.append(v & 0xFFFFFFFF)
                elif t == EV_SYN and c == SYN_REPORT:
                    self.frames += 1
                    frames.append(dict(self.state))
        return frames

    def wait_for(self, want, timeout=5.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for f in self.pump(0.2):
                if all(f[k] == v for k, v in want.items()):
                    return f
        return dict(self.state)

    def close(self):
        os.close(self.fd)


def wait_until(fn, timeout, step=0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = fn()
        if v:
            return v
        time.sleep(step)
    return fn()


def dmesg_tail(words, n=30):
    try:
        with open('/dev/kmsg', 'rb') as f:
            os.set_blocking(f.fileno(), False)
            lines = []
            while True:
                try:
                    line = f.readline()
                except BlockingIOError:
                    break
                if not line:
                    break
                s = line.decode(errors='replace').split(';', 1)[-1].strip()
                if any(w in s for w in words):
                    lines.append(s)
        return lines[-n:]
    except OSError as e:
        return [f'(kmsg: {e})']


# ----- Switch Pro -------------------------------------------------------------
def switch_check(bus, user_cal):
    cal = dict(accel_offset=(50, -30, 20), accel_scale=(16000, 16400, 16384),
               gyro_offset=(10, -12, 5), gyro_scale=(13000, 13371, 13500))
    ucal = dict(accel_offset=(-40, 25, 0), accel_scale=(16300, 16384, 16500),
                gyro_offset=(-7, 3, 11), gyro_scale=(13300, 13400, 13371))
    dev = SwitchProController(bus=bus, imu_cal=cal, user_imu_cal=ucal if user_cal else None)
    print(f'\n== Switch Pro Controller, bus={bus}, user IMU cal={user_cal} ==', flush=True)
    t0 = time.monotonic()
    dev.start_device()
    node = wait_until(dev.imu_event_node, 60)
    print(f'  hid device {dev.sys_path.name if dev.sys_path else None}; IMU node {node} '
          f'after {time.monotonic() - t0:.1f} s; pad node {dev.main_event_node()}')
    check(node is not None, f'kernel created "Nintendo Switch Pro Controller IMU" ({bus})')
    if node is None:
        print('\n'.join(dmesg_tail(['nintendo', 'uhid'])))
        dev.destroy()
        return
    names = [open(p).read().strip() for p in glob.glob(str(dev.sys_path / 'input/input*/name'))]
    print(f'  input names: {names}')
    uniq = open(glob.glob(str(dev.sys_path / 'input/input*/uniq'))[0]).read().strip()
    print(f'  uniq (MAC from our device info): {uniq}')
    print('  commands the driver sent: ' + ' '.join(
        f'{k}:{i:02x}' for k, i, _ in dev.log if k != 'rumble'))
    ev = Evdev(node)
    for axis in ('X', 'RX'):
        a = eviocgabs(ev.fd, ABS[axis])
        print(f'  absinfo ABS_{axis}: {a}')
    check(eviocgabs(ev.fd, ABS['X'])['res'] == ACCEL_RES_PER_G and
          eviocgabs(ev.fd, ABS['RX'])['res'] == GYRO_RES_PER_DPS, 'resolutions 4096/g and 14247/dps')
    print(f'  model state: report_mode={dev.report_mode:#x} imu={dev.imu_enabled} '
          f'vibration={dev.vibration} lights={dev.player_lights}')
    cases = [((1000, -2000, 4096), (100, -200, 300)),
             ((-4096, 2048, 0), (-1500, 2500, -3500)),
             ((300, 400, -8000), (20000, -20000, 5))]
    for acc, gyr in cases:
        dev.set_motion(acc, gyr)
        (ea, eg) = dev.expected_evdev(acc, gyr)
        want = dict(zip((0, 1, 2, 3, 4, 5), ea + eg))
        got = ev.wait_for(want)
        gv = tuple(got[c] for c in range(6))
        print(f'  model counts acc={acc} gyro={gyr} -> expect evdev {ea + eg} ; kernel {gv}')
        check(gv == ea + eg, f'evdev values for {acc}/{gyr}')
    # physical units through the inverse formula
    dev.set_motion_physical((0.25, -0.5, 1.0), (90.0, -45.0, 1.5))
    ea, eg = dev.expected_evdev(*[tuple(round(v) for v in t) for t in dev.counts_for((0.25, -0.5, 1.0), (90.0, -45.0, 1.5))])
    got = ev.wait_for(dict(zip(range(6), ea + eg)))
    phys = tuple(got[c] / ACCEL_RES_PER_G for c in range(3)) + tuple(got[c] / GYRO_RES_PER_DPS for c in range(3, 6))
    print('  model physical acc=(0.25,-0.5,1.0) g gyro=(90,-45,1.5) dps ; kernel/res = '
          + ', '.join(f'{v:.4f}' for v in phys))
    check(all(abs(a - b) < 0.002 for a, b in zip(phys, (0.25, -0.5, 1.0))) and
          all(abs(a - b) < 0.05 for a, b in zip(phys[3:], (90.0, -45.0, 1.5))),
          'physical round trip (within one raw count: 1/4096 g, ~0.07 dps)')
    # timestamps the kernel stamps (MSC_TIMESTAMP, microseconds)
    ev.timestamps.clear()
    n0 = dev.reports_sent
    ev.pump(1.0)
    ts = ev.timestamps
    d = [b - a for a, b in zip(ts, ts[1:])]
    from collections import Counter
    print(f'  MSC_TIMESTAMP: {len(ts)} stamps over {dev.reports_sent - n0} reports in 1 s; '
          f'first deltas (us) {d[:9]}; histogram {dict(Counter(d))}')
    # timer byte via hidraw (the driver does not use it)
    hr = [f'/dev/{p.name}' for p in dev.sys_path.glob('hidraw/hidraw*')]
    if hr:
        fd = os.open(hr[0], os.O_RDONLY | os.O_NONBLOCK)

        def timers(n):
            out, end = [], time.monotonic() + 3
            while len(out) < n and time.monotonic() < end:
                if select.select([fd], [], [], 0.5)[0]:
                    b = os.read(fd, 64)
                    if b and b[0] == 0x30:
                        out.append(b[1])
            return out
        dev.set_timer(0xFC)
        os.read(fd, 64) if select.select([fd], [], [], 0.1)[0] else None
        t_wrap = timers(6)
        dev.freeze_timer(True)
        timers(2)
        t_frozen = timers(4)
        dev.freeze_timer(False)
        print(f'  hidraw {hr[0]} timer bytes: after set_timer(0xFC) {t_wrap}; frozen {t_frozen}')
        check(0 in t_wrap and 0xFF in t_wrap and len(set(t_frozen)) == 1, 'timer wrap and freeze visible on hidraw')
        os.close(fd)
    ev.close()
    nodes = [node] + [f'/dev/{p.name}' for p in dev.sys_path.glob('hidraw/hidraw*')]
    dev.destroy()
    gone = wait_until(lambda: not any(os.path.exists(n) for n in nodes), 10)
    check(gone, f'nodes {nodes} vanish after destroy')


# ----- sensor hub ---------------------------------------------------------------
def rd(p):
    try:
        return open(p).read().strip()
    except OSError as e:
        return f'<{e.strerror}>'


def wr(p, v):
    with open(p, 'w') as f:
        f.write(str(v))


def scan_layout(d):
    """[(name, index, signed, realbits, storagebits, shift)] in buffer order."""
    chans = []
    for en in glob.glob(f'{d}/scan_elements/*_en'):
        base = en[:-3]
        if rd(en) != '1':
            continue
        t = rd(base + '_type')              # e.g. le:s16/32>>0
        sign = t.split(':')[1][0] == 's'
        real, rest = t.split(':')[1][1:].split('/')
        store, shift = rest.split('>>')
        chans.append((os.path.basename(base), int(rd(base + '_index')), sign, int(real), int(store), int(shift)))
    chans.sort(key=lambda c: c[1])
    return chans


def parse_scans(buf, chans):
    out, off, scans = [], 0, []
    size = 0
    for c in chans:
        b = c[4] // 8
        size = (size + b - 1) // b * b + b
    maxb = max(c[4] // 8 for c in chans)
    size = (size + maxb - 1) // maxb * maxb
    for base in range(0, len(buf) - size + 1, size):
        off, rec = 0, {}
        for name, _, sign, real, store, shift in chans:
            b = store // 8
            off = (off + b - 1) // b * b
            v = int.from_bytes(buf[base + off:base + off + b], 'little')
            v = (v >> shift) & ((1 << real) - 1)
            if sign and v & (1 << (real - 1)):
                v -= 1 << real
            rec[name] = v
            off += b
        scans.append(rec)
    return scans, size


def hub_check():
    print('\n== HID sensor hub (accel, gyro, magn, press) ==', flush=True)
    hub = SensorHub()
    t0 = time.monotonic()
    hub.start_device()
    keys = list(hub.sensors)
    ok = wait_until(lambda: all(hub.iio_dir(k) for k in keys), 90, 0.25)
    print(f'  hid device {hub.sys_path.name if hub.sys_path else None}; IIO devices after {time.monotonic() - t0:.1f} s')
    check(bool(ok), 'kernel created four IIO devices')
    if not ok:
        print('\n'.join(dmesg_tail(['sensor', 'hid', 'iio'])))
        hub.destroy()
        return
    print('  triggers: ' + ', '.join(rd(p) for p in sorted(glob.glob('/sys/bus/iio/devices/trigger*/name'))))
    values = {'accel': [(981, -250, 12345), (-32000, 32000, 1)],
              'gyro': [(123456, -654321, 7), (-1, 2000000, -2000000)],
              'magn': [(250, -410, 30), (-1000, 999, 0)],
              'press': [(101325,), (95000,)]}
    dirs = {}
    for k in keys:
        d = str(hub.iio_dir(k))
        dirs[k] = d
        s = hub.sensor(k)
        attrs = sorted(os.path.basename(p) for p in glob.glob(d + '/in_*') if os.path.isfile(p))
        scale = [p for p in attrs if p.endswith('_scale')][0]
        print(f'  {k}: {d} name={rd(d + "/name")} dev=/dev/{os.path.basename(d)} '
              f'trigger={rd(d + "/trigger/current_trigger")}')
        print(f'     attrs: {" ".join(attrs)}')
        for a in attrs:
            if not a.endswith('_raw'):
                print(f'     {a} = {rd(d + "/" + a)}')
        print(f'     model: bits={s.bits} exponent={s.exponent} default unit={s.unit} '
              f'-> expected scale {s.iio_scale():.9f}')
        check(abs(float(rd(f'{d}/{scale}')) - s.iio_scale()) < 1e-9 + 1e-6 * abs(s.iio_scale()),
              f'{k} scale')
        raws = sorted(p for p in attrs if p.endswith('_raw'))
        for vals in values[k]:
            hub.set_value(k, vals)
            got = tuple(int(rd(f'{d}/{r}')) for r in raws)
            print(f'     sysfs raw: model {tuple(vals)} -> kernel {dict(zip(raws, got))}')
            check(got == tuple(vals), f'{k} in_*_raw {vals}')
        # sampling frequency -> report interval feature
        sf = [p for p in attrs if p.endswith('sampling_frequency')][0]
        wr(f'{d}/{sf}', 50)
        print(f'     wrote {sf}=50 -> model interval {s.interval_ms} ms, reads back {rd(d + "/" + sf)}')
        check(s.interval_ms == 20, f'{k} sampling_frequency sets report interval')
        hy = [p for p in attrs if p.endswith('_hysteresis')]
        if hy:
            wr(f'{d}/{hy[0]}', 2)
            print(f'     wrote {hy[0]}=2 -> model sensitivity {s.sensitivity} (raw units), reads {rd(d + "/" + hy[0])}')
    # buffered capture through /dev/iio:deviceN (hid-sensor trigger is preset)
    for k in keys:
        d, s = dirs[k], hub.sensor(k)
        for en in glob.glob(d + '/scan_elements/*_en'):
            wr(en, 1)
        chans = scan_layout(d)
        if not rd(d + '/trigger/current_trigger'):
            wr(d + '/trigger/current_trigger', rd(glob.glob('/sys/bus/iio/devices/trigger*/name')[0]))
        wr(d + '/buffer/length', 128)
        wr(d + '/buffer/enable', 1)
        fd = os.open('/dev/' + os.path.basename(d), os.O_RDONLY | os.O_NONBLOCK)
        seen = []
        for vals in values[k]:
            hub.set_value(k, vals)
            end, buf = time.monotonic() + 3, b''
            while time.monotonic() < end:
                if select.select([fd], [], [], 0.3)[0]:
                    buf += os.read(fd, 4096)
                    scans, size = parse_scans(buf, chans)
                    data = [tuple(v for n, v in sc.items() if n != 'in_timestamp') for sc in scans]
                    if data and data[-1] == tuple(vals):
                        break
            scans, size = parse_scans(buf, chans)
            last = scans[-1] if scans else None
            seen.append(last)
            print(f'     buffer {k}: types {[(c[0], f"{c[3]}/{c[4]}") for c in chans]} scan={size} B; '
                  f'{len(scans)} scans; model {tuple(vals)} -> last {last}')
            check(last is not None and tuple(v for n, v in last.items() if n != 'in_timestamp') == tuple(vals),
                  f'{k} buffer {vals}')
        end = time.monotonic() + 1.0      # one more second of samples for rate/timestamps
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                buf += os.read(fd, 4096)
        scans, size = parse_scans(buf, chans)
        ts = [sc.get('in_timestamp') for sc in scans if sc.get('in_timestamp')]
        print(f'     {len(scans)} scans in total (interval {s.interval_ms} ms)')
        if len(ts) > 2:
            dt = [(b - a) / 1e6 for a, b in zip(ts, ts[1:])]
            print(f'     buffer timestamp deltas (ms): {[round(x, 1) for x in dt[:6]]}')
        os.close(fd)
        wr(d + '/buffer/enable', 0)
        print(f'     after disable: model power={s.power} reporting={s.reporting} (D4=6, no events=1); '
              f'SET_REPORTs seen {s.sets[-4:]}')
    t1 = time.monotonic()
    off = wait_until(lambda: all(hub.sensor(k).power == 6 for k in keys), 10, 0.2)
    print(f'  all sensors powered off (D4) {time.monotonic() - t1:.1f} s after the last buffer disable: {bool(off)}; '
          f'states {[(k, hub.sensor(k).power, hub.sensor(k).reporting) for k in keys]}')
    nodes = ['/dev/' + os.path.basename(d) for d in dirs.values()]
    paths = list(dirs.values())
    hub.destroy()
    gone = wait_until(lambda: not any(os.path.exists(n) for n in nodes + paths), 10)
    check(gone, f'IIO nodes {nodes} vanish after destroy')


if __name__ == '__main__':
    which = sys.argv[1:] or ['switch', 'switch-bt', 'hub']
    if 'switch' in which:
        switch_check('usb', False)
    if 'switch-bt' in which:
        switch_check('bluetooth', True)
    if 'hub' in which:
        hub_check()
    print('\nSELFCHECK ' + ('PASSED' if not FAIL else f'FAILED: {FAIL}'), flush=True)
    sys.exit(1 if FAIL else 0)
