#!/usr/bin/python3
"""`vx call FILE FN --arg NAME=… --out NAME=PATH.npy` (spec/cli.md §2.2) on arrays numpy wrote.

- seed 002's gelu_forward (conformance/book/blog_gelu_forward_exact.vx) on 6,291,456 floats that
  numpy makes: the result numpy reads back is, bit for bit, what the interpreter computes for the
  same input in a program of its own (`vx run --dump-npy`, which makes the input in Vx), and it is
  GELU (against numpy's float64 formula, within a few ulps);
- a `&mut` tensor without --out is written back over its file; a `&` one is not; a scalar
  return value is printed; a returned tensor goes to --out return=PATH; `?` dimensions come from
  the file, fixed ones are checked; every element type's dtype;
- each mismatch is a usage error (exit status 2) that names it: a dtype, a shape (one with a
  dimension of size 0 too, whose empty data was memcpy from a null pointer), a missing or
  unknown or repeated argument, a scalar out of range, a function that is not `pub` or not there,
  a file that is not `.npy`, Fortran order, a `--out` of a `&` parameter; a runtime error inside
  the call is exit status 101 and writes nothing.

numpy is Debian's python3-numpy (tools/setup installs it); this test runs under /usr/bin/python3
and fails when numpy is missing.

The GPU tier's call (--offload=gpu on the stand-in driver) is in tests/cuda_host_test.cpp.

usage: call_test.py VX CORPUS_DIR
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
CORPUS = os.path.abspath(sys.argv[2])
GELU = os.path.join(CORPUS, "book", "blog_gelu_forward_exact.vx")
tmp = scratch_dir(prefix="vx_call_")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def path(name):
    return os.path.join(tmp, name)


def vx(*args, env=None):
    full = dict(os.environ)
    full.update(env or {})
    return subprocess.run([VX, *args], capture_output=True, text=True, timeout=600, env=full)


def expect(r, status, what, stderr_has=None):
    if r.returncode != status:
        fail(f"{what}: exit status {r.returncode}, expected {status}; stderr: {r.stderr[-600:]}")
        return False
    if stderr_has and stderr_has not in r.stderr:
        fail(f"{what}: stderr lacks {stderr_has!r}: {r.stderr[-600:]}")
        return False
    return True


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- gelu_forward on 6,291,456 floats ------------------------------------------------------------

N = 6_291_456
# x[i] = ((i % 2001) - 1000) * 0.005 in f32, as the Vx program below computes it: an exact
# integer as f32 times the f32 nearest 0.005, one rounding.
x = ((np.arange(N, dtype=np.int64) % 2001) - 1000).astype(np.float32) * np.float32(0.005)
np.save(path("inp.npy"), x)
np.save(path("out.npy"), np.zeros(N, np.float32))

with open(GELU) as f:
    library = f.read().split("fn main()")[0]  # gelu_forward itself
program = library + f"""
fn main() {{
    let n = {N};
    let mut h = Tensor<f32, [{N}]>::fill(0.0);
    for i in 0..n {{
        h[i] = ((i % 2001) - 1000) as f32 * 0.005;
    }}
    let inp = transfer(h, Memory::HBM);
    let mut dev = transfer(Tensor<f32, [{N}]>::fill(0.0), Memory::HBM);
    gelu_forward(&mut dev, &inp, n);
    let out = transfer(dev, Memory::CPU_DRAM);
    let back = transfer(inp, Memory::CPU_DRAM);
}}
"""
with open(path("own.vx"), "w") as f:
    f.write(program)
r = vx("run", "--offload=off", "--dump-npy=" + path("own"), path("own.vx"))
expect(r, 0, "vx run of the interpreter's own gelu program")
r = vx("call", "--offload=off", GELU, "gelu_forward", "--arg", "out=" + path("out.npy"),
       "--arg", "inp=" + path("inp.npy"), "--arg", f"n={N}", "--out", "out=" + path("res.npy"))
if expect(r, 0, "vx call gelu_forward on 6,291,456 floats"):
    res = np.load(path("res.npy"))
    own = np.load(path("own/out.npy"))
    if not same_bits(np.load(path("own/back.npy")), x):
        fail("the Vx program's input is not numpy's, bit for bit")
    if res.dtype != np.float32 or res.shape != (N,):
        fail(f"the result is {res.dtype} {res.shape}")
    elif not same_bits(res, own):
        k = int(np.flatnonzero(res.view(np.uint32) != own.view(np.uint32))[0])
        fail(f"vx call and vx run differ first at [{k}]: {res[k]!r} and {own[k]!r}")
    # It is GELU as the program writes it, evaluated here in float32 step by step (numpy's
    # tanh in float64, rounded once): within an ulp, the most a correctly rounded tanh moves.
    f = np.float32
    cube = (f(0.044715) * x) * x * x
    t = np.tanh((f(0.7978846) * (x + cube)).astype(np.float64)).astype(np.float32)
    ref = (f(0.5) * x) * (f(1.0) + t)
    ulps = np.abs(res.view(np.int32).astype(np.int64) - ref.view(np.int32).astype(np.int64))
    if ulps.max() > 1:
        k = int(np.argmax(ulps))
        fail(f"gelu({x[k]!r}) = {res[k]!r}, numpy's {ref[k]!r}")
    if not same_bits(np.load(path("out.npy")), np.zeros(N, np.float32)):
        fail("with --out, the input file of the &mut parameter was changed")
    if not same_bits(np.load(path("inp.npy")), x):
        fail("the & parameter's file was changed")
    if r.stdout != "":
        fail(f"a call of a function returning nothing printed {r.stdout!r}")

# ---- parameters of every kind ---------------------------------------------------------------------

KINDS = """
pub fn scale(t : &mut Tensor<f32, [?, 3]>, k : f32) -> f32 {
    let mut s: f32 = 0.0;
    for i in 0..t.len() {
        for j in 0..3 {
            t[i][j] = t[i][j] * k;
            s += t[i][j];
        }
    }
    return s;
}
pub fn twice(t : &Tensor<i64, [4]>) -> Tensor<i64, [4]> {
    let mut o = Tensor<i64, [4]>::fill(0);
    for i in 0..4 {
        o[i] = t[i] * 2;
    }
    return o;
}
pub fn count(t : Tensor<u8, [?]>, flags : &Tensor<bool, [?]>, lim : u8) -> i32 {
    let mut c = 0;
    for i in 0..t.len() {
        if t[i] < lim && flags[i] {
            c += 1;
        }
    }
    return c;
}
pub fn ramp(n : i64, w : u8) -> Tensor<i32, [?, ?]> {
    let mut o = Tensor<i32, [?, ?]>::fill_dims([n, w], 0);
    for i in 0..o.len() {
        for j in 0..o.dim(1) {
            o[i][j] = i * 10 + j;
        }
    }
    return o;
}
pub fn halves(h : &mut Tensor<f16, [2]>, b : &mut Tensor<bf16, [2]>, d : &mut Tensor<f64, [1]>) {
    h[0] = h[0] + h[1];
    b[0] = b[0] + b[1];
    d[0] = d[0] / 3.0;
}
pub fn divide(a : i32, b : i32) -> i32 {
    return a / b;
}
pub fn swap_scale(t: (i32, (f32, bool)), k: i32) -> ((bool, f32), i32) {
    ((!t.1.1, t.1.0 * 2.0), t.0 * k)
}
pub fn single(t: (u8,)) -> (u8,) {
    (t.0 + 1,)
}
struct P { x: f32, n: i32 }
struct Q { p: P, a: [i32; 2] }
pub fn shift(p: P, t: (P, bool)) -> (P, i32) {
    (P { x: p.x + t.0.x, n: p.n * 2 }, if t.1 { t.0.n } else { 0 })
}
pub fn make(n: i32) -> P {
    P { x: 0.5, n }
}
pub fn bumped(p: &mut P, k: i32) -> i32 {
    p.n += k;
    p.n
}
pub fn first(q: Q) -> i32 {
    q.a[0]
}
pub fn made() -> Q {
    Q { p: P { x: 1.0, n: 1 }, a: [1, 2] }
}
struct Model { w: Tensor<f32, [2]>, scale: f32 }
pub fn model_scale(m: Model) -> f32 {
    m.scale
}
pub fn new_model(k: f32) -> Model {
    Model { w: Tensor<f32, [2]>::fill(k), scale: k }
}
pub fn row() -> [i32; 2] {
    [1, 2]
}
fn hidden() -> i32 {
    return 1;
}
pub fn shout(c : char, n : i32) -> &'static str {
    if c == 'é' && n > 1 { "yes" } else { "no" }
}
"""
with open(path("kinds.vx"), "w") as f:
    f.write(KINDS)
K = path("kinds.vx")

t = np.array([[1.5, 2, 3], [4, 5, -6]], np.float32)
np.save(path("t.npy"), t)
r = vx("call", K, "scale", "--arg", "t=" + path("t.npy"), "--arg", "k=0.5")
if expect(r, 0, "scale: a &mut tensor with a `?` dimension, written back over its file"):
    want = t * np.float32(0.5)
    if not same_bits(np.load(path("t.npy")), want):
        fail(f"scale wrote back {np.load(path('t.npy'))!r}, expected {want!r}")
    s = np.float32(0)
    for v in want.flatten():
        s = np.float32(s + v)
    shortest = np.format_float_positional(s, unique=True, trim="-")
    if r.stdout != shortest + "\n":
        fail(f"scale printed {r.stdout!r}, expected {shortest}")

np.save(path("i.npy"), np.array([1, -2, 3, 2**40], np.int64))
r = vx("call", K, "twice", "--arg", "t=" + path("i.npy"), "--out", "return=" + path("twice.npy"))
if expect(r, 0, "twice: a returned tensor with --out return="):
    got = np.load(path("twice.npy"))
    if not same_bits(got, np.array([2, -4, 6, 2**41], np.int64)):
        fail(f"twice wrote {got!r}")
r = vx("call", K, "twice", "--arg", "t=" + path("i.npy"))
expect(r, 2, "a returned tensor without --out return=", "--out return=PATH.npy")

# spec/types.md §3.1: a tensor of run-time size made from scalar arguments and returned
r = vx("call", K, "ramp", "--arg", "n=3", "--arg", "w=2", "--out", "return=" + path("ramp.npy"))
if expect(r, 0, "ramp: a returned tensor made by fill_dims from the arguments"):
    got = np.load(path("ramp.npy"))
    if not same_bits(got, np.array([[0, 1], [10, 11], [20, 21]], np.int32)):
        fail(f"ramp wrote {got!r}")
r = vx("call", K, "ramp", "--arg", "n=0", "--arg", "w=2", "--out", "return=" + path("ramp.npy"))
expect(r, 101, "ramp with a size of 0", "the size of dimension 0 is 0")

np.save(path("u.npy"), np.array([1, 200, 7, 9, 3], np.uint8))
np.save(path("b.npy"), np.array([True, True, False, True, True]))
r = vx("call", K, "count", "--arg", "t=" + path("u.npy"), "--arg", "flags=" + path("b.npy"),
       "--arg", "lim=8")
if expect(r, 0, "count: a tensor moved in, a bool tensor, a u8 scalar") and r.stdout != "2\n":
    fail(f"count printed {r.stdout!r}, expected 2 (1 and 3 are below 8 and flagged)")

r = vx("call", K, "shout", "--arg", "c=\u00e9", "--arg", "n=2")
if expect(r, 0, "shout: a char scalar (one character), a &str return") and r.stdout != "yes\n":
    fail(f"shout printed {r.stdout!r}, expected yes")
r = vx("call", K, "shout", "--arg", "c=ab", "--arg", "n=2")
expect(r, 2, "a char argument of two characters", "(one character)")

h = np.array([1.5, 0.25], np.float16)
bf = np.array([0x3FC0, 0x3E80], np.uint16)  # bf16 1.5 and 0.25, as bits
d = np.array([1.0], np.float64)
for name, arr in (("h", h), ("bf", bf), ("d", d)):
    np.save(path(name + ".npy"), arr)
r = vx("call", K, "halves", "--arg", "h=" + path("h.npy"), "--arg", "b=" + path("bf.npy"),
       "--arg", "d=" + path("d.npy"))
if expect(r, 0, "halves: f16, bf16 (as <u2) and f64"):
    if not same_bits(np.load(path("h.npy")), np.array([1.75, 0.25], np.float16)):
        fail(f"f16 result {np.load(path('h.npy'))!r}")
    if not same_bits(np.load(path("bf.npy")), np.array([0x3FE0, 0x3E80], np.uint16)):
        fail(f"bf16 result {np.load(path('bf.npy'))!r}")
    if not same_bits(np.load(path("d.npy")), np.array([1.0 / 3.0])):
        fail(f"f64 result {np.load(path('d.npy'))!r}")

r = vx("call", K, "divide", "--arg", "a=7", "--arg", "b=-2")
if expect(r, 0, "divide: scalars from the command line") and r.stdout != "-3\n":
    fail(f"7 / -2 printed {r.stdout!r}, expected -3 (truncating)")

# spec/cli.md §2.2: tuples as arguments (`(…)`, as Vx writes one) and as the printed result
r = vx("call", K, "swap_scale", "--arg", "t=(3, (2.5, true))", "--arg", "k=-2")
if expect(r, 0, "swap_scale: a nested tuple argument and result") and r.stdout != "((false, 5.0), -6)\n":
    fail(f"swap_scale printed {r.stdout!r}, expected ((false, 5.0), -6) (`{{:?}}` of the result)")
# Structs as `{:?}` writes them, fields in order: 1.5 + 0.25 = 1.75, 3 * 2 = 6, and t.0.n = 7.
r = vx("call", K, "shift", "--arg", "p=P { x: 1.5, n: 3 }", "--arg", "t=(P {x:0.25,n:7}, true)")
if expect(r, 0, "shift: struct arguments and a struct in a tuple result") and \
        r.stdout != "(P { x: 1.75, n: 6 }, 7)\n":
    fail(f"shift printed {r.stdout!r}, expected (P {{ x: 1.75, n: 6 }}, 7)")
r = vx("call", K, "make", "--arg", "n=-4")
if expect(r, 0, "make: a struct result") and r.stdout != "P { x: 0.5, n: -4 }\n":
    fail(f"make printed {r.stdout!r}, expected P {{ x: 0.5, n: -4 }}")
r = vx("call", K, "single", "--arg", "t=(254,)")
if expect(r, 0, "single: a tuple of one element") and r.stdout != "(255,)\n":
    fail(f"single printed {r.stdout!r}, expected (255,)")

# ---- mistakes: usage errors that name them --------------------------------------------------------

np.save(path("f64.npy"), np.zeros((2, 3), np.float64))
np.save(path("wide.npy"), np.zeros((2, 4), np.float32))
np.save(path("flat.npy"), np.zeros(6, np.float32))
np.save(path("fortran.npy"), np.asfortranarray(np.zeros((2, 3), np.float32)))
np.save(path("empty.npy"), np.zeros(0, np.uint8))  # a valid .npy of shape (0,): no Vx tensor
with open(path("text.npy"), "w") as f:
    f.write("not numpy\n")
with open(path("short.npy"), "wb") as f:
    f.write(open(path("wide.npy"), "rb").read()[:-4])
bad = [
    (["scale", "--arg", "t=" + path("f64.npy"), "--arg", "k=1"], "holds `<f8` elements"),
    (["scale", "--arg", "t=" + path("wide.npy"), "--arg", "k=1"], "has the shape [2, 4]"),
    (["scale", "--arg", "t=" + path("flat.npy"), "--arg", "k=1"], "has the shape [6]"),
    (["scale", "--arg", "t=" + path("fortran.npy"), "--arg", "k=1"], "Fortran order"),
    (["count", "--arg", "t=" + path("empty.npy"), "--arg", "flags=" + path("b.npy"),
      "--arg", "lim=1"], "`t` is `Tensor<u8, [?]>`, but the file has the shape [0], with a "
     "dimension of size 0, which no Vx tensor has"),
    (["scale", "--arg", "t=" + path("text.npy"), "--arg", "k=1"], "is not a NumPy .npy file"),
    (["scale", "--arg", "t=" + path("short.npy"), "--arg", "k=1"], "bytes of elements"),
    (["scale", "--arg", "t=" + path("missing.npy"), "--arg", "k=1"], "cannot read"),
    (["scale", "--arg", "t=" + path("t.npy")], "`k` (`f32`) has no value: give --arg k=VALUE"),
    (["scale", "--arg", "t=" + path("t.npy"), "--arg", "k=1", "--arg", "k=2"], "given twice"),
    (["scale", "--arg", "t=" + path("t.npy"), "--arg", "kk=1"], "did you mean `k`?"),
    (["scale", "--arg", "t=" + path("t.npy"), "--arg", "k=one"], "takes a value of type `f32`"),
    (["scale", "--arg", "t", "--arg", "k=1"], "--arg takes NAME=VALUE"),
    (["count", "--arg", "t=" + path("u.npy"), "--arg", "flags=" + path("b.npy"),
      "--arg", "lim=256"], "(from 0 to 255)"),
    (["divide", "--arg", "a=2147483648", "--arg", "b=1"], "(from -2147483648 to 2147483647)"),
    (["twice", "--arg", "t=" + path("i.npy"), "--out", "t=" + path("x.npy"),
      "--out", "return=" + path("x.npy")], "only a `&mut` tensor is written"),
    (["divide", "--arg", "a=1", "--arg", "b=1", "--out", "return=" + path("x.npy")],
     "returns `i32`, not a tensor"),
    (["hidden"], "`hidden` is not `pub`"),
    (["swap_scale", "--arg", "t=(3, 2.5, true)", "--arg", "k=1"],
     "takes a tuple of type `(i32, (f32, bool))`"),
    (["swap_scale", "--arg", "t=(3, (2.5, yes))", "--arg", "k=1"], "whose `yes` is not"),
    (["single", "--arg", "t=(1)"], "takes a tuple of type `(u8,)`"),
    (["row"], "which `vx call` cannot print"),
    (["shift", "--arg", "p=P { n: 3, x: 1.5 }", "--arg", "t=(P { x: 0.5, n: 1 }, true)"],
     "`p` takes a struct `P`, written as `{:?}` prints one, its fields in order: "
     "`P { x: …, n: … }`"),
    (["shift", "--arg", "p=(1.5, 3)", "--arg", "t=(P { x: 0.5, n: 1 }, true)"],
     "`p` takes a struct `P`"),
    (["make", "--arg", "n=P { x: 1.0, n: 2 }"], "takes a value of type `i32`"),
    (["first", "--arg", "q=Q"], "`q` is `Q`, which holds an array: `vx call` cannot pass it"),
    (["made"], "`made` returns `Q`, which holds an array: `vx call` cannot print it"),
    (["model_scale", "--arg", "m=Model { w: 1, scale: 2.0 }"],
     "`m` is `Model`, which holds a tensor: `vx call` cannot pass a struct holding a tensor"),
    (["new_model", "--arg", "k=1.0"],
     "`new_model` returns `Model`, which holds a tensor: `vx call` cannot print it"),
    (["bumped", "--arg", "p=P { x: 1.0, n: 2 }", "--arg", "k=1"],
     "`p` is `&mut P`: `vx call` cannot pass a reference to a struct"),
    (["scal", "--arg", "k=1"], "did you mean `scale`?"),
]
for args, text in bad:
    r = vx("call", K, *args)
    expect(r, 2, "vx call " + " ".join(a.replace(tmp + "/", "") for a in args), text)

r = vx("call", K, "divide", "--arg", "a=1", "--arg", "b=0")
expect(r, 101, "a runtime error inside the call", "kinds.vx:")
before = open(path("t.npy"), "rb").read()
r = vx("call", K, "scale", "--arg", "t=" + path("t.npy"), "--arg", "k=1",
       "--max-steps", "2")
expect(r, 101, "a call stopped by --max-steps")
if open(path("t.npy"), "rb").read() != before:
    fail("a call that ended in a runtime error wrote its &mut tensor")

# Round trips of random tuple and struct types (fixed seeds): `pub fn id_k(x: T) -> T { x }` called
# with a value written as Vx writes it must print the value as Rust's `{:?}` does, both made here.
# Before, a struct result threw std::invalid_argument out of vx call and a struct parameter ended
# it with status 70 and no message.
SCALARS = {
    "i32": lambda g: g.choice([-2**31, -7, 0, 42, 2**31 - 1]),
    "i64": lambda g: g.choice([-2**63, -1, 5, 2**63 - 1]),
    "u8": lambda g: g.choice([0, 7, 255]),
    "u16": lambda g: g.choice([0, 300, 65535]),
    "f32": lambda g: g.randint(-40, 40) / 4,  # exact, and Python's repr is Rust's {:?} for them
    "f64": lambda g: g.randint(-400, 400) / 8,
    "bool": lambda g: g.choice([True, False]),
    "char": lambda g: g.choice("aZq7"),
}
structs = []  # (name, [(field, type)])


def random_type(g, depth):
    if depth >= 3 or g.random() < 0.4:
        return g.choice(sorted(SCALARS))
    if g.random() < 0.5:
        return ("tuple", [random_type(g, depth + 1) for _ in range(g.randint(1, 3))])
    fields = [("f%d" % k, random_type(g, depth + 1)) for k in range(g.randint(1, 3))]
    structs.append(("S%d" % len(structs), fields))
    return ("struct", structs[-1][0], fields)


def type_text(t):
    if isinstance(t, str):
        return t
    if t[0] == "struct":
        return t[1]
    inner = ", ".join(type_text(e) for e in t[1])
    return "(" + inner + ("," if len(t[1]) == 1 else "") + ")"


def value(g, t):
    """(what --arg takes, what {:?} prints) for a random value of t."""
    if isinstance(t, str):
        v = SCALARS[t](g)
        if t == "bool":
            return ("true", "true") if v else ("false", "false")
        if t == "char":
            return v, "'%s'" % v
        return (repr(v), repr(v)) if isinstance(v, float) else (str(v), str(v))
    if t[0] == "struct":
        parts = [(f, value(g, ft)) for f, ft in t[2]]
        given = t[1] + " { " + ", ".join("%s: %s" % (f, v[0]) for f, v in parts) + " }"
        shown = t[1] + " { " + ", ".join("%s: %s" % (f, v[1]) for f, v in parts) + " }"
        return given, shown
    parts = [value(g, e) for e in t[1]]
    comma = "," if len(parts) == 1 else ""
    return ("(" + ", ".join(v[0] for v in parts) + comma + ")",
            "(" + ", ".join(v[1] for v in parts) + comma + ")")


import random  # noqa: E402

cases = []
for seed in range(24):
    g = random.Random(seed)
    t = random_type(g, 0)
    while isinstance(t, str):
        t = random_type(g, 0)
    cases.append((t, value(g, t)))
program = "".join("struct %s { %s }\n" % (n, ", ".join("%s: %s" % (f, type_text(ft)) for f, ft in fs))
                  for n, fs in structs)
program += "".join("pub fn id_%d(x: %s) -> %s {\n    x\n}\n" % (k, type_text(t), type_text(t))
                   for k, (t, _) in enumerate(cases))
program += "fn main() {}\n"
with open(path("roundtrip.vx"), "w") as f:
    f.write(program)
for k, (t, (given, shown)) in enumerate(cases):
    r = vx("call", path("roundtrip.vx"), "id_%d" % k, "--arg", "x=" + given)
    if expect(r, 0, "id_%d of %s" % (k, type_text(t))) and r.stdout != shown + "\n":
        fail("id_%d(%s) printed %r, expected %r" % (k, given, r.stdout, shown))

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("call: all checks passed")
