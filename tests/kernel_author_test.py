#!/usr/bin/python3
"""What a kernel author runs beside numpy (issue 38, items 4 and 6): `vx diff` of two `.npy`
files (spec/cli.md §2.1), `vx call --out` of an output without an input file and `--shape`,
`vx call --bench` (§2.2), and `--offload=gpu` with no GPU (E0700, spec/offload.md §3).

- diff: the expected lines are built here from numpy's own values (the shortest repr of each
  float, its bits, the ulps counted on the integers of the bits), never copied from vx;
- --out without --arg: the result is the kernel's formula computed by numpy; a `?` dimension
  needs --shape; every misuse is a usage error (exit status 2) that names it;
- --bench: one line on stderr in the documented form, and the file written is one call's result
  (each call starts again from the file), whatever the number of calls;
- E0700: at the first emitted region's `spawn`, exit status 2, nothing run; `verify` and `auto`
  still run on the interpreter with `no CUDA device`; a program without a region runs.

numpy is Debian's python3-numpy (tools/setup). The driver is made unopenable with
VX_CUDA_DRIVER=<a path that does not exist>, so the test is the same on a machine with a GPU.

usage: kernel_author_test.py VX CORPUS_DIR
"""
import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
CORPUS = os.path.abspath(sys.argv[2])
GELU = os.path.join(CORPUS, "book", "blog_gelu_forward_exact.vx")
tmp = scratch_dir(prefix="vx_author_")
NO_DRIVER = {"VX_CUDA_DRIVER": os.path.join(tmp, "no-such-libcuda.so")}
checks = Checks("kernel_author")
fail, expect = checks.fail, checks.status
def path(name):
    return os.path.join(tmp, name)


def vx(*args, env=None):
    return run([VX, *args], env=env)




def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- vx diff A.npy B.npy ---------------------------------------------------------------------------

def bits_text(v):
    width = v.dtype.itemsize * 2
    return "0x%0*x" % (width, int(v.view(np.dtype("<u%d" % v.dtype.itemsize))))


def ulps(a, b):
    """Floats as sign-magnitude integers, -0 one below +0 (spec/cli.md §2.1)."""
    n = a.dtype.itemsize * 8
    u = np.dtype("<u%d" % a.dtype.itemsize)

    def ordered(x):
        i = int(x.view(u))
        mag = i & ((1 << (n - 1)) - 1)
        return -mag - 1 if i >> (n - 1) else mag
    return abs(ordered(a) - ordered(b))


def vx_text(v):
    """A float as Vx's `{}` prints it: the shortest digits that read back as it, never an
    exponent, no `.0` on an integer (Rust's Display)."""
    return np.format_float_positional(v, unique=True, trim="-")


def element_line(idx, a, b, pa, pb):
    line = "array%s: %s (%s) in %s, %s (%s) in %s" % (
        "".join("[%d]" % i for i in idx), vx_text(a), bits_text(a), pa, vx_text(b), bits_text(b), pb)
    d = ulps(a, b)
    return line + ": %d %s" % (d, "ulp" if d == 1 else "ulps")


base = (np.arange(6, dtype=np.float32).reshape(2, 3) + np.float32(0.5)) / np.float32(3)
other = base.copy()
other[0, 1] = np.nextafter(other[0, 1], np.float32(10))
other[1, 2] = np.uint32(int(other[1, 2].view(np.uint32)) + 3).view(np.float32)
np.save(path("a.npy"), base)
np.save(path("b.npy"), other)
pa, pb = path("a.npy"), path("b.npy")
r = vx("diff", pa, pb)
want = [element_line((0, 1), base[0, 1], other[0, 1], pa, pb),
        element_line((1, 2), base[1, 2], other[1, 2], pa, pb),
        "array: 2 of 6 elements differ (at most 3 ulps apart)"]
if expect(r, 1, "vx diff of two f32 .npy files") and r.stdout.splitlines() != want:
    fail(f"vx diff printed {r.stdout!r}, expected {want!r}")
