// The structs of DLPack (dmlc/dlpack's dlpack.h, ABI version 0.x; the format PyTorch's and NumPy's
// `__dlpack__` hand out): what arguments.cpp reads from a `dltensor` capsule. Written here from
// the specification rather than taken from a package: Debian has no dlpack-dev, and these few
// structs are the stable ABI every producer of the capsule keeps.
#pragma once
#include <cstdint>

namespace vx::python::dlpack {

enum DeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // pinned host memory: readable from the host
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,  // managed memory: readable from the host
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
};

enum DataTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null: compact and row-major
  uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// The name of a capsule that `__dlpack__` returns, and the name a consumer gives it once it owns
// the tensor (and will call its deleter).
inline constexpr const char* kCapsuleName = "dltensor";
inline constexpr const char* kUsedCapsuleName = "used_dltensor";

}  // namespace vx::python::dlpack
