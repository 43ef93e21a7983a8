// The text of the session's values, as the REPL prints them (session_values.hpp).
#include "repl/session_values.hpp"

#include <algorithm>
#include <cstring>

#include "repl/tensor_text.hpp"
#include "support/format.hpp"

namespace vx::repl {

std::string value_text(const Type& t, uint64_t bits) {
  if (t.kind != TypeKind::String) return interp::scalar_text(t.scalar, bits);
  fmt::Spec debug;
  debug.kind = '?';
  return fmt::format_str(interp::string_of(bits), debug);
}

std::string element_text(Scalar s, const interp::TensorView& v, int64_t offset) {
  if (v.init && !v.init[offset]) return "?";
  return interp::scalar_text(s, interp::element_bits(s, v.data + offset * interp::scalar_size(s)));
}

std::string value_line(const std::string& value, const std::string& type) {
  return "= " + value + (value.find('\n') == std::string::npos ? " : " : "\n: ") + type + "\n";
}

std::string elements_note(int64_t n) {
  return std::to_string(n) + (n == 1 ? " element" : " elements");
}

Shown tensor_shown(const Type& t, const interp::TensorView& v) {
  const Layout layout = row_major(std::vector<int64_t>(v.dims, v.dims + v.rank));
  const std::string grid = grid_text(
      layout, [&](int64_t at) { return element_text(t.scalar, v, at); }, 2);
  return {grid, type_name(t) + " (" + elements_note(v.size) + " in " + memory_name(t.memory) + ")"};
}

std::string int_literal(Scalar s, uint64_t bits) {
  const std::string suffix = scalar_info(s).name;
  if (is_signed_int(s)) return std::to_string(static_cast<int64_t>(bits)) + suffix;
  return std::to_string(bits) + suffix;
}

std::string aggregate_text(const Binding& b) {
  size_t k = 0;
  return aggregate_debug(b.type, [&](const Type& t) {
    fmt::Spec debug;
    debug.kind = '?';
    const Binding& leaf = b.leaves[k++];
    if (leaf.tensor) return interp::format_array(t.scalar, interp::whole_view(*leaf.tensor), debug);
    if (t.kind == TypeKind::String) return fmt::format_str(interp::string_of(leaf.bits), debug);
    return interp::format_scalar(t.scalar, leaf.bits, debug);
  });
}

bool mentions_struct(const Type& t, const std::string& name) {
  if (t.is_struct() && t.name == name) return true;
  return std::any_of(t.elems.begin(), t.elems.end(),
                     [&](const Type& e) { return mentions_struct(e, name); });
}

std::unique_ptr<interp::TensorStorage> copy_storage(const interp::TensorStorage& s) {
  auto c = std::make_unique<interp::TensorStorage>(s.elem, s.memory, s.dims, s.init != nullptr);
  std::memcpy(c->data, s.data, static_cast<size_t>(s.size) * interp::scalar_size(s.elem));
  if (s.init) std::memcpy(c->init.get(), s.init.get(), static_cast<size_t>(s.size));
  return c;
}

}  // namespace vx::repl
