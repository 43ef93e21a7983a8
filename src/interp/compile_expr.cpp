// The generic expression nodes (variables, references and views, new tensors, transfers, block
// values, calls) and the compiler's operands and expression dispatch (Compiler::value,
// int_operand, tensor_operand; spec/semantics.md §4). Operators are in compile_ops.cpp, casts in
// compile_cast.cpp, indexing in compile_index.cpp, built-ins in builtins.cpp.
#include <cstdint>
#include <cstring>

#include "interp/compiler.hpp"
#include "interp/host_parallel.hpp"
#include "interp/race_check.hpp"

namespace vx::interp {

namespace {

struct UnitNode final : Node {
  uint64_t eval_bits(Frame&) const override { return 0; }
};

// A unit or token local.
struct BitsVarNode final : Node {
  int slot;
  explicit BitsVarNode(int s) : slot(s) {}
  uint64_t eval_bits(Frame& f) const override { return f.s[slot]; }
};

// A tensor-like local. As a value it moves an owned tensor out (the checker made the local
// dead); as a place it lends its elements.
struct TensorVarNode final : Node {
  int slot;
  explicit TensorVarNode(int s) : slot(s) {}
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    TensorSlot& s = f.t[slot];
    if (&s == &out) return;
    out.view = s.view;
    if (s.owned) {
      out.owned = std::move(s.owned);
      s.view = {};
    } else {
      out.owned.reset();
    }
  }
  const TensorView& place(Frame& f, TensorSlot&) const override { return f.t[slot].view; }
};

// `&x` / `&mut x`: a view of x's elements.
struct RefNode final : Node {
  const Node* inner;
  explicit RefNode(const Node* n) : inner(n) {}
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    const TensorView v = inner->place(f, out);
    out.view = v;
  }
  const TensorView& place(Frame& f, TensorSlot& tmp) const override { return inner->place(f, tmp); }
};

// `t[i]…` with fewer indices than the rank: the sub-tensor, as a view.
struct ViewNode final : Node {
  const Node* base;
  std::vector<IntOperand> idx;
  int elem_size;
  std::string name;
  Span span;
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    const TensorView v = base->place(f, out);
    int64_t off = 0;
    for (size_t k = 0; k < idx.size(); ++k) {
      const uint64_t i = idx[k].get(f);
      if (i >= static_cast<uint64_t>(v.dims[k]))
        index_error(span, name, static_cast<int>(k), i, idx[k].is_unsigned, v.dims[k]);
      off = off * v.dims[k] + static_cast<int64_t>(i);
    }
    TensorView sub = v;
    sub.dims = v.dims + idx.size();
    sub.rank = v.rank - static_cast<int>(idx.size());
    sub.size = 1;
    for (int k = 0; k < sub.rank; ++k) sub.size *= sub.dims[k];
    off *= sub.size;
    sub.data = v.data + off * elem_size;
    if (v.init) sub.init = v.init + off;
    out.view = sub;
  }
  const TensorView& place(Frame& f, TensorSlot& tmp) const override {
    eval_tensor(f, tmp);
    return tmp.view;
  }
};

// `transfer(x, M)`: moves the tensor; only its memory tag changes.
struct TransferNode final : Node {
  const Node* arg;
  Memory memory;
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    TensorSlot tmp;
    arg->eval_tensor(f, tmp);
    if (tmp.owned) tmp.owned->memory = memory;
    out = std::move(tmp);
  }
};

// A block or `if` used as a value. Statements run first; a break/continue/return that leaves
// the block unwinds with FlowEscape (see the layout note).
struct BlockValueNode final : Node {
  const ExprT<bool>* cond = nullptr;  // null: a plain block
  StmtList then_stmts;
  const Node* then_tail = nullptr;
  bool has_else = false;
  StmtList else_stmts;
  const Node* else_tail = nullptr;

  const Node* run(Frame& f) const {
    const bool take_then = cond == nullptr || cond->eval(f);
    if (!take_then && !has_else) return nullptr;
    const Flow fl = run_list(take_then ? then_stmts : else_stmts, f);
    if (fl != Flow::Normal) throw FlowEscape{fl};
    return take_then ? then_tail : else_tail;
  }
  uint64_t eval_bits(Frame& f) const override {
    const Node* tail = run(f);
    return tail ? tail->eval_bits(f) : 0;
  }
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    const Node* tail = run(f);
    if (!tail) internal_error("a block without a tensor value");
    tail->eval_tensor(f, out);
  }
};

// A call of a user function.
struct CallNode final : Node {
  int fn_index;
  std::vector<const Node*> args;
  std::vector<bool> arg_is_tensor;
  std::vector<int> out_slots;  // a function that returns a tuple: where its scalars go
  Span span;

