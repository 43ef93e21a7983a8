#include "offload/cuda_driver.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <type_traits>

namespace vx::offload {

// What vx made in the context goes (device buffers are freed by their owner, the runner); the
// primary context and the library stay until the process ends, as the driver expects.
CudaDriver::~CudaDriver() {
  if (!ctx_) return;
  cuCtxSetCurrent_(ctx_);
  if (ev_start_) cuEventDestroy_(ev_start_);
  if (ev_stop_) cuEventDestroy_(ev_stop_);
}

std::string CudaDriver::error_text(int rc) const {
  const char* s = nullptr;
  if (cuGetErrorString_) cuGetErrorString_(rc, &s);
  return s ? std::string(s) : "CUDA error " + std::to_string(rc);
}

bool CudaDriver::open(std::string& why) {
  if (ctx_) return true;
  // $VX_CUDA_DRIVER alone when set (a driver library elsewhere: the tests' stand-in); else the
  // loader path first, then where container images mount the driver.
  if (const char* own = std::getenv("VX_CUDA_DRIVER"); own && *own) {
    if (!(lib_ = dlopen(own, RTLD_NOW | RTLD_LOCAL))) {
      why = std::string("no CUDA driver (VX_CUDA_DRIVER=") + own + " cannot be opened)";
      return false;
    }
  }
  for (const char* name : {"libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1",
                           "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1"}) {
    if (lib_ || (lib_ = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  }
  if (!lib_) {
    why = "no CUDA driver (libcuda.so.1 not found)";
    return false;
  }
  bool all = true;
  auto get = [&](auto& f, const char* name) {
    f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib_, name));
    if (!f) all = false;
  };
  get(cuInit_, "cuInit");
  get(cuDeviceGetCount_, "cuDeviceGetCount");
  get(cuDeviceGet_, "cuDeviceGet");
  get(cuDeviceGetAttribute_, "cuDeviceGetAttribute");
  get(cuDeviceGetName_, "cuDeviceGetName");
  get(cuDevicePrimaryCtxRetain_, "cuDevicePrimaryCtxRetain");
  get(cuCtxSetCurrent_, "cuCtxSetCurrent");
  get(cuModuleLoadData_, "cuModuleLoadData");
  get(cuModuleGetFunction_, "cuModuleGetFunction");
  get(cuMemAlloc_, "cuMemAlloc_v2");
  get(cuMemFree_, "cuMemFree_v2");
  get(cuMemcpyHtoD_, "cuMemcpyHtoD_v2");
  get(cuMemcpyDtoH_, "cuMemcpyDtoH_v2");
  get(cuLaunchKernel_, "cuLaunchKernel");
  get(cuCtxSynchronize_, "cuCtxSynchronize");
  get(cuEventCreate_, "cuEventCreate");
  get(cuEventDestroy_, "cuEventDestroy_v2");
  get(cuEventRecord_, "cuEventRecord");
  get(cuEventSynchronize_, "cuEventSynchronize");
  get(cuEventElapsedTime_, "cuEventElapsedTime");
  get(cuGetErrorString_, "cuGetErrorString");
  get(cuFuncSetAttribute_, "cuFuncSetAttribute");
  if (!all) {
    why = "the CUDA driver lacks an entry point vx needs";
    return false;
  }
  if (int rc = cuInit_(0); rc != 0) {
    why = "cuInit failed: " + error_text(rc);
    return false;
  }
  int count = 0;
  if (cuDeviceGetCount_(&count) != 0 || count == 0) {
    why = "the CUDA driver sees no device";
    return false;
  }
  int dev = 0;
  cuDeviceGet_(&dev, 0);
  cuDeviceGetAttribute_(&major_, 75, dev);  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
  cuDeviceGetAttribute_(&minor_, 76, dev);  // …_MINOR
  char name[256] = {};
  cuDeviceGetName_(name, sizeof name, dev);
  name_ = name;
  void* ctx = nullptr;
  if (int rc = cuDevicePrimaryCtxRetain_(&ctx, dev); rc != 0) {
    why = "no CUDA context: " + error_text(rc);
    return false;
  }
  cuCtxSetCurrent_(ctx);
  cuEventCreate_(&ev_start_, 0);
  cuEventCreate_(&ev_stop_, 0);
  ctx_ = ctx;
  return true;
}

bool CudaDriver::load_module(const std::vector<char>& cubin, void** module, std::string& err) {
  cuCtxSetCurrent_(ctx_);
  if (int rc = cuModuleLoadData_(module, cubin.data()); rc != 0) {
    err = "cuModuleLoadData: " + error_text(rc);
    return false;
  }
  return true;
}

bool CudaDriver::get_function(void* module, const std::string& name, void** fn, std::string& err) {
  if (int rc = cuModuleGetFunction_(fn, module, name.c_str()); rc != 0) {
    err = "cuModuleGetFunction(" + name + "): " + error_text(rc);
    return false;
  }
  return true;
}

bool CudaDriver::alloc(size_t bytes, uint64_t* ptr) {
  return cuMemAlloc_(ptr, bytes ? bytes : 1) == 0;
}
void CudaDriver::free(uint64_t ptr) { cuMemFree_(ptr); }
bool CudaDriver::upload(uint64_t dst, const void* src, size_t bytes) {
  return bytes == 0 || cuMemcpyHtoD_(dst, src, bytes) == 0;
}
bool CudaDriver::download(void* dst, uint64_t src, size_t bytes) {
  return bytes == 0 || cuMemcpyDtoH_(dst, src, bytes) == 0;
}

bool CudaDriver::launch(void* fn, const unsigned grid[3], const int block[3], void** params,
                        float* ms, std::string& err, int64_t smem) {
  cuCtxSetCurrent_(ctx_);
  constexpr int kMaxDynamicSharedSizeBytes = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  if (smem > 48 * 1024) {
    if (int rc = cuFuncSetAttribute_(fn, kMaxDynamicSharedSizeBytes, static_cast<int>(smem));
        rc != 0) {
      err = "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + std::to_string(smem) +
            "): " + error_text(rc);
      return false;
    }
  }
  if (ms) cuEventRecord_(ev_start_, nullptr);
  int rc = cuLaunchKernel_(fn, grid[0], grid[1], grid[2], static_cast<unsigned>(block[0]),
                           static_cast<unsigned>(block[1]), static_cast<unsigned>(block[2]),
                           static_cast<unsigned>(smem), nullptr, params, nullptr);
  if (rc != 0) {
    err = "cuLaunchKernel: " + error_text(rc);
    return false;
  }
  if (ms) {
    cuEventRecord_(ev_stop_, nullptr);
    cuEventSynchronize_(ev_stop_);
    cuEventElapsedTime_(ms, ev_start_, ev_stop_);
  }
  if ((rc = cuCtxSynchronize_()) != 0) {
    err = "the kernel failed: " + error_text(rc);
    return false;
  }
  return true;
}

}  // namespace vx::offload
