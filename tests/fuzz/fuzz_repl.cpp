// libFuzzer harness: `vx repl` with piped input (repl/repl.hpp's run_repl_stream, the
// Session of repl/session.hpp): inputs, continuation lines and `:` commands.
// `:load` lines are dropped: a path the fuzzer writes could name a device or a FIFO.
#include <sstream>

#include "fuzz_common.hpp"
#include "repl/repl.hpp"
#include "token_mutator.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("VX_HOST_THREADS", "1", 0);
  setenv("VX_MEMORY_LIMIT", "256M", 0);
  return 0;
}

VX_FUZZ_TOKEN_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > vx::fuzz::kMaxInput) return -1;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  std::string input, line;
  while (std::getline(lines, line)) {
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, ":l") == 0) continue;
    input += line;
    input += '\n';
  }
  vx::fuzz::on_large_stack([&] {
    vx::repl::SessionOptions options;
    options.offload = "off";
    options.max_steps = 2'000'000;  // as fuzz_run: a mutated loop stops with a runtime error
    options.max_seconds = 5;
    std::istringstream in(input);
    std::ostream& out = vx::fuzz::null_stream();
    vx::repl::run_repl_stream(options, in, out, out);
  });
  return 0;
}
