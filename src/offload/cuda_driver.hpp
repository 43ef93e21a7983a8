// The CUDA driver API, opened with dlopen (libcuda.so.1) so that vx runs where there is no
// driver or no GPU (DESIGN §5). Only what the offload tier uses: one context on device 0,
// modules from cubins, device memory, launches, events.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vx::offload {

class CudaDriver {
 public:
  CudaDriver() = default;
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;
  ~CudaDriver();
  // Loads libcuda.so.1, initialises it and makes a context on device 0. On failure `why` says
  // which part is missing (no driver library, cuInit failed, no device).
  bool open(std::string& why);
  bool ready() const { return ctx_ != nullptr; }
  std::string arch() const { return "sm_" + std::to_string(major_) + std::to_string(minor_); }
  std::string name() const { return name_; }

  bool load_module(const std::vector<char>& cubin, void** module, std::string& err);
  bool get_function(void* module, const std::string& name, void** fn, std::string& err);
  bool alloc(size_t bytes, uint64_t* ptr);
  void free(uint64_t ptr);
  bool upload(uint64_t dst, const void* src, size_t bytes);
  bool download(void* dst, uint64_t src, size_t bytes);
  // Launches and waits; `ms` gets the time between CUDA events around the launch (if non-null).
  // `smem`: bytes of dynamic shared memory (past 48 KiB the function's limit is raised first).
  bool launch(void* fn, const unsigned grid[3], const int block[3], void** params, float* ms,
              std::string& err, int64_t smem = 0);

 private:
  std::string error_text(int rc) const;
  void* lib_ = nullptr;
  void* ctx_ = nullptr;
  int major_ = 0, minor_ = 0;
  std::string name_;
  // driver entry points
  int (*cuInit_)(unsigned) = nullptr;
  int (*cuDeviceGetCount_)(int*) = nullptr;
  int (*cuDeviceGet_)(int*, int) = nullptr;
  int (*cuDeviceGetAttribute_)(int*, int, int) = nullptr;
  int (*cuDeviceGetName_)(char*, int, int) = nullptr;
  int (*cuDevicePrimaryCtxRetain_)(void**, int) = nullptr;
  int (*cuCtxSetCurrent_)(void*) = nullptr;
  int (*cuModuleLoadData_)(void**, const void*) = nullptr;
  int (*cuModuleGetFunction_)(void**, void*, const char*) = nullptr;
  int (*cuMemAlloc_)(uint64_t*, size_t) = nullptr;
  int (*cuMemFree_)(uint64_t) = nullptr;
  int (*cuMemcpyHtoD_)(uint64_t, const void*, size_t) = nullptr;
  int (*cuMemcpyDtoH_)(void*, uint64_t, size_t) = nullptr;
  int (*cuLaunchKernel_)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                         unsigned, void*, void**, void**) = nullptr;
  int (*cuCtxSynchronize_)() = nullptr;
  int (*cuEventCreate_)(void**, unsigned) = nullptr;
  int (*cuEventDestroy_)(void*) = nullptr;
  int (*cuEventRecord_)(void*, void*) = nullptr;
  int (*cuEventSynchronize_)(void*) = nullptr;
  int (*cuEventElapsedTime_)(float*, void*, void*) = nullptr;
  int (*cuGetErrorString_)(int, const char**) = nullptr;
  int (*cuFuncSetAttribute_)(void*, int, int) = nullptr;
  void* ev_start_ = nullptr;
  void* ev_stop_ = nullptr;
};

}  // namespace vx::offload
