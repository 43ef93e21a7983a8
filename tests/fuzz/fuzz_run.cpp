// libFuzzer harness: `vx run FILE --offload=off` through the pipeline: parse, check, kernel
// rules, offload marks, then the interpreter (interp/interpreter.hpp) with every region in it.
//
// Limits: a mutated program easily loops for hours or allocates a huge tensor, so the run has
// the interpreter's limits (`vx run --max-steps N --max-seconds S`, VX_MEMORY_LIMIT,
// spec/semantics.md §8.1): past them it stops with a runtime error, as the CLI does.
#include <cstdlib>

#include "fuzz_common.hpp"
#include "pipeline/pipeline.hpp"
#include "token_mutator.hpp"

namespace {
constexpr int64_t kMaxSteps = 2'000'000;  // loop passes and calls
constexpr double kMaxSeconds = 5;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("VX_HOST_THREADS", "1", 0);  // the run is deterministic and its coverage too
  setenv("VX_MEMORY_LIMIT", "256M", 0);
  return 0;
}

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.vx");
  vx::fuzz::on_large_stack([&] {
    vx::pipeline::Options options;
    options.through = vx::pipeline::Step::OffloadMarks;
    vx::pipeline::Compiled c = vx::pipeline::compile(file, options);
    if (!c.ok()) return;
    vx::pipeline::RunRequest run;
    run.offload.mode = "off";
    run.max_steps = kMaxSteps;
    run.max_seconds = kMaxSeconds;
    vx::pipeline::run(c, run, vx::fuzz::null_stream(), vx::fuzz::null_stream());
  });
  return 0;
}
