// `as` casts as typed nodes (spec/semantics.md §4–§5 and types.md): one node class per pair of
// scalar types, the operand fused when it is a local or a constant.
#include "interp/compiler.hpp"

namespace vx::interp {
namespace {

template <class To, class From>
struct Cast final : ExprImpl<Cast<To, From>, To> {
  OpAny<From> a;
  To eval(Frame& f) const override { return cast_value<To, From>(a.get(f)); }
};

}  // namespace

const Node* Compiler::cast(const tir::Expr& e) {
  const tir::Expr& a = *e.args[0];
  return with_scalar(e.type.scalar, [&](auto to_tag) -> const Node* {
    using To = decltype(to_tag);
    if constexpr (std::is_same_v<To, bool>) {
      if (a.type.is_scalar(Scalar::Bool)) return value(a);
      internal_error("a cast to bool");
    } else {
      return with_scalar(a.type.scalar, [&](auto from_tag) -> const Node* {
        using From = decltype(from_tag);
        if constexpr (std::is_same_v<To, From>) {
          return value(a);
        } else {
          auto* n = make<Cast<To, From>>();
          n->a = op_any<From>(a);
          return n;
        }
      });
    }
  });
}

}  // namespace vx::interp
