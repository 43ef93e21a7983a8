// Literals, calls of functions and built-ins, methods, tensor constructors and macros
// (spec/types.md §literals, spec/builtins.md, spec/formatting.md).
#include <algorithm>
#include <boost/variant/get.hpp>
#include <cmath>
#include <cstring>

#include "check/checker_impl.hpp"
#include "parse/syntax_errors.hpp"
#include "support/half.hpp"
#include "support/suggest.hpp"

namespace vx::tir {
const char* binop_spelling(BinOp op) {
  static const char* names[] = {
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) spelling,
#include "parse/operators.def"
#undef VX_BINOP
  };
  return names[static_cast<int>(op)];
}
}  // namespace vx::tir

namespace vx::check {

namespace {

// "a, b and c".
std::string and_list(const std::vector<std::string>& words) {
  std::string out;
  for (size_t k = 0; k < words.size(); ++k)
    out += (k == 0 ? "" : k + 1 == words.size() ? " and " : ", ") + words[k];
  return out;
}

using tir::BuiltinId;
using tir::BuiltinKind;

// The built-in spelled `spelling` ("lanes::sum"), if builtins.def has one.
std::optional<BuiltinId> builtin_named(const std::string& spelling) {
  static const std::map<std::string, BuiltinId> by_name = [] {
    std::map<std::string, BuiltinId> m;
#define VX_BUILTIN(E, spelling, ...) m.emplace(spelling, BuiltinId::E);
#include "check/builtins.def"
#undef VX_BUILTIN
    return m;
  }();
  auto it = by_name.find(spelling);
  if (it == by_name.end()) return std::nullopt;
  return it->second;
}

// The built-in that the call of `name` names: a row called as a function (`lanes::sum`,
// `scoped_fence`), or an Atomic row's family (`atomic_fetch_add_i32`; its type is left to check).
std::optional<BuiltinId> builtin_called(const std::string& name) {
  if (std::optional<BuiltinId> id = builtin_named(name)) {
    const BuiltinKind k = tir::builtin_kind(*id);
    if (k != BuiltinKind::Method && k != BuiltinKind::Query && k != BuiltinKind::Atomic) return id;
  }
  for (size_t i = 0; i < std::size(tir::kBuiltinRows); ++i) {
    const tir::BuiltinRow& row = tir::kBuiltinRows[i];
    const std::string family = std::string(row.spelling) + "_";
    if (row.kind == BuiltinKind::Atomic && name.compare(0, family.size(), family) == 0)
      return static_cast<BuiltinId>(i);
  }
  return std::nullopt;
}

// The spellings of the rows `keep` takes, in builtins.def's order.
template <class Keep>
std::vector<std::string> builtin_spellings(Keep keep) {
  std::vector<std::string> out;
  for (size_t i = 0; i < std::size(tir::kBuiltinRows); ++i)
    if (keep(static_cast<BuiltinId>(i))) out.push_back(tir::kBuiltinRows[i].spelling);
  return out;
}

// A method of numbers (`x.sqrt()`, `x.min(y)`): a Method row whose result is the receiver's type.
bool is_number_method(BuiltinId id) {
  return tir::builtin_kind(id) == BuiltinKind::Method &&
         tir::builtin_row(id).result == tir::BuiltinResult::SameAsReceiver;
}
bool is_method_name(const std::string& name) {
  const std::optional<BuiltinId> id = builtin_named(name);
  return id && is_number_method(*id);
}

// A row of numeric/math.def (the float methods; pow of integers aside), and a FAST one (f32 only).
bool is_math_row(BuiltinId id) {
  switch (id) {
#define VX_MATH_UNARY(E, ...) case BuiltinId::E:
#define VX_MATH_BINARY(E, ...) case BuiltinId::E:
#include "numeric/math.def"
#undef VX_MATH_UNARY
#undef VX_MATH_BINARY
    return true;
    default:
      return false;
  }
}
bool is_fast_math_row(BuiltinId id) {
  switch (id) {
#define VX_MATH_FAST(E, ...) case BuiltinId::E:
#include "numeric/math.def"
#undef VX_MATH_FAST
    return true;
    default:
      return false;
  }
}

// The type of a call of `id` (builtins.def's result rule), `first` its first argument's or its
// receiver's type.
Type builtin_result(BuiltinId id, const Type& first) {
  switch (tir::builtin_row(id).result) {
    case tir::BuiltinResult::ElemOfTile:
    case tir::BuiltinResult::ElemOfTensor:
      return Type::of(first.scalar);
    case tir::BuiltinResult::SameAsReceiver:
      return first;
    case tir::BuiltinResult::I32:
      return Type::of(Scalar::I32);
    case tir::BuiltinResult::Unit:
      return Type::unit();
    case tir::BuiltinResult::Token:
      return Type::token();
  }
  return Type::error();
}

// "i32, u32, i64, u64 and f32": the scalar types with atomics (scalar_types.def).
std::string atomic_type_list() {
  std::vector<std::string> names;
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic) \
  if (atomic) names.push_back(name);
#include "check/scalar_types.def"
#undef VX_SCALAR
  return and_list(names);
}

// Splits a literal into its digits and its suffix (`1_000u32` -> "1000", "u32").
void split_literal(const std::string& text, bool is_float, std::string& digits, std::string& suffix,
                   int& radix) {
  radix = 10;
  size_t i = 0;
  if (!is_float && text.size() > 1 && text[0] == '0' &&
      (text[1] == 'x' || text[1] == 'b' || text[1] == 'o')) {
    radix = text[1] == 'x' ? 16 : text[1] == 'b' ? 2 : 8;
    i = 2;
  }
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_') continue;
    bool ok;
    if (radix == 16)
      ok = std::isxdigit(static_cast<unsigned char>(c));
    else if (is_float)
      ok = std::isdigit(static_cast<unsigned char>(c)) || c == '.' ||
           ((c == 'e' || c == 'E') && i + 1 < text.size() &&
            (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '+' ||
             text[i + 1] == '-')) ||
           ((c == '+' || c == '-') && i > 0 && (text[i - 1] == 'e' || text[i - 1] == 'E'));
    else
      ok = std::isdigit(static_cast<unsigned char>(c));
    if (!ok) break;
    digits += c;
  }
  suffix = text.substr(i);
  // A hex literal with an `i`/`u` suffix: the suffix starts at the `i` or `u`.
  if (radix == 16) {
    size_t k = text.find_first_of("iu", 2);
    if (k != std::string::npos) {
      digits.clear();
      for (size_t j = 2; j < k; ++j)
        if (text[j] != '_') digits += text[j];
      suffix = text.substr(k);
    }
  }
}

}  // namespace

