"""What the Python tests share. Checks: the failures a test collects (every check runs and says
what it got and wanted, and the test fails at the end if any did). on_terminal: a command run with
one of its outputs a terminal. Import it with the test's folder on sys.path."""
import os
import pty
import subprocess
import sys


class Checks:
    def __init__(self, name):
        self.name = name
        self.failures = []

    def fail(self, msg):
        self.failures.append(msg)
        print("FAIL: " + msg)

    def expect(self, what, got, want):
        if got != want:
            self.fail(f"{what}: got {got!r}, want {want!r}")

    def finish(self):
        print(f"{self.name}: {len(self.failures)} failures")
        sys.exit(1 if self.failures else 0)


def on_terminal(argv, which, env=None, cwd=None, timeout=60):
    """Runs `argv` with its standard `which` ("stdout" or "stderr") a pseudo-terminal and the
    other discarded; returns its exit status and all it wrote to the terminal, as bytes."""
    leader, follower = pty.openpty()
    streams = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, which: follower}
    p = subprocess.Popen(argv, env=env, cwd=cwd, **streams)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the program ended and closed its end
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    return p.wait(timeout=timeout), out
