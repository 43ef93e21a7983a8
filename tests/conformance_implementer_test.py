#!/usr/bin/env python3
"""The implementer's day with `vx conformance` (issue 40; spec/cli.md §6, §6.3, §6.4), as the
implementer of another Vx compiler meets it, through the command line:

- progress as it goes: with a slow implementation, a line per finished program on a pipe, the
  first long before the run ends; on a terminal (a pty) one line redrawn in place;
- an implementation that cannot start is one usage error, before anything runs;
- the runner's programs die with it (issue 35 item 15): SIGKILL of the runner, of its whole
  process group, SIGHUP; the parent-death signal alone when the watchdog is killed first;
- `--impl-format=json` against vx itself (`vx {mode} --error-format=json …`), which then passes
  the whole corpus, and the same implementation read in the human form, which does not;
- `--write-xfail` of a wrong implementation's run, then `--xfail` of that list: exit 0.

usage: conformance_implementer_test.py VX   (run from the repository root)
"""
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
tmp = scratch_dir(prefix="vx_implementer_")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def corpus(name, count):
    """`count` programs that expect `ok`, each printing it through a slow implementation."""
    d = os.path.join(tmp, name)
    for i in range(count):
        write(os.path.join(d, "p%02d.vx" % i), "// spec: memory.md §1\nok\n")
        write(os.path.join(d, "p%02d.stdout" % i), "ok\n")
    return d


# ---- progress as it goes, on a pipe -----------------------------------------------------------
slow = os.path.join(tmp, "slow.sh")
write(slow, "#!/bin/sh\nsleep \"$SLOW\"\nhead -n 2 \"$1\" | tail -n 1\n", 0o755)
d = corpus("lines", 6)
start = time.monotonic()
p = subprocess.Popen([VX, "conformance", "-j", "1", "--impl", f"'{slow}' {{file}}", d],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                     env=dict(os.environ, SLOW="0.4"))
first_at = None
err_lines = []
for line in p.stderr:
    if first_at is None:
        first_at = time.monotonic() - start
    err_lines.append(line)
out = p.stdout.read()
p.wait()
total = time.monotonic() - start
progress = [l for l in err_lines if re.match(r"\[[0-9]/6\] PASS ", l)]
if p.returncode != 0 or out != "6 passed, 0 failed\n":
    fail(f"lines: exit {p.returncode}, stdout {out!r}")
if len(progress) != 6 or not err_lines[-1].startswith("ran 6 programs in "):
    fail(f"lines: not a line per program and the time at the end: {err_lines}")
if first_at is None or first_at > total - 1.5:
    fail(f"lines: the first line came at {first_at} s of {total:.1f} s: not as it went")

# ---- the bar, on a terminal -------------------------------------------------------------------
master, slave = pty.openpty()
p = subprocess.Popen([VX, "conformance", "-j", "2", "--impl", f"'{slow}' {{file}}", d],
                     stdout=subprocess.PIPE, stderr=slave, text=True,
                     env=dict(os.environ, SLOW="0.3"))
os.close(slave)
screen = b""
while True:
    ready, _, _ = select.select([master], [], [], 30)
    if not ready:
        break
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the pty's other side is closed
        break
    if not chunk:
        break
    screen += chunk
out = p.stdout.read()
p.wait()
os.close(master)
screen = screen.decode("utf-8", "replace")
if p.returncode != 0 or out != "6 passed, 0 failed\n":
    fail(f"bar: exit {p.returncode}, stdout {out!r}")
if not re.search(r"\r\[[=> ]+\] 6/6  6 passed  0 failed", screen) or " left\x1b[K" not in screen \
        or "PASS" in screen or not re.search(r"\r\x1b\[Kran 6 programs in [0-9.]+ s\r?\n$", screen):
    fail(f"bar: not one line redrawn, then the time: {screen[-600:]!r}")

