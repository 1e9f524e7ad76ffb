"""Finding the kernel's nodes for a uhid device, and reading evdev nodes directly.

udev does not run in the test VM: nodes come from devtmpfs and are found through sysfs.
"""
import fcntl
import glob
import os
import struct
import time
from pathlib import Path


def wait_for(predicate, timeout, step=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


def hid_sysfs(device):
    """The device's /sys/bus/hid/devices/… folder (its uniq identifies it)."""
    for path in glob.glob("/sys/bus/hid/devices/*"):
        try:
            with open(os.path.join(path, "uevent")) as f:
                if f"HID_UNIQ={device.uniq}" in f.read():
                    return path
        except OSError:
            pass
    return None


def adopt_sys_path(device, timeout):
    """Sets a hid-tools device's sysfs path and id when hid-tools itself missed the uevent (it waits
    only ~10 ms; a slow VM misses it), found by the device's uniq. True if found."""
    found = wait_for(lambda: hid_sysfs(device), timeout, 0.01)
    if found:
        device._sys_path = Path(os.path.realpath(found))
        device.hid_id = int(device._sys_path.name[15:], 16)
    return bool(found)


def hidraw_node(device):
    base = hid_sysfs(device)
    names = glob.glob(os.path.join(base, "hidraw", "hidraw*")) if base else []
    return f"/dev/{os.path.basename(names[0])}" if names else None


def event_nodes(device):
    """{name: /dev/input/eventN} of the device's evdev nodes."""
    base = hid_sysfs(device)
    result = {}
    for path in glob.glob(os.path.join(base, "input", "input*", "event*")) if base else []:
        with open(os.path.join(os.path.dirname(path), "name")) as f:
            result[f.read().strip()] = f"/dev/input/{os.path.basename(path)}"
    return result


def motion_node(device, suffixes=("Motion Sensors", "IMU")):
    nodes = event_nodes(device)
    for name, path in nodes.items():
        if name.endswith(suffixes):
            return path
    return None


# struct input_absinfo { s32 value, minimum, maximum, fuzz, flat, resolution; }
def _eviocgabs(axis):
    return (2 << 30) | (24 << 16) | (ord("E") << 8) | (0x40 + axis)


def absinfo(path, axis):
    """(value, resolution) of one ABS axis, read with EVIOCGABS."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        buf = bytearray(24)
        fcntl.ioctl(fd, _eviocgabs(axis), buf)
        value, _min, _max, _fuzz, _flat, resolution = struct.unpack("<6i", buf)
        return value, resolution
    finally:
        os.close(fd)


def kernel_log(lines):
    """The last lines of the kernel's log, for failure messages."""
    import subprocess
    out = subprocess.run(["dmesg"], capture_output=True, text=True).stdout.splitlines()
    return "\n".join(out[-lines:])
