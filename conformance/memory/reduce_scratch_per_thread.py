#!/usr/bin/python3
# The expected output of reduce_scratch_per_thread.vx, computed independently of vx: the tree of
# DESIGN §3.7 (level h, from p/2 down to 1, sets x[i] = x[i] op x[i + h] for i < h where
# i + h < n) in Python's binary64, rounded to binary32 after every operation for f32, and the
# shortest decimal that reads back in the argument's type (spec/formatting.md).
import struct


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def tree(xs, n, op):
    x = list(xs[:n])
    p = 1
    while p < n:
        p *= 2
    h = p // 2
    while h >= 1:
        for i in range(h):
            if i + h < n:
                x[i] = op(x[i], x[i + h])
        h //= 2
    return x[0]


def argmax(xs, n):
    best = max(xs[:n])
    return xs[:n].index(best)


def show64(v):
    r = repr(v)
    return r


def show32(v):
    # the shortest decimal that reads back to the same binary32
    for digits in range(1, 18):
        s = "%.*g" % (digits, v)
        if f32(float(s)) == v:
            break
    s = repr(float(s))
    return s


out = []
sums, idx = [], []
for b in range(2):
    tile = [((l * 7 + b) % 13) * 0.1 for l in range(28000)]
    sums += [tree(tile, 28000, lambda a, c: a + c), tree(tile, 20001 + b * 3333, lambda a, c: a + c)]
    idx += [argmax(tile, 28000), argmax(tile, 5 + b * 2)]
small, sidx = [], []
for b in range(3):
    t = [f32(f32((l + b) % 9) * f32(0.3)) for l in range(100)]
    small.append(tree(t, 100, lambda a, c: f32(a + c)))
    sidx.append(argmax(t, 97))
print(" ".join(show64(v) for v in sums))
print(" ".join(str(i) for i in idx))
print(" ".join(show32(v) for v in small))
print(" ".join(str(i) for i in sidx))
