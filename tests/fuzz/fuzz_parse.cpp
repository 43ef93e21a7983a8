// libFuzzer harness: `vx parse FILE --dump=ast` (parse/parser.hpp), the diagnostics in both
// formats.
#include "fuzz_common.hpp"
#include "parse/parser.hpp"
#include "support/diagnostics.hpp"
#include "token_mutator.hpp"

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.vx");
  vx::fuzz::on_large_stack([&] {
    vx::Diagnostics diags(file);
    auto parsed = vx::parse_program(*file, diags);
    std::ostream& out = vx::fuzz::null_stream();
    if (parsed) vx::dump_ast(out, *parsed, *file);
    vx::emit_diagnostics(out, diags, vx::ErrorFormat::Human);
    vx::emit_diagnostics(out, diags, vx::ErrorFormat::Json);
  });
  return 0;
}
