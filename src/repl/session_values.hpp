// What the REPL's session keeps between inputs and how it shows it: a binding's value (Binding), an
// item (Item), and the text of values as the REPL prints them. Internal to repl (session*.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "check/types.hpp"
#include "interp/runtime.hpp"
#include "support/source.hpp"

namespace vx::repl {

// A scalar as `{}` prints it; a `&str` as `{:?}` does (quoted, so that `""` shows).
std::string value_text(const Type& t, uint64_t bits);

// One element as `{}` prints it; `?` when it was never written.
std::string element_text(Scalar s, const interp::TensorView& v, int64_t offset);

// `= VALUE : TYPE`: the type stays on the value's line while the value takes one line (a scalar,
// a short row), else it has a line of its own, so that the grid's columns stay clear of it.
std::string value_line(const std::string& value, const std::string& type);

std::string elements_note(int64_t n);

// A value as the REPL shows it: its text and its type.
struct Shown {
  std::string value, type;
  std::string line() const { return value_line(value, type); }
};

// A whole tensor: its grid, its type and its size, as `(24 elements in CPU_DRAM)`.
Shown tensor_shown(const Type& t, const interp::TensorView& v);

std::string int_literal(Scalar s, uint64_t bits);

// A binding the session holds between inputs.
struct Binding {
  std::string name;
  Type type;
  bool is_mut = false;
  uint64_t bits = 0;                              // a scalar's value (interp::to_bits)
  std::unique_ptr<interp::TensorStorage> tensor;  // a tensor's elements
  bool moved = false;  // a tensor moved away: kept so that a use is E0301, as in a file
  // A tuple or struct: its leaves' values in order (bits or tensor; their name and type unused).
  // It is declared as one `let`, which the checker makes one local per leaf (spec/types.md §8).
  std::vector<Binding> leaves;
  size_t locals() const { return type.is_tuple() ? leaves.size() : 1; }
};

// A tuple's or struct's value as `{:?}` prints it.
std::string aggregate_text(const Binding& b);

// Whether the type is the struct `name` or holds it.
bool mentions_struct(const Type& t, const std::string& name);

std::unique_ptr<interp::TensorStorage> copy_storage(const interp::TensorStorage& s);

// An item the session holds: a `fn`, a `const`, or (no name) an `import` or attribute.
struct Item {
  std::string name;
  std::string kind;  // "fn", "const", ""
  std::string text;
  std::string signature;  // a fn's, as `fn(x: i32) -> i32`, for :type and :vars
  // The input it came from (`<repl>` or a :load path) and where its text starts there: a
  // diagnostic that points into it is shown there.
  std::shared_ptr<const SourceFile> origin;
  uint32_t from = 0;
  size_t defined_at = 0;   // the number of inputs :save holds when it was (last) defined
  bool redefined = false;  // defined more than once
};

}  // namespace vx::repl