tir::Expr* Checker::check_int_lit(const ast::IntLit& l, const Type* expected, bool negate, Span s) {
  std::string digits, suffix;
  int radix;
  split_literal(l.text, false, digits, suffix, radix);
  Type t = Type::of(Scalar::I32);
  if (!suffix.empty()) {
    Scalar sc;
    if (!scalar_by_name(suffix, sc) || !is_number(sc)) {
      auto& d = error("E0004", s, "invalid suffix `" + suffix + "` for a number literal",
                      "invalid suffix");
      d.helps.push_back("the suffixes are i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64");
      return error_expr(s);
    }
    t = Type::of(sc);
    if (is_float(sc)) {
      if (radix != 10) {
        error("E0004", s, "a float literal cannot be written in base " + std::to_string(radix));
        return error_expr(s);
      }
      ast::FloatLit fl;
      fl.text = l.text;
      return check_float_lit(fl, &t, negate, s);
    }
  } else if (expected && expected->is_scalar() && is_int(expected->scalar)) {
    t = *expected;
  }
  if (digits.empty()) {
    error("E0004", s, "a number literal needs digits", "no digits");
    return error_expr(s);
  }
  // Read the magnitude, refusing overflow of 64 bits.
  unsigned __int128 v = 0;
  for (char c : digits) {
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
    if (d >= radix) {
      error(
          "E0004", s,
          std::string("invalid digit `") + c + "` in a base " + std::to_string(radix) + " literal");
      return error_expr(s);
    }
    v = v * radix + d;
    if (v > (static_cast<unsigned __int128>(1) << 64)) break;
  }
  const ScalarInfo& info = scalar_info(t.scalar);
  unsigned __int128 max_pos = info.is_signed
                                  ? (static_cast<unsigned __int128>(1) << (info.bits - 1)) - 1
                                  : (static_cast<unsigned __int128>(1) << info.bits) - 1;
  unsigned __int128 max_neg =
      info.is_signed ? (static_cast<unsigned __int128>(1) << (info.bits - 1)) : 0;
  if (negate && !info.is_signed) {
    auto& d = error("E0202", s, "cannot negate a literal of unsigned type `" + type_name(t) + "`",
                    "unsigned");
    (void)d;
    return error_expr(s);
  }
  if ((!negate && v > max_pos) || (negate && v > max_neg)) {
    auto& d = error("E0004", s, "literal out of range for `" + type_name(t) + "`",
                    "does not fit in `" + type_name(t) + "`");
    d.notes.push_back(
        "the range of `" + type_name(t) + "` is " +
        (info.is_signed ? "-" + std::to_string(static_cast<uint64_t>(max_neg)) : "0") + " to " +
        std::to_string(static_cast<uint64_t>(max_pos)));
    return error_expr(s);
  }
  tir::Expr* e = make(tir::ExprKind::Literal, t, s);
  uint64_t u = static_cast<uint64_t>(v);
  e->lit.i = negate ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  return e;
}

tir::Expr* Checker::check_float_lit(const ast::FloatLit& l, const Type* expected, bool negate,
                                    Span s) {
  std::string digits, suffix;
  int radix;
  split_literal(l.text, true, digits, suffix, radix);
  Type t = Type::of(Scalar::F64);
  if (!suffix.empty()) {
    Scalar sc;
    if (!scalar_by_name(suffix, sc) || !is_float(sc)) {
      auto& d = error("E0004", s, "invalid suffix `" + suffix + "` for a float literal",
                      "invalid suffix");
      d.helps.push_back("the float suffixes are f16 bf16 f32 f64");
      return error_expr(s);
    }
    t = Type::of(sc);
  } else if (expected && expected->is_scalar() && is_float(expected->scalar)) {
    t = *expected;
  }
  std::string text = (negate ? "-" : "") + digits;
  tir::Expr* e = make(tir::ExprKind::Literal, t, s);
  switch (t.scalar) {
    case Scalar::F32:
      e->lit.f = std::strtof(text.c_str(), nullptr);
      break;
    case Scalar::F16:
      e->lit.f = f16_bits_to_f32(f64_to_f16_bits(std::strtod(text.c_str(), nullptr)));
      break;
    case Scalar::BF16:
      e->lit.f = bf16_bits_to_f32(f64_to_bf16_bits(std::strtod(text.c_str(), nullptr)));
      break;
    default:
      e->lit.f = std::strtod(text.c_str(), nullptr);
      break;
  }
  if (std::isinf(e->lit.f)) {
    error("E0004", s, "literal out of range for `" + type_name(t) + "`", "rounds to infinity");
    return error_expr(s);
  }
  return e;
}

tir::Expr* Checker::ordering_arg(const ast::Expr& e, const char* enum_name,
                                 const std::vector<std::string>& names) {
  Span s = span(e);
  const ast::PathExpr* pe = nullptr;
  if (e.rest.empty() && e.first.types.empty() && e.first.operand.ops.empty() &&
      e.first.operand.operand.suffixes.empty())
    pe = boost::get<ast::PathExpr>(&e.first.operand.operand.base);
  std::string all;
  for (size_t i = 0; i < names.size(); ++i)
    all += (i ? ", `" : "`") + std::string(enum_name) + "::" + names[i] + "`";
  if (pe && !pe->call_args && pe->path.segments.size() == 2 &&
      pe->path.segments[0].name == enum_name) {
    for (size_t i = 0; i < names.size(); ++i)
      if (pe->path.segments[1].name == names[i]) {
        tir::Expr* lit = make(tir::ExprKind::Literal, Type::of(Scalar::I32), s);
        lit->lit.i = static_cast<int64_t>(i);
        return lit;
      }
  }
  error("E0403", s, std::string("expected a `") + enum_name + "`", "one of " + all);
  return error_expr(s);
}