r = vx("diff", pa, pb, "--ulp", "3")
if expect(r, 0, "vx diff --ulp 3") and r.stdout:
    fail(f"vx diff --ulp 3 printed {r.stdout!r}")
r = vx("diff", pa, pb, "--ulp", "2")
if expect(r, 1, "vx diff --ulp 2") and r.stdout.splitlines() != [want[1], "array: 1 of 6 elements differ (at most 3 ulps apart)"]:
    fail(f"vx diff --ulp 2 printed {r.stdout!r}")
r = vx("diff", pa, pa)
if expect(r, 0, "vx diff of a file with itself") and r.stdout:
    fail(f"vx diff A A printed {r.stdout!r}")

# NaNs with other payloads are equal, a NaN against a number is not; -0 is one ulp below +0;
# f64 and f16 count their own ulps.
nan_a = np.array([np.nan, 0.0, 1.0], np.float64)
nan_b = nan_a.copy()
nan_b[0] = np.uint64(int(np.float64(np.nan).view(np.uint64)) | 1).view(np.float64)
nan_b[1] = -0.0
np.save(path("nan_a.npy"), nan_a)
np.save(path("nan_b.npy"), nan_b)
r = vx("diff", path("nan_a.npy"), path("nan_b.npy"))
want = [element_line((1,), nan_a[1], nan_b[1], path("nan_a.npy"), path("nan_b.npy")),
        "array: 1 of 3 elements differ (at most 1 ulp apart)"]
if expect(r, 1, "vx diff of f64 with NaNs and zeros") and r.stdout.splitlines() != want:
    fail(f"vx diff of NaNs printed {r.stdout!r}, expected {want!r}")
np.save(path("nan_c.npy"), np.array([1.0, 0.0, 1.0], np.float64))
r = vx("diff", path("nan_a.npy"), path("nan_c.npy"))
if expect(r, 1, "a NaN against a number") and "ulp" in r.stdout.splitlines()[0]:
    fail(f"a NaN against a number has a distance in ulps: {r.stdout!r}")
h_a = np.array([1.0, 2.0], np.float16)
h_b = np.array([1.0, np.nextafter(np.float16(2.0), np.float16(3.0))], np.float16)
np.save(path("h_a.npy"), h_a)
np.save(path("h_b.npy"), h_b)
r = vx("diff", path("h_a.npy"), path("h_b.npy"))
if expect(r, 1, "vx diff of f16") and r.stdout.splitlines()[0] != element_line(
        (1,), h_a[1], h_b[1], path("h_a.npy"), path("h_b.npy")):
    fail(f"vx diff of f16 printed {r.stdout!r}")

# Integers exactly; dtype and shape differences; what is not comparable.
np.save(path("i_a.npy"), np.array([[1, 2], [3, 4]], np.int32))
np.save(path("i_b.npy"), np.array([[1, 2], [3, 5]], np.int32))
r = vx("diff", path("i_a.npy"), path("i_b.npy"))
want = [f"array[1][1]: 4 in {path('i_a.npy')}, 5 in {path('i_b.npy')}",
        "array: 1 of 4 elements differ"]
if expect(r, 1, "vx diff of i32") and r.stdout.splitlines() != want:
    fail(f"vx diff of i32 printed {r.stdout!r}, expected {want!r}")
np.save(path("l_a.npy"), np.array([[1, 2], [3, 4]], np.int64))
r = vx("diff", path("i_a.npy"), path("l_a.npy"))
if expect(r, 1, "dtypes differ") and r.stdout != (
        f"array: <i4 [2, 2] in {path('i_a.npy')}, <i8 [2, 2] in {path('l_a.npy')}\n"):
    fail(f"vx diff of i4 and i8 printed {r.stdout!r}")
np.save(path("s_a.npy"), np.array([1, 2, 3, 4], np.int32))
r = vx("diff", path("i_a.npy"), path("s_a.npy"))
if expect(r, 1, "shapes differ") and r.stdout != (
        f"array: <i4 [2, 2] in {path('i_a.npy')}, <i4 [4] in {path('s_a.npy')}\n"):
    fail(f"vx diff of [2, 2] and [4] printed {r.stdout!r}")
