#!/usr/bin/env python3
"""One arithmetic for every tier (src/numeric/vx_arith.h; spec/semantics.md §4–§6).

The same operations, computed by each tier of vx, against a model written here from the spec with
Python's integers, exact fractions and numpy:

- the constant folder: `const` items of every operator and every cast, on edge values;
- the interpreter: the same expressions (and the methods min, max, abs, pow) on values that pass
  through a function, so that nothing is folded;
- kernels: every operator on every pair of 8-bit operands (i8, u8), every cast of every 16-bit
  integer (i16, u16) to every number type, edge values of the wider types and of the floats, run
  by the interpreter, then through NVRTC (sm_80 and sm_90: `vx emit-cuda --cubin`) and on the
  stand-in GPU (`vx run --offload=gpu` with the emitted CUDA compiled by g++ against
  tests/cuda_host/cuda_host.hpp, as tools/smith does), whose output must be the model's.

Floats are printed with `{:.16e}` (17 significant digits: every f64, so every value of the
smaller types, has its own text). The model's values are formatted the same way from the exact
binary value.

usage: arith_tiers_test.py VX SOURCE_DIR BUILD_DIR [--no-gpu]
"""
import math
import os
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np

VX, SRC, BUILD = (os.path.abspath(a) for a in sys.argv[1:4])
GPU = "--no-gpu" not in sys.argv[4:]
sys.path.insert(0, os.path.join(SRC, "tools", "smith"))
from vxsmith import fakegpu  # noqa: E402  (the stand-in GPU, as smith runs it)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

INTS = {"i8": (8, True), "i16": (16, True), "i32": (32, True), "i64": (64, True),
        "u8": (8, False), "u16": (16, False), "u32": (32, False), "u64": (64, False)}
# precision (bits, with the hidden one), smallest normal exponent, largest exponent
FLOATS = {"f16": (11, -14, 15), "bf16": (8, -126, 127), "f32": (24, -126, 127),
          "f64": (53, -1022, 1023)}
NUMBERS = list(INTS) + list(FLOATS)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


# ---- the model ---------------------------------------------------------------------------------

def wrap(v, t):
    bits, signed = INTS[t]
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def lo_hi(t):
    bits, signed = INTS[t]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def round_float(x, t):
    """x (a Python float, or an exact Fraction or int) rounded once to type t, to nearest with ties
    to even, overflowing to infinity, subnormals kept; as a Python float (which holds every value
    of every Vx float type exactly)."""
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x) or x == 0:
            return x
        x = Fraction(x)
    q = Fraction(x)
    if q == 0:
        return 0.0
    p, emin, emax = FLOATS[t]
    sign, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - (p - 1))
    m = a / quantum
    n = math.floor(m)
    rest = m - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    v = n * quantum
    if v >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(v)


def idiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def int_op(op, a, b, t):
    bits = INTS[t][0]
    if op == "+":
        return wrap(a + b, t)
    if op == "-":
        return wrap(a - b, t)
    if op == "*":
        return wrap(a * b, t)
    if op == "/":
        return wrap(idiv(a, b), t)  # MIN / -1 wraps to MIN
    if op == "%":
        return wrap(a - b * idiv(a, b), t)
    if op == "&":
        return wrap(a & b, t)
    if op == "|":
        return wrap(a | b, t)
    if op == "^":
        return wrap(a ^ b, t)
    if op == "<<":
        assert 0 <= b < bits
        return wrap(a << b, t)
    if op == ">>":
        assert 0 <= b < bits
        return a >> b  # arithmetic on signed values, logical on unsigned (non-negative) ones
    if op == "max":
        return max(a, b)
    if op == "min":
        return min(a, b)
    if op == "pow":
        return wrap(a ** b, t)
    raise ValueError(op)