namespace {
const std::vector<std::string> kOrderings = {
#define VX_ORDERING(Name, before, after, order) #Name,
#include "check/orderings.def"
#undef VX_ORDERING
};
const std::vector<std::string> kScopes = {
#define VX_FENCE_SCOPE(Name, cuda) #Name,
#include "check/orderings.def"
#undef VX_FENCE_SCOPE
};
}  // namespace

tir::Expr* Checker::check_call(const ast::PathExpr& p, const Type* expected, Span s) {
  const auto& segs = p.path.segments;
  const auto& args = *p.call_args;
  std::string name;
  for (size_t i = 0; i < segs.size(); ++i) name += (i ? "::" : "") + segs[i].name;
  auto arity = [&](size_t n) {
    if (args.size() == n) return true;
    error("E0201", s,
          "`" + name + "` takes " + std::to_string(n) + (n == 1 ? " argument" : " arguments") +
              " but " + std::to_string(args.size()) + (args.size() == 1 ? " was" : " were") +
              " given",
          "wrong number of arguments");
    return false;
  };
  auto make_builtin = [&](tir::BuiltinId id, const Type& t) {
    tir::Expr* e = make(tir::ExprKind::Builtin, t, s);
    e->builtin = id;
    return e;
  };
  // A tensor reference argument (`&t` / `&mut t`).
  auto ref_arg = [&](const ast::Expr& a, bool want_mut, const char* role) -> tir::Expr* {
    tir::Expr* e = check_expr(a, nullptr);
    if (e->type.is_error()) return e;
    if (e->type.kind != TypeKind::Ref || (want_mut && !e->type.ref_mut)) {
      error("E0200", span(a),
            std::string("`") + name + "` takes " + (want_mut ? "`&mut` " : "`&` ") +
                "to a tensor as its " + role + ", found `" + type_name(e->type) + "`",
            want_mut ? "write `&mut name`" : "write `&name`");
      return error_expr(span(a));
    }
    return e;
  };
  auto int_arg = [&](const ast::Expr& a, const Type& t) {
    tir::Expr* e = check_expr(a, &t);
    return coerce(e, t, span(a));
  };

  if (name == "transfer") {
    if (!arity(2)) return error_expr(s);
    tir::Expr* x = check_expr(args[0], nullptr);
    Memory m = Memory::CpuDram;
    const ast::Expr& ma = args[1];
    const ast::PathExpr* mp = nullptr;
    if (ma.rest.empty() && ma.first.types.empty() && ma.first.operand.ops.empty() &&
        ma.first.operand.operand.suffixes.empty())
      mp = boost::get<ast::PathExpr>(&ma.first.operand.operand.base);
    bool ok = mp && !mp->call_args && mp->path.segments.size() == 2 &&
              mp->path.segments[0].name == "Memory";
    std::string mn = ok ? mp->path.segments[1].name : "";
    if (mn == "CPU_DRAM")
      m = Memory::CpuDram;
    else if (mn == "HBM")
      m = Memory::Hbm;
    else if (mn == "SMEM") {
      error("E0402", span(ma), "a tensor cannot be transferred to SMEM",
            "SMEM tiles are made in block code with `uninit()`");
      return error_expr(s);
    } else {
      error("E0403", span(ma), "expected a memory", "`Memory::CPU_DRAM` or `Memory::HBM`");
      return error_expr(s);
    }
    if (x->type.is_error()) return error_expr(s);
    bool fresh = x->kind == tir::ExprKind::TensorNew;  // `transfer(Tensor<…>::fill(v), M)`
    if (!fresh && (x->kind != tir::ExprKind::Var || x->type.kind != TypeKind::Tensor)) {
      error("E0200", span(args[0]), "`transfer` moves a tensor, found `" + type_name(x->type) + "`",
            x->type.kind == TypeKind::Ref ? "a reference cannot be moved" : "not a tensor");
      return error_expr(s);
    }
    if (spawn_depth_ > 0) {
      error("E0200", s, "`transfer` cannot be called in a `spawn on` region",
            "move data before or after the region");
      return error_expr(s);
    }
    mark_moved(x, s);
    Type t = x->type;
    t.memory = m;
    tir::Expr* e = make(tir::ExprKind::Transfer, t, s);
    e->args = {x};
    return e;
  }
  // builtins.def's rows called as functions: the arity is the row's, the rest its kind's.
  std::optional<BuiltinId> id = builtin_called(name);
  if (id && tir::is_atomic(*id) && segs.size() != 1) id.reset();
  const BuiltinKind kind = id ? tir::builtin_kind(*id) : BuiltinKind::Method;
  Scalar atomic_scalar = Scalar::I32;  // an atomic family's type (`atomic_load_i32`)
  std::string ty;
  if (id && kind == BuiltinKind::Atomic) {
    ty = name.substr(std::strlen(tir::builtin_spelling(*id)) + 1);
    if (!scalar_by_name(ty, atomic_scalar) || !scalar_info(atomic_scalar).atomic) {
      error("E0101", s, "unknown atomic `" + name + "`", "atomics exist for " + atomic_type_list());
      return error_expr(s);
    }
  }
  const size_t nargs = id ? static_cast<size_t>(tir::builtin_row(*id).arity) : 0;
  if (id && !arity(nargs)) return error_expr(s);
  if (segs.size() == 2 && segs[0].name == "lanes") {
    Type i32 = Type::of(Scalar::I32);
    if (id && (kind == BuiltinKind::Reduce || kind == BuiltinKind::Lanes)) {  // `f(&tile, n)`
      // A routine that writes its tile (builtins.def's effect) takes it as `&mut`.
      tir::Expr* t = ref_arg(args[0], tir::builtin_writes_first(*id), "first argument");
      // lanes::sort's own types: a tile of i64 whose size is a power of two.
      const bool is_sort = *id == BuiltinId::LanesSort;
      tir::Expr* n = int_arg(args[1], i32);
      if (t->type.is_error() || n->type.is_error()) return error_expr(s);
      if (t->type.rank() != 1) {
        error("E0200", span(args[0]),
              "`" + name + "` works on a tile of one dimension, not " +
                  std::to_string(t->type.rank()));
        return error_expr(s);
      }
      if (t->type.memory != Memory::Smem) {
        // The lanes of a block reduce what they share: a tile (seed 000). A tensor in HBM is
        // read by every block at once, and the GPU path reduces only shared memory.
        auto& d = error("E0200", span(args[0]),
                        "`" + name + "` works on an SMEM tile, not on a tensor in " +
                            memory_name(t->type.memory),
                        "not an SMEM tile");
        d.helps.push_back(
            "copy the elements into a tile made with `unsafe { Tensor<…, "
            "Memory::SMEM>::uninit() }` in a lane loop first");
        return error_expr(s);
      }
      Scalar sc = t->type.scalar;
      if (sc == Scalar::Bool) {
        error("E0200", span(args[0]), "`" + name + "` needs a tile of numbers, not of bool");
        return error_expr(s);
      }
      if (is_sort && sc != Scalar::I64) {
        error("E0200", span(args[0]),
              "`lanes::sort` sorts a tile of i64, not of " + std::string(scalar_info(sc).name));
        return error_expr(s);
      }
      if (is_sort) {
        int64_t size = t->type.dims[0];
        if (size > 0 && (size & (size - 1)) != 0) {
          error("E0200", span(args[0]),
                "`lanes::sort` needs a tile whose size is a power of two, not " +
                    std::to_string(size));
          return error_expr(s);
        }
      }
      tir::Expr* e = make_builtin(*id, builtin_result(*id, t->type));
      e->args = {t, n};
      return e;
    }
    if (id && kind == BuiltinKind::Copy) {
      tir::Expr* tile =
          ref_arg(args[0], tir::builtin_writes_first(*id), "first argument (the tile)");
      tir::Expr* src = ref_arg(args[1], false, "second argument (the source)");
      const ast::Expr& ia = args[2];
      const ast::ArrayLit* arr = whole_array(ia);
      if (!arr) {
        error("E0200", span(ia), "`lanes::copy_async` takes the start index as an array `[i, j]`",
              "expected `[…]`");
        return error_expr(s);
      }
      std::vector<tir::Expr*> idx;
      for (const auto& x : arr->elems) {
        tir::Expr* i = check_expr(x, nullptr);
        if (!i->type.is_error() && !(i->type.is_scalar() && is_int(i->type.scalar))) {
          error("E0200", span(x), "an index must be an integer, not `" + type_name(i->type) + "`");
          i = error_expr(span(x));
        }
        idx.push_back(i);
      }
      if (tile->type.is_error() || src->type.is_error()) return error_expr(s);
      if (tile->type.scalar != src->type.scalar) {
        error("E0200", s,
              "the tile holds `" + std::string(scalar_info(tile->type.scalar).name) +
                  "` but the source holds `" + scalar_info(src->type.scalar).name + "`");
        return error_expr(s);
      }
      if (tile->type.rank() != src->type.rank() ||
          static_cast<int>(idx.size()) != src->type.rank()) {
        error("E0200", s,
              "the tile, the source and the start index must have one rank (tile " +
                  std::to_string(tile->type.rank()) + ", source " +
                  std::to_string(src->type.rank()) + ", index " + std::to_string(idx.size()) + ")");
        return error_expr(s);
      }
      if (tile->type.scalar != Scalar::F32 && tile->type.scalar != Scalar::F16 &&
          tile->type.scalar != Scalar::BF16) {
        error("E0200", span(args[0]),
              std::string("`lanes::copy_async` copies tiles of f32, f16 or bf16, not of ") +
                  scalar_info(tile->type.scalar).name,
              "unsupported element type");
        return error_expr(s);
      }
      if (tile->type.memory != Memory::Smem) {
        error("E0200", span(args[0]),
              "`lanes::copy_async` copies into an SMEM tile, not into " +
                  std::string(memory_name(tile->type.memory)));
        return error_expr(s);
      }
      tir::Expr* e = make_builtin(*id, builtin_result(*id, tile->type));
      e->args = {tile, src};
      e->args.insert(e->args.end(), idx.begin(), idx.end());
      return e;
    }
    const std::vector<std::string> routines = builtin_spellings(
        [](BuiltinId b) { return std::string(tir::builtin_spelling(b)).rfind("lanes::", 0) == 0; });
    std::vector<std::string> short_names;
    for (const std::string& r : routines) short_names.push_back(r.substr(7));  // after lanes::
    auto& d = error("E0101", s, "unknown built-in `" + name + "`",
                    "the `lanes::` routines are " + and_list(short_names));
    if (auto near = closest_name(name, routines))
      d.helps.push_back("a routine with a similar name exists: `" + *near + "`");
    return error_expr(s);
  }
  if (id && kind == BuiltinKind::Fence) {
    tir::Expr* o = ordering_arg(args[0], "AtomicOrdering", kOrderings);
    tir::Expr* sc = ordering_arg(args[1], "FenceScope", kScopes);
    if (o->type.is_error() || sc->type.is_error()) return error_expr(s);
    tir::Expr* e = make_builtin(*id, builtin_result(*id, Type::unit()));
    e->args = {o, sc};
    return e;
  }
  if (id && kind == BuiltinKind::Atomic) {
    const Scalar sc = atomic_scalar;
    tir::Expr* t = ref_arg(args[0], false, "first argument");
    tir::Expr* idx = check_expr(args[1], nullptr);
    if (!idx->type.is_error() && !(idx->type.is_scalar() && is_int(idx->type.scalar))) {
      error("E0200", span(args[1]), "the index of an atomic must be an integer");
      idx = error_expr(span(args[1]));
    }
    Type et = Type::of(sc);
    std::vector<tir::Expr*> vals;
    for (size_t k = 2; k + 1 < nargs; ++k)
      vals.push_back(coerce(check_expr(args[k], &et), et, span(args[k])));
    tir::Expr* o = ordering_arg(args[nargs - 1], "AtomicOrdering", kOrderings);
    if (t->type.is_error() || idx->type.is_error() || o->type.is_error()) return error_expr(s);
    for (auto* v : vals)
      if (v->type.is_error()) return error_expr(s);
    if (t->type.scalar != sc) {
      error("E0200", span(args[0]),
            "`" + name + "` works on a tensor of " + ty + ", but this one holds " +
                scalar_info(t->type.scalar).name,
            "wrong element type");
      return error_expr(s);
    }
    // An atomic reaches an element: the memory rule, as for indexing.
    const tir::Expr* root = t;
    while (root->kind != tir::ExprKind::Var && !root->args.empty()) root = root->args[0];
    if (!memory_rule(span(args[0]), root->text, t->type.memory)) return error_expr(s);
    tir::Expr* e = make_builtin(*id, builtin_result(*id, t->type));
    e->args = {t, idx};
    e->args.insert(e->args.end(), vals.begin(), vals.end());
    e->args.push_back(o);
    return e;
  }
  // A user function.
  auto it = fn_by_name_.find(name);
  if (segs.size() != 1 || it == fn_by_name_.end()) {
    Local* l = segs.size() == 1 ? lookup(name) : nullptr;
    auto& d = error("E0101", span(p.path), "cannot find function `" + name + "`",
                    l ? "a variable, not a function" : "not found");
    std::vector<std::string> fns;
    for (const auto& [f, index] : fn_by_name_) fns.push_back(f);
    if (segs.size() == 1 && is_method_name(name))
      d.helps.push_back("`" + name + "` is a method: write `x." + name + "(…)`");
    else if (auto near = closest_name(name, fns))
      d.helps.push_back("a function with a similar name exists: `" + *near + "`");
    for (const auto& a : args) check_expr(a, nullptr);
    return error_expr(s);
  }
  const FnSig& sig = sigs_[it->second];
  if (!arity(sig.params.size())) {
    for (const auto& a : args) check_expr(a, nullptr);
    return error_expr(s);
  }
  // A function called from device code runs there for that call (spec/memory.md §1): the
  // memories it may index are decided per call (check_device_calls); the kernel rules (E6032)
  // decide what a kernel may call.
  if (fn_index_ >= 0) callees_[fn_index_].push_back(it->second);
  if (spawn_depth_ > 0)
    device_calls_.push_back({it->second, s});
  else if (fn_index_ >= 0)
    plain_calls_[fn_index_].push_back({it->second, s});
  tir::Expr* e = make(tir::ExprKind::Call, sig.ret, s);
  e->fn_index = it->second;
  e->text = name;
  if (sig.ret.kind == TypeKind::String) host_only(e);
  bool bad = false;
  for (size_t i = 0; i < args.size(); ++i) {
    tir::Expr* a = check_expr(args[i], &sig.params[i]);
    if (!compatible(sig.params[i], a->type) && !a->type.is_error()) {
      auto& d =
          error("E0200", span(args[i]),
                "mismatched types: parameter `" + sig.param_names[i] + "` of `" + name + "` is `" +
                    type_name(sig.params[i]) + "`, found `" + type_name(a->type) + "`",
                "argument " + std::to_string(i + 1));
      d.secondary.push_back({sig.span, "`" + name + "` defined here"});
      if (sig.params[i].kind == TypeKind::Ref && a->type.kind == TypeKind::Tensor)
        d.helps.push_back(std::string("pass a reference: `") +
                          (sig.params[i].ref_mut ? "&mut " : "&") +
                          (a->text.empty() ? "x" : a->text) + "`");
      if (sig.params[i].is_struct_ref() && a->type.is_struct() && !a->type.struct_ref)
        d.helps.push_back(std::string("pass a reference: `") +
                          (sig.params[i].ref_mut ? "&mut " : "&") + "…`");
      run_time_size_help(d, sig.params[i], a->type);
      literal_type_help(d, a, sig.params[i]);
      bad = true;
    }
    if (a->type.is_error()) bad = true;
    mark_moved(a, span(args[i]));
    e->args.push_back(a);
  }
  (void)expected;
  return bad ? error_expr(s) : finish_call(e, sig);
}

