// The typed program (TIR): what the checker proves and what every back end reads — the
// interpreter compiles it into an executable tree, the CUDA emitter prints it. Every name is
// resolved (locals to frame slots, calls to function indices, built-ins to BuiltinId), every
// expression has its type, operator chains are folded by precedence, consts are folded into
// literals, and unsuffixed literals have their inferred types. Nodes live in the Program's arena.
#pragma once
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "check/types.hpp"
#include "support/format.hpp"
#include "support/internal_error.hpp"
#include "support/source.hpp"

namespace vx::tir {

// The name of the hidden locals that carry a tuple's or a struct's elements between a call's
// results (or a `&mut` struct's write-back) and the locals of its fields; `_`: never reported as
// unused.
inline constexpr const char* kTupleTemp = "_tuple";

enum class BuiltinId : uint8_t {
#define VX_BUILTIN(E, spelling, ...) E,
#include "check/builtins.def"
#undef VX_BUILTIN
};
// builtins.def's kinds: a `lanes::` reduction, another `lanes::` routine on a tile, an atomic
// family, a fence, the async copy, a method (`x.name(…)`), a query on tensors.
enum class BuiltinKind : uint8_t { Reduce, Lanes, Atomic, Fence, Copy, Method, Query, Debug };
// builtins.def's effects: what a call does to the tensors it is given.
enum class BuiltinEffect : uint8_t {
  Pure,
  Shape,
  ReadsTile,
  WritesTile,
  CopiesTile,
  AtomicLoad,
  AtomicChange,
  Orders
};
// builtins.def's places: where a call may stand in a `spawn on` region.
enum class BuiltinPlace : uint8_t { Anywhere, BlockCode };
// builtins.def's forms: a value (not collective), or a collective call standing as the whole
// value of a `let` or as a statement of its own.
enum class BuiltinForm : uint8_t { Value, Let, Statement };
// builtins.def's result rules: the type of a call of the built-in.
enum class BuiltinResult : uint8_t { ElemOfTile, ElemOfTensor, SameAsReceiver, I32, Unit, Token };
// What the checker, the kernel rules, the emitter and the REPL read of a row (the back ends
// expand the table themselves for their dispatch).
struct BuiltinRow {
  const char* spelling;
  BuiltinKind kind;
  int arity;  // the arguments written, a method's receiver not counted
  BuiltinResult result;
  BuiltinEffect effect;
  BuiltinPlace place;
  BuiltinForm form;
};
inline constexpr BuiltinRow kBuiltinRows[] = {
#define VX_BUILTIN(E, spelling, kind, arity, result, effect, place, form, interp, emit) \
  {spelling,                                                                            \
   BuiltinKind::kind,                                                                   \
   arity,                                                                               \
   BuiltinResult::result,                                                               \
   BuiltinEffect::effect,                                                               \
   BuiltinPlace::place,                                                                 \
   BuiltinForm::form},
#include "check/builtins.def"
#undef VX_BUILTIN
};
constexpr const BuiltinRow& builtin_row(BuiltinId id) { return kBuiltinRows[static_cast<int>(id)]; }
constexpr const char* builtin_spelling(BuiltinId id) { return builtin_row(id).spelling; }
constexpr BuiltinKind builtin_kind(BuiltinId id) { return builtin_row(id).kind; }
constexpr bool is_atomic(BuiltinId id) { return builtin_kind(id) == BuiltinKind::Atomic; }
constexpr BuiltinEffect builtin_effect(BuiltinId id) { return builtin_row(id).effect; }
constexpr BuiltinForm builtin_form(BuiltinId id) { return builtin_row(id).form; }
// Whether all the lanes of a block run a call together (builtins.def's form).
constexpr bool is_collective(BuiltinId id) { return builtin_form(id) != BuiltinForm::Value; }
// Whether a call writes (atomically or not) the tensor of its first argument.
constexpr bool builtin_writes_first(BuiltinId id) {
  switch (builtin_effect(id)) {
    case BuiltinEffect::WritesTile:
    case BuiltinEffect::CopiesTile:
    case BuiltinEffect::AtomicChange:
      return true;
    case BuiltinEffect::Pure:
    case BuiltinEffect::Shape:
    case BuiltinEffect::ReadsTile:
    case BuiltinEffect::AtomicLoad:
    case BuiltinEffect::Orders:
      return false;
  }
  return true;
}
// Whether a call does more to memory than read values: it writes, accesses atomically or orders
// accesses (a fence). Such a call is never moved, merged or left out by the emitter.
constexpr bool builtin_acts_on_memory(BuiltinId id) {
  switch (builtin_effect(id)) {
    case BuiltinEffect::WritesTile:
    case BuiltinEffect::CopiesTile:
    case BuiltinEffect::AtomicLoad:
    case BuiltinEffect::AtomicChange:
    case BuiltinEffect::Orders:
      return true;
    case BuiltinEffect::Pure:
    case BuiltinEffect::Shape:
    case BuiltinEffect::ReadsTile:
      return false;
  }
  return true;
}

// The binary operators (parse/operators.def), their classes and precedence.
enum class BinOp : uint8_t {
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) E,
#include "parse/operators.def"
#undef VX_BINOP
};
enum class OpClass : uint8_t { Arith, Bits, Shift, Compare, Logic };
constexpr OpClass binop_class(BinOp op) {
  constexpr OpClass classes[] = {
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) OpClass::cls,
#include "parse/operators.def"
#undef VX_BINOP
  };
  return classes[static_cast<int>(op)];
}
const char* binop_spelling(BinOp op);

