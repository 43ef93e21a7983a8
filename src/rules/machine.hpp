// Machine capabilities (DESIGN §6, spec/kernel-rules.md §7): what a target device offers the
// kernel rules — blocks and lanes, shared memory, atomics, the copy engine. A machine file in
// fleet/ is Vx source made of `const` items, read with the Vx parser; the built-in default is
// the H100 SXM (fleet/h100-sxm.vx), which a unit test keeps equal to the file.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "check/types.hpp"
#include "support/diagnostics.hpp"

namespace vx {

enum class DeviceKind : uint8_t { None, Nvidia, Apple };
enum class CopyEngine : uint8_t { None, CpAsync, Tma };

struct Machine {
  std::string name = "h100-sxm";  // the file's stem, for messages
  DeviceKind device = DeviceKind::Nvidia;
  int compute_capability = 90;
  int64_t lanes_per_block = 1024;
  int64_t smem_per_block = 232448;  // bytes
  int64_t max_blocks[3] = {2147483647, 65535, 65535};
  bool atomic_i32 = true, atomic_u32 = true, atomic_i64 = true, atomic_u64 = true,
       atomic_f32 = true;
  bool atomic_relaxed_only = false;
  CopyEngine copy_engine = CopyEngine::Tma;
  int64_t multiprocessors = 132;
  int64_t memory_bytes = 85899345920;
  int64_t memory_bandwidth_gb_s = 3350;

  bool has_blocks_and_lanes() const { return device != DeviceKind::None && lanes_per_block > 0; }
  bool has_atomic(Scalar s) const;
};

// The machine used when no --machine is given: the H100 SXM.
Machine default_machine();

// Reads a machine file. Returns false with `error` set ("fleet/x.vx:3:7: error[E0600]: …") when
// the file cannot be read, has a syntax error, names an unknown constant, sets one twice or to a
// value outside its range, or lacks a required one (DEVICE, LANES_PER_BLOCK, SMEM_PER_BLOCK)
// (spec/kernel-rules.md §7, E0600 in spec/errors.md). When the file was read, `diags` (if given)
// receives the diagnostic, against the machine file, for rendering in the human or JSON form.
bool load_machine(const std::string& path, Machine& out, std::string& error,
                  std::unique_ptr<Diagnostics>* diags = nullptr);

}  // namespace vx
