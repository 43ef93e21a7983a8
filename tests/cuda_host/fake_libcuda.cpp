// A stand-in for the CUDA driver (libcuda.so.1) for tests on machines without a GPU: it runs the
// offload runner's launches on the host harness, so that CI exercises everything `vx run
// --offload=gpu|verify` does around a launch — NVRTC compiles, the kernel cache, device copies and
// their validity flags, sync marks, error flags, verify's comparison and its mismatch report —
// with the same emitted kernels compiled by g++ against tests/cuda_host/cuda_host.hpp.
//
// Environment (read at cuInit):
//   VX_FAKE_CUDA_SO       the harness shared objects (':'-separated) that cuda_host_test builds;
//                         each exports vx_host_entries (program, kernel, host entry) and
//                         vx_host_launch (grid, block, entry, kernelParams)
//   VX_FAKE_CUDA_PROGRAM  the program whose kernels cuModuleGetFunction finds (kernel names
//                         repeat across programs)
//   VX_FAKE_CUDA_COPIES  a file to which each copy of more than 4 bytes between host and device
//                        appends a line, `up BYTES` or `down BYTES` (the Python package's test
//                        that a CUDA tensor is used in place, tests/python_test.py)
//   VX_FAKE_CUDA_FLIP     n > 0: the n-th download of more than 4 bytes comes back with the
//                         lowest bit of its first byte flipped (a wrong GPU result, for verify)
// "Device memory" is host memory; the module image (NVRTC's cubin) is accepted and not read.
#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace {

struct Entry {
  const char* program;
  const char* kernel;
  void (*fn)(void**);
};
using Launch = bool (*)(const unsigned*, const int*, void (*)(void**), void**, char*, int);

constexpr int kSuccess = 0, kInvalidValue = 1, kNotInitialized = 3, kNotFound = 500,
              kLaunchFailed = 719;

struct State {
  bool ready = false;
  std::string program;
  std::map<std::string, std::pair<void (*)(void**), Launch>> kernels;  // kernel name -> entry
  long flip_at = 0, downloads = 0;
  std::string last_error;
};
State& state() {
  static State s;
  return s;
}

using Clock = std::chrono::steady_clock;

void log_copy(const char* direction, size_t bytes) {
  const char* path = std::getenv("VX_FAKE_CUDA_COPIES");
  if (!path || bytes <= 4) return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s %zu\n", direction, bytes);
    std::fclose(f);
  }
}

}  // namespace

extern "C" {

int cuInit(unsigned) {
  State& s = state();
  if (s.ready) return kSuccess;
  const char* sos = std::getenv("VX_FAKE_CUDA_SO");
  const char* program = std::getenv("VX_FAKE_CUDA_PROGRAM");
  if (!sos || !program) return kNotInitialized;
  s.program = program;
  if (const char* f = std::getenv("VX_FAKE_CUDA_FLIP")) s.flip_at = std::atol(f);
  std::string list = sos;
  for (size_t at = 0; at <= list.size();) {
    const size_t end = std::min(list.find(':', at), list.size());
    const std::string path = list.substr(at, end - at);
    at = end + 1;
    if (path.empty()) continue;
    void* so = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!so) return kNotInitialized;
    auto* table = reinterpret_cast<const Entry*>(dlsym(so, "vx_host_entries"));
    auto launch = reinterpret_cast<Launch>(dlsym(so, "vx_host_launch"));
    if (!table || !launch) return kNotInitialized;
    for (const Entry* e = table; e->program; ++e)
      if (s.program == e->program) s.kernels[e->kernel] = {e->fn, launch};
  }
  s.ready = true;
  return kSuccess;
}

