#!/usr/bin/env python3
"""The implementer's day with `vx conformance` (issue 40; spec/cli.md §6.3), as the implementer
of another Vx compiler meets it, through the command line:

- the runner's programs die with it (issue 35 item 15): SIGKILL of the runner, of its whole
  process group, SIGHUP; the parent-death signal alone when the watchdog is killed first.

usage: conformance_implementer_test.py VX   (run from the repository root)
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

VX = os.path.abspath(sys.argv[1])
tmp = tempfile.mkdtemp(prefix="vx_implementer_")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


# ---- orphans: the programs die with the runner ------------------------------------------------
MARKER = "vx-orphan-marker-%d" % os.getpid()
orphan_dir = os.path.join(tmp, MARKER)
# The implementation (its path holds the marker) starts a shell (its $0 the marker) that starts a
# sleep: a child and a grandchild of the program the runner started, all in its process group.
hang = os.path.join(orphan_dir, "hang.sh")
write(hang, f"#!/bin/sh\nsh -c 'sleep 300; exit 0' {MARKER}\n", 0o755)
for i in range(4):
    write(os.path.join(orphan_dir, "corpus", "h%d.vx" % i), "hang\n")
    write(os.path.join(orphan_dir, "corpus", "h%d.stdout" % i), "")


def processes():
    """{pid: (ppid, pgid, state, cmdline)} of every process but the zombies."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if fields[0] != "Z":
            found[int(name)] = (int(fields[1]), int(fields[2]), fields[0], cmdline)
    return found


def marked():
    return {pid: info for pid, info in processes().items() if MARKER in info[3]}


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def start_runner():
    """The runner on the hanging corpus, two programs at a time, in a session of its own; returns
    it once both programs have started their grandchildren, with the groups of its programs."""
    runner = subprocess.Popen([VX, "conformance", "-j", "2", "--timeout", "600", "--impl",
                               f"'{hang}' {{file}}", os.path.join(orphan_dir, "corpus")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    inner = lambda: [pid for pid, info in marked().items() if info[3].startswith("sh -c")]
    if not wait_for(lambda: len(inner()) == 2, 20):
        fail(f"orphans: the two programs did not start: {marked()}")
    groups = {info[1] for pid, info in marked().items() if not info[3].startswith(VX)}
    return runner, groups


def in_groups(groups):
    return {pid: info for pid, info in processes().items() if info[1] in groups}


def check_none_left(what, runner, groups):
    ok = wait_for(lambda: not in_groups(groups) and not marked(), 10)
    left = {**in_groups(groups), **marked()}
    if not ok or len(groups) != 2:
        fail(f"orphans ({what}): {len(groups)} groups, left alive: {left}")
    for pid, info in left.items():  # leave nothing behind, whatever happened
        try:
            os.killpg(info[1], signal.SIGKILL)
        except OSError:
            pass
    runner.wait(timeout=10)


runner, groups = start_runner()
os.kill(runner.pid, signal.SIGKILL)
check_none_left("SIGKILL of the runner", runner, groups)

runner, groups = start_runner()
os.killpg(runner.pid, signal.SIGKILL)  # the runner's group: the watchdog has one of its own
check_none_left("SIGKILL of the runner's process group", runner, groups)

runner, groups = start_runner()
os.kill(runner.pid, signal.SIGHUP)
check_none_left("SIGHUP", runner, groups)
if runner.returncode != -signal.SIGHUP:
    fail(f"orphans: after SIGHUP the runner ended with {runner.returncode}, not by SIGHUP")

# Without the watchdog, the parent-death signal still kills the programs the runner started (the
# processes they started are the watchdog's to kill, so they may stay: killed here).
runner, groups = start_runner()
watchdogs = [pid for pid, info in processes().items()
             if info[0] == runner.pid and info[1] == pid and MARKER in info[3] and
             info[3].startswith(VX)]
if len(watchdogs) != 1:
    fail(f"orphans: no watchdog among the runner's children: {marked()}")
else:
    os.kill(watchdogs[0], signal.SIGKILL)
    wait_for(lambda: watchdogs[0] not in processes(), 5)
    os.kill(runner.pid, signal.SIGKILL)
    direct = lambda: [pid for pid, info in marked().items()
                      if info[3].startswith("/bin/sh " + hang)]
    if not wait_for(lambda: not direct(), 10):
        fail(f"orphans: the programs outlived the runner without the watchdog: {marked()}")
    for g in groups:
        try:
            os.killpg(g, signal.SIGKILL)
        except OSError:
            pass
    runner.wait(timeout=10)

subprocess.run(["rm", "-rf", tmp])
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("conformance_implementer: no orphans")
