"""tools/bench/python: what a call of a Vx kernel costs from Python (issue 38), in one invocation.

1. Per-call overhead, on a one-element kernel (llm.c's GELU over a grid of one block of one lane,
   written in Vx and for numba.cuda alike): `m.gelu1(out, inp, 1)` from vx.load's module, against
   `vx call` (a process per call, the arguments written as .npy files and the result read back)
   and numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1, `gelu1[1, 1](inp, out)`). Wall time per
   call, the median of several batches; the ratios are of medians from this one run.
2. llm.c's GELU on 6,291,456 floats (the size of tools/bench/host and tests/call_test.py): the
   arrays taken without a copy, against the same call with the input copied in and the result
   copied out (what a binding without zero-copy does), and against `vx call` on .npy files.

The results of every path are compared (bit for bit between vx's, within 2 ulp for numba's
float32 tanh) before any time is reported.
usage: bench.py VX RESULTS-DIR [--quick]"""
import argparse
import atexit
import datetime
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

import vx  # noqa: E402

SOURCE = """#![allow(lanes_not_warp_multiple)]
/// llm.c's GELU over a grid of `n` blocks of one lane each: one element per block.
pub fn gelu1(out: &mut Tensor<f32, [?], Memory::HBM>, inp: &Tensor<f32, [?], Memory::HBM>, n: i32) {
    spawn on(Topology::Device) {
        for b in 0..n across blocks {
            for l in 0..1 across lanes(1) {
                let x = inp[b + l];
                let cube = 0.044715 * x * x * x;
                out[b + l] = 0.5 * x * (1.0 + (0.7978846 * (x + cube)).tanh());
            }
        }
    }
}

/// llm.c's GELU, 256 lanes a block.
pub fn gelu_forward(out: &mut Tensor<f32, [?], Memory::HBM>, inp: &Tensor<f32, [?], Memory::HBM>, n: i32) {
    spawn on(Topology::Device) {
        for b in 0..(n + 255) / 256 across blocks {
            for l in 0..256 across lanes {
                let i = b * 256 + l;
                if i < n {
                    let x = inp[i];
                    let cube = 0.044715 * x * x * x;
                    out[i] = 0.5 * x * (1.0 + (0.7978846 * (x + cube)).tanh());
                }
            }
        }
    }
}
"""


@cuda.jit
def gelu1(inp, out):
    i = cuda.blockIdx.x
    x = inp[i]
    cube = np.float32(0.044715) * x * x * x
    out[i] = np.float32(0.5) * x * (np.float32(1.0) + math.tanh(np.float32(0.7978846) * (x + cube)))


def per_call(fn, calls, batches):
    """The median over `batches` of the wall time of one call, in µs, from batches of `calls`."""
    times = []
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times), times


