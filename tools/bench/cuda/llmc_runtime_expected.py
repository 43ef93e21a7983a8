#!/usr/bin/python3
"""The expected output of llm.c's forward kernels with run-time sizes (issue 37), computed without vx.

  tools/bench/cuda/llmc_runtime_expected.py            checks each conformance/kernel_rules/
                                                       llmc_runtime_*.stdout against the computation
                                                       (exit 1 on a difference)
  tools/bench/cuda/llmc_runtime_expected.py --write    writes them
  ... --bench                                          also tools/bench/cuda/*_runtime.stdout, the
                                                       same kernels at GPT-2's sizes (those that numpy
                                                       computes in a few minutes; see BIG)
  ... NAME…                                            only those (encoder, layernorm, …)

The programs print `{}` of f32 results (the shortest decimal that reads back) and the f64 sum of all
the outputs in order; both are exact here because every f32 operation of the Vx program is done in
np.float32 in the same order: sums in the order of their loops (never np.sum or a dot product),
the lanes:: trees in spec/builtins.md §2's order, the f64 sums one add after another. Vx's exp, log,
tanh and sqrt are correctly rounded (spec/math.md): sqrt is np.sqrt in f32 (IEEE), the others are
computed in f64 and rounded to f32 by `round_f32`, which stops with an error when the f64 value is
too near a midpoint between two floats to tell. It also checks that the kernels of each bench
program are those of its conformance twin, word for word. The programs of ONE_VALUE (llm.c's forms
that the kernel rules once refused) have no bench twin: each fills its inputs with a constant and
prints one output.

The helpers (the LCG, the trees, `{}` formatting) are those of tests/cuda_host/programs/
llmc_expected.py, which computes the outputs of the constant-size llm.c programs the same way.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
CONFORMANCE = os.path.join(ROOT, "conformance", "kernel_rules")
sys.path.insert(0, os.path.join(ROOT, "tests", "cuda_host", "programs"))
from llmc_expected import F32, F64, U32, f32, fsum, lcg_floats, lcg_states, round_f32, show, tree, write_or_check  # noqa: E402


def lcg(seed, shape, scale="0.00000011920929", offset="-1.0"):
    """The programs' lcgN(d0, …, seed): ((s >> 8) as f32) * scale + offset, row-major."""
    return lcg_floats(seed, int(np.prod(shape)), scale, offset).reshape(shape)


def tokens(seed, shape, v):
    """((s >> 8) % (V as u32)) as i32, row-major."""
    return ((lcg_states(seed, int(np.prod(shape))) >> U32(8)) % U32(v)).astype(np.int64).reshape(shape)


def line(name, values, sums):
    return f"{name}: " + " ".join([show(x) for x in values] + [show(fsum(s)) for s in sums]) + "\n"


# ---- the kernels, in the programs' order of operations ---------------------------------------------

def row_parts(x, init, op):
    """part[l] of a lane that takes x[l], x[l + 256], … in order (a grid-stride loop from init)."""
    part = np.full(x.shape[:-1] + (256,), init, dtype=F32)
    for j in range(0, x.shape[-1], 256):
        seg = x[..., j:j + 256]
        part[..., :seg.shape[-1]] = op(part[..., :seg.shape[-1]], seg)
    return part


def exp(x):
    return round_f32(np.exp(np.asarray(x, dtype=F32).astype(F64)))


def encoder(B, T, C, V, picks):
    inp = tokens(37001, (B, T), V)
    wte = lcg(37002, (V, C))
    wpe = lcg(37003, (T, C))
    out = wte[inp] + wpe[None, :, :]
    return line("encoder", [out[p] for p in picks], [out])


def residual(B, T, C, picks):
    out = lcg(37031, (B, T, C)) + lcg(37032, (B, T, C))
    return line("residual", [out[p] for p in picks], [out])


def gelu(B, T, C, picks):
    x = lcg(37021, (B, T, C), "0.00000047683716", "-4.0")
    cube = f32("0.044715") * x * x * x
    th = round_f32(np.tanh((f32("0.7978845") * (x + cube)).astype(F64)))
    out = F32(0.5) * x * (F32(1) + th)
    return line("gelu", [out[p] for p in picks], [out])