def float_op(op, a, b, t):
    """f32 and f64 with numpy (IEEE, one rounding); f16 and bf16 computed in f32 on their exact
    values and rounded back once."""
    if op == "max":
        return b if (a < b or math.isnan(a)) else a
    if op == "min":
        return b if (b < a or math.isnan(a)) else a
    wide = np.float64 if t == "f64" else np.float32
    x, y = wide(a), wide(b)
    with np.errstate(all="ignore"):
        r = {"+": x + y, "-": x - y, "*": x * y, "/": x / y, "%": np.fmod(x, y)}[op]
    return float(r) if t in ("f32", "f64") else round_float(float(r), t)


def cast(v, frm, to):
    """`v as to`, v of type frm (a number, or bool)."""
    if frm == "bool":
        v, frm = int(v), "i32"
    if frm in INTS:
        return wrap(v, to) if to in INTS else round_float(v, to)
    if to in FLOATS:
        return round_float(v, to)
    if math.isnan(v):
        return 0
    lo, hi = lo_hi(to)
    if math.isinf(v):
        return hi if v > 0 else lo
    return min(max(math.trunc(v), lo), hi)


def text(v, t):
    if t in INTS or t == "bool":
        return str(v).lower()
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    mant, exp = ("%.16e" % v).split("e")
    return "%se%d" % (mant, int(exp))


def literal(v, t):
    """A Vx expression of type t whose value is v, exactly."""
    if t == "bool":
        return "true" if v else "false"
    if t in INTS:
        return "(%d%s)" % (v, t) if v < 0 else "%d%s" % (v, t)
    if math.isnan(v):
        return "%s::NAN" % t
    if math.isinf(v):
        return "%s::INFINITY" % t if v > 0 else "(-%s::INFINITY)" % t
    if v == 0 and math.copysign(1, v) < 0:
        return "(-0.0%s)" % t
    r = repr(abs(v))  # the shortest decimal of the f64 value, which is exactly v's value
    if "e" not in r and "." not in r:
        r += ".0"
    return ("(-%s%s)" if v < 0 else "%s%s") % (r, t)


# ---- the values ----------------------------------------------------------------------------------

rng = random.Random(36)


