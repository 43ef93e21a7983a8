// NumPy's `.npy` files (format 1.0 written; 1.0, 2.0 and 3.0 read), for `vx run --dump-npy=DIR`
// and `vx call … --arg NAME=PATH.npy --out NAME=PATH.npy` (spec/cli.md §2.1, §2.2). Elements are
// little-endian and row-major; bf16, which NumPy lacks, is its bits as `<u2`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "check/types.hpp"
#include "interp/runtime.hpp"

namespace vx::npy {

// NumPy's dtype of an element type: `<f4`, `|b1`, `|i1`, `<u2` for bf16.
std::string descr(Scalar s);

// The element type of a dtype as read (`<f4` is f32; `<u2` is u16, since a bf16 file is only its
// bits); false for a dtype with none (`>f4`, `<c8`, `|O`).
bool scalar_of(const std::string& descr, Scalar& out);

// Writes the elements of `v` (of type `s`) to `path`, an element never written as 0. Returns an
// error message, or empty.
std::string write(const std::string& path, Scalar s, const interp::TensorView& v);

// A file as read: its dtype, its shape, and its elements' bytes.
struct Array {
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<std::byte> data;
};

// Reads `path`. Returns an error message naming the file and what is wrong with it (not an
// `.npy` file, a header it cannot read, Fortran order, fewer or more bytes than the shape needs),
// or empty.
std::string read(const std::string& path, Array& out);

}  // namespace vx::npy