tir::Expr* Checker::check_method(tir::Expr* recv, const ast::MethodSuffix& m, Span s) {
  const std::string& name = m.name.name;
  std::vector<tir::Expr*> args;
  const Type& rt = recv->type;
  if (rt.is_error()) {
    for (const auto& a : m.args) check_expr(a, nullptr);
    return error_expr(s);
  }
  auto arity = [&](size_t n) {
    if (m.args.size() == n) return true;
    error("E0201", s,
          "`." + name + "()` takes " + std::to_string(n) + (n == 1 ? " argument" : " arguments") +
              " but " + std::to_string(m.args.size()) + " were given",
          "wrong number of arguments");
    return false;
  };
  auto builtin = [&](BuiltinId id) {
    tir::Expr* e = make(tir::ExprKind::Builtin, builtin_result(id, rt), s);
    e->builtin = id;
    e->args.push_back(recv);
    return e;
  };
  if (rt.is_array()) return array_len(recv, m, s);
  const std::optional<BuiltinId> id = builtin_named(name);
  if (rt.kind == TypeKind::Token) {
    if (name != "wait") {
      error("E0105", span(m.name), "a token has no method `" + name + "`", "only `.wait()`");
      return error_expr(s);
    }
    if (!arity(tir::builtin_row(BuiltinId::Wait).arity)) return error_expr(s);
    if (recv->kind == tir::ExprKind::Var) {
      if (Local* l = lookup(recv->text)) {
        if (l->moved) {
          error("E0301", s, "the token `" + recv->text + "` was already waited for");
        }
        l->moved = true;
        l->moved_at = s;
      }
    }
    return builtin(BuiltinId::Wait);
  }
  if (rt.kind == TypeKind::String) {
    if (name != "len") {
      auto& d = error("E0105", span(m.name), "`&str` has no method `" + name + "`",
                      "a string slice has `.len()`");
      if (auto near = closest_name(name, {"len"}))
        d.helps.push_back("there is a method `" + *near + "` with a similar name");
      return error_expr(s);
    }
    if (!arity(tir::builtin_row(BuiltinId::Len).arity)) return error_expr(s);
    return builtin(BuiltinId::Len);  // bytes, as Rust's `str::len`
  }
  if (rt.is_tensor_like()) {
    if (id && tir::builtin_kind(*id) == BuiltinKind::Query) {  // `.len()`, `.dim(k)`
      if (!arity(tir::builtin_row(*id).arity)) return error_expr(s);
      tir::Expr* k = nullptr;
      if (*id == BuiltinId::Dim) {
        Type i32 = Type::of(Scalar::I32);
        k = coerce(check_expr(m.args[0], &i32), i32, span(m.args[0]));
        if (k->type.is_error()) return error_expr(s);
        if (k->kind != tir::ExprKind::Literal || k->lit.i < 0 || k->lit.i >= rt.rank()) {
          error("E0200", span(m.args[0]),
                "`.dim(k)` needs a constant k from 0 to " + std::to_string(rt.rank() - 1));
          return error_expr(s);
        }
      }
      tir::Expr* e = builtin(*id);
      if (k) e->args.push_back(k);
      return e;
    }
    auto& d = error("E0105", span(m.name), "a tensor has no method `" + name + "`",
                    "tensors have `.len()` and `.dim(k)`");
    if (auto near = closest_name(name, builtin_spellings([](BuiltinId b) {
                                   return tir::builtin_kind(b) == BuiltinKind::Query;
                                 })))
      d.helps.push_back("there is a method `" + *near + "` with a similar name");
    return error_expr(s);
  }
  if (!rt.is_scalar() || !is_number(rt.scalar)) {
    auto& d = error("E0105", span(m.name), "`" + type_name(rt) + "` has no method `" + name + "`");
    if (rt.is_struct())
      d.helps.push_back("Vx has no methods or `impl` blocks (spec/types.md §9): write `fn " + name +
                        "(p: " + rt.name + ", …)` and call `" + name + "(p, …)`");
    return error_expr(s);
  }
  Scalar sc = rt.scalar;
  // A float's methods: every number method (numeric/math.def's rows and abs, min, max); an
  // integer's: builtins.def's own and pow, whose exponent is a u32 (spec/builtins.md).
  auto int_method = [](BuiltinId b) { return !is_math_row(b) || b == BuiltinId::Pow; };
  if (id && is_number_method(*id) && is_float(sc)) {
    if (!arity(tir::builtin_row(*id).arity)) return error_expr(s);
    if (is_fast_math_row(*id) && sc != Scalar::F32) {
      error("E0105", span(m.name),
            "`." + name + "()` exists for f32 only, not for " + scalar_info(sc).name,
            "use the exact `." + name.substr(5) + "()`");  // fast_NAME: math.def's FAST rows
      return error_expr(s);
    }
    tir::Expr* e = builtin(*id);
    for (const ast::Expr& x : m.args) {
      tir::Expr* a = coerce(check_expr(x, &rt), rt, span(x));
      if (a->type.is_error()) return error_expr(s);
      e->args.push_back(a);
    }
    return e;
  }
  if (id && is_number_method(*id) && !is_float(sc) && int_method(*id)) {
    if (!arity(tir::builtin_row(*id).arity)) return error_expr(s);
    if (*id == BuiltinId::Abs && !is_signed_int(sc)) {
      error("E0105", span(m.name), "`" + type_name(rt) + "` has no method `abs`",
            "unsigned values are never negative");
      return error_expr(s);
    }
    const bool pow = *id == BuiltinId::Pow;
    const Type at = pow ? Type::of(Scalar::U32) : rt;
    std::vector<tir::Expr*> xs;
    for (const ast::Expr& x : m.args) {
      tir::Expr* a = coerce(check_expr(x, &at), at, span(x), pow ? "the exponent" : nullptr);
      if (a->type.is_error()) return error_expr(s);
      xs.push_back(a);
    }
    tir::Expr* e = builtin(*id);
    e->args.insert(e->args.end(), xs.begin(), xs.end());
    return e;
  }
  auto& d = error("E0105", span(m.name), "`" + type_name(rt) + "` has no method `" + name + "`",
                  "unknown method");
  std::vector<std::string> methods = builtin_spellings([&](BuiltinId b) {
    return is_number_method(b) &&
           (is_float(sc) || (int_method(b) && (b != BuiltinId::Abs || is_signed_int(sc))));
  });
  if (is_float(sc))
    std::sort(methods.begin(), methods.end());
  else  // pow last
    std::stable_partition(methods.begin(), methods.end(),
                          [](const std::string& x) { return x != "pow"; });
  if ((name == "rev" || name == "step_by") && !is_float(sc))
    d.helps.push_back(
        "`." + name +
        "()` belongs to a range, written in parentheses in a `for`: `for i in (a..b)." + name +
        (name == "rev" ? "()" : "(k)") + "`");
  else if (auto near = closest_name(name, methods))
    d.helps.push_back("there is a method `" + *near + "` with a similar name");
  return error_expr(s);
}

