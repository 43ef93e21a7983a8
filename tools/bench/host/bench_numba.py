"""The four workloads of tools/bench/host as CUDA kernels run by numba's CUDA simulator
(NUMBA_ENABLE_CUDASIM=1, set before numba is imported): today's way to run GPU kernels without
a GPU. The kernels are the Vx programs in vx/ written for numba.cuda: one block per block pass,
256 threads (1024 for the row sums) with a stride loop. Prints the kernel's seconds and a check.
usage: python3 bench_numba.py scale ROWS COLS | gelu N | rowsums ROWS | histogram N"""
import math
import os
import sys
import time

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402


@cuda.jit
def scale(g):
    y = cuda.blockIdx.x
    x = cuda.threadIdx.x
    while x < g.shape[1]:
        g[y, x] = g[y, x] * np.float32(2.0) + np.float32(y)
        x += cuda.blockDim.x


@cuda.jit
def gelu(inp, out):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    x = inp[i]
    cube = np.float32(0.044715) * x * x * x
    out[i] = np.float32(0.5) * x * (np.float32(1.0) + math.tanh(np.float32(0.7978846) * (x + cube)))


@cuda.jit
def rowsums(m, sums):
    part = cuda.shared.array(1024, dtype=np.float32)
    b = cuda.blockIdx.x
    t = cuda.threadIdx.x
    part[t] = m[b, t]
    cuda.syncthreads()
    h = 512
    while h >= 1:
        if t < h:
            part[t] = part[t] + part[t + h]
        cuda.syncthreads()
        h //= 2
    if t == 0:
        sums[b] = part[0]


@cuda.jit
def histogram(values, bins):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    cuda.atomic.add(bins, values[i], 1)


def main():
    w, a = sys.argv[1], int(sys.argv[2])
    b = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if w == "scale":
        g = cuda.to_device(np.ones((a, b), dtype=np.float32))
        t0 = time.perf_counter()
        scale[a, 256](g)
        t1 = time.perf_counter()
        h = g.copy_to_host()
        check = (h[0, 0], h[a - 1, b - 1])
    elif w == "gelu":
        i = np.arange(a)
        inp = cuda.to_device(((i % 2001).astype(np.float32) - np.float32(1000.0)) * np.float32(0.004))
        out = cuda.to_device(np.zeros(a, dtype=np.float32))
        t0 = time.perf_counter()
        gelu[a // 256, 256](inp, out)
        t1 = time.perf_counter()
        h = out.copy_to_host()
        check = (h[0], h[a - 1])
    elif w == "rowsums":
        host = np.full((a, 1024), 0.5, dtype=np.float32)
        host[0, :] = np.arange(1024, dtype=np.float32)
        m = cuda.to_device(host)
        sums = cuda.to_device(np.zeros(a, dtype=np.float32))
        t0 = time.perf_counter()
        rowsums[a, 1024](m, sums)
        t1 = time.perf_counter()
        h = sums.copy_to_host()
        check = (h[0], h[a - 1])
    elif w == "histogram":
        values = cuda.to_device((np.arange(a) * 7 % 8).astype(np.int32))
        bins = cuda.to_device(np.zeros(8, dtype=np.uint32))
        t0 = time.perf_counter()
        histogram[a // 256, 256](values, bins)
        t1 = time.perf_counter()
        h = bins.copy_to_host()
        check = (h[0], h[7])
    else:
        sys.exit(2)
    print("%.9f %s %s" % (t1 - t0, check[0], check[1]))


main()