enum class UnOp : uint8_t { Neg, Not };  // Not: `!` on bool (logical) or integers (bitwise)

enum class Across : uint8_t { None, Blocks, Lanes };

// Atomic orderings and fence scopes are passed to built-ins as i32 literals of these values
// (check/orderings.def).
enum class AtomicOrdering : int32_t {
#define VX_ORDERING(Name, before, after, order) Name,
#include "check/orderings.def"
#undef VX_ORDERING
};
enum class FenceScope : int32_t {
#define VX_FENCE_SCOPE(Name, cuda) Name,
#include "check/orderings.def"
#undef VX_FENCE_SCOPE
};

struct Block;
struct Stmt;

// A scalar constant. Integers are stored sign- or zero-extended to 64 bits (`i`), floats in
// `f` already rounded to their type (an f16 literal holds the f16 value), bool as 0 / 1 in `i`.
struct Literal {
  int64_t i = 0;
  double f = 0;
};

enum class ExprKind : uint8_t {
  Literal,    // `lit`; type is a scalar
  Unit,       // `()`
  String,     // a string literal (`text`); only as a macro argument
  Var,        // the local in `slot` (a scalar, a tensor, a reference or a token)
  Unary,      // `uop` args[0]
  Binary,     // args[0] `bop` args[1]
  Cast,       // args[0] as `type` (scalar to scalar)
  Index,      // args[0][args[1]][args[2]]…: args[0] is tensor-like (Var or View); as many indices
              // as its rank; the value is the element (scalar)
  View,       // args[0][args[1]]… with fewer indices than the rank: a reference to the sub-tensor
              // (type Ref, rank reduced); only under `&` / `&mut` in the source
  Ref,        // `&x` / `&mut x` of a tensor-like args[0] (Var or View); type Ref
  Call,       // user function `fn_index` with args (a tensor argument by value is moved); in
              // the typed program a call of a function that returns a tuple is a statement that
              // declares its value's locals (into_slots); lowered, it has type () and writes its
              // `ret_slots` into the caller's `out_slots` when it returns
  Builtin,    // `builtin` with args; for methods args[0] is the receiver; orderings and fence
              // scopes are i32 literals (AtomicOrdering, FenceScope)
  TensorNew,  // `Tensor<…>::fill(args[0])` (builtin_fill = true) or `::uninit()`; type is Tensor;
              // `::fill_dims([args[1], …], args[0])`: one integer size per dimension after it
  Transfer,   // `transfer(args[0], Memory::M)`: args[0] is a tensor value (a Var, which is
              // moved, TensorNew, a Call, an If or BlockExpr, a Transfer); type is the same
              // tensor in the new memory
  If,         // if args[0] { block } else { else_block } (else_block may be null); `else if`
              // chains are nested: else_block holds a tail If
  BlockExpr,  // `{ … }` or `unsafe { … }`: `block`
  Print,      // println!/print!: `format` pieces over args; `newline` for println!
  Assert,     // assert!(args[0]) with an optional message (`format` over args[1..]), or
              // assert_eq!(args[0], args[1]) when `is_assert_eq`
  ArrayLit,   // `[a, b, c]`: args are the elements (scalars, or arrays for `[[T; M]; N]`); or
              // `[v; N]`: args is v alone, repeated (the same when N is 1); type is Array
  Match,      // `match`: `match` holds the scrutinee's locals and the arms. Only the checker's
              // typed program has it: the lowering step (lower/lower.hpp) makes each a BlockExpr
              // (`from_match`) of a chain of `if`s before the kernel rules and the back ends.
  Field,      // a scalar field of a value (`t.1`, `p.x`, `f().1`), or a tuple field of one
              // with effects (`g().inner`): the scalar `field` of the flat tuple args[0], or for
              // a tuple the statement that declares its scalars' locals (into_slots) from that
              // one on; the other scalars still run for their effects (a walk, tir_walk.hpp,
              // skips the plain ones). Only the typed program has it: the lowering makes each
              // the prelude, those effects and the scalars (lower/lower_tuples.hpp).
};

