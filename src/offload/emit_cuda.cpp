// The CUDA C++ emitter (emit_cuda.hpp). How a region maps onto the GPU:
//
// * Block loops (at most three, each directly in the one before) map to blockIdx.x/y/z, the
//   innermost to x; the grid's extents are their pass counts, which the launcher computes on the
//   host (their bounds read only captured scalars).
// * The block's code (in the innermost block loop, outside lane loops) is a list of steps that
//   all threads of the block walk together; each step ends with __syncthreads():
//     - a run of plain statements executes in thread 0 alone (`vx_leader`); the block's scalar
//       locals live in __shared__ memory, so every lane sees them after the barrier;
//     - a lane loop nest runs on threadIdx (innermost lane loop on x), with a stride loop when the
//       range exceeds its lanes; the lane count is a literal, and __launch_bounds__ carries the
//       block size;
//     - lanes:: routines, copy_async and tile creation are cooperative over all threads;
//     - control flow that holds a lane loop (for/while/loop/if) is evaluated by every thread
//       (its condition reads only block-uniform values), with a barrier after the evaluation.
// * Integer semantics, casts, min/max and math come from the prelude (vx_prelude.cuh) and
//   vx_math.h; every index is checked, and an error (division by zero, out-of-bounds index, read
//   of an uninitialised tile element, bad shift) sets the kernel's error flag: the runner then
//   reruns the region on the interpreter, which reports the exact message.
#include "offload/emit_cuda.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "check/tir_walk.hpp"
#include "support/half.hpp"

namespace vx::offload {
namespace {

using tir::BinOp;
using tir::BuiltinId;
using tir::Expr;
using tir::ExprKind;
using tir::Stmt;
using tir::stmt_has;
using tir::StmtKind;
using tir::walk_block;
using tir::walk_expr;
using tir::walk_stmt;

struct Unsupported {
  std::string reason;
};
[[noreturn]] void unsupported(std::string why) { throw Unsupported{std::move(why)}; }

const char* ctype(Scalar s) {
  switch (s) {
    case Scalar::I8:
      return "signed char";
    case Scalar::I16:
      return "short";
    case Scalar::I32:
      return "int";
    case Scalar::I64:
      return "long long";
    case Scalar::U8:
      return "unsigned char";
    case Scalar::U16:
      return "unsigned short";
    case Scalar::U32:
      return "unsigned int";
    case Scalar::U64:
      return "unsigned long long";
    case Scalar::F32:
      return "float";
    case Scalar::F64:
      return "double";
    case Scalar::Bool:
      return "bool";
    case Scalar::F16:
      return "vx_f16";  // vx_prelude.cuh: the bits, with f32 arithmetic
    case Scalar::BF16:
      return "vx_bf16";
  }
  return "int";
}

std::string int_literal(Scalar s, int64_t v) {
  const char* t = ctype(s);
  if (!is_signed_int(s) && s != Scalar::Bool) {
    return "((" + std::string(t) + ")" + std::to_string(static_cast<uint64_t>(v)) + "ull)";
  }
  if (v == INT64_MIN) return "((long long)(-9223372036854775807LL - 1))";
  return "((" + std::string(t) + ")(" + std::to_string(v) + "LL))";
}

bool is_half(Scalar s) { return s == Scalar::F16 || s == Scalar::BF16; }

std::string float_literal(Scalar s, double d) {
  if (is_half(s)) {  // the interpreter's literal: the double rounded once (support/half.hpp)
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%04x",
                  s == Scalar::F16 ? f64_to_f16_bits(d) : f64_to_bf16_bits(d));
    return std::string("(") + ctype(s) + "{" + buf + "})";
  }
  if (d != d) return s == Scalar::F32 ? "VX_NAN_F" : "VX_NAN_D";
  if (d == 1.0 / 0.0) return s == Scalar::F32 ? "VX_INF_F" : "VX_INF_D";
  if (d == -1.0 / 0.0) return s == Scalar::F32 ? "(-VX_INF_F)" : "(-VX_INF_D)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  std::string r = std::string("(") + buf + (s == Scalar::F32 ? "f)" : ")");
  return r;
}

// `a op b` for the arithmetic, bit and shift operators on `s` (the interpreter's meaning:
// integers wrap, division and shifts check their operands); `amount` is the shift amount's type.
// Binary expressions and compound assignments both use it.
std::string arith(BinOp op, Scalar s, Scalar amount, const std::string& a, const std::string& b) {
  const bool fl = is_float(s);
  const std::string T = ctype(s);
  switch (op) {
    case BinOp::Add:
      return fl ? "(" + a + " + " + b + ")" : "vx_add(" + a + ", " + b + ")";
    case BinOp::Sub:
      return fl ? "(" + a + " - " + b + ")" : "vx_sub(" + a + ", " + b + ")";
    case BinOp::Mul:
      return fl ? "(" + a + " * " + b + ")" : "vx_mul(" + a + ", " + b + ")";
    case BinOp::Div:
      return fl ? "(" + a + " / " + b + ")" : "vx_div(" + a + ", " + b + ", vx_err)";
    case BinOp::Rem:
      return fl ? "vx_frem(" + a + ", " + b + ")" : "vx_rem(" + a + ", " + b + ", vx_err)";
    case BinOp::BitAnd:
      return "((" + T + ")(" + a + " & " + b + "))";
    case BinOp::BitOr:
      return "((" + T + ")(" + a + " | " + b + "))";
    case BinOp::BitXor:
      return "((" + T + ")(" + a + " ^ " + b + "))";
    case BinOp::Shl:
    case BinOp::Shr: {
      const std::string amt = is_signed_int(amount) ? "(unsigned long long)(long long)(" + b + ")"
                                                    : "(unsigned long long)(" + b + ")";
      return std::string(op == BinOp::Shl ? "vx_shl(" : "vx_shr(") + a + ", " + amt + ", vx_err)";
    }
    default:
      unsupported("this operator");
  }
}

bool is_lanes_reduce(BuiltinId b) {
  return b == BuiltinId::LanesSum || b == BuiltinId::LanesMax || b == BuiltinId::LanesArgmax ||
         b == BuiltinId::LanesSumUnordered;
}
bool is_atomic(BuiltinId b) {
  switch (b) {
    case BuiltinId::AtomicLoad:
    case BuiltinId::AtomicStore:
    case BuiltinId::AtomicSwap:
    case BuiltinId::AtomicFetchAdd:
    case BuiltinId::AtomicFetchSub:
    case BuiltinId::AtomicFetchMax:
    case BuiltinId::AtomicFetchMin:
    case BuiltinId::AtomicCompareAndSwap:
      return true;
    default:
      return false;
  }
}

// The lanes of a lane loop: `lanes(n)`, else its constant count up to 1024, else 256.
int lane_count(const Stmt& s, int64_t const_count) {
  if (s.lane_count > 0) return s.lane_count;
  return const_count > 0 ? static_cast<int>(std::min<int64_t>(const_count, 1024)) : 256;
}
// The trip count of a loop with literal bounds, or -1.
int64_t constant_count(const Stmt& s) {
  if (s.start->kind != ExprKind::Literal || s.end->kind != ExprKind::Literal) return -1;
  const int64_t a = s.start->lit.i, b = s.end->lit.i;
  if (b < a || (!s.inclusive && b == a)) return 0;
  return (b - a) + (s.inclusive ? 1 : 0);
}
// The local a tensor operand names (through views and references), or -1.
int base_slot(const Expr* e) {
  while (e && (e->kind == ExprKind::View || e->kind == ExprKind::Ref)) e = e->args[0];
  return e && e->kind == ExprKind::Var ? e->slot : -1;
}

bool has_lane_loop(const Stmt* s) {
  return stmt_has(s, [](const Stmt* st, const Expr*) {
    return st && st->kind == StmtKind::For && st->across == tir::Across::Lanes;
  });
}
// `unsafe { e }` and `{ e }` with no statements: e.
const Expr* strip(const Expr* e) {
  while (e && e->kind == ExprKind::BlockExpr && e->block && e->block->stmts.empty() &&
         e->block->tail)
    e = e->block->tail;
  return e;
}

bool is_collective_stmt(const Stmt* s) {
  const Expr* v = strip(s->value);
  if (!v) return false;
  if (s->kind == StmtKind::Let) {
    if (v->kind == ExprKind::TensorNew) return true;
    if (v->kind == ExprKind::Builtin &&
        (is_lanes_reduce(v->builtin) || v->builtin == BuiltinId::CopyAsync))
      return true;
  }
  if (s->kind == StmtKind::Expr && v->kind == ExprKind::Builtin &&
      (v->builtin == BuiltinId::LanesSort || v->builtin == BuiltinId::CopyAsync ||
       v->builtin == BuiltinId::Wait))
    return true;
  return false;
}
bool has_collective(const Stmt* s) {
  return stmt_has(s, [](const Stmt* st, const Expr* e) {
    if (st) return is_collective_stmt(st);
    return e->kind == ExprKind::Builtin &&
           (is_lanes_reduce(e->builtin) || e->builtin == BuiltinId::LanesSort ||
            e->builtin == BuiltinId::CopyAsync || e->builtin == BuiltinId::Wait);
  });
}
// A break/continue in `s` that leaves `s` (not caught by a loop inside it).
bool escapes(const Stmt* s) {
  std::function<bool(const tir::Block*)> blk;
  std::function<bool(const Stmt*)> st;
  std::function<bool(const Expr*)> ex = [&](const Expr* e) -> bool {
    if (!e) return false;
    for (auto* a : e->args)
      if (ex(a)) return true;
    return blk(e->block) || blk(e->else_block);
  };
  blk = [&](const tir::Block* b) -> bool {
    if (!b) return false;
    for (auto* x : b->stmts)
      if (st(x)) return true;
    return ex(b->tail);
  };
  st = [&](const Stmt* x) -> bool {
    switch (x->kind) {
      case StmtKind::Break:
      case StmtKind::Continue:
        return true;
      case StmtKind::While:
      case StmtKind::Loop:
      case StmtKind::For:
        return ex(x->value) || ex(x->start) || ex(x->end);
      default:
        return ex(x->target) || ex(x->value) || blk(x->body);
    }
  };
  return st(s);
}
bool expr_impure(const Expr* e) {
  bool found = false;
  walk_expr(e, [&](const Stmt* st, const Expr* x) {
    if (st) {
      if (st->kind == StmtKind::Assign && st->target && st->target->kind == ExprKind::Index)
        found = true;
      return;
    }
    if (x->kind == ExprKind::Builtin &&
        (is_atomic(x->builtin) || x->builtin == BuiltinId::ScopedFence ||
         is_lanes_reduce(x->builtin) || x->builtin == BuiltinId::LanesSort ||
         x->builtin == BuiltinId::CopyAsync))
      found = true;
    if (x->kind == ExprKind::Print || x->kind == ExprKind::Assert) found = true;
  });
  return found;
}

// ---- the emitter --------------------------------------------------------------------------------

struct TRef {
  std::string ptr;
  std::vector<std::string> dims;
  std::vector<int64_t> sdims;  // static dims (-1 unknown)
  std::string init;            // init-flag pointer, or "" when every element is initialised
  Scalar elem = Scalar::F32;
  Memory mem = Memory::Hbm;
  std::string size() const {
    std::string r;
    for (auto& d : dims) r += (r.empty() ? "" : " * ") + ("(" + d + ")");
    return r.empty() ? "1LL" : "(" + r + ")";
  }
  int64_t static_size() const {
    int64_t n = 1;
    for (auto d : sdims) {
      if (d < 0) return -1;
      n *= d;
    }
    return n;
  }
};

class RegionEmitter {
 public:
  RegionEmitter(const tir::Program& p, int fn, const Stmt& spawn, EmittedRegion& out,
                std::map<int, std::string>& device_fns)
      : prog_(p),
        fn_(p.functions[static_cast<size_t>(fn)]),
        spawn_(spawn),
        out_(out),
        device_fns_(device_fns) {}

  void run();

 private:
  enum class Store { Param, Reg, Shared, Tile, RegTile };
  struct SlotInfo {
    Store store = Store::Reg;
    bool uninit = false;  // a tile made with uninit(): has init flags
  };
  // How the threads of a one-level lane loop with a constant count and a literal start take its
  // passes: thread t runs v = lo + t + k * lanes for k = 0, 1, … (k is `counter`, a constant after
  // unrolling; "0" for a single pass).
  struct LanePass {
    std::string counter;
    int64_t lo = 0, lanes = 0, count = 0;
    bool single = false;
  };

