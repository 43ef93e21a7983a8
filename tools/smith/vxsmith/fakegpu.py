"""The GPU path without a GPU: `vx run --offload=verify|gpu` through the stand-in CUDA driver.

As tests/cuda_host_test.cpp does for the corpus: `vx emit-cuda FILE` gives the kernels; g++
compiles them against tests/cuda_host/cuda_host.hpp (one Boost.Context fiber per lane, UBSan on)
into a shared object that exports `vx_host_entries` and `vx_host_launch`; vx then runs with
VX_CUDA_DRIVER naming build/fake_cuda/libvx_fake_cuda.so, which runs each launch on that object.
NVRTC (found by vx under /usr/local/cuda) still compiles every program, as on a GPU.
"""

import glob
import hashlib
import os
import re
import subprocess

from . import run as R

FLAGS = ["-std=c++20", "-O1", "-ffp-contract=off", "-fPIC", "-shared", "-fvisibility=hidden", "-w",
         "-fsanitize=undefined", "-fno-sanitize=vptr"]


def _boost_context():
    for pat in ["/usr/lib/x86_64-linux-gnu/libboost_context.so*", "/usr/lib/*/libboost_context.so*",
                "/usr/local/lib/libboost_context.so*", "/usr/lib/libboost_context.so*"]:
        hits = sorted(glob.glob(pat))
        if hits:
            return hits[0]
    return None


def _key(path):
    with open(path, "rb") as f:
        return path + "#" + hashlib.sha1(f.read()).hexdigest()


