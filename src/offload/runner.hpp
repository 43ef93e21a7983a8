// The offload tier's RegionRunner (spec/offload.md, DESIGN §5): decides per region whether it runs
// on the GPU (--offload=auto|off|gpu|verify), compiles the program's kernels with NVRTC once,
// moves HBM tensors to and from the device, launches, times (VX_TIME_KERNEL=1, --profile) and
// verifies against the interpreter. Every region that stays on the host is reported under -v
// with its reason. With no driver or device it says `no CUDA device` once and runs on the host.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "interp/interpreter.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/marks.hpp"
#include "support/diagnostics.hpp"

namespace vx::offload {

struct OffloadOptions {
  std::string mode = "auto";  // auto | off | gpu | verify
  bool verbose = false;
  bool profile = false;
  int threshold = 2;  // auto: launches of a region before it goes to the GPU
  // How `no CUDA device` is said: a line, or a JSON object of the diagnostics' shape
  // (--error-format=json, spec/cli.md §5).
  ErrorFormat error_format = ErrorFormat::Human;
  EmitOptions emit;  // the emitter's optimisations (--no-opt, --opt-bisect-limit)
};

// The arguments of one launch, built from the interpreter's frame: the grid (from the block loops'
// ranges), and a value for every kernel parameter. `pointer_of` maps a captured tensor to the
// address the kernel gets (the host data itself for the host harness, a device copy on the GPU).
struct LaunchArgs {
  unsigned grid[3] = {1, 1, 1};
  bool empty = false;            // a block loop has no pass: nothing to launch
  std::vector<uint64_t> values;  // one 8-byte cell per parameter
  std::vector<void*> params;     // pointers into `values` (cuLaunchKernel's kernelParams)
  std::vector<std::vector<std::byte>> arrays;  // the captured arrays' elements, by value
  int error = 0;                               // the kernel's error flag lives here (host harness)
};
bool build_launch(const EmittedRegion& r, interp::Frame& frame,
                  const std::function<uint64_t(int slot, const interp::TensorView&)>& pointer_of,
                  LaunchArgs& out, std::string& why);

// Compares a tensor's bytes after a verified launch: the GPU's with the interpreter's, bit for
// bit; in a region with f32 atomics, float elements within 2^-12 of the tensor's largest
// magnitude are accepted and counted (spec/offload.md). first_difference: the first element
// that differs beyond that, or -1.
// An element's value as a mismatch message shows it (floats and halves with their bits).
std::string element_text(const std::byte* p, Scalar s);

struct VerifyResult {
  int64_t first_difference = -1;
  size_t within = 0;
};
VerifyResult compare_launch(const std::byte* host, const std::byte* gpu, size_t bytes,
                            Scalar scalar, bool float_atomics);

// What the environment says of offloading (spec/offload.md §2 and §3): VX_OFFLOAD_THRESHOLD, a
// number of launches (0 to 2^31 - 1), and VX_CACHE_MAX, a size. The first that says something
// else, as a usage error's text; empty when both are unset or good.
std::string offload_environment_error();

class OffloadRunner final : public interp::RegionRunner {
 public:
  OffloadRunner(const tir::Program& program, const OffloadOptions& options, std::ostream& err);
  ~OffloadRunner() override;
  bool active() const { return options_.mode != "off"; }
  bool run_region(const tir::Stmt& spawn, interp::Frame& frame) override;
  // A Checkpoint compares a verified launch; a Sync copies the GPU's results back (marks.hpp).
  void at_mark(const tir::Mark& mark, interp::Frame& frame) override;
  void finish();  // prints the --profile table
  // What the offload-marks pass placed; without it (no Sync marks), results are copied back
  // after every launch.
  void set_marks(const OffloadMarks& marks) { eager_ = marks.eager; }
  // Every host copy made valid now (the REPL, before it reads the session's tensors); for
  // adopted device memory, the device copy instead (the tensor is the device's).
  void copy_back();
  // --offload=gpu (spec/offload.md §3): the program's first region that the emitter emits, when
  // no device can run it (`why`: what is missing); null when there is a device or no such region.
  const tir::Stmt* region_without_device(std::string& why);
  // Device memory that is a tensor's only copy (the Python package's CUDA tensors, DLPack
  // kDLCUDA; spec/python.md §6): `dev`, `bytes` used in place by every launch and never freed;
  // `host` a buffer of as many bytes that stands for the tensor in the interpreter's frame,
  // filled from the device only when host code or the interpreter must read it (a region on the
  // host, verify, a sync mark). At copy_back the device gets the tensor back if the host wrote it
  // last. Opens the device now: false, with `why`, when there is none (or the tier is off).
  bool adopt_device_memory(std::byte* host, uint64_t dev, size_t bytes, std::string& why);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  OffloadOptions options_;
  bool eager_ = true;  // copy results back after every launch (set_marks)
};

}  // namespace vx::offload
