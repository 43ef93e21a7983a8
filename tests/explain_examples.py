#!/usr/bin/env python3
"""The long explanations of spec/errors.md (spec/cli.md §8) and their examples.

Checks that every section of the error index has a refused example and a corrected one (a
reserved code: only an accepted one), that every code the sources report has a section, that
every refused example gets exactly its marked (code, line) pairs from `vx check` and every
corrected example is accepted, and that `vx explain` prints each section from another directory
and refuses an unknown code with exit status 2.

usage: explain_examples.py VX REPO_ROOT
"""
import os
import re
import subprocess
import sys
import tempfile

VX, ROOT = sys.argv[1], sys.argv[2]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def expand(text):
    """The notations of spec/errors.md: `<0xE9>` is one byte, `<300 × (>` is 300 copies of `(`."""
    text = re.sub(r"<(\d+) × ([^>]+)>", lambda m: m.group(2) * int(m.group(1)), text)
    data = text.encode("utf-8")
    return re.sub(rb"<0x([0-9A-Fa-f]{2})>", lambda m: bytes([int(m.group(1), 16)]), data)


def markers(text):
    found = set()
    for n, line in enumerate(text.split("\n"), 1):
        for code in re.findall(r"//~ ERROR (E\d{4})", line):
            found.add((code, n))
    return found


def reported(stderr, path):
    got = set()
    lines = stderr.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"error\[(E\d{4})\]", line)
        if m and i + 1 < len(lines):
            loc = re.match(r"\s*--> (.*):(\d+):(\d+)$", lines[i + 1])
            if loc and loc.group(1) == path:
                got.add((m.group(1), int(loc.group(2))))
    return got


with open(os.path.join(ROOT, "spec", "errors.md"), encoding="utf-8") as f:
    index = f.read()

sections = {}
for m in re.finditer(r"^### (E\d{4}) — (.*?)\n(.*?)(?=^### |\Z)", index, re.S | re.M):
    sections[m.group(1)] = (m.group(2), m.group(3))
if len(sections) < 30:
    fail(f"only {len(sections)} sections found in spec/errors.md")

# Every code the implementation reports has its section.
used = set()
for dirpath, _, files in os.walk(os.path.join(ROOT, "src")):
    for name in files:
        if name.endswith((".cpp", ".hpp")):
            with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                used.update(re.findall(r'"(E\d{4})"', f.read()))
for code in sorted(used - set(sections)):
    fail(f"{code} is reported by src/ but has no section in spec/errors.md")

checked = 0
with tempfile.TemporaryDirectory() as tmp:
    for code, (title, body) in sections.items():
        # ```vx blocks are programs; ```vx machine blocks are machine files (E0600), given to
        # `vx check --machine` of an empty program (a refused one is a usage error: status 2);
        # ```vx run blocks are programs given to `vx run` (E0103: `vx check` takes a file without
        # `main`); ```vx gpu blocks are programs run with `vx run --offload=gpu` where no CUDA
        # driver can be opened (E0700, exit status 2).
        fenced = re.findall(r"```vx( machine| gpu| run)?\n(.*?)```", body, re.S)
        examples = [ex for _, ex in fenced]
        kinds = [kind.strip() for kind, _ in fenced]
        refused = [e for e in examples if "//~ ERROR" in e]
        accepted = [e for e in examples if "//~ ERROR" not in e]
        reserved = "(reserved)" in title
        if not accepted:
            fail(f"{code}: no corrected (accepted) example")
        if not refused and not reserved:
            fail(f"{code}: no refused example")
        for k, ex in enumerate(examples):
            path = os.path.join(tmp, f"{code}_{k}.vx")
            with open(path, "wb") as f:
                f.write(expand(ex))
            command = [VX, "check", path]
            refused_status = 1
            env = None
            if kinds[k] == "run":
                command = [VX, "run", path]
            if kinds[k] == "gpu":
                command = [VX, "run", "--offload=gpu", path]
                env = dict(os.environ, VX_CUDA_DRIVER=os.path.join(tmp, "no-libcuda.so"))
                refused_status = 2
            if kinds[k] == "machine":
                program = os.path.join(tmp, f"{code}_{k}_main.vx")
                with open(program, "w") as f:
                    f.write("fn main() {}\n")
                command = [VX, "check", "--machine", path, program]
                refused_status = 2
            r = subprocess.run(command, capture_output=True, text=True,
                               errors="replace", timeout=60, cwd=ROOT, env=env)
            want = markers(ex)
            if want:
                if {c for c, _ in want} != {code}:
                    fail(f"{code}: example {k} marks another code: {sorted(want)}")
                got = reported(r.stderr, path)
                if r.returncode != refused_status or got != want:
                    fail(f"{code}: example {k} should be refused with {sorted(want)}, got exit "
                         f"{r.returncode} and {sorted(got)}\n{r.stderr}")
            elif r.returncode != 0:
                fail(f"{code}: example {k} should be accepted, got exit {r.returncode}\n{r.stderr}")
            checked += 1

        # `vx explain` prints the section, from any directory.
        r = subprocess.run([VX, "explain", code], capture_output=True, text=True, cwd="/",
                           timeout=30)
        if r.returncode != 0 or not r.stdout.startswith(f"{code} — {title}\n"):
            fail(f"vx explain {code}: exit {r.returncode}, output starts {r.stdout[:80]!r}")
        elif examples and examples[0] not in r.stdout:
            fail(f"vx explain {code}: the first example is not in the output")

r = subprocess.run([VX, "explain", "E9999"], capture_output=True, text=True, timeout=30)
if r.returncode != 2 or "no error code `E9999`" not in r.stderr or r.stdout:
    fail(f"vx explain E9999: exit {r.returncode}, stderr {r.stderr!r}")
r = subprocess.run([VX, "explain", "e0300"], capture_output=True, text=True, timeout=30)
if r.returncode != 0 or not r.stdout.startswith("E0300 — "):
    fail("vx explain e0300 (lower case) should print E0300")

print(f"{len(sections)} codes, {checked} examples checked, {len(failures)} failures")
sys.exit(1 if failures else 0)