tir::Expr* Checker::check_tensor_ctor(const ast::TensorCtor& c, Span s) {
  Type t = resolve_type(ast::Type(c.type));
  const std::string& method = c.method.name;
  if (method != "fill" && method != "uninit" && method != "fill_dims") {
    error("E0105", span(c.method), "`Tensor` has no constructor `" + method + "`",
          "use `fill(v)`, `fill_dims([n, …], v)` or `uninit()`");
    return error_expr(s);
  }
  if (t.is_error()) {
    for (const auto& a : c.args)
      if (!whole_array(a)) check_expr(a, nullptr);
    return error_expr(s);
  }
  if (method == "fill_dims") return check_fill_dims(c, t, s);
  for (int64_t d : t.dims)
    if (d == kUnknownDim) {
      auto& diag =
          error("E0206", s, "a new tensor needs every dimension, not `?`", "unknown dimension");
      if (method == "fill")
        diag.helps.push_back("give the sizes when the program runs: `fill_dims([n, …], v)`");
      return error_expr(s);
    }
  tir::Expr* e = make(tir::ExprKind::TensorNew, t, s);
  if (method == "fill") {
    if (c.args.size() != 1) {
      error("E0201", s,
            "`fill` takes 1 argument but " + std::to_string(c.args.size()) + " were given");
      return error_expr(s);
    }
    Type et = Type::of(t.scalar);
    tir::Expr* v = coerce(check_expr(c.args[0], &et), et, span(c.args[0]), "the fill value");
    if (v->type.is_error()) return error_expr(s);
    e->builtin_fill = true;
    e->args = {v};
    if (t.memory == Memory::Smem && spawn_depth_ == 0) {
      error("E0402", s, "an SMEM tile can only be made in a `spawn on` region", "in host code");
      return error_expr(s);
    }
    return e;
  }
  if (!c.args.empty()) {
    error("E0201", s, "`uninit` takes no arguments");
    return error_expr(s);
  }
  if (t.memory != Memory::Smem) {
    auto& d = error(
        "E0402", s,
        std::string("`uninit()` makes SMEM tiles only, not tensors in ") + memory_name(t.memory),
        "not in SMEM");
    d.helps.push_back("use `fill(v)`");
    return error_expr(s);
  }
  if (unsafe_depth_ == 0) {
    auto& d = error("E0402", s, "`uninit()` is unsafe: its elements hold no value yet",
                    "outside an `unsafe` block");
    d.helps.push_back("write `unsafe { Tensor<…, Memory::SMEM>::uninit() }`");
    return error_expr(s);
  }
  if (spawn_depth_ == 0) {
    error("E0402", s, "an SMEM tile can only be made in a `spawn on` region", "in host code");
    return error_expr(s);
  }
  return e;
}

