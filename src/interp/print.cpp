// println!/print!, assert!/assert_eq! (spec/builtins.md §6, spec/formatting.md): the values are
// rendered by support/format.hpp, each scalar type by its own formatter.
#include <sstream>

#include "interp/compiler.hpp"
#include "support/format.hpp"

namespace vx::interp {

std::string format_scalar(Scalar s, uint64_t bits, const fmt::Spec& spec) {
  if (s == Scalar::Char) return fmt::format_char(static_cast<uint32_t>(bits), spec);
  return with_scalar(s, [&](auto tag) -> std::string {
    using T = decltype(tag);
    const T v = from_bits<T>(bits);
    if constexpr (std::is_same_v<T, bool>)
      return fmt::format_bool(v, spec);
    else if constexpr (std::is_same_v<T, F16>)
      return fmt::format_f16_bits(v.bits, spec);
    else if constexpr (std::is_same_v<T, BF16>)
      return fmt::format_bf16_bits(v.bits, spec);
    else if constexpr (std::is_same_v<T, float>)
      return fmt::format_f32(v, spec);
    else if constexpr (std::is_same_v<T, double>)
      return fmt::format_f64(v, spec);
    else if constexpr (std::is_signed_v<T>)
      return fmt::format_i64(static_cast<int64_t>(v), spec, static_cast<int>(sizeof(T) * 8));
    else
      return fmt::format_u64(static_cast<uint64_t>(v), spec);
  });
}

std::string scalar_text(Scalar s, uint64_t bits) { return format_scalar(s, bits, fmt::Spec{}); }

std::string scalar_debug(Scalar s, uint64_t bits) {
  fmt::Spec spec;
  spec.kind = '?';
  return format_scalar(s, bits, spec);
}

bool scalar_equal(Scalar s, uint64_t a, uint64_t b) {
  return with_scalar(s, [&](auto tag) {
    using T = decltype(tag);
    return cmp_eq(from_bits<T>(a), from_bits<T>(b));
  });
}

namespace {

// One argument of a format: a scalar, a `&str`, a unit or an array (of `scalar`).
struct FormatArg {
  const Node* node = nullptr;
  Scalar scalar = Scalar::I32;
  bool is_string = false;
  bool is_unit = false;
  bool is_array = false;
};

struct Formatter {
  std::vector<FormatArg> args;
  std::vector<tir::FormatPiece> pieces;

  // Evaluates every argument once, first to last, then renders the pieces.
  std::string render(Frame& f) const {
    uint64_t small[8];
    std::vector<uint64_t> big;
    uint64_t* vals = small;
    if (args.size() > 8) {
      big.resize(args.size());
      vals = big.data();
    }
    std::vector<TensorSlot> arrays;  // the arrays' elements, when there are any
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].is_array) {
        arrays.resize(args.size());
        args[i].node->eval_tensor(f, arrays[i]);
        continue;
      }
      vals[i] = args[i].node ? args[i].node->eval_bits(f) : 0;
    }
    std::string out;
    for (const tir::FormatPiece& p : pieces) {
      out += p.literal;
      if (p.arg < 0 || p.arg >= static_cast<int>(args.size())) continue;
      const FormatArg& a = args[p.arg];
      if (a.is_string)
        out += fmt::format_str(string_of(vals[p.arg]), p.spec);
      else if (a.is_unit)
        out += "()";
      else if (a.is_array)
        out += format_array(a.scalar, arrays[p.arg].view, p.spec);
      else
        out += format_scalar(a.scalar, vals[p.arg], p.spec);
    }
    return out;
  }
};

Formatter make_formatter(Compiler& c, const tir::Expr& e, size_t first_arg) {
  Formatter fm;
  fm.pieces = e.format;
  for (size_t i = 0; i < e.args.size(); ++i) {
    FormatArg a;
    const tir::Expr& x = *e.args[i];
    if (i < first_arg) {
      fm.args.push_back(a);  // not a format argument (assert!'s condition): never printed
      continue;
    }
    if (x.type.kind == TypeKind::String) {
      a.node = c.value(x);
      a.is_string = true;
    } else if (x.type.is_scalar() || x.type.is_array()) {
      a.node = c.value(x);
      a.scalar = x.type.scalar;
      a.is_array = x.type.is_array();
    } else {
      a.node = c.value(x);
      a.is_unit = true;
    }
    fm.args.push_back(std::move(a));
  }
  return fm;
}

struct Print final : Node {
  Formatter fm;
  bool newline;
  uint64_t eval_bits(Frame& f) const override {
    std::string s = fm.render(f);
    if (newline) s += '\n';
    f.ctx->out->write(s.data(), static_cast<std::streamsize>(s.size()));
    return 0;
  }
};

struct Assert final : Node {
  const ExprT<bool>* cond;
  Formatter fm;  // the message; no pieces: `assertion failed: <source>`
  bool has_message;
  std::string source;
  Span span;
  uint64_t eval_bits(Frame& f) const override {
    if (cond->eval(f)) return 0;
    if (has_message) runtime_error(span, fm.render(f));
    runtime_error(span, "assertion failed: " + source);
  }
};

struct AssertEq final : Node {
  const Node* left;
  const Node* right;
  Scalar scalar;
  bool strings;  // two `&str`, rather than two scalars of type `scalar`
  bool arrays;   // two arrays of `scalar`
  Formatter fm;
  bool has_message;
  Span span;
  uint64_t eval_bits(Frame& f) const override {
    fmt::Spec debug;
    debug.kind = '?';
    std::string shown_a, shown_b;
    if (arrays) {
      TensorSlot ta, tb;
      left->eval_tensor(f, ta);
      right->eval_tensor(f, tb);
      if (array_equal(scalar, ta.view, tb.view)) return 0;
      shown_a = format_array(scalar, ta.view, debug);
      shown_b = format_array(scalar, tb.view, debug);
    } else {
      const uint64_t a = left->eval_bits(f);
      const uint64_t b = right->eval_bits(f);
      if (strings ? string_of(a) == string_of(b) : scalar_equal(scalar, a, b)) return 0;
      auto shown = [&](uint64_t v) {
        return strings ? fmt::format_str(string_of(v), debug) : scalar_debug(scalar, v);
      };
      shown_a = shown(a);
      shown_b = shown(b);
    }
    std::string msg = "assertion `left == right` failed";
    if (has_message) msg += ": " + fm.render(f);
    msg += "\n  left: " + shown_a + "\n right: " + shown_b;
    runtime_error(span, msg);
  }
};

}  // namespace

const Node* Compiler::print(const tir::Expr& e) {
  auto* n = make<Print>();
  n->fm = make_formatter(*this, e, 0);
  n->newline = e.newline;
  return n;
}

// The format pieces of assert!/assert_eq! index into e.args like println!'s (the condition or
// the two operands come first and are not printed).
const Node* Compiler::assert_(const tir::Expr& e) {
  if (e.is_assert_eq) {
    auto* n = make<AssertEq>();
    n->left = value(*e.args[0]);
    n->right = value(*e.args[1]);
    n->scalar = e.args[0]->type.scalar;
    n->strings = e.args[0]->type.kind == TypeKind::String;
    n->arrays = e.args[0]->type.is_array();
    n->fm = make_formatter(*this, e, 2);
    n->has_message = !e.format.empty();
    n->span = e.span;
    return n;
  }
  auto* n = make<Assert>();
  n->cond = scalar<bool>(*e.args[0]);
  n->fm = make_formatter(*this, e, 1);
  n->has_message = !e.format.empty();
  n->source = source_text(e.args[0]->span);
  n->span = e.span;
  return n;
}

}  // namespace vx::interp
