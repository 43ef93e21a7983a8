#!/usr/bin/env python3
"""tools/fuzz's replay of saved inputs: what it counts as a finding.

A libFuzzer campaign saves crash-, leak-, oom-, timeout- and slow-unit- inputs; tools/fuzz replays
each alone. Stand-in harnesses (shell scripts that fail, sleep or succeed, in place of a libFuzzer
binary) show each verdict: a failure alone is a finding, whatever the file's name; a timeout or
slow unit that runs in time alone is not; one still slow alone is; a crash that does not fail
alone is (flaky). Then `--replay` and `--ci` end as those verdicts say, and `--ci` runs with a
build folder named relative to where it is started.

usage: fuzz_replay_test.py REPO_ROOT
"""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

ROOT = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("vx_fuzz_tool", os.path.join(ROOT, "tools", "fuzz"))
spec = importlib.util.spec_from_loader(loader.name, loader)
fuzz = importlib.util.module_from_spec(spec)
loader.exec_module(fuzz)
fuzz.SLOW_S = 1  # so that a stand-in can be slow alone in a second and a half
fuzz.TIMEOUT_S = 2

tmp = scratch_dir(prefix="vx_fuzz_replay_")
failures = []


def script(name, body):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return path


def saved(name):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("input")
    return path


fails = script("fails", "exit 1")
quick = script("quick", "exit 0")
slow = script("slow", "sleep 1.5; exit 0")
cases = [
    # (harness, saved file, want finding, words the verdict must have)
    (fails, saved("crash-1"), True, "fails alone (exit 1)"),
    (fails, saved("timeout-2"), True, "fails alone (exit 1)"),
    (quick, saved("timeout-3"), False, "saved while the machine was loaded"),
    (quick, saved("slow-unit-4"), False, "saved while the machine was loaded"),
    (slow, saved("slow-unit-5"), True, "(limit 1 s)"),
    (quick, saved("crash-6"), True, "flaky"),
    (quick, saved("leak-7"), True, "flaky"),
]
for exe, path, want, words in cases:
    r = fuzz.replay(exe, path, {})
    if r["finding"] != want or words not in r["verdict"]:
        failures.append("%s with %s: want finding=%s and %r, got %r" %
                        (os.path.basename(path), os.path.basename(exe), want, words, r))

# The command line: --replay's exit status, with the stand-ins in a build directory of their own.
build = os.path.join(tmp, "build")
os.makedirs(build)
for harness, target in [("repl", quick), ("parse", fails)]:
    os.symlink(target, os.path.join(build, "fuzz_" + harness))
tool = os.path.abspath(os.path.join(ROOT, "tools", "fuzz"))
for harness, name, want in [("repl", "timeout-8", 0), ("parse", "slow-unit-9", 1)]:
    p = subprocess.run([sys.executable, tool, "--replay", "--build-dir", build, harness, saved(name)],
                       capture_output=True, text=True)
    if p.returncode != want or name not in p.stdout:
        failures.append("--replay %s %s: want exit %d and the file named, got %d %r %r" %
                        (harness, name, want, p.returncode, p.stdout, p.stderr))

# --ci with the build folder named relative to where it is run from: the harness runs in a folder
# of its own, where that name means nothing unless tools/fuzz made it absolute first.
p = subprocess.run([sys.executable, tool, "--ci", "--runs", "1", "--build-dir", "build", "repl"],
                   capture_output=True, text=True, cwd=tmp)
if p.returncode != 0 or "nothing found" not in p.stdout:
    failures.append("--ci --build-dir build (relative): want exit 0 and nothing found, got %d %r %r"
                    % (p.returncode, p.stdout[-500:], p.stderr[-500:]))

for f in failures:
    print("FAIL: " + f)
print("fuzz_replay: %d cases, %d failed" % (len(cases) + 3, len(failures)))
sys.exit(1 if failures else 0)
