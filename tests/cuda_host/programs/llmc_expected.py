#!/usr/bin/python3
"""The expected output of the llm.c programs (issue 20), computed without vx, in numpy.

  tests/cuda_host/programs/llmc_expected.py            checks each llmc_*.stdout here against the
                                                       computation (exit 1 on a difference)
  tests/cuda_host/programs/llmc_expected.py --write    writes them
  ... --bench                                          also tools/bench/cuda/{encoder,residual,
                                                       residual_bf16,matmul,attention,crossentropy}
                                                       .stdout (two minutes: the whole matmul)
  ... NAME…                                            only those (llmc_matmul, matmul, …)

Needs numpy (Debian: python3-numpy). It also checks that each program here has the kernels of its
tools/bench/cuda twin, word for word (the sizes are consts at the top of each file).

Each program prints its results with `{}` (the shortest decimal that reads back, spec/formatting.md)
and the f64 sum of all its outputs in order. Both are exact here because every f32 operation of
the Vx program is done in np.float32 in the same order: sums of products in the order of their
loops (never np.sum or a dot product, whose order is numpy's), the lanes:: trees in DESIGN §3.7's
order (spec/builtins.md), the f64 sums with np.cumsum (one add after another). The correctly rounded
functions (exp2 for the interpreter's fast_exp, log, tanh for its fast_tanh: spec/math.md) are
computed in f64 and rounded to f32, which gives the correctly rounded f32 unless the f64 result lies
within a few f64 ulps of a midpoint between two floats: `round_f32` stops with an error there rather
than guess. The bench programs with fast_exp (attention, crossentropy) run on a GPU whose exp
instruction is off by up to 2^-21 (spec/math.md §4), so they print to 4 decimals, and `fixed`
checks that each value lies far enough from a rounding boundary for that error not to show.
"""
import fractions
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "..", "..", "tools", "bench", "cuda")
F32, F64, U32 = np.float32, np.float64, np.uint32


# ---- values as the programs make them -----------------------------------------------------------

def f32(text):
    """The f32 nearest to a decimal literal, as vx reads an unsuffixed literal in an f32 context."""
    exact = fractions.Fraction(text)
    best = F32(float(exact))
    for cand in (np.nextafter(best, F32(-np.inf)), np.nextafter(best, F32(np.inf))):
        if abs(fractions.Fraction(float(cand)) - exact) < abs(fractions.Fraction(float(best)) - exact):
            best = cand
    return best


def lcg_states(seed, n, skip=0):
    """The states after steps skip+1 .. skip+n of s = s * 1664525 + 1013904223 (u32)."""
    a, c, s = 1664525, 1013904223, seed
    # jump ahead `skip` steps by squaring the affine map (A, C): s -> A s + C
    ja, jc, k = a, c, skip
    while k:
        if k & 1:
            s = (ja * s + jc) % 2**32
        ja, jc, k = ja * ja % 2**32, (ja * jc + jc) % 2**32, k >> 1
    out = np.empty(n, dtype=U32)
    chunk = 1 << 22
    pa = np.cumprod(np.full(min(n, chunk), a, dtype=U32), dtype=U32)  # a^1 .. a^m
    ps = np.cumsum(np.concatenate(([1], pa[:-1])).astype(U32), dtype=U32)  # 1 + a + .. + a^(j-1)
    for at in range(0, n, chunk):
        m = min(chunk, n - at)
        out[at:at + m] = pa[:m] * U32(s) + U32(c) * ps[:m]
        s = int(out[at + m - 1])
    return out


def lcg_floats(seed, n, scale, offset, skip=0):
    """((s >> 8) as f32) * scale + offset, scale and offset the programs' f32 literals."""
    return (lcg_states(seed, n, skip) >> U32(8)).astype(F32) * f32(scale) + f32(offset)


def bf16(x):
    """f32 -> bf16, to nearest, ties to even (no NaN here); the bf16 values as f32."""
    u = np.asarray(x, dtype=F32).view(U32)
    u = (u + ((u >> U32(16)) & U32(1)) + U32(0x7FFF)) & U32(0xFFFF0000)
    return u.view(F32)


