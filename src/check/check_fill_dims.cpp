// `Tensor<T, D, M>::fill_dims([n, …], v)` (spec/types.md §3.1): a tensor whose sizes the program
// computes. Each size is an integer expression; one that is a constant is checked here against
// the type's dimension and the limits (E0206), the others when the tensor is made (a runtime
// error, spec/semantics.md §8). Needs the type resolved (`?` allowed, not in SMEM).
#include <boost/variant/get.hpp>

#include "check/checker_impl.hpp"

namespace vx::check {

namespace {

constexpr int64_t kMaxElems = INT32_MAX;  // spec/types.md §3: a size and the element count

// The value of a constant size, or nullopt when it is not a literal (or a `const`, which the
// checker has already made one). A u64 past i64 reads as kMaxElems + 1: too large either way.
std::optional<int64_t> constant_size(const tir::Expr& e) {
  if (e.kind != tir::ExprKind::Literal) return std::nullopt;
  if (!is_signed_int(e.type.scalar) && e.lit.i < 0) return kMaxElems + 1;
  return e.lit.i;
}

std::string literal_text(const tir::Expr& e) {
  return is_signed_int(e.type.scalar) ? std::to_string(e.lit.i)
                                      : std::to_string(static_cast<uint64_t>(e.lit.i));
}

}  // namespace

void Checker::run_time_size_help(Diagnostic& d, const Type& expected, const Type& found) {
  if (!expected.is_tensor_like() || !found.is_tensor_like() || expected.scalar != found.scalar ||
      expected.memory != found.memory || expected.rank() != found.rank())
    return;
  Type any = expected;
  int first = -1;
  for (int k = 0; k < expected.rank(); ++k) {
    if (found.dims[k] == kUnknownDim && expected.dims[k] != kUnknownDim) {
      any.dims[k] = kUnknownDim;
      if (first < 0) first = k;
    } else if (found.dims[k] != expected.dims[k]) {
      return;
    }
  }
  if (first < 0) return;
  d.notes.push_back("dimension " + std::to_string(first) + " of `" + type_name(found) +
                    "` is known only when the program runs, and may not be " +
                    std::to_string(expected.dims[first]));
  d.helps.push_back("to take a tensor of any size there, write `" + type_name(any) + "`");
}

const ast::ArrayLit* Checker::whole_array(const ast::Expr& e) {
  if (!e.rest.empty() || !e.first.types.empty() || !e.first.operand.ops.empty() ||
      !e.first.operand.operand.suffixes.empty())
    return nullptr;
  return boost::get<ast::ArrayLit>(&e.first.operand.operand.base);
}

tir::Expr* Checker::check_fill_dims(const ast::TensorCtor& c, const Type& t, Span s) {
  if (c.args.size() != 2) {
    error("E0201", s,
          "`fill_dims` takes 2 arguments but " + std::to_string(c.args.size()) +
              (c.args.size() == 1 ? " was given" : " were given"),
          "expected the sizes and the value: `fill_dims([n, …], v)`");
    return error_expr(s);
  }
  const ast::ArrayLit* arr = whole_array(c.args[0]);
  if (!arr) {
    error("E0200", span(c.args[0]), "`fill_dims` takes the sizes as an array `[n, …]`",
          "expected `[…]`");
    check_expr(c.args[1], nullptr);
    return error_expr(s);
  }
  if (spawn_depth_ > 0) {
    auto& d = error("E0402", s, "a tensor of run-time size can only be made in host code",
                    "in a `spawn on` region");
    d.notes.push_back(
        "an SMEM tile's size is fixed when the program is checked (spec/types.md §3.1)");
    return error_expr(s);
  }
  std::vector<tir::Expr*> sizes;
  bool ok = true;
  int64_t total = 1;  // of the sizes known now; kMaxElems + 1 once past the limit
  for (size_t k = 0; k < arr->elems.size(); ++k) {
    const ast::Expr& x = arr->elems[k];
    tir::Expr* n = check_expr(x, nullptr);
    if (n->type.is_error()) {
      ok = false;
      continue;
    }
    if (!(n->type.is_scalar() && is_int(n->type.scalar))) {
      error("E0200", span(x), "a size must be an integer, not `" + type_name(n->type) + "`",
            "not an integer");
      ok = false;
      continue;
    }
    sizes.push_back(n);
    std::optional<int64_t> v = constant_size(*n);
    if (!v) {
      if (k < t.dims.size() && t.dims[k] != kUnknownDim)
        total = total > kMaxElems / t.dims[k] ? kMaxElems + 1 : total * t.dims[k];
      continue;
    }
    if (*v <= 0 || *v > kMaxElems) {
      error("E0206", span(x),
            "a size must be between 1 and 2^31 - 1 (2147483647), not " + literal_text(*n));
      ok = false;
      continue;
    }
    if (k < t.dims.size() && t.dims[k] != kUnknownDim && t.dims[k] != *v) {
      auto& d = error("E0206", span(x),
                      "the size " + std::to_string(*v) + " disagrees with dimension " +
                          std::to_string(k) + " of `" + type_name(t) + "`, which is " +
                          std::to_string(t.dims[k]),
                      "expected " + std::to_string(t.dims[k]));
      d.helps.push_back("write `?` for a dimension whose size is given here");
      ok = false;
      continue;
    }
    total = total > kMaxElems / *v ? kMaxElems + 1 : total * *v;
  }
  Type et = Type::of(t.scalar);
  tir::Expr* v = coerce(check_expr(c.args[1], &et), et, span(c.args[1]), "the fill value");
  if (!ok || v->type.is_error()) return error_expr(s);
  if (static_cast<int>(sizes.size()) != t.rank()) {
    error("E0206", span(c.args[0]),
          "`" + type_name(t) + "` has " + std::to_string(t.rank()) + " dimension" +
              (t.rank() == 1 ? "" : "s") + " but " + std::to_string(sizes.size()) + " size" +
              (sizes.size() == 1 ? " is" : "s are") + " given",
          "one size per dimension");
    return error_expr(s);
  }
  if (total > kMaxElems) {
    error("E0206", span(c.args[0]),
          "the tensor has more than 2^31 - 1 (2147483647) elements: the product of its sizes "
          "is too large");
    return error_expr(s);
  }
  tir::Expr* e = make(tir::ExprKind::TensorNew, t, s);
  e->builtin_fill = true;
  e->args = {v};
  e->args.insert(e->args.end(), sizes.begin(), sizes.end());
  return e;
}

}  // namespace vx::check
