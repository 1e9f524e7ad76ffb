"""`tiltkit bench latency --source` on a virtual DualShock 4 (USB) through hid-playstation and hidraw,
sending at known intervals: the bench's report intervals, drops and duplicates must match what the
pad sent.

The pad's clock says when each report was meant to be sent (`Timed`), so the expected figures come
from the stamps the pad actually sent during the run (an emulated CPU falls behind and restarts its
schedule: that shows in the stamps as a gap, and the bench must count it as the pad's loss). Under
TCG (software-emulated CPU) the 250 Hz case's drops match the pad's gaps within 5 % (57/57, 125/125,
155/155, 118/119 in four runs; 112/121 on a busy host); the burst case's (500 Hz in bursts of 4)
within 15 %, where the emulated reader can fall behind.
Figures of the host (arrival intervals, sample age) are printed, not asserted, beyond being present:
under TCG they measure the emulator."""
import json
import statistics
import threading
import time

import nodes
import pads
from tiltkit import run

VALUES = ((400, 8000, -600), (120, -250, 380))
PERIOD = 0.004      # 250 Hz, the DualShock 4's USB rate


class Timed:
    """Sends reports whose clock stamps follow a schedule: `pattern(n)` gives report n's
    (send time offset, clock offset), or None to drop it. Behind schedule by more than 20 ms
    (an emulated CPU), it restarts the schedule from now, as a pad would: the stamps then show a
    gap, which the bench must count as lost reports too."""

    def __init__(self, pad, pattern):
        self.pad, self.pattern = pad, pattern
        self.sent = []      # (time.monotonic() at send, pad clock seconds)
        self.done = threading.Event()
        pad.clock.frozen = True    # the schedule sets the clock
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        start, base, n = time.monotonic(), self.pad.clock.seconds, 0
        while not self.done.is_set():
            step = self.pattern(n)
            n += 1
            if step is None:
                continue
            send_at, stamp = step
            wait = start + send_at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            elif wait < -0.02:
                base += time.monotonic() - start - send_at
                start = time.monotonic() - send_at
            self.pad.clock.seconds = base + stamp
            self.pad.send(*VALUES)
            self.sent.append((time.monotonic(), self.pad.clock.seconds))

    def stop(self):
        self.done.set()
        self.thread.join()

    def expected(self, begin, end):
        """(samples, drops, send times) by the bench's rule over the stamps sent between `begin`
        and `end`; the send times (monotonic seconds) say how the sends themselves were spaced."""
        window = [(t, c) for t, c in self.sent if begin <= t <= end]
        stamps = [c for _, c in window]
        gaps = [b - a for a, b in zip(stamps, stamps[1:])]
        period = statistics.median(gaps)
        return len(stamps), sum(round(g / period) - 1 for g in gaps if g >= 1.5 * period), [t for t, _ in window]


def sender_intervals(expected):
    """(p50, p90) in seconds of the intervals between the sends that `expected` covers."""
    times = expected[2]
    intervals = sorted(b - a for a, b in zip(times, times[1:]))
    return statistics.median(intervals), intervals[int(0.9 * (len(intervals) - 1))]


def bench(hidraw, pad, pattern, seconds=2, extra=(), which="latency"):
    """Runs `bench latency` (or `pull`) while the pad sends by `pattern`: per path measured, (its
    report, (samples, gaps) the pad sent while that path counted), and the paths skipped."""
    sender = Timed(pad, pattern)
    try:
        begin = time.monotonic()
        code, out, err = run("bench", which, "--source", f"hidraw:{hidraw}", "--duration", str(seconds),
                             "--frame-rate", "60", "--json", "--gyro-calibration", "off", *extra, timeout=180)
        end = time.monotonic()
    finally:
        sender.stop()
    assert code == 0, err
    document = json.loads(out)["report"]
    measured = []
    for report in document["reports"]:
        first, last = report["arrivalSpan"]
        assert begin <= first <= last <= end
        # The reports sent while the bench counted (a send reaches tiltkit within the 20 ms slack).
        measured.append((report, sender.expected(first - 0.02, last)))
    return measured, document["skipped"]


def show(name, r, expected):
    ts, arrival = r["byTimestamp"], r["byArrival"]
    print(f"  {name}: {ts['samples']} samples, interval p50 {ts['intervals']['p50'] / 1e3:.0f} µs "
          f"p99 {ts['intervals']['p99'] / 1e3:.0f} µs, drops {ts.get('drops')}, duplicates {ts.get('duplicates')}; "
          f"arrival p50 {arrival['intervals']['p50'] / 1e3:.0f} µs p99 {arrival['intervals']['p99'] / 1e3:.0f} µs; "
          f"age at 60 Hz mean {r['frames'][0]['age']['mean'] / 1e3:.0f} µs (ideal {r['idealAge']['measuredSpacing'] / 1e3:.0f} µs); "
          f"the pad sent {expected[0]} reports with {expected[1]} gaps meanwhile")


