// What comes back from vx to Python (spec/python.md §3, §4): a call's return value, captured on the
// run's thread when the function returns and made into Python objects afterwards, with the GIL;
// and diagnostics as the dicts of `--error-format=json` (support/diagnostics.hpp), from which
// vx/__init__.py makes vx.Diagnostic objects.
#pragma once
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "interp/runtime.hpp"

namespace vx::python {

namespace py = pybind11;

// A function's return value, copied out of its frame (no Python object is touched there).
struct Returned {
  const Type* type = nullptr;       // null: nothing (`()`), else fn.ret or the returned aggregate
  uint64_t bits = 0;                // a scalar or a `&str`
  std::vector<uint64_t> leaves;     // a tuple's or struct's scalars, in order
  std::vector<std::byte> elements;  // a tensor's, row-major
  std::vector<int64_t> dims;
};

// Called from the pipeline's at_end, on the run's thread.
void capture_return(const tir::Function& fn, interp::Frame& frame, Returned& out);
// The Python value: None, an int, float, bool or str, a tuple, a dict (a struct), a NumPy array
// (a tensor; bf16 as its bits, uint16, as `vx call` writes it).
py::object return_value(const Returned& r);

// A JSON value as the Python object json.loads would make.
py::object from_json(const nlohmann::json& j);

// A scalar's slot bits as Python's value of it.
py::object scalar_object(Scalar s, uint64_t bits);

}  // namespace vx::python