np.save(path("big_endian.npy"), np.array([1.0], ">f4"))
expect(vx("diff", path("big_endian.npy"), path("big_endian.npy")), 2, "a big-endian file",
       "is big-endian")
np.save(path("complex.npy"), np.array([1j], np.complex64))
expect(vx("diff", path("complex.npy"), path("complex.npy")), 2, "a complex file", "`<c8`")
with open(path("doc.json"), "w") as f:
    f.write('{"vx_values": 1, "file": "x.vx", "bindings": []}\n')
expect(vx("diff", pa, path("doc.json")), 2, ".npy against a values document",
       "a .npy file is compared with another .npy file")
with open(path("not.npy"), "wb") as f:
    f.write(b"not numpy")
expect(vx("diff", path("not.npy"), pa), 2, "a file that is not .npy", "not.npy")

# ---- vx call --out NAME=F.npy without --arg ----------------------------------------------------

LIB = write("outs.vx", """pub fn iota(out : &mut Tensor<f32, [4, 3]>, k : f32) {
    for i in 0..4 {
        for j in 0..3 {
            out[i][j] = out[i][j] + (i * 3 + j) as f32 * k;
        }
    }
}
pub fn ramp(out : &mut Tensor<i32, [?]>) {
    for i in 0..out.len() {
        out[i] = i * 7;
    }
}
pub fn grid(out : &mut Tensor<i64, [?, 2]>, inp : &Tensor<i64, [?, 2]>) {
    for i in 0..out.len() {
        out[i][0] = inp[i][1];
        out[i][1] = inp[i][0];
    }
}
pub fn bump(t : &mut Tensor<f32, [8]>) {
    for i in 0..8 {
        t[i] = t[i] + 1.5;
    }
}
""")
r = vx("call", LIB, "iota", "--arg", "k=0.5", "--out", "out=" + path("iota.npy"))
if expect(r, 0, "--out of a fixed-shape &mut tensor without --arg"):
    want = (np.arange(12, dtype=np.float32) * np.float32(0.5)).reshape(4, 3)  # from zeros
    if not same_bits(np.load(path("iota.npy")), want):
        fail(f"iota wrote {np.load(path('iota.npy'))!r}, expected {want!r}")
r = vx("call", LIB, "iota", "--arg", "k=1", "--out", "out=" + path("iota2.npy"),
       "--shape", "out=[4, 3]")
expect(r, 0, "--shape that agrees with a fixed shape")
expect(vx("call", LIB, "iota", "--arg", "k=1", "--out", "out=" + path("x.npy"),
          "--shape", "out=4,4"), 2, "--shape against a fixed dimension",
       "cannot have the shape [4, 4] of --shape")
expect(vx("call", LIB, "ramp", "--out", "out=" + path("ramp.npy")), 2,
       "a `?` dimension without --shape", "has a `?` dimension: give --shape")
r = vx("call", LIB, "ramp", "--out", "out=" + path("ramp.npy"), "--shape", "out=5")
if expect(r, 0, "--shape of a `?` dimension") and not same_bits(
        np.load(path("ramp.npy")), np.arange(5, dtype=np.int32) * 7):
    fail(f"ramp wrote {np.load(path('ramp.npy'))!r}")
for bad in ("out=0", "out=5,", "out=x", "out=2147483649", "out=-1"):
    expect(vx("call", LIB, "ramp", "--out", "out=" + path("r.npy"), "--shape", bad), 2,
           f"--shape {bad}", "each dimension is an integer from 1 to 2147483648")
expect(vx("call", LIB, "ramp", "--out", "out=" + path("r.npy"), "--shape", "out=2,2"), 2,
       "--shape of another rank", "cannot have the shape [2, 2]")