  Frame* enter(Frame& f, CompiledFunction*& cf) const {
    ExecContext* ctx = f.ctx;
    cf = (*ctx->functions)[fn_index].get();
    Frame* callee = cf->acquire(ctx);
    const std::vector<int>& params = cf->fn->param_slots;
    for (size_t i = 0; i < args.size(); ++i) {
      if (arg_is_tensor[i]) {
        TensorSlot tmp;
        args[i]->eval_tensor(f, tmp);
        callee->t[params[i]] = std::move(tmp);
      } else {
        callee->s[params[i]] = args[i]->eval_bits(f);
      }
    }
    count_steps(ctx, 1, span);
    if (++ctx->depth > ctx->max_depth) {
      runtime_error(
          span, "stack overflow: more than " + std::to_string(ctx->max_depth) + " nested calls");
    }
    run_list(cf->body, *callee);
    --ctx->depth;
    const std::vector<int>& rets = cf->fn->ret_slots;
    for (size_t k = 0; k < out_slots.size(); ++k) {
      const size_t r = static_cast<size_t>(rets[k]);
      if (in_tensor_slot(cf->fn->slot_types[r]))  // an array field of a returned struct
        f.t[out_slots[k]] = std::move(callee->t[r]);
      else
        f.s[out_slots[k]] = callee->s[r];
    }
    return callee;
  }
  uint64_t eval_bits(Frame& f) const override {
    CompiledFunction* cf;
    Frame* callee = enter(f, cf);
    const uint64_t r = callee->ret_bits;
    cf->release(callee);
    return r;
  }
  void eval_tensor(Frame& f, TensorSlot& out) const override {
    CompiledFunction* cf;
    Frame* callee = enter(f, cf);
    TensorSlot r = std::move(callee->ret_tensor);
    cf->release(callee);
    out = std::move(r);
  }
};

bool is_tensor_type(const vx::Type& t) { return in_tensor_slot(t); }

std::string var_name(const tir::Expr& e) {
  if (e.kind == tir::ExprKind::Var) return e.text;
  if (!e.args.empty()) return var_name(*e.args[0]);
  return "tensor";
}

}  // namespace

std::string tensor_name(const tir::Expr& e) { return var_name(e); }

// ---- The compiler: statements and generic expressions -------------------------------------------

std::string Compiler::source_text(Span span) const {
  const std::string& text = program_.file->text();
  if (span.begin > span.end || span.end > text.size()) return "";
  return text.substr(span.begin, span.end - span.begin);
}

namespace {

// `e` as constant + Σ coef·local, when it is made of locals, constants, +, - and * by a constant
// (all in e's integer type, so wrapping modulo 2^64 and then to the width is exact).
bool affine_terms(const tir::Expr& e, uint64_t scale, IntOperand& op) {
  using tir::BinOp;
  using tir::ExprKind;
  if (e.kind == ExprKind::Literal) {
    op.constant += scale * static_cast<uint64_t>(e.lit.i);
    return true;
  }
  if (e.kind == ExprKind::Var && e.type.is_scalar()) {
    for (int k = 0; k < op.terms; ++k) {
      if (op.term_slot[k] == e.slot) {
        op.term_coef[k] += scale;
        return true;
      }
    }
    if (op.terms == 3) return false;
    op.term_slot[op.terms] = e.slot;
    op.term_coef[op.terms] = scale;
    ++op.terms;
    return true;
  }
  if (e.kind != ExprKind::Binary) return false;
  const tir::Expr& l = *e.args[0];
  const tir::Expr& r = *e.args[1];
  switch (e.bop) {
    case BinOp::Add:
      return affine_terms(l, scale, op) && affine_terms(r, scale, op);
    case BinOp::Sub:
      return affine_terms(l, scale, op) && affine_terms(r, uint64_t{0} - scale, op);
    case BinOp::Mul:
      if (r.kind == ExprKind::Literal)
        return affine_terms(l, scale * static_cast<uint64_t>(r.lit.i), op);
      if (l.kind == ExprKind::Literal)
        return affine_terms(r, scale * static_cast<uint64_t>(l.lit.i), op);
      return false;
    default:
      return false;
  }
}

}  // namespace

IntOperand Compiler::int_operand(const tir::Expr& e) {
  IntOperand op;
  op.is_unsigned = e.type.is_scalar() && is_int(e.type.scalar) && !is_signed_int(e.type.scalar);
  if (e.kind == tir::ExprKind::Var && e.type.is_scalar()) {
    op.slot = e.slot;
    return op;
  }
  if (e.type.is_scalar() && is_int(e.type.scalar) && e.kind == tir::ExprKind::Binary) {
    IntOperand affine = op;
    affine.shift = static_cast<uint8_t>(64 - 8 * scalar_size(e.type.scalar));
    if (affine_terms(e, 1, affine) && affine.terms > 0) return affine;
  }
  op.e = value(e);
  return op;
}

