// Arrays `[T; N]` of scalars (spec/types.md §7): their types, the literals `[a, b, c]` and
// `[v; N]` with literal inference through the element type, indexing (a constant index out of
// bounds is E0220, as rustc's `unconditional_panic`), `.len()`, `==` and `!=`. An array is a
// value (Copy): the back ends copy it where a tensor would move.
#include "check/checker_impl.hpp"
#include "support/suggest.hpp"

namespace vx::check {

namespace {

// An array, or a tuple or struct with one among its elements: Vx has no `{:#?}` for arrays.
bool holds_array(const Type& t) {
  if (t.is_array()) return true;
  for (const Type& e : t.elems)
    if (holds_array(e)) return true;
  return false;
}

// An array's elements, all dimensions together: small enough for a frame, a GPU lane's registers
// and local memory (spec/types.md §7).
constexpr int64_t kMaxArrayElems = 4096;
constexpr int kMaxArrayRank = 8;

// The type of one element of `a`: its scalar, or the array one level in.
Type element_of(const Type& a) {
  if (a.dims.size() <= 1) return Type::of(a.scalar);
  return Type::array(a.scalar, std::vector<int64_t>(a.dims.begin() + 1, a.dims.end()));
}

}  // namespace

bool Checker::array_length(const ast::Dim& d, int64_t& out) {
  Span s = span(d);
  if (d.text == "?") {
    error("E0206", s, "an array's length is a number or a const, not `?`",
          "`?` is for tensor parameters");
    return false;
  }
  if (d.text[0] >= '0' && d.text[0] <= '9') {
    ast::IntLit lit;
    lit.text = d.text;
    Type i64 = Type::of(Scalar::I64);
    tir::Expr* e = check_int_lit(lit, &i64, false, s);
    if (e->type.is_error()) return false;
    out = e->lit.i;
  } else {
    Type ct;
    tir::Literal cv;
    if (!const_value(d.text, s, ct, cv)) {
      error("E0206", s, "the length `" + d.text + "` is not a const",
            "an array's length is a number or a const");
      return false;
    }
    if (ct.is_error()) return false;
    if (!ct.is_scalar() || !is_int(ct.scalar)) {
      error("E0206", s, "the length `" + d.text + "` is not an integer const");
      return false;
    }
    out = cv.i;
  }
  if (out < 1 || out > kMaxArrayElems) {
    error("E0206", s,
          "an array's length must be between 1 and " + std::to_string(kMaxArrayElems) + ", not " +
              std::to_string(out),
          "out of range");
    return false;
  }
  return true;
}

Type Checker::array_of(const Type& elem, int64_t n, Span s) {
  if (elem.is_error()) return elem;
  if (!elem.is_scalar() && !elem.is_array()) {
    error("E0104", s, "an array holds scalars or arrays of them, not `" + type_name(elem) + "`",
          "not an element type");
    return Type::error();
  }
  const int64_t inner = elem.is_array() ? elem.static_size() : 1;
  if (n * inner > kMaxArrayElems) {
    error("E0206", s,
          "the array has " + std::to_string(n * inner) + " elements, more than " +
              std::to_string(kMaxArrayElems),
          "too large");
    return Type::error();
  }
  if (elem.rank() + 1 > kMaxArrayRank) {
    error("E0206", s, "arrays nest at most " + std::to_string(kMaxArrayRank) + " deep");
    return Type::error();
  }
  std::vector<int64_t> dims = {n};
  dims.insert(dims.end(), elem.dims.begin(), elem.dims.end());
  return Type::array(elem.scalar, std::move(dims));
}

Type Checker::resolve_array_type(const ast::ArrayType& a) {
  Type elem = resolve_type(a.elem.get());
  if (elem.is_error()) return elem;
  int64_t n = 0;
  if (!array_length(a.len, n)) return Type::error();
  return array_of(elem, n, span(a));
}

tir::Expr* Checker::check_array_lit(const ast::ArrayLit& a, const Type* expected, Span s) {
  Type want;
  const Type* elem_expected = nullptr;
  if (expected && expected->is_array()) {
    want = element_of(*expected);
    elem_expected = &want;
  }
  tir::Expr* e = make(tir::ExprKind::ArrayLit, Type::error(), s);
  if (a.repeat) {
    if (a.elems.size() != 1) {
      error("E0200", s, "`[v; N]` repeats one value, this has " + std::to_string(a.elems.size()),
            "write `[v; N]` or `[a, b, c]`");
      for (const auto& x : a.elems) check_expr(x, nullptr);
      return error_expr(s);
    }
    int64_t n = 0;
    tir::Expr* v = check_expr(a.elems[0], elem_expected);
    if (!array_length(*a.repeat, n) || v->type.is_error()) return error_expr(s);
    e->type = array_of(v->type, n, span(a.elems[0]));
    if (e->type.is_error()) return error_expr(s);
    e->args = {v};
    return e;
  }
  if (a.elems.empty()) {
    auto& d = error("E0206", s, "an array has at least one element", "an empty array");
    d.notes.push_back("Vx has no arrays of length 0 (spec/types.md §7)");
    return error_expr(s);
  }
  // The elements agree in type: what the context expects, else the first element with a type
  // of its own (spec/types.md §2, context 11), else the first element's.
  size_t first = 0;
  if (!elem_expected) {
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!untyped_value(a.elems[i])) {
        first = i;
        break;
      }
  }
  std::vector<tir::Expr*> elems(a.elems.size(), nullptr);
  elems[first] = check_expr(a.elems[first], elem_expected);
  Type et = elem_expected ? *elem_expected : elems[first]->type;
  bool ok = !elems[first]->type.is_error();
  for (size_t i = 0; i < a.elems.size(); ++i) {
    if (i != first) elems[i] = check_expr(a.elems[i], et.is_error() ? nullptr : &et);
    if (!et.is_error())
      elems[i] = coerce(elems[i], et, span(a.elems[i]), i == first ? "this" : "this element");
    ok = ok && !elems[i]->type.is_error();
  }
  if (!ok || et.is_error()) return error_expr(s);
  e->type = array_of(et, static_cast<int64_t>(elems.size()), s);
  if (e->type.is_error()) return error_expr(s);
  e->args = std::move(elems);
  return e;
}