namespace {
// The string literal that is the whole of `e`, or null.
const ast::StringLit* plain_string(const ast::Expr& e) {
  if (!e.rest.empty() || !e.first.types.empty() || !e.first.operand.ops.empty() ||
      !e.first.operand.operand.suffixes.empty())
    return nullptr;
  return boost::get<ast::StringLit>(&e.first.operand.operand.base);
}
}  // namespace

namespace {

// How a value of type `t` is formatted (fmt::check_spec's classes), or none.
std::optional<fmt::ArgClass> arg_class(const Type& t) {
  if (t.kind == TypeKind::String) return fmt::ArgClass::Str;
  if (!t.is_scalar()) return std::nullopt;
  if (t.scalar == Scalar::Char) return fmt::ArgClass::Char;
  if (t.scalar == Scalar::Bool) return fmt::ArgClass::Bool;
  return is_float(t.scalar) ? fmt::ArgClass::Float : fmt::ArgClass::Integer;
}

// What is wrong with `{:?}`'s `spec` for a scalar of the tuple `t` (each takes the spec, and
// `{:#?}` of a scalar is its `{:?}`), or "".
std::string tuple_spec_error(const Type& t, fmt::Spec spec) {
  spec.alternate = false;
  for (const Type& e : t.elems) {
    std::string bad = e.is_tuple()   ? tuple_spec_error(e, spec)
                      : e.is_array() ? fmt::check_spec(spec, *arg_class(Type::of(e.scalar)))
                                     : fmt::check_spec(spec, *arg_class(e));
    if (!bad.empty()) return bad;
  }
  return "";
}

}  // namespace

