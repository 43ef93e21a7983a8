// libFuzzer harness: `vx run FILE --offload=off`: parse, check, kernel rules, then the
// interpreter (interp/interpreter.hpp) with every region in the interpreter.
//
// Limits: a mutated program easily loops for hours or allocates a huge tensor. The interpreter's
// own limits (`vx run --max-steps N --max-seconds S`, VX_MEMORY_LIMIT: issue 14, deliverable 3)
// are used as soon as RunOptions has them: the `requires` below picks `max_steps` and
// `max_seconds` up when they exist, and VX_MEMORY_LIMIT is set for the whole process.
// TODO(issue 14): until the `limits` branch is in main, the only limits are libFuzzer's -timeout
// and -rss_limit_mb (tools/fuzz passes them) and the input size cap (fuzz_common.hpp).
#include <cstdlib>

#include "check/checker.hpp"
#include "check/kernel_rules.hpp"
#include "check/machine.hpp"
#include "fuzz_common.hpp"
#include "interp/interpreter.hpp"
#include "parse/parser.hpp"
#include "token_mutator.hpp"

namespace {
constexpr long kMaxSteps = 2'000'000;  // past it the run stops with a runtime error

template <class Options>
void set_limits(Options& run) {
  if constexpr (requires { run.max_steps; }) run.max_steps = kMaxSteps;
  if constexpr (requires { run.max_seconds; }) run.max_seconds = 5;
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("VX_HOST_THREADS", "1", 0);  // the run is deterministic and its coverage too
  setenv("VX_MEMORY_LIMIT", "268435456", 0);
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
    set_limits(run);
    vx::run_program(*program, run);
  });
  return 0;
}