# ---- an implementation that cannot start ------------------------------------------------------
for impl, why in [("/nonexistent/my-vx run {file}", "No such file or directory"),
                  (f"'{os.path.join(tmp, 'lines', 'p00.stdout')}' {{file}}", "Permission denied")]:
    r = subprocess.run([VX, "conformance", "--impl", impl, d], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 2 or r.stdout or r.stderr.count("\n") != 1 or \
            not r.stderr.startswith("vx conformance: cannot run the implementation `") or \
            not r.stderr.endswith(f"`: {why}\n"):
        fail(f"cannot start ({why}): exit {r.returncode}, {r.stdout!r}, {r.stderr!r}")

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

# ---- --impl-format=json: vx itself, printing JSON ---------------------------------------------
# The whole corpus: refusals, runtime errors (.vx and .uir), warnings, outputs. Under the
# sanitizer build (VX_IMPLEMENTER_SUBSET=1, tests/sanitize.cmake) a part with each of them.
SUBSET = ["*/errors/E00*", "*/runtime/*", "*/warnings/*", "*/uir/*", "*/book/*"]
subset = os.environ.get("VX_IMPLEMENTER_SUBSET") == "1"
filters = sum((["--filter", g] for g in SUBSET), []) if subset else []
impl = f"'{VX}' {{mode}} --error-format=json {{flags}} {{file}}"
r = subprocess.run([VX, "conformance", "--progress", "off", "--impl-format", "json", "--impl",
                    impl, "--format", "json", *filters, "conformance"],
                   capture_output=True, text=True, timeout=600)
try:
    rep = json.loads(r.stdout)
except ValueError:
    rep = {"passed": 0, "failed": -1, "results": []}
bad = [(x["file"], x["reason"]) for x in rep["results"] if x["status"] != "pass"]
runtime = [x for x in rep["results"] if "/runtime/" in x["file"]]
if r.returncode != 0 or bad or rep["passed"] < (100 if subset else 500) or not runtime:
    fail(f"json: vx with --error-format=json: exit {r.returncode}, {rep['passed']} passed, "
         f"failed: {bad[:5]} {r.stderr[-400:]!r}")
# The same output read as the human form: every refusal and runtime error fails, and says why.
r = subprocess.run([VX, "conformance", "--progress", "off", "--impl", impl,
                    "--filter", "*/errors/E00*", "conformance"],
                   capture_output=True, text=True, timeout=600)
if r.returncode != 1 or "(stderr holds JSON diagnostics" not in r.stdout or \
        not re.search(r"^0 passed, [1-9][0-9]* failed$", r.stdout, re.M):
    fail(f"json read as human: exit {r.returncode} {r.stdout[-600:]!r}")

# ---- --write-xfail, then --xfail: a wrong implementation's list of known failures -------------
wrong = f"sh '{HERE}/wrong_impl/flip_stdout.sh' {{mode}} {{flags}} {{file}}"
FEW = ["--filter", "*/book/*", "--filter", "*/errors/E00*"]
known = os.path.join(tmp, "known.txt")
env = dict(os.environ, VX_REAL=VX)
r = subprocess.run([VX, "conformance", "--progress", "off", "--impl", wrong, *FEW,
                    "--write-xfail", known, "conformance"],
                   capture_output=True, text=True, env=env, timeout=600)
with open(known) as f:
    listed = [l for l in f.read().splitlines() if l and not l.startswith("#")]
failed = int(re.search(r"^[0-9]+ passed, ([0-9]+) failed$", r.stdout, re.M).group(1))
if r.returncode != 1 or len(listed) != failed or failed == 0:
    fail(f"write-xfail: exit {r.returncode}, {len(listed)} listed of {failed} failed")
r = subprocess.run([VX, "conformance", "--progress", "off", "--impl", wrong, *FEW,
                    "--xfail", known, "conformance"],
                   capture_output=True, text=True, env=env, timeout=600)
if r.returncode != 0 or r.stderr or not r.stdout.endswith(f", {failed} expected failures\n"):
    fail(f"xfail of the written list: exit {r.returncode} {r.stdout[-200:]!r} {r.stderr!r}")

subprocess.run(["rm", "-rf", tmp])
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("conformance_implementer: progress, a usage error for an implementation that cannot start, "
      "no orphans, JSON diagnostics, xfail lists")