def ulps(a, b):
    ia = a.view(np.int32).astype(np.int64)
    ib = b.view(np.int32).astype(np.int64)
    return int(np.abs(ia - ib).max())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vx")
    ap.add_argument("results")
    ap.add_argument("--quick", action="store_true", help="fewer batches and repetitions")
    args = ap.parse_args()
    quick = args.quick
    load_at_start = os.getloadavg()
    tmp = tempfile.mkdtemp(prefix="vx-bench-python-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)  # its arrays are hundreds of MB
    path = os.path.join(tmp, "gelu.vx")
    with open(path, "w") as f:
        f.write(SOURCE)
    m = vx.load(path)

    # ---- 1. one element -----------------------------------------------------------------------
    x1 = np.array([0.75], np.float32)
    o_py, o_sim = np.zeros(1, np.float32), np.zeros(1, np.float32)
    m.gelu1(o_py, x1, 1)
    gelu1[1, 1](x1, o_sim)
    np.save(os.path.join(tmp, "inp.npy"), x1)

    def call_process():
        np.save(os.path.join(tmp, "out.npy"), np.zeros(1, np.float32))
        subprocess.run([args.vx, "call", "--offload=off", path, "gelu1", "--arg",
                        "out=" + os.path.join(tmp, "out.npy"), "--arg",
                        "inp=" + os.path.join(tmp, "inp.npy"), "--arg", "n=1"], check=True)
        return np.load(os.path.join(tmp, "out.npy"))

    o_cli = call_process()
    if o_cli.tobytes() != o_py.tobytes():
        sys.exit(f"vx call {o_cli} and m.gelu1 {o_py} differ")
    if ulps(o_sim, o_py) > 2:
        sys.exit(f"numba's simulator {o_sim} and m.gelu1 {o_py} differ by more than 2 ulp")
    batches = 5 if quick else 9
    py_us, py_all = per_call(lambda: m.gelu1(o_py, x1, 1), 500 if quick else 2000, batches)
    cli_us, cli_all = per_call(call_process, 5 if quick else 20, batches)
    sim_us, sim_all = per_call(lambda: gelu1[1, 1](x1, o_sim), 50 if quick else 200, batches)

    # ---- 2. GELU on 6,291,456 floats -----------------------------------------------------------
    n = 6_291_456
    x = ((np.arange(n, dtype=np.int64) % 2001) - 1000).astype(np.float32) * np.float32(0.005)
    out = np.zeros(n, np.float32)

    def zero_copy():
        m.gelu_forward(out, x, n)

    copied_out = np.zeros(n, np.float32)

    def copied():
        xc = x.copy()
        oc = np.zeros(n, np.float32)
        m.gelu_forward(oc, xc, n)
        copied_out[:] = oc

    def copies_alone():  # what `copied` adds to the call: the copies, without the kernel
        xc = x.copy()
        oc = np.zeros(n, np.float32)
        copied_out[:] = oc
        return xc

    np.save(os.path.join(tmp, "big_inp.npy"), x)

    def files():
        np.save(os.path.join(tmp, "big_out.npy"), np.zeros(n, np.float32))
        subprocess.run([args.vx, "call", "--offload=off", path, "gelu_forward", "--arg",
                        "out=" + os.path.join(tmp, "big_out.npy"), "--arg",
                        "inp=" + os.path.join(tmp, "big_inp.npy"), "--arg", f"n={n}"], check=True)
        return np.load(os.path.join(tmp, "big_out.npy"))

    zero_copy()
    copied()
    cli_out = files()
    if out.tobytes() != copied_out.tobytes() or out.tobytes() != cli_out.tobytes():
        sys.exit("the 6,291,456-element GELU differs between the zero-copy, copied and vx call runs")
    reps = 3 if quick else 7
    zero_ms, zero_all = per_call(zero_copy, 1, reps)
    copied_ms, copied_all = per_call(copied, 1, reps)
    files_ms, files_all = per_call(files, 1, 3 if quick else 5)
    copies_ms, copies_all = per_call(copies_alone, 1, reps)
    zero_ms, copied_ms, files_ms = zero_ms / 1e3, copied_ms / 1e3, files_ms / 1e3
    copies_ms /= 1e3

    rows = [
        ("m.gelu1(out, inp, 1)  (vx, Python)", py_us, 1.0),
        ("vx call, a process and .npy files", cli_us, cli_us / py_us),
        ("numba's CUDA simulator, gelu1[1, 1]", sim_us, sim_us / py_us),
    ]
    print("one element: wall time per call (median of %d batches)" % batches)
    for name, us, ratio in rows:
        print(f"  {name:40s} {us:12.1f} µs   {ratio:8.1f}× m.gelu1")
    print(f"  target: under 50 µs per call: {'met' if py_us < 50 else 'missed'} ({py_us:.1f} µs)")
    print("GELU on 6,291,456 floats: wall time per call (median of %d)" % reps)
    print(f"  {'zero-copy (the arrays themselves)':40s} {zero_ms:12.2f} ms")
    print(f"  {'copied in and out':40s} {copied_ms:12.2f} ms   {copied_ms / zero_ms:8.3f}× zero-copy")
    print(f"  {'vx call on .npy files':40s} {files_ms:12.2f} ms   {files_ms / zero_ms:8.3f}× zero-copy")
    print(f"  {'(the copies alone, no kernel)':40s} {copies_ms:12.2f} ms   {copies_ms / zero_ms:8.3f}× zero-copy")

    now = datetime.datetime.now(datetime.timezone.utc)
    commit = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "describe",
                             "--always", "--dirty"], capture_output=True, text=True).stdout.strip()
    doc = {
        "date": now.isoformat(timespec="seconds"),
        "commit": commit,
        "machine": {"cores": os.cpu_count(), "uname": " ".join(os.uname()),
                    "loadavg_at_start": load_at_start, "loadavg_at_end": os.getloadavg(),
                    "python": sys.version.split()[0],
                    "numpy": np.__version__, "numba": __import__("numba").__version__},
        "one_element_us_per_call": {"vx_python": py_us, "vx_call_process_npy": cli_us,
                                    "numba_cudasim": sim_us},
        "ratios_to_vx_python": {"vx_call_process_npy": cli_us / py_us,
                                "numba_cudasim": sim_us / py_us},
        "target_us": 50, "target_met": py_us < 50,
        "gelu_6291456_ms_per_call": {"zero_copy": zero_ms, "copied_in_and_out": copied_ms,
                                     "vx_call_npy_files": files_ms, "copies_alone": copies_ms},
        "ratios_to_zero_copy": {"copied_in_and_out": copied_ms / zero_ms,
                                "vx_call_npy_files": files_ms / zero_ms},
        "samples": {"vx_python_us": py_all, "vx_call_us": cli_all, "numba_cudasim_us": sim_all,
                    "zero_copy_us": zero_all, "copied_us": copied_all, "files_us": files_all,
                    "copies_alone_us": copies_all},
        "host_threads": "every core (the default)",
    }
    os.makedirs(args.results, exist_ok=True)
    out_path = os.path.join(args.results, "python-%s.json" % now.strftime("%Y-%m-%d"))
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    print("wrote", out_path)


if __name__ == "__main__":
    main()