np.save(path("pairs.npy"), np.array([[1, 2], [3, 4], [5, 6]], np.int64))
r = vx("call", LIB, "grid", "--arg", "inp=" + path("pairs.npy"), "--out", "out=" + path("g.npy"),
       "--shape", "out=3,2")
if expect(r, 0, "an output made beside an input") and not same_bits(
        np.load(path("g.npy")), np.array([[2, 1], [4, 3], [6, 5]], np.int64)):
    fail(f"grid wrote {np.load(path('g.npy'))!r}")
expect(vx("call", LIB, "grid", "--arg", "inp=" + path("pairs.npy"), "--arg",
          "out=" + path("pairs.npy"), "--shape", "out=3,2"), 2, "--shape with --arg",
       "--shape out=…: only a `&mut` tensor with an --out and no --arg")
expect(vx("call", LIB, "grid", "--arg", "out=" + path("pairs.npy"), "--shape", "inp=3,2"), 2,
       "--shape of a & parameter", "`inp` is `&Tensor<i64, [?, 2]>`")
expect(vx("call", LIB, "grid", "--out", "out=" + path("g.npy"), "--shape", "nope=3"), 2,
       "--shape of no parameter", "has no parameter `nope`")
expect(vx("call", LIB, "grid", "--arg", "inp=" + path("pairs.npy"), "--shape", "out=3,2"), 2,
       "--shape without --out", "--shape out=…: only a `&mut` tensor with an --out")
expect(vx("call", LIB, "ramp"), 2, "a &mut tensor with neither --arg nor --out",
       "or --out out=PATH.npy for an output the call only writes")

# The GPU's kernel (seed 002's gelu) writing a made output: bit for bit the call on a file of zeros
# (call_test checks that one against numpy's GELU).
x = np.linspace(-3, 3, 300, dtype=np.float32)
np.save(path("gx.npy"), x)
np.save(path("gz.npy"), np.zeros(300, np.float32))
ref = vx("call", GELU, "gelu_forward", "--arg", "out=" + path("gz.npy"), "--arg",
         "inp=" + path("gx.npy"), "--arg", "n=300", "--out", "out=" + path("g_ref.npy"))
made = vx("call", GELU, "gelu_forward", "--out", "out=" + path("g_made.npy"), "--shape",
          "out=300", "--arg", "inp=" + path("gx.npy"), "--arg", "n=300")
if expect(ref, 0, "gelu on a file of zeros") and expect(made, 0, "gelu on a made output"):
    if not same_bits(np.load(path("g_made.npy")), np.load(path("g_ref.npy"))):
        fail("gelu on a made output differs from gelu on a file of zeros")

# ---- vx call --bench --------------------------------------------------------------------------

BENCH_LINE = re.compile(
    r"^vx: bench (\w+): median ([0-9.e+-]+) ms, min ([0-9.e+-]+) ms, max ([0-9.e+-]+) ms, "
    r"over (\d+) calls after (\d+) warm-up calls, --offload=(\w+)$")
start = np.arange(8, dtype=np.float32) * np.float32(0.25)
np.save(path("bench_in.npy"), start)
r = vx("call", LIB, "bump", "--arg", "t=" + path("bench_in.npy"), "--out",
       "t=" + path("bench_out.npy"), "--bench", "--bench-warmup", "2", "--bench-rep", "5",
       "--offload=off")
if expect(r, 0, "vx call --bench"):
    lines = [line for line in r.stderr.splitlines() if line.startswith("vx: bench")]
    m = BENCH_LINE.match(lines[0]) if len(lines) == 1 else None
    if not m:
        fail(f"--bench printed {r.stderr!r}")
    else:
        median, lo, hi = float(m.group(2)), float(m.group(3)), float(m.group(4))
        calls, warm = int(m.group(5)), int(m.group(6))
        if not (m.group(1) == "bump" and m.group(7) == "off" and 0 < lo <= median <= hi
                and 1 <= calls <= 10000 and warm >= 2):
            fail(f"--bench line does not add up: {lines[0]!r}")
    # One call's result: each call starts again from the file, however many ran.
    if not same_bits(np.load(path("bench_out.npy")), start + np.float32(1.5)):
        fail(f"--bench wrote {np.load(path('bench_out.npy'))!r}, not one call's result")
    if r.stdout:
        fail(f"--bench of a function returning nothing printed {r.stdout!r}")
