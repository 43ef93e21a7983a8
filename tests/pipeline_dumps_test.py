#!/usr/bin/env python3
"""`--dump=ast|typed|kernels|cuda|uir` (spec/cli.md §4, pipeline/pipeline.hpp): what each step of
the pipeline made, printed, for a program small enough to work out by hand.

- `check --dump=typed`: every local with its slot, literals with their types, every composite
  expression with its type, the loops with their across levels and positions;
- `run --dump=typed`: the same program as the run executes it, with the offload marks: a sync
  before each host statement that touches a tensor, a checkpoint after the region;
- `check --dump=kernels`: the store and what the kernel rules proved, with the digits of the
  offset y * 8 + x (coefficients 8 and 1, worked out by hand);
- `check --dump=cuda` is exactly `emit-cuda`'s output, `--dump=uir` exactly `lower --to uir`'s;
- a dump stops the command: nothing runs (no output of the program);
- an unknown dump is a usage error (exit 2); a program the checker refuses is not dumped (exit 1,
  its diagnostic).

usage: pipeline_dumps_test.py VX
"""
import os
import subprocess
import sys
import tempfile

VX = os.path.abspath(sys.argv[1])
failures = []

PROGRAM = """fn main() {
    let mut g = transfer(Tensor<i32, [4, 8]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for y in 0..4 across blocks {
            for x in 0..8 across lanes {
                g[y][x] = y * 8 + x;
            }
        }
    }
    let h = transfer(g, Memory::CPU_DRAM);
    println!("{}", h[3][7]);
}
"""

HBM = "Tensor<i32, [4, 8], Memory::HBM>"
TYPED_BODY = [
    f"    let g%0: {HBM} = (transfer(Tensor<i32, [4, 8]>::fill(0i32), Memory::HBM) : {HBM});",
    "    spawn on(Topology::Device) {  // region at 3:5",
    "        for y%1 in 0i32..4i32 across blocks {  // 4:9",
    "            for x%2 in 0i32..8i32 across lanes {  // 5:13",
    "                (g%0[y%1][x%2] : i32) = ((y%1 * 8i32 : i32) + x%2 : i32);",
    "            }",
    "        }",
    "    }",
    "    let h%3: Tensor<i32, [4, 8]> = (transfer(g%0, Memory::CPU_DRAM) : Tensor<i32, [4, 8]>);",
    '    println!("{}", (h%3[3i32][7i32] : i32));',
]
SYNC = "    // offload mark: sync (the GPU's results copied back)"
CHECKPOINT = "    // offload mark: checkpoint after the region at 3:5"


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def vx(*args):
    return subprocess.run([VX, *args], capture_output=True, text=True, timeout=60)


def expect_lines(what, got, want):
    lines = got.splitlines()
    if lines != want:
        fail(f"{what}:\n--- expected\n" + "\n".join(want) + "\n--- got\n" + "\n".join(lines))


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "p.vx")
    with open(path, "w") as f:
        f.write(PROGRAM)

    r = vx("run", "--offload=off", path)
    if r.returncode != 0 or r.stdout != "31\n":  # h[3][7] = 3 * 8 + 7
        fail(f"the program itself: status {r.returncode}, stdout {r.stdout!r}")

    head = "fn main() -> () {  // 1:4, 4 slots"
    r = vx("check", "--dump=typed", path)
    expect_lines("check --dump=typed", r.stdout, [head] + TYPED_BODY + ["}"])

    r = vx("run", "--offload=off", "--dump=typed", path)
    marked = [head, SYNC, TYPED_BODY[0]] + TYPED_BODY[1:8] + [CHECKPOINT, SYNC, TYPED_BODY[8],
                                                              SYNC, TYPED_BODY[9], "}"]
    expect_lines("run --dump=typed", r.stdout, marked)
    if "31" in r.stdout:
        fail("run --dump=typed ran the program")

    r = vx("check", "--dump=kernels", path)
    expect_lines("check --dump=kernels", r.stdout, [
        "store g[y][x] at 6:17: tensor g, offset y * 8 + x",
        "    across block y (4:9): proved: no two passes reach the same offset; digits y × 8, x × 1",
        "    across lane x (5:13): proved: no two passes reach the same offset; digits x × 1",
    ])

    for dump, command in (("cuda", ["emit-cuda"]), ("uir", ["lower", "--to", "uir"])):
        a, b = vx("check", f"--dump={dump}", path), vx(*command, path)
        if a.returncode != 0 or a.stdout != b.stdout or not a.stdout:
            fail(f"check --dump={dump} (status {a.returncode}) differs from {' '.join(command)}")
    if "__global__" not in vx("check", "--dump=cuda", path).stdout:
        fail("check --dump=cuda has no kernel")

    r = vx("parse", "--dump=ast", path)
    a = vx("check", "--dump=ast", path)
    if r.returncode != 0 or r.stdout != a.stdout or "SpawnOn" not in r.stdout:
        fail("check --dump=ast differs from parse --dump=ast")

    r = vx("check", "--dump=nope", path)
    if r.returncode != 2 or "nope" not in r.stderr:
        fail(f"--dump=nope: status {r.returncode}, stderr {r.stderr!r}")

    bad = os.path.join(tmp, "bad.vx")
    with open(bad, "w") as f:
        f.write("fn main() {\n    let x: i32 = true;\n}\n")
    r = vx("check", "--dump=typed", bad)
    if r.returncode != 1 or r.stdout or "error[E" not in r.stderr or "bad.vx:2:" not in r.stderr:
        fail(f"a refused program: status {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr!r}")

print(f"pipeline dumps: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
