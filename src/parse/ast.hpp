// The abstract syntax tree that the grammar (grammar_def.hpp) builds: plain structs and
// x3::variant, every node position-tagged (ids into the parse's position cache, see parser.hpp).
// Binary operators are kept as flat chains here; the checker folds them by precedence
// (spec/grammar.md).
#pragma once
#include <boost/fusion/include/adapt_struct.hpp>
#include <boost/mpl/size.hpp>
#include <boost/optional.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/internal_error.hpp"

namespace vx::ast {

namespace x3 = boost::spirit::x3;
using x3::position_tagged;

struct Expr;
struct Block;
struct IfExpr;
struct MatchExpr;
struct Type;

struct Ident : position_tagged {
  std::string name;
};

// `a::b::c`
struct Path : position_tagged {
  std::vector<Ident> segments;
};

struct IntLit : position_tagged {
  std::string text;  // digits (with 0x/0b/0o and `_`) followed by an optional suffix
};
struct FloatLit : position_tagged {
  std::string text;
};
struct BoolLit : position_tagged {
  std::string text;  // "true" or "false"
};
struct StringLit : position_tagged {
  std::string value;  // escapes already resolved
};
// `'a'`, `'\n'`: `value` is what stood between the quotes, escapes resolved, in UTF-8 (the
// checker refuses anything but one code point).
struct CharLit : position_tagged {
  std::string value;
};

// One dimension of a tensor type: a literal, `?`, or the name of a const item.
struct Dim : position_tagged {
  std::string text;
};

struct TensorType : position_tagged {
  x3::forward_ast<Type> elem;
  std::vector<Dim> dims;
  boost::optional<Path> memory;
};

// A loop's label, `'outer` (the name without its quote), before a loop or after `break` and
// `continue`; also a reference type's lifetime (`&'static str`).
struct Label : position_tagged {
  std::string name;
};

struct RefType : position_tagged {
  boost::optional<Label> lifetime;
  bool is_mut = false;
  x3::forward_ast<Type> inner;
};

// `[T; N]`: an array of N elements of T (a scalar, or another array).
struct ArrayType : position_tagged {
  x3::forward_ast<Type> elem;
  Dim len;
};

struct NamedType : position_tagged {
  std::string name;  // a scalar type, `void`, `Token`; `()` is spelt "()"
};

// `(T1, T2)`, `(T,)`; `(T)` (one element, no comma) is just `T`.
struct TupleType : position_tagged {
  std::vector<Type> elems;
  bool trailing_comma = false;
};

struct Type : position_tagged, x3::variant<NamedType, TensorType, RefType, ArrayType, TupleType> {
  using base_type::base_type;
  using base_type::operator=;
};

// `Tensor<f32, [64, 300], Memory::SMEM>::fill(1.0)`
struct TensorCtor : position_tagged {
  TensorType type;
  Ident method;
  std::vector<Expr> args;
};

// A path, called when it has arguments: `lanes::sum(&p, 256)`, `Memory::HBM`, `x`.
struct PathExpr : position_tagged {
  Path path;
  boost::optional<std::vector<Expr>> call_args;
};

// `println!("…", a, b)`
struct MacroCall : position_tagged {
  Ident name;
  std::vector<Expr> args;
};

// `[a, b, c]`, or `[v; N]` (one element and `repeat`).
struct ArrayLit : position_tagged {
  std::vector<Expr> elems;
  boost::optional<Dim> repeat;
};

// `(e)`, or a tuple: `(a, b)`, `(a,)` (`rest` holds the elements after the first).
struct Paren : position_tagged {
  x3::forward_ast<Expr> inner;
  std::vector<Expr> rest;
  bool trailing_comma = false;
  bool is_tuple() const { return !rest.empty() || trailing_comma; }
};

// `name: value` in a struct literal, or `name` alone (the field init shorthand, `P { x, n }`).
struct FieldInit : position_tagged {
  Ident name;
  boost::optional<x3::forward_ast<Expr>> value;
};
// `P { x: 1.0, n: 2 }`
struct StructLit : position_tagged {
  Path name;
  std::vector<FieldInit> fields;
};

struct UnitLit : position_tagged {
  char unused = 0;
};

struct UnsafeBlock : position_tagged {
  x3::forward_ast<Block> body;
};

// `['label:] loop { … }`: an expression, whose value is what a `break value;` inside it gives.
struct LoopExpr : position_tagged {
  boost::optional<Label> label;
  x3::forward_ast<Block> body;
};

struct Primary
    : position_tagged,
      x3::variant<FloatLit, IntLit, BoolLit, StringLit, CharLit, TensorCtor, MacroCall, PathExpr,
                  ArrayLit, StructLit, UnitLit, Paren, UnsafeBlock, LoopExpr,
                  x3::forward_ast<IfExpr>, x3::forward_ast<MatchExpr>, x3::forward_ast<Block>> {
  using base_type::base_type;
  using base_type::operator=;
};

struct IndexSuffix : position_tagged {
  x3::forward_ast<Expr> index;
};
struct MethodSuffix : position_tagged {
  Ident name;
  std::vector<Expr> args;
};
// `.0`: a tuple's element; `.x`: a struct's field.
struct FieldSuffix : position_tagged {
  std::string name;
};
struct Suffix : position_tagged, x3::variant<IndexSuffix, MethodSuffix, FieldSuffix> {
  using base_type::base_type;
  using base_type::operator=;
};

struct Postfix : position_tagged {
  Primary base;
  std::vector<Suffix> suffixes;
};

// Prefix operators, outermost first: "-", "!", "*", "&", "&mut".
struct Unary : position_tagged {
  std::vector<std::string> ops;
  Postfix operand;
};

struct Cast : position_tagged {
  Unary operand;
  std::vector<Type> types;  // `x as f32 as i32`
};

struct BinaryRest : position_tagged {
  std::string op;
  Cast operand;
};

// `a op b op c …`, every binary operator of every precedence level in one flat chain.
struct Expr : position_tagged {
  Cast first;
  std::vector<BinaryRest> rest;
};

struct ElseIf : position_tagged {
  Expr cond;
  x3::forward_ast<Block> body;
};

// `if c { } else if d { } else { }`, the `else if` arms kept flat.
struct IfExpr : position_tagged {
  Expr cond;
  x3::forward_ast<Block> then_block;
  std::vector<ElseIf> else_ifs;
  boost::optional<x3::forward_ast<Block>> else_block;
};

// One end of a pattern of a `match` arm: an integer literal (with a `-` before it), `true` or
// `false`, a character literal, or a path (a `const`, `i32::MAX`; a one-segment path that names no
// `const` is a binding, and `_` the wildcard).
struct PatAtom : x3::variant<IntLit, BoolLit, CharLit, Path> {
  using base_type::base_type;
  using base_type::operator=;
};
struct PatValue : position_tagged {
  bool negative = false;
  PatAtom atom;
};
// `..= hi` or `.. hi` after a pattern's first value.
struct PatRangeEnd : position_tagged {
  std::string op;  // "..=" or ".."
  PatValue hi;
};
// One alternative of a pattern (the parts between `|`): `[x @] value [..= value]`, or
// `[x @] (p, q, …)`, a tuple pattern.
struct PatTuple;
struct PatAlt : position_tagged {
  boost::optional<Ident> binding;                    // `x @ …`
  boost::optional<x3::forward_ast<PatTuple>> tuple;  // set: a tuple pattern (`lo` is unused)
  PatValue lo;
  boost::optional<PatRangeEnd> range;
};
// An element of a tuple pattern: a pattern (its alternatives), or `..` (`rest`, no alternatives).
struct PatElem : position_tagged {
  bool rest = false;
  std::vector<PatAlt> alts;
};
// `(p, q, …)`; `(p)` without a comma is `p` itself, as in Rust.
struct PatTuple : position_tagged {
  std::vector<PatElem> elems;
  bool trailing_comma = false;
};

struct AssignTail : position_tagged {
  std::string op;  // "=", "+=", …
  Expr value;
};
// An arm's body: an expression, or an assignment (`x => total += x,`).
struct ArmBody : position_tagged {
  Expr expr;
  boost::optional<AssignTail> assign;
};
// `p | q … [if guard] => body`
struct MatchArm : position_tagged {
  std::vector<PatAlt> alts;
  boost::optional<Expr> guard;
  ArmBody body;
};
// `match scrutinee { arm, … }`
struct MatchExpr : position_tagged {
  Expr scrutinee;
  std::vector<MatchArm> arms;
  char close = '}';
};

struct LetStmt : position_tagged {
  bool is_mut = false;
  Ident name;
  boost::optional<Type> type;
  boost::optional<Expr> init;
};

// The pattern of a `let` that takes a tuple apart: `(a, mut b, _, (c, d))`.
struct LetPattern;
struct TuplePat : position_tagged {
  std::vector<LetPattern> elems;
  char close = ')';
};
struct BindPat : position_tagged {
  bool is_mut = false;
  Ident name;  // `_` ignores the element
};
struct LetPattern : position_tagged, x3::variant<BindPat, x3::forward_ast<TuplePat>> {
  using base_type::base_type;
  using base_type::operator=;
};
// `let (a, b) [: T] = e;`
struct LetTupleStmt : position_tagged {
  TuplePat pat;
  boost::optional<Type> type;
  boost::optional<Expr> init;
};

// An expression statement, or an assignment; `semicolon` is false for a block's tail value.
struct ExprStmt : position_tagged {
  Expr expr;
  boost::optional<AssignTail> assign;
  bool semicolon = false;
};

struct ReturnStmt : position_tagged {
  boost::optional<Expr> value;
};
// `break ['label] [value];` (the value only out of a `loop`).
struct BreakStmt : position_tagged {
  boost::optional<Label> label;
  boost::optional<Expr> value;
};
struct ContinueStmt : position_tagged {
  boost::optional<Label> label;
};

struct WhileStmt : position_tagged {
  boost::optional<Label> label;
  Expr cond;
  x3::forward_ast<Block> body;
};

// `across blocks`, `across lanes`, `across lanes(256)`
struct Across : position_tagged {
  std::string level;                   // "blocks" or "lanes"
  boost::optional<IntLit> lane_count;  // `lanes(N)`
};

// The range of a `for`: `a..b`, `a..=b`, or one in parentheses followed by adapters, in the
// order written: `(a..b).rev()`, `(a..=b).step_by(k)`, `(a..b).step_by(k).rev()`. The checker
// takes `rev()` and `step_by(k)` only.
struct ForRange : position_tagged {
  Expr start;
  std::string range_op;  // ".." or "..="
  Expr end;
  std::vector<MethodSuffix> adapters;
};

struct ForStmt : position_tagged {
  boost::optional<Label> label;
  Ident var;
  ForRange range;
  boost::optional<Across> across;
  x3::forward_ast<Block> body;
};

struct SpawnStmt : position_tagged {
  Path topology;
  x3::forward_ast<Block> body;
};

struct Stmt : position_tagged,
              x3::variant<LetStmt, LetTupleStmt, ReturnStmt, BreakStmt, ContinueStmt, WhileStmt,
                          ForStmt, SpawnStmt, ExprStmt> {
  using base_type::base_type;
  using base_type::operator=;
};

struct Block : position_tagged {
  std::vector<Stmt> stmts;
  char close = '}';  // the closing brace (a second member keeps X3 from unwrapping the struct)
};

struct Attribute : position_tagged {
  bool inner = false;  // `#![…]` rather than `#[…]`
  std::string text;    // what stands between the brackets
};

struct Param : position_tagged {
  bool is_mut = false;  // `mut x: T`: the body may assign it (its own copy)
  Ident name;
  Type type;
};

struct FnItem : position_tagged {
  bool is_pub = false;
  Ident name;
  std::vector<Param> params;
  boost::optional<Type> ret;
  Block body;
};

struct ConstItem : position_tagged {
  bool is_pub = false;
  Ident name;
  Type type;
  Expr value;
};

// `[pub] x: T` in a struct item.
struct FieldDecl : position_tagged {
  bool is_pub = false;
  Ident name;
  Type type;
};
// `[pub] struct P { x: f32, n: i32 }`
struct StructItem : position_tagged {
  bool is_pub = false;
  Ident name;
  std::vector<FieldDecl> fields;
};

struct ImportItem : position_tagged {
  Path path;
};

struct Item : position_tagged, x3::variant<Attribute, ImportItem, FnItem, ConstItem, StructItem> {
  using base_type::base_type;
  using base_type::operator=;
};

struct Program : position_tagged {
  std::vector<Item> items;
};

// The alternative `T` of an AST variant that holds it unless vx has a bug: the last case of an
// if-chain over the alternatives. boost::get of a reference would throw bad_get, which names
// nothing and can escape; this is an internal_error at the caller's line
// (tests/throwing_calls_check.py allows no other form in src/).
template <class T, class Variant>
const T& must_get(const Variant& v, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) {
  const T* p = boost::get<T>(&v);
  if (!p)
    internal_error("an AST variant does not hold the alternative it always holds", file, line);
  return *p;
}

// What a pass does with each kind of node: `ast::visit(stmt, [&](const ast::LetStmt& l) {…}, …)`,
// one lambda per alternative of the variant, each naming its alternative (no `auto` parameter,
// no catch-all), so that an alternative added to the AST and left out of a pass is a compile
// error in that pass rather than a silent fall-through (issue 36). Every lambda returns the
// same type. An `if (boost::get<T>(&v))` that asks whether a node is one kind stays for that.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

template <class Variant, class... F>
decltype(auto) visit(const Variant& v, F&&... f) {
  using Alternatives = typename Variant::variant_type::types;
  static_assert(sizeof...(F) == boost::mpl::size<Alternatives>::value,
                "ast::visit takes one lambda per alternative of the variant");
  static_assert((requires { &std::decay_t<F>::operator(); } && ...),
                "ast::visit takes lambdas that name their alternative, not `auto`");
  return boost::apply_visitor(Overloaded<std::decay_t<F>...>{std::forward<F>(f)...}, v.get());
}

}  // namespace vx::ast

