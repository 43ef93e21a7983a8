#!/usr/bin/env python3
"""Prints src/numeric/vx_math_tables.inc, the constant tables that src/numeric/vx_math.h
includes (the ctest math_tables checks that the file is exactly this output):

    tools/mathcheck/gen_tables.py > src/numeric/vx_math_tables.inc

Every entry is a double or a double-double (hi, lo) with hi = round(v), lo = round(v - hi),
computed with mpmath at 2200 bits, so each entry is the exact value to ~2^-106."""
from mpmath import mp, mpf, log, sin, pi, floor, ldexp
mp.prec = 2200

def dd(v):
    hi = float(v)
    lo = float(v - mpf(hi))
    return hi, lo

def h(x):
    return x.hex() if x != 0 else "0x0p+0"

def row(v):
    hi, lo = dd(v)
    return "{%s, %s}" % (h(hi), h(lo))

def round_bits(v, bits):
    e = int(floor(log(abs(v), 2)))
    s = ldexp(1, bits - 1 - e)
    return float(floor(v * s + mpf(0.5)) / s)

out = []
out.append("// 2^(j/64), j = 0..63, double-double.")
out.append("VX_MATH_TABLE double vx_tbl_exp2[64][2] = {")
for j in range(64):
    out.append("  %s," % row(mpf(2) ** (mpf(j) / 64)))
out.append("};")

# log: m in [1,2) split in 128 intervals by the top 7 mantissa bits; intervals i >= 64 use m/2.
out.append("// log table: c_i (20-bit reciprocal of the interval's middle; 1 for i = 0 and 127),")
out.append("// -log(c_i) and -log2(c_i) as double-doubles. Intervals i >= 64 are for m/2 in [0.75, 1).")
cs = []
for i in range(128):
    mid = 1 + (mpf(i) + mpf(0.5)) / 128
    if i >= 64:
        mid = mid / 2
    c = 1.0 if i in (0, 127) else round_bits(1 / mid, 20)
    cs.append(c)
out.append("VX_MATH_TABLE double vx_tbl_log_c[128] = {")
for c in cs:
    out.append("  %s," % h(c))
out.append("};")
out.append("VX_MATH_TABLE double vx_tbl_log_l[128][2] = {")
for c in cs:
    out.append("  %s," % (row(-log(mpf(c))) if c != 1.0 else "{0x0p+0, 0x0p+0}"))
out.append("};")
out.append("VX_MATH_TABLE double vx_tbl_log2_l[128][2] = {")
for c in cs:
    out.append("  %s," % (row(-log(mpf(c)) / log(2)) if c != 1.0 else "{0x0p+0, 0x0p+0}"))
out.append("};")
# pow's fast path: 64 (-log2 c_i) as a head on the 2^-14 grid (so that (64 e + head) * y is
# exact for a float y) and the rest rounded to double.
out.append("// -64 log2(c_i) = head + tail, the head a multiple of 2^-14 (pow's fast path).")
out.append("VX_MATH_TABLE double vx_tbl_log2_pow[128][2] = {")
for c in cs:
    v = -64 * log(mpf(c)) / log(2)
    head = float(floor(v * 2 ** 14 + mpf(0.5)) / 2 ** 14)
    out.append("  {%s, %s}," % (h(head), h(float(v - mpf(head)))))
out.append("};")

out.append("// sin(j*pi/32), j = 0..16, double-double.")
out.append("VX_MATH_TABLE double vx_tbl_sin[17][2] = {")
for j in range(17):
    v = sin(mpf(j) * pi / 32)
    if j == 16:
        v = mpf(1)
    out.append("  %s," % (row(v) if j else "{0x0p+0, 0x0p+0}"))
out.append("};")

# bits of 1/(2 pi): word w holds bits 32w+1 .. 32w+32 after the binary point.
inv2pi = 1 / (2 * pi)
N = 56
big = int(floor(inv2pi * mpf(2) ** (32 * N)))
words = [(big >> (32 * (N - 1 - w))) & 0xffffffff for w in range(N)]
out.append("// 1/(2 pi) in fixed point: word w holds bits 32w+1 .. 32w+32 after the binary point.")
out.append("VX_MATH_TABLE unsigned int vx_tbl_inv2pi[%d] = {" % N)
for w in range(0, N, 6):
    out.append("  " + ", ".join("0x%08xu" % x for x in words[w:w + 6]) + ",")