  const tir::Program& prog_;
  const tir::Function& fn_;
  const Stmt& spawn_;
  EmittedRegion& out_;
  std::map<int, std::string>& device_fns_;
  const tir::Function* cur_fn_ = nullptr;  // the function whose slots names refer to
  std::map<int, SlotInfo> slots_;
  std::set<int> declared_;  // slots declared inside the region
  std::ostringstream decls_;
  // Reduction scratch: one element per thread (VX_P2 of them), per element type, and one int per
  // thread for argmax; `true` when a reduction needs it whatever the block size, `false` when
  // only blocks of fewer than 32 threads do (reduce_constant's warp path needs none).
  std::map<Scalar, bool> red_scratch_;
  std::optional<bool> red_index_scratch_;
  void need_scratch(Scalar elem, bool argmax, bool always) {
    auto [it, fresh] = red_scratch_.emplace(elem, always);
    if (!fresh) it->second = it->second || always;
    if (argmax) red_index_scratch_ = red_index_scratch_.value_or(false) || always;
  }
  // The block's shared arrays (tiles, their init flags, reduction scratch): static `__shared__`
  // arrays while they fit the 48 KiB a kernel may declare statically, else one dynamic buffer
  // (shared_arrays()).
  struct SharedArray {
    std::string type, name;
    int64_t count = 0, elem_bytes = 0;
  };
  std::vector<SharedArray> shared_arrays_;
  void shared_array(const std::string& type, const std::string& name, int64_t count,
                    int64_t elem_bytes) {
    shared_arrays_.push_back({type, name, count, elem_bytes});
  }
  std::string shared_arrays();
  int tmp_ = 0;
  int block_dims_used_ = 0;
  int lane_level_ = -1;  // lane-nest level while emitting a lane loop body (-1: block code)
  int nest_depth_ = 0;   // depth of the current lane nest
  bool leader_ctx_ = false;
  // Loop variables whose range is a constant [first, second] (inclusive): an index that provably
  // stays inside a constant dimension needs no check (the check could never fail).
  std::map<int, std::pair<int64_t, int64_t>> ranges_;
  // uninit() tiles that the first lane loop touching them writes whole before anything reads
  // them: they need no written-flags (see dense_tiles()).
  std::set<int> dense_tiles_;
  // SMEM tiles kept in registers (see register_tiles()): slot -> the lane stride that owns them.
  std::map<int, int64_t> reg_tiles_;
  std::map<int, LanePass> passes_;  // lane-loop variables being emitted -> how threads take passes
  std::set<int> read_only_;         // tensor parameters the region only reads
  bool barrier_pending_ = false;    // a lane loop's barrier left out (see barrier_free())

  std::string tmp(const char* base) { return std::string(base) + std::to_string(tmp_++); }
  Scalar slot_scalar(int slot) const {
    return cur_fn_->slot_types[static_cast<size_t>(slot)].scalar;
  }
  const Type& slot_type(int slot) const { return cur_fn_->slot_types[static_cast<size_t>(slot)]; }

  std::string name(int slot) {
    auto it = slots_.find(slot);
    if (it != slots_.end() && it->second.store == Store::Shared)
      return "s_v" + std::to_string(slot);
    if (it != slots_.end() && it->second.store == Store::Tile) return "s_t" + std::to_string(slot);
    return "v" + std::to_string(slot);
  }

  // ---- tensors ----
  TRef tensor_ref(const Expr& e, std::string& pre) {
    if (e.kind == ExprKind::Ref) return tensor_ref(*e.args[0], pre);
    if (e.kind == ExprKind::Var) {
      const Type& t = slot_type(e.slot);
      if (!t.is_tensor_like()) unsupported("a tensor operand that is not a tensor");
      TRef r;
      r.elem = t.scalar;
      r.mem = t.memory;
      auto it = slots_.find(e.slot);
      if (t.kind == TypeKind::Ref && (it == slots_.end() || it->second.store != Store::Param))
        unsupported("a local reference to a tensor in device code");
      if (t.memory == Memory::CpuDram) unsupported("a CPU_DRAM tensor in device code");
      if (it != slots_.end() && it->second.store == Store::RegTile)
        unsupported("a register tile used whole (an emitter bug)");
      if (it != slots_.end() && it->second.store == Store::Tile) {
        r.ptr = "s_t" + std::to_string(e.slot);
        if (it->second.uninit) r.init = "s_t" + std::to_string(e.slot) + "_init";
        for (auto d : t.dims) {
          r.dims.push_back(std::to_string(d) + "LL");
          r.sdims.push_back(d);
        }
        return r;
      }
      if (it != slots_.end() && it->second.store == Store::Param) {
        r.ptr = "t" + std::to_string(e.slot);
        for (size_t k = 0; k < t.dims.size(); ++k) {
          if (t.dims[k] == kUnknownDim) {
            r.dims.push_back("t" + std::to_string(e.slot) + "_d" + std::to_string(k));
          } else {
            r.dims.push_back(std::to_string(t.dims[k]) + "LL");
          }
          r.sdims.push_back(t.dims[k]);
        }
        return r;
      }
      unsupported("a tensor local of device code that is not an SMEM tile");
    }
    if (e.kind == ExprKind::View) {
      TRef base = tensor_ref(*e.args[0], pre);
      const size_t n = e.args.size() - 1;
      if (n > base.dims.size()) unsupported("a view with more indices than the rank");
      std::string off = offset(base, e, 1, pre);
      TRef r;
      r.elem = base.elem;
      r.mem = base.mem;
      r.dims.assign(base.dims.begin() + static_cast<long>(n), base.dims.end());
      r.sdims.assign(base.sdims.begin() + static_cast<long>(n), base.sdims.end());
      const std::string o = tmp("vo");
      pre += "const long long " + o + " = (" + off + ") * " + r.size() + ";\n";
      r.ptr = "(" + base.ptr + " + " + o + ")";
      if (!base.init.empty()) r.init = "(" + base.init + " + " + o + ")";
      return r;
    }
    unsupported("a tensor expression of this kind in device code");
  }

  std::string as_index(const Expr& e, std::string& pre) {
    std::string v = expr(e, pre);
    if (is_signed_int(e.type.scalar)) return "(long long)(" + v + ")";
    return "(long long)(unsigned long long)(" + v + ")";
  }