// Nodes with one member are built by semantic actions and deliberately not adapted: X3 would
// unwrap a one-member sequence into its member and lose the node's position tag.
BOOST_FUSION_ADAPT_STRUCT(vx::ast::TensorType, elem, dims, memory)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::RefType, lifetime, is_mut, inner)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ArrayType, elem, len)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ArrayLit, elems, repeat)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::TensorCtor, type, method, args)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::PathExpr, path, call_args)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::MacroCall, name, args)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::MethodSuffix, name, args)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Postfix, base, suffixes)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Unary, ops, operand)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Cast, operand, types)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::BinaryRest, op, operand)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Expr, first, rest)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ElseIf, cond, body)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::IfExpr, cond, then_block, else_ifs, else_block)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::PatValue, negative, atom)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::PatRangeEnd, op, hi)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::PatAlt, binding, tuple, lo, range)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::PatElem, rest, alts)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::PatTuple, elems, trailing_comma)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ArmBody, expr, assign)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::MatchArm, alts, guard, body)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::MatchExpr, scrutinee, arms, close)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::LetStmt, is_mut, name, type, init)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::TupleType, elems, trailing_comma)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::TuplePat, elems, close)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::BindPat, is_mut, name)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::LetTupleStmt, pat, type, init)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::AssignTail, op, value)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ExprStmt, expr, assign, semicolon)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::LoopExpr, label, body)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::BreakStmt, label, value)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::WhileStmt, label, cond, body)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Across, level, lane_count)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ForRange, start, range_op, end, adapters)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ForStmt, label, var, range, across, body)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::SpawnStmt, topology, body)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Block, stmts, close)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Attribute, inner, text)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::Param, is_mut, name, type)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::FnItem, is_pub, name, params, ret, body)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::ConstItem, is_pub, name, type, value)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::FieldInit, name, value)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::StructLit, name, fields)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::FieldDecl, is_pub, name, type)
BOOST_FUSION_ADAPT_STRUCT(vx::ast::StructItem, is_pub, name, fields)