def int_edges(t, n_random=4):
    lo, hi = lo_hi(t)
    vals = {0, 1, 2, 3, 7, lo, lo + 1, hi, hi - 1, hi // 2, hi // 2 + 1}
    if lo < 0:
        vals |= {-1, -2, -7, lo // 2}
    if hi >= 1 << 62:  # through f64 first, these would round twice on their way to f32
        vals |= {(1 << 53) + (1 << 29) + 1, (1 << 62) + (1 << 38) + 1, (1 << 53) + 1}
        vals |= {-v for v in vals if lo < 0 and 1 << 53 <= v <= hi}
    vals |= {rng.randint(lo, hi) for _ in range(n_random)}
    return sorted(vals)


def float_edges(t, n_random=4):
    p, emin, emax = FLOATS[t]
    big = (2 - 2.0 ** (1 - p)) * 2.0 ** emax
    tiny = 2.0 ** (emin - (p - 1))
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.0, 1.0 / 3.0, 0.1, big, -big, tiny, -tiny,
            2.0 ** emin, math.inf, -math.inf, math.nan, 2.0 ** 31, -(2.0 ** 63), 2.0 ** 64, 300.7,
            # through f32 first, these would round twice on their way to f16 and bf16
            1 + 2.0 ** -11 + 2.0 ** -40, 1 + 2.0 ** -8 + 2.0 ** -40, -(1 + 2.0 ** -11 + 2.0 ** -40)]
    for _ in range(n_random):
        vals.append(rng.uniform(-1e6, 1e6))
        vals.append(rng.uniform(-4, 4) * 2.0 ** rng.randint(emin, emax))
    out = []
    for v in vals:
        r = round_float(v, t)
        if not any(text(r, t) == text(o, t) for o in out):
            out.append(r)
    return out


def edges(t):
    return int_edges(t) if t in INTS else float_edges(t)


INT_OPS = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
FLOAT_OPS = ["+", "-", "*", "/", "%"]


def binary_cases(methods):
    """(expression pieces, type, expected text): every operator (and, with `methods`, min, max
    and pow) on pairs of edge values of every number type."""
    cases = []
    for t in NUMBERS:
        vals = edges(t)
        ops = (INT_OPS if t in INTS else FLOAT_OPS) + (["max", "min"] if methods else [])
        for a in vals:
            for b in vals:
                for op in ops:
                    if t in INTS and op in ("/", "%") and b == 0:
                        continue
                    y = abs(b) % INTS[t][0] if op in ("<<", ">>") else b
                    value = int_op(op, a, y, t) if t in INTS else float_op(op, a, y, t)
                    cases.append((op, (a, t), (y, t), t, text(value, t)))
        if methods and t in INTS:
            for a in vals:
                for e in (0, 1, 2, 3, 7, 31, 64):
                    cases.append(("pow", (a, t), (e, "u32"), t, text(int_op("pow", a, e, t), t)))
            for a in vals if INTS[t][1] else []:  # unsigned types have no abs
                cases.append(("abs", (a, t), None, t, text(wrap(abs(a), t), t)))
    return cases


def cast_cases():
    cases = []
    for frm in NUMBERS + ["bool"]:
        vals = [False, True] if frm == "bool" else edges(frm)
        for v in vals:
            for to in (INTS if frm == "bool" else NUMBERS):  # bool -> float is E0203
                cases.append(("as", (v, frm), None, to, text(cast(v, frm, to), to)))
    return cases


def expr(case, operand):
    op, a, b, t, _ = case
    x = operand(*a)
    if op == "as":
        return "(%s as %s)" % (x, t)
    if op == "abs":
        return "%s.abs()" % x
    y = operand(*b)
    if op in ("max", "min", "pow"):
        return "%s.%s(%s)" % (x, op, y)
    if op in ("<<", ">>"):
        y = "(%s as u32)" % y
    return "(%s %s %s)" % (x, op, y)


def fmt(t):
    return "{:.16e}" if t in FLOATS else "{}"


# ---- running vx ----------------------------------------------------------------------------------

work = scratch_dir(prefix="vx_arith_")


def write(name, text_):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text_)
    return path


def run(argv, env=None, timeout=600):
    e = dict(os.environ, **(env or {}))
    return subprocess.run(argv, capture_output=True, text=True, env=e, timeout=timeout)


class Labels:
    """What each expected line is, by segments (start, describe(k)), found by bisection."""

    def __init__(self):
        self.starts, self.fns = [], []

    def add(self, start, fn):
        self.starts.append(start)
        self.fns.append(fn)

    def __getitem__(self, i):
        import bisect
        j = bisect.bisect_right(self.starts, i) - 1
        return self.fns[j](i - self.starts[j])


def compare(tier, out, expected, labels):
    got = out.split("\n")
    if got and got[-1] == "":
        got.pop()
    if len(got) != len(expected):
        fail("%s: %d lines, expected %d" % (tier, len(got), len(expected)))
    bad = [(i, g, x) for i, (g, x) in enumerate(zip(got, expected)) if g != x]
    for i, g, x in bad[:12]:
        fail("%s: %s: got %s, expected %s" % (tier, labels[i], g, x))
    if len(bad) > 12:
        fail("%s: %d more differences" % (tier, len(bad) - 12))
    print("%s: %d values compared, %d differ" % (tier, len(expected), len(bad)), flush=True)


# ---- 1. the constant folder and the interpreter: edge values of every operator and cast -------

folded = [c for c in binary_cases(methods=False) + cast_cases()]
lines = []
for i, c in enumerate(folded):
    lines.append("const K%d: %s = %s;" % (i, c[3], expr(c, literal)))
