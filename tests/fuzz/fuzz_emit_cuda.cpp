// libFuzzer harness: `vx emit-cuda FILE` without --cubin: the CUDA C++ text of every region
// (offload/emit_cuda.hpp) of a program the checker and the kernel rules accept. NVRTC is not used.
#include "check/checker.hpp"
#include "check/kernel_rules.hpp"
#include "check/machine.hpp"
#include "fuzz_common.hpp"
#include "offload/emit_cuda.hpp"
#include "parse/parser.hpp"
#include "token_mutator.hpp"

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.vx");
  vx::fuzz::on_large_stack([&] {
    vx::Diagnostics diags(file);
    auto parsed = vx::parse_program(*file, diags);
    if (!parsed) return;
    auto program = vx::check_program(*parsed, diags);
    if (!program || !vx::check_kernel_rules(*program, vx::default_machine(), diags)) return;
    std::ostream& out = vx::fuzz::null_stream();
    auto regions = vx::offload::emit_regions(*program);
    for (auto& r : regions) out << (r.ok ? r.source : r.reason);
    out << vx::offload::cuda_translation_unit(regions).size();
  });
  return 0;
}
