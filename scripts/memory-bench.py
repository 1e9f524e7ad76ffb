#!/usr/bin/env python3
"""Peak memory of every tiltkit command that reads a trace, on one long generated trace.

Writes a tiltkit trace of --size-mb MB (default 1024: about 9 million samples, a day at 100 Hz of
walking, standing and turning) in a temporary folder, runs each command over it to its end, and
prints each child's peak resident set (getrusage's ru_maxrss, via wait4) against the bound every
command must keep (--limit-mb, 200). The folder is deleted afterwards. Exit status 1 if any
command failed or passed the bound.

    scripts/memory-bench.py --tiltkit .build/release/tiltkit            # 1 GB, all commands
    scripts/memory-bench.py --size-mb 100 --only pedometer,activity
    scripts/memory-bench.py --sensor-logger --only "convert folder,pedometer folder"

With --sensor-logger it also writes a Sensor Logger export folder of the same size (one CSV per
sensor, each on its own clock) and runs the commands that read one over it.
"""
import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

RATE_HZ = 100.0


def tails(seconds=60):
    """The rows' values after the time cell for one minute at RATE_HZ, repeated through the trace:
    20 s of walking (a 2 Hz bounce, swaying turns), 20 s standing still, 20 s turning on the spot."""
    rows = []
    for i in range(int(seconds * RATE_HZ)):
        t = i / RATE_HZ
        phase = t % 60
        if phase < 20:
            bounce = 0.35 * math.sin(2 * math.pi * 2 * t)
            sway = 0.6 * math.sin(2 * math.pi * 0.5 * t)
            a = (0.05 * math.sin(2 * math.pi * 1 * t), 0.03, -1 + bounce)
            g = (0.1 * math.sin(2 * math.pi * 2 * t), 0.05, sway)
        elif phase < 40:
            a = (0.001 * math.sin(7 * t), 0.002, -1.0)
            g = (0.0005, -0.0003, 0.0002)
        else:
            spin = 1.5 * math.sin(2 * math.pi * 0.25 * t)
            a = (0.2 * math.sin(2 * math.pi * 0.25 * t), 0.1 * math.cos(2 * math.pi * 0.25 * t), -0.97)
            g = (0.3 * spin, 0.2 * spin, spin)
        heading = 0.3 * t
        m = (20 * math.cos(heading), 20 * math.sin(heading), -40.0)
        rows.append(",".join(f"{v:.6g}" for v in a + g + m))
    return rows


def write_trace(path, size_mb):
    header = ("# tiltkit-trace v1\n# source: memory-bench\n# nominal-rate-hz: 100.0\n"
              "t (s),ax (g),ay (g),az (g),gx (rad/s),gy (rad/s),gz (rad/s),mx (uT),my (uT),mz (uT)\n")
    target = size_mb * 1024 * 1024
    cycle = tails()
    written, i = 0, 0
    with open(path, "w") as f:
        f.write(header)
        while written < target:
            block = []
            for _ in range(len(cycle)):
                block.append(f"{i / RATE_HZ:.2f},{cycle[i % len(cycle)]}\n")
                i += 1
            text = "".join(block)
            f.write(text)
            written += len(text)
    return i


SENSOR_LOGGER_STREAMS = [
    # file, header after the time cells, rate (Hz), first stamp (s), values at time t
    ("AccelerometerUncalibrated.csv", "z,y,x", 100, 0.25, lambda t: (-1 + 0.35 * math.sin(4 * math.pi * t), 0.03, 0.05 * math.sin(2 * math.pi * t))),
    ("Gyroscope.csv", "z,y,x", 100, 0.251, lambda t: (0.5 * math.sin(0.5 * t), 0.05, 0.1 * math.sin(4 * math.pi * t))),
    ("Magnetometer.csv", "z,y,x", 50, 0.262, lambda t: (-40.0, 20 * math.sin(0.3 * t), 20 * math.cos(0.3 * t))),
    ("Gravity.csv", "z,y,x", 100, 0.251, lambda t: (-9.7, 0.5 * math.sin(2 * t), 0.4 * math.cos(t))),
    ("Accelerometer.csv", "z,y,x", 100, 0.251, lambda t: (0.3 * math.sin(5 * t), 0.2 * math.cos(4 * t), 0.1 * math.sin(6 * t))),
    ("Barometer.csv", "relativeAltitude,pressure", 1, 0.7, lambda t: (0.1 * math.sin(0.1 * t), 1002.5 + 0.01 * math.sin(0.1 * t))),
]