ids = "".join("fn id_%s(x: %s) -> %s { x }\n" % (t, t, t) for t in NUMBERS + ["bool"])
body = ["fn main() {"]
for i, c in enumerate(folded):
    body.append('    println!("%s", K%d);' % (fmt(c[3]), i))
runtime = binary_cases(methods=True) + cast_cases()
for c in runtime:
    body.append('    println!("%s", %s);' % (fmt(c[3]), expr(c, lambda v, t: "id_%s(%s)" % (t, literal(v, t)))))
body.append("}")
prog = write("host.vx", "\n".join(lines) + "\n" + ids + "\n".join(body) + "\n")
r = run([VX, "run", prog])
if r.returncode != 0:
    fail("vx run host.vx: exit %d: %s" % (r.returncode, r.stderr[-2000:]))
else:
    n = len(folded)
    out = r.stdout.split("\n")
    label = lambda c: "%s: %s" % (c[3], expr(c, literal))  # noqa: E731
    compare("constant folder", "\n".join(out[:n]) + "\n", [c[4] for c in folded],
            [label(c) for c in folded])
    compare("interpreter", "\n".join(out[n:]), [c[4] for c in runtime], [label(c) for c in runtime])


# ---- 2. kernels: 8-bit operands exhaustively, 16-bit casts exhaustively, edges of the rest -----