  // The values an integer expression can take, where that follows from literals and loop
  // variables of constant ranges through +, - and * without leaving the expression's type (so
  // that no wrapping happens); nullopt otherwise.
  std::optional<std::pair<int64_t, int64_t>> interval(const Expr& e) const {
    if (!e.type.is_scalar() || !is_int(e.type.scalar)) return std::nullopt;
    std::optional<std::pair<int64_t, int64_t>> r;
    switch (e.kind) {
      case ExprKind::Literal:
        if (!is_signed_int(e.type.scalar) && e.lit.i < 0) return std::nullopt;  // u64 above 2^63
        r = std::make_pair(e.lit.i, e.lit.i);
        break;
      case ExprKind::Var: {
        auto it = ranges_.find(e.slot);
        if (it == ranges_.end()) return std::nullopt;
        r = it->second;
        break;
      }
      case ExprKind::Cast:
        r = interval(*e.args[0]);
        break;
      case ExprKind::Binary: {
        auto a = interval(*e.args[0]), b = interval(*e.args[1]);
        if (!a || !b) return std::nullopt;
        const int64_t lim = int64_t{1} << 40;  // keeps every product and sum exact in 64 bits
        for (int64_t v : {a->first, a->second, b->first, b->second})
          if (v > lim || v < -lim) return std::nullopt;
        if (e.bop == BinOp::Add)
          r = std::make_pair(a->first + b->first, a->second + b->second);
        else if (e.bop == BinOp::Sub)
          r = std::make_pair(a->first - b->second, a->second - b->first);
        else if (e.bop == BinOp::Mul) {
          const int64_t c[4] = {a->first * b->first, a->first * b->second, a->second * b->first,
                                a->second * b->second};
          r = std::make_pair(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
        } else {
          return std::nullopt;
        }
        break;
      }
      default:
        return std::nullopt;
    }
    const ScalarInfo& si = scalar_info(e.type.scalar);
    const bool sg = is_signed_int(e.type.scalar);
    const int64_t lo = sg ? (si.bits >= 64 ? INT64_MIN : -(int64_t{1} << (si.bits - 1))) : 0;
    const int64_t hi = si.bits >= 63
                           ? INT64_MAX
                           : (sg ? (int64_t{1} << (si.bits - 1)) - 1 : (int64_t{1} << si.bits) - 1);
    if (r->first < lo || r->second > hi) return std::nullopt;
    return r;
  }

  // Horner's rule over the indices e.args[first…], each checked against its dimension, unless
  // interval() proves it inside a constant one.
  std::string offset(const TRef& t, const Expr& e, size_t first, std::string& pre) {
    std::string off;
    for (size_t k = first; k < e.args.size(); ++k) {
      const size_t d = k - first;
      const auto iv = interval(*e.args[k]);
      const bool safe =
          iv && d < t.sdims.size() && t.sdims[d] > 0 && iv->first >= 0 && iv->second < t.sdims[d];
      std::string ix = safe ? as_index(*e.args[k], pre)
                            : "vx_ix(" + as_index(*e.args[k], pre) + ", " + t.dims[d] + ", vx_err)";
      off = off.empty() ? ix : "(" + off + ") * " + t.dims[d] + " + " + ix;
    }
    return off.empty() ? "0LL" : off;
  }

  // ---- expressions ----
  std::string expr(const Expr& e, std::string& pre);
  std::string binary(const Expr& e, std::string& pre);
  std::string cast(const Expr& e, std::string& pre);
  std::string builtin(const Expr& e, std::string& pre);
  std::string atomic(const Expr& e, std::string& pre);
  std::string call(const Expr& e, std::string& pre);
  std::string block_value(const tir::Block* b, const Type& type, std::string& pre);

  // ---- statements ----
  // The block's statements, and its tail expression discarded when `tail` (callers that use the
  // tail's value emit it themselves: it must run once).
  void stmts(const tir::Block* b, std::string& out, bool step_level, bool tail = true);
  void stmt(const Stmt& s, std::string& out, bool step_level);
  void seq_for(const Stmt& s, std::string& out, const std::function<void(std::string&)>& body);
  void assign(const Stmt& s, std::string& out);

  // block code
  void steps(const tir::Block* b, std::string& out);
  void step(const Stmt& s, std::string& out);
  void lane_nest(const Stmt& s, std::string& out);
  void lane_loop(const Stmt& s, int level, std::string& out);
  int lane_depth(const Stmt& s);
  void reduce(const Stmt& s, std::string& out);
  void reduce_constant(const Stmt& s, const TRef& t, int64_t n, std::string& out);
  void reduce_general(const Stmt& s, const TRef& t, const std::string& n, std::string& out);
  std::string combine(BuiltinId b, Scalar elem, const std::string& a, const std::string& ai,
                      const std::string& x, const std::string& xi) const;
  std::string reduce_source(const TRef& t, const std::string& i) const;
  void sort(const Expr& e, std::string& out);
  void copy_async(const Expr& e, std::string& out);
  void make_tile(const Stmt& s, std::string& out);
  void dense_tiles(const tir::Block* b);
  void register_tiles(const tir::Block* b);
  static std::optional<LanePass> pass_shape(const Stmt& s);
  std::optional<int64_t> owned_offset(const Expr& index, int var) const;
  std::optional<std::string> reg_tile_elem(const Expr& e);
  bool barrier_free(const Stmt& s);
  void find_read_only();
  // A `let` of block code that every thread can compute alike, into a register: a scalar never
  // assigned again in the region, whose value has no effects and calls nothing. All threads see
  // the same inputs (parameters, block variables, shared values behind the last barrier, memory
  // no other pass writes), so all get the same value, and the leader's store to shared memory and
  // the barrier after it are saved.
  bool redundant_let(const Stmt& s) {
    if (s.kind != StmtKind::Let || !s.value || !slot_type(s.slot).is_scalar() ||
        assigned_.count(s.slot))
      return false;
    if (strip(s.value)->kind == ExprKind::TensorNew || expr_impure(s.value)) return false;
    bool plain = true;
    walk_expr(s.value, [&](const Stmt* st, const Expr* x) {
      if (st || x->kind == ExprKind::Call || x->block || x->else_block) plain = false;
    });
    return plain;
  }
  std::set<int> assigned_;  // slots assigned somewhere in the region

  void device_function(int index);
  void collect_captures();
};

// ---- expressions --------------------------------------------------------------------------------

std::string RegionEmitter::expr(const Expr& e, std::string& pre) {
  switch (e.kind) {
    case ExprKind::Literal:
      if (e.type.scalar == Scalar::Bool) return e.lit.i ? "true" : "false";
      if (is_float(e.type.scalar)) {
        ctype(e.type.scalar);
        return float_literal(e.type.scalar, e.lit.f);
      }
      return int_literal(e.type.scalar, e.lit.i);
    case ExprKind::Unit:
      return "0";
    case ExprKind::Var:
      if (e.type.kind == TypeKind::Token) return "0";
      if (!e.type.is_scalar()) unsupported("a tensor value where device code needs a scalar");
      ctype(e.type.scalar);
      return name(e.slot);
    case ExprKind::Unary: {
      std::string a = expr(*e.args[0], pre);
      if (e.uop == tir::UnOp::Neg)
        return is_float(e.type.scalar) ? "(-" + a + ")" : "vx_neg(" + a + ")";
      return e.type.scalar == Scalar::Bool ? "(!" + a + ")" : "vx_bnot(" + a + ")";
    }
    case ExprKind::Binary:
      return binary(e, pre);
    case ExprKind::Cast:
      return cast(e, pre);
    case ExprKind::Index: {
      if (auto r = reg_tile_elem(e)) return *r;
      TRef t = tensor_ref(*e.args[0], pre);
      if (e.args.size() - 1 != t.dims.size()) unsupported("an index of a partial rank");
      std::string off = offset(t, e, 1, pre);
      if (!t.init.empty()) return "vx_ld_init(" + t.ptr + ", " + t.init + ", " + off + ", vx_err)";
      return t.ptr + "[" + off + "]";
    }
    case ExprKind::Call:
      return call(e, pre);
    case ExprKind::Builtin:
      return builtin(e, pre);
    case ExprKind::If: {
      std::string c = expr(*e.args[0], pre);
      if (e.type.is_unit()) {
        std::string body;
        stmts(e.block, body, false, false);
        if (e.block->tail) {  // after the block's statements: its prelude too
          std::string p2;
          const std::string v = expr(*e.block->tail, p2);
          body += p2 + "(void)(" + v + ");\n";
        }
        pre += "if (" + c + ") {\n" + body + "}";
        if (e.else_block) {
          std::string eb;
          stmts(e.else_block, eb, false, false);
          if (e.else_block->tail) {
            std::string p2;
            std::string v = expr(*e.else_block->tail, p2);
            eb += p2 + "(void)(" + v + ");\n";
          }
          pre += " else {\n" + eb + "}";
        }
        pre += "\n";
        return "0";
      }
      const std::string t = tmp("vi");
      pre += std::string(ctype(e.type.scalar)) + " " + t + ";\n";
      std::string then_pre, else_pre;
      std::string tv = block_value(e.block, e.type, then_pre);
      std::string ev = e.else_block ? block_value(e.else_block, e.type, else_pre) : "0";
      pre += "if (" + c + ") {\n" + then_pre + t + " = " + tv + ";\n} else {\n" + else_pre + t +
             " = " + ev + ";\n}\n";
      return t;
    }
    case ExprKind::BlockExpr:
      return block_value(e.block, e.type, pre);
    case ExprKind::String:
      unsupported("a string in device code");
    case ExprKind::Print:
      unsupported("println!/print! in device code");
    case ExprKind::Assert:
      unsupported("assert! in device code");
    default:
      unsupported("this expression kind in device code");
  }
}

std::string RegionEmitter::block_value(const tir::Block* b, const Type& type, std::string& pre) {
  std::string body;
  stmts(b, body, false, false);
  if (!b->tail) {
    pre += "{\n" + body + "}\n";
    return "0";
  }
  if (body.empty()) return expr(*b->tail, pre);
  const std::string t = tmp("vb");
  std::string p2;
  std::string v = expr(*b->tail, p2);
  if (type.is_unit()) {
    pre += "{\n" + body + p2 + "(void)(" + v + ");\n}\n";
    return "0";
  }
  pre +=
      std::string(ctype(type.scalar)) + " " + t + ";\n{\n" + body + p2 + t + " = " + v + ";\n}\n";
  return t;
}

std::string RegionEmitter::binary(const Expr& e, std::string& pre) {
  const Scalar s = e.args[0]->type.scalar;
  if (e.bop == BinOp::And || e.bop == BinOp::Or) {
    std::string a = expr(*e.args[0], pre);
    std::string rp;
    std::string b = expr(*e.args[1], rp);
    const char* op = e.bop == BinOp::And ? "&&" : "||";
    if (rp.empty()) return "(" + a + " " + op + " " + b + ")";
    const std::string t = tmp("vl");
    pre += "bool " + t + " = " + a + ";\n";
    pre += std::string("if (") + (e.bop == BinOp::And ? "" : "!") + t + ") {\n" + rp + t + " = " +
           b + ";\n}\n";
    return t;
  }
  std::string a = expr(*e.args[0], pre);
  std::string b = expr(*e.args[1], pre);
  switch (e.bop) {
    case BinOp::Eq:
      return "(" + a + " == " + b + ")";
    case BinOp::Ne:
      return "(" + a + " != " + b + ")";
    case BinOp::Lt:
      return "(" + a + " < " + b + ")";
    case BinOp::Le:
      return "(" + a + " <= " + b + ")";
    case BinOp::Gt:
      return "(" + a + " > " + b + ")";
    case BinOp::Ge:
      return "(" + a + " >= " + b + ")";
    default:
      return arith(e.bop, s, e.args[1]->type.scalar, a, b);
  }
}

std::string RegionEmitter::cast(const Expr& e, std::string& pre) {
  const Scalar from = e.args[0]->type.scalar, to = e.type.scalar;
  std::string a = expr(*e.args[0], pre);
  const std::string T = ctype(to);
  ctype(from);
  if (from == to) return a;
  if (is_half(to)) {  // one rounding from any type (vx_half.h); a half goes through its f32 value
    const std::string h = to == Scalar::F16 ? "vx_f16" : "vx_bf16";
    if (from == Scalar::Bool) return h + "_of_int(" + a + " ? 1 : 0)";
    if (is_signed_int(from)) return h + "_of_int((long long)(" + a + "))";
    if (is_int(from)) return h + "_of_uint((unsigned long long)(" + a + "))";
    return (to == Scalar::F16 ? "vx_to_f16(" : "vx_to_bf16(") +
           (is_half(from) ? "vx_widen(" + a + ")" : a) + ")";
  }
  if (is_half(from)) a = "vx_widen(" + a + ")";  // exact, then as from f32
  if (from == Scalar::Bool) return "((" + T + ")(" + a + " ? 1 : 0))";
  if (is_int(from)) return "((" + T + ")(" + a + "))";  // modular, or int -> float (nearest)
  // from a float
  if (is_int(to)) return std::string("vx_sat_") + scalar_info(to).name + "((double)(" + a + "))";
  return "((" + T + ")(" + a + "))";
}

std::string RegionEmitter::call(const Expr& e, std::string& pre) {
  device_function(e.fn_index);
  const tir::Function& f = prog_.functions[static_cast<size_t>(e.fn_index)];
  std::string r = "vx_fn_" + std::to_string(e.fn_index) + "(";
  for (size_t i = 0; i < e.args.size(); ++i) {
    const Expr& a = *e.args[i];
    if (!a.type.is_tensor_like()) {
      r += expr(a, pre) + ", ";
      continue;
    }
    const Type& pt = f.slot_types[static_cast<size_t>(f.param_slots[i])];
    TRef t = tensor_ref(a, pre);
    if (!t.init.empty()) unsupported("a call that passes a tile made with uninit()");
    r += t.ptr + ", ";
    for (size_t k = 0; k < pt.dims.size() && k < t.dims.size(); ++k)
      if (pt.dims[k] == kUnknownDim) r += t.dims[k] + ", ";
  }
  return r + "vx_err)";
}

std::string RegionEmitter::builtin(const Expr& e, std::string& pre) {
  if (is_atomic(e.builtin)) return atomic(e, pre);
  const Scalar s = e.args.empty() ? Scalar::I32 : e.args[0]->type.scalar;
  auto a0 = [&] { return expr(*e.args[0], pre); };
  // A half's method: the f32 function of its value, rounded back (the interpreter's float_fn).
  auto narrow = [&](const std::string& f32_value) {
    return std::string(s == Scalar::F16 ? "vx_to_f16(" : "vx_to_bf16(") + f32_value + ")";
  };
  auto wide = [&](const Expr& x) { return "vx_widen(" + expr(x, pre) + ")"; };
  auto f = [&](const char* f32, const char* f64) -> std::string {
    if (s == Scalar::F32) return std::string(f32) + "(" + a0() + ")";
    if (s == Scalar::F64) return std::string(f64) + "(" + a0() + ")";
    if (is_half(s)) return narrow(std::string(f32) + "(" + wide(*e.args[0]) + ")");
    ctype(s);
    unsupported("a math method on a non-float");
  };
  switch (e.builtin) {
    case BuiltinId::Sqrt:
      return f("vx_sqrt_f32", "vx_sqrt_f64");
    case BuiltinId::Exp:
      return f("vx_exp_f32", "vx_exp_f64");
    case BuiltinId::Exp2:
      return f("vx_exp2_f32", "vx_exp2_f64");
    case BuiltinId::Log:
      return f("vx_log_f32", "vx_log_f64");
    case BuiltinId::Log2:
      return f("vx_log2_f32", "vx_log2_f64");
    case BuiltinId::Tanh:
      return f("vx_tanh_f32", "vx_tanh_f64");
    case BuiltinId::Sin:
      return f("vx_sin_f32", "vx_sin_f64");
    case BuiltinId::Cos:
      return f("vx_cos_f32", "vx_cos_f64");
    // vx_fast_*_k: the instruction, or under VX_CHECK_FAST (verify) the instruction checked
    // against its bound and the exact value passed on (vx_prelude.cuh).
    case BuiltinId::FastExp:
      if (s == Scalar::F32) return "vx_fast_exp_k(" + a0() + ", vx_err)";
      return f("vx_fast_exp_f32", "vx_exp_f64");
    case BuiltinId::FastTanh:
      if (s == Scalar::F32) return "vx_fast_tanh_k(" + a0() + ", vx_err)";
      return f("vx_fast_tanh_f32", "vx_tanh_f64");
    case BuiltinId::Floor:
      return f("vx_floor_f32", "vx_floor_f64");
    case BuiltinId::Ceil:
      return f("vx_ceil_f32", "vx_ceil_f64");
    case BuiltinId::Round:
      return f("vx_round_f32", "vx_round_f64");
    case BuiltinId::Trunc:
      return f("vx_trunc_f32", "vx_trunc_f64");
    case BuiltinId::Abs:
      ctype(s);
      return "vx_abs(" + a0() + ")";
    case BuiltinId::Min: {
      ctype(s);
      std::string a = a0();
      return "vx_minm(" + a + ", " + expr(*e.args[1], pre) + ")";
    }
    case BuiltinId::Max: {
      ctype(s);
      std::string a = a0();
      return "vx_maxm(" + a + ", " + expr(*e.args[1], pre) + ")";
    }
    case BuiltinId::Pow: {
      std::string a = a0();
      std::string b = expr(*e.args[1], pre);
      if (s == Scalar::F32) return "vx_pow_f32(" + a + ", " + b + ")";
      if (s == Scalar::F64) return "vx_pow_f64(" + a + ", " + b + ")";
      if (is_half(s)) return narrow("vx_pow_f32(vx_widen(" + a + "), vx_widen(" + b + "))");
      ctype(s);
      return "vx_ipow(" + a + ", (unsigned int)(" + b + "))";
    }
    case BuiltinId::Len: {
      TRef t = tensor_ref(*e.args[0], pre);
      return t.dims.empty() ? "0" : "((int)(" + t.dims[0] + "))";
    }
    case BuiltinId::Dim: {
      TRef t = tensor_ref(*e.args[0], pre);
      if (e.args[1]->kind != ExprKind::Literal) unsupported("dim(k) with k not a literal");
      const int64_t k = e.args[1]->lit.i;
      if (k < 0 || k >= static_cast<int64_t>(t.dims.size())) unsupported("dim(k) out of the rank");
      return "((int)(" + t.dims[static_cast<size_t>(k)] + "))";
    }
    case BuiltinId::ScopedFence: {
      const int64_t scope =
          e.args.size() > 1 && e.args[1]->kind == ExprKind::Literal ? e.args[1]->lit.i : 1;
      pre += scope == 0   ? "__threadfence_block();\n"
             : scope == 1 ? "__threadfence();\n"
                          : "__threadfence_system();\n";
      return "0";
    }
    default:
      unsupported(std::string(tir::builtin_spelling(e.builtin)) +
                  " here (lanes:: routines and copy_async stand as the whole value of a `let` in "
                  "block code)");
  }
}

std::string RegionEmitter::atomic(const Expr& e, std::string& pre) {
  TRef t = tensor_ref(*e.args[0], pre);
  switch (t.elem) {
    case Scalar::I32:
    case Scalar::U32:
    case Scalar::I64:
    case Scalar::U64:
    case Scalar::F32:
      break;
    default:
      unsupported("an atomic on this element type");
  }
  if (!t.init.empty()) unsupported("an atomic on an uninit() tile");
  if (t.elem == Scalar::F32) out_.float_atomics = true;
  const std::string idx = "vx_ix(" + as_index(*e.args[1], pre) + ", " + t.size() + ", vx_err)";
  const int64_t ord = e.args.back()->kind == ExprKind::Literal ? e.args.back()->lit.i : 4;
  const bool before = ord == 2 || ord == 3 || ord == 4;  // Release, AcqRel, SeqCst
  const bool after = ord == 1 || ord == 3 || ord == 4;   // Acquire, AcqRel, SeqCst
  const char* fence = t.mem == Memory::Smem ? "__threadfence_block();\n" : "__threadfence();\n";
  std::vector<std::string> vals;
  for (size_t k = 2; k + 1 < e.args.size(); ++k) vals.push_back(expr(*e.args[k], pre));
  const std::string p = "(" + t.ptr + " + " + idx + ")";
  std::string call;
  switch (e.builtin) {
    case BuiltinId::AtomicLoad:
      call = "vx_at_load(" + p + ")";
      break;
    case BuiltinId::AtomicStore:
      call = "vx_at_store(" + p + ", " + vals.at(0) + ")";
      break;
    case BuiltinId::AtomicSwap:
      call = "vx_at_swap(" + p + ", " + vals.at(0) + ")";
      break;
    case BuiltinId::AtomicFetchAdd:
      call = "vx_at_add(" + p + ", " + vals.at(0) + ")";
      break;
    case BuiltinId::AtomicFetchSub:
      call = "vx_at_sub(" + p + ", " + vals.at(0) + ")";
      break;
    case BuiltinId::AtomicFetchMax:
      call = "vx_at_max(" + p + ", " + vals.at(0) + ")";
      break;
    case BuiltinId::AtomicFetchMin:
      call = "vx_at_min(" + p + ", " + vals.at(0) + ")";
      break;
    case BuiltinId::AtomicCompareAndSwap:
      call = "vx_at_cas(" + p + ", " + vals.at(0) + ", " + vals.at(1) + ")";
      break;
    default:
      unsupported("this atomic");
  }
  if (before) pre += fence;
  if (e.builtin == BuiltinId::AtomicStore) {
    pre += call + ";\n";
    if (after) pre += fence;
    return "0";
  }
  const std::string r = tmp("va");
  pre += std::string(ctype(t.elem)) + " " + r + " = " + call + ";\n";
  if (after) pre += fence;
  return r;
}

// ---- statements (one thread's code: lane loop bodies, the leader's block code, functions) -------

void RegionEmitter::stmts(const tir::Block* b, std::string& out, bool step_level, bool tail) {
  if (!b) return;
  for (auto* s : b->stmts) stmt(*s, out, step_level);
  if (tail && b->tail) {
    std::string pre;
    std::string v = expr(*b->tail, pre);
    out += pre + "(void)(" + v + ");\n";
  }
}

void RegionEmitter::assign(const Stmt& s, std::string& out) {
  std::string pre;
  const Expr& t = *s.target;
  auto combine = [&](const std::string& old, const std::string& v, Scalar sc) -> std::string {
    return s.compound ? arith(s.op, sc, s.value->type.scalar, old, v) : v;
  };
  if (t.kind == ExprKind::Var) {
    if (!t.type.is_scalar()) unsupported("assigning a tensor in device code");
    if (!declared_.count(t.slot) && cur_fn_ == &fn_)
      unsupported("assigning a variable from outside the region");
    std::string v = expr(*s.value, pre);
    out += pre + name(t.slot) + " = " + combine(name(t.slot), v, t.type.scalar) + ";\n";
    return;
  }
  if (t.kind != ExprKind::Index) unsupported("this assignment target");
  if (auto reg = reg_tile_elem(t)) {
    std::string v = expr(*s.value, pre);
    out += pre + *reg + " = " + combine(*reg, v, t.type.scalar) + ";\n";
    return;
  }
  TRef r = tensor_ref(*t.args[0], pre);
  if (t.args.size() - 1 != r.dims.size()) unsupported("a store with a partial rank");
  const std::string o = tmp("vs");
  std::string off = offset(r, t, 1, pre);
  pre += "const long long " + o + " = " + off + ";\n";
  std::string v = expr(*s.value, pre);
  std::string old = r.init.empty() ? r.ptr + "[" + o + "]"
                                   : "vx_ld_init(" + r.ptr + ", " + r.init + ", " + o + ", vx_err)";
  out += pre + r.ptr + "[" + o + "] = " + combine(old, v, t.type.scalar) + ";\n";
  if (!r.init.empty()) out += r.init + "[" + o + "] = 1;\n";
}

void RegionEmitter::seq_for(const Stmt& s, std::string& out,
                            const std::function<void(std::string&)>& body) {
  const Scalar sc = s.start->type.scalar;
  const std::string T = ctype(sc);
  std::string pre;
  const std::string lo = tmp("lo"), hi = tmp("hi"), go = tmp("go");
  std::string a = expr(*s.start, pre);
  std::string b = expr(*s.end, pre);
  const std::string v = name(s.slot);
  if (s.start->kind == ExprKind::Literal && s.end->kind == ExprKind::Literal) {
    const int64_t a0 = s.start->lit.i, b0 = s.end->lit.i - (s.inclusive ? 0 : 1);
    if (a0 <= b0) ranges_[s.slot] = {a0, b0};
  }
  out += "{\n" + pre + "const " + T + " " + lo + " = " + a + ";\nconst " + T + " " + hi + " = " +
         b + ";\nbool " + go + " = " + lo + (s.inclusive ? " <= " : " < ") + hi + ";\n";
  std::string inner;
  body(inner);
  const std::string next = "vx_add(" + v + ", (" + T + ")1)";
  out += "for (" + T + " " + v + " = " + lo + "; " + go + "; " + go + " = (" +
         (s.inclusive ? v + " != " + hi : next + " != " + hi) + "), " + v + " = " + next + ") {\n" +
         inner + "}\n}\n";
}

void RegionEmitter::stmt(const Stmt& s, std::string& out, bool step_level) {
  switch (s.kind) {
    case StmtKind::Let: {
      const Type& t = slot_type(s.slot);
      if (!t.is_scalar()) {
        unsupported("a `let` of a " + type_name(t) + " in this place of device code");
      }
      std::string pre;
      std::string v = s.value ? expr(*s.value, pre) : "0";
      if (step_level) {
        slots_[s.slot].store = Store::Shared;
        decls_ << "__shared__ " << ctype(t.scalar) << " s_v" << s.slot << ";\n";
        out += pre + "s_v" + std::to_string(s.slot) + " = " + v + ";\n";
      } else {
        slots_[s.slot].store = Store::Reg;
        out += pre + ctype(t.scalar) + " v" + std::to_string(s.slot) + " = " + v + ";\n";
      }
      return;
    }
    case StmtKind::Assign:
      assign(s, out);
      return;
    case StmtKind::Expr: {
      std::string pre;
      std::string v = expr(*s.value, pre);
      out += pre;
      if (v != "0") out += "(void)(" + v + ");\n";
      return;
    }
    case StmtKind::While: {
      std::string pre;
      std::string c = expr(*s.value, pre);
      std::string body;
      stmts(s.body, body, false);
      out += "while (true) {\n" + pre + "if (!(" + c + ")) break;\n" + body + "}\n";
      return;
    }
    case StmtKind::Loop: {
      std::string body;
      stmts(s.body, body, false);
      out += "while (true) {\n" + body + "}\n";
      return;
    }
    case StmtKind::For:
      if (s.across == tir::Across::Blocks) unsupported("a block loop inside block or lane code");
      if (s.across == tir::Across::Lanes) {
        if (lane_level_ < 0) unsupported("a lane loop in this place");
        lane_loop(s, lane_level_ + 1, out);
        return;
      }
      slots_[s.slot].store = Store::Reg;
      seq_for(s, out, [&](std::string& body) { stmts(s.body, body, false); });
      return;
    case StmtKind::Break:
      out += "break;\n";
      return;
    case StmtKind::Continue:
      out += "continue;\n";
      return;
    case StmtKind::Return: {
      if (cur_fn_ == &fn_) unsupported("`return` in a region");
      if (!s.value) {
        out += "return;\n";
        return;
      }
      std::string pre;
      std::string v = expr(*s.value, pre);
      out += pre + "return " + v + ";\n";
      return;
    }
    case StmtKind::Spawn:
      unsupported("a nested spawn");
  }
}

// ---- device functions ---------------------------------------------------------------------------

void RegionEmitter::device_function(int index) {
  const std::string key_name = "vx_fn_" + std::to_string(index);
  if (device_fns_.count(index)) return;
  device_fns_[index] = "";  // marks it in progress (recursion)
  const tir::Function& f = prog_.functions[static_cast<size_t>(index)];
  const tir::Function* saved_fn = cur_fn_;
  auto saved_slots = std::move(slots_);
  auto saved_ranges = std::move(ranges_);
  const int saved_level = lane_level_;
  slots_.clear();
  ranges_.clear();
  cur_fn_ = &f;
  lane_level_ = 1 << 20;  // lane loops cannot be in functions
  std::string sig;
  if (!(f.ret.is_unit() || f.ret.is_scalar()))
    unsupported("a call of `" + f.name + "`, which returns a tensor");
  sig = std::string("static __device__ ") + (f.ret.is_unit() ? "void" : ctype(f.ret.scalar)) + " " +
        key_name + "(";
  for (int p : f.param_slots) {
    const Type& t = f.slot_types[static_cast<size_t>(p)];
    if (t.is_tensor_like()) {  // a pointer, and the dimensions the type leaves open (`?`)
      if (t.scalar == Scalar::Bool)
        unsupported("a call of `" + f.name + "`, which takes a tensor of bool");
      slots_[p].store = Store::Param;
      sig += std::string(ctype(t.scalar)) + "* t" + std::to_string(p) + ", ";
      for (size_t k = 0; k < t.dims.size(); ++k)
        if (t.dims[k] == kUnknownDim)
          sig += "long long t" + std::to_string(p) + "_d" + std::to_string(k) + ", ";
      continue;
    }
    if (!t.is_scalar()) unsupported("a call of `" + f.name + "`, which takes a " + type_name(t));
    sig += std::string(ctype(t.scalar)) + " v" + std::to_string(p) + ", ";
  }
  sig += "int* vx_err)";
  std::string body;
  for (auto* st : f.body->stmts) stmt(*st, body, false);
  if (f.body->tail) {
    std::string pre;
    std::string v = expr(*f.body->tail, pre);
    body += pre + (f.ret.is_unit() ? "(void)(" + v + ");\n" : "return " + v + ";\n");
  } else if (!f.ret.is_unit()) {
    // Unreachable (the checker requires a return on every path); a zero of the return type,
    // which `0` is not for vx_f16/vx_bf16 (found by tools/smith, seed 2001227).
    body += "return vx_zero<" + std::string(ctype(f.ret.scalar)) + ">();\n";
  }
  device_fns_[index] = "#ifndef VX_FN_" + std::to_string(index) + "\n#define VX_FN_" +
                       std::to_string(index) + "\n" + sig + ";\n" + sig + " {\n" + body +
                       "}\n#endif\n";
  cur_fn_ = saved_fn;
  slots_ = std::move(saved_slots);
  ranges_ = std::move(saved_ranges);
  lane_level_ = saved_level;
}

// ---- block code ---------------------------------------------------------------------------------

// An uninit() tile needs written-flags only if a read could find an element not yet written.
// It needs none when the first statement after its `let` that mentions it is a lane loop over
// exactly its elements (a 1-D tile, the range 0..size) whose body, before any other statement
// that is not a plain `let`, stores `tile[v] = …` at the loop variable v: that loop writes every
// element before anything reads one (the same-expression rule keeps the loop's other accesses
// at tile[v], after the store).
void RegionEmitter::dense_tiles(const tir::Block* b) {
  for (size_t i = 0; i < b->stmts.size(); ++i) {
    const Stmt* let = b->stmts[i];
    if (let->kind != StmtKind::Let || !let->value ||
        strip(let->value)->kind != ExprKind::TensorNew || strip(let->value)->builtin_fill)
      continue;
    const Type& t = slot_type(let->slot);
    if (t.kind != TypeKind::Tensor || t.dims.size() != 1 || t.dims[0] <= 0) continue;
    const int slot = let->slot;
    auto mentions = [slot](const Stmt* st) {
      return stmt_has(st, [slot](const Stmt*, const Expr* e) {
        return e && e->kind == ExprKind::Var && e->slot == slot;
      });
    };
    auto is_var = [](const Expr* e, int v) {
      return e && e->kind == ExprKind::Var && e->slot == v;
    };
    for (size_t j = i + 1; j < b->stmts.size(); ++j) {
      const Stmt* st = b->stmts[j];
      if (!mentions(st)) continue;
      const bool whole =
          st->kind == StmtKind::For && st->across == tir::Across::Lanes &&
          st->start->kind == ExprKind::Literal && st->start->lit.i == 0 &&
          st->end->kind == ExprKind::Literal &&
          st->end->lit.i + (st->inclusive ? 1 : 0) == t.dims[0] &&
          std::none_of(st->body->stmts.begin(), st->body->stmts.end(), has_lane_loop);
      if (whole) {
        for (const Stmt* x : st->body->stmts) {
          if (x->kind == StmtKind::Let && !mentions(x)) continue;
          if (x->kind == StmtKind::Assign && !x->compound && x->target->kind == ExprKind::Index &&
              x->target->args.size() == 2 && is_var(x->target->args[0], slot) &&
              is_var(x->target->args[1], st->slot) &&
              !stmt_has(x, [slot, x](const Stmt*, const Expr* e) {
                return e && e != x->target->args[0] && e->kind == ExprKind::Var && e->slot == slot;
              }))
            dense_tiles_.insert(slot);
          break;
        }
      }
      break;
    }
  }
}

// How the threads take the passes of a one-level lane loop (see LanePass), for loops with a
// literal start and a constant count run in one pass or unrolled; nullopt otherwise.
std::optional<RegionEmitter::LanePass> RegionEmitter::pass_shape(const Stmt& s) {
  const int64_t count = constant_count(s);
  if (count <= 0 || s.start->kind != ExprKind::Literal ||
      block_has(s.body, [](const Stmt* x, const Expr*) {
        return x && x->kind == StmtKind::For && x->across == tir::Across::Lanes;
      }))
    return std::nullopt;
  const int64_t lanes = lane_count(s, count), trips = (count + lanes - 1) / lanes;
  if (lanes > 1024 || trips > 16) return std::nullopt;
  return LanePass{"", s.start->lit.i, lanes, count, trips == 1};
}

// c when `index` is the loop variable `var` plus the constant c (through + and - of integer
// literals and integer casts), nullopt otherwise.
std::optional<int64_t> RegionEmitter::owned_offset(const Expr& e, int var) const {
  switch (e.kind) {
    case ExprKind::Var:
      if (e.slot == var) return int64_t{0};
      return std::nullopt;
    case ExprKind::Cast:
      if (!e.type.is_scalar() || !is_int(e.type.scalar)) return std::nullopt;
      return owned_offset(*e.args[0], var);
    case ExprKind::Binary: {
      const Expr& a = *e.args[0];
      const Expr& b = *e.args[1];
      if (e.bop == BinOp::Add && b.kind == ExprKind::Literal)
        if (auto c = owned_offset(a, var)) return *c + b.lit.i;
      if (e.bop == BinOp::Add && a.kind == ExprKind::Literal)
        if (auto c = owned_offset(b, var)) return *c + a.lit.i;
      if (e.bop == BinOp::Sub && b.kind == ExprKind::Literal)
        if (auto c = owned_offset(a, var)) return *c - b.lit.i;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

// SMEM tiles kept in registers (seed 000: "kept in registers where each lane only reads what it
// wrote"). A 1-D tile made in this block, filled or written whole by its first lane loop (so it
// has no written-flags), qualifies when every mention of it is an element `tile[v + c]` inside a
// one-level lane loop over v with a literal start lo and a constant count taken in at most 16
// passes, where (lo + c) is a multiple of the loops' common stride L and the index provably stays
// inside the tile. Then element e is only ever touched by thread e mod L, as its register e / L:
// a pass k of such a loop touches lo + c + t + k * L on thread t. No barrier, reduction, sort,
// copy or block code sees the tile, so no other thread could look at a register's element.
void RegionEmitter::register_tiles(const tir::Block* b) {
  for (const Stmt* let : b->stmts) {
    if (let->kind != StmtKind::Let || !let->value || strip(let->value)->kind != ExprKind::TensorNew)
      continue;
    const Type& t = slot_type(let->slot);
    if (t.kind != TypeKind::Tensor || t.memory != Memory::Smem || t.dims.size() != 1 ||
        t.dims[0] <= 0 || (!strip(let->value)->builtin_fill && !dense_tiles_.count(let->slot)))
      continue;
    const int slot = let->slot;
    const int64_t n = t.dims[0];
    size_t mentions = 0;
    walk_block(b, [&](const Stmt*, const Expr* e) {
      mentions += e && e->kind == ExprKind::Var && e->slot == slot;
    });
    // The lane loops that touch the tile, with their accesses' offsets.
    std::vector<std::pair<LanePass, std::vector<int64_t>>> loops;
    size_t owned = 0;
    bool ok = true;
    walk_block(b, [&](const Stmt* st, const Expr*) {
      if (!ok || !st || st->kind != StmtKind::For || st->across != tir::Across::Lanes) return;
      if (!stmt_has(st, [&](const Stmt*, const Expr* e) {
            return e && e->kind == ExprKind::Var && e->slot == slot;
          }))
        return;
      auto shape = pass_shape(*st);
      if (!shape) {
        ok = false;
        return;
      }
      std::vector<int64_t> offs;
      const int var = st->slot;
      walk_block(st->body, [&](const Stmt*, const Expr* e) {
        if (!ok || !e || e->kind != ExprKind::Index || e->args.size() != 2 ||
            base_slot(e->args[0]) != slot || e->args[0]->kind != ExprKind::Var)
          return;
        auto c = owned_offset(*e->args[1], var);
        // every value of the index inside the tile, with no wrapping on the way (interval())
        auto saved = ranges_;
        ranges_[var] = {shape->lo, shape->lo + shape->count - 1};
        auto iv = interval(*e->args[1]);
        ranges_ = std::move(saved);
        if (!c || !iv || iv->first < 0 || iv->second >= n) {
          ok = false;
          return;
        }
        offs.push_back(*c);
        ++owned;
      });
      loops.push_back({*shape, std::move(offs)});
    });
    if (!ok || loops.empty() || owned != mentions) continue;
    // The common stride: that of the loops taking several passes, else the widest single pass.
    int64_t stride = 0;
    for (auto& [p, offs] : loops)
      if (!p.single) {
        if (stride && stride != p.lanes) ok = false;
        stride = p.lanes;
      }
    if (!stride)
      for (auto& [p, offs] : loops) stride = std::max(stride, p.count);
    for (auto& [p, offs] : loops) {
      if (p.single && p.count > stride) ok = false;  // thread t >= stride would share an owner
      for (int64_t c : offs)
        if ((p.lo + c) % stride != 0) ok = false;
    }
    if (ok && (n + stride - 1) / stride <= 64) reg_tiles_[slot] = stride;
  }
}

// The register that holds the element `e` (an Index) of a register tile, or nullopt when e's
// tensor is not one.
std::optional<std::string> RegionEmitter::reg_tile_elem(const Expr& e) {
  const int slot = e.args[0]->kind == ExprKind::Var ? e.args[0]->slot : -1;
  auto it = slots_.find(slot);
  if (it == slots_.end() || it->second.store != Store::RegTile) return std::nullopt;
  const int64_t stride = reg_tiles_.at(slot);
  for (auto& [var, pass] : passes_)
    if (auto c = owned_offset(*e.args[1], var)) {
      const int64_t reg = (pass.lo + *c) / stride;
      const std::string r = "r_t" + std::to_string(slot) + "[";
      return pass.counter == "0" ? r + std::to_string(reg) + "]"
                                 : r + pass.counter + " + " + std::to_string(reg) + "]";
    }
  unsupported("a register tile's element outside its lane loops (an emitter bug)");
}

// Tensor parameters the region only reads: each mention an element read `t[…]`.
void RegionEmitter::find_read_only() {
  std::set<const Expr*> targets;
  std::map<int, size_t> mentions, reads;
  walk_block(spawn_.body, [&](const Stmt* st, const Expr* e) {
    if (st && st->kind == StmtKind::Assign) targets.insert(st->target);
    if (e && e->kind == ExprKind::Var) ++mentions[e->slot];
    if (e && e->kind == ExprKind::Index && !targets.count(e) && e->args[0]->kind == ExprKind::Var)
      ++reads[e->args[0]->slot];
  });
  for (auto& [slot, n] : mentions) {
    auto it = slots_.find(slot);
    if (it != slots_.end() && it->second.store == Store::Param &&
        slot_type(slot).is_tensor_like() && reads[slot] == n)
      read_only_.insert(slot);
  }
}

// A lane loop needs no barrier after it when it touches no shared memory, writes nothing but
// registers (register tiles and its own locals), reads only tensors no pass of the region writes
// and shared values never assigned again, and calls nothing: then nothing before or after it can
// race with it. steps() still puts a barrier before any statement that is not a lane loop, and at
// the end of the block.
bool RegionEmitter::barrier_free(const Stmt& s) {
  return !stmt_has(&s, [&](const Stmt* st, const Expr* e) {
    if (st)
      return st->kind == StmtKind::Assign && st->target->kind == ExprKind::Index &&
             reg_tiles_.count(base_slot(st->target->args[0])) == 0;
    if (e->kind == ExprKind::Call) return true;
    if (e->kind == ExprKind::Builtin &&
        (is_atomic(e->builtin) || is_lanes_reduce(e->builtin) ||
         e->builtin == BuiltinId::ScopedFence || e->builtin == BuiltinId::LanesSort ||
         e->builtin == BuiltinId::CopyAsync || e->builtin == BuiltinId::Wait))
      return true;
    if (e->kind != ExprKind::Var) return false;
    auto it = slots_.find(e->slot);
    if (it == slots_.end()) return false;  // the loop's own locals
    switch (it->second.store) {
      case Store::Tile:
        return true;
      case Store::Shared:
        return assigned_.count(e->slot) > 0;
      case Store::Param:
        return slot_type(e->slot).is_tensor_like() && !read_only_.count(e->slot);
      default:
        return false;
    }
  });
}

void RegionEmitter::steps(const tir::Block* b, std::string& out) {
  dense_tiles(b);
  register_tiles(b);
  const bool outer_pending = barrier_pending_;
  barrier_pending_ = false;
  std::string group;
  // The barrier a barrier-free lane loop left out, before anything but another lane loop.
  auto settle = [&] {
    if (barrier_pending_) out += "__syncthreads();\n";
    barrier_pending_ = false;
  };
  auto flush = [&] {
    if (group.empty()) return;
    out += "if (vx_leader) {\n" + group + "}\n__syncthreads();\n";
    group.clear();
  };
  for (auto* s : b->stmts) {
    if (redundant_let(*s)) {  // every thread computes it: no shared slot, no barrier
      flush();
      stmt(*s, out, false);
      continue;
    }
    const bool uniform =
        has_lane_loop(s) || has_collective(s) || s->kind == StmtKind::Break ||
        s->kind == StmtKind::Continue ||
        (escapes(s) && s->kind != StmtKind::Break && s->kind != StmtKind::Continue);
    if (!uniform) {
      settle();
      leader_ctx_ = true;
      stmt(*s, group, true);
      leader_ctx_ = false;
      continue;
    }
    flush();
    if (!(s->kind == StmtKind::For && s->across == tir::Across::Lanes)) settle();
    step(*s, out);
  }
  if (b->tail) {
    settle();
    std::string pre;
    std::string v = expr(*b->tail, pre);
    group += pre + "(void)(" + v + ");\n";
  }
  flush();
  settle();
  barrier_pending_ = outer_pending;
}

void RegionEmitter::step(const Stmt& s, std::string& out) {
  switch (s.kind) {
    case StmtKind::Break:
      out += "break;\n";
      return;
    case StmtKind::Continue:
      out += "continue;\n";
      return;
    case StmtKind::For:
      if (s.across == tir::Across::Lanes) {
        lane_nest(s, out);
        if (barrier_free(s)) {
          barrier_pending_ = true;
        } else {
          out += "__syncthreads();\n";
          barrier_pending_ = false;
        }
        return;
      }
      if (s.across == tir::Across::Blocks) unsupported("a block loop inside block code");
      if (expr_impure(s.start) || expr_impure(s.end))
        unsupported("loop bounds with side effects in block code");
      slots_[s.slot].store = Store::Reg;
      seq_for(s, out, [&](std::string& body) {
        body += "__syncthreads();\n";
        steps(s.body, body);
      });
      return;
    case StmtKind::While: {
      if (expr_impure(s.value)) unsupported("a loop condition with side effects in block code");
      std::string pre;
      std::string c = expr(*s.value, pre);
      const std::string t = tmp("wc");
      std::string body;
      steps(s.body, body);
      out += "while (true) {\n" + pre + "const bool " + t + " = " + c +
             ";\n__syncthreads();\nif (!" + t + ") break;\n" + body + "}\n";
      return;
    }
    case StmtKind::Loop: {
      std::string body;
      steps(s.body, body);
      out += "while (true) {\n" + body + "}\n";
      return;
    }
    case StmtKind::Let:
      if (s.value && strip(s.value)->kind == ExprKind::TensorNew) return make_tile(s, out);
      if (s.value && s.value->kind == ExprKind::Builtin && is_lanes_reduce(s.value->builtin))
        return reduce(s, out);
      if (s.value && s.value->kind == ExprKind::Builtin &&
          s.value->builtin == BuiltinId::CopyAsync) {
        slots_[s.slot].store = Store::Reg;
        return copy_async(*s.value, out);
      }
      unsupported(
          "a `let` whose value holds a lane loop or a lanes:: routine inside an expression");
    case StmtKind::Expr: {
      const Expr& v = *s.value;
      if (v.kind == ExprKind::Builtin && v.builtin == BuiltinId::LanesSort) return sort(v, out);
      if (v.kind == ExprKind::Builtin && v.builtin == BuiltinId::CopyAsync)
        return copy_async(v, out);
      if (v.kind == ExprKind::Builtin && v.builtin == BuiltinId::Wait) {
        // cp.async copies of this thread done, then every thread's visible (spec/offload.md)
        out +=
            "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\nasm "
            "volatile(\"cp.async.wait_all;\" ::: "
            "\"memory\");\n__syncthreads();\n#endif\n";
        return;
      }
      if (v.kind == ExprKind::If && v.type.is_unit()) {
        if (expr_impure(v.args[0]))
          unsupported("an `if` condition with side effects around a lane loop");
        std::string pre;
        std::string c = expr(*v.args[0], pre);
        const std::string t = tmp("ic");
        std::string then_s, else_s;
        steps(v.block, then_s);
        if (v.else_block) steps(v.else_block, else_s);
        out += "{\n" + pre + "const bool " + t + " = " + c + ";\n__syncthreads();\nif (" + t +
               ") {\n" + then_s + "} else {\n" + else_s + "}\n}\n";
        return;
      }
      if (v.kind == ExprKind::BlockExpr) {
        std::string body;
        steps(v.block, body);
        out += "{\n" + body + "}\n";
        return;
      }
      unsupported("an expression holding a lane loop or a lanes:: routine in block code");
    }
    default:
      unsupported("this statement around a lane loop");
  }
}

int RegionEmitter::lane_depth(const Stmt& s) {
  int deepest = 0;
  std::function<void(const tir::Block*, int)> blk;
  std::function<void(const Expr*, int)> ex = [&](const Expr* e, int d) {
    if (!e) return;
    for (auto* a : e->args) ex(a, d);
    blk(e->block, d);
    blk(e->else_block, d);
  };
  blk = [&](const tir::Block* b, int d) {
    if (!b) return;
    for (auto* x : b->stmts) {
      int dd = d;
      if (x->kind == StmtKind::For && x->across == tir::Across::Lanes) dd = d + 1;
      deepest = std::max(deepest, dd);
      ex(x->value, dd);
      ex(x->target, dd);
      blk(x->body, dd);
    }
    ex(b->tail, d);
  };
  tir::Block one;
  one.stmts.push_back(const_cast<Stmt*>(&s));
  blk(&one, 0);
  return deepest;
}

void RegionEmitter::lane_nest(const Stmt& s, std::string& out) {
  const int depth = lane_depth(s);
  if (depth > 3) unsupported("more than three lane loops in each other");
  nest_depth_ = depth;
  std::string guard;
  for (int d = depth; d < 3; ++d) guard += std::string("VX_ZERO_") + "XYZ"[d] + " && ";
  guard += "true";
  std::string body;
  lane_loop(s, 0, body);
  out += "if (" + guard + ") {\n" + body + "}\n";
}

void RegionEmitter::lane_loop(const Stmt& s, int level, std::string& out) {
  if (level >= nest_depth_) unsupported("a lane loop nest deeper than planned");
  const int dim = nest_depth_ - 1 - level;
  const char* axis = dim == 0 ? "x" : dim == 1 ? "y" : "z";
  const Scalar sc = s.start->type.scalar;
  const std::string T = ctype(sc);
  const int64_t const_count = constant_count(s);
  const int lanes = lane_count(s, const_count);
  if (lanes > 1024) unsupported("more than 1024 lanes");
  out_.block[dim] = std::max(out_.block[dim], lanes);
  long long prod = 1;
  for (int b : out_.block) prod *= b;
  if (prod > 1024) unsupported("a block of more than 1024 lanes");
  if (expr_impure(s.start) || expr_impure(s.end)) unsupported("lane loop bounds with side effects");
  slots_[s.slot].store = Store::Reg;
  if (const_count > 0) ranges_[s.slot] = {s.start->lit.i, s.start->lit.i + const_count - 1};
  std::string pre;
  const std::string lo = tmp("lo");
  std::string a = expr(*s.start, pre);
  std::string b = expr(*s.end, pre);
  const std::string v = name(s.slot);
  const std::string tid = std::string("threadIdx.") + axis;
  const int saved = lane_level_;
  lane_level_ = level;
  const int64_t trips = const_count > 0 ? (const_count + lanes - 1) / lanes : -1;
  const std::string k = trips > 1 && trips <= 16 ? tmp("k") : "0";
  if (nest_depth_ == 1 && s.start->kind == ExprKind::Literal && trips >= 1 &&
      (trips == 1 || k != "0"))
    passes_[s.slot] = LanePass{k, s.start->lit.i, lanes, const_count, trips == 1};
  std::string body;
  // Statements with effects at an outer level of a nest run on the threads whose inner
  // coordinates are 0, so that each runs once per pass.
  for (auto* st : s.body->stmts) {
    const bool inner = has_lane_loop(st);
    std::string piece;
    stmt(*st, piece, false);
    if (!inner && dim > 0 &&
        (expr_impure(st->value) || st->kind == StmtKind::Assign ||
         stmt_has(st, [](const Stmt* x, const Expr*) {
           return x && x->kind == StmtKind::Assign && x->target->kind == ExprKind::Index;
         }))) {
      if (st->kind == StmtKind::Let)
        unsupported("a `let` with side effects around an inner lane loop");
      std::string g;
      for (int d = 0; d < dim; ++d)
        g += std::string(d ? " && " : "") + "threadIdx." + "xyz"[d] + " == 0";
      piece = "if (" + g + ") {\n" + piece + "}\n";
    }
    body += piece;
  }
  if (s.body->tail) {
    std::string p2;
    std::string t = expr(*s.body->tail, p2);
    body += p2 + "(void)(" + t + ");\n";
  }
  lane_level_ = saved;
  passes_.erase(s.slot);
  out += "if (" + tid + " < " + std::to_string(lanes) + ") {\n" + pre + "const " + T + " " + lo +
         " = " + a + ";\n";
  if (const_count >= 0 && const_count <= lanes) {
    out += "if (" + tid + " < " + std::to_string(const_count) + "u) {\nconst " + T + " " + v +
           " = (" + T + ")(" + lo + " + (" + T + ")" + tid + ");\n" + body + "}\n}\n";
    return;
  }
  const std::string hi = tmp("hi"), n = tmp("n"), p = tmp("p");
  if (const_count > 0 &&
      const_count < (int64_t{1} << 31)) {  // a constant trip count: an int counter
    const std::string var = "const " + T + " " + v + " = (" + T + ")((unsigned long long)" + lo +
                            " + (unsigned long long)" + p + ");\n";
    if (trips <= 16) {
      // Few passes per thread: unrolled, so that the passes' loads are in flight together.
      out += "#pragma unroll\nfor (int " + k + " = 0; " + k + " < " + std::to_string(trips) +
             "; ++" + k + ") {\nconst int " + p + " = (int)" + tid + " + " + k + " * " +
             std::to_string(lanes) + ";\n";
      const bool ragged = const_count % lanes != 0;
      if (ragged) out += "if (" + p + " < " + std::to_string(const_count) + ") {\n";
      out += var + body + (ragged ? "}\n" : "") + "}\n}\n";
      return;
    }
    out += "for (int " + p + " = (int)" + tid + "; " + p + " < " + std::to_string(const_count) +
           "; " + p + " += " + std::to_string(lanes) + ") {\n" + var + body + "}\n}\n";
    return;
  }
  out += "const " + T + " " + hi + " = " + b + ";\n";
  out += "const unsigned long long " + n + " = " +
         (s.inclusive ? lo + " <= " + hi : lo + " < " + hi) + " ? (unsigned long long)(" +
         (is_signed_int(sc) ? "(long long)" + hi + " - (long long)" + lo
                            : "(unsigned long long)" + hi + " - (unsigned long long)" + lo) +
         ")" + (s.inclusive ? " + 1ull" : "") + " : 0ull;\n";
  out += "for (unsigned long long " + p + " = " + tid + "; " + p + " < " + n + "; " + p +
         " += " + std::to_string(lanes) + "ull) {\nconst " + T + " " + v + " = (" + T +
         ")((unsigned long long)" + lo + " + " + p + ");\n" + body + "}\n}\n";
}

void RegionEmitter::make_tile(const Stmt& s, std::string& out) {
  const Type& t = slot_type(s.slot);
  if (t.kind != TypeKind::Tensor || t.memory != Memory::Smem)
    unsupported("a tensor made in device code that is not an SMEM tile");
  const int64_t n = t.static_size();
  if (n <= 0) unsupported("a tile whose size is not a constant");
  const std::string T = ctype(t.scalar);
  const std::string nm = "s_t" + std::to_string(s.slot);
  const Expr* init = strip(s.value);
  auto& info = slots_[s.slot];
  if (auto it = reg_tiles_.find(s.slot);
      it != reg_tiles_.end()) {  // in registers (register_tiles())
    info.store = Store::RegTile;
    const std::string regs = std::to_string((n + it->second - 1) / it->second);
    out += T + " r_t" + std::to_string(s.slot) + "[" + regs + "];\n";
    if (!init->builtin_fill) return;
    if (expr_impure(init->args[0])) unsupported("a tile fill value with side effects");
    std::string pre;
    std::string v = expr(*init->args[0], pre);
    out += "{\n" + pre + "const " + T + " vx_fill = " + v + ";\nfor (int vx_e = 0; vx_e < " + regs +
           "; ++vx_e) r_t" + std::to_string(s.slot) + "[vx_e] = vx_fill;\n}\n";
    return;
  }
  info.store = Store::Tile;
  info.uninit = !init->builtin_fill && !dense_tiles_.count(s.slot);
  shared_array(T, nm, n, scalar_info(t.scalar).bits / 8);
  if (!init->builtin_fill) {
    if (!info.uninit) return;  // written whole before any read (dense_tiles)
    shared_array("unsigned char", nm + "_init", n, 1);
    out += "for (int vx_e = vx_tid; vx_e < " + std::to_string(n) + "; vx_e += VX_NT) " + nm +
           "_init[vx_e] = 0;\n__syncthreads();\n";
    return;
  }
  if (expr_impure(init->args[0])) unsupported("a tile fill value with side effects");
  std::string pre;
  std::string v = expr(*init->args[0], pre);
  out += "{\n" + pre + "const " + T + " vx_fill = " + v + ";\nfor (int vx_e = vx_tid; vx_e < " +
         std::to_string(n) + "; vx_e += VX_NT) " + nm + "[vx_e] = vx_fill;\n}\n__syncthreads();\n";
}

void RegionEmitter::reduce(const Stmt& s, std::string& out) {
  const Expr& e = *s.value;
  std::string pre;
  TRef t = tensor_ref(*e.args[0], pre);
  const int64_t size = t.static_size();
  if (size <= 0) unsupported("lanes:: on a tile whose size is not a constant");
  if (t.elem == Scalar::Bool) unsupported("lanes:: on bool");
  const std::string n = tmp("rn");
  slots_[s.slot].store = Store::Shared;
  decls_ << "__shared__ " << ctype(slot_type(s.slot).scalar) << " s_v" << s.slot << ";\n";
  out +=
      "{ // " + std::string(tir::builtin_spelling(e.builtin)) + ": the tree of DESIGN §3.7\n" + pre;
  const auto niv = interval(*e.args[1]);
  if (niv && niv->first == niv->second && niv->first >= 1 && niv->first <= size) {
    reduce_constant(s, t, niv->first, out);
  } else {
    std::string npre;
    std::string nv = as_index(*e.args[1], npre);
    out += npre + "long long " + n + " = " + nv + ";\n";
    out += "if (" + n + " < 1 || " + n + " > " + std::to_string(size) +
           "LL) { vx_fail(vx_err, 5); " + n + " = 1; }\n";
    need_scratch(t.elem, e.builtin == BuiltinId::LanesArgmax, true);
    reduce_general(s, t, n, out);
  }
  out += "}\n";
}

// a := a op x for the reduction b (and the index with it for argmax: ai := xi when x wins).
std::string RegionEmitter::combine(BuiltinId b, Scalar elem, const std::string& a,
                                   const std::string& ai, const std::string& x,
                                   const std::string& xi) const {
  if (b == BuiltinId::LanesArgmax)
    return "if (vx_argmax_takes(" + a + ", " + ai + ", " + x + ", (int)(" + xi + "))) { " + a +
           " = " + x + "; " + ai + " = (int)(" + xi + "); }\n";
  if (b == BuiltinId::LanesMax) return a + " = vx_maxm(" + a + ", " + x + ");\n";
  return a + " = " + (is_float(elem) ? a + " + " + x : "vx_add(" + a + ", " + x + ")") + ";\n";
}

// Element i of the reduced tile (through its written-flags when it has them).
std::string RegionEmitter::reduce_source(const TRef& t, const std::string& i) const {
  return t.init.empty() ? t.ptr + "[" + i + "]"
                        : "vx_ld_init(" + t.ptr + ", " + t.init + ", " + i + ", vx_err)";
}

// The tree of DESIGN §3.7 over n elements (n a C expression, 1 <= n <= the tile's size), with
// shared scratch of one element per thread whatever the tile's size. With p the least power of two
// >= n and h0 = p/2, r(h0, j) = t[j] op t[j + h0] (or t[j] alone where j + h0 >= n) and
// r(h, j) = r(2h, j) op r(2h, j + h) for j < h. Thread i < H = min(h0, VX_P2) computes r(H, i),
// the subtree over the leaves r(h0, i + k·H), k < h0/H, by itself: it visits k in bit-reversed
// order, so that siblings of the tree are neighbours of the visit, and combines them with a stack
// as a binary counter does (the left operand is always the one with the lower index, as in the
// tree). Levels H/2 … 1 then run in shared memory. The same operands in the same order as the
// interpreter's tree, so the same bits.
void RegionEmitter::reduce_general(const Stmt& s, const TRef& t, const std::string& n,
                                   std::string& out) {
  const BuiltinId b = s.value->builtin;
  const bool argmax = b == BuiltinId::LanesArgmax;
  const std::string T = ctype(t.elem);
  const std::string red = std::string("vx_red_") + scalar_info(t.elem).name;
  const std::string result = "s_v" + std::to_string(s.slot);
  auto comb = [&](const std::string& a, const std::string& x) {
    return combine(b, t.elem, a, a + "i", x, x + "i");
  };
  out += "{\nlong long vx_p = 1;\nwhile (vx_p < " + n +
         ") vx_p <<= 1;\nconst long long vx_h0 = vx_p >> 1;\n";
  out += "if (vx_h0 == 0) {\nif (vx_leader) " + result + " = " +
         (argmax ? std::string("0") : reduce_source(t, "0")) + ";\n} else {\n";
  out += "const long long vx_H = vx_h0 < VX_P2 ? vx_h0 : (long long)VX_P2;\n";
  out +=
      "if (vx_tid < vx_H) {\nconst long long vx_K = vx_h0 / vx_H;\nint vx_L = 0;\nwhile ((1LL << "
      "vx_L) < vx_K) ++vx_L;\n";
  out += T + " vx_st[32];\nint vx_sti[32];\nint vx_d = 0;\n(void)vx_sti;\n";
  out +=
      "for (long long vx_q = 0; vx_q < vx_K; ++vx_q) {\nlong long vx_k = 0;\n"
      "for (int vx_b = 0; vx_b < vx_L; ++vx_b) vx_k |= ((vx_q >> vx_b) & 1LL) << (vx_L - 1 - "
      "vx_b);\n"
      "const long long vx_j = vx_tid + vx_k * vx_H;\n";
  out += T + " vx_a = " + reduce_source(t, "vx_j") + ";\nint vx_ai = (int)vx_j;\n(void)vx_ai;\n";
  out += "if (vx_j + vx_h0 < " + n + ") {\n" + T + " vx_x = " + reduce_source(t, "vx_j + vx_h0") +
         ";\nint vx_xi = (int)(vx_j + vx_h0);\n(void)vx_xi;\n" + comb("vx_a", "vx_x") + "}\n";
  out += "for (long long vx_c = vx_q; vx_c & 1; vx_c >>= 1) {\n--vx_d;\n" + T +
         " vx_l = vx_st[vx_d];\nint vx_li = vx_sti[vx_d];\n(void)vx_li;\n" + comb("vx_l", "vx_a") +
         "vx_a = vx_l;\nvx_ai = vx_li;\n}\n";
  out += "vx_st[vx_d] = vx_a;\nvx_sti[vx_d] = vx_ai;\n++vx_d;\n}\n";
  out += red + "[vx_tid] = vx_st[0];\n" + (argmax ? "vx_redi[vx_tid] = vx_sti[0];\n" : "") +
         "}\n__syncthreads();\n";
  out += "for (long long vx_h = vx_H >> 1; vx_h >= 1; vx_h >>= 1) {\nif (vx_tid < vx_h) {\n" +
         combine(b, t.elem, red + "[vx_tid]", "vx_redi[vx_tid]", red + "[vx_tid + vx_h]",
                 "vx_redi[vx_tid + vx_h]") +
         "}\n__syncthreads();\n}\n";
  out += "if (vx_leader) " + result + " = " + (argmax ? "vx_redi[0]" : red + "[0]") +
         ";\n}\n__syncthreads();\n}\n";
}

// The tree of DESIGN §3.7 over a constant count n (reduce_general's tree). For p <= 1024 and
// blocks of 32 threads or more it runs in warp 0 alone, without shared scratch: lane i < H =
// min(h0, 32) computes r(H, i) from the tile through the levels above (unrolled), and the levels
// below 32 go by __shfl_down_sync (lane i takes lane i + h's value: the same operands in the same
// order, so the same bits). Larger counts and smaller blocks take reduce_general.
void RegionEmitter::reduce_constant(const Stmt& s, const TRef& t, int64_t n, std::string& out) {
  const Expr& e = *s.value;
  const std::string T = ctype(t.elem);
  const std::string result = "s_v" + std::to_string(s.slot);
  const bool argmax = e.builtin == BuiltinId::LanesArgmax;
  auto src = [&](const std::string& i) { return reduce_source(t, i); };
  auto combine = [&](const std::string& a, const std::string& ai, const std::string& x,
                     const std::string& xi) {
    return this->combine(e.builtin, t.elem, a, ai, x, xi);
  };
  if (n == 1) {
    out += "if (vx_leader) " + result + " = " + (argmax ? std::string("0") : src("0")) +
           ";\n__syncthreads();\n";
    return;
  }
  int64_t p = 1;
  while (p < n) p <<= 1;
  const int64_t h0 = p / 2;  // h0 < n <= 2 * h0
  const std::string N = std::to_string(n), H0 = std::to_string(h0);
  if (p > 1024) {
    need_scratch(t.elem, argmax, true);
    return reduce_general(s, t, N, out);
  }
  need_scratch(t.elem, argmax, false);  // for blocks of fewer than 32 threads
  std::string warp = "if (vx_tid < 32) {\n" + T + " vx_v = vx_zero<" + T + ">();\n" +
                     (argmax ? "int vx_vi = 0;\n" : "");
  int64_t first_shuffle;
  {
    // Lane i computes r(H, i) (H = min(h0, 32)) from the tile through the levels above:
    // r(h, j) = r(2h, j) op r(2h, j + h), and at the top level h0, t[j] op t[j + h0] where
    // j + h0 < n (below it the pair always exists). No barrier before the result's.
    const int64_t H = std::min<int64_t>(h0, 32);
    int var = 0;
    std::function<std::string(int64_t, int64_t, std::string&)> r = [&](int64_t h, int64_t off,
                                                                       std::string& code) {
      const std::string a = "vx_r" + std::to_string(var++), j = "vx_tid + " + std::to_string(off);
      const std::string ai = a + "i";
      if (h == h0) {
        code +=
            T + " " + a + " = " + src(j) + ";\n" + (argmax ? "int " + ai + " = " + j + ";\n" : "");
        code += "if (" + j + " + " + H0 + " < " + N + ") {\n" + T +
                " vx_b = " + src(j + " + " + H0) + ";\n" + combine(a, ai, "vx_b", j + " + " + H0) +
                "}\n";
        return a;
      }
      const std::string x = r(2 * h, off, code), y = r(2 * h, off + h, code);
      code += T + " " + a + " = " + x + ";\n" + (argmax ? "int " + ai + " = " + x + "i;\n" : "") +
              combine(a, ai, y, y + "i");
      return a;
    };
    std::string level;
    const std::string top = r(H, 0, level);
    warp += "if (vx_tid < " + std::to_string(H) + ") {\n" + level + "vx_v = " + top + ";\n" +
            (argmax ? "vx_vi = " + top + "i;\n" : "") + "}\n";
    first_shuffle = H / 2;
  }
  const int bits = scalar_info(t.elem).bits;
  const std::string W =
      bits < 32 ? (is_signed_int(t.elem) ? "int" : "unsigned int") : T;  // what a shuffle carries
  for (int64_t h = first_shuffle; h >= 1; h /= 2) {
    const std::string Hs = std::to_string(h);
    warp += "{\n" + T + " vx_o = " +
            (is_half(t.elem)
                 ? "vx_shfl_down(vx_v, " + Hs + ")"
                 : "(" + T + ")__shfl_down_sync(0xffffffffu, (" + W + ")vx_v, " + Hs + ")") +
            ";\n";
    if (argmax) warp += "int vx_oi = __shfl_down_sync(0xffffffffu, vx_vi, " + Hs + ");\n";
    warp += "if (vx_tid < " + Hs + ") {\n" + combine("vx_v", "vx_vi", "vx_o", "vx_oi") + "}\n}\n";
  }
  warp += "if (vx_tid == 0) " + result + " = " + (argmax ? "vx_vi" : "vx_v") +
          ";\n}\n__syncthreads();\n";
  std::string general;
  reduce_general(s, t, N, general);
  out += "#if VX_NT >= 32\n" + warp + "#else\n" + general + "#endif\n";
}

void RegionEmitter::sort(const Expr& e, std::string& out) {
  std::string pre;
  TRef t = tensor_ref(*e.args[0], pre);
  const int64_t size = t.static_size();
  if (size <= 0) unsupported("lanes::sort on a tile whose size is not a constant");
  const std::string T = ctype(t.elem);
  const std::string n = tmp("sn");
  std::string nv = as_index(*e.args[1], pre);
  out += "{ // lanes::sort: odd-even transposition (stable, NaN last)\n" + pre;
  out += "long long " + n + " = " + nv + ";\n";
  out += "if (" + n + " < 1 || " + n + " > " + std::to_string(size) + "LL) { vx_fail(vx_err, 5); " +
         n + " = 1; }\n";
  if (!t.init.empty()) {
    out += "for (long long vx_e = vx_tid; vx_e < " + n + "; vx_e += VX_NT) (void)vx_ld_init(" +
           t.ptr + ", " + t.init + ", vx_e, vx_err);\n";
  }
  out += "for (long long vx_ph = 0; vx_ph < " + n + "; ++vx_ph) {\n";
  out += "for (long long vx_i = 2 * vx_tid + (vx_ph & 1); vx_i + 1 < " + n +
         "; vx_i += 2 * VX_NT) {\n";
  out += T + " vx_a = " + t.ptr + "[vx_i], vx_b = " + t.ptr + "[vx_i + 1];\n";
  out += "if (vx_sort_lt(vx_b, vx_a)) { " + t.ptr + "[vx_i] = vx_b; " + t.ptr +
         "[vx_i + 1] = vx_a; }\n";
  out += "}\n__syncthreads();\n}\n}\n";
}

void RegionEmitter::copy_async(const Expr& e, std::string& out) {
  std::string pre;
  TRef tile = tensor_ref(*e.args[0], pre);
  TRef src = tensor_ref(*e.args[1], pre);
  const int64_t size = tile.static_size();
  if (size <= 0) unsupported("copy_async into a tile whose size is not a constant");
  const size_t rank = tile.dims.size();
  if (src.dims.size() != rank || e.args.size() - 2 != rank)
    unsupported("copy_async with ranks that differ");
  out +=
      "{ // lanes::copy_async: cp.async on sm_80 and newer, else a cooperative copy "
      "(spec/offload.md)\n" +
      pre;
  for (size_t d = 0; d < rank; ++d) {
    const Expr& x = *e.args[2 + d];
    std::string p2;
    std::string v = expr(x, p2);
    out += p2 + "const long long vx_st" + std::to_string(d) + " = " +
           (is_signed_int(x.type.scalar) ? "vx_start_s((long long)(" + v + "))"
                                         : "vx_start_u((unsigned long long)(" + v + "))") +
           ";\n";
  }
  out += "for (long long vx_e = vx_tid; vx_e < " + std::to_string(size) + "LL; vx_e += VX_NT) {\n";
  out += "long long vx_r = vx_e, vx_off = 0;\nbool vx_in = true;\n";
  // unravel vx_e over the tile's dims (row-major), innermost first
  for (size_t k = rank; k-- > 0;) {
    out += "const long long vx_k" + std::to_string(k) + " = vx_r % " +
           std::to_string(tile.sdims[k]) + "LL; vx_r /= " + std::to_string(tile.sdims[k]) + "LL;\n";
  }
  for (size_t d = 0; d < rank; ++d) {
    const std::string i = "(vx_st" + std::to_string(d) + " + vx_k" + std::to_string(d) + ")";
    out += "vx_in = vx_in && " + i + " >= 0 && " + i + " < " + src.dims[d] + ";\n";
    out += "vx_off = vx_off * " + src.dims[d] + " + (vx_in ? " + i + " : 0);\n";
  }
  // sm_80 and newer: cp.async, one element a thread, zero-filled outside the source (src-size
  // 0), committed here and waited for at .wait(). Elsewhere (and in the host harness) a
  // cooperative copy finished here.
  const int bytes = std::max(1, scalar_info(tile.elem).bits / 8);
  const bool cp_async = bytes == 4 || bytes == 8;
  if (cp_async) {
    out += "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n";
    out += "asm volatile(\"cp.async.ca.shared.global [%0], [%1], " + std::to_string(bytes) +
           ", %2;\" :: \"r\"((unsigned)__cvta_generic_to_shared(&" + tile.ptr +
           "[vx_e])), \"l\"(__cvta_generic_to_global(" + src.ptr +
           " + (vx_in ? vx_off : 0))), \"r\"(vx_in ? " + std::to_string(bytes) +
           " : 0) : \"memory\");\n";
    out += "#else\n";
  }
  out += tile.ptr + "[vx_e] = vx_in ? " + src.ptr + "[vx_off] : vx_zero<" +
         std::string(ctype(tile.elem)) + ">();\n";
  if (cp_async) out += "#endif\n";
  if (!tile.init.empty()) out += tile.init + "[vx_e] = 1;\n";
  out += "}\n";
  if (cp_async) {
    out +=
        "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\nasm "
        "volatile(\"cp.async.commit_group;\" ::: \"memory\");\n"
        "#else\n__syncthreads();\n#endif\n}\n";
  } else {
    out += "__syncthreads();\n}\n";
  }
}

// ---- the region ---------------------------------------------------------------------------------

void RegionEmitter::collect_captures() {
  walk_block(spawn_.body, [&](const Stmt* s, const Expr*) {
    if (s && (s->kind == StmtKind::Let || s->kind == StmtKind::For) && s->slot >= 0)
      declared_.insert(s->slot);
  });
  std::set<int> used;
  walk_block(spawn_.body, [&](const Stmt*, const Expr* e) {
    if (e && e->kind == ExprKind::Var && !declared_.count(e->slot)) used.insert(e->slot);
  });
  for (int slot : used) {
    const Type& t = slot_type(slot);
    slots_[slot].store = Store::Param;
    if (t.is_scalar()) {
      ctype(t.scalar);
      out_.params.push_back({KernelParam::Kind::Scalar, slot, 0, t.scalar});
    } else if (t.is_tensor_like()) {
      if (t.memory != Memory::Hbm) unsupported("a captured tensor that is not in HBM");
      ctype(t.scalar);
      out_.params.push_back({KernelParam::Kind::TensorPtr, slot, 0, t.scalar});
      for (size_t k = 0; k < t.dims.size(); ++k)
        if (t.dims[k] == kUnknownDim)
          out_.params.push_back(
              {KernelParam::Kind::TensorDim, slot, static_cast<int>(k), Scalar::I64});
    } else {
      unsupported("a captured value of type " + type_name(t));
    }
  }
  out_.params.push_back({KernelParam::Kind::ErrorFlag, -1, 0, Scalar::I32});
}

void RegionEmitter::run() {
  cur_fn_ = &fn_;
  collect_captures();
  find_read_only();
  walk_block(spawn_.body, [&](const Stmt* st, const Expr*) {
    if (st && st->kind == StmtKind::Assign && st->target && st->target->kind == ExprKind::Var)
      assigned_.insert(st->target->slot);
  });
  // The block loops: one directly in the region, up to three in each other.
  std::vector<const Stmt*> loops;
  const tir::Block* body = spawn_.body;
  while (true) {
    if (body->stmts.size() != 1 || body->tail) {
      if (loops.empty()) unsupported("code in the region outside its block loop");
      break;
    }
    const Stmt* s = body->stmts[0];
    if (s->kind != StmtKind::For || s->across != tir::Across::Blocks) {
      if (loops.empty()) unsupported("a region whose body is not one block loop");
      break;
    }
    loops.push_back(s);
    body = s->body;
  }
  if (loops.size() > 3) unsupported("more than three block loops in each other");
  for (auto* l : loops) {
    bool ok = true;
    walk_expr(l->start, [&](const Stmt*, const Expr* e) {
      if (e && e->kind == ExprKind::Var && declared_.count(e->slot)) ok = false;
    });
    walk_expr(l->end, [&](const Stmt*, const Expr* e) {
      if (e && e->kind == ExprKind::Var && declared_.count(e->slot)) ok = false;
    });
    if (!ok) unsupported("a block loop whose range depends on another block loop");
    if (expr_impure(l->start) || expr_impure(l->end))
      unsupported("block loop bounds with side effects");
  }
  for (size_t k = loops.size(); k-- > 0;)
    out_.grid.push_back({loops[k]->start, loops[k]->end, loops[k]->inclusive});

  std::string code;
  for (size_t k = 0; k < loops.size(); ++k) {
    const Stmt& l = *loops[k];
    const int dim = static_cast<int>(loops.size() - 1 - k);
    const std::string T = ctype(l.start->type.scalar);
    slots_[l.slot].store = Store::Reg;
    if (l.start->kind == ExprKind::Literal && l.end->kind == ExprKind::Literal) {
      const int64_t a0 = l.start->lit.i, b0 = l.end->lit.i - (l.inclusive ? 0 : 1);
      if (a0 <= b0) ranges_[l.slot] = {a0, b0};
    }
    std::string pre;
    std::string a = expr(*l.start, pre);
    code += pre + "const " + T + " v" + std::to_string(l.slot) + " = (" + T +
            ")((unsigned long long)(" + a + ") + (unsigned long long)blockIdx." + "xyz"[dim] +
            ");\n";
  }
  std::string block_code;
  steps(body, block_code);
  // A barrier as the kernel's last statement orders nothing.
  const std::string last_barrier = "__syncthreads();\n";
  if (block_code.size() >= last_barrier.size() &&
      block_code.compare(block_code.size() - last_barrier.size(), last_barrier.size(),
                         last_barrier) == 0)
    block_code.resize(block_code.size() - last_barrier.size());
  code += block_code;

  const int nt = out_.block[0] * out_.block[1] * out_.block[2];
  int p2 = 1;  // VX_P2: the largest power of two <= VX_NT, the threads a reduction's scratch holds
  while (p2 * 2 <= nt) p2 *= 2;
  std::ostringstream k;
  k << "// " << out_.location << "\n";
  k << "#define VX_NT " << nt << "\n";
  k << "#define VX_P2 " << p2 << "\n";
  k << "#define VX_ZERO_X " << (out_.block[0] > 1 ? "(threadIdx.x == 0)" : "true") << "\n";
  k << "#define VX_ZERO_Y " << (out_.block[1] > 1 ? "(threadIdx.y == 0)" : "true") << "\n";
  k << "#define VX_ZERO_Z " << (out_.block[2] > 1 ? "(threadIdx.z == 0)" : "true") << "\n";
  k << "VX_KERNEL void __launch_bounds__(" << nt << ") " << out_.name << "(";
  bool first = true;
  for (auto& p : out_.params) {
    k << (first ? "" : ", ");
    first = false;
    switch (p.kind) {
      case KernelParam::Kind::Scalar:
        k << ctype(p.scalar) << " v" << p.slot;
        break;
      case KernelParam::Kind::TensorPtr:
        k << ctype(p.scalar) << "* __restrict__ t" << p.slot;
        break;
      case KernelParam::Kind::TensorDim:
        k << "long long t" << p.slot << "_d" << p.dim;
        break;
      case KernelParam::Kind::ErrorFlag:
        k << "int* vx_err";
        break;
    }
  }
  k << ") {\n";
  k << decls_.str();
  for (auto& [sc, always] : red_scratch_)
    if (always || nt < 32)
      shared_array(ctype(sc), std::string("vx_red_") + scalar_info(sc).name, p2,
                   scalar_info(sc).bits / 8);
  if (red_index_scratch_ && (*red_index_scratch_ || nt < 32)) shared_array("int", "vx_redi", p2, 4);
  k << shared_arrays();
  k << "const int vx_tid = (int)(threadIdx.x + " << out_.block[0] << " * (threadIdx.y + "
    << out_.block[1] << " * threadIdx.z));\n";
  k << "const bool vx_leader = vx_tid == 0;\n(void)vx_leader;\n";
  k << code;
  k << "}\n#undef VX_NT\n#undef VX_P2\n#undef VX_ZERO_X\n#undef VX_ZERO_Y\n#undef VX_ZERO_Z\n";
  std::string fns;
  for (auto& [i, text] : device_fns_) fns += text;
  out_.source = fns + k.str();
  // A host wrapper with cuLaunchKernel's ABI, for the host harness (tests/cuda_host).
  std::ostringstream h;
  h << "#ifdef VX_HOST_HARNESS\nstatic void " << out_.name << "_host(void** a) {\n  " << out_.name
    << "(";
  for (size_t i = 0; i < out_.params.size(); ++i) {
    const auto& p = out_.params[i];
    h << (i ? ", " : "");
    switch (p.kind) {
      case KernelParam::Kind::Scalar:
        h << "*(" << ctype(p.scalar) << "*)a[" << i << "]";
        break;
      case KernelParam::Kind::TensorPtr:
        h << "*(" << ctype(p.scalar) << "**)a[" << i << "]";
        break;
      case KernelParam::Kind::TensorDim:
        h << "*(long long*)a[" << i << "]";
        break;
      case KernelParam::Kind::ErrorFlag:
        h << "*(int**)a[" << i << "]";
        break;
    }
  }
  h << ");\n}\n#endif\n";
  out_.source += h.str();
}

// Static arrays up to the 48 KiB a kernel may declare statically; past that, every array is a
// slice of one dynamic buffer (16-byte aligned each), whose size the launch passes and for which
// the runner raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (the machine file allows
// up to its SMEM_PER_BLOCK, 227 KiB on an H100).
std::string RegionEmitter::shared_arrays() {
  constexpr int64_t kStaticLimit = 48 * 1024;
  int64_t total = 0;
  std::vector<int64_t> offsets;
  for (const auto& a : shared_arrays_) {
    total = (total + 15) / 16 * 16;
    offsets.push_back(total);
    total += a.count * std::max<int64_t>(a.elem_bytes, 1);
  }
  std::string out;
  if (total <= kStaticLimit) {
    for (const auto& a : shared_arrays_)
      out += "__shared__ " + a.type + " " + a.name + "[" + std::to_string(a.count) + "];\n";
    return out;
  }
  out_.dynamic_smem = (total + 15) / 16 * 16;
  out += "VX_DYNAMIC_SMEM(vx_dyn_smem, " + std::to_string(out_.dynamic_smem) + ");\n";
  for (size_t i = 0; i < shared_arrays_.size(); ++i)
    out += shared_arrays_[i].type + "* const " + shared_arrays_[i].name + " = reinterpret_cast<" +
           shared_arrays_[i].type + "*>(vx_dyn_smem + " + std::to_string(offsets[i]) + ");\n";
  return out;
}

void find_spawns(const tir::Block* b, std::vector<const Stmt*>& out) {
  if (!b) return;
  walk_block(b, [&](const Stmt* s, const Expr*) {
    if (s && s->kind == StmtKind::Spawn) out.push_back(s);
  });
}

}  // namespace

std::vector<EmittedRegion> emit_regions(const tir::Program& program) {
  std::vector<std::pair<int, const Stmt*>> spawns;
  for (size_t f = 0; f < program.functions.size(); ++f) {
    std::vector<const Stmt*> found;
    find_spawns(program.functions[f].body, found);
    for (auto* s : found) spawns.emplace_back(static_cast<int>(f), s);
  }
  std::sort(spawns.begin(), spawns.end(),
            [](auto& a, auto& b) { return a.second->span.begin < b.second->span.begin; });
  std::vector<EmittedRegion> out;
  for (size_t i = 0; i < spawns.size(); ++i) {
    EmittedRegion r;
    r.spawn = spawns[i].second;
    r.function = spawns[i].first;
    r.index = static_cast<int>(i);
    LineCol lc{};
    std::string path = "?";
    if (program.file) {
      lc = program.file->line_col(r.spawn->span.begin);
      path = program.file->path();
    }
    r.name = "vx_region_" + std::to_string(i) + "_L" + std::to_string(lc.line);
    r.location = path + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
    std::map<int, std::string> fns;
    try {
      RegionEmitter(program, r.function, *r.spawn, r, fns).run();
      r.ok = true;
    } catch (const Unsupported& u) {
      r.ok = false;
      r.reason = u.reason;
      r.source.clear();
      r.params.clear();
      r.grid.clear();
    }
    out.push_back(std::move(r));
  }
  return out;
}

const std::string& cuda_prelude() {
  static const std::string text = std::string(
#include "offload/vx_math_text.inc"
                                      ) +
                                  "\n" +
                                  std::string(
#include "offload/vx_half_text.inc"
                                      ) +
                                  "\n" +
                                  std::string(
#include "offload/vx_prelude_text.inc"
                                      ) +
                                  "\n";
  return text;
}

std::string cuda_translation_unit(const std::vector<EmittedRegion>& regions) {
  std::string tu = cuda_prelude();
  for (auto& r : regions)
    if (r.ok) tu += "\n" + r.source;
  return tu;
}

}  // namespace vx::offload
