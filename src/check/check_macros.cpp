// Macros: println!/print! and their format strings, assert!/assert_eq!, dbg!
// (spec/formatting.md, spec/builtins.md).
#include <boost/variant/get.hpp>

#include "check/checker_impl.hpp"
#include "parse/syntax_errors.hpp"

namespace vx::check {

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
    fields_read(values.back()->type);  // `{:?}` of a struct prints every field
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
  into->args = std::move(values);  // a tuple stays one argument until the lowering
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
    return e;
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
    return e;
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
    if (!(a->type.is_scalar() || a->type.kind == TypeKind::String || a->type.is_array() ||
          a->type.is_tuple()) ||
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
    return e;
  }
  if (name == "dbg") return check_dbg(m, s);
  auto& d = error("E0502", span(m.name), "unknown macro `" + name + "!`", "not a macro");
  d.helps.push_back(unknown_macro_help(name));
  return error_expr(s);
}

}  // namespace vx::check
