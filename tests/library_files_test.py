#!/usr/bin/env python3
"""A library file: `pub fn` kernels and their helpers, no `fn main` (spec/cli.md §3, issue 38
item 2).

- `vx check` accepts it (no diagnostic), and so do `--explain` (a table per store), `--map` (a
  map per store), `--dump=typed`, `vx emit-cuda` (one `__global__` per region), `vx lower
  --to=uir` (the region lowered) and `vx call`;
- it is checked whole: a type error is E0200 and a race is E6032, at their lines, and the lints
  still warn;
- `vx run` and `vx lower --run`, which start at `main`, refuse it with E0103 at 1:1.

usage: library_files_test.py VX
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
tmp = scratch_dir(prefix="vx_library_")
checks = Checks("library_files")
fail = checks.fail


def expect(r, status, what):
    return checks.status(r, status, what)
def write(name, text):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def vx(*args):
    return run([VX, *args], timeout=120)




LIBRARY = """pub fn scale(out : &mut Tensor<f32, [?], Memory::HBM>, inp : &Tensor<f32, [?], Memory::HBM>, n : i32) {
    spawn on(Topology::Device) {
        for b in 0..(n + 255) / 256 across blocks {
            for l in 0..256 across lanes {
                let i = b * 256 + l;
                if i < n {
                    out[i] = inp[i] * 2.0;
                }
            }
        }
    }
}

fn square(x : i32) -> i32 {
    x * x
}

pub fn area(w : i32) -> i32 {
    square(w)
}
"""
lib = write("lib.vx", LIBRARY)

r = vx("check", lib)
if expect(r, 0, "vx check of a library file") and (r.stdout or r.stderr):
    fail(f"vx check of a library file printed {r.stdout!r} {r.stderr!r}")
r = vx("check", "--explain", lib)
if expect(r, 0, "vx check --explain of a library file") and f"{lib}:7:21" not in r.stdout:
    fail(f"--explain has no table for the store at 7:21: {r.stdout[:600]!r}")
r = vx("check", "--map", "--color=never", lib)
if expect(r, 0, "vx check --map of a library file") and "out[i]" not in r.stdout:
    fail(f"--map has no map of `out[i]`: {r.stdout[:600]!r}")
r = vx("check", "--dump=typed", lib)
if expect(r, 0, "vx check --dump=typed of a library file") and "fn area" not in r.stdout:
    fail(f"--dump=typed lacks `fn area`: {r.stdout[:600]!r}")
r = vx("emit-cuda", lib)
if expect(r, 0, "vx emit-cuda of a library file"):
    if r.stdout.count("VX_KERNEL void __launch_bounds__(256) vx_region_0_L2(") != 1 or \
            "not emitted" in r.stdout:
        fail(f"emit-cuda did not emit the one region: {r.stdout[-600:]!r}")
# Its one region's bound is `n`, a parameter: .uir says so (spec/uir.md), as for any program.
r = vx("lower", "--to=uir", lib)
if expect(r, 0, "vx lower --to=uir of a library file") and \
        f"# {lib}:2:5: not lowered: the loop `b` has a bound" not in r.stdout:
    fail(f"lower did not report the region at 2:5: {r.stdout[:600]!r}")
r = vx("call", lib, "area", "--arg", "w=12")
if expect(r, 0, "vx call of a library file") and r.stdout != "144\n":
    fail(f"area(12) printed {r.stdout!r}")

# Only what starts at main needs it.
for args in (("run", lib), ("lower", "--to=uir", "--run", lib)):
    r = vx(*args)
    if expect(r, 1, "vx " + " ".join(args[:-1]) + " of a library file"):
        if "error[E0103]: the program has no `fn main`" not in r.stderr or \
                f"--> {lib}:1:1" not in r.stderr:
            fail(f"vx {' '.join(args[:-1])}: not E0103 at 1:1: {r.stderr!r}")

# A library file is checked whole: types, the kernel rules, the lints.
bad_type = write("bad_type.vx", LIBRARY.replace("    square(w)\n", "    square(w) + 1.5\n"))
r = vx("check", bad_type)
if expect(r, 1, "a type error in a library file") and \
        ("error[E0200]" not in r.stderr or f"--> {bad_type}:19:" not in r.stderr):
    fail(f"the type error is not E0200 at line 19: {r.stderr!r}")
racy = write("racy.vx", LIBRARY.replace("out[i] = inp[i] * 2.0;", "out[l] = inp[i] * 2.0;"))
r = vx("check", racy)
if expect(r, 1, "a race in a library file") and \
        ("error[E6032]" not in r.stderr or f"--> {racy}:7:21" not in r.stderr):
    fail(f"the race is not E6032 at 7:21: {r.stderr!r}")
r = vx("emit-cuda", racy)
expect(r, 1, "emit-cuda of a racy library file")
unused = write("unused.vx", LIBRARY.replace("    x * x\n", "    let y = 3;\n    x * x\n"))
r = vx("check", unused)
if expect(r, 0, "a lint in a library file") and "unused variable: `y`" not in r.stderr:
    fail(f"no unused_variables warning in a library file: {r.stderr!r}")

checks.finish()