tir::Expr* Checker::check_array_index(tir::Expr* base, const std::vector<tir::Expr*>& indices,
                                      Span s) {
  const Type& t = base->type;
  const int rank = t.rank();
  const int n = static_cast<int>(indices.size());
  if (n != rank) {
    auto& d = error("E0204", s,
                    "`" + base->text + "` has " + std::to_string(rank) +
                        (rank == 1 ? " dimension" : " dimensions") + " but " + std::to_string(n) +
                        (n == 1 ? " index was" : " indices were") + " given",
                    n > rank ? "too many indices" : "an inner array is not a value here");
    if (n < rank)
      d.helps.push_back("index every dimension: `" + base->text + "[i][j]`, or copy the elements");
    return error_expr(s);
  }
  bool ok = true;
  for (int k = 0; k < n; ++k) {
    if (indices[k]->type.is_error()) {
      ok = false;
      continue;
    }
    // The index's value where it is constant (`1 + 2`, `N - 1`), as rustc's lint sees it.
    const tir::Expr* i = fold_constant(indices[k], false);
    if (!i || i->kind != tir::ExprKind::Literal) continue;
    // rustc's `unconditional_panic`, an error by default: a constant index out of bounds.
    const bool negative = is_signed_int(i->type.scalar) && i->lit.i < 0;
    const uint64_t len = static_cast<uint64_t>(t.dims[k]);
    if (negative || static_cast<uint64_t>(i->lit.i) >= len) {
      auto& d = error("E0220", s, "this operation will panic at runtime",
                      "index out of bounds: the length is " + std::to_string(len) +
                          " but the index is " + std::to_string(i->lit.i));
      d.notes.push_back("the index is a constant, so every run would stop here (spec/types.md §7)");
      ok = false;
    }
  }
  if (!ok) return error_expr(s);
  tir::Expr* e = make(tir::ExprKind::Index, Type::of(t.scalar), s);
  e->args.push_back(base);
  e->args.insert(e->args.end(), indices.begin(), indices.end());
  e->text = base->text;
  return e;
}

