"""Evdev nodes read back directly: devices found by name in /proc/bus/input/devices, events parsed
from struct input_event, key and axis state, and EVIOCGRAB (linux/input.h)."""
import errno
import fcntl
import os
import select
import struct
import threading
import time

EV_SYN, EV_KEY, EV_REL, EV_ABS = 0x00, 0x01, 0x02, 0x03
REL_X, REL_Y, REL_WHEEL = 0x00, 0x01, 0x08
ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ, ABS_HAT0X, ABS_HAT0Y = 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x10, 0x11
BTN_SOUTH, BTN_EAST, BTN_NORTH, BTN_WEST, BTN_TL, BTN_TR = 0x130, 0x131, 0x133, 0x134, 0x136, 0x137

# struct input_event on 64-bit Linux: struct timeval (two longs), __u16 type, __u16 code, __s32 value.
EVENT = struct.Struct("<qqHHi")

# linux/input.h: EVIOCGRAB _IOW('E', 0x90, int); EVIOCGKEY(len) _IOC(_IOC_READ, 'E', 0x18, len);
# EVIOCGABS(abs) _IOR('E', 0x40 + abs, struct input_absinfo), six __s32.
EVIOCGRAB = (1 << 30) | (4 << 16) | (ord("E") << 8) | 0x90
KEY_BYTES = 96   # KEY_MAX 0x2ff bits


def _eviocgkey(length):
    return (2 << 30) | (length << 16) | (ord("E") << 8) | 0x18


def _eviocgabs(axis):
    return (2 << 30) | (24 << 16) | (ord("E") << 8) | (0x40 + axis)


def devices():
    """{name: [/dev/input/eventN, …]} of every input device, from /proc/bus/input/devices."""
    found = {}
    with open("/proc/bus/input/devices") as f:
        for block in f.read().split("\n\n"):
            name, handlers = None, []
            for line in block.splitlines():
                if line.startswith("N: Name="):
                    name = line[len("N: Name="):].strip('"')
                elif line.startswith("H: Handlers="):
                    handlers = [h for h in line.split("=", 1)[1].split() if h.startswith("event")]
            if name is not None:
                found.setdefault(name, []).extend(f"/dev/input/{h}" for h in handlers)
    return found


def node_named(name):
    """The one event node of the device called `name`, or None (also None while there are two)."""
    nodes = devices().get(name, [])
    return nodes[0] if len(nodes) == 1 else None


def grab_error(path):
    """None if this process could grab the node (released at once), else the errno name (EBUSY
    while another process holds it)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        fcntl.ioctl(fd, EVIOCGRAB, 1)
        fcntl.ioctl(fd, EVIOCGRAB, 0)
        return None
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))
    finally:
        os.close(fd)


def keys_held(path):
    """The key codes the node holds down now (EVIOCGKEY)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        buf = bytearray(KEY_BYTES)
        fcntl.ioctl(fd, _eviocgkey(KEY_BYTES), buf)
    finally:
        os.close(fd)
    return {i * 8 + b for i, byte in enumerate(buf) for b in range(8) if byte >> b & 1}


def axis(path, code):
    """(value, minimum, maximum) of one ABS axis (EVIOCGABS)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        buf = bytearray(24)
        fcntl.ioctl(fd, _eviocgabs(code), buf)
    finally:
        os.close(fd)
    value, minimum, maximum, _fuzz, _flat, _resolution = struct.unpack("<6i", buf)
    return value, minimum, maximum


class Reader:
    """Collects every event of some nodes on a thread: (time.monotonic(), node, type, code, value).
    A node that goes away (ENODEV: its device was removed) is noted in `gone`."""

    def __init__(self, paths):
        self.events, self.gone = [], {}
        self._fds = {os.open(p, os.O_RDONLY | os.O_NONBLOCK): p for p in paths}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        poll = select.poll()
        for fd in self._fds:
            poll.register(fd, select.POLLIN)
        while not self._done.is_set():
            for fd, _ in poll.poll(50):
                try:
                    data = os.read(fd, EVENT.size * 64)
                except OSError as error:
                    if error.errno in (errno.ENODEV, errno.EIO):
                        self.gone[self._fds[fd]] = time.monotonic()
                        poll.unregister(fd)
                    continue
                now = time.monotonic()
                for offset in range(0, len(data) - EVENT.size + 1, EVENT.size):
                    _s, _us, kind, code, value = EVENT.unpack_from(data, offset)
                    self.events.append((now, self._fds[fd], kind, code, value))

    def mark(self):
        return len(self.events)

    def since(self, mark, path=None, kind=None, code=None):
        return [e for e in self.events[mark:] if (path is None or e[1] == path) and (kind is None or e[2] == kind)
                and (code is None or e[3] == code)]

    def total(self, mark, path, kind, code):
        return sum(e[4] for e in self.since(mark, path, kind, code))

    def close(self):
        self._done.set()
        self._thread.join(timeout=2)
        for fd in self._fds:
            os.close(fd)
