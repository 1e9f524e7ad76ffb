"""Shared set-up for the kernel tests: run in the guest by guest.sh, one VM boot for the suite."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "models"))   # the models import each other by name

import pads  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def dispatcher():
    d = pads.Dispatcher()
    yield d
    d.stop()


@pytest.fixture(autouse=True)
def no_recording_outlives_its_case():
    yield
    from tiltkit import Recording
    for recording in Recording.started:
        if recording.process.poll() is None:
            recording.process.kill()
    Recording.started.clear()


def pytest_terminal_summary(terminalreporter):
    """The closing line every runner here prints: 'N passed, N failed'."""
    stats = terminalreporter.stats
    passed, failed = len(stats.get("passed", [])), len(stats.get("failed", [])) + len(stats.get("error", []))
    skipped = len(stats.get("skipped", []))
    terminalreporter.write_line(f"kernel-test: {passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))


def pytest_runtest_logreport(report):
    """Each case's own time beside its verdict, so the log shows where the suite's minutes go even
    when the VM's timeout cuts the run short of pytest's closing durations table."""
    if report.when == "call":
        sys.stdout.write(f"  [{report.duration:.1f} s] ")