r = vx("call", write("ret.vx", "pub fn seven(k : i32) -> i32 {\n    k + 7\n}\n"), "seven", "--arg",
       "k=5", "--bench", "--bench-rep", "3")
if expect(r, 0, "--bench of a function returning a value") and r.stdout != "12\n":
    fail(f"--bench printed the return value as {r.stdout!r}, expected it once")
expect(vx("call", LIB, "bump", "--arg", "t=" + path("bench_in.npy"), "--bench-rep", "5"), 2,
       "--bench-rep without --bench", "--bench")
expect(vx("call", LIB, "bump", "--arg", "t=" + path("bench_in.npy"), "--bench", "--bench-rep",
          "nan"), 2, "--bench-rep nan", "is not a number from")

# ---- --offload=gpu with no GPU: E0700 ----------------------------------------------------------

KERNEL = """fn main() {
    let mut t = transfer(Tensor<f32, [2, 64]>::fill(0.0), Memory::HBM);
    println!("before");
    spawn on(Topology::Device) {
        for b in 0..2 across blocks {
            for l in 0..64 across lanes(64) {
                t[b][l] = (b * 64 + l) as f32;
            }
        }
    }
    let h = transfer(t, Memory::CPU_DRAM);
    println!("{}", h[1][63]);
}
"""
prog = write("kernel.vx", KERNEL)
r = vx("run", "--offload=gpu", prog, env=NO_DRIVER)
if expect(r, 2, "--offload=gpu with no driver", "error[E0700]: `--offload=gpu` but there is no "
          "GPU to run this region on"):
    if f"--> {prog}:4:5" not in r.stderr:
        fail(f"E0700 is not at the region's spawn (4:5): {r.stderr!r}")
    if "= note: no CUDA driver (VX_CUDA_DRIVER=" not in r.stderr:
        fail(f"E0700 does not say what is missing: {r.stderr!r}")
    if r.stdout:
        fail(f"the program ran before E0700: {r.stdout!r}")
r = vx("run", "--offload=gpu", "--error-format=json", prog, env=NO_DRIVER)
if expect(r, 2, "E0700 as JSON"):
    objs = [json.loads(line) for line in r.stderr.splitlines() if line.startswith("{")]
    if not objs or objs[0].get("code") != "E0700" or objs[0]["spans"][0]["line_start"] != 4:
        fail(f"E0700 as JSON: {r.stderr!r}")
for mode in ("verify", "auto", "off"):
    r = vx("run", "--offload=" + mode, prog, env=NO_DRIVER)
    if expect(r, 0, f"--offload={mode} with no driver") and r.stdout != "before\n127\n":
        fail(f"--offload={mode} printed {r.stdout!r}")
    if mode != "off" and "no CUDA device" not in r.stderr:
        fail(f"--offload={mode} with no driver does not say `no CUDA device`: {r.stderr!r}")
r = vx("run", "--offload=gpu", write("plain.vx", 'fn main() {\n    println!("{}", 6 * 7);\n}\n'),
       env=NO_DRIVER)
if expect(r, 0, "--offload=gpu of a program without a region") and r.stdout != "42\n":
    fail(f"a program without a region printed {r.stdout!r}")
r = vx("call", "--offload=gpu", GELU, "gelu_forward", "--out", "out=" + path("never.npy"),
       "--shape", "out=300", "--arg", "inp=" + path("gx.npy"), "--arg", "n=300", env=NO_DRIVER)
if expect(r, 2, "vx call --offload=gpu with no driver", "error[E0700]"):
    if f"--> {GELU}:4:5" not in r.stderr or os.path.exists(path("never.npy")):
        fail(f"vx call's E0700: {r.stderr!r}")

checks.finish()