class FakeGpu:
    def __init__(self, vx, source_dir, build_dir, work):
        self.vx = vx
        self.src = source_dir
        self.driver = os.path.join(build_dir, "fake_cuda", "libvx_fake_cuda.so")
        self.work = work
        self.cxx = os.environ.get("CXX", "g++")
        self.boost = _boost_context()
        self.objects = {}
        os.makedirs(work, exist_ok=True)
        self.why = None
        if not os.path.exists(self.driver):
            self.why = "no %s (ninja -C build fake_cuda)" % self.driver
        elif not self.boost:
            self.why = "no libboost_context"

    def available(self):
        return self.why is None

    def ready(self, path):
        return self.why is None

    def prelude(self):
        """What emit-cuda prints before the kernels of every program (vx_math.h, the runtime)."""
        if getattr(self, "_prelude", None) is None:
            empty = os.path.join(self.work, "empty.vx")
            with open(empty, "w") as f:
                f.write("fn main() {\n}\n")
            r = R.run([self.vx, "emit-cuda", empty])
            self._prelude = r.out if r.status == 0 else None
            if self._prelude is None:
                self.why = "emit-cuda of an empty program: status %s %s" % (r.status, r.err[-300:])
        return self._prelude

    def _compile(self, body, table):
        tu = ('#define VX_HOST_HARNESS\n#include "cuda_host.hpp"\n#include <cstdio>\n' + body +
              "\nstruct VxHostEntry { const char* program; const char* kernel; void (*fn)(void**); };\n"
              'extern "C" __attribute__((visibility("default"))) const VxHostEntry vx_host_entries[] = {\n' + table +
              "  {nullptr, nullptr, nullptr}};\n"
              'extern "C" __attribute__((visibility("default"))) bool vx_host_launch(const unsigned* grid,\n'
              "    const int* block, void (*fn)(void**), void** args, char* error, int error_size) {\n"
              "  std::string e;\n  const bool ok = vx_host::launch(grid, block, fn, args, e);\n"
              '  std::snprintf(error, (size_t)error_size, "%s", e.c_str());\n  return ok;\n}\n')
        h = hashlib.sha1((tu + " ".join(FLAGS)).encode()).hexdigest()[:16]
        base = os.path.join(self.work, "k_" + h)
        if os.path.exists(base + ".so"):
            return base + ".so", None
        with open(base + ".cpp", "w") as f:
            f.write(tu)
        proc = subprocess.Popen([self.cxx] + FLAGS + ["-I" + os.path.join(self.src, "tests", "cuda_host"),
                                                      base + ".cpp", "-o", base + ".so.tmp", self.boost],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return base, proc

    def prebuild(self, paths, parts=2):
        """The harness objects of many programs at once: `parts` translation units, each program's
        kernels in a namespace of its own (kernel names repeat across programs), as
        tests/cuda_host_test.cpp builds the corpus. Sets self.objects[path] = (so, program, why)."""
        pre = self.prelude()
        if pre is None:
            return
        kernels = {}
        for path in paths:
            r = R.run([self.vx, "emit-cuda", path])
            if r.status != 0 or not r.out.startswith(pre):
                self.objects[_key(path)] = (None, None, "emit-cuda status %s: %s" % (r.status, r.err[-300:]))
                continue
            kernels[path] = r.out[len(pre):]
        groups = [[] for _ in range(parts)]
        for i, path in enumerate(sorted(kernels)):
            groups[i % parts].append(path)
        jobs = []
        for g in groups:
            if not g:
                continue
            body, table = pre, ""
            for i, path in enumerate(g):
                ns = "smith_%d" % i
                src = kernels[path]
                body += "\nnamespace %s {\n%s\n" % (ns, src)
                for n in dict.fromkeys(re.findall(r"static void (vx_region_\d+_L\d+)_host\(void", src)):
                    table += '  {"%s", "%s", &%s::%s_host},\n' % (path, n, ns, n)
                for m in re.finditer(r"#define (VX_FN_\w+)", src):
                    body += "#undef %s\n" % m.group(1)
                body += "}  // namespace %s\n" % ns
            jobs.append((g, self._compile(body, table)))
        for g, (base, proc) in jobs:
            why = None
            if proc is None:
                so = base
            else:
                log = proc.communicate()[0]
                if proc.returncode == 0:
                    os.replace(base + ".so.tmp", base + ".so")
                    so = base + ".so"
                else:
                    so, why = None, "g++ failed on the emitted kernels: " + log[-3000:]
            for path in g:
                self.objects[_key(path)] = (so, path, why)

    def build(self, path):
        """The harness object of the program now in `path` (the reducer rewrites one file)."""
        if _key(path) not in self.objects:
            self.prebuild([path], parts=1)
        return self.objects[_key(path)]

    def run(self, path, mode):
        so, program, why = self.build(path)
        if so is None:
            return R.Result("harness", "", why)
        env = {"VX_CUDA_DRIVER": self.driver, "VX_FAKE_CUDA_SO": so, "VX_FAKE_CUDA_PROGRAM": program,
               "VX_CACHE_DIR": os.path.join(self.work, "kernel_cache"), "UBSAN_OPTIONS": "print_stacktrace=1"}
        r = R.run([self.vx, "run", "-v", "--offload=" + mode, path], env, timeout=180)
        return judge(r)


class RealGpu(FakeGpu):
    """`--gpu real`: the GPU tiers on the machine's own GPU and driver (tools/device-check)."""

    def __init__(self, vx, work):
        self.vx, self.work, self.objects, self.why = vx, work, {}, None

    def prebuild(self, paths, parts=2):
        pass

    def run(self, path, mode):
        r = R.run([self.vx, "run", "-v", "--offload=" + mode, path], {}, timeout=180)
        return judge(r)


def judge(r):
    """The GPU tiers' own failures: UBSan in the harness, no device, a verify mismatch, a fallback."""
    if re.search(r"k_[0-9a-f]+\.cpp:\d+:\d+: runtime error", r.err):
        r.status = "ubsan"
    if isinstance(r.status, int) and "no CUDA device" in r.err:
        r.status = "no-device"  # the stand-in failed to load: never a silent pass
    bad = [ln for ln in r.err.splitlines() if "differs from the interpreter" in ln or "outside its documented" in ln]
    if bad and isinstance(r.status, int):
        r.status = "verify-mismatch"
        r.err = "\n".join(bad) + "\n" + r.err
    fell = [ln for ln in r.err.splitlines() if "region runs on the interpreter" in ln]
    if fell and isinstance(r.status, int):
        # every generated region must run on the (stand-in) GPU: a fallback hides the tier
        r.status = "fallback"
        r.err = "\n".join(fell) + "\n" + r.err
    return r
