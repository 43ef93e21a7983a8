// `vx repl --protocol=jsonl` (spec/cli.md §7.7): the REPL for programs, such as the Jupyter kernel
// (jupyter/vx_kernel.py). One JSON request per line in, one JSON reply per line out. The code of a
// request is read as lines typed at the prompt (commands included), by the same REPL as the
// terminal's; the reply carries what the session made of it as data: the value and its type,
// the diagnostics with their spans in the request's code, the `:check` tables, SVG documents,
// the regions' times. Every reply is one line of valid JSON, whatever the program printed, and a
// request that cannot be read gets an error reply, never an end of the session.
#pragma once
#include <functional>
#include <istream>
#include <ostream>
#include <string>

#include "repl/session.hpp"

namespace vx::repl {

// Serves the requests of `in` until its end or `:quit`, handing each reply (one line of JSON,
// without its newline) to `send`. Returns the exit status: 0, or 2 when the session cannot start
// (the reason on `err`).
int serve_protocol(const SessionOptions& options, std::istream& in,
                   const std::function<void(const std::string& line)>& send, std::ostream& err);

// The same on standard input and output. Standard output carries the replies and nothing else:
// whatever else would write to it goes to standard error. A SIGINT while no request runs is
// ignored.
int run_protocol(const SessionOptions& options);

}  // namespace vx::repl
