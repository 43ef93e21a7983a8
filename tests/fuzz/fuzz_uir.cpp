// libFuzzer harness: `vx run FILE.uir --explain` (spec/uir.md): the reader, the checker with the
// explain tables in both formats, then the runner.
#include "fuzz_common.hpp"
#include "rules/explain.hpp"
#include "uir/uir.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  auto file = vx::fuzz::input_file(data, size, "fuzz.uir");
  vx::fuzz::on_large_stack([&] {
    std::ostream& out = vx::fuzz::null_stream();
    vx::Diagnostics diags(file);
    auto program = vx::uir::read_uir(file, diags);
    if (program) {
      std::vector<vx::kr::StoreExplain> explained;
      if (vx::uir::check_uir(*program, diags, &explained)) {
        vx::kr::emit_explain(out, *file, explained, vx::ErrorFormat::Human);
        vx::kr::emit_explain(out, *file, explained, vx::ErrorFormat::Json);
        // as fuzz_run: a mutated range stops with a runtime error
        vx::uir::run_uir(*program, out, out, nullptr, vx::ErrorFormat::Human, 2'000'000);
      }
    }
    vx::emit_diagnostics(out, diags, vx::ErrorFormat::Human);
    vx::emit_diagnostics(out, diags, vx::ErrorFormat::Json);
  });
  return 0;
}
