// libFuzzer harness: `vx parse FILE --dump=ast`: the pipeline's parse step and its dump, the
// diagnostics in both formats.
#include "fuzz_common.hpp"
#include "pipeline/pipeline.hpp"
#include "token_mutator.hpp"

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.vx");
  vx::fuzz::on_large_stack([&] {
    vx::pipeline::Options options;
    options.through = vx::pipeline::Step::Parse;
    vx::pipeline::Compiled c = vx::pipeline::compile(file, options);
    std::ostream& out = vx::fuzz::null_stream();
    if (c.parsed) vx::pipeline::print_dump(out, vx::pipeline::Dump::Ast, c);
    vx::emit_diagnostics(out, *c.diags, vx::ErrorFormat::Human);
    vx::emit_diagnostics(out, *c.diags, vx::ErrorFormat::Json);
  });
  return 0;
}