TensorOperand Compiler::tensor_operand(const tir::Expr& e) {
  TensorOperand op;
  const tir::Expr* x = &e;
  if (x->kind == tir::ExprKind::Ref && x->args[0]->kind == tir::ExprKind::Var) x = x->args[0];
  if (x->kind == tir::ExprKind::Var && is_tensor_type(x->type))
    op.slot = x->slot;
  else
    op.node = value(e);
  return op;
}

const Node* Compiler::value(const tir::Expr& e) {
  using tir::ExprKind;
  switch (e.kind) {
    case ExprKind::Match:  // lowered before this step
    case ExprKind::Field:
      tir::unlowered();
    case ExprKind::Literal:
      return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
        using T = decltype(tag);
        return make<LitNode<T>>(literal_value<T>(e.lit));
      });
    case ExprKind::Unit:
      return make<UnitNode>();
    case ExprKind::String:
      return string_value(e);
    case ExprKind::Var:
      if (e.type.is_scalar()) {
        return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
          return make<VarNode<decltype(tag)>>(e.slot);
        });
      }
      if (e.type.is_array()) return array_var(e);
      if (is_tensor_type(e.type)) return make<TensorVarNode>(e.slot);
      return make<BitsVarNode>(e.slot);
    case ExprKind::Unary:
      return unary(e);
    case ExprKind::Binary:
      if (e.args[0]->type.kind == TypeKind::String) return string_value(e);
      if (e.args[0]->type.is_array()) return array_eq(e);
      return binary(e);
    case ExprKind::Cast:
      return cast(e);
    case ExprKind::Index:
      return index_load(e);
    case ExprKind::View: {
      auto* n = make<ViewNode>();
      n->base = value(*e.args[0]);
      for (size_t k = 1; k < e.args.size(); ++k) n->idx.push_back(int_operand(*e.args[k]));
      n->elem_size = scalar_size(e.type.scalar);
      n->name = var_name(e);
      n->span = e.span;
      return n;
    }
    case ExprKind::Ref:
      return make<RefNode>(value(*e.args[0]));
    case ExprKind::Call: {
      auto* n = make<CallNode>();
      n->fn_index = e.fn_index;
      n->span = e.span;
      n->out_slots = e.out_slots;
      for (const tir::Expr* a : e.args) {
        n->args.push_back(value(*a));
        n->arg_is_tensor.push_back(is_tensor_type(a->type));
      }
      return n;
    }
    case ExprKind::Builtin:
      return builtin(e);
    case ExprKind::TensorNew:
      return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
        using T = decltype(tag);
        auto* n = make<TensorNewNode<T>>();
        if (e.builtin_fill) n->fill = scalar<T>(*e.args[0]);
        n->elem = e.type.scalar;
        n->memory = e.type.memory;
        n->dims = e.type.dims;
        for (size_t k = 1; k < e.args.size(); ++k) {
          n->sizes.push_back(int_operand(*e.args[k]));
          n->size_spans.push_back(e.args[k]->span);
        }
        n->span = e.span;
        return n;
      });
    case ExprKind::Transfer: {
      auto* n = make<TransferNode>();
      n->arg = value(*e.args[0]);
      n->memory = e.type.memory;
      return n;
    }
    case ExprKind::If:
      return block_value(e.block, e.args[0], e.else_block, e.type);
    case ExprKind::BlockExpr:
      return block_value(e.block, nullptr, nullptr, e.type);
    case ExprKind::Print:
      return print(e);
    case ExprKind::Assert:
      return assert_(e);
    case ExprKind::ArrayLit:
      return array_lit(e);
  }
  internal_error("unknown expression kind");
}

const Node* Compiler::block_value(const tir::Block* b, const tir::Expr* cond,
                                  const tir::Block* else_b, const vx::Type&) {
  auto* n = make<BlockValueNode>();
  if (cond) n->cond = scalar<bool>(*cond);
  ++expr_block_depth_;
  n->then_stmts = block_stmts(*b, Tail::Skip);
  if (b->tail) n->then_tail = value(*b->tail);
  if (else_b) {
    n->has_else = true;
    n->else_stmts = block_stmts(*else_b, Tail::Skip);
    if (else_b->tail) n->else_tail = value(*else_b->tail);
  }
  --expr_block_depth_;
  return n;
}

}  // namespace vx::interp
