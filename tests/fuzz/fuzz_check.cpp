// libFuzzer harness: `vx check FILE --explain`, through the pipeline as cli/commands.cpp runs it
// (parse, check, the kernel rules on the default machine), with the explain tables and the
// diagnostics printed in both formats.
#include "fuzz_common.hpp"
#include "pipeline/pipeline.hpp"
#include "token_mutator.hpp"

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.vx");
  vx::fuzz::on_large_stack([&] {
    std::ostream& out = vx::fuzz::null_stream();
    vx::pipeline::Options options;
    options.explain = true;
    vx::pipeline::Compiled c = vx::pipeline::compile(file, options);
    if (c.program) {
      vx::kr::emit_explain(out, *file, c.explained, vx::ErrorFormat::Human);
      vx::kr::emit_explain(out, *file, c.explained, vx::ErrorFormat::Json);
    }
    vx::emit_diagnostics(out, *c.diags, vx::ErrorFormat::Human);
    vx::emit_diagnostics(out, *c.diags, vx::ErrorFormat::Json);
  });
  return 0;
}
