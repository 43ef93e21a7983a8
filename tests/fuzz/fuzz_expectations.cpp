// libFuzzer harness: the conformance runner's readers (cli/conformance.hpp): a program's
// expectation comments (`//~ ERROR`, `// run-flags:`, `// env:` …, and `#` for .uir), and the
// diagnostics and locations read from an implementation's stderr, in the human form and as JSON
// lines. Nothing is run.
#include <string_view>

#include "cli/conformance.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  namespace c = vx::conformance;
  // The same bytes as a .vx program, a .uir program and an implementation's stderr.
  for (std::string_view mark : {"//", "#"}) {
    c::Expectations e = c::parse_expectations(text, mark);
    for (auto& d : e.errors)
      if (d.code.empty() && d.line < 0) abort();  // touch what was read
  }
  for (auto& d : c::scrape_diagnostics(text)) (void)c::same_program(d.path, "fuzz.vx");
  (void)c::scrape_locations(text);
  // The same stderr as JSON lines (`--impl-format=json`).
  for (auto& d : c::read_reported(text, c::DiagnosticFormat::Json).errors)
    (void)c::same_program(d.path, "fuzz.vx");
  return 0;
}