tir::Expr* Checker::array_len(tir::Expr* recv, const ast::MethodSuffix& m, Span s) {
  if (m.name.name != "len") {
    auto& d = error("E0105", span(m.name),
                    "`" + type_name(recv->type) + "` has no method `" + m.name.name + "`",
                    "an array has `.len()`");
    if (auto near = closest_name(m.name.name, {"len"}))
      d.helps.push_back("there is a method `" + *near + "` with a similar name");
    return error_expr(s);
  }
  if (!m.args.empty()) {
    error("E0201", s,
          "`.len()` takes 0 arguments but " + std::to_string(m.args.size()) + " were given",
          "wrong number of arguments");
    return error_expr(s);
  }
  // The length is part of the type: a constant, after the receiver runs for its effects (a
  // variable's read stays, so that the lints see it used).
  tir::Expr* len = make(tir::ExprKind::Literal, Type::of(Scalar::I32), s);
  len->lit.i = recv->type.dims[0];
  tir::Block* b = prog_.new_block();
  b->span = s;
  tir::Stmt* st = prog_.new_stmt();
  st->kind = tir::StmtKind::Expr;
  st->span = recv->span;
  st->value = recv;
  b->stmts.push_back(st);
  b->tail = len;
  tir::Expr* e = make(tir::ExprKind::BlockExpr, len->type, s);
  e->block = b;
  return e;
}

tir::Expr* Checker::array_compare(tir::Expr* a, tir::Expr* b, tir::BinOp op, Span op_span,
                                  Span whole) {
  if (op != tir::BinOp::Eq && op != tir::BinOp::Ne) {
    auto& d = error("E0202", op_span,
                    "cannot apply `" + std::string(tir::binop_spelling(op)) + "` to `" +
                        type_name(a->type) + "` and `" + type_name(b->type) + "`",
                    "arrays compare with `==` and `!=` only");
    d.helps.push_back("compare the elements");
    return error_expr(whole);
  }
  if (a->type != b->type) {
    auto& d = error("E0200", op_span,
                    "mismatched types: `" + type_name(a->type) + "` " + tir::binop_spelling(op) +
                        " `" + type_name(b->type) + "`",
                    "both operands must have one type");
    d.secondary.push_back({a->span, "`" + type_name(a->type) + "`"});
    d.secondary.push_back({b->span, "`" + type_name(b->type) + "`"});
    return error_expr(whole);
  }
  tir::Expr* e = make(tir::ExprKind::Binary, Type::of(Scalar::Bool), whole);
  e->bop = op;
  e->args = {a, b};
  return e;
}

// An array or a tuple has Rust's `Debug` form only (E0221); an array has no `{:#?}` in Vx.
bool Checker::debug_format(const tir::Expr* v, const fmt::Spec& spec, Span format) {
  const std::string t = type_name(v->type);
  if (spec.kind != '?') {
    const char* trait = spec.kind == 0     ? "std::fmt::Display"
                        : spec.kind == 'x' ? "std::fmt::LowerHex"
                        : spec.kind == 'X' ? "std::fmt::UpperHex"
                        : spec.kind == 'b' ? "std::fmt::Binary"
                        : spec.kind == 'o' ? "std::fmt::Octal"
                        : spec.kind == 'e' ? "std::fmt::LowerExp"
                                           : "std::fmt::UpperExp";
    auto& d = error("E0221", v->span, "`" + t + "` doesn't implement `" + trait + "`",
                    spec.kind == 0 ? "`" + t + "` cannot be formatted with the default formatter"
                                   : "`" + t + "` cannot be formatted this way");
    d.secondary.push_back({format, "in this format string"});
    d.helps.push_back(v->type.is_struct()  ? "print it with `{:?}`, which shows `" + t + " { … }`"
                      : v->type.is_tuple() ? "print it with `{:?}`, which shows `(1, 2.5)`"
                                           : "print it with `{:?}`, which shows `[1, 2, 3]`");
    return false;
  }
  if (spec.alternate && holds_array(v->type)) {
    error("E0501", format, "Vx prints an array with `{:?}` only, not `{:#?}`",
          "in this format string");
    return false;
  }
  return true;
}

}  // namespace vx::check