bool Checker::check_format(const std::vector<ast::Expr>& args, size_t first, Span s,
                           tir::Expr* into) {
  const ast::Expr& fa = args[first];
  const ast::StringLit* lit = plain_string(fa);
  if (!lit) {
    error("E0501", span(fa), "format argument must be a string literal",
          "expected a string like \"{}\"");
    return false;
  }
  std::vector<fmt::Piece> pieces;
  std::string err;
  uint32_t err_at = 0;
  if (!fmt::parse_format(lit->value, pieces, err, err_at)) {
    error("E0501", span(fa), "invalid format string: " + err, "in this format string");
    return false;
  }
  // Arguments: the positional ones, then captured names.
  size_t nargs = args.size() - first - 1;
  std::vector<tir::Expr*> values;
  // A string literal argument is text of the format, allowed in device code too (E0405 is for
  // `&str` values).
  for (size_t i = 0; i < nargs; ++i) {
    const ast::Expr& x = args[first + 1 + i];
    const ast::StringLit* text = plain_string(x);
    values.push_back(text ? string_literal(*text, span(x)) : check_expr(x, nullptr));
  }
  std::vector<bool> used(nargs, false);
  int next = 0;
  bool ok = true;
  std::string pending;
  for (const auto& p : pieces) {
    if (!p.is_arg) {
      pending += p.literal;
      continue;
    }
    tir::Expr* v = nullptr;
    int index = -1;
    if (!p.name.empty()) {
      v = use_var(p.name, span(fa), false);
      values.push_back(v);
      index = static_cast<int>(values.size()) - 1;
    } else {
      index = p.arg_index >= 0 ? p.arg_index : next++;
      if (index >= static_cast<int>(nargs)) {
        error("E0501", span(fa),
              "the format string refers to argument " + std::to_string(index + 1) + " but " +
                  std::to_string(nargs) + (nargs == 1 ? " argument was" : " arguments were") +
                  " given",
              "too few arguments");
        ok = false;
        continue;
      }
      used[index] = true;
      v = values[index];
    }
    if (!v->type.is_error()) {
      std::string bad;
      if (v->type.is_array()) {
        if (!debug_format(v, p.spec, span(fa))) {
          ok = false;
          continue;
        }
        bad = fmt::check_spec(p.spec, *arg_class(Type::of(v->type.scalar)));
      } else if (v->type.is_tuple()) {
        // As rustc's E0277: a tuple has `{:?}` only; each scalar takes the spec.
        if (!struct_tensor_format(v) || !debug_format(v, p.spec, span(fa))) {
          ok = false;
          continue;
        }
        bad = tuple_spec_error(v->type, p.spec);
      } else if (std::optional<fmt::ArgClass> c = arg_class(v->type)) {
        bad = fmt::check_spec(p.spec, *c);
      } else {
        error("E0501", v->span, "cannot format a value of type `" + type_name(v->type) + "`",
              "only scalars and strings can be printed");
        ok = false;
        continue;
      }
      if (!bad.empty()) {
        error("E0501", span(fa), bad, "in this format string");
        ok = false;
        continue;
      }
    } else {
      ok = false;
    }
    tir::FormatPiece fp;
    fp.literal = std::move(pending);
    pending.clear();
    fp.arg = index;
    fp.spec = p.spec;
    into->format.push_back(std::move(fp));
  }
  if (!pending.empty()) {
    tir::FormatPiece fp;
    fp.literal = std::move(pending);
    into->format.push_back(std::move(fp));
  }
  for (size_t i = 0; i < nargs; ++i)
    if (!used[i]) {
      error("E0501", span(args[first + 1 + i]), "argument never used by the format string",
            "unused argument");
      ok = false;
    }
  into->args = std::move(values);
  if (ok) expand_tuple_args(into);
  return ok;
}

