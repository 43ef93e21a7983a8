// libFuzzer harness: machine files (rules/machine.hpp's load_machine, read through a memfd as
// `--machine FILE` reads a path), then the kernel rules and the emitter of a fixed kernel under
// the machine read.
#include <sys/mman.h>
#include <unistd.h>

#include "check/checker.hpp"
#include "fuzz_common.hpp"
#include "lower/lower.hpp"
#include "offload/emit_cuda.hpp"
#include "parse/parser.hpp"
#include "rules/kernel_rules.hpp"
#include "rules/machine.hpp"

namespace {
// A kernel that uses what a machine file describes: blocks, lanes, shared memory, an atomic.
const char* const kKernel = R"(import core::sync::atomic;
fn main() {
    let mut out = transfer(Tensor<f32, [4, 256]>::fill(0.0), Memory::HBM);
    let bins = transfer(Tensor<u32, [8]>::fill(0u32), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..4 across blocks {
            let mut tile = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            for l in 0..256 across lanes(256) {
                tile[l] = (b + l) as f32;
                let _a = atomic_fetch_add_u32(&bins, l % 8, 1u32, AtomicOrdering::Relaxed);
            }
            let m = lanes::max(&tile, 256);
            for l in 0..256 across lanes(256) {
                out[b][l] = tile[l] + m;
            }
        }
    }
}
)";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  static int fd = memfd_create("fuzz-machine.vx", 0);
  if (fd < 0) abort();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  vx::fuzz::on_large_stack([&] {
    vx::Machine machine;
    std::string error;
    if (!vx::load_machine(path, machine, error)) return;
    auto file = std::make_shared<vx::SourceFile>("kernel.vx", kKernel);
    vx::Diagnostics diags(file);
    auto parsed = vx::parse_program(*file, diags);
    if (!parsed) return;
    auto program = vx::check_program(*parsed, diags);
    if (!program) return;
    vx::lower::lower_program(*program);
    vx::check_kernel_rules(*program, machine, diags);
    vx::emit_diagnostics(vx::fuzz::null_stream(), diags, vx::ErrorFormat::Human);
  });
  return 0;
}
