// Internal to the checker: the state shared by its files (checker.cpp for items, types and blocks,
// check_stmt.cpp for statements, check_expr.cpp for expressions, check_literals.cpp for literals,
// check_builtins.cpp for calls, built-ins and methods, check_macros.cpp for macros, moves.cpp for
// moves and borrows).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "check/checker.hpp"
#include "check/flat_tuples.hpp"

namespace vx::check {

struct FnSig {
  std::string name;
  std::vector<Type> params;
  std::vector<std::string> param_names;
  Type ret;
  Span span;
  const ast::FnItem* item = nullptr;
};

struct StructInfo {
  const ast::StructItem* item = nullptr;
  Type type;  // a Tuple with the struct's name and field names (check_struct.cpp)
  enum State { Pending, InProgress, Done, Failed } state = Pending;
};

struct ConstInfo {
  const ast::ConstItem* item = nullptr;
  Type type;
  tir::Literal value;
  std::string text;  // a `&str` const's value
  enum State { Pending, InProgress, Done, Failed } state = Pending;
};

struct Local {
  std::string name;
  int slot = -1;
  Type type;
  bool is_mut = false;
  bool moved = false;
  Span decl;
  Span moved_at;
  std::vector<int> leaves;  // a tuple: the locals of its scalars, in order (slot is -1)
  // A scalar `let` without a type whose value is an unsuffixed literal (or arithmetic of them):
  // that value as checked, which made the local i32 or f64 (spec/types.md §2); its span is the
  // literal's.
  const tir::Expr* literal_value = nullptr;
};

// A binary operator chain folded by precedence.
struct OpTree {
  const ast::Cast* leaf = nullptr;
  std::string op;
  Span op_span;
  std::unique_ptr<OpTree> lhs, rhs;
  Span span;
  bool poisoned = false;  // already reported (a chained comparison)
};

class Checker {
 public:
  Checker(const ParsedProgram& parsed, Diagnostics& diags, tir::Program& program,
          std::vector<Span> session_decls = {})
      : parsed_(parsed),
        diags_(diags),
        file_(diags.file()),
        prog_(program),
        session_decls_(std::move(session_decls)) {}
  void run(bool needs_main);

