#!/usr/bin/python3
"""`smith --file F.vx` (spec/smith.md): the tiers asked for run and agree, a tier name that does
not run for the program is a usage error (exit status 2) rather than a pass, and the NVRTC tier
leaves nothing beside the program. And `smith --count` ended by SIGTERM (as `timeout` ends it,
or to its whole process group) or by SIGINT (Ctrl-C) ends soon, with status 143 or 130, and
removes its temporary folder, wherever in its run the signal lands.
Usage: smith_file_test.py SMITH VX PROGRAM.vx"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

smith, vx, program = sys.argv[1:4]
failures = []


def smith_file(path, tiers):
    return subprocess.run(["/usr/bin/python3", smith, "--file", path, "--gpu", "require", "--vx", vx,
                           "--tiers", tiers], capture_output=True, text=True, timeout=300)


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "p.vx")
    shutil.copy(program, path)
    r = smith_file(path, "offload=gpu,nvrtc")
    if r.returncode != 0 or "nvrtc, offload=gpu agree with the reference (status 0)" not in r.stdout:
        failures.append("the GPU and NVRTC tiers: status %d, %r %r" % (r.returncode, r.stdout, r.stderr))
    left = sorted(set(os.listdir(tmp)) - {"p.vx"})
    if left:
        failures.append("smith --file left %s beside the program" % ", ".join(left))
    r = smith_file(path, "offload=gpu,nonsense")
    if r.returncode != 2 or "no tier nonsense here" not in r.stderr or "offload=gpu" not in r.stderr:
        failures.append("an unknown tier: status %d, %r" % (r.returncode, r.stderr))

# SIGTERM to smith alone (`timeout`, `kill PID`) and to its whole process group (`kill -- -PGID`,
# a terminal's job control), and SIGINT to the group (Ctrl-C): smith cancels the seeds still
# queued, waits for the ones running and removes its folder. Before, a `with ProcessPoolExecutor`
# ran every queued seed first, and a worker that got SIGTERM too returned it as that seed's error
# and went on to the next: 5,000 programs would take many minutes, so 40 s bounds the end. The
# signal is sent at several moments after smith starts: one that landed inside
# concurrent.futures (while the pool started, or in a submit or a wait) left a lock taken, and
# smith waited for it forever (CI, about one run in ten under load).
cases = [(whom, signal.SIGTERM, delay) for whom in ("smith", "its process group") for delay in (0.1, 0.5, 3)]
cases.append(("its process group", signal.SIGINT, 1))
for whom, sig, delay in cases:
    want = 128 + sig
    what = "%s to %s %.1f s after it started" % (signal.Signals(sig).name, whom, delay)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TMPDIR=tmp)
        p = subprocess.Popen(["/usr/bin/python3", smith, "--seed", "0", "--count", "5000", "--jobs", "2",
                              "--no-uir", "--no-nvrtc", "--vx", vx, "-q"], env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while time.time() < deadline and not any(n.startswith("smith-") for n in os.listdir(tmp)):
            time.sleep(0.05)
        started = [n for n in os.listdir(tmp) if n.startswith("smith-")]
        time.sleep(delay)
        if whom == "smith":
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
        if not started:
            failures.append("smith --count made no temporary folder in TMPDIR within 60 s: %r" % err)
        if p.returncode != want:
            failures.append("smith --count after %s: status %s after %.0f s, want %d: %r"
                            % (what, p.returncode, time.time() - t, want, err[-400:]))
        elif sig == signal.SIGINT and err != "smith: interrupted\n":
            failures.append("smith --count after %s printed %r, want only 'smith: interrupted'" % (what, err))
        left = os.listdir(tmp)
        if left:
            failures.append("smith --count after %s left %s in TMPDIR" % (what, ", ".join(sorted(left))))

for f in failures:
    print("FAIL: " + f)
print("smith --file: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
