"""tools/bench/host: the host tier of vx against the same work in C, Lua 5.4, LuaJIT, CPython 3
and numba's CUDA simulator, in one invocation. Prints a table of time per element and the
ratios the targets of issue 4 name, and writes JSON to bench/results/host-DATE.json.

Every implementation times only its kernel (vx: VX_TIME_KERNEL=1, the region's time), so host
set-up is left out of the per-element figures; vx's peak memory is that of the whole `vx run`.
The one-thread columns (vx-1, C, Lua, LuaJIT, CPython) are CPU time of the process, so that
other load on a shared machine counts less; the thread ratios compare wall times (vx-1 wall
against vx-2 / vx-all wall); the numba simulator (Python threads) and C-2 (the row sums in C on
two threads: what a second core gives that memory-bound loop on this machine) are wall time.
usage: bench.py VX RESULTS-DIR [--reps N] [--quick]"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (vx template parameters, arguments of the other implementations, elements, the
# numba simulator's smaller arguments and elements)
WORKLOADS = {
    "scale": ({"ROWS": 1024, "COLS": 16384}, [1024, 16384], 1024 * 16384, [16, 4096], 16 * 4096),
    "gelu": ({"BLOCKS": 24576, "N": 6291456}, [6291456], 6291456, [8192], 8192),
    "rowsums": ({"ROWS": 4096}, [4096], 4096 * 1024, [4], 4 * 1024),
    "histogram": ({"BLOCKS": 65536, "N": 16777216}, [16777216], 16777216, [8192], 8192),
    # seed 002's layernorm and softmax (issue 20): against C only
    "layernorm": ({"ROWS": 4096}, [4096], 4096 * 768, None, None),
    "softmax": ({"ROWS": 4096}, [4096], 4096 * 1024, None, None),
}
C_ONLY = {"layernorm", "softmax"}  # no Lua, CPython or numba version
KERNEL_LINE = re.compile(r"^vx: kernel .*: ([0-9.eE+-]+) ms, host, .*, cpu ([0-9.eE+-]+) ms")


def run_rss(cmd, env=None):
    """Runs cmd and measures its peak RSS with wait4 (KiB)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(map(str, cmd)), p.returncode, err[-2000:]))
    return out, err, usage.ru_maxrss


def vx_program(tmp, name, params):
    with open(os.path.join(HERE, "vx", name + ".vx")) as f:
        text = f.read()
    for k, v in params.items():
        text = text.replace("@%s@" % k, str(v))
    path = os.path.join(tmp, name + ".vx")
    with open(path, "w") as f:
        f.write(text)
    return path


def time_vx(vx, program, threads):
    env = dict(os.environ, VX_TIME_KERNEL="1", VX_HOST_THREADS=str(threads))
    out, err, rss = run_rss([vx, "run", "--offload=off", program], env)
    ms = [(float(m.group(1)), float(m.group(2))) for m in map(KERNEL_LINE.match, err.splitlines()) if m]
    if len(ms) != 1:
        raise RuntimeError("expected one VX_TIME_KERNEL line from %s, got: %s" % (program, err))
    return ms[0][0] / 1e3, ms[0][1] / 1e3, out.split(), rss


