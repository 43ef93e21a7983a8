"""Live progress of a run (spec/smith.md §7): what is done, the findings, the rate, the time left.

On a terminal, one line rewritten in place (at most five times a second); otherwise (a log, CI)
a line every tenth of a counted run or every `every_seconds`, whichever comes first, and a last
line at the end. The first finding of each signature is printed as a line of its own when it is
found (the others only counted: an implementation with one bug in its printing would otherwise
print a line per program). Everything goes to stderr, so that stdout keeps only the summary.
"""

import shutil
import sys
import time


def plural(n, word, words=None):
    """`1 finding`, `2 findings`, `0 findings`."""
    return "%d %s" % (n, word if n == 1 else (words or word + "s"))


def duration(seconds):
    seconds = int(round(max(0, seconds)))
    if seconds < 60:
        return "%d s" % seconds
    if seconds < 3600:
        return "%dm%02ds" % (seconds // 60, seconds % 60)
    return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)


class Progress:
    def __init__(self, what, total=None, deadline=None, quiet=False, stream=None, every_seconds=30.0,
                 tty=None):
        self.what = what  # "programs", "programs and mutants"
        self.total = total  # None when only a deadline bounds the run
        self.deadline = deadline
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every_seconds = every_seconds
        self.every_items = max(1, total // 10) if total else 100
        self.t0 = time.time()
        self.done = self.findings = 0
        self.last_line = self.t0
        self.last_items = 0
        self.last_draw = 0.0
        self.drawn = False
        self.kinds = set()  # the findings' signatures so far

    def text(self):
        now = time.time()
        spent = now - self.t0
        rate = self.done / spent if spent > 0 else 0.0
        left = None
        if self.deadline is not None:
            left = self.deadline - now
        if self.total and rate > 0:
            by_count = (self.total - self.done) / rate
            left = by_count if left is None else min(left, by_count)
        done = "%d/%d" % (self.done, self.total) if self.total else "%d" % self.done
        text = "smith: %s %s, %s, %.1f/s, %s elapsed%s" % (
            done, self.what, plural(self.findings, "finding"), rate, duration(spent),
            ", %s left" % duration(left) if left is not None else "")
        if self.tty:  # a line that wraps would not be rewritten in place
            text = text[:max(20, shutil.get_terminal_size().columns - 1)]
        return text

    def found(self, line, signature):
        """A finding: its line when it is the first of its signature."""
        self.findings += 1
        if signature not in self.kinds:
            self.kinds.add(signature)
            self.note(line + ("" if len(self.kinds) == 1 else " (signature %d)" % len(self.kinds)))

    def update(self, done):
        self.done = done
        if self.quiet:
            return
        now = time.time()
        if self.tty:
            if now - self.last_draw >= 0.2 or self.total and done >= self.total:
                self.stream.write("\r" + self.text() + "\x1b[K")
                self.stream.flush()
                self.last_draw = now
                self.drawn = True
        elif done - self.last_items >= self.every_items or now - self.last_line >= self.every_seconds:
            self._line()

    def _line(self):
        self.stream.write(self.text() + "\n")
        self.stream.flush()
        self.last_line = time.time()
        self.last_items = self.done

    def note(self, line):
        """A line of its own (a finding, a retried shard), above the progress line."""
        if self.quiet:
            return
        if self.tty and self.drawn:
            self.stream.write("\r\x1b[K")
        self.stream.write(line + "\n")
        if self.tty and self.drawn:
            self.stream.write(self.text() + "\x1b[K")
        self.stream.flush()

    def close(self):
        if self.quiet:
            return
        if self.tty:
            self.stream.write("\r" + self.text() + "\x1b[K\n")
        elif self.done != self.last_items or self.done == 0:
            self._line()
        self.stream.flush()