int cuDeviceGetCount(int* n) {
  *n = state().ready ? 1 : 0;
  return kSuccess;
}
int cuDeviceGet(int* dev, int ordinal) {
  *dev = ordinal;
  return ordinal == 0 ? kSuccess : kInvalidValue;
}
int cuDeviceGetAttribute(int* v, int attribute, int) {
  *v = attribute == 75 ? 9 : attribute == 76 ? 0 : 0;  // compute capability 9.0: NVRTC builds sm_90
  return kSuccess;
}
int cuDeviceGetName(char* name, int len, int) {
  std::snprintf(name, static_cast<size_t>(len),
                "vx host harness (tests/cuda_host/fake_libcuda.cpp)");
  return kSuccess;
}
int cuDevicePrimaryCtxRetain(void** ctx, int) {
  static int context;
  *ctx = &context;
  return kSuccess;
}
int cuCtxSetCurrent(void*) { return kSuccess; }
int cuCtxSynchronize() { return kSuccess; }

int cuModuleLoadData(void** module, const void* image) {
  static int the_module;
  if (!image) return kInvalidValue;
  *module = &the_module;
  return kSuccess;
}
int cuModuleGetFunction(void** fn, void*, const char* name) {
  auto it = state().kernels.find(name);
  if (it == state().kernels.end()) return kNotFound;
  *fn = &it->second;
  return kSuccess;
}

int cuMemAlloc_v2(uint64_t* ptr, size_t bytes) {
  void* p = std::calloc(bytes ? bytes : 1, 1);
  if (!p) return 2;  // CUDA_ERROR_OUT_OF_MEMORY
  *ptr = reinterpret_cast<uint64_t>(p);
  return kSuccess;
}
int cuMemFree_v2(uint64_t ptr) {
  std::free(reinterpret_cast<void*>(ptr));
  return kSuccess;
}
int cuMemcpyHtoD_v2(uint64_t dst, const void* src, size_t bytes) {
  std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
  log_copy("up", bytes);
  return kSuccess;
}
int cuMemcpyDtoH_v2(void* dst, uint64_t src, size_t bytes) {
  State& s = state();
  std::memcpy(dst, reinterpret_cast<const void*>(src), bytes);
  log_copy("down", bytes);
  if (bytes > 4 && ++s.downloads == s.flip_at) static_cast<unsigned char*>(dst)[0] ^= 1;
  return kSuccess;
}

int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned, void*, void** params, void**) {
  auto* k = static_cast<std::pair<void (*)(void**), Launch>*>(f);
  const unsigned grid[3] = {gx, gy, gz};
  const int block[3] = {static_cast<int>(bx), static_cast<int>(by), static_cast<int>(bz)};
  char error[512] = "";
  if (!k->second(grid, block, k->first, params, error, sizeof error)) {
    state().last_error = error;
    return kLaunchFailed;
  }
  return kSuccess;
}

// The harness gives each kernel a static buffer for its dynamic shared memory (vx_prelude.cuh):
// only the limit the runner asks for is checked, against the largest SMEM_PER_BLOCK in fleet/.
int cuFuncSetAttribute(void*, int attr, int value) {
  return attr == 8 && value >= 0 && value <= 227 * 1024 ? kSuccess
                                                        : 1;  // 1: CUDA_ERROR_INVALID_VALUE
}

int cuEventCreate(void** ev, unsigned) {
  *ev = new Clock::time_point();
  return kSuccess;
}
int cuEventDestroy_v2(void* ev) {
  delete static_cast<Clock::time_point*>(ev);
  return kSuccess;
}
int cuEventRecord(void* ev, void*) {
  *static_cast<Clock::time_point*>(ev) = Clock::now();
  return kSuccess;
}
int cuEventSynchronize(void*) { return kSuccess; }
int cuEventElapsedTime(float* ms, void* a, void* b) {
  *ms = std::chrono::duration<float, std::milli>(*static_cast<Clock::time_point*>(b) -
                                                 *static_cast<Clock::time_point*>(a))
            .count();
  return kSuccess;
}

int cuGetErrorString(int rc, const char** text) {
  static std::string t;
  t = rc == kLaunchFailed ? "launch failed in the host harness: " + state().last_error
                          : "fake driver error " + std::to_string(rc);
  *text = t.c_str();
  return kSuccess;
}

}  // extern "C"