def check_drops(r, expected, slack=0.05):
    """The bench's drops are the gaps in the stamps the pad sent while it counted. Reports the
    bench did not see (lost on the host's way when the hidraw node's 64-report ring overflows
    under an emulated CPU, or sent at the window's edges, which arrival latency blurs) may each
    add one; beyond that, `slack` of the samples (a report at each merged gap)."""
    ts = r["byTimestamp"]
    sent, gaps = expected[:2]
    unseen = max(0, sent - ts["samples"])
    assert abs(ts["drops"] - gaps) <= slack * ts["samples"] + 3 + unseen, (ts, expected)
    assert ts["duplicates"] == 0


def test_intervals_drops_bursts_jitter():
    pad = pads.DS4USB()
    pad.create_kernel_device()
    hidraw = nodes.wait_for(lambda: nodes.hidraw_node(pad), 60)
    assert hidraw, f"no hidraw node: kernel log {nodes.kernel_log(8)}"
    try:
        # Bluetooth-like: 250 Hz stamps, sends jittered by up to ±3 ms (neighbours bunch up), and
        # every 10th report dropped: one drop per 9 samples, more where TCG restarts the schedule.
        jitter = [((i * 7919) % 13 - 6) * 0.0005 for i in range(97)]
        # --compare-paths: hidraw, then the kernel's evdev node of the same pad (MSC_TIMESTAMP), then
        # SDL (Debian's SDL offers this pad without sensors in the VM: skipped, with the reason).
        paths, skipped = bench(hidraw, pad, lambda n: None if n % 10 == 9 else (max(0.0, n * PERIOD + jitter[n % 97]), n * PERIOD),
                               extra=("--compare-paths",))
        print(f"  paths: {[r['path'] for r, _ in paths]}; skipped: {skipped}")
        assert [r["path"].split(":")[0] for r, _ in paths][:2] == ["hidraw", "evdev"], (paths, skipped)
        r, expected = paths[0]
        show("250 Hz, ±3 ms jitter, every 10th dropped (hidraw)", r, expected)
        evdev, evdev_expected = paths[1]
        show("the same through evdev", evdev, evdev_expected)
        assert evdev["byTimestamp"]["clock"].startswith("MSC_TIMESTAMP")
        assert abs(evdev["byTimestamp"]["intervals"]["p50"] - PERIOD * 1e9) < 0.1 * PERIOD * 1e9
        check_drops(evdev, evdev_expected)
        ts = r["byTimestamp"]
        assert abs(ts["intervals"]["p50"] - PERIOD * 1e9) < 0.1 * PERIOD * 1e9
        assert ts["drops"] >= ts["samples"] // 10
        check_drops(r, expected)
        assert r["frames"][0]["age"]["count"] > 0 and r["arrivalToVisible"]["count"] > 0
        assert "no rate setting" not in r["rateControl"]   # no update interval asked: every sample

        # 500 Hz samples sent in bursts of 4 every 8 ms, after they were measured (a pad polled at
        # 125 Hz with 500 Hz data): the stamps keep 2 ms, the arrivals bunch. Within a burst the
        # spacing is the emulated sender's own (0.4–0.5 ms per report on a quiet host under TCG,
        # 0.8 ms on a busy one, which once failed a 1 kHz version of this case whose bounds had
        # under 0.2 ms of margin); here a sender up to 1.5 ms per report still makes bursts.
        [(r, expected)], _ = bench(hidraw, pad, lambda n: ((n // 4 + 1) * 0.008, n * 0.002))
        show("500 Hz in bursts of 4", r, expected)
        sent = sender_intervals(expected)
        print(f"  the sender's own intervals: p50 {sent[0] * 1e3:.2f} ms, p90 {sent[1] * 1e3:.2f} ms")
        ts = r["byTimestamp"]
        assert abs(ts["intervals"]["p50"] - 2e6) < 0.2e6
        # Arrivals follow the sends, not the stamps: within a burst shorter than the stamps' spacing,
        # and one interval in four the rest of the 8 ms between bursts.
        assert r["byArrival"]["intervals"]["p50"] < 0.75 * ts["intervals"]["p50"]
        assert r["byArrival"]["intervals"]["p90"] > 1.5 * ts["intervals"]["p50"]
        # Under TCG on a busy host the emulated reader can fall behind the bursts: the count holds
        # only loosely there (at 1 kHz: 125 against the pad's 125 gaps on a quiet host, 543 against
        # 547 and 1439 against 1331 on a busy one).
        check_drops(r, expected, slack=0.15)

        # `bench pull --source`: the same stream, with the cost of the game's pull of it.
        [(r, expected)], _ = bench(hidraw, pad, lambda n: (n * PERIOD, n * PERIOD), seconds=3, which="pull")
        show("250 Hz, bench pull", r, expected)
        cost = r["pullCost"]
        print(f"  latestDeviceMotion p50 {cost['p50']:.0f} ns, p99.9 {cost['p999']:.0f} ns over {cost['count']} pulls")
        assert abs(r["byTimestamp"]["intervals"]["p50"] - PERIOD * 1e9) < 0.1 * PERIOD * 1e9
        assert cost["count"] > 0 and 0 < cost["p50"] <= cost["p999"]
        check_drops(r, expected)
    finally:
        pad.destroy()