def time_other(cmd):
    out, _, _ = run_rss(cmd)
    fields = out.split()
    return float(fields[0]), fields[1:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vx")
    ap.add_argument("results")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="skip CPython and the numba simulator")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    tmp = tempfile.mkdtemp(prefix="vx-bench-")
    cbin = os.path.join(tmp, "bench_c")
    subprocess.check_call(["gcc", "-O2", "-pthread", "-o", cbin, os.path.join(HERE, "bench.c"), "-lm"])
    lua = shutil.which("lua5.4")
    luajit = shutil.which("luajit")
    py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

    results = {}
    for name, (params, cargs, elements, sim_args, sim_elements) in WORKLOADS.items():
        program = vx_program(tmp, name, params)
        r = {"elements": elements, "times": {}, "wall": {}, "cpu": {}, "checks": {}}
        impls = {
            "vx-1": lambda: time_vx(args.vx, program, 1),
            "vx-all": lambda: time_vx(args.vx, program, cores),
            "C": lambda: time_other([cbin, name] + list(map(str, cargs))),
        }
        if cores >= 2:
            impls["vx-2"] = lambda: time_vx(args.vx, program, 2)
            if name == "rowsums":  # memory-bound: how much a second thread gives C on this machine
                impls["C-2"] = lambda: time_other([cbin, name] + list(map(str, cargs)) + ["2"])
        if lua and name not in C_ONLY:
            impls["lua5.4"] = lambda: time_other([lua, os.path.join(HERE, "bench.lua"), name] + list(map(str, cargs)))
        if luajit and name not in C_ONLY:
            impls["luajit"] = lambda: time_other([luajit, os.path.join(HERE, "bench.lua"), name] + list(map(str, cargs)))
        rss = []
        # Interleaved repetitions, so that a burst of load on the machine hits every column alike.
        for rep in range(args.reps):
            for impl, fn in impls.items():
                t = fn()
                if impl.startswith("vx"):
                    seconds, cpu_seconds, check, kib = t
                    r["wall"].setdefault(impl, []).append(seconds / elements * 1e9)
                    r["cpu"].setdefault(impl, []).append(cpu_seconds / elements * 1e9)
                    if impl == "vx-1":
                        rss.append(kib)
                        seconds = cpu_seconds
                else:
                    seconds, check = t
                r["times"].setdefault(impl, []).append(seconds / elements * 1e9)
                r["checks"][impl] = check
            print("  %s rep %d done" % (name, rep + 1), file=sys.stderr, flush=True)
        if not args.quick and name not in C_ONLY:
            seconds, check = time_other([py, os.path.join(HERE, "bench_py.py"), name] + list(map(str, cargs)))
            r["times"]["cpython"] = [seconds / elements * 1e9]
            r["checks"]["cpython"] = check
            seconds, check = time_other([py, os.path.join(HERE, "bench_numba.py"), name] + list(map(str, sim_args)))
            r["times"]["numba-sim"] = [seconds / sim_elements * 1e9]
            r["checks"]["numba-sim"] = check
            r["numba_sim_elements"] = sim_elements
        r["vx_peak_rss_mib"] = max(rss) / 1024.0
        results[name] = r

    def ratio(r, num, den, key="times"):
        """The median over repetitions of num's time / den's time (one-rep columns repeat)."""
        a, b = r[key].get(num), r[key].get(den)
        if not a or not b:
            return None
        n = max(len(a), len(b))
        return statistics.median(a[i % len(a)] / b[i % len(b)] for i in range(n))

    cols = ["vx-1", "vx-2", "vx-all", "C", "C-2", "lua5.4", "luajit", "cpython", "numba-sim"]
    cols = [c for c in cols if any(c in r["times"] for r in results.values())]
    print("\nns per element (median of %d runs; vx-all = %d threads; one-thread columns CPU time, vx-2,"
          " vx-all, C-2 and numba-sim wall time; numba-sim on a smaller size)" % (args.reps, cores))
    print("%-10s" % "workload" + "".join("%12s" % c for c in cols))
    for name, r in results.items():
        cells = []
        for c in cols:
            t = r["times"].get(c)
            cells.append("%12.2f" % statistics.median(t) if t else "%12s" % "-")
        print("%-10s" % name + "".join(cells))
    print("\nratios (median of per-run ratios; lua/vx-1, luajit/vx-1, sim/vx-1: > 1 means vx-1 is faster;"
          " vx-1/C: vx-1's time over C's, so <= 2 is within 2x of C; the thread columns are the speed-up"
          " of vx-2 and vx-all over vx-1, wall time, and C/C-2 C's own speed-up on two threads)")
    head = ["lua/vx-1", "luajit/vx-1", "vx-1/C", "vx-1/vx-2", "vx-1/vx-all", "C/C-2", "sim/vx-1",
            "peak MiB"]
    print("%-10s" % "workload" + "".join("%13s" % h for h in head))
    for name, r in results.items():
        rs = {
            "lua_over_vx1": ratio(r, "lua5.4", "vx-1"),
            "luajit_over_vx1": ratio(r, "luajit", "vx-1"),
            "vx1_over_c": ratio(r, "vx-1", "C"),
            "vx1_over_vx2": ratio(r, "vx-1", "vx-2", "wall"),
            "vx1_over_vxall": ratio(r, "vx-1", "vx-all", "wall"),
            "c_over_c2": ratio(r, "C", "C-2"),
            "numba_sim_over_vx1": ratio(r, "numba-sim", "vx-1"),
        }
        r["ratios"] = rs
        cells = ["%13s" % ("-" if v is None else "%.2f" % v) for v in rs.values()]
        print("%-10s" % name + "".join(cells) + "%13.1f" % r["vx_peak_rss_mib"])
    print("\nCPU time per element summed over all threads (equal columns: threads add no work; the"
          " wall-time speed-up then depends only on idle cores)")
    vx_cols = [c for c in ("vx-1", "vx-2", "vx-all") if c in results["scale"]["cpu"]]
    print("%-10s" % "workload" + "".join("%12s" % c for c in vx_cols))
    for name, r in results.items():
        print("%-10s" % name + "".join("%12.2f" % statistics.median(r["cpu"][c]) for c in vx_cols))
    load = os.getloadavg()
    print("load average during the run: %.2f %.2f %.2f on %d cores" % (load[0], load[1], load[2], cores))
    data_mib = 1024 * 16384 * 4 / 2**20
    print("\nscale loop: tensor data %.0f MiB, vx peak RSS %.1f MiB (target <= data + 32 MiB)"
          % (data_mib, results["scale"]["vx_peak_rss_mib"]))

    os.makedirs(args.results, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    path = os.path.join(args.results, "host-%s.json" % stamp.strftime("%Y-%m-%d"))
    doc = {
        "date": stamp.isoformat(timespec="seconds"),
        "machine": {"cores": cores, "uname": " ".join(os.uname()), "loadavg_at_end": os.getloadavg()},
        "unit": "ns per element",
        "reps": args.reps,
        "workloads": results,
    }
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
    print("wrote %s" % path)
    shutil.rmtree(tmp, ignore_errors=True)


main()