out.append("};")
# The f32 reduction's windows: entry j holds bits 8j-13 .. 8j+50 of 1/(2 pi) (bit i weighs 2^-i;
# the bits at i <= 0 are 0), so that entries j and j+8 are the 128 bits from 8j-13 on.
NB = 23
big = int(floor(inv2pi * mpf(2) ** (8 * NB + 120)))  # bits 1 .. 8*NB+120
wins = [(big >> (8 * NB + 120 - (8 * j + 50))) & (2 ** 64 - 1) for j in range(NB)]
out.append("// 1/(2 pi) in 64-bit windows 8 bits apart: entry j holds bits 8j-13 .. 8j+50 after the")
out.append("// binary point (those before the point are 0); entries j and j+8 are 128 consecutive bits.")
out.append("VX_MATH_TABLE unsigned long long vx_tbl_inv2pi_w8[%d] = {" % NB)
for j in range(0, NB, 4):
    out.append("  " + ", ".join("0x%016xull" % x for x in wins[j:j + 4]) + ",")
out.append("};")

def const(name, v):
    hi, lo = dd(v)
    out.append("#define %s_HI %s\n#define %s_LO %s" % (name, h(hi), name, h(lo)))

const("VX_LN2", log(2))
const("VX_INV_LN2", 1 / log(2))
const("VX_PI_32", pi / 32)
# Cody-Waite pieces: ln2/64 and pi/32 split into 36-, 36-bit heads and a double tail.
def split3(name, v, b1, b2):
    p1 = round_bits(v, b1)
    p2 = round_bits(v - mpf(p1), b2)
    p3 = float(v - mpf(p1) - mpf(p2))
    out.append("#define %s_1 %s\n#define %s_2 %s\n#define %s_3 %s" % (name, h(p1), name, h(p2), name, h(p3)))
split3("VX_LN2_64", log(2) / 64, 36, 36)
split3("VX_PI_32_CW", pi / 32, 36, 36)
const("VX_64_LN2", 64 / log(2))
const("VX_32_PI", 32 / pi)


# Taylor coefficients as double-doubles: exp (1/n!), log1p ((-1)^(n+1)/n), sin, cos.
from mpmath import factorial
def coef_table(name, vals):
    out.append("VX_MATH_TABLE double %s[%d][2] = {" % (name, len(vals)))
    for v in vals:
        out.append("  %s," % row(v))
    out.append("};")
out.append("// Taylor coefficients: exp 1/n! (n = 0..12), log1p (-1)^(n+1)/n (n = 0..16, [0] unused),")
out.append("// sin (-1)^k/(2k+1)! and cos (-1)^k/(2k)! (k = 0..9).")
coef_table("vx_tbl_c_exp", [1 / factorial(n) for n in range(13)])
coef_table("vx_tbl_c_log1p", [mpf(0)] + [mpf((-1) ** (n + 1)) / n for n in range(1, 17)])
coef_table("vx_tbl_c_sin", [mpf((-1) ** k) / factorial(2 * k + 1) for k in range(10)])
coef_table("vx_tbl_c_cos", [mpf((-1) ** k) / factorial(2 * k) for k in range(10)])


# Two double-double entries or three doubles per line.
import re
lines, buf = [], []
for line in out:
    t = line.strip()
    if t.startswith("{") and t.endswith("},") and t.count("{") == 1:
        buf.append(t)
        if len(buf) == 2:
            lines.append("  " + " ".join(buf))
            buf = []
    elif re.match(r"^-?0x[0-9a-f.p+-]+,$", t):
        buf.append(t)
        if len(buf) == 3:
            lines.append("  " + " ".join(buf))
            buf = []
    else:
        if buf:
            lines.append("  " + " ".join(buf))
            buf = []
        lines.append(line)
HEADER = [
    "// Generated by tools/mathcheck/gen_tables.py (mpmath, 2200 bits): the constant tables of",
    "// vx_math.h, which includes this file (and the kernel prelude inlines it). Do not edit: rerun",
    "//   tools/mathcheck/gen_tables.py > src/numeric/vx_math_tables.inc",
]
print("\n".join(HEADER + lines))
