"""Where a campaign's shards run (spec/smith.md §8): processes of this machine, or a Dask
distributed cluster (Debian's python3-distributed), an existing one (`--scheduler`) or one
started here on the loopback interface (`--workers N`), by a host process (`host`, below) in a
session of its own.

Both give the campaign the same three calls: submit a task, wait for some to finish, and the
shards that had to run again because a worker died. A task lost with its worker is run again:
on a cluster, the scheduler gives it to another worker (each task says where it starts, into a
Dask Queue, so a second start is seen); here, a pool whose process died is replaced and its
unfinished tasks are submitted again (by the campaign, which asks `lost`).

A campaign that is ended stops its shards: here through the pool's stop event; on a cluster it
did not start, through a Dask Event that each task watches between seeds (ending.watching); a
cluster it started ends with it.
"""

import contextlib
import functools
import importlib
import logging
import os
import signal
import site
import subprocess
import sys
import time
import uuid
import weakref
from concurrent.futures import FIRST_COMPLETED, wait
from concurrent.futures.process import BrokenProcessPool

from . import ending, shards
from .progress import plural

CLOSE_SECONDS = 20  # for the client, then the local cluster's host, to close before what is left is killed
SMITH_DIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


class LocalPool:
    """`--jobs J` processes of this machine."""

    def __init__(self, jobs):
        self.jobs = jobs
        self.ex, self.stop = ending.pool(jobs)
        self.scratch = "smith-campaign-" + uuid.uuid4().hex[:12]  # the shards' folder (shards.run)
        self.slots = jobs
        self.where = plural(jobs, "local process", "local processes")

    def submit(self, name, fn, *args):
        f = self.ex.submit(ending.in_pool, fn, *args)
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
                self.ex, self.stop = ending.pool(self.jobs)
            return True
        except Exception:
            return False
        return False

    def map(self, fn, arglist):
        return [f.result() for f in [self.ex.submit(ending.in_pool, fn, *args) for args in arglist]]

    def starts(self):
        return {}

    def close(self, ended=False):
        """Shut the pool down; `ended`: the campaign is being ended, and the shards running stop
        after their seed."""
        if ended:
            self.stop.set()
        self.ex.shutdown(cancel_futures=True)
        shards.remove_scratch(self.scratch)


def _task(queue, stop, name, fn, *args):
    """A shard on a Dask worker: say where it starts, then run it. On a cluster the campaign did
    not start (`stop`, the name of its Event), nothing once the campaign is ended, and a shard
    running stops between seeds when it is; a cluster started here ends with the campaign."""
    from distributed import Event, Queue, get_worker

    ended = Event(stop) if stop else None
    if ended is not None and ended.is_set():
        return None
    try:
        Queue(queue).put([name, get_worker().address])
    except Exception:  # the record of starts is for the report only
        pass
    with ending.watching(ended.is_set) if ended is not None else contextlib.nullcontext():
        return fn(*args)


def need_distributed():
    try:
        importlib.import_module("distributed")  # only whether it is there
    except ImportError:
        raise SystemExit("campaign: --scheduler and --workers need Dask distributed: install Debian's "
                         "python3-distributed (tools/setup does)")


class DaskPool:
    """A Dask cluster: `scheduler` is its address (tcp://HOST:PORT), or `workers` local processes
    on 127.0.0.1 are started for the campaign and stopped after it."""

    def __init__(self, scheduler=None, workers=None):
        need_distributed()
        from distributed import Client, Event, Queue

        self.host = None
        self.scratch = "smith-campaign-" + uuid.uuid4().hex[:12]
        if scheduler:
            self.client = Client(scheduler, timeout="30s")
        else:
            try:
                self.host = Host(workers, shards.scratch_dir(self.scratch))
            except SystemExit:
                shards.remove_scratch(self.scratch)
                raise
            self.client = Client(self.host.address, timeout="30s")
        # the workers import vxsmith from the campaign's own tools/smith (the same path on every
        # machine), now and on every worker that joins later
        self.client.register_worker_callbacks(setup=functools.partial(site.addsitedir, SMITH_DIR))
        info = self.client.scheduler_info()["workers"]
        self.slots = max(1, sum(w.get("nthreads", 1) for w in info.values()))
        self.where = "%s (%s, %s)" % (scheduler or "a local Dask cluster on 127.0.0.1",
                                      plural(len(info), "worker"), plural(self.slots, "thread"))
        self.queue_name = "vx-smith-" + uuid.uuid4().hex
        self.queue = Queue(self.queue_name, client=self.client)
        # On a cluster the campaign did not start, an Event set when the campaign is ended.
        self.stop_name = "vx-smith-stop-" + uuid.uuid4().hex if scheduler else None
        self.stop = Event(self.stop_name, client=self.client) if self.stop_name else None
        self.started = {}
        self.submitted = weakref.WeakSet()  # the tasks the campaign still holds

    def submit(self, name, fn, *args):
        f = self.client.submit(_task, self.queue_name, self.stop_name, name, fn, *args, pure=False,
                               key="%s-%s" % (name.replace(" ", "-"), uuid.uuid4().hex[:8]))
        self.submitted.add(f)
        return f

    def wait(self, pending, timeout):
        from distributed import wait as dwait
        from distributed.client import TimeoutError as DTimeout

        try:
            dwait(list(pending), timeout=timeout, return_when="FIRST_COMPLETED")
        except (DTimeout, TimeoutError):
            pass
        done = {f for f in pending if f.done()}
        return done, set(pending) - done

    def lost(self, future):
        """A task that its workers died under too often (KilledWorker): run it again."""
        from distributed.scheduler import KilledWorker

        return isinstance(future.exception(), KilledWorker)

    def map(self, fn, arglist):
        futs = [self.submit("%s %d" % (fn.__name__, k), fn, *args) for k, args in enumerate(arglist)]
        return self.client.gather(futs)

    def starts(self):
        """{task name: [worker, …]} of every start so far: two starts are a task run again."""
        n = self.queue.qsize()
        for name, worker in (self.queue.get(batch=n) if n else []):
            self.started.setdefault(name, []).append(worker)
        return self.started

    def close(self, ended=False):
        """Close the client (its tasks are let go) and the cluster started here; `ended`: the
        campaign is being ended. On a cluster it did not start, the shards running on the workers
        stop after their seed (a worker's thread cannot be stopped from outside: each shard
        watches the campaign's Event), before their folders are removed; a cluster started here
        ends whole (Host.end)."""
        if ended and self.stop is not None:
            from distributed import wait as dwait

            try:
                self.stop.set()
                left = [f for f in self.submitted if not f.done()]
                if left:
                    dwait(left, timeout=CLOSE_SECONDS)
            except Exception:  # a scheduler gone, or tasks past the time: let them go
                pass
        if self.host is None:
            try:  # what the shards of killed workers left, on every worker still there
                self.client.run(shards.remove_scratch, self.scratch)
            except Exception:
                pass
        try:
            self.client.close(timeout=CLOSE_SECONDS)
        finally:
            if self.host is not None:
                self.host.end()
                shards.remove_scratch(self.scratch)


