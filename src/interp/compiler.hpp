// Compiles the typed program into the executable tree, once, before main runs. The expression
// kinds are split over files: interpreter.cpp (statements, control flow, calls, tensors),
// compile_ops.cpp (operators), compile_cast.cpp, compile_index.cpp, builtins.cpp (built-ins),
// print.cpp (macros).
#pragma once
#include <memory>
#include <vector>

#include "check/tir.hpp"
#include "check/tir_marks.hpp"
#include "interp/nodes.hpp"

namespace vx::interp {

// A value that lives in a frame's TensorSlot rather than its scalar slot: a tensor, a reference,
// or an array (arrays.cpp).
inline bool in_tensor_slot(const vx::Type& t) { return t.is_tensor_like() || t.is_array(); }

class Compiler {
 public:
  explicit Compiler(const tir::Program& program) : program_(program) {}

  // Compiles every function; the nodes live as long as the Compiler.
  std::vector<std::unique_ptr<CompiledFunction>> compile_all();

  // Any expression.
  const Node* value(const tir::Expr& e);
  // A scalar expression as the typed interface.
  template <class T>
  const ExprT<T>* scalar(const tir::Expr& e) {
    return typed<T>(value(e));
  }
  template <class T>
  const ExprT<T>* typed(const Node* n) {
    if (auto* t = dynamic_cast<const ExprT<T>*>(n)) return t;
    return make<FromBits<T>>(n);
  }
  // `e` as a leaf (Leaf<T>), when it is one; `n` receives the node when e had to be compiled.
  template <class T>
  bool leaf(const tir::Expr& e, Leaf<T>& out, const Node** n) {
    if (e.kind == tir::ExprKind::Var && e.type.is_scalar()) {
      out.kind = Leaf<T>::kVar;
      out.slot = e.slot;
      return true;
    }
    if (e.kind == tir::ExprKind::Literal) {
      out.kind = Leaf<T>::kLit;
      out.lit = literal_value<T>(e.lit);
      return true;
    }
    if (std::is_floating_point_v<T> && e.kind == tir::ExprKind::Cast &&
        e.args[0]->kind == tir::ExprKind::Var && e.args[0]->type.is_scalar() &&
        is_int(e.args[0]->type.scalar)) {
      out.kind =
          is_signed_int(e.args[0]->type.scalar) ? Leaf<T>::kFromSigned : Leaf<T>::kFromUnsigned;
      out.slot = e.args[0]->slot;
      return true;
    }
    if (e.kind != tir::ExprKind::Index) return false;
    *n = value(e);
    if (auto* l = dynamic_cast<const IndexLoadSlots<T>*>(*n)) {
      out.kind = Leaf<T>::kLoad;
      out.load = &l->ld;
      return true;
    }
    return false;
  }
  template <class T>
  OpAny<T> op_any(const tir::Expr& e) {
    OpAny<T> op;
    const Node* n = nullptr;
    if (leaf<T>(e, op.x, &n)) {
      op.kind = OpAny<T>::kLeaf;
      return op;
    }
    if (n) {
      op.e = typed<T>(n);
      return op;
    }
    if constexpr (!std::is_same_v<T, bool> && !kIsHalf<T>) {
      // Only when every operand is a leaf: compiling some alone first would be harmless, but
      // their nodes would be wasted when another is not.
      const Node* n1 = nullptr;
      const Node* n2 = nullptr;
      const Node* n3 = nullptr;
      if (safe_binary<T>(e) && is_leaf(*e.args[0]) && is_leaf(*e.args[1]) &&
          leaf<T>(*e.args[0], op.x, &n1) && leaf<T>(*e.args[1], op.y, &n2)) {
        op.kind = OpAny<T>::kBin;
        op.op = e.bop;
        return op;
      }
      // Only a binary operator has operands here: a call without arguments or a block has none.
      if (safe_binary<T>(e) && safe_binary<T>(*e.args[0]) && is_leaf(*e.args[0]->args[0]) &&
          is_leaf(*e.args[0]->args[1]) && is_leaf(*e.args[1]) &&
          leaf<T>(*e.args[0]->args[0], op.x, &n1) && leaf<T>(*e.args[0]->args[1], op.y, &n2) &&
          leaf<T>(*e.args[1], op.z, &n3)) {
        const tir::Expr& l = *e.args[0];
        op.kind = OpAny<T>::kBin2;
        op.op = l.bop;
        op.op2 = e.bop;
        return op;
      }
    }
    op.e = scalar<T>(e);
    return op;
  }
  // A binary operator that safe_arith computes.
  template <class T>
  static bool safe_binary(const tir::Expr& e) {
    using tir::BinOp;
    return e.kind == tir::ExprKind::Binary && e.type.is_scalar() &&
           (e.bop == BinOp::Add || e.bop == BinOp::Sub || e.bop == BinOp::Mul ||
            (e.bop == BinOp::Div && std::is_floating_point_v<T>));
  }
  // Whether leaf() may take `e` (an Index of a tensor local whose indices are locals or
  // constants, which compiles to a slot load).
  static bool is_leaf(const tir::Expr& e) {
    using tir::ExprKind;
    if (e.kind == ExprKind::Var) return e.type.is_scalar();
    if (e.kind == ExprKind::Literal) return true;
    if (e.kind == ExprKind::Cast)
      return e.args[0]->kind == ExprKind::Var && e.args[0]->type.is_scalar() &&
             is_int(e.args[0]->type.scalar);
    if (e.kind != ExprKind::Index || e.args.size() < 2 || e.args.size() > 4) return false;
    if (e.args[0]->kind != ExprKind::Var || !in_tensor_slot(e.args[0]->type)) return false;
    for (size_t k = 1; k < e.args.size(); ++k) {
      const tir::Expr& i = *e.args[k];
      if (i.kind != ExprKind::Literal && (i.kind != ExprKind::Var || !i.type.is_scalar()))
        return false;
    }
    return true;
  }
  IntOperand int_operand(const tir::Expr& e);
  TensorOperand tensor_operand(const tir::Expr& e);