// `dbg!(x)` (spec/builtins.md §7): x's value, and a line on stderr with the place, the loops'
// values and x. A scalar only, so that the GPU's printf can print it too. The loop variables of
// the `for` loops around it in this function are its args[1…], read as any use of them is.
tir::Expr* Checker::check_dbg(const ast::MacroCall& m, Span s) {
  if (m.args.size() != 1) {
    error("E0201", s, "`dbg!` takes one value, not " + std::to_string(m.args.size()),
          "expected `dbg!(value)`");
    return error_expr(s);
  }
  tir::Expr* v = check_expr(m.args[0], nullptr);
  if (v->type.is_error()) return error_expr(s);
  const Span at = span(m.args[0]);
  if (!v->type.is_scalar()) {
    error("E0200", at,
          "`dbg!` prints a scalar (an integer, a float, a bool or a char), not `" +
              type_name(v->type) + "`",
          "not a scalar");
    return error_expr(s);
  }
  tir::Expr* e = make(tir::ExprKind::Builtin, v->type, s);
  e->builtin = tir::BuiltinId::Dbg;
  e->text = std::string(std::string_view(diags_.file().text()).substr(at.begin, at.end - at.begin));
  e->args.push_back(v);
  for (const LoopFlow& flow : loop_flows_) {
    const tir::Stmt* loop = flow.stmt;
    if (!loop || loop->kind != tir::StmtKind::For || loop->slot < 0 || !loop->start) continue;
    tir::Expr* var = make(tir::ExprKind::Var, loop->start->type, s);
    var->slot = loop->slot;
    var->text = loop->var_name;
    e->args.push_back(var);
  }
  return e;
}

tir::Expr* Checker::check_macro(const ast::MacroCall& m, Span s) {
  const std::string& name = m.name.name;
  if (name == "println" || name == "print") {
    tir::Expr* e = make(tir::ExprKind::Print, Type::unit(), s);
    e->newline = name == "println";
    if (m.args.empty()) {
      if (name == "print") {
        error("E0501", s, "`print!` needs a format string", "missing format string");
        return error_expr(s);
      }
      return e;
    }
    if (!check_format(m.args, 0, s, e)) return error_expr(s);
    return with_format_prelude(e);
  }
  if (name == "assert") {
    if (m.args.empty()) {
      error("E0201", s, "`assert!` needs a condition");
      return error_expr(s);
    }
    Type boolean = Type::of(Scalar::Bool);
    tir::Expr* c =
        coerce(check_expr(m.args[0], &boolean), boolean, span(m.args[0]), "the condition");
    tir::Expr* e = make(tir::ExprKind::Assert, Type::unit(), s);
    if (m.args.size() > 1 && !check_format(m.args, 1, s, e)) return error_expr(s);
    if (c->type.is_error()) return error_expr(s);
    e->args.insert(e->args.begin(), c);
    // Format pieces index args from 0 for the message; shift them past the condition.
    for (auto& p : e->format)
      if (p.arg >= 0) ++p.arg;
    return with_format_prelude(e);
  }
  if (name == "assert_eq") {
    if (m.args.size() < 2) {
      error("E0201", s, "`assert_eq!` needs two values");
      return error_expr(s);
    }
    tir::Expr* a;
    tir::Expr* b;
    if (untyped_literal(m.args[0].first) && m.args[0].rest.empty()) {
      b = check_expr(m.args[1], nullptr);
      a = check_expr(m.args[0], b->type.is_error() ? nullptr : &b->type);
    } else {
      a = check_expr(m.args[0], nullptr);
      b = check_expr(m.args[1], a->type.is_error() ? nullptr : &a->type);
    }
    tir::Expr* e = make(tir::ExprKind::Assert, Type::unit(), s);
    e->is_assert_eq = true;
    if (m.args.size() > 2 && !check_format(m.args, 2, s, e)) return error_expr(s);
    if (a->type.is_error() || b->type.is_error()) return error_expr(s);
    if (a->type.is_struct() && a->type == b->type) return struct_compare_error(a->type, "==", s, s);
    if (a->type.is_tuple() && a->type == b->type) return assert_eq_tuples(e, a, b);
    if (!(a->type.is_scalar() || a->type.kind == TypeKind::String || a->type.is_array()) ||
        a->type != b->type) {
      error("E0200", s,
            "`assert_eq!` compares two scalars, two `&str`, two arrays or two tuples of one type, "
            "found `" +
                type_name(a->type) + "` and `" + type_name(b->type) + "`");
      return error_expr(s);
    }
    e->args.insert(e->args.begin(), {a, b});
    for (auto& p : e->format)
      if (p.arg >= 0) p.arg += 2;
    return with_format_prelude(e);
  }
  if (name == "dbg") return check_dbg(m, s);
  auto& d = error("E0502", span(m.name), "unknown macro `" + name + "!`", "not a macro");
  d.helps.push_back(unknown_macro_help(name));
  return error_expr(s);
}

}  // namespace vx::check