def round_f32(x):
    """f64 results of a correctly rounded function (within an f64 ulp or two) to the f32 nearest
    the true value; an error where the f64 is too near a midpoint between floats to tell."""
    x = np.asarray(x, dtype=F64)
    r = x.astype(F32)
    other = np.nextafter(r, np.where(x > r.astype(F64), F32(np.inf), F32(-np.inf)).astype(F32))
    mid = (r.astype(F64) + other.astype(F64)) / 2
    close = np.abs(x - mid) <= 8 * np.spacing(np.abs(x))
    if np.any(close & (x != r.astype(F64))):
        raise SystemExit(f"round_f32: {x[close][:3]} is too near a midpoint between two floats")
    return r


def fast_exp(x):
    """The interpreter's fast_exp: exp2(x * log2(e) rounded to f32), correctly rounded."""
    return round_f32(np.exp2((np.asarray(x, dtype=F32) * F32(float.fromhex("0x1.715476p+0"))).astype(F64)))


def tree(v, op):
    """lanes::sum / lanes::max: level h sets s[i] = s[i] op s[i + h] for i < h, i + h < n."""
    s = np.array(v, dtype=F32)
    n = len(s)
    h = 1 << max(0, (n - 1).bit_length() - 1)
    while h >= 1:
        i = np.arange(h)
        i = i[i + h < n]
        s[i] = op(s[i], s[i + h])
        h //= 2
    return s[0]


def fsum(values):
    """`let mut sum = 0.0; for … { sum += x as f64 }`: one f64 add after another."""
    return np.cumsum(np.asarray(values, dtype=F64).ravel())[-1]


def show(x):
    """`{}` of an f32 or f64: the shortest decimal that reads back, no exponent."""
    return np.format_float_positional(x, unique=True, trim="-")


def fixed(x, digits=4, error=1e-5):
    """`{:.4}` of a value that a GPU computes within `error` of x: the same text for any of them."""
    scaled = float(x) * 10**digits
    if abs(scaled - np.floor(scaled) - 0.5) * 10**-digits < error:
        raise SystemExit(f"fixed: {x!r} is within {error} of a rounding boundary at {digits} decimals")
    return f"{float(x):.{digits}f}"


# ---- the kernels, in the programs' order of operations ---------------------------------------------

def encoder(t, c, v, bt, name):
    tokens = (lcg_states(20001, bt) >> U32(8)) % U32(v)
    wte = lcg_floats(20002, v * c, "0.00000011920929", "-1.0").reshape(v, c)
    wpe = lcg_floats(20003, t * c, "0.00000011920929", "-1.0").reshape(t, c)
    out = wte[tokens] + wpe[np.arange(bt) % t]
    rows = {"encoder": (4097, 300), "llmc_encoder": (5, 300)}[name]
    return f"{name}: {show(out[0, 0])} {show(out[rows])} {show(out[-1, -1])} {show(fsum(out))}\n"


def residual(n, name, seeds, half):
    a = lcg_floats(seeds[0], n, "0.00000011920929", "-1.0")
    b = lcg_floats(seeds[1], n, "0.00000011920929", "-1.0")
    out = bf16(bf16(a) + bf16(b)) if half else a + b
    mid = 3000000 if n > 1000 else 500
    return f"{name}: {show(out[0])} {show(out[mid])} {show(out[-1])} {show(fsum(out))}\n"


def gelu_bf16(n, name):
    x = bf16(lcg_floats(777, n, "0.00000047683716", "-4.0"))
    cube = f32("0.044715") * x * x * x
    t = round_f32(np.tanh((f32("0.7978846") * (x + cube)).astype(F64)))
    out = bf16(F32(0.5) * x * (F32(1) + t))
    return f"{name}: {show(out[0])} {show(out[500])} {show(out[-1])} {show(fsum(out))}\n"


def matmul(bt, c, oc, name):
    inp = lcg_floats(20031, bt * c, "0.00000011920929", "-1.0").reshape(bt, c)
    w = lcg_floats(20032, oc * c, "0.000000059604645", "-0.5").reshape(oc, c)
    bias = lcg_floats(20033, oc, "0.000000059604645", "-0.5")
    acc = np.zeros((bt, oc), dtype=F32)
    for k in range(c):  # acc += a * w, k in order, each product rounded, then the bias
        acc += inp[:, k, None] * w[None, :, k]
    out = acc + bias
    mid = (4097, 1000) if bt > 128 else (77, 200)
    return f"{name}: {show(out[0, 0])} {show(out[mid])} {show(out[-1, -1])} {show(out[5, 131])} {show(fsum(out))}\n"