def kernel_program():
    """A program whose kernels compute every operator on every pair of 8-bit values and every
    cast of every i16/u16 value, and edge pairs of the other types; it prints every result, in
    the order of `expected`."""
    decl, kern, show, expected, labels = [], [], [], [], Labels()
    n_out = [0]

    def out_tensor(t, dims):
        n_out[0] += 1
        name = "o%d" % n_out[0]
        zero = "0.0%s" % t if t in FLOATS else "0%s" % t
        decl.append("    let mut %s = transfer(Tensor<%s, [%s]>::fill(%s), Memory::HBM);"
                    % (name, t, ", ".join(map(str, dims)), zero))
        return name

    def show_tensor(name, t, dims):
        show.append("    let h_%s = transfer(%s, Memory::CPU_DRAM);" % (name, name))
        if len(dims) == 2:
            show.append('    for i in 0..%d { for j in 0..%d { println!("%s", h_%s[i][j]); } }'
                        % (dims[0], dims[1], fmt(t), name))
        else:
            show.append('    for i in 0..%d { println!("%s", h_%s[i]); }' % (dims[0], fmt(t), name))

    def in_tensor(name, t, vals):
        zero = "0.0%s" % t if t in FLOATS else "0%s" % t
        decl.append("    let mut h_%s = Tensor<%s, [%d]>::fill(%s);" % (name, t, len(vals), zero))
        for i, v in enumerate(vals):
            decl.append("    h_%s[%d] = %s;" % (name, i, literal(v, t)))
        decl.append("    let %s = transfer(h_%s, Memory::HBM);" % (name, name))

    # Every operator on every pair of 8-bit operands; edge pairs for the other types.
    for t in NUMBERS:
        vals = list(range(*(lambda lh: (lh[0], lh[1] + 1))(lo_hi(t)))) if t in ("i8", "u8") \
            else edges(t)
        n = len(vals)
        x = "x_" + t
        in_tensor(x, t, vals)
        ops = (INT_OPS + ["max", "min", "pow"] if t in INTS else FLOAT_OPS + ["max", "min"])
        for op in ops:
            o = out_tensor(t, (n, n))
            if t in INTS and op in ("/", "%"):
                # a zero divisor is replaced by 1
                rhs = "(if %s[l] == %s { %s } else { %s[l] })" % (x, literal(0, t), literal(1, t), x)
                yv = [1 if v == 0 else v for v in vals]
            elif op in ("<<", ">>"):
                rhs = "((l %% %d) as u32)" % INTS[t][0]
                yv = [j % INTS[t][0] for j in range(n)]
            elif op == "pow":
                rhs = "((l % 70) as u32)"
                yv = [j % 70 for j in range(n)]
            else:
                rhs = "%s[l]" % x
                yv = vals
            if op in ("max", "min", "pow"):
                e = "%s[b].%s(%s)" % (x, op, rhs)
            else:
                e = "(%s[b] %s %s)" % (x, op, rhs)
            kern.append((n, n, "%s[b][l] = %s;" % (o, e)))
            show_tensor(o, t, (n, n))
            labels.add(len(expected), lambda k, t=t, op=op, vals=vals, yv=yv, n=n: "kernel %s: %s %s %s"
                       % (t, vals[k // n], op, yv[k % n]))
            for a in vals:
                for b in yv:
                    v = int_op(op, a, b, t) if t in INTS else float_op(op, a, b, t)
                    expected.append(text(v, t))
        # Casts of these values to every number type.
        for to in NUMBERS:
            o = out_tensor(to, (n,))
            kern.append((1, n, "%s[l] = (%s[l] as %s);" % (o, x, to)))
            show_tensor(o, to, (n,))
            labels.add(len(expected), lambda k, t=t, to=to, vals=vals: "kernel: %s%s as %s"
                       % (vals[k], t, to))
            for a in vals:
                expected.append(text(cast(a, t, to), to))
    # Every i16 and u16 value (the lane loop's 65,536 passes), cast to every number type.
    for frm in ("i16", "u16"):
        for to in NUMBERS:
            o = out_tensor(to, (256, 256))
            kern.append((256, 256, "%s[b][l] = (((b * 256 + l) as %s) as %s);" % (o, frm, to)))
            show_tensor(o, to, (256, 256))
            labels.add(len(expected), lambda k, frm=frm, to=to: "kernel: (%d as %s) as %s"
                       % (k, frm, to))
            for k in range(65536):
                expected.append(text(cast(wrap(k, frm), frm, to), to))
    lines = ["fn main() {"] + decl
    for blocks, lanes, stmt in kern:  # one kernel each: a region is one loop nest
        lines.append("    spawn on(Topology::Device) {")
        lines.append("        for %s in 0..%d across blocks {" % ("b" if blocks > 1 else "_b", blocks))
        lines.append("            for l in 0..%d across lanes(%d) { %s }" % (lanes, lanes, stmt))
        lines.append("        }")
        lines.append("    }")
    lines += show + ["}"]
    return "\n".join(lines) + "\n", expected, labels


src, expected, labels = kernel_program()
prog = write("kernels.vx", src)
r = run([VX, "run", prog])
if r.returncode != 0:
    fail("vx run kernels.vx: exit %d: %s" % (r.returncode, r.stderr[-2000:]))
else:
    compare("kernels on the interpreter", r.stdout, expected, labels)
for arch in ("sm_80", "sm_90"):
    r = run([VX, "emit-cuda", "--cubin", prog + "." + arch, "--arch", arch, prog],
            {"VX_CACHE": "0"})
    if r.returncode != 0:
        fail("NVRTC %s: exit %d: %s" % (arch, r.returncode, r.stderr[-2000:]))
    else:
        print("NVRTC %s: %s" % (arch, r.stderr.strip().splitlines()[-1]), flush=True)
if GPU:
    gpu = fakegpu.FakeGpu(VX, SRC, BUILD, os.path.join(work, "gpu"))
    if not gpu.available():
        fail("the stand-in GPU cannot run: " + gpu.why)
    else:
        r = gpu.run(prog, "gpu")
        if r.status != 0:
            fail("vx run --offload=gpu kernels.vx (stand-in GPU): %s: %s" % (r.status, r.err[-2000:]))
        else:
            compare("kernels on the stand-in GPU", r.out, expected, labels)

if failures:
    print("%d failure(s); the programs are in %s" % (len(failures), work))
    sys.exit(1)
print("arith_tiers: constant folder, interpreter, NVRTC and the stand-in GPU agree with the model")
