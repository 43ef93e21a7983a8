// Runs a body on a thread whose stack holds the deepest program the parser accepts
// (parse/parser.hpp's limits), and turns an exception that escapes it into a plain error:
// out of memory (exit 101) or an internal error (exit 70, "this is a bug in vx").
#pragma once
#include <functional>

#include "support/diagnostics.hpp"

namespace vx {

int with_large_stack(const std::function<int()>& body, ErrorFormat format = ErrorFormat::Human);

}  // namespace vx