def attention_row(qkv, b, h, t, tt, c, hs):
    """att[b, h, t, :] of the three kernels: scores, the masked softmax, (its T entries)."""
    q = qkv[b * tt + t, h * hs:(h + 1) * hs]
    k = qkv[b * tt:(b + 1) * tt, c + h * hs:c + (h + 1) * hs]
    dot = np.zeros(tt, dtype=F32)
    for i in range(hs):
        dot += q[i] * k[:, i]
    row = np.where(np.arange(tt) <= t, dot * F32(0.125), F32(-10000.0))
    mx = tree(tree_parts(row, np.maximum), np.maximum)
    e = np.where(np.arange(tt) <= t, fast_exp(row - mx), F32(0))
    total = tree(tree_parts(e, np.add), np.add)
    inv = F32(0) if total == 0 else F32(1) / total
    return e * inv


def tree_parts(row, op):
    """The softmax's part[l]: row[l] op row[l + 256] op … in order (T / 256 terms)."""
    part = row[:256].copy()
    for k in range(1, len(row) // 256):
        part = op(part, row[256 * k:256 * (k + 1)])
    return part


def attention_out(qkv, att_row, b, t, tt, c, col):
    acc = F32(0)
    for t2 in range(t + 1):
        acc = acc + att_row[t2] * qkv[b * tt + t2, 2 * c + col]
    return acc


def attention_small():
    B, T, C, NH, HS = 1, 256, 128, 2, 64
    qkv = lcg_floats(20041, B * T * 3 * C, "0.00000011920929", "-1.0").reshape(B * T, 3 * C)
    att = np.zeros((B * NH * T, T), dtype=F32)
    out = np.zeros((B * T, C), dtype=F32)
    for b in range(B):
        for h in range(NH):
            rows = np.stack([attention_row(qkv, b, h, t, T, C, HS) for t in range(T)])
            att[(b * NH + h) * T:(b * NH + h + 1) * T] = rows
            v = qkv[b * T:(b + 1) * T, 2 * C + h * HS:2 * C + (h + 1) * HS]
            acc = np.zeros((T, HS), dtype=F32)
            for t2 in range(T):  # rows t >= t2 add att[t, t2] * v[t2]; the others do not add
                acc[t2:] += rows[t2:, t2, None] * v[t2][None, :]
            out[b * T:(b + 1) * T, h * HS:(h + 1) * HS] = acc
    vals = [out[0, 0], out[100, 70], out[-1, -1], att[300, 10], att[-1, -1]]
    return "llmc_attention: " + " ".join(map(show, vals)) + f" {show(fsum(out))} {show(fsum(att))}\n"


def attention_bench():
    B, T, C, NH, HS = 8, 1024, 768, 12, 64
    qkv = lcg_floats(20041, B * T * 3 * C, "0.00000011920929", "-1.0").reshape(B * T, 3 * C)
    vals = []
    for bt, col in ((0, 0), (5000, 100), (B * T - 1, C - 1)):
        b, t, h = bt // T, bt % T, col // HS
        vals.append(attention_out(qkv, attention_row(qkv, b, h, t, T, C, HS), b, t, T, C, col))
    for r, c2 in ((4000, 900), (B * NH * T - 1, T - 1)):
        b, h, t = r // (NH * T), r // T % NH, r % T
        vals.append(attention_row(qkv, b, h, t, T, C, HS)[c2])
    # fast_exp on the GPU: each weight within about 2^-21 relative, so an output (a weighted mean
    # of values in [-1, 1)) within 1e-6: 5e-6 from a boundary is enough.
    return "attention: " + " ".join(fixed(v, 4, 5e-6) for v in vals) + "\n"


def crossentropy(bt, v, name):
    targets = (lcg_states(20052, bt) >> U32(8)) % U32(v)
    losses = np.zeros(bt, dtype=F32)
    per = (v + 255) // 256
    rows_at_once = max(1, (1 << 22) // v)
    for r0 in range(0, bt, rows_at_once):
        n = min(rows_at_once, bt - r0)
        x = lcg_floats(20051, n * v, "0.00000095367432", "-8.0", skip=r0 * v).reshape(n, v)
        mx = x.max(axis=1)
        e = fast_exp(x - mx[:, None])
        pad = np.zeros((n, per * 256), dtype=F32)
        pad[:, :v] = e
        part = np.zeros((n, 256), dtype=F32)
        for k in range(per):  # sum = 0.0; sum += exp for c = l + 256 k < V, k in order
            seg = pad[:, 256 * k:256 * (k + 1)]
            valid = np.arange(256) + 256 * k < v
            part = np.where(valid, part + seg, part)
        for i in range(n):
            total = tree(part[i], np.add)
            losses[r0 + i] = round_f32(np.log(F64(total))) - (x[i, targets[r0 + i]] - mx[i])
    if name == "llmc_crossentropy":
        return "".join(f"{r} {show(losses[r])}\n" for r in range(bt)) + f"{name}: {show(fsum(losses))}\n"
    mean = fsum(losses) / bt
    # The GPU's sum of exponentials is within 2^-21 of this one (fast_exp), its log within 5e-7,
    # and a loss near 16 has f32 steps of 2e-6: 4e-6 covers both.
    return f"{name}: " + " ".join(fixed(x, 4, 4e-6) for x in (losses[0], losses[4096], losses[-1], mean)) + "\n"


SMALL = {
    "llmc_encoder": lambda: encoder(4, 640, 50, 8, "llmc_encoder"),
    "llmc_residual": lambda: residual(1000, "llmc_residual", (20011, 20012), False),
    "llmc_residual_bf16": lambda: residual(1000, "llmc_residual_bf16", (20021, 20022), True),
    "llmc_gelu_bf16": lambda: gelu_bf16(1000, "llmc_gelu_bf16"),
    "llmc_matmul": lambda: matmul(128, 32, 256, "llmc_matmul"),
    "llmc_attention": attention_small,
    "llmc_crossentropy": lambda: crossentropy(8, 1000, "llmc_crossentropy"),
}
BIG = {
    "encoder": lambda: encoder(1024, 768, 50257, 8192, "encoder"),
    "residual": lambda: residual(6291456, "residual", (20011, 20012), False),
    "residual_bf16": lambda: residual(6291456, "residual_bf16", (20021, 20022), True),
    "matmul": lambda: matmul(8192, 768, 2304, "matmul"),
    "attention": attention_bench,
    "crossentropy": lambda: crossentropy(8192, 50257, "crossentropy"),
}


def kernels(path):
    """The text of a program's launch loop, without its count of launches."""
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip().startswith("for launch in 0.."))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("    let "))
    return lines[start + 1:end]


