// Compiles the typed program into the executable tree, once, before main runs. The expression
// kinds are split over files: interpreter.cpp (statements, control flow, calls, tensors),
// compile_ops.cpp (operators), compile_cast.cpp, compile_index.cpp, builtins.cpp (built-ins),
// print.cpp (macros).
#pragma once
#include <memory>
#include <vector>

#include "check/tir.hpp"
#include "interp/nodes.hpp"

namespace vx::interp {

class Compiler {
 public:
  explicit Compiler(const tir::Program& program) : program_(program) {}

  // Compiles every function; the nodes live as long as the Compiler.
  std::vector<std::unique_ptr<CompiledFunction>> compile_all();

  // Any expression.
  const Node* value(const tir::Expr& e);
  // A scalar expression as the typed interface.
  template <class T> const ExprT<T>* scalar(const tir::Expr& e) {
    const Node* n = value(e);
    if (auto* t = dynamic_cast<const ExprT<T>*>(n)) return t;
    return make<FromBits<T>>(n);
  }
  template <class T> OpAny<T> op_any(const tir::Expr& e) {
    OpAny<T> op;
    if (e.kind == tir::ExprKind::Var && e.type.is_scalar()) {
      op.kind = OpAny<T>::kVar;
      op.slot = e.slot;
    } else if (e.kind == tir::ExprKind::Literal) {
      op.kind = OpAny<T>::kLit;
      op.lit = literal_value<T>(e.lit);
    } else {
      op.e = scalar<T>(e);
    }
    return op;
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
  const Node* builtin(const tir::Expr& e);      // builtins.cpp
  const Node* print(const tir::Expr& e);        // print.cpp
  const Node* assert_(const tir::Expr& e);      // print.cpp

  template <class N, class... A> N* make(A&&... args) {
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
  // The source text of a span (assert!'s message).
  std::string source_text(Span span) const;

 private:
  enum class Tail { Discard, Return, Skip };  // Skip: the caller takes the tail as a value
  const StmtNode* stmt(const tir::Stmt& s);
  const StmtNode* stmt_inner(const tir::Stmt& s);
  StmtList block_stmts(const tir::Block& b, Tail tail);
  const StmtNode* tail_stmt(const tir::Expr& e, Tail tail);
  const StmtNode* for_stmt(const tir::Stmt& s);
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
