#!/usr/bin/python3
"""`smith --file F.vx` (spec/smith.md): the tiers asked for run and agree, a tier name that does
not run for the program is a usage error (exit status 2) rather than a pass, and the NVRTC tier
leaves nothing beside the program. And `smith --count` ended by SIGTERM (as `timeout` ends it,
or to its whole process group) ends soon, with status 143, and removes its temporary folder.
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
# a terminal's job control): smith cancels the seeds still queued, waits for the one running and
# removes its folder. Before, a `with ProcessPoolExecutor` ran every queued seed first, and a
# worker that got SIGTERM too returned it as that seed's error and went on to the next: 5,000
# programs would take many minutes, so 40 s bounds the end.
for whom in ("smith", "its process group"):
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TMPDIR=tmp)
        p = subprocess.Popen(["/usr/bin/python3", smith, "--seed", "0", "--count", "5000", "--jobs", "2",
                              "--no-uir", "--no-nvrtc", "--vx", vx, "-q"], env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while time.time() < deadline and not any(n.startswith("smith-") for n in os.listdir(tmp)):
            time.sleep(0.1)
        started = [n for n in os.listdir(tmp) if n.startswith("smith-")]
        time.sleep(3)  # programs written and running
        if whom == "smith":
            p.send_signal(signal.SIGTERM)
        else:
            os.killpg(p.pid, signal.SIGTERM)
        t = time.time()
        try:
            _, err = p.communicate(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
            err = "(did not end within 40 s of SIGTERM) " + err
        if not started:
            failures.append("smith --count made no temporary folder in TMPDIR within 60 s: %r" % err)
        if p.returncode != 128 + signal.SIGTERM:
            failures.append("smith --count after SIGTERM to %s: status %s after %.0f s, want %d: %r"
                            % (whom, p.returncode, time.time() - t, 128 + signal.SIGTERM, err[-400:]))
        left = os.listdir(tmp)
        if left:
            failures.append("smith --count after SIGTERM to %s left %s in TMPDIR" % (whom, ", ".join(sorted(left))))

for f in failures:
    print("FAIL: " + f)
print("smith --file: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