  // Split-out kinds.
  const Node* unary(const tir::Expr& e);             // compile_ops.cpp
  const Node* binary(const tir::Expr& e);            // compile_ops.cpp
  const Node* cast(const tir::Expr& e);              // compile_cast.cpp
  const Node* index_load(const tir::Expr& e);        // compile_index.cpp
  const StmtNode* index_store(const tir::Stmt& s);   // compile_index.cpp
  const StmtNode* var_compound(const tir::Stmt& s);  // compile_index.cpp
  const Node* builtin(const tir::Expr& e);           // builtins.cpp
  const Node* print(const tir::Expr& e);             // print.cpp
  const Node* assert_(const tir::Expr& e);           // print.cpp
  // A `&str` literal, a comparison of two, or `.len()` of one.
  const Node* string_value(const tir::Expr& e);  // strings.cpp
  // arrays.cpp: an array local as a value (a copy), a literal, `==`/`!=` of two arrays.
  const Node* array_var(const tir::Expr& e);
  const Node* array_lit(const tir::Expr& e);
  const Node* array_eq(const tir::Expr& e);

  template <class N, class... A>
  N* make(A&&... args) {
    auto p = std::make_unique<N>(std::forward<A>(args)...);
    N* raw = p.get();
    keep(std::move(p));
    return raw;
  }
  void keep(std::unique_ptr<Node> n) { nodes_.push_back(std::move(n)); }
  void keep(std::unique_ptr<StmtNode> n) { stmts_.push_back(std::move(n)); }

  const tir::Program& program() const { return program_; }
  // `--check-races`: compile element accesses, across loops and regions into recording nodes.
  bool record_races = false;
  // The offload marks to hand to the runner (RunOptions::marks); null: none.
  const tir::Marks* marks = nullptr;
  bool has_dbg = false;  // a `dbg!` was compiled: blocks run in order, so its lines do too
  // The source text of a span (assert!'s message).
  std::string source_text(Span span) const;

 private:
  enum class Tail { Discard, Return, Skip };  // Skip: the caller takes the tail as a value
  const StmtNode* stmt(const tir::Stmt& s);
  const StmtNode* stmt_inner(const tir::Stmt& s);
  StmtList block_stmts(const tir::Block& b, Tail tail);
  // `then` (the statement at `position` of `b`, or null) behind the offload marks there, if any.
  const StmtNode* marked(const tir::Block& b, size_t position, const StmtNode* then);
  const StmtNode* tail_stmt(const tir::Expr& e, Tail tail);
  const StmtNode* for_stmt(const tir::Stmt& s);
  const StmtNode* for_store(const tir::Stmt& s);  // compile_index.cpp; null when it does not fit
  // compile_lane_loop.cpp: the loop `s` a chunk of passes at a time, handing a range it cannot
  // prove to `general` (the same loop compiled as a RangeLoop); null when it does not fit.
  const StmtNode* lane_loop(const tir::Stmt& s, const StmtNode* general);
  const StmtNode* let_or_assign_tensor(int slot, const tir::Expr& value);
  const Node* block_value(const tir::Block* b, const tir::Expr* cond, const tir::Block* else_b,
                          const vx::Type& type);

  const tir::Program& program_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<StmtNode>> stmts_;
  int expr_block_depth_ = 0;  // > 0 while compiling a block that is an expression's operand
  bool escape_seen_ = false;  // a break/continue/return was compiled inside such a block
};

}  // namespace vx::interp
