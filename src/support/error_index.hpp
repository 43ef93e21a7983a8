// `vx explain CODE` and the REPL's `:explain` (spec/errors.md, spec/cli.md §8): the long
// explanation of every error code, read from spec/errors.md as it was when vx was built (the
// file is embedded at build time, so the command works from any directory).
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace vx {

// Every code that spec/errors.md explains, in its order.
std::vector<std::string> error_codes();

// Prints the explanation of `code` (case-insensitive; `6032` means `E6032`; a kernel rule's id,
// `write-must-fix-loop`, its item of E6032) and returns 0, or says that there is none and returns
// 2 (a usage error).
int explain_code(const std::string& code, std::ostream& out, std::ostream& err);

}  // namespace vx
