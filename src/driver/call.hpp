// `vx call FILE FN --arg NAME=PATH.npy --arg NAME=VALUE … [--out NAME=PATH.npy]` (spec/cli.md
// §2.2): calls one `pub fn` of a program on arrays from `.npy` files and scalars from the command
// line, on any tier, and writes each `&mut` tensor back after the call.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "driver/pipeline.hpp"

namespace vx::call {

struct Request {
  std::string fn;
  std::vector<std::string> args;  // NAME=PATH.npy for a tensor parameter, NAME=VALUE for a scalar
  std::vector<std::string> outs;  // NAME=PATH.npy for a `&mut` tensor parameter, or `return`
  // NAME=D0,D1,…: the shape of a `&mut` tensor that has an --out and no --arg, where its type has
  // a `?` dimension (the tensor is made, filled with zeros, for the call to write).
  std::vector<std::string> shapes;
  // --bench: call the function again and again, as Triton's do_bench does: warm-up calls for
  // about `warmup_ms`, then calls for about `rep_ms`; the median time is printed on stderr.
  bool bench = false;
  double warmup_ms = 25, rep_ms = 100;
};

// Checks the request against the function's signature (every mismatch a usage error, exit status
// 2), reads the files, runs the call with `run` (its entry and bind are set here), then writes
// the `&mut` tensors: each to its `--out` file, else back over the file it was read from. A
// scalar return value is printed on `out`. Under `bench` the inputs are set again before each
// call, and only the last call's results are written. Returns the exit status: 0, 2, or 101 after a
// runtime error (nothing is written then).
int call(pipeline::Compiled& compiled, const Request& request, pipeline::RunRequest run,
         std::ostream& out, std::ostream& err, ErrorFormat format);

}  // namespace vx::call
