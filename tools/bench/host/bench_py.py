"""The four workloads of tools/bench/host in plain CPython 3 (lists, no NumPy): the same loops as
the Vx programs in vx/. Prints the kernel's CPU seconds (time.process_time) and a check value.
usage: python3 bench_py.py scale ROWS COLS | gelu N | rowsums ROWS | histogram N"""
import math
import sys
import time


def main():
    w, a = sys.argv[1], int(sys.argv[2])
    b = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if w == "scale":
        g = [[1.0] * b for _ in range(a)]
        t0 = time.process_time()
        for y in range(a):
            for x in range(b):
                g[y][x] = g[y][x] * 2.0 + y
        t1 = time.process_time()
        check = (g[0][0], g[a - 1][b - 1])
    elif w == "gelu":
        inp = [((i % 2001) - 1000.0) * 0.004 for i in range(a)]
        out = [0.0] * a
        tanh = math.tanh
        t0 = time.process_time()
        for i in range(a):
            x = inp[i]
            cube = 0.044715 * x * x * x
            out[i] = 0.5 * x * (1.0 + tanh(0.7978846 * (x + cube)))
        t1 = time.process_time()
        check = (out[0], out[a - 1])
    elif w == "rowsums":
        n = 1024
        m = [[0.5] * n for _ in range(a)]
        m[0] = [float(c) for c in range(n)]
        sums = [0.0] * a
        part = [0.0] * n
        t0 = time.process_time()
        for r in range(a):
            for t in range(n):
                part[t] = m[r][t]
            h = n // 2
            while h >= 1:
                for i in range(h):
                    part[i] = part[i] + part[i + h]
                h //= 2
            sums[r] = part[0]
        t1 = time.process_time()
        check = (sums[0], sums[a - 1])
    elif w == "histogram":
        v = [(i * 7) % 8 for i in range(a)]
        bins = [0] * 8
        t0 = time.process_time()
        for i in range(a):
            x = v[i]
            bins[x] += 1
        t1 = time.process_time()
        check = (bins[0], bins[7])
    else:
        sys.exit(2)
    print("%.9f %s %s" % (t1 - t0, check[0], check[1]))


main()