def layernorm(B, T, C, picks, row):
    x = lcg(37011, (B, T, C))
    weight = lcg(37012, (C,), "0.000000059604645", "0.5")
    bias = lcg(37013, (C,), "0.000000059604645", "-0.5")
    out = np.zeros((B, T, C), dtype=F32)
    mean = np.zeros((B, T), dtype=F32)
    rstd = np.zeros((B, T), dtype=F32)
    for b in range(B):
        for t in range(T):
            xr = x[b, t]
            m = tree(row_parts(xr, 0, np.add), np.add) / F32(C)
            d = xr - m
            squares = tree(row_parts(d * d, 0, np.add), np.add)
            s = F32(1) / np.sqrt(squares / F32(C) + f32("0.00001"))
            out[b, t] = s * (xr - m) * weight + bias
            mean[b, t], rstd[b, t] = m, s
    return line("layernorm", [out[p] for p in picks] + [mean[row], rstd[row]], [out, mean, rstd])


def matmul(B, T, C, OC, picks, sums=True):
    inp = lcg(37041, (B * T, C))
    weight = lcg(37042, (OC, C), "0.000000059604645", "-0.5")
    bias = lcg(37043, (OC,), "0.000000059604645", "-0.5")
    out = np.zeros((B * T, OC), dtype=F32)
    for r0 in range(0, B * T, 256):  # val = bias[o]; val += inp[b][t][i] * weight[o][i], i in order
        acc = np.repeat(bias[None, :], min(256, B * T - r0), axis=0)
        for i in range(C):
            acc = acc + inp[r0:r0 + 256, i, None] * weight[None, :, i]
        out[r0:r0 + 256] = acc
    out = out.reshape(B, T, OC)
    return line("matmul", [out[p] for p in picks], [out] if sums else [])


def matmul_picks(B, T, C, OC, picks):
    """The bench's matmul: only the picked outputs (the whole is 14.5 G multiply-adds)."""
    inp = lcg(37041, (B, T, C))
    weight = lcg(37042, (OC, C), "0.000000059604645", "-0.5")
    bias = lcg(37043, (OC,), "0.000000059604645", "-0.5")
    vals = []
    for b, t, o in picks:
        val = bias[o]
        for i in range(C):
            val = val + inp[b, t, i] * weight[o, i]
        vals.append(val)
    return line("matmul", vals, [])


def softmax_picks(B, T, V, picks):
    """The bench's softmax: only the rows of the picked outputs."""
    vals = []
    for b, t, c in picks:
        r = (b % B) * T + t % T
        x = lcg_floats(37051, V, "0.00000095367432", "-8.0", skip=r * V)
        offset = tree(row_parts(x, -np.inf, np.maximum), np.maximum)
        e = exp(x - offset)
        vals.append(e[c] / tree(row_parts(e, 0, np.add), np.add))
    return line("softmax", vals, [])


