// Python's arguments of one call of a `pub fn` (spec/python.md §3), made into what the pipeline's
// `bind` sets in the function's frame: scalars checked against their parameter types, and arrays
// (NumPy, anything with `__dlpack__` or the buffer protocol) taken without a copy, their memory
// the tensor's. An argument that does not fit is refused before anything runs, with the message
// `vx call` gives for a `.npy` file (pipeline/call.hpp) where the two can differ the same way.
// Needs the GIL; the BoundCall it fills is read without it, on the run's thread.
#pragma once
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "pipeline/params.hpp"

namespace vx::python {

namespace py = pybind11;

// An argument that does not fit its parameter: raised in Python as vx.ArgumentError.
struct ArgumentRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A `pub fn` as Python calls it, worked out once when the program is loaded.
struct FunctionInfo {
  int index = -1;  // in Program::functions
  std::string name;
  std::vector<params::Param> params;
  std::vector<PyObject*> param_names;  // interned Python strings, for keyword arguments
};

// A tensor argument, its memory held by the caller's object for the call.
struct TensorArgument {
  std::string name;
  const Type* type = nullptr;
  int slot = 0;
  std::byte* data = nullptr;
  std::vector<int64_t> dims;
  int64_t size = 0;  // elements
  size_t bytes = 0;
  bool by_value = false;  // a `Tensor<…>` parameter, moved into the call: its elements are copied
  // A CUDA tensor (DLPack kDLCUDA, device 0): its device memory, which the offload tier uses in
  // place (OffloadRunner::adopt_device_memory); `data` is then `shadow`, host memory of as many
  // bytes that stands for it in the frame and is filled only if the host must read it.
  uint64_t device = 0;
  std::unique_ptr<std::byte[]> shadow;
};

// Releases what an argument borrowed (a DLPack tensor, a Py_buffer) when the call is over; the
// GIL is held then.
struct Borrow {
  virtual ~Borrow() = default;
};

struct BoundCall {
  std::vector<std::pair<int, uint64_t>> scalars;  // slot, bits
  std::vector<TensorArgument> tensors;
  std::vector<std::unique_ptr<Borrow>> borrows;
};

// Fills `out` from the positional `args` and keyword `kwargs` (the call's options already taken
// out of them); `offload` is the call's tier (a CUDA tensor needs "gpu" or "verify"). Throws
// ArgumentRefused, or a Python error (py::error_already_set, TypeError for a missing or
// unexpected argument).
void bind_arguments(const tir::Function& fn, const FunctionInfo& info, PyObject* args,
                    PyObject* kwargs, const std::string& offload, BoundCall& out);

}  // namespace vx::python
