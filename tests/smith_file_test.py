#!/usr/bin/python3
"""`smith --file F.vx` (spec/smith.md): the tiers asked for run and agree, a tier name that does
not run for the program is a usage error (exit status 2) rather than a pass, and the NVRTC tier
leaves nothing beside the program.
Usage: smith_file_test.py SMITH VX PROGRAM.vx"""
import os
import shutil
import subprocess
import sys
import tempfile

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

for f in failures:
    print("FAIL: " + f)
print("smith --file: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