struct Match;

struct FormatPiece {
  std::string literal;  // printed before the argument
  int arg = -1;         // index into args of the argument, or -1 for a literal-only piece
  fmt::Spec spec;
};

struct Expr {
  ExprKind kind = ExprKind::Unit;
  Type type;
  Span span;
  Literal lit;
  int slot = -1;      // Var
  int fn_index = -1;  // Call
  int field = -1;     // Field: the index of its (first) scalar among args[0]'s
  BinOp bop = BinOp::Add;
  UnOp uop = UnOp::Neg;
  BuiltinId builtin = BuiltinId::LanesSum;
  bool builtin_fill = false;  // TensorNew
  bool newline = false;       // Print
  bool is_assert_eq = false;  // Assert
  bool from_match = false;    // BlockExpr: a `match`, made a block of `if`s by the lowering
  // String; for Var, the variable's name (for messages); for a flat tuple assigned to a tuple
  // local's place (into_slots), that place (`t`, `t.1`).
  std::string text;
  std::vector<int> out_slots;  // Call of a function with ret_slots: the locals it writes
  // Call in the typed program: the caller's locals that the fields of its `&mut` struct
  // arguments come back to; the lowering gives the call out locals for them and copies them back
  // after it (FlatBuilder::take_apart_call).
  std::vector<int> back_slots;
  // A flat tuple, or an If, BlockExpr or Match of a tuple type, that is a statement of the typed
  // program: the locals its value goes to, one per scalar (-1: a scalar a destructuring `let`
  // drops); the lowering assigns them (lower/lower_tuples.hpp).
  std::vector<int> into_slots;
  bool declares = false;  // a flat tuple's into_slots are the locals of a `let`: declared there
  std::vector<Expr*> args;
  Block* block = nullptr;       // If (then), BlockExpr
  Block* else_block = nullptr;  // If
  std::vector<FormatPiece> format;
  Match* match = nullptr;  // Match
};

// A `match` or a field of a value in a step that reads the lowered program: the lowering step did
// not run, a bug in vx.
[[noreturn]] inline void unlowered(const char* file = __builtin_FILE(),
                                   int line = __builtin_LINE()) {
  internal_error(
      "a `match` or a field of a value reached a step that reads the lowered program "
      "(lower/lower.hpp)",
      file, line);
}

// The blocks whose value is the value of `e`: an `if`'s two, a block expression's, the bodies of a
// `match`'s arms that a value reaches; none for other kinds.
inline std::vector<Block*> branches(const Expr* e);

// A pattern of a `match` arm, typed: what the lowering tests the scrutinee's locals against.
// A Value pattern tests one scalar local (`var` reads it) for the values lo..=hi, which are
// not all of its type's; Any matches every value (`_`, a name, a range over the whole type);
// a Tuple pattern has one pattern per element (Any for those a `..` covers); an Or pattern
// has its alternatives. `span` is where the nodes of its test point.
struct Pattern {
  enum class Kind : uint8_t { Any, Value, Tuple, Or };
  Kind kind = Kind::Any;
  Span span;
  Expr* var = nullptr;  // Value: a Var of the local it tests
  __int128 lo = 0, hi = 0;
  std::vector<Pattern> subs;
};