class Host:
    """The process that runs the local cluster of `--workers N` (`host`), in a session of its own:
    a signal to the campaign's process group (a terminal's Ctrl-C, `kill -- -PGID`) does not reach
    the cluster's scheduler, nannies and workers, whose start and close it could hang (a worker
    killed while Dask started it was restarted by its nanny while the cluster waited for the first
    start, forever). The campaign ends it, after closing its client, by closing its stdin; a
    campaign killed outright closes it too.

    What the cluster's processes print (Dask's logging, and asyncio's "Future exception was never
    retrieved" when a worker's close outlives its own timeout on a loaded machine) goes to a log in
    the campaign's scratch folder, not to the campaign's stderr, which is the campaign's own. The
    campaign shows the log's end when the cluster did not start or did not close by itself."""

    LOG_LINES = 40  # of the log shown when the cluster failed

    def __init__(self, workers, directory):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [SMITH_DIR, os.environ.get("PYTHONPATH")])))
        os.makedirs(directory, exist_ok=True)
        self.log = os.path.join(directory, "dask-cluster.log")
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "vxsmith.dist", str(workers), directory], env=env,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                         start_new_session=True, text=True)
        self.address = ""
        for line in self.proc.stdout:  # its scheduler's address, once its workers are up
            if line.startswith("tcp://"):
                self.address = line.strip()
                break
        if not self.address:
            self.end()
            raise SystemExit("campaign: the local Dask cluster did not start (status %s)" % self.proc.returncode)

    def end(self):
        """Close the cluster (by the host's stdin), wait for the host to end, then kill what is left
        of its session (its group): while the host is not reaped its group's id is not reused. The
        log's end on stderr unless the host closed the cluster and ended with status 0."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        deadline = time.time() + CLOSE_SECONDS
        while time.time() < deadline and not os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
            time.sleep(0.05)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        status = self.proc.wait()
        self.proc.stdout.close()
        if status != 0 or not self.address:
            self.show_log(status)

    def show_log(self, status):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            lines = []
        how = "was killed" if status == -signal.SIGKILL else "ended with status %s" % status
        cut = "" if len(lines) <= self.LOG_LINES else " (its last %d lines of %d)" % (self.LOG_LINES, len(lines))
        print("campaign: the local Dask cluster %s; its log%s:" % (how, cut), file=sys.stderr)
        for line in lines[-self.LOG_LINES:]:
            print("campaign: | " + line, file=sys.stderr)


def host(workers, directory):
    """`python3 -m vxsmith.dist N DIR`: a Dask cluster of N worker processes of one thread each on
    127.0.0.1, its files in DIR/dask; print its scheduler's address, then close it at the end of
    stdin."""
    from distributed import LocalCluster

    # The scheduler serves HTTP even with no dashboard, on port 8787 unless told otherwise; with
    # another cluster on the machine there, Dask warns on stderr, which is the campaign's. Port 0.
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                           silence_logs=logging.ERROR,
                           local_directory=os.path.join(directory, "dask"))
    print(cluster.scheduler_address, flush=True)
    sys.stdin.read()
    cluster.close(timeout=CLOSE_SECONDS)


if __name__ == "__main__":
    host(int(sys.argv[1]), sys.argv[2])
