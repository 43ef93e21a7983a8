// libFuzzer harness: `vx check FILE --explain`, as cli/driver.cpp runs it (parse, check, the
// kernel rules on the default machine), with the explain tables and the diagnostics printed in
// both formats.
#include "check/checker.hpp"
#include "check/explain.hpp"
#include "check/kernel_rules.hpp"
#include "check/machine.hpp"
#include "fuzz_common.hpp"
#include "parse/parser.hpp"
#include "token_mutator.hpp"

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.vx");
  vx::fuzz::on_large_stack([&] {
    std::ostream& out = vx::fuzz::null_stream();
    vx::Diagnostics diags(file);
    auto parsed = vx::parse_program(*file, diags);
    if (!parsed) return;
    auto program = vx::check_program(*parsed, diags);
    if (program) {
      std::vector<vx::kr::StoreExplain> explained;
      vx::check_kernel_rules(*program, vx::default_machine(), diags, &explained);
      vx::kr::emit_explain(out, *file, explained, vx::ErrorFormat::Human);
      vx::kr::emit_explain(out, *file, explained, vx::ErrorFormat::Json);
    }
    vx::emit_diagnostics(out, diags, vx::ErrorFormat::Human);
    vx::emit_diagnostics(out, diags, vx::ErrorFormat::Json);
  });
  return 0;
}
