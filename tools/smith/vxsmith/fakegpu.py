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

    def build(self, path):
        """The harness object for one program (cached by the hash of the emitted source)."""
        if path in self.objects:
            return self.objects[path]
        r = R.run([self.vx, "emit-cuda", path])
        if r.status != 0:
            self.objects[path] = (None, "emit-cuda status %s: %s" % (r.status, r.err[-300:]))
            return self.objects[path]
        names = re.findall(r"__global__\s+(?:__launch_bounds__\([^)]*\)\s+)?void\s+(vx_region_\d+_L\d+)", r.out)
        names = list(dict.fromkeys(names))
        table = "".join('  {"smith", "%s", &%s_host},\n' % (n, n) for n in names)
        tu = ('#define VX_HOST_HARNESS\n#include "cuda_host.hpp"\n#include <cstdio>\n' + r.out +
              "\nstruct VxHostEntry { const char* program; const char* kernel; void (*fn)(void**); };\n"
              'extern "C" __attribute__((visibility("default"))) const VxHostEntry vx_host_entries[] = {\n' + table +
              "  {nullptr, nullptr, nullptr}};\n"
              'extern "C" __attribute__((visibility("default"))) bool vx_host_launch(const unsigned* grid,\n'
              "    const int* block, void (*fn)(void**), void** args, char* error, int error_size) {\n"
              "  std::string e;\n  const bool ok = vx_host::launch(grid, block, fn, args, e);\n"
              '  std::snprintf(error, (size_t)error_size, "%s", e.c_str());\n  return ok;\n}\n')
        h = hashlib.sha1((tu + " ".join(FLAGS)).encode()).hexdigest()[:16]
        base = os.path.join(self.work, "k_" + h)
        if not os.path.exists(base + ".so"):
            with open(base + ".cpp", "w") as f:
                f.write(tu)
            p = subprocess.run([self.cxx] + FLAGS + ["-I" + os.path.join(self.src, "tests", "cuda_host"),
                                                     base + ".cpp", "-o", base + ".so.tmp", self.boost],
                               capture_output=True, text=True)
            if p.returncode != 0:
                self.objects[path] = (None, "g++ failed on the emitted kernels: " + p.stderr[-2000:])
                return self.objects[path]
            os.replace(base + ".so.tmp", base + ".so")
        self.objects[path] = (base + ".so", None)
        return self.objects[path]

    def run(self, path, mode):
        so, why = self.build(path)
        if so is None:
            return R.Result("harness", "", why)
        env = {"VX_CUDA_DRIVER": self.driver, "VX_FAKE_CUDA_SO": so, "VX_FAKE_CUDA_PROGRAM": "smith",
               "VX_CACHE_DIR": os.path.join(self.work, "kernel_cache"), "UBSAN_OPTIONS": "print_stacktrace=1"}
        r = R.run([self.vx, "run", "-v", "--offload=" + mode, path], env, timeout=180)
        if re.search(r"k_[0-9a-f]+\.cpp:\d+:\d+: runtime error", r.err):
            r.status = "ubsan"
        if isinstance(r.status, int) and "no CUDA device" in r.err:
            r.status = "no-device"  # the stand-in failed to load: never a silent pass
        return r