  // ---- checker.cpp: items, types, blocks, scopes (statements: check_stmt.cpp)
  Span span(const ast::position_tagged& n) const { return parsed_.span(n); }
  Diagnostic& error(const char* code, Span span, std::string message, std::string label = {});
  Type resolve_type(const ast::Type& t);
  // One per kind of ast::Type (checker.cpp); tuples and arrays: check_tuple.cpp, check_array.cpp.
  Type resolve_named(const ast::NamedType& n);
  Type resolve_ref(const ast::RefType& r);
  Type resolve_tensor_type(const ast::TensorType& tt);
  Type resolve_str(const ast::RefType& r);
  void check_elided_lifetime(const FnSig& sig);
  bool const_value(const std::string& name, Span use, Type& type, tir::Literal& value);
  // The value of const `c` (of type `c.type`), checked outside any function. E0206 before it is
  // checked for a part other than a literal, a const, an operator or `as` (spec/semantics.md §1):
  // a block, `match`, loop or tuple would need a function's locals. Null when refused.
  tir::Expr* check_const_value(const ConstInfo& c);
  void check_function(int index);
  tir::Block* check_block(const ast::Block& b, const Type* expected, Type& result,
                          bool new_scope = true);
  void check_stmt(const ast::Stmt& s, std::vector<tir::Stmt*>& out);
  // One per kind of ast::Stmt (check_stmt.cpp); each fills `st` and appends what it lowers to.
  void check_let(const ast::LetStmt& let, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  void check_return(const ast::ReturnStmt& ret, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  void check_while(const ast::WhileStmt& w, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  void check_for(const ast::ForStmt& f, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  void check_spawn(const ast::SpawnStmt& sp, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  void check_expr_stmt(const ast::ExprStmt& es, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  void check_assign(const ast::ExprStmt& es, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  // `st` (an Assign, its operator set) of the element `base[idx…]`: the target, the value, out.
  void assign_element(tir::Stmt* st, tir::Expr* base,
                      const std::vector<const ast::IndexSuffix*>& idx, const ast::AssignTail& a,
                      Span tspan, std::vector<tir::Stmt*>& out);
  // Makes `e` the block's value, or its last statement when `e` is of type `()` (and not `()`).
  void set_tail(tir::Block* blk, tir::Expr* e);
  Local* lookup(const std::string& name);
  int declare(const std::string& name, const Type& t, bool is_mut, Span decl);

  // ---- check_expr.cpp: expressions
  tir::Expr* check_expr(const ast::Expr& e, const Type* expected);
  std::unique_ptr<OpTree> fold_chain(const ast::Expr& e);
  tir::Expr* check_tree(const OpTree& t, const Type* expected);
  // E0220 for an operation at `s` that stops every run that gets there, by a constant right
  // operand (any expression of literals, consts, operators and casts: fold_constant): an integer
  // `/` or `%` by zero, as rustc's `unconditional_panic`, or a shift of a `left_type` by an amount
  // outside 0 to its width minus 1, as its `arithmetic_overflow` (spec/semantics.md §4). `left`
  // is null for a compound assignment. A const's value is the const folder's (E0206).
  void always_stops(tir::BinOp op, tir::Expr* left, const Type& left_type, tir::Expr* right,
                    Span s);
  // The same for the assignment `st` to a place of type `t` at `target`, when it is compound
  // (`x /= 0;`): its span runs from the place to the end of `value`.
  void always_stops(const tir::Stmt* st, const Type& t, Span target, const ast::Expr& value);
  tir::Expr* check_cast(const ast::Cast& c, const Type* expected);
  tir::Expr* check_unary(const ast::Unary& u, size_t first_op, const Type* expected, Span span);
  tir::Expr* check_postfix(const ast::Postfix& p, const Type* expected, bool want_place);
  tir::Expr* check_primary(const ast::Primary& p, const Type* expected);
  tir::Expr* string_literal(const ast::StringLit& l, Span s);
  tir::Expr* check_char_lit(const ast::CharLit& l, Span s);
  tir::Expr* check_if(const ast::IfExpr& e, const Type* expected, Span span);
  // `Type::i32::MAX`-style paths: a scalar type's associated constant (null: reported).
  tir::Expr* check_assoc_path(const ast::Path& path, Span span);

  // ---- check_array.cpp: arrays `[T; N]`
  bool array_length(const ast::Dim& d, int64_t& out);  // false: reported
  Type array_of(const Type& elem, int64_t n, Span s);  // `[elem; n]`, or an error (reported)
  Type resolve_array_type(const ast::ArrayType& a);
  tir::Expr* check_array_lit(const ast::ArrayLit& a, const Type* expected, Span s);
  tir::Expr* check_array_index(tir::Expr* base, const std::vector<tir::Expr*>& indices, Span s);
  tir::Expr* array_len(tir::Expr* recv, const ast::MethodSuffix& m, Span s);
  tir::Expr* array_compare(tir::Expr* a, tir::Expr* b, tir::BinOp op, Span op_span, Span whole);
  // An array printed under `spec`: Debug (`{:?}`) only, else E0221 (false: reported).
  bool debug_format(const tir::Expr* v, const fmt::Spec& spec, Span format);

  // ---- check_match.cpp: `match`
  tir::Expr* check_match(const ast::MatchExpr& m, const Type* expected, Span span);
  struct PatAltInfo;
  struct MatchArmInfo;
  // A bound of a pattern as a value of the scrutinee's type `t` (bool as 0 and 1); false when
  // it is not one (reported).
  bool pattern_value(const ast::PatValue& v, const Type& t, __int128& out);
  // A pattern of a value of type `t` whose scalars are in the locals `slots`; its alternatives,
  // a tuple pattern's elements.
  PatAltInfo pattern_alt(const ast::PatAlt& alt, const Type& t, const std::vector<int>& slots);
  PatAltInfo pattern_alts(const std::vector<ast::PatAlt>& alts, const Type& t,
                          const std::vector<int>& slots, Span span);
  void tuple_pattern(const ast::PatTuple& p, const Type& t, const std::vector<int>& slots,
                     PatAltInfo& info);
  // Whether every alternative binds the same names, to the same locals (reported if not).
  bool same_names(const std::vector<PatAltInfo>& alts);
  tir::Block* check_arm_body(const ast::ArmBody& body, const Type* expected, Type& result);
  tir::Expr* use_var(const std::string& name, Span span, bool as_move);
  tir::Expr* check_index(tir::Expr* base, const std::vector<const ast::IndexSuffix*>& idx,
                         Span span, bool allow_view);
  tir::Expr* check_place_ref(const ast::Postfix& p, bool is_mut, Span span);
  // `&base[idx…]` (a sub-tensor, or the whole tensor when `idx` is empty) named `name`.
  tir::Expr* tensor_ref(tir::Expr* base, const std::vector<const ast::IndexSuffix*>& idx,
                        bool is_mut, const std::string& name, Span s);
  tir::Expr* make(tir::ExprKind k, const Type& t, Span s);
  tir::Expr* error_expr(Span s);
  // `place`: the local assigned to, when `e` is its new value (its type may be a literal's).
  tir::Expr* coerce(tir::Expr* e, const Type& expected, Span where, const char* what = nullptr,
                    const Local* place = nullptr);
  // When `e` reads, or `l` is, a local whose type came from an unsuffixed literal of the same kind
  // as `wanted` (an f64 where an f32 is wanted): where that literal is, and the `let` to write.
  void literal_type_help(Diagnostic& d, const tir::Expr* e, const Type& wanted);
  void literal_type_help(Diagnostic& d, const Local& l, const Type& wanted);
  bool untyped_literal(const OpTree& t) const;
  bool untyped_literal(const ast::Cast& c) const;
  bool untyped_literal(const ast::Expr& e) const;
  bool untyped_tail(const ast::Block& b) const;  // an `if` branch whose value is one
  void mark_moved(tir::Expr* e, Span at);
  bool compatible(const Type& param, const Type& arg) const;

  // ---- check_tuple.cpp: tuples (spec/types.md §8). A tuple value is a "flat tuple"
  // (check/flat_tuples.hpp). Its consumers take it apart, but for the comparisons, prints and
  // assert_eq! that the lowering takes apart (lower/lower_tuples.cpp); none reaches the back ends.
  tir::FlatBuilder flat();
  tir::Expr* new_flat(const Type& t, Span s);
  int hidden_slot(const Type& t, const std::string& name, Span decl, bool is_mut = false);
  std::vector<int> leaf_slots(const Type& t, const std::string& name, Span decl, bool is_mut);
  tir::Stmt* let_slot(int slot, tir::Expr* value, Span s);
  tir::Stmt* assign_slot(int slot, tir::Expr* value, Span s);
  tir::Expr* read_slot(int slot, Span s);
  // Moves the scalars of a flat tuple into locals (those up to the last one with an effect, or
  // all when `all`), so that what runs after cannot change them.
  void materialize(tir::Expr* flat, bool all);
  // Puts the preludes of `parts` (flat tuples and scalars) into `pre` in order, and makes each
  // part's values safe to read after the parts that follow. Returns their scalars in order.
  std::vector<tir::Expr*> sequence(std::vector<tir::Expr*>& parts, std::vector<tir::Stmt*>& pre);
  // Statements that evaluate leaves[from, to) for their effects only (none for a plain read).
  void drop_leaves(const std::vector<tir::Expr*>& leaves, size_t from, size_t to,
                   std::vector<tir::Stmt*>& out);
  // `value` after `pre` (a BlockExpr when `pre` is not empty).
  tir::Expr* with_prelude(std::vector<tir::Stmt*> pre, tir::Expr* value);
  // An `if`, `match` or block whose value is a tuple, as a flat tuple (declared_value): the
  // lowering declares its hidden locals and routes each branch's value into them.
  tir::Expr* as_flat(tir::Expr* e);
  // The first value of a hidden local of type `t` (a scalar, or an array field of a struct).
  tir::Expr* zero_of(const Type& t, Span s);
  // `e`'s value into `slots`: a statement of `e` naming them (tir::Expr::into_slots), for the
  // lowering to assign.
  void route_into(tir::Expr* e, const std::vector<int>& slots, std::vector<tir::Stmt*>& out);
  Type resolve_tuple(const ast::TupleType& t);
  tir::Expr* check_tuple_lit(const ast::Paren& p, const Type* expected, Span s);
  tir::Expr* tuple_var(const Local& l, Span s);
  // `.N` of `base`; the element's type and the range of its scalars, or false (reported).
  // `reads` as struct_field's.
  bool tuple_index(const Type& base, const ast::FieldSuffix& f, Span s, Type& elem, int& first,
                   bool reads = true);
  // `.N` of `base` (flat): a scalar of a value with effects is a Field node, which the lowering
  // takes apart; the checker takes apart the rest.
  tir::Expr* tuple_field(tir::Expr* base, const ast::FieldSuffix& f, Span s);
  // `a == b`, `a != b` of two tuples, kept for the lowering; E0202 for another operator.
  tir::Expr* tuple_compare(const OpTree& t, tir::BinOp op, tir::Expr* a, tir::Expr* b);
  void declare_tuple(const std::string& name, const Type& t, bool is_mut, Span decl,
                     tir::Expr* value, std::vector<tir::Stmt*>& out,
                     std::vector<int>* slots = nullptr);
  // The names of a pattern that was refused, as locals of no type (no further errors).
  void declare_unchecked(const ast::TuplePat& p);
  void check_let_tuple(const ast::LetTupleStmt& l, Span s, std::vector<tir::Stmt*>& out);
  // Declares the names of `p`, which binds scalars [first, …) of a value of type `t`: their
  // locals into `slots` (-1, left as it was, for a scalar `_` drops).
  void bind_pattern(const ast::LetPattern& p, const Type& t, size_t first,
                    std::set<std::string>& names, std::vector<int>& slots);
  // `t = …`, `t.0 = …`, `t.1 += …` of a tuple local; `*r = …` of a reference to a struct
  // (`through_deref`).
  void check_tuple_assign(Local& local, const ast::Postfix& place, const ast::AssignTail& a,
                          Span target, std::vector<tir::Stmt*>& out, bool through_deref = false);
  // `value` (flat) as what the function returns: its scalars into ret_slots, then `return`.
  void return_tuple(tir::Expr* value, Span s, std::vector<tir::Stmt*>& out, bool with_return);
  // A call: tuple arguments give their scalars, and a tuple result comes as a flat tuple.
  tir::Expr* finish_call(tir::Expr* call, const FnSig& sig);
  // The tuple value of `e` (a call, a Field, an `if`, a `match` or a block) as a flat tuple: `e`
  // a statement that declares a local per scalar (` -> let (…)`, made by the lowering), and the
  // value reads them.
  tir::Expr* declared_value(tir::Expr* e);
  // What no consumer took apart: a tuple where Vx cannot use one (the operands the lowering
  // takes apart aside).
  void check_no_tuples(const tir::Function& f);

  // ---- check_struct.cpp: structs (spec/types.md §9), tuples with a name and named fields
  void collect_structs();
  // The type of struct `name`, resolving its fields on first use; E0213 for a struct that holds
  // itself. Error when `name` names no struct.
  Type struct_type(const std::string& name, Span use);
  bool has_struct(const std::string& name) const { return structs_.count(name) > 0; }
  tir::Expr* check_struct_lit(const ast::StructLit& l, Span s);
  // A struct's field `f` (by name): its index, or -1 (reported at `s`).
  // `reads`: the field's value is read (dead_code): not the field a place assigns (`p.x = …`,
  // `p.x += …`, as rustc counts it), unless the place goes on into an element (`p.a[i] = …`).
  int struct_field(const Type& base, const ast::FieldSuffix& f, Span s, bool reads = true);
  // Every field of the structs that a value of type `t` holds is read: printed with `{:?}`, or
  // crossing a `pub fn`'s boundary (with `constructed`, a parameter the caller made).
  void fields_read(const Type& t, bool constructed = false);
  // The consts and structs that dead_code may report, into the program (tir::DeadCodeFacts).
  void declare_dead_code_items();
  // Where what is checked now records the consts it names, the structs it constructs and the
  // fields it reads: the function's, the const value's, or the rest of the program's.
  tir::ItemUses& uses() { return uses_ ? *uses_ : prog_.dead_code.always; }
  // `==` of two structs, or a struct in assert_eq!: E0202 (Vx derives nothing).
  tir::Expr* struct_compare_error(const Type& t, const std::string& op, Span op_span, Span whole);

  // ---- check_struct_ref.cpp: references to structs `&P`, `&mut P` (spec/types.md §9). A
  // reference is the struct itself: its value is the flat tuple of the struct's scalars, typed
  // `&P`; a call copies them in and, for `&mut`, copies the callee's back out when it returns;
  // `let r = &mut p;` makes `r` another name of `p`'s locals.
  struct StructBorrow {
    std::vector<int> leaves;  // the locals of the struct borrowed
    std::string name;         // as a message names it: `p`, `p.inner`
    bool is_mut = false;
  };
  // The reference values made so far (each a flat tuple), by the expression that holds them.
  std::map<const tir::Expr*, StructBorrow> struct_borrows_;
  // `&p`, `&mut p`, `&p.inner` when `p` is a struct local or a reference to one; null when it
  // is not (the caller goes on as for tensors).
  tir::Expr* struct_place_ref(const ast::Postfix& p, bool is_mut, Span s);
  // A struct-reference local read as a value (`g(r)`): the reference again.
  tir::Expr* struct_ref_var(const Local& l, Span s);
  // `let r = &p;`: `r` names `p`'s locals. False when `value` is no reference (reported).
  void declare_struct_ref(const std::string& name, const Type& t, tir::Expr* value, Span decl);
  // `*r`: a copy of the struct.
  tir::Expr* deref_struct(tir::Expr* e);
  // `p.x = …` through a `&` reference: E0302 (false: no such write).
  bool write_through_shared(const Local& l, const std::string& path, Span target);
  // The return slots that take the fields of each `&mut` struct parameter back to the caller
  // (tir::Function::write_back_from; the lowering assigns them).
  void declare_write_backs(tir::Function& f);
  // The `&mut` struct arguments of a call whose result is `ret`, in parameter order; E0305 for
  // an argument after a borrow that touches the struct borrowed.
  std::vector<StructBorrow> call_borrows(const tir::Expr* call, const FnSig& sig);
  // Two reference arguments of one call that may name the same tensor (the same local, a row of
  // it, a reference bound to it), one of them `&mut`: E0305, as rustc's E0499 and E0502. Inside
  // the callee they are two tensors, so a kernel there would race (spec/types.md §4.1).
  void check_call_aliases(const tir::Expr* call);
  std::set<int> ref_roots(const tir::Expr* arg) const;

  // ---- check_struct_tensor.cpp: structs holding tensors (spec/types.md §9, "Tensor fields").
  // Such a struct owns its tensors: it moves whole (its local is marked moved), a tensor field is
  // not moved out of it (E0306), and it stays in host code (E0406). Its tensor leaves are handles:
  // a reference to the struct passes them as views, and they are never copied back.
  // A tensor field in HBM or SMEM: E0104 (a struct's tensor is host data).
  void tensor_field_memory_error(const Type& t, Span s);
  // A struct of type `t` named `what` (`m`, `Model { … }`) used at `s`: E0406 in a region; in a
  // function other than main, recorded for check_helper_tensor_structs. False when refused.
  bool struct_tensor_allowed(const Type& t, const std::string& what, Span s);
  struct HelperTensorStruct {
    int fn;
    Span at;
    Type type;
    std::string what;
  };
  std::vector<HelperTensorStruct> helper_tensor_structs_;
  std::vector<Span> device_tensor_struct_errors_;  // E0406 reported, so a call is not again
  // E0406 for the functions that run as device code (`device`, by check_helper_memories) and
  // take, return or use a struct holding a tensor.
  void check_helper_tensor_structs(const std::vector<std::optional<Span>>& device);
  // The leaves of this function's struct locals and parameters that hold a tensor (in scope or
  // not): a tensor read from one of them is a field, never moved out (E0306).
  std::set<int> struct_leaf_slots_;
  // The struct values read from a local (use_var), through a reference (`r`, `*r`) or as a part of
  // either (`m.inner`, tuple_field), by the flat tuple that holds them: what a move of the value
  // moves. A flat tuple not here is a temporary (a literal, a call's result) and moves freely.
  struct StructValue {
    std::string path;         // as a message names it: `m`, `m.inner`, `*r`
    bool whole = false;       // a struct local itself: a move moves the local
    bool behind_ref = false;  // reached through a reference
    int first_leaf = -1;      // whole: the local's first leaf (which local, if still in scope)
    bool ref_mut = false;     // behind_ref: a `&mut` one
  };
  std::map<const tir::Expr*, StructValue> struct_values_;
  // `part`, the field `field` of the struct value `base`: a part of whatever `base` is.
  void note_struct_part(const tir::Expr* base, const tir::Expr* part, const std::string& field);
  // mark_moved of a struct holding a tensor, or of a tensor field of a struct: true when done.
  bool move_struct_tensor(tir::Expr* e, Span at);
  // An assignment to `path` (of type `elem`) of the struct local `local`: E0406 in device code,
  // E0301 for a part of a moved struct, E0306 for a tensor replaced through a reference. False
  // when refused.
  bool struct_tensor_assign(Local& local, const Type& elem, const std::string& path, bool whole,
                            bool through_ref, bool element, Span target);
  // The value of an `if`, a `match` or a block of such a struct: what each branch's value moves
  // is moved after it (spec/memory.md §2), before as_flat names the locals its value goes to.
  void move_branch_values(tir::Expr* e);
  // `&m.w`, `&mut m.w[i]`: a reference to the tensor field held in `leaf`.
  tir::Expr* tensor_field_ref(const std::string& path, int leaf,
                              const std::vector<const ast::IndexSuffix*>& idx, bool is_mut, Span s);
  // The tensor leaves of the struct-reference arguments of `call`, as views of the caller's
  // tensors (a Var read would move them into the callee).
  void pass_tensor_leaves_by_view(tir::Expr* call);
  // A struct holding a tensor printed: E0501, as a tensor is (false: reported).
  bool struct_tensor_format(const tir::Expr* v);
  // Whether a `&mut` struct's leaf in `slot` is copied back after a call: not a tensor, which
  // the callee saw as a view.
  bool copied_back(int slot) const;

  // ---- check_builtins.cpp: calls, built-ins, methods (literals: check_literals.cpp; macros:
  // check_macros.cpp)
  tir::Expr* check_int_lit(const ast::IntLit& l, const Type* expected, bool negate, Span span);
  tir::Expr* check_float_lit(const ast::FloatLit& l, const Type* expected, bool negate, Span span);
  tir::Expr* check_call(const ast::PathExpr& p, const Type* expected, Span span);
  tir::Expr* check_method(tir::Expr* recv, const ast::MethodSuffix& m, Span span);
  tir::Expr* check_macro(const ast::MacroCall& m, Span span);
  tir::Expr* check_dbg(const ast::MacroCall& m, Span span);
  tir::Expr* check_tensor_ctor(const ast::TensorCtor& c, Span span);
  // ---- check_fill_dims.cpp: `Tensor<…>::fill_dims([n, …], v)`, sizes known at run time
  tir::Expr* check_fill_dims(const ast::TensorCtor& c, const Type& t, Span span);
  // The array literal `[a, b, …]` that is the whole of `e`, or null.
  static const ast::ArrayLit* whole_array(const ast::Expr& e);
  // A mismatch only because `found` has a `?` where `expected` has a size: says so on `d`.
  static void run_time_size_help(Diagnostic& d, const Type& expected, const Type& found);
  bool check_format(const std::vector<ast::Expr>& args, size_t first, Span span, tir::Expr* into);
  // Evaluates a constant expression (literals, consts, operators, casts) for a const item; returns
  // null when it is not constant, or when it divides by zero or shifts too far, which is E0206
  // when `report` (a const's value) and not otherwise (an operand that E0220 looks at, whose
  // own operation has its own E0220). Without `report` each node is folded once (quiet_folds_),
  // so that the operands of nested operations are not folded again at each level.
  tir::Expr* fold_constant(tir::Expr* e, bool report = true);
  tir::Expr* fold_node(tir::Expr* e, bool report);
  tir::Expr* ordering_arg(const ast::Expr& e, const char* enum_name,
                          const std::vector<std::string>& names);

  const ParsedProgram& parsed_;
  std::unordered_map<const tir::Expr*, tir::Expr*> quiet_folds_;  // fold_constant's
  Diagnostics& diags_;
  const SourceFile& file_;
  tir::Program& prog_;
  const std::vector<Span> session_decls_;  // CheckOptions::session_decls
  bool session_decl(Span s) const {
    for (const Span& d : session_decls_)
      if (s.begin >= d.begin && s.begin < d.end) return true;
    return false;
  }

  std::vector<FnSig> sigs_;
  std::map<std::string, int> fn_by_name_;
  std::map<std::string, ConstInfo> consts_;
  std::map<std::string, StructInfo> structs_;

  // Per function.
  tir::Function* fn_ = nullptr;
  const FnSig* sig_ = nullptr;
  std::vector<std::vector<Local>> scopes_;
  // ---- moves.cpp: `let r = &t;`, `&mut t`, `&m[i]`, `&mut m.w`: the tensor local that `r`
  // borrows is not assigned whole or moved where `r` is used after (E0305, rustc's E0505 and
  // E0506; spec/types.md §4): later in the code, or earlier in a loop around both that began
  // after the borrow (its next pass uses `r` again).
  struct LetBorrow {
    std::string ref;  // the reference's name and slot: the borrow ends when it is out of scope
    int ref_slot = -1;
    int root_slot = -1;  // the tensor local borrowed
    Span at;
    uint32_t last_use = 0;  // where `r` was last used (the start of the use)
    struct Conflict {
      std::string name;
      Span at;
      bool is_move = false;
    };
    std::optional<Conflict> pending;  // an assignment or move of the root: refused if `r` is used
  };
  std::vector<LetBorrow> let_borrows_;
  void record_let_borrow(const std::string& ref, int ref_slot, const tir::Expr* value, Span at);
  // The local `slot` is assigned whole or moved: E0305 where a reference in scope borrows it (a
  // tensor local; no other is ever borrowed) and is used after.
  void let_borrow_conflict(int slot, const std::string& name, Span at, bool is_move);
  // A use of the local `l`: a reference whose root was assigned or moved since is refused.
  void use_let_borrow(const Local& l, Span at);
  void report_let_borrow(const LetBorrow& b, const LetBorrow::Conflict& c, Span later_use);
  int loop_depth_ = 0;
  // Moves (moves.cpp) follow the paths of the program (spec/memory.md §2): the move state of every
  // local in scope, in scope order, is saved where paths part (the branches of an `if`, a loop's
  // passes, `break` and `continue`) and merged where they meet, a local being moved after the
  // meeting when it is moved on one of the paths that reach it.
  struct MoveMark {
    bool moved = false;
    Span at;
  };
  using MoveState = std::vector<MoveMark>;
  MoveState save_moves() const;
  void restore_moves(const MoveState& state);  // the locals in scope when it was saved
  static void merge_moves(MoveState& into, const MoveState& other);
  // A path reaches a join point (after an `if`, a loop's `break` or `continue`): `at` becomes the
  // moves of this path, or takes them in when an earlier path set it.
  void join_moves(std::optional<MoveState>& at) const;
  // A `break` of a `loop` (check_loops.cpp): its assignment of the loop's value, the value's
  // source when it is an unsuffixed literal checked once the loop's type is known (spec/types.md
  // §2, context 9), and whether it has a value at all.
  struct LoopBreak {
    tir::Stmt* assign = nullptr;
    const ast::Expr* deferred = nullptr;
    Span span;
  };
  // The states where `continue` and `break` leave each loop around the current code, and for a
  // `loop`, what its `break`s give it.
  struct LoopFlow {
    std::optional<MoveState> at_continue, at_break;
    const char* kind = "loop";        // "loop", "while" or "for"
    Span head;                        // the loop's keyword, for messages
    const tir::Stmt* stmt = nullptr;  // the loop's statement: a `break`'s or `continue`'s target
    std::string label;                // its label's name, or empty
    std::optional<Type> value_type;   // what the loop expects, or the first typed `break` value
    int value_slot = -1;              // the hidden local that a `break value` assigns
    std::vector<LoopBreak> breaks;
  };
  std::vector<LoopFlow> loop_flows_;
  void enter_loop(const char* kind, Span head, const tir::Stmt* stmt,
                  const boost::optional<ast::Label>& label);
  // A loop's head, for messages: from its start (its label or keyword) to its body's `{`.
  Span loop_head(Span whole, const ast::Block& body) const;
  // ---- check_loops.cpp: `loop` as an expression, `break` and `continue`
  // A `loop`: its statements (the Let of its value's slot, when it has one, then the Loop) and
  // its value (a read of that slot), or no value (a unit loop, or one that never ends, unless
  // `as_value`: an operand that expects a scalar gets one it never reads).
  struct LoopParts {
    std::vector<tir::Stmt*> stmts;
    tir::Expr* value = nullptr;
  };
  LoopParts check_loop(const ast::LoopExpr& l, const Type* expected, Span s, bool as_value);
  tir::Expr* check_loop_expr(const ast::LoopExpr& l, const Type* expected, Span s);
  void check_break(const ast::BreakStmt& b, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  void check_continue(const ast::ContinueStmt& c, tir::Stmt* st, std::vector<tir::Stmt*>& out);
  // The adapters of a `for` range, `.rev()` and `.step_by(k)`, into st->adapters.
  void check_range_adapters(const ast::ForRange& r, tir::Stmt* st);
  // The index in loop_flows_ of the loop that a `break` or `continue` names (its label's, else the
  // innermost, in this function and region), with its target and levels set; -1 when there is
  // none (E0500, E0505 reported).
  int jump_target(const boost::optional<ast::Label>& label, const char* word, tir::Stmt* st);
  // An untyped value: an unsuffixed literal or arithmetic of them only (spec/types.md §2).
  bool untyped_value(const ast::Expr& e) const;
  // A local declared before the loop and moved at the end of a pass (not re-assigned since the
  // move) would be used moved by the next pass: E0301 at the move. After the loop, a local is
  // moved when it was before it, at the end of a pass, or where a `break` left.
  LoopFlow leave_loop(const MoveState& before, const tir::Block* body);
  int spawn_depth_ = 0;
  int unsafe_depth_ = 0;
  int block_loop_depth_ = 0;  // across blocks loops around the current code
  int fn_index_ = -1;
  tir::ItemUses* uses_ = nullptr;  // uses()

  // For the rule that device code cannot call a function that opens a `spawn on` region.
  std::vector<bool> has_spawn_;                     // per function: contains a region itself
  std::vector<std::vector<int>> callees_;           // per function: the functions it calls
  std::vector<std::pair<int, Span>> device_calls_;  // calls made inside regions
  // Per function: its calls outside regions, which run in the caller's context (host or device).
  std::vector<std::vector<std::pair<int, Span>>> plain_calls_;
  // Tensors indexed by a function other than main outside a region: host or device code
  // depending on who calls it, so E0400 and E0401 are decided once every call is known.
  struct HelperIndex {
    int fn;
    Span at;
    std::string name;
    Memory memory;
  };
  std::vector<HelperIndex> helper_indexes_;
  // A `&str` value made at `at` (a literal, a const, a variable or a call) is host code's only
  // (E0405): refused at once inside a region, and in a function other than main once its calls
  // say it runs as device code.
  std::vector<std::pair<int, Span>> helper_strings_;
  tir::Expr* host_only(tir::Expr* e);
  Diagnostic& string_in_device_code(Span at);
  void check_device_calls();
  void check_helper_memories();
  bool memory_rule(Span s, const std::string& name, Memory m);
  // E0401 (device code) or E0400 (host code) for an element of `name`, in `m`, reached at `s`.
  Diagnostic& memory_error(Span s, const std::string& name, Memory m, bool device,
                           const std::string& label);
};

// The operator of a compound assignment (`+=`: Add).
tir::BinOp compound_op(const std::string& op);
// The variable at the root of a place: `x`, `x[i]`, `(*r)[i]`; null for anything else.
const ast::PathExpr* place_root(const ast::Postfix& p);
// The `loop` that is the whole of an expression (`loop { … }` as a statement or a tail); null
// for anything else.
const ast::LoopExpr* bare_loop(const ast::Expr& e);

}  // namespace vx::check