def softmax(B, T, V, picks, sums=True):
    out = np.zeros((B, T, V), dtype=F32)
    rows = max(1, (1 << 21) // V)
    for r0 in range(0, B * T, rows):
        n = min(rows, B * T - r0)
        x = lcg_floats(37051, n * V, "0.00000095367432", "-8.0", skip=r0 * V).reshape(n, V)
        offset = np.array([tree(p, np.maximum) for p in row_parts(x, -np.inf, np.maximum)], dtype=F32)
        e = exp(x - offset[:, None])
        total = np.array([tree(p, np.add) for p in row_parts(e, 0, np.add)], dtype=F32)
        out.reshape(B * T, V)[r0:r0 + n] = e / total[:, None]
    return line("softmax", [out[p] for p in picks], [out] if sums else [])


def crossentropy(B, T, V):
    targets = tokens(37062, (B, T), V)
    losses = np.zeros((B, T), dtype=F32)
    for b in range(B):
        for t in range(T):  # probs[b][t][ix] alone: its LCG state is number (b T + t) V + ix + 1
            s = lcg_states(37061, 1, skip=(b * T + t) * V + int(targets[b, t]))
            p = ((s >> U32(8)) + U32(1)).astype(F32) * f32("0.000000059604645")
            losses[b, t] = -round_f32(np.log(p.astype(F64)))[0]
    text = "".join(f"{b} {t} {show(losses[b, t])}\n" for b in range(B) for t in range(T)) if B * T <= 16 else ""
    return text + line("crossentropy", [] if B * T <= 16 else [losses[0, 0], losses[B // 2, T // 2], losses[-1, -1]],
                       [losses])


def attention_rows(qkv, B, T, C, NH, bh, t):
    """preatt[bh][t] and att[bh][t] of the first two kernels."""
    hs = C // NH
    scale = F32(1) / np.sqrt(F32(hs))
    b, h = bh // NH, bh % NH
    q = qkv[b, t, h * hs:(h + 1) * hs]
    k = qkv[b, :, C + h * hs:C + (h + 1) * hs]
    val = np.zeros(T, dtype=F32)
    for i in range(hs):
        val = val + q[i] * k[:, i]
    pre = np.where(np.arange(T) <= t, val * scale, F32(-np.inf)).astype(F32)
    maxval = F32(-np.finfo(F32).max)
    for t2 in range(t + 1):
        if pre[t2] > maxval:
            maxval = pre[t2]
    e = exp(pre[:t + 1] - maxval)
    expsum = F32(0)
    for t2 in range(t + 1):
        expsum = expsum + e[t2]
    inv = F32(0) if expsum == 0 else F32(1) / expsum
    att = np.zeros(T, dtype=F32)
    att[:t + 1] = e * inv
    return pre, att


def attention_out(qkv, att, B, T, C, NH, b, t, c):
    """out[b][t][c]: att[b·NH + c / hs][t][t2] · v[b][t2][c], t2 <= t in order; att(bh, t) a row."""
    val = F32(0)
    row = att(b * NH + c // (C // NH), t)
    for t2 in range(t + 1):
        val = val + row[t2] * qkv[b, t2, 2 * C + c]
    return val


def attention_picks(B, T, C, NH):
    """The bench's attention: only the rows that the picked outputs need."""
    qkv = lcg(37071, (B, T, 3 * C))
    rows = {}

    def row(bh, t):
        if (bh, t) not in rows:
            rows[bh, t] = attention_rows(qkv, B, T, C, NH, bh, t)
        return rows[bh, t]
    picks = [(0, 0, 0), (13, 500, 400), (B * NH - 1, T - 1, T - 1), (50, 700, 650)]
    return (line("preatt", [row(bh, t)[0][t2] for bh, t, t2 in picks], []) +
            line("att", [row(bh, t)[1][t2] for bh, t, t2 in picks], []) +
            line("attention", [attention_out(qkv, lambda bh, t: row(bh, t)[1], B, T, C, NH, b, t, c)
                               for b, t, c in [(0, 0, 0), (4, 17, 300), (B - 1, T - 1, C - 1)]], []))


def attention_small(B, T, C, NH):
    qkv = lcg(37071, (B, T, 3 * C))
    pre = np.zeros((B * NH, T, T), dtype=F32)
    att = np.zeros((B * NH, T, T), dtype=F32)
    for bh in range(B * NH):
        for t in range(T):
            pre[bh, t], att[bh, t] = attention_rows(qkv, B, T, C, NH, bh, t)
    out = np.zeros((B, T, C), dtype=F32)
    for b in range(B):
        for t in range(T):
            for c in range(C):
                out[b, t, c] = attention_out(qkv, lambda bh, tt: att[bh, tt], B, T, C, NH, b, t, c)
    picks = [(0, 0, 0), (1, 3, 2), (3, 4, 4), (2, 1, 3)]
    return (line("preatt", [pre[p] for p in picks], []) + line("att", [att[p] for p in picks], []) +
            line("attention", [out[0, 0, 0], out[1, 2, 260], out[-1, -1, -1]], [out, att]))


# ---- llm.c's forms with one printed value: constant inputs, no bench twin ----------------------

def softmax_reload(B, T, V, x, pick):
    """Kernel 2: out = exp(inp - max) stored, each lane's sum read back from out, out /= total."""
    inp = np.full((B, T, V), x, dtype=F32)
    out = np.zeros((B, T, V), dtype=F32)
    for b in range(B):
        for t in range(T):
            offset = tree(row_parts(inp[b, t], -np.inf, np.maximum), np.maximum)
            out[b, t] = exp(inp[b, t] - offset)
            total = tree(row_parts(out[b, t], 0, np.add), np.add)
            out[b, t] = out[b, t] / total
    return show(out[pick]) + "\n"


def attention_softmax_two_loops(B, T, NH, x, pick):
    """attention_softmax_kernel1: att = exp(preatt - max) for t2 <= t, then att *= inv, 0 past t."""
    preatt = np.full((B * NH, T, T), x, dtype=F32)
    att = np.zeros((B * NH, T, T), dtype=F32)
    for bh in range(B * NH):
        for t in range(T):
            maxval = F32(-np.finfo(F32).max)
            for t2 in range(t + 1):
                if preatt[bh, t, t2] > maxval:
                    maxval = preatt[bh, t, t2]
            expsum = F32(0)
            for t2 in range(t + 1):
                expv = exp(preatt[bh, t, t2] - maxval)
                expsum = expsum + expv
                att[bh, t, t2] = expv
            inv = F32(0) if expsum == 0 else F32(1) / expsum
            for t2 in range(T):
                att[bh, t, t2] = att[bh, t, t2] * inv if t2 <= t else F32(0)
    return show(att[pick]) + "\n"


def grid_stride_store(B, T, C, x1, x2, pick):
    """out[b][t][c] = inp1[b][t][c] + inp2[b][t][c], c = l + 256 j of lane l."""
    out = np.full((B, T, C), x1, dtype=F32) + np.full((B, T, C), x2, dtype=F32)
    return show(out[pick]) + "\n"


def crossentropy_flat(B, T, V, p, target, pick):
    """losses[i / T][i % T] = -log(probs[b][t][targets[b][t]]), i = blk 256 + l < B T."""
    probs = np.full((B, T, V), p, dtype=F32)
    targets = np.full((B, T), target, dtype=np.int64)
    losses = np.zeros((B, T), dtype=F32)
    for i in range(B * T):
        b, t = i // T, i % T
        losses[b, t] = -round_f32(np.log(probs[b, t, targets[b, t]].astype(F64)))
    return show(losses[pick]) + "\n"


PICKS = [(0, 0, 0), (1, 2, 260), (-1, -1, -1)]
SMALL = {
    "encoder": lambda: encoder(2, 5, 264, 50, PICKS),
    "layernorm": lambda: layernorm(2, 5, 264, PICKS, (1, 3)),
    "matmul": lambda: matmul(2, 5, 64, 300, [(0, 0, 0), (1, 2, 280), (-1, -1, -1)]),
    "attention": lambda: attention_small(2, 5, 264, 2),
    "softmax": lambda: softmax(2, 5, 300, PICKS),
    "gelu": lambda: gelu(2, 5, 264, PICKS),
    "residual": lambda: residual(2, 5, 264, PICKS),
    "crossentropy": lambda: crossentropy(2, 5, 300),
}
ONE_VALUE = {  # the arguments of each program's main: sizes, the fill values, the printed element
    "softmax_reload": lambda: softmax_reload(2, 5, 300, 1.0, (1, 4, 299)),
    "attention_softmax_two_loops": lambda: attention_softmax_two_loops(2, 5, 2, 0.5, (3, 4, 4)),
    "grid_stride_store": lambda: grid_stride_store(2, 5, 264, 1.5, 0.25, (1, 4, 263)),
    "crossentropy_flat": lambda: crossentropy_flat(2, 5, 300, 0.5, 7, (1, 4)),
}
GPT2 = dict(B=8, T=1024, C=768)
BENCH_PICKS = [(0, 0, 0), (4, 17, 300), (-1, -1, -1)]
BIG = {
    "encoder": lambda: encoder(**GPT2, V=50257, picks=BENCH_PICKS),
    "layernorm": lambda: layernorm(**GPT2, picks=BENCH_PICKS, row=(5, 100)),
    "matmul": lambda: matmul_picks(**GPT2, OC=2304, picks=[(0, 0, 0), (4, 17, 1000), (7, 1023, 2303)]),
    "attention": lambda: attention_picks(**GPT2, NH=12),
    "softmax": lambda: softmax_picks(8, 1024, 50257, [(0, 0, 0), (4, 17, 30000), (7, 1023, 50256)]),
    "gelu": lambda: gelu(**GPT2, picks=BENCH_PICKS),
    "residual": lambda: residual(**GPT2, picks=BENCH_PICKS),
    "crossentropy": lambda: crossentropy(8, 1024, 50257),
}


def kernels(path):
    """The text of a program's `pub fn`s (the kernels), from the first to the line before `fn main`."""
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("pub fn "))
    end = next(i for i, l in enumerate(lines) if l.startswith("fn "))
    return [l for l in lines[start:end] if l.strip()]


def main():
    write, bench = "--write" in sys.argv, "--bench" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    bad = 0
    jobs = [(os.path.join(CONFORMANCE, f"llmc_runtime_{n}.stdout"), f)
            for n, f in list(SMALL.items()) + list(ONE_VALUE.items()) if not only or n in only]
    if bench:
        jobs += [(os.path.join(HERE, f"{n}_runtime.stdout"), f) for n, f in BIG.items() if not only or n in only]
    for name in SMALL:  # ONE_VALUE's programs have no bench twin
        twin = os.path.join(HERE, f"{name}_runtime.vx")
        if os.path.exists(twin) and kernels(os.path.join(CONFORMANCE, f"llmc_runtime_{name}.vx")) != kernels(twin):
            print(f"{os.path.relpath(twin)}: its kernels differ from llmc_runtime_{name}.vx's")
            bad += 1
    bad += write_or_check(jobs, write, ROOT)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
