#!/usr/bin/python3
"""smith and a campaign (on local processes, and on a Dask cluster it starts), ended (spec/smith.md
§7, §8): SIGTERM to the process alone (`timeout`,
`kill PID`, a batch job's end) or to its whole process group (`kill -- -PGID`, a terminal's job
control), and SIGINT to the group (Ctrl-C). Each ends within 40 s with status 143 (SIGTERM) or
130 and `NAME: interrupted` alone on stderr (Ctrl-C), and leaves nothing: no process of its
session alive, nothing in TMPDIR (its programs, a campaign's scratch folder), no results folder.

The two defect classes this guards against:
- a signal raised where it landed, inside concurrent.futures (while the pool started, in a submit
  or a wait): a lock left taken, and the pool's shutdown waited for it forever (smith, about one
  run in ten under load; CI's smith_file failed on it);
- a campaign killed outright: its pool's processes went on with their shards, then waited for
  work forever, beside the scratch folder;
- a campaign on a Dask cluster it starts, its process group signalled while the cluster started: a
  worker killed mid-start was restarted by its nanny while the cluster waited for the first start,
  forever (one run in two on a loaded machine; CI failed on it). A process left running is looked
  for in the run's session and by its TMPDIR (the cluster runs in a session of its own).
So the signal is sent at several moments of the run, from while the pool starts to mid-run; and
every process pool of tools/smith is made by vxsmith/ending.py's `pool` (a lint: one made
elsewhere would take the signal where it lands, and its processes would die of it).
Usage: smith_ending_test.py TOOLS_SMITH VX"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

smith_dir, vx = (os.path.abspath(x) for x in sys.argv[1:3])
failures = []
COMMANDS = {
    # 5,000 programs and 2,000 programs: many minutes of work, so an end within 40 s is an end
    "smith": ["smith", "--seed", "0", "--count", "5000", "--jobs", "2"],
    "campaign": ["campaign", "--programs", "2000", "--shard-size", "4", "--jobs", "2"],
    # on a Dask cluster of two workers that it starts (a batch job's end, spec/smith.md §8)
    "campaign on Dask": ["campaign", "--programs", "2000", "--shard-size", "4", "--workers", "2"],
}


def pools_outside_ending():
    """The lines of tools/smith that make a process pool other than through ending.pool."""
    found = []
    for folder, _, files in os.walk(smith_dir):
        for f in sorted(files):
            path = os.path.join(folder, f)
            if not f.endswith(".py") and f not in ("smith", "campaign") or f == "ending.py":
                continue
            with open(path, encoding="utf-8") as text:
                for k, line in enumerate(text, 1):
                    if re.search(r"\b(ProcessPoolExecutor|multiprocessing\.Pool|Pool)\(", line):
                        found.append("%s:%d: %s" % (os.path.relpath(path, smith_dir), k, line.strip()))
    return found


for line in pools_outside_ending():
    failures.append("a process pool not made by ending.pool: " + line)


def started(tmp, name):
    """Has the run made its folder in TMPDIR (smith's programs, a campaign's scratch)?"""
    prefix = "smith-campaign-" if name.startswith("campaign") else "smith-"
    return any(n.startswith(prefix) for n in os.listdir(tmp))


def zombie(pid):
    """A process that has ended, and waits only for init to reap it (its parent ended first)."""
    try:
        with open("/proc/%s/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True  # gone already


def left_running(session, tmp):
    """The processes of the run's session, and any other that has its TMPDIR (what it started in a
    session of its own: a campaign's local Dask cluster)."""
    pids = set(subprocess.run(["pgrep", "-s", str(session)], capture_output=True, text=True).stdout.split())
    mark = ("TMPDIR=%s" % tmp).encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if mark in f.read().split(b"\0"):
                    pids.add(pid)
        except OSError:
            pass
    return sorted(pids)


def end(name, whom, sig, delay):
    what = "%s after %s to %s %.1f s after it started" % (name, signal.Signals(sig).name, whom, delay)
    want = 128 + sig
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["/usr/bin/python3", os.path.join(smith_dir, COMMANDS[name][0])] + COMMANDS[name][1:] + [
            "--no-uir", "--no-nvrtc", "--vx", vx, "-q", "--results", os.path.join(tmp, "results")]
        p = subprocess.Popen(cmd, env=dict(os.environ, TMPDIR=tmp), start_new_session=True, cwd=tmp,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while time.time() < deadline and not started(tmp, name) and p.poll() is None:
            time.sleep(0.05)
        if not started(tmp, name):
            p.kill()
            failures.append("%s made no folder in TMPDIR (status %s): %r" % (what, p.wait(), p.stderr.read()[-400:]))
            return
        time.sleep(delay)
        if whom == "it":
            p.send_signal(sig)
        else:
            os.killpg(p.pid, sig)
        t = time.time()
        try:
            _, err = p.communicate(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
            err = "(did not end within 40 s) " + err
        took = time.time() - t
        # what it left running, by its session (its pool's processes are in it). A vx started just
        # as the signal came may outlive it by its run (the pool's process gave it up before it
        # knew its pid), so a process is left only if it is still there 15 s on; the campaign's
        # processes that were left waited for work forever.
        settle = time.time() + 15
        while True:
            alive = [pid for pid in left_running(p.pid, tmp) if not zombie(pid)]
            if not alive or time.time() > settle:
                break
            time.sleep(0.1)
        if alive:
            ps = subprocess.run(["ps", "-o", "pid,ppid,etime,args", "-p", ",".join(alive)], capture_output=True,
                                text=True).stdout
            for pid in alive:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            failures.append("%s left %d processes running:\n%s" % (what, len(alive), ps))
        if p.returncode != want:
            failures.append("%s: status %s after %.0f s, want %d: %r" % (what, p.returncode, took, want, err[-400:]))
        elif sig == signal.SIGINT and err != "%s: interrupted\n" % COMMANDS[name][0]:
            failures.append("%s printed %r, want only '%s: interrupted'" % (what, err, COMMANDS[name][0]))
        left = os.listdir(tmp)
        if left:
            failures.append("%s left %s in TMPDIR" % (what, ", ".join(sorted(left))))
        print("%s: status %s in %.1f s" % (what, p.returncode, took), flush=True)


for name in ("smith", "campaign"):
    for whom in ("it", "its process group"):
        for delay in (0.1, 0.5, 3):
            end(name, whom, signal.SIGTERM, delay)
    end(name, "its process group", signal.SIGINT, 1)
for whom in ("it", "its process group"):  # the signal while the cluster starts, and while it runs
    for delay in (0.1, 0.5, 1):
        end("campaign on Dask", whom, signal.SIGTERM, delay)
end("campaign on Dask", "its process group", signal.SIGINT, 1)

for f in failures:
    print("FAIL: " + f)
print("smith and campaign ended: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
