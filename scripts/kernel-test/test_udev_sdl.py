"""Permissions and SDL: an unprivileged user before and after Assets/udev/70-tiltkit.rules, and
SDL2's game-controller sensors (record, and the windowed teapot and cart under Xvfb).

Runs after test_playstation.py (pytest takes files in order): it starts udevd in the guest, as
every desktop has it; the earlier cases run without it."""
import os
import re
import shutil
import subprocess

import pytest

import nodes
import pads
from test_playstation import VALUES, create
from tiltkit import Trace, run

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RULE = os.path.join(REPO, "Assets", "udev", "70-tiltkit.rules")
NOBODY = 65534
INPUT_GID = int(subprocess.run(["getent", "group", "input"], capture_output=True, text=True).stdout.split(":")[2])


def install_rule():
    """Our rule where udevd reads rules at run time; udevd started if the VM's init did not."""
    os.makedirs("/run/udev/rules.d", exist_ok=True)
    shutil.copy(RULE, "/run/udev/rules.d/")
    if subprocess.run(["pgrep", "-x", "systemd-udevd"], capture_output=True).returncode != 0:
        subprocess.run(["/lib/systemd/systemd-udevd", "--daemon"], check=True)
    subprocess.run(["udevadm", "control", "--reload"], check=True)
    subprocess.run(["udevadm", "trigger", "--action=add"], check=True)
    subprocess.run(["udevadm", "settle", "--timeout=30"], check=True)


def test_unprivileged_user_is_told_the_rule_then_reads_with_it():
    """hidraw: root-only until our rule, even for the input group. evdev: udev's own rules give the
    input group the motion node; a user outside it is told what to do."""
    pad, hidraw, evdev = create(pads.DS4USB)
    streamer = pads.Streamer(pad, VALUES)
    try:
        def attempt(source, groups, out):
            code, _, err = run("record", "--source", source, "--out", out, "--duration", "2", user=(NOBODY, groups))
            rows = len(Trace(out).rows) if code == 0 and os.path.exists(out) else 0
            mode = oct(os.stat(source.split(":", 1)[1]).st_mode & 0o777)
            print(f"    uid {NOBODY} groups {groups}, {source} (mode {mode}) → exit {code}, {rows} samples {err.strip()}")
            return code, err, rows

        os.chmod("/tmp", 0o1777)
        print("\n  before the rule:")
        for source, groups in ((f"hidraw:{hidraw}", [INPUT_GID]), (f"evdev:{evdev}", [])):
            code, err, _ = attempt(source, groups, "/tmp/kt-denied.csv")
            assert code != 0 and "permission denied" in err and source.split(":", 1)[1] in err
            assert "70-tiltkit.rules" in err, "the error does not name the udev rule"
        install_rule()
        subprocess.run(["udevadm", "settle", "--timeout=30"])
        print("  with Assets/udev/70-tiltkit.rules installed:")
        for source, out in ((f"hidraw:{hidraw}", "/tmp/kt-user-hidraw.csv"), (f"evdev:{evdev}", "/tmp/kt-user-evdev.csv")):
            code, err, rows = attempt(source, [INPUT_GID], out)
            assert code == 0 and rows > 50
    finally:
        streamer.stop()
        pad.destroy()


def sdl_pad():
    pad, hidraw, evdev = create(pads.DS4USB)
    subprocess.run(["udevadm", "settle", "--timeout=30"])
    return pad


def test_sdl_controller_sensors_record():
    """Debian's SDL 2.26 gives a DualShock 4 no sensors (its PlayStation sensors come only through
    its HIDAPI driver); tiltkit must say so and name the direct sources."""
    pad = sdl_pad()
    streamer = pads.Streamer(pad, VALUES)
    try:
        code, listing, err = run("devices", "--sdl", timeout=120)
        print(f"\n  tiltkit devices --sdl (exit {code}):\n" + "\n".join("    " + l for l in listing.splitlines()))
        code, stdout, err = run("record", "--source", "sdl", "--out", "/tmp/kt-sdl.csv", "--duration", "4", timeout=120)
        rows = Trace("/tmp/kt-sdl.csv").rows if code == 0 and os.path.exists("/tmp/kt-sdl.csv") else []
        print(f"  record --source sdl → exit {code}, {len(rows)} samples: {stdout.strip()} {err.strip()}")
        if code == 0:
            assert len(rows) > 100 and all(b[0] > a[0] for a, b in zip(rows, rows[1:]))
        else:
            assert "hidraw:" in err and "evdev:" in err, "no direct source offered"
    finally:
        streamer.stop()
        pad.destroy()


def test_sdl_switch_pro_sensors_record():
    """SDL 2.26 reads a Switch Pro's sensors through its HIDAPI driver, which talks to the pad itself
    (its own handshake, beside hid-nintendo's); under an emulated CPU the model's answers can come too
    late for that handshake, and SDL then offers only the kernel's joystick, without sensors. Either
    the samples arrive in order, or tiltkit says so plainly and names the direct sources."""
    from models.switch_pro import SwitchProController
    pad = SwitchProController(bus="usb")
    pad.set_motion((1000, -2000, 4096), (100, -200, 300))
    pad.start_device()
    try:
        assert nodes.wait_for(pad.imu_event_node, 30)
        subprocess.run(["udevadm", "settle", "--timeout=30"])
        code, stdout, err = run("record", "--source", "sdl", "--out", "/tmp/kt-sdl-switch.csv", "--duration", "4", timeout=120)
        rows = Trace("/tmp/kt-sdl-switch.csv").rows if code == 0 else []
        print(f"\n  Switch Pro: record --source sdl → exit {code}, {len(rows)} samples: {stdout.strip()} {err.strip()}")
        if code == 0:
            assert len(rows) > 100 and all(b[0] > a[0] for a, b in zip(rows, rows[1:]))
        else:
            assert "hidraw:" in err and "evdev:" in err, "no direct source offered"
    finally:
        pad.destroy()


@pytest.mark.parametrize("scene,kind", [("teapot", "evdev"), ("cart", "hidraw"), ("teapot", "sdl")])
def test_windowed_scene_with_a_live_pad_under_xvfb(scene, kind):
    """The windowed apps on a pad the kernel drives: the window's loop pulls its samples (and, for
    `sdl`, its one event pump feeds SDL's controller source, or tiltkit says why SDL has no sensors)."""
    pad, hidraw, evdev = create(pads.DS4USB)
    subprocess.run(["udevadm", "settle", "--timeout=30"])
    streamer = pads.Streamer(pad, VALUES)
    source = {"evdev": f"evdev:{evdev}", "hidraw": f"hidraw:{hidraw}", "sdl": "sdl"}[kind]
    try:
        p = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 640x480x24", os.environ["TILTKIT_BIN"], scene,
                            "--source", source, "--size", "320x240", "--frames", "60"],
                           capture_output=True, text=True, timeout=300, env={**os.environ, "SDL_VIDEODRIVER": "x11"})
        print(f"\n  xvfb-run tiltkit {scene} --source {source} --frames 60 → exit {p.returncode}: {p.stdout.strip()} "
              f"{p.stderr.strip()[-300:]}")
        if kind == "sdl" and p.returncode == 6:
            assert "hidraw:" in p.stderr and "evdev:" in p.stderr, "no direct source offered"
            return
        assert p.returncode == 0
        match = re.search(r"motion: .*, (\d+) Hz measured", p.stdout)
        assert match and int(match.group(1)) > 0, "the window's loop received no samples"
    finally:
        streamer.stop()
        pad.destroy()
