#!/usr/bin/env python3
"""The numeric options of `vx` and the bounds of a run (issue 35 items 16 and 23; spec/cli.md §1,
§2, §5, §7).

- every numeric option (`--max-steps` and `--max-seconds` of run, call and repl, `vx diff --ulp`,
  `vx conformance --timeout` and `--jobs`) is checked by one helper: NaN, ±inf, 2^63, a
  negative value, a hexadecimal or octal spelling and a number past the type are a usage error
  (exit status 2) naming the option, the text and the range, also under --error-format=json;
  before, `--max-steps 9223372036854775808` read as 2^63 − 1 and `--max-seconds nan` passed the
  range check, and the run had no limit. The ends of each range are accepted;
- `vx repl --max-steps N` and `--max-seconds S` bound each input as `vx run`'s do (the REPL
  refused the options that spec/cli.md §7.4 gives it);
- under --error-format=json, `no CUDA device` is a JSON object of the diagnostics' shape, a note,
  so that every line on standard error is JSON (on a machine with a GPU it is not said at all).

usage: cli_options_test.py VX REPO_ROOT
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []
tmp = scratch_dir(prefix="vx_cli_options_")


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def vx(*args, stdin=None):
    return subprocess.run([VX, *args], input=stdin, capture_output=True, text=True, timeout=60,
                          cwd=ROOT)


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


PROG = write("p.vx", "fn main() {\n    println!(\"ran\");\n}\n")
LOOP = write("loop.vx", "fn main() {\n    let mut i = 0;\n    loop {\n        i += 1;\n    }\n}\n")
CALLED = write("k.vx", "pub fn f(n: i32) -> i32 {\n    n + 1\n}\n")
DOC = write("d.json", json.dumps({"vx_values": 1, "bindings": []}))
CORPUS = write("c.vx", "fn main() {\n    println!(\"ok\");\n}\n")
write("c.stdout", "ok\n")

INT64_MAX = 2**63 - 1
# option, the command around it, the range (integers or numbers), a valid value
OPTIONS = [
    ("--max-steps", ["run", PROG], "an integer from 1 to %d" % INT64_MAX),
    ("--max-steps", ["call", CALLED, "f", "--arg", "n=1"], "an integer from 1 to %d" % INT64_MAX),
    ("--max-steps", ["repl", "--offload=off"], "an integer from 1 to %d" % INT64_MAX),
    ("--max-seconds", ["run", PROG], "a number from 0.001 to 1000000000"),
    ("--max-seconds", ["call", CALLED, "f", "--arg", "n=1"], "a number from 0.001 to 1000000000"),
    ("--max-seconds", ["repl", "--offload=off"], "a number from 0.001 to 1000000000"),
    ("--ulp", ["diff", DOC, DOC], "an integer from 0 to %d" % INT64_MAX),
    ("--timeout", ["conformance", CORPUS], "an integer from 1 to 86400"),
    ("--jobs", ["conformance", CORPUS], "an integer from 1 to 256"),
]
BAD = ["nan", "NaN", "inf", "-inf", "infinity", str(2**63), str(-2**63 - 1), "-1", "0x10", "1e999",
       "1.5.2", "12abc", " 5"]
for option, command, what in OPTIONS:
    integer = what.startswith("an integer")
    lo, hi = what.split(" from ")[1].split(" to ")
    bad = BAD + ([str(int(lo) - 1), str(int(hi) + 1), "1.5"] if integer else
                 ["0", "-0", "0.0009", "1000000000.5", "1e300"])
    for value in bad:
        r = vx(*command, option, value, stdin="")
        want = f"{option}: `{value}` is not {what}"
        if r.returncode != 2 or want not in r.stderr:
            fail(f"vx {command[0]} {option} {value!r}: want exit 2 and {want!r}, got "
                 f"{r.returncode} {r.stderr[:300]!r}")
    r = vx(*command, option, "nan", "--error-format=json", stdin="") if command[0] in (
        "run", "call") else None
    if r is not None:
        lines = r.stderr.splitlines()
        try:
            objs = [json.loads(line) for line in lines]
        except ValueError:
            objs = []
        if r.returncode != 2 or len(objs) != 1 or objs[0].get("level") != "error" or \
                f"`nan` is not {what}" not in objs[0].get("message", ""):
            fail(f"vx {command[0]} {option} nan --error-format=json: want exit 2 and one JSON "
                 f"error, got {r.returncode} {r.stderr[:300]!r}")
    # The ends of the range are accepted (the run, or the session, goes on to its end).
    for value in (lo, hi):
        r = vx(*command, option, value, stdin="")
        if r.returncode not in (0, 1) or "is not" in r.stderr:
            fail(f"vx {command[0]} {option} {value}: want it accepted, got {r.returncode} "
                 f"{r.stderr[:300]!r}")

# A valid limit still bounds the run: 2^63 - 1 steps is no limit that a loop meets in a test,
# 1000 is one.
r = vx("run", "--max-steps", "1000", LOOP)
if r.returncode != 101 or "step limit reached: more than 1000 steps" not in r.stderr:
    fail(f"vx run --max-steps 1000 of an endless loop: want 101, got {r.returncode} {r.stderr!r}")

# vx repl --max-steps / --max-seconds: each input is bounded; the session goes on after it.
script = "let mut i = 0;\nloop { i += 1; }\ni\n:quit\n"
r = vx("repl", "--offload=off", "--max-steps", "1000", stdin=script)
if r.returncode != 0 or "step limit reached: more than 1000 steps" not in r.stderr or \
        r.stdout != "= 0 : i32\n":
    fail(f"vx repl --max-steps 1000: want the loop stopped, `i` as before it and exit 0, got "
         f"{r.returncode} {r.stdout!r} {r.stderr[:400]!r}")
r = vx("repl", "--offload=off", "--max-seconds", "0.2", stdin=script)
if r.returncode != 0 or "time limit reached: the run took more than 0.2 s" not in r.stderr:
    fail(f"vx repl --max-seconds 0.2: want the loop stopped and exit 0, got {r.returncode} "
         f"{r.stderr[:400]!r}")

# `no CUDA device` under --error-format=json: a note of the diagnostics' shape (spec/cli.md §5).
KERNEL = write("kernel.vx", """fn main() {
    let mut t = transfer(Tensor<f32, [4]>::fill(1.0), Memory::HBM);
    spawn on(Topology::Device) {
        for _b in 0..1 across blocks {
            for l in 0..4 across lanes {
                t[l] = t[l] * 2.0;
            }
        }
    }
    let h = transfer(t, Memory::CPU_DRAM);
    println!("{}", h[3]);
}
""")
NOTE = {"level": "note", "code": None, "message": "no CUDA device", "spans": [], "notes": [],
        "helps": [], "rendered": "no CUDA device\n"}
for offload in ("auto", "verify"):
    human = vx("run", "--offload=" + offload, KERNEL)
    no_device = "no CUDA device" in human.stderr.splitlines()
    r = vx("run", "--error-format=json", "--offload=" + offload, KERNEL)
    if r.returncode != 0 or r.stdout != "2\n" or human.stdout != "2\n":
        fail(f"vx run --offload={offload}: want 2 printed, got {r.returncode} {r.stdout!r} "
             f"{r.stderr[:300]!r}")
    objs = []
    for line in r.stderr.splitlines():
        try:
            objs.append(json.loads(line))
        except ValueError:
            fail(f"--offload={offload} --error-format=json: a line of stderr that is not JSON: "
                 f"{line!r}")
    if objs != ([NOTE] if no_device else []):
        fail(f"--offload={offload} --error-format=json: want {[NOTE] if no_device else []} "
             f"(no GPU: {no_device}), got {objs}")
print(f"cli_options: {len(failures)} failures")
sys.exit(1 if failures else 0)