def write_sensor_logger_folder(path, size_mb):
    """An iOS Sensor Logger export (awesome-sensor-logger's layout) of about size_mb MB: its files
    share the bytes by their rates. Returns the accelerometer's rows (the samples it makes)."""
    os.makedirs(path)
    with open(os.path.join(path, "Metadata.csv"), "w") as f:
        f.write("version,device name,recording time,platform,appVersion,standardisation\n"
                "3,iPhone,2023-11-14_22-13-20,ios,1.30.0,false\n")
    bytes_per_second = sum(rate * 70 for _, _, rate, _, _ in SENSOR_LOGGER_STREAMS)
    seconds = size_mb * 1024 * 1024 / bytes_per_second
    for name, columns, rate, start, values in SENSOR_LOGGER_STREAMS:
        cycle = [",".join(f"{v:.9g}" for v in values(i / rate)) for i in range(60 * rate)]
        with open(os.path.join(path, name), "w") as f:
            f.write(f"time,seconds_elapsed,{columns}\n")
            rows = int(seconds * rate)
            for first in range(0, rows, len(cycle)):
                block = []
                for i in range(first, min(first + len(cycle), rows)):
                    t = start + i / rate
                    block.append(f"{1_700_000_000_000_000_000 + round(t * 1e9)},{t:.6f},{cycle[i % len(cycle)]}\n")
                f.write("".join(block))
    return int(seconds * 100)


def folder_commands(export):
    return {
        "convert folder": ["convert", export, "-"],
        "pedometer folder": ["pedometer", export],
    }


def commands(trace, folder):
    return {
        "replay": ["replay", trace],
        "replay --realtime": ["replay", trace, "--realtime", "--speed", "1000000"],
        "fuse": ["fuse", trace, "--out", "-"],
        "convert": ["convert", trace, "-"],
        "pedometer": ["pedometer", trace],
        "activity": ["activity", trace],
        "compare": ["compare", trace],
        "map --dry-run": ["map", "--dry-run", "--source", trace, "--speed", "1000000", "--status-interval", "0"],
        "map --plot": ["map", "--source", trace, "--plot", os.path.join(folder, "map.svg")],
        "record": ["record", "--source", trace, "--speed", "1000000", "--out", os.path.join(folder, "recorded.csv")],
        "history record": ["history", "record", "--source", trace, "--speed", "1000000", "--duration", "600",
                           "--out", os.path.join(folder, "history.tkh")],
        "teapot --headless": ["teapot", "--source", trace, "--headless", "--frames", "2",
                              "--screenshot", os.path.join(folder, "teapot.png")],
        "cart --headless --events": ["cart", "--source", trace, "--headless", "--events"],
        "aim --headless --events": ["aim", "--source", trace, "--headless", "--events"],
    }


def run(tiltkit, arguments):
    """(exit status, peak RSS in MB, wall seconds, last line of stderr) of one child."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen([tiltkit] + arguments, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        err.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024, time.monotonic() - started, (lines or [""])[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tiltkit", default=".build/debug/tiltkit")
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--limit-mb", type=float, default=200)
    parser.add_argument("--only", help="comma-separated command names (as printed)")
    parser.add_argument("--folder", help="where to write the trace (default: a temporary folder)")
    parser.add_argument("--sensor-logger", action="store_true",
                        help="also write a Sensor Logger export folder of the same size and read it")
    args = parser.parse_args()
    if not os.access(args.tiltkit, os.X_OK):
        sys.exit(f"memory-bench: {args.tiltkit}: expected the built tiltkit (swift build --product tiltkit)")
    folder = tempfile.mkdtemp(prefix="tiltkit-memory-bench-", dir=args.folder)
    try:
        trace = os.path.join(folder, "long.csv")
        started = time.monotonic()
        samples = write_trace(trace, args.size_mb)
        print(f"trace: {os.path.getsize(trace) / 2**20:.0f} MB, {samples} samples ({samples / RATE_HZ / 3600:.1f} h at "
              f"{RATE_HZ:.0f} Hz), written in {time.monotonic() - started:.0f} s; bound {args.limit_mb:.0f} MB")
        wanted = set(args.only.split(",")) if args.only else None
        failed = False
        cases = commands(trace, folder)
        if args.sensor_logger:
            export = os.path.join(folder, "sensor-logger")
            started = time.monotonic()
            rows = write_sensor_logger_folder(export, args.size_mb)
            size = sum(os.path.getsize(os.path.join(export, f)) for f in os.listdir(export))
            print(f"Sensor Logger folder: {size / 2**20:.0f} MB, {rows} accelerometer rows, written in {time.monotonic() - started:.0f} s")
            cases.update(folder_commands(export))
        print(f"{'command':<20} {'peak RSS MB':>11} {'wall s':>8}  result")
        for name, arguments in cases.items():
            if wanted and name not in wanted:
                continue
            status, peak, wall, last = run(args.tiltkit, arguments)
            over = peak > args.limit_mb
            failed |= over or status != 0
            verdict = ("OVER THE BOUND" if over else "ok") + ("" if status == 0 else f"; exit {status}: {last}")
            print(f"{name:<20} {peak:>11.1f} {wall:>8.1f}  {verdict}", flush=True)
        return 1 if failed else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
