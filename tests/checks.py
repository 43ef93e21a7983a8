"""The failures a Python test collects, for the tests of `vx repl --protocol=jsonl` and the
notebook: every check runs and says what it got and wanted, and the test fails at the end if any
did. Import it with the test's folder on sys.path."""
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