// Whether a pattern has a test: a Value has; a Tuple has when an element has; an Or has when
// every alternative has (an alternative that matches every value makes the whole match it).
inline bool has_test(const Pattern& p) {
  switch (p.kind) {
    case Pattern::Kind::Any:
      return false;
    case Pattern::Kind::Value:
      return true;
    case Pattern::Kind::Tuple:
      for (const Pattern& sub : p.subs)
        if (has_test(sub)) return true;
      return false;
    case Pattern::Kind::Or:
      for (const Pattern& sub : p.subs)
        if (!has_test(sub)) return false;
      return !p.subs.empty();
  }
  return false;
}

// One arm of a `match`: its pattern (an Or of the alternatives written, its span the arm's),
// its guard (or null) and its body.
struct MatchArm {
  Pattern pattern;
  Expr* guard = nullptr;
  Block* body = nullptr;
  Span span;
};

// A `match` of the typed program. `setup` holds the statements that put the scrutinee's
// scalars in locals (none when they are immutable locals already); the arms test those. The arm
// `last` completes the cover of the scrutinee's type: the lowering makes it the chain's final
// `else`, and the arms after it, which no value reaches, are left out.
struct Match {
  Block* setup = nullptr;
  std::vector<int> slots;  // the scrutinee's scalars, in order
  std::vector<MatchArm> arms;
  size_t last = 0;
  // A `match` whose tuple value goes into locals (Expr::into_slots): the lowering has its arms
  // assign them, and makes each `if` of the chain a statement.
  bool routed = false;
  // The arms a value can reach: those up to `last`.
  size_t taken() const { return arms.empty() ? 0 : last + 1; }
};

// The dimension a query of a tensor's shape (builtins.def's effect Shape) asks for: `t.dim(k)`'s
// constant k, `t.len()`'s 0; -1 for any other call.
inline int64_t queried_dim(const Expr& e) {
  if (e.kind != ExprKind::Builtin || builtin_effect(e.builtin) != BuiltinEffect::Shape) return -1;
  return e.args.size() > 1 ? e.args[1]->lit.i : 0;
}

enum class StmtKind : uint8_t {
  Let,     // slot = init (init may be null: the local is assigned before use)
  Assign,  // target = value, or target op= value when `compound`; target is a Var (scalar,
           // or a tensor/token local), an Index, or (typed program only) a scalar Field of a
           // local's tuple or struct, which the lowering makes a Var
  Expr,    // value evaluated for its effect
  While,   // while cond { body }
  Loop,    // loop { body }
  For,     // for slot in start..end (inclusive: ..=) [adapters] [across] { body }
  Spawn,   // spawn on(Topology::Device) { body }
  Return,  // return value (value may be null)
  Break,
  Continue,
};

// An adapter of a `for` range, `.rev()` or `.step_by(step)` (spec/semantics.md §3): the passes
// of `for i in (a..b).step_by(k).rev()` are those of the range, then every k-th of them, then
// reversed. Only plain loops have adapters (across loops keep plain ranges, E6032).
struct RangeAdapter {
  Expr* step = nullptr;  // `.step_by(step)`, of any integer type; null for `.rev()`
  Span span;             // the method's name, `rev` or `step_by`
};

struct Stmt {
  StmtKind kind = StmtKind::Expr;
  Span span;
  int slot = -1;                       // Let, For
  Expr* target = nullptr;              // Assign
  Expr* value = nullptr;               // Let (init), Assign, Expr, Return, While (cond)
  Expr* start = nullptr;               // For
  Expr* end = nullptr;                 // For
  bool inclusive = false;              // For
  std::vector<RangeAdapter> adapters;  // For: the range's adapters, in the order written
  bool compound = false;               // Assign
  BinOp op = BinOp::Add;               // Assign when compound
  Across across = Across::None;
  int lane_count = 0;          // For across lanes(N); 0 when not written
  bool lanes_written = false;  // For: `lanes(N)` was written (N may be 0, which E6032 refuses)
  std::string var_name;        // For, Let
  Block* body = nullptr;       // While, Loop, For, Spawn
  // Break, Continue: the loop it breaks or continues (its label's, else the innermost), and how
  // many loops inside that one it leaves too (0: the innermost is the target).
  const Stmt* jump_target = nullptr;
  int levels = 0;

