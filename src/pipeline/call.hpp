// `vx call FILE FN --arg NAME=PATH.npy --arg NAME=VALUE … [--out NAME=PATH.npy]` (spec/cli.md
// §2.2): calls one `pub fn` of a program on arrays from `.npy` files and scalars from the command
// line, on any tier, and writes each `&mut` tensor back after the call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "pipeline/pipeline.hpp"

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

// The messages of a call that does not fit its function, written once here for `vx call` and
// the Python package (python/ext/arguments.cpp, which takes arrays where `vx call` reads files).
// `caller` names who calls in them: "`vx call`", "Python".

// The index in program.functions of the `pub fn` named `name`; -1 with `why` set when there is no
// such function (the message names the nearest `pub fn`) or it is not `pub`.
int find_pub_fn(const tir::Program& program, const std::string& name, const std::string& caller,
                std::string& why);
// Why the parameter `name` of type `t` cannot be passed at all, or empty: a reference to a struct
// (refs_only), a struct holding a tensor, a tuple or struct holding an array, any other type that
// is neither a scalar, a tuple or struct of scalars nor a tensor.
std::string struct_ref_refused(const std::string& name, const Type& t, const std::string& caller);
std::string parameter_refused(const std::string& name, const Type& t, const std::string& caller);
// Why what `fn` returns cannot be given back (an array, an aggregate holding one or a tensor).
std::string return_refused(const tir::Function& fn, const std::string& caller);
// Whether the word `word` is a value of the scalar type `s`: empty with `bits` set (its slot
// bits), else what it takes ("a value of type `i32` (from -2147483648 to 2147483647)").
std::string scalar_value(Scalar s, const std::string& word, uint64_t& bits);
// Whether an array of NumPy's dtype `descr` (`<f4`) and `shape` fits the tensor parameter `name`
// of type `t`: empty, or "`inp` is `…`, but SOURCE holds `<f8` elements (write it as float32,
// `<f4`)" (or has the shape …, a dimension of size 0, is 0-dimensional). SOURCE: "the file".
std::string array_mismatch(const std::string& name, const Type& t, const std::string& descr,
                           const std::vector<int64_t>& shape, const std::string& source);
// Whether the `bytes` of a bool array are each 0 or 1: empty, or the message.
std::string bool_bytes_mismatch(const std::string& name, const Type& t, const std::byte* data,
                                size_t bytes, const std::string& source);

// Checks the request against the function's signature (every mismatch a usage error, exit status
// 2), reads the files, runs the call with `run` (its entry and bind are set here), then writes
// the `&mut` tensors: each to its `--out` file, else back over the file it was read from. A
// scalar return value is printed on `out`. Under `bench` the inputs are set again before each
// call, and only the last call's results are written. Returns the exit status: 0, 2, or 101 after a
// runtime error (nothing is written then).
int call(pipeline::Compiled& compiled, const Request& request, pipeline::RunRequest run,
         std::ostream& out, std::ostream& err, ErrorFormat format);

}  // namespace vx::call
