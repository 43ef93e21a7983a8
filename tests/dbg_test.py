#!/usr/bin/env python3
"""`dbg!` (spec/builtins.md §7) on the interpreter, the lint dbg_macro, and what the emitter makes
of it. The GPU side (the stand-in driver's printf lines, sent to stderr) is in cuda_host_test.

- in a kernel, each pass's line names the place, the block and lane loop variables and plain
  loops' values, in pass order (blocks, then lanes), whatever VX_HOST_THREADS says; the text of
  every line is built here from the program, never copied from vx;
- standard output is the program's alone: the same as the program without `dbg!`;
- `dbg!(x)` is x: the kernel's result, and a store `t[dbg!(i)]` that the kernel rules prove;
- outside loops the line is `[FILE:LINE:COL] TEXT = VALUE`, floats as `{:?}`;
- the lint at each `dbg!`; `#![allow(dbg_macro)]`; `-D warnings`; JSON's `lint`;
- `vx emit-cuda` makes a printf of the same line;
- E0200/E0201 for a tensor or two arguments.

usage: dbg_test.py VX
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
tmp = scratch_dir(prefix="vx_dbg_")
checks = Checks("dbg")
fail = checks.fail
def write(name, text):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def vx(*args, env=None):
    return run([VX, *args], env=env, timeout=120)


def place(text, needle, path):
    """`path:LINE:COL` of the first `needle` in `text` (1-based, columns in characters)."""
    for n, line in enumerate(text.split("\n"), 1):
        if needle in line:
            return f"{path}:{n}:{line.index(needle) + 1}"
    raise AssertionError(needle)


KERNEL = """fn main() {
    let mut t = transfer(Tensor<i32, [3, 32]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..3 across blocks {
            for l in 0..32 across lanes(32) {
                let mut acc = 0;
                for k in 0..2 {
                    acc += dbg!(b * 10 + l + k);
                }
                t[b][dbg!(l)] = acc;
            }
        }
    }
    let h = transfer(t, Memory::CPU_DRAM);
    println!("{} {} {}", h[0][0], h[1][31], h[2][7]);
}
"""
prog = write("kernel.vx", KERNEL)
first = place(KERNEL, "dbg!(b * 10", prog)
second = place(KERNEL, "dbg!(l)", prog)
want = []
for b in range(3):
    for l in range(32):
        for k in range(2):
            want.append(f"[{first} b={b} l={l} k={k}] b * 10 + l + k = {b * 10 + l + k}")
        want.append(f"[{second} b={b} l={l}] l = {l}")
# acc = 2 * (b * 10 + l) + 1
want_out = f"{1} {2 * (10 + 31) + 1} {2 * (20 + 7) + 1}\n"
plain = write("plain.vx", KERNEL.replace("dbg!(b * 10 + l + k)", "(b * 10 + l + k)")
              .replace("dbg!(l)", "l"))
r0 = vx("run", "--offload=off", plain)
if r0.returncode != 0 or r0.stdout != want_out:
    fail(f"the program without dbg! printed {r0.stdout!r} (exit {r0.returncode}), expected {want_out!r}")
for threads in ("1", "2", "4"):
    r = vx("run", "--offload=off", prog, env={"VX_HOST_THREADS": threads})
    if r.returncode != 0:
        fail(f"VX_HOST_THREADS={threads}: exit {r.returncode}: {r.stderr[-500:]}")
        continue
    if r.stdout != r0.stdout:
        fail(f"VX_HOST_THREADS={threads}: stdout {r.stdout!r} is not the program's {r0.stdout!r}")
    got = [line for line in r.stderr.splitlines() if line.startswith("[")]
    if got != want:
        bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
        fail(f"VX_HOST_THREADS={threads}: {len(got)} dbg lines, expected {len(want)}; first "
             f"difference at {bad}: {got[bad:bad + 1]} vs {want[bad:bad + 1]}")
    if r.stderr.count("warning: `dbg!` is for debugging: remove it when done") != 2:
        fail(f"not one dbg_macro warning per dbg!: {r.stderr[:800]!r}")

# --check-races records the passes with dbg! in them too, and finds no collision.
r = vx("run", "--offload=off", "--check-races", prog)
if r.returncode != 0 or r.stdout != want_out:
    fail(f"--check-races with dbg!: exit {r.returncode}, {r.stdout!r}: {r.stderr[-400:]}")

# Host code: the place alone; floats, bools and chars as {:?} prints them.
HOST = """fn main() {
    let x = dbg!(0.1f32) * 10.0;
    let y = dbg!(2.0) + dbg!(1.5);
    let ok = dbg!(x > 0.5);
    let c = dbg!('é');
    dbg!(7u8);
    println!("{} {} {} {}", x, y, ok, c);
}
"""
host = write("host.vx", HOST)
r = vx("run", host)
want_host = [f"[{place(HOST, 'dbg!(0.1f32)', host)}] 0.1f32 = 0.1",
             f"[{place(HOST, 'dbg!(2.0)', host)}] 2.0 = 2.0",
             f"[{place(HOST, 'dbg!(1.5)', host)}] 1.5 = 1.5",
             f"[{place(HOST, 'dbg!(x > 0.5)', host)}] x > 0.5 = true",
             f"[{place(HOST, 'dbg!(' + chr(39), host)}] 'é' = 'é'",
             f"[{place(HOST, 'dbg!(7u8)', host)}] 7u8 = 7"]
got = [line for line in r.stderr.splitlines() if line.startswith("[")]
if r.returncode != 0 or got != want_host:
    fail(f"host dbg! lines {got!r}, expected {want_host!r} (exit {r.returncode})")
if r.stdout != "1 3.5 true é\n":
    fail(f"host program printed {r.stdout!r}")

# The lint: allowed, denied, as JSON.
allowed = write("allowed.vx", "#![allow(dbg_macro)]\n" + HOST)
r = vx("check", allowed)
if r.returncode != 0 or r.stderr:
    fail(f"#![allow(dbg_macro)]: exit {r.returncode}, stderr {r.stderr!r}")
r = vx("check", "-D", "warnings", host)
if r.returncode != 1 or "`dbg!` is for debugging" not in r.stderr:
    fail(f"-D warnings with dbg!: exit {r.returncode}: {r.stderr[:400]!r}")
r = vx("check", "--error-format=json", host)
lints = [json.loads(line).get("lint") for line in r.stderr.splitlines() if line.startswith("{")]
if r.returncode != 0 or lints.count("dbg_macro") != 6:
    fail(f"JSON: {lints!r}")

# The emitter: a printf of the same line (floats aside), in the kernel.
r = vx("emit-cuda", prog)
fmt = f'printf("[{first} b=%lld l=%lld k=%lld] b * 10 + l + k = %lld\\n"'
if r.returncode != 0 or fmt not in r.stdout:
    fail(f"emit-cuda has no {fmt!r}: exit {r.returncode}")

# What dbg! takes.
bad = write("bad.vx", """fn main() {
    let t = Tensor<f32, [4]>::fill(1.0);
    let a = dbg!(t);
    let b = dbg!(1, 2);
}
""")
r = vx("check", bad)
if r.returncode != 1 or "error[E0200]: `dbg!` prints a scalar" not in r.stderr or \
        f"{bad}:3:18" not in r.stderr or "error[E0201]: `dbg!` takes one value, not 2" not in r.stderr \
        or f"{bad}:4:13" not in r.stderr:
    fail(f"dbg! of a tensor / of two values: {r.stderr!r}")

checks.finish()
