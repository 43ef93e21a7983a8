"""Where a campaign's shards run (spec/smith.md §8): processes of this machine.

A pool gives the campaign three calls: submit a task, wait for some to finish, and whether a
failed task was lost with its process: a pool whose process died is replaced and its unfinished
tasks are submitted again (by the campaign, which asks `lost`).
"""

from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool


class LocalPool:
    """`--jobs J` processes of this machine."""

    def __init__(self, jobs):
        self.jobs = jobs
        self.ex = ProcessPoolExecutor(jobs)
        self.slots = jobs
        self.where = "%d local process%s" % (jobs, "" if jobs == 1 else "es")

    def submit(self, name, fn, *args):
        f = self.ex.submit(fn, *args)
        f.vx_pool = self.ex  # the pool it went to
        return f

    def wait(self, pending, timeout):
        return wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)

    def lost(self, future):
        """Was the task lost with its process (to be run again), rather than failed?"""
        try:
            future.result()
        except BrokenProcessPool:
            if future.vx_pool is self.ex:  # a process died: a new pool for what is left
                self.ex.shutdown(wait=False, cancel_futures=True)
                self.ex = ProcessPoolExecutor(self.jobs)
            return True
        except Exception:
            return False
        return False

    def map(self, fn, arglist):
        return [f.result() for f in [self.ex.submit(fn, *args) for args in arglist]]

    def starts(self):
        return {}

    def close(self):
        self.ex.shutdown(cancel_futures=True)
