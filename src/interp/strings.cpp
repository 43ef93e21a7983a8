// `&str` values (spec/types.md §1): every string slice is a literal, so a value is a pointer to
// the literal's text, interned once for the life of the process (a REPL binding or a value kept
// past its program stays valid), travelling as slot bits like any scalar. Comparisons are byte
// by byte, as Rust orders `str`; `.len()` counts bytes.
#include <mutex>
#include <unordered_set>

#include "interp/arith.hpp"
#include "interp/compiler.hpp"
#include "support/internal_error.hpp"

namespace vx::interp {

uint64_t intern_string(const std::string& text) {
  static std::mutex mutex;
  static std::unordered_set<std::string> texts;  // nodes never move: the pointers stay valid
  std::lock_guard<std::mutex> lock(mutex);
  const std::string& kept = *texts.insert(text).first;
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&kept));
}

// A slot never written holds 0 (`let s: &str;` read before its assignment, as a scalar's reads
// 0): that is the empty string, never a null pointer.
const std::string& string_of(uint64_t bits) {
  static const std::string empty;
  if (bits == 0) return empty;
  return *reinterpret_cast<const std::string*>(static_cast<uintptr_t>(bits));
}

namespace {

template <tir::BinOp Op>
struct StrCompare final : ExprImpl<StrCompare<Op>, bool> {
  const Node* a;
  const Node* b;
  bool eval(Frame& f) const override {
    // The operator applied to the three-way result against 0, as to any two scalars.
    return apply_cmp<Op>(string_of(a->eval_bits(f)).compare(string_of(b->eval_bits(f))), 0);
  }
};

struct StrLen final : ExprImpl<StrLen, int32_t> {
  const Node* s;
  int32_t eval(Frame& f) const override {
    return static_cast<int32_t>(string_of(s->eval_bits(f)).size());
  }
};

template <tir::BinOp Op>
const Node* string_compare(Compiler& c, const tir::Expr& e) {
  auto* n = c.make<StrCompare<Op>>();
  n->a = c.value(*e.args[0]);
  n->b = c.value(*e.args[1]);
  return n;
}

}  // namespace

const Node* Compiler::string_value(const tir::Expr& e) {
  if (e.kind == tir::ExprKind::String) return make<LitNode<uint64_t>>(intern_string(e.text));
  if (e.kind == tir::ExprKind::Builtin) {  // `.len()`
    auto* n = make<StrLen>();
    n->s = value(*e.args[0]);
    return n;
  }
  // std::string::compare is byte by byte on unsigned bytes (char_traits<char>::lt), which is
  // code point order for UTF-8, Rust's order of `str`.
  switch (e.bop) {
    case tir::BinOp::Eq:
      return string_compare<tir::BinOp::Eq>(*this, e);
    case tir::BinOp::Ne:
      return string_compare<tir::BinOp::Ne>(*this, e);
    case tir::BinOp::Lt:
      return string_compare<tir::BinOp::Lt>(*this, e);
    case tir::BinOp::Le:
      return string_compare<tir::BinOp::Le>(*this, e);
    case tir::BinOp::Gt:
      return string_compare<tir::BinOp::Gt>(*this, e);
    case tir::BinOp::Ge:
      return string_compare<tir::BinOp::Ge>(*this, e);
    default:
      internal_error("an operator on strings other than a comparison");
  }
}

}  // namespace vx::interp
