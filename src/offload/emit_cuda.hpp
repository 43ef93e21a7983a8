// The CUDA C++ emitter (spec/offload.md, DESIGN §5): one `__global__` function per `spawn on`
// region of a checked typed program, with the sequential meaning of the interpreter bit for bit
// (wrapping integers, saturating casts, the tree order of lanes:: reductions, vx_math.h for
// math). Needs a program the checker accepted; a region it cannot emit gets a reason instead of
// code, and the runner keeps that region on the interpreter (never silently).
#pragma once
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "offload/emit_options.hpp"

namespace vx::offload {

// One parameter of an emitted kernel, in order. The launcher passes, for each, a pointer to a
// value of the parameter's C type (the ABI of cuLaunchKernel's kernelParams).
struct KernelParam {
  enum class Kind : uint8_t {
    Scalar,     // the captured scalar local `slot`, by value (C type of `scalar`)
    TensorPtr,  // the element pointer of the captured HBM tensor `slot`
    TensorDim,  // dimension `dim` of the captured HBM tensor `slot` (long long), when not static
    ErrorFlag,  // int*: set to a nonzero code when the kernel met a runtime error
    Array,      // the captured array local `slot`, by value: a vx_arr of `count` `scalar`s
  };
  Kind kind = Kind::Scalar;
  int slot = -1;
  int dim = 0;
  Scalar scalar = Scalar::I32;
  int64_t count = 0;  // Array: its elements
};

// The range of one block loop: the grid's extent in one dimension is its pass count. Its bounds
// read only captured scalars (checked by the emitter), so the launcher evaluates them on the host.
struct GridLoop {
  const tir::Expr* start = nullptr;
  const tir::Expr* end = nullptr;
  bool inclusive = false;
};

struct EmittedRegion {
  const tir::Stmt* spawn = nullptr;
  int function = -1;     // index of the function that holds the region
  int index = 0;         // the region's number in source order (0, 1, …)
  std::string name;      // the kernel's name: vx_region_<index>_L<line>
  std::string location;  // file:line:col of `spawn`
  bool ok = false;
  std::string reason;  // why it cannot be emitted, when !ok
  std::string source;  // the kernel (and its device functions), without the prelude
  std::vector<KernelParam> params;
  std::vector<GridLoop> grid;   // grid[0] is blockIdx.x (the innermost block loop)
  int block[3] = {1, 1, 1};     // lanes per dimension (compile-time constants in the kernel)
  bool float_atomics = false;   // f32 atomics: results depend on the order of the updates
  bool atomic_results = false;  // uses values atomics return: results depend on the order too
  int64_t dynamic_smem = 0;     // bytes of dynamic shared memory the launch passes (big tiles)
  bool prints = false;  // has a `dbg!`: its printf lines go to stderr (the runner, spec/offload.md)
};

// Every `spawn on` region of the program, in source order, emitted; `options` may switch
// optimisations off (emit_options.hpp).
std::vector<EmittedRegion> emit_regions(const tir::Program& program,
                                        const EmitOptions& options = {});

// What every kernel needs before it: vx_math.h and the runtime helpers (integer semantics,
// casts, error flags). Compiles under NVRTC, nvcc, and g++ with tests/cuda_host/cuda_host.hpp.
const std::string& cuda_prelude();

// One translation unit: the prelude and the kernels of `regions` (those that are ok).
std::string cuda_translation_unit(const std::vector<EmittedRegion>& regions);

// The codes a kernel writes to its error flag (kernel_errors.def).
enum KernelError : int {
#define VX_KERNEL_ERROR(Name, code) kErr##Name = code,
#include "offload/kernel_errors.def"
#undef VX_KERNEL_ERROR
};

}  // namespace vx::offload
