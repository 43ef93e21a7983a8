"""How smith and a campaign end when they are ended: SIGTERM (`timeout`, `kill`, a batch job's
end, to the process alone or to its whole process group) or SIGINT (Ctrl-C).

In the process that owns a pool the signal is noted, not raised where it lands: raised inside
concurrent.futures (while the pool starts, in a submit or a wait) it could leave a lock taken
that the pool's shutdown then waited for forever; and a campaign killed outright left its pool's
processes waiting for work that never came, and its scratch folder. Once noted, the owner stops
submitting, sets the pool's stop event (its processes skip what is queued, and a shard stops
between seeds), shuts the pool down and ends as the signal says.

In a pool's process the signal gives up what it is running (`Stopped`; its vx subprocess.run
kills) and is ignored while it waits for work: a process that died of it would break the pool.
"""

import contextlib
import functools
import multiprocessing
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(BaseException):
    """What a pool's process was running, given up: smith is being ended."""


class Noted:
    """`with Noted() as n:` SIGTERM and SIGINT are noted in `n.signum` (the first one), not raised;
    `n.end()` then ends as the signal says: status 128+N for SIGTERM, KeyboardInterrupt for
    SIGINT. A pool made inside starts its processes with the noting handler too, until
    `_worker_init` replaces it."""

    def __init__(self):
        self.signum = None
        self._old = {}

    def _note(self, signum, _frame):
        if self.signum is None:
            self.signum = signum

    def note(self, signum):
        self._note(signum, None)

    def __enter__(self):
        self._old = {s: signal.signal(s, self._note) for s in SIGNALS}
        return self

    def __exit__(self, *exc):
        for s, h in self._old.items():
            signal.signal(s, h)
        return False

    def end(self):
        if self.signum == signal.SIGINT:
            raise KeyboardInterrupt
        if self.signum is not None:
            raise SystemExit(128 + self.signum)


_running = False  # a pool's process is running a task (not waiting for one)
_stop = None  # a pool's process: its pool's stop event


def _stop_task(signum, _frame):
    if _running:
        raise Stopped(signum)


def _worker_init(stop, init, initargs):
    global _stop
    _stop = stop
    for s in SIGNALS:
        signal.signal(s, _stop_task)
    if init is not None:
        init(*initargs)


def pool(jobs, init=None, initargs=()):
    """A ProcessPoolExecutor whose processes run `init(*initargs)` first, and its stop event. Give
    it its tasks through `in_pool`."""
    stop = multiprocessing.Event()
    return ProcessPoolExecutor(jobs, initializer=_worker_init, initargs=(stop, init, initargs)), stop


def in_pool(fn, *args):
    """fn(*args) in a pool's process, or None once its owner is ending."""
    global _running
    if _stop.is_set():
        return None
    _running = True
    try:
        return fn(*args)
    finally:
        _running = False


_watched = threading.local()  # a thread that runs a task of a Dask worker: how it learns of the end


@contextlib.contextmanager
def watching(is_set, every=0.5):
    """In a thread that runs a task for a pool of another kind (a Dask worker's, whose owner's
    signal cannot reach it): `stopping()` there asks `is_set()`, at most once every `every`
    seconds, and is true from the first time it says so."""
    _watched.state = {"is_set": is_set, "every": every, "asked": None, "ended": False}
    try:
        yield
    finally:
        _watched.state = None


def stopping():
    """Is this a pool's process or a watching thread whose owner is ending? (A shard asks between
    seeds.)"""
    if _stop is not None and _stop.is_set():
        return True
    w = getattr(_watched, "state", None)
    if w is None:
        return False
    now = time.monotonic()
    if not w["ended"] and (w["asked"] is None or now - w["asked"] >= w["every"]):
        w["asked"] = now
        try:
            w["ended"] = bool(w["is_set"]())
        except Exception:  # the scheduler gone: the client's end lets the task go anyway
            pass
    return w["ended"]


def main_of(name):
    """A command's main, which Ctrl-C ends with status 130 and `NAME: interrupted` rather than a
    traceback (its `finally`s have removed its folders by then)."""

    def wrap(main):
        @functools.wraps(main)
        def run(*args, **kw):
            try:
                return main(*args, **kw)
            except KeyboardInterrupt:
                print("%s: interrupted" % name, file=sys.stderr)
                return 128 + signal.SIGINT

        return run

    return wrap
