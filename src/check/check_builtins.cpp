// Calls of functions and built-ins, methods and tensor constructors (spec/builtins.md); the
// arguments of each kind of built-in row (builtins.def). Literals are in check_literals.cpp, macros
// in check_macros.cpp.
#include <algorithm>
#include <boost/variant/get.hpp>

#include "check/checker_impl.hpp"
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

}  // namespace

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
    // Any tensor value: a binding (moved), `Tensor<…>::fill(v)`, a call that returns one, an
    // `if` or a block whose value is one (what its arms move is moved), another `transfer`.
    if (x->type.kind != TypeKind::Tensor) {
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

}  // namespace vx::check
