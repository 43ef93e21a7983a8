// libFuzzer harness: `vx run FILE --offload=off`: parse, check, kernel rules, then the
// interpreter (interp/interpreter.hpp) with every region in the interpreter.
//
// Limits: a mutated program easily loops for hours or allocates a huge tensor, so the run has
// the interpreter's limits (`vx run --max-steps N --max-seconds S`, VX_MEMORY_LIMIT,
// spec/semantics.md §8.1): past them it stops with a runtime error, as the CLI does.
#include <cstdlib>

#include "check/checker.hpp"
#include "check/kernel_rules.hpp"
#include "check/machine.hpp"
#include "fuzz_common.hpp"
#include "interp/interpreter.hpp"
#include "parse/parser.hpp"
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
    vx::Diagnostics diags(file);
    auto parsed = vx::parse_program(*file, diags);
    if (!parsed) return;
    auto program = vx::check_program(*parsed, diags);
    if (!program || !vx::check_kernel_rules(*program, vx::default_machine(), diags)) return;
    vx::RunOptions run;
    run.out = &vx::fuzz::null_stream();
    run.err = &vx::fuzz::null_stream();
    run.max_steps = kMaxSteps;
    run.max_seconds = kMaxSeconds;
    vx::run_program(*program, run);
  });
  return 0;
}
