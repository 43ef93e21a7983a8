// libFuzzer harness: `vx emit-cuda FILE` without --cubin: the CUDA C++ text of every region
// (offload/emit_cuda.hpp) of a program the pipeline's front end (parse, check, kernel rules)
// accepts. NVRTC is not used.
#include "fuzz_common.hpp"
#include "offload/emit_cuda.hpp"
#include "pipeline/pipeline.hpp"
#include "token_mutator.hpp"

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.vx");
  vx::fuzz::on_large_stack([&] {
    vx::pipeline::Compiled c = vx::pipeline::compile(file);
    if (!c.ok()) return;
    std::ostream& out = vx::fuzz::null_stream();
    auto regions = vx::offload::emit_regions(*c.program);
    for (auto& r : regions) out << (r.ok ? r.source : r.reason);
    out << vx::offload::cuda_translation_unit(regions).size();
  });
  return 0;
}