def main():
    write, bench = "--write" in sys.argv, "--bench" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    bad = 0
    jobs = [(os.path.join(HERE, n + ".stdout"), f) for n, f in SMALL.items() if not only or n in only]
    if bench:
        jobs += [(os.path.join(BENCH, n + ".stdout"), f) for n, f in BIG.items() if not only or n in only]
    for name in SMALL:
        twin = os.path.join(BENCH, name[len("llmc_"):] + ".vx")
        if kernels(os.path.join(HERE, name + ".vx")) != kernels(twin):
            print(f"{name}.vx: its kernels differ from {os.path.relpath(twin, HERE)}'s")
            bad += 1
    bad += write_or_check(jobs, write, HERE)
    sys.exit(1 if bad else 0)


def write_or_check(jobs, write, base):
    """Each (path, compute) of `jobs`: writes compute()'s text to path (`write`), or checks that
    path holds it; paths printed relative to `base`. Returns the number that differ."""
    bad = 0
    for path, compute in jobs:
        text = compute()
        rel = os.path.relpath(path, base)
        if write:
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {rel}: {text.splitlines()[-1]}")
        elif not os.path.exists(path) or open(path).read() != text:
            print(f"{rel}: expected\n{text}")
            bad += 1
        else:
            print(f"ok {rel}")
    return bad


if __name__ == "__main__":
    main()