  // Its own expressions (not its body's), in the order they run: the target, the value, a
  // range's bounds and steps; some may be null.
  std::vector<Expr*> exprs() const {
    std::vector<Expr*> out = {target, value, start, end};
    for (const RangeAdapter& a : adapters) out.push_back(a.step);
    return out;
  }
};

struct Block {
  std::vector<Stmt*> stmts;
  Expr* tail = nullptr;  // the block's value, or null (unit)
  Span span;
};

struct Function {
  std::string name;
  bool is_pub = false;
  Span span;
  std::vector<int> param_slots;  // slot of each parameter, in order
  Type ret;
  // A function that returns a tuple (spec/types.md §8): its `ret` is () and its `return`
  // leaves the tuple's elements in these locals, which the call copies to its `out_slots`.
  std::vector<int> ret_slots;
  // The fields' locals of the `&mut` struct parameters, whose values the last
  // write_back_from.size() of ret_slots take on return, for the call to copy back into the struct
  // borrowed (check_struct_ref.cpp); the lowering assigns them before each `return` and at the end
  // of the body (lower/lower_write_backs.hpp).
  std::vector<int> write_back_from;
  Block* body = nullptr;
  std::vector<Type> slot_types;  // the type of every local slot of this function's frame
  std::vector<std::string> slot_names;
  std::vector<Span> slot_decls;  // where each local's name is declared (for the lints)
  std::vector<bool> slot_mut;    // declared `let mut`
  // Each tuple or struct local (spec/types.md §8, §9), by the slot of its first leaf: its type and
  // its leaves' locals in order. The back ends see only the leaves; the REPL keeps such a binding
  // between inputs and shows its value.
  struct Aggregate {
    Type type;
    std::vector<int> leaves;
  };
  std::map<int, Aggregate> aggregates;
  int slot_count() const { return static_cast<int>(slot_types.size()); }
};

// What a function (its signature and its body), a const's value, or the rest of the program (the
// structs' declarations, what a `pub fn` takes and returns) names: the dead_code lint
// (check/lints.cpp) counts those of the functions that `main` or a `pub fn` reaches, and of the
// consts they name.
struct ItemUses {
  std::set<std::string> consts;       // the consts named
  std::set<std::string> constructed;  // the structs that a literal constructs (or a `pub fn` takes)
  std::set<std::pair<std::string, std::string>> read;  // the fields read: struct, field
};

// The consts and structs that dead_code may speak of, and what each item names.
struct DeadCodeFacts {
  struct Declared {
    Span at;  // its name
    std::string name;
    bool is_pub = false;
    std::vector<Declared> fields;  // a struct's
  };
  std::vector<Declared> consts, structs;
  std::vector<ItemUses> by_function;         // by function index
  std::map<std::string, ItemUses> by_const;  // by the const's name: what its value names
  ItemUses always;
};

// A pattern of a `match` that no value reaches (the `unreachable_patterns` lint, check/lints.cpp):
// the earlier patterns that cover it, with what each label says.
struct UnreachablePattern {
  Span at;
  std::vector<std::pair<Span, std::string>> because;
};

inline std::vector<Block*> branches(const Expr* e) {
  std::vector<Block*> out;
  if (e->match) {
    for (size_t k = 0; k < e->match->taken(); ++k) out.push_back(e->match->arms[k].body);
    return out;
  }
  for (Block* b : {e->block, e->else_block})
    if (b) out.push_back(b);
  return out;
}

struct Program {
  std::vector<Function> functions;
  std::vector<UnreachablePattern> unreachable_patterns;  // found by the checker
  DeadCodeFacts dead_code;                               // found by the checker
  int main_index = -1;
  std::shared_ptr<const SourceFile> file;

  Expr* new_expr() { return &exprs_.emplace_back(); }
  Stmt* new_stmt() { return &stmts_.emplace_back(); }
  Block* new_block() { return &blocks_.emplace_back(); }
  Match* new_match() { return &matches_.emplace_back(); }

 private:
  std::deque<Expr> exprs_;
  std::deque<Stmt> stmts_;
  std::deque<Block> blocks_;
  std::deque<Match> matches_;
};

}  // namespace vx::tir
