"""Running the tiltkit binary in the guest and reading what it wrote."""
import glob
import os
import signal
import subprocess
import threading
import time

BINARY = os.environ.get("TILTKIT_BIN", "tiltkit")


def run(*args, timeout=60, user=None, env=None):
    """Runs `tiltkit ARGS` to the end: (exit code, stdout, stderr)."""
    p = subprocess.run(_command(args, user), capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr


def _command(args, user):
    command = [BINARY, *args]
    if user is not None:
        # An unprivileged user: uid/gid nobody, with the supplementary groups given.
        uid, groups = user
        command = ["setpriv", f"--reuid={uid}", f"--regid={uid}",
                   "--groups=" + ",".join(map(str, groups)) if groups else "--clear-groups", *command]
    return command


class Trace:
    """A tiltkit trace: data rows (t, ax, ay, az, gx, gy, gz, …) and comment lines."""

    def __init__(self, path):
        self.rows, self.comments, self.header = [], [], None
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("#"):
                    self.comments.append(line)
                elif self.header is None:
                    self.header = line.split(",")
                elif line:
                    self.rows.append([float(c) if c else None for c in line.split(",")])

    @property
    def times(self):
        return [r[0] for r in self.rows]


class Recording:
    """`tiltkit record --source SPEC` in the background; stderr lines kept with their arrival time."""

    # Every recording started, so a failed case cannot leave one running into the next.
    started = []

    def __init__(self, source, out, user=None, extra=(), env=None):
        Recording.started.append(self)
        self.out = out
        if os.path.exists(out):
            os.unlink(out)
        self.lines = []
        # The device path's values as the kernel gives them: the gyro calibration (on by default
        # for live sources) would take a held test value for a bias; it has tests of its own.
        command = ["record", "--source", source, "--out", out, "--gyro-calibration", "off", *extra]
        self.process = subprocess.Popen(_command(command, user), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env={**os.environ, **(env or {})})
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()
        self.stdout = ""

    def _read_stderr(self):
        for line in self.process.stderr:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    def wait_started(self, timeout=60):
        """True once the trace is being written (the source is open and recording): record writes
        it beside the output as `.NAME.tiltkit-XXXXXX` and renames it into place when it ends."""
        folder, name = os.path.split(self.out)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.path.exists(self.out) or glob.glob(os.path.join(folder or ".", f".{name}.tiltkit-*")):
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.02)
        return False

    def wait_line(self, text, timeout):
        """The monotonic time at which a stderr line containing `text` arrived, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for t, line in self.lines:
                if text in line:
                    return t
            time.sleep(0.005)
        return None

    def rows(self):
        return Trace(self.out).rows if os.path.exists(self.out) else []

    def stop(self, timeout=30):
        """Ctrl-C, as a user would; returns (exit code, stdout, stderr text)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.stdout = self.process.communicate(timeout=timeout)[0]
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.stdout = self.process.communicate()[0]
        self._reader.join(timeout=2)
        return self.process.returncode, self.stdout, "\n".join(line for _, line in self.lines)
