// Indexing as typed nodes (spec/semantics.md §2, memory.md §3): loads, stores and compound
// assignments of tensor elements, specialised by rank where every index is a local (the kernel
// case: a leaf function with no calls), with bounds checks and SMEM init flags.
#include "interp/compiler.hpp"

namespace vx::interp {
namespace {

using tir::BinOp;
using tir::ExprKind;

bool is_scalar_var(const tir::Expr& e) { return e.kind == ExprKind::Var && e.type.is_scalar(); }

}  // namespace

namespace {

inline int64_t index_offset_n(Frame& f, const TensorView& v, const std::vector<IntOperand>& idx,
                              Span span, const std::string& name) {
  int64_t off = 0;
  for (size_t k = 0; k < idx.size(); ++k) {
    const uint64_t i = idx[k].get(f);
    const int64_t d = v.dims[k];
    if (i >= static_cast<uint64_t>(d)) [[unlikely]]
      index_error(span, name, static_cast<int>(k), i, idx[k].is_unsigned, d);
    off = off * d + static_cast<int64_t>(i);
  }
  return off;
}

template <class T>
inline T load_elem(const TensorView& v, int64_t off, Span span, const std::string& name) {
  if (v.init && !v.init[off]) [[unlikely]]
    uninit_error(span, name, v, off);
  return reinterpret_cast<const T*>(v.data)[off];
}

template <class T>
inline void store_elem(const TensorView& v, int64_t off, T x) {
  reinterpret_cast<T*>(v.data)[off] = x;
  if (v.init) v.init[off] = 1;
}

// t[i]…[k] of a tensor-like local with rank R: the hot case.
template <class T, int R>
struct IndexLoad final : ExprImpl<IndexLoad<T, R>, T> {
  int tslot;
  IntOperand idx[R];
  Span span;
  std::string name;
  T eval(Frame& f) const override {
    const TensorView& v = f.t[tslot].view;
    const int64_t off = operand_offset(f, v, R, idx, span, name);
    return load_elem<T>(v, off, span, name);
  }
};

// Any other tensor-like base (a view, a call), any rank.
// The generic nodes take `Record`: with `--check-races` they also report the element they touch
// to the recorder; without it they compile exactly as before (`if constexpr`).
template <class T, bool Record>
struct IndexLoadAny final : ExprImpl<IndexLoadAny<T, Record>, T> {
  const Node* base;
  std::vector<IntOperand> idx;
  Span span;
  std::string name;
  T eval(Frame& f) const override {
    TensorSlot tmp;
    const TensorView& v = base->place(f, tmp);
    const int64_t off = index_offset_n(f, v, idx, span, name);
    const T x = load_elem<T>(v, off, span, name);
    if constexpr (Record) record_access(f, v, off, name, false, span);
    return x;
  }
};

template <class T, int R>
struct IndexStore final : StmtNode {
  int tslot;
  IntOperand idx[R];
  const ExprT<T>* value;
  Span span;
  std::string name;
  Flow exec(Frame& f) const override {
    const TensorView& v = f.t[tslot].view;
    const int64_t off = operand_offset(f, v, R, idx, span, name);
    const T x = value->eval(f);
    // `v` is re-read after the value; it cannot have shrunk unless the value reassigned the
    // tensor, which this one compare keeps from writing out of bounds.
    if (static_cast<uint64_t>(off) >= static_cast<uint64_t>(v.size)) [[unlikely]]
      index_error(span, name, 0, static_cast<uint64_t>(off), false, v.size);
    store_elem<T>(v, off, x);
    return Flow::Normal;
  }
};

template <class T, int R>
struct IndexStoreSlots final : StmtNode {
  int tslot;
  int slots[R];
  bool is_unsigned[R];
  OpAny<T> value;
  Span span;
  std::string name;
  Flow exec(Frame& f) const override {
    const TensorView& v = f.t[tslot].view;
    const int64_t off = slot_offset(f, v, R, slots, is_unsigned, span, name);
    const T x = value.get(f);
    if (static_cast<uint64_t>(off) >= static_cast<uint64_t>(v.size)) [[unlikely]]
      index_error(span, name, 0, static_cast<uint64_t>(off), false, v.size);
    store_elem<T>(v, off, x);
    return Flow::Normal;
  }
};

template <class T, bool Record>
struct IndexStoreAny final : StmtNode {
  const Node* base;
  std::vector<IntOperand> idx;
  const ExprT<T>* value;
  Span span;
  std::string name;
  Flow exec(Frame& f) const override {
    TensorSlot tmp;
    const TensorView v = base->place(f, tmp);
    const int64_t off = index_offset_n(f, v, idx, span, name);
    const T x = value->eval(f);
    if constexpr (Record) record_access(f, v, off, name, true, span);
    store_elem<T>(v, off, x);
    return Flow::Normal;
  }
};

// `for x in a..b { t[i]…[x] = e; }`: a loop whose whole body stores into a tensor local, every
// index a local and the last one the loop's variable, and whose value runs no statement and
// moves no tensor (may_change_locals), so it cannot reassign the tensor or an index. The view,
// the outer indices (checked once: they are the same for every pass, and the first pass checks
// them first) and the row are hoisted; the loop's index is checked on each pass, before the
// value, as the plain store does.
template <class T, class I>
struct ForStore final : RangeLoop<I> {
  int tslot;
  int rank;
  int slots[3];
  bool is_unsigned[3];
  OpAny<T> value;
  Span span;
  std::string name;
  Flow run(Frame& f, I a, I b) const override {
    const TensorView& v = f.t[tslot].view;
    uint64_t* var = &f.s[this->slot];
    *var = to_bits<I>(a);  // an index error of the row is the first pass's
    int64_t row = 0;
    for (int k = 0; k + 1 < rank; ++k) {
      const uint64_t i = f.s[slots[k]];
      if (i >= static_cast<uint64_t>(v.dims[k])) [[unlikely]]
        index_error(span, name, k, i, is_unsigned[k], v.dims[k]);
      row = row * v.dims[k] + static_cast<int64_t>(i);
    }
    const uint64_t len = static_cast<uint64_t>(v.dims[rank - 1]);
    row *= static_cast<int64_t>(len);
    T* data = reinterpret_cast<T*>(v.data) + row;
    uint8_t* init = v.init ? v.init + row : nullptr;
    // The body stores and calls nothing: the passes are counted at once.
    count_steps(f.ctx, range_passes(a, b, this->inclusive), this->loop_span);
    for (I x = a;; x = static_cast<I>(x + 1)) {
      const uint64_t i = to_bits<I>(x);
      *var = i;
      if (i >= len) [[unlikely]]
        index_error(span, name, rank - 1, i, is_unsigned[rank - 1], static_cast<int64_t>(len));
      data[i] = value.get(f);
      if (init) init[i] = 1;
      if (this->last_pass(x, b)) break;
    }
    return Flow::Normal;
  }
};

// Whether evaluating `e` can run a statement (a block or an `if` as a value) or move a tensor
// (a call or a transfer may take one by value), either of which could change the stored
// tensor's view under ForStore.
bool may_change_locals(const tir::Expr& e) {
  if (e.kind == ExprKind::BlockExpr || e.kind == ExprKind::If || e.kind == ExprKind::Call ||
      e.kind == ExprKind::Transfer)
    return true;
  for (const tir::Expr* a : e.args)
    if (a && may_change_locals(*a)) return true;
  return false;
}

// The tensor, index slots, value and message fields of a store `t[i]…[k] = e` whose indices
// are all locals.
template <class T, class N>
N* fill_slot_store(Compiler& c, N* n, const tir::Stmt& s) {
  const tir::Expr& target = *s.target;
  const tir::Expr& base = *target.args[0];
  n->tslot = base.slot;
  for (size_t k = 1; k < target.args.size(); ++k) {
    n->slots[k - 1] = target.args[k]->slot;
    n->is_unsigned[k - 1] = !is_signed_int(target.args[k]->type.scalar);
  }
  n->value = c.template op_any<T>(*s.value);
  n->span = target.span;
  n->name = tensor_name(base);
  return n;
}

struct CompoundInfo {
  Span span;
  bool rhs_unsigned = false;
  Scalar lhs = Scalar::I32;
};
template <class T>
using CompoundFn = T (*)(T, uint64_t, const CompoundInfo&);

template <class T, BinOp Op>
T compound_apply(T a, uint64_t rb, const CompoundInfo& ci) {
  if constexpr (Op == BinOp::Shl || Op == BinOp::Shr) {
    if constexpr (kIsInt<T>)
      return op_shift(a, rb, ci.rhs_unsigned, Op == BinOp::Shl, ci.span, ci.lhs);
    else
      return a;
  } else {
    return apply_arith<Op>(a, from_bits<T>(rb), ci.span);
  }
}

template <class T>
CompoundFn<T> compound_fn(BinOp op) {
#define VX_COMPOUND(O)                                                           \
  case BinOp::O:                                                                 \
    if constexpr (kArithValid<T, BinOp::O>) return &compound_apply<T, BinOp::O>; \
    break;
  switch (op) {
    VX_COMPOUND(Add)
    VX_COMPOUND(Sub)
    VX_COMPOUND(Mul)
    VX_COMPOUND(Div)
    VX_COMPOUND(Rem)
    VX_COMPOUND(BitAnd)
    VX_COMPOUND(BitOr)
    VX_COMPOUND(BitXor)
    case BinOp::Shl:
      if constexpr (kIsInt<T>) return &compound_apply<T, BinOp::Shl>;
      break;
    case BinOp::Shr:
      if constexpr (kIsInt<T>) return &compound_apply<T, BinOp::Shr>;
      break;
    default:
      break;
  }
#undef VX_COMPOUND
  internal_error("a compound assignment with an operator the type lacks");
}

template <class T, int R>
struct IndexCompound final : StmtNode {
  int tslot;
  IntOperand idx[R];
  const Node* value;
  CompoundFn<T> fn;
  CompoundInfo info;
  std::string name;
  Flow exec(Frame& f) const override {
    const TensorView& v = f.t[tslot].view;
    const int64_t off = operand_offset(f, v, R, idx, info.span, name);
    const uint64_t rb = value->eval_bits(f);
    if (static_cast<uint64_t>(off) >= static_cast<uint64_t>(v.size)) [[unlikely]]
      index_error(info.span, name, 0, static_cast<uint64_t>(off), false, v.size);
    const T old = load_elem<T>(v, off, info.span, name);
    store_elem<T>(v, off, fn(old, rb, info));
    return Flow::Normal;
  }
};

template <class T, bool Record>
struct IndexCompoundAny final : StmtNode {
  const Node* base;
  std::vector<IntOperand> idx;
  const Node* value;
  CompoundFn<T> fn;
  CompoundInfo info;
  std::string name;
  Flow exec(Frame& f) const override {
    TensorSlot tmp;
    const TensorView v = base->place(f, tmp);
    const int64_t off = index_offset_n(f, v, idx, info.span, name);
    const uint64_t rb = value->eval_bits(f);
    const T old = load_elem<T>(v, off, info.span, name);
    if constexpr (Record) {  // `t[i] op= x` reads, then writes
      record_access(f, v, off, name, false, info.span);
      record_access(f, v, off, name, true, info.span);
    }
    store_elem<T>(v, off, fn(old, rb, info));
    return Flow::Normal;
  }
};

template <class T>
struct VarCompound final : StmtNode {
  int slot;
  const Node* value;
  CompoundFn<T> fn;
  CompoundInfo info;
  Flow exec(Frame& f) const override {
    const uint64_t rb = value->eval_bits(f);
    f.s[slot] = to_bits<T>(fn(from_bits<T>(f.s[slot]), rb, info));
    return Flow::Normal;
  }
};

bool fused_base(const tir::Expr& base) {
  return base.kind == ExprKind::Var && in_tensor_slot(base.type);
}

bool all_scalar_vars(const std::vector<tir::Expr*>& args, size_t from) {
  for (size_t k = from; k < args.size(); ++k)
    if (!is_scalar_var(*args[k])) return false;
  return true;
}

CompoundInfo compound_info(const tir::Stmt& s) {
  CompoundInfo ci;
  ci.span = s.span;
  const vx::Type& rt = s.value->type;
  ci.rhs_unsigned = rt.is_scalar() && is_int(rt.scalar) && !is_signed_int(rt.scalar);
  ci.lhs = s.target->type.scalar;
  return ci;
}

}  // namespace

const Node* Compiler::index_load(const tir::Expr& e) {
  const tir::Expr& base = *e.args[0];
  const int rank = static_cast<int>(e.args.size()) - 1;
  return with_scalar(e.type.scalar, [&](auto tag) -> const Node* {
    using T = decltype(tag);
    auto fused = [&](auto* n) -> const Node* {
      n->tslot = base.slot;
      for (int k = 0; k < rank; ++k) n->idx[k] = int_operand(*e.args[k + 1]);
      n->span = e.span;
      n->name = tensor_name(base);
      return n;
    };
    auto slotted = [&](IndexLoadSlots<T>* n) -> const Node* {
      SlotLoad<T>& ld = n->ld;
      ld.tslot = base.slot;
      ld.rank = rank;
      for (int k = 0; k < rank; ++k) ld.idx[k] = int_operand(*e.args[k + 1]);
      ld.span = e.span;
      ld.name = tensor_name(base);
      return n;
    };
    auto generic = [&](auto* n) -> const ExprT<T>* {
      n->base = value(base);
      for (int k = 0; k < rank; ++k) n->idx.push_back(int_operand(*e.args[k + 1]));
      n->span = e.span;
      n->name = tensor_name(base);
      return n;
    };
    if (record_races) return generic(make<IndexLoadAny<T, true>>());
    if (fused_base(base) && rank >= 1 && rank <= 3) return slotted(make<IndexLoadSlots<T>>());
    if (fused_base(base)) {
      if (rank == 1) return fused(make<IndexLoad<T, 1>>());
    }
    return generic(make<IndexLoadAny<T, false>>());
  });
}

const StmtNode* Compiler::index_store(const tir::Stmt& s) {
  const tir::Expr& target = *s.target;
  const tir::Expr& base = *target.args[0];
  const int rank = static_cast<int>(target.args.size()) - 1;
  return with_scalar(target.type.scalar, [&](auto tag) -> const StmtNode* {
    using T = decltype(tag);
    auto generic_compound = [&](auto* n) -> const StmtNode* {
      n->base = value(base);
      for (int k = 0; k < rank; ++k) n->idx.push_back(int_operand(*target.args[k + 1]));
      n->value = value(*s.value);
      n->fn = compound_fn<T>(s.op);
      n->info = compound_info(s);
      n->info.span = target.span;
      n->name = tensor_name(base);
      return n;
    };
    auto generic_store = [&](auto* n) -> const StmtNode* {
      n->base = value(base);
      for (int k = 0; k < rank; ++k) n->idx.push_back(int_operand(*target.args[k + 1]));
      n->value = scalar<T>(*s.value);
      n->span = target.span;
      n->name = tensor_name(base);
      return n;
    };
    if (record_races) {
      return s.compound ? generic_compound(make<IndexCompoundAny<T, true>>())
                        : generic_store(make<IndexStoreAny<T, true>>());
    }
    if (s.compound) {
      const CompoundFn<T> fn = compound_fn<T>(s.op);
      auto fused = [&](auto* n) -> const StmtNode* {
        n->tslot = base.slot;
        for (int k = 0; k < rank; ++k) n->idx[k] = int_operand(*target.args[k + 1]);
        n->value = value(*s.value);
        n->fn = fn;
        n->info = compound_info(s);
        n->info.span = target.span;
        n->name = tensor_name(base);
        return n;
      };
      if (fused_base(base)) {
        if (rank == 1) return fused(make<IndexCompound<T, 1>>());
      }
      return generic_compound(make<IndexCompoundAny<T, false>>());
    }
    auto fused = [&](auto* n) -> const StmtNode* {
      n->tslot = base.slot;
      for (int k = 0; k < rank; ++k) n->idx[k] = int_operand(*target.args[k + 1]);
      n->value = scalar<T>(*s.value);
      n->span = target.span;
      n->name = tensor_name(base);
      return n;
    };
    auto slotted = [&](auto* n) -> const StmtNode* { return fill_slot_store<T>(*this, n, s); };
    if (fused_base(base) && all_scalar_vars(target.args, 1)) {
      if (rank == 1) return slotted(make<IndexStoreSlots<T, 1>>());
      if (rank == 2) return slotted(make<IndexStoreSlots<T, 2>>());
      if (rank == 3) return slotted(make<IndexStoreSlots<T, 3>>());
    }
    if (fused_base(base)) {
      if (rank == 1) return fused(make<IndexStore<T, 1>>());
    }
    return generic_store(make<IndexStoreAny<T, false>>());
  });
}

const StmtNode* Compiler::for_store(const tir::Stmt& loop) {
  if (record_races || loop.body->tail || loop.body->stmts.size() != 1) return nullptr;
  const tir::Stmt& s = *loop.body->stmts[0];
  if (s.kind != tir::StmtKind::Assign || s.compound || s.target->kind != ExprKind::Index)
    return nullptr;
  const tir::Expr& target = *s.target;
  const tir::Expr& base = *target.args[0];
  const int rank = static_cast<int>(target.args.size()) - 1;
  if (!fused_base(base) || !all_scalar_vars(target.args, 1) || rank < 1 || rank > 3) return nullptr;
  for (int k = 0; k < rank; ++k)
    if ((target.args[k + 1]->slot == loop.slot) != (k == rank - 1)) return nullptr;
  if (may_change_locals(*s.value)) return nullptr;
  return with_scalar(target.type.scalar, [&](auto tag) -> const StmtNode* {
    using T = decltype(tag);
    return with_scalar(loop.start->type.scalar, [&](auto itag) -> const StmtNode* {
      using I = decltype(itag);
      if constexpr (kIsInt<I>) {
        auto* n = make<ForStore<T, I>>();
        n->slot = loop.slot;
        n->start = scalar<I>(*loop.start);
        n->end = scalar<I>(*loop.end);
        n->inclusive = loop.inclusive;
        n->loop_span = loop.span;
        n->rank = rank;
        return fill_slot_store<T>(*this, n, s);
      } else {
        return nullptr;
      }
    });
  });
}

const StmtNode* Compiler::var_compound(const tir::Stmt& s) {
  return with_scalar(s.target->type.scalar, [&](auto tag) -> const StmtNode* {
    using T = decltype(tag);
    auto* n = make<VarCompound<T>>();
    n->slot = s.target->slot;
    n->value = value(*s.value);
    n->fn = compound_fn<T>(s.op);
    n->info = compound_info(s);
    return n;
  });
}

}  // namespace vx::interp
