// Tile analysis for the CUDA emitter (tile_analysis.hpp).
#include "offload/tile_analysis.hpp"

#include <algorithm>

#include "check/tir_walk.hpp"
#include "offload/region_queries.hpp"
#include "support/internal_error.hpp"

namespace vx::offload {

using tir::BinOp;
using tir::Expr;
using tir::ExprKind;
using tir::Stmt;
using tir::stmt_has;
using tir::StmtKind;
using tir::walk_block;

std::optional<std::pair<int64_t, int64_t>> index_interval(const Expr& e,
                                                          const IndexRanges& ranges) {
  if (!e.type.is_scalar() || !is_int(e.type.scalar)) return std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> r;
  switch (e.kind) {
    case ExprKind::Match:  // lowered before this step
    case ExprKind::Field:
      tir::unlowered();
    case ExprKind::Literal:
      if (!is_signed_int(e.type.scalar) && e.lit.i < 0) return std::nullopt;  // u64 above 2^63
      r = std::make_pair(e.lit.i, e.lit.i);
      break;
    case ExprKind::Var: {
      auto it = ranges.find(e.slot);
      if (it == ranges.end()) return std::nullopt;
      r = it->second;
      break;
    }
    case ExprKind::Cast:
      r = index_interval(*e.args[0], ranges);
      break;
    case ExprKind::Binary: {
      auto a = index_interval(*e.args[0], ranges), b = index_interval(*e.args[1], ranges);
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
    case ExprKind::Unit:
    case ExprKind::String:
    case ExprKind::Unary:
    case ExprKind::Index:
    case ExprKind::View:
    case ExprKind::Ref:
    case ExprKind::Call:
    case ExprKind::Builtin:
    case ExprKind::TensorNew:
    case ExprKind::Transfer:
    case ExprKind::If:
    case ExprKind::BlockExpr:
    case ExprKind::Print:
    case ExprKind::Assert:
    case ExprKind::ArrayLit:
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

// How the threads take the passes of a one-level lane loop (see LanePass), for loops with a
// literal start and a constant count run in one pass or unrolled; nullopt otherwise.
std::optional<LanePass> pass_shape(const Stmt& s) {
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
std::optional<int64_t> owned_offset(const Expr& e, int var) {
  switch (e.kind) {
    case ExprKind::Match:  // lowered before this step
    case ExprKind::Field:
      tir::unlowered();
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
    case ExprKind::Literal:
    case ExprKind::Unit:
    case ExprKind::String:
    case ExprKind::Unary:
    case ExprKind::Index:
    case ExprKind::View:
    case ExprKind::Ref:
    case ExprKind::Call:
    case ExprKind::Builtin:
    case ExprKind::TensorNew:
    case ExprKind::Transfer:
    case ExprKind::If:
    case ExprKind::BlockExpr:
    case ExprKind::Print:
    case ExprKind::Assert:
    case ExprKind::ArrayLit:
      return std::nullopt;
  }
  internal_error("unknown expression kind");
}

// An uninit() tile needs written-flags only if a read could find an element not yet written.
// It needs none when the first statement after its `let` that mentions it is a lane loop over
// exactly its elements (a 1-D tile, the range 0..size) whose body, before any other statement
// that is not a plain `let`, stores `tile[v] = …` at the loop variable v: that loop writes every
// element before anything reads one (the same-expression rule keeps the loop's other accesses
// at tile[v], after the store).
void find_dense_tiles(const tir::Block* b, const tir::Function& fn, std::set<int>& dense) {
  for (size_t i = 0; i < b->stmts.size(); ++i) {
    const Stmt* let = b->stmts[i];
    if (let->kind != StmtKind::Let || !let->value ||
        strip(let->value)->kind != ExprKind::TensorNew || strip(let->value)->builtin_fill)
      continue;
    const Type& t = fn.slot_types[static_cast<size_t>(let->slot)];
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
            dense.insert(slot);
          break;
        }
      }
      break;
    }
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
void find_register_tiles(const tir::Block* b, const tir::Function& fn, const std::set<int>& dense,
                         const IndexRanges& ranges, std::map<int, int64_t>& reg_tiles) {
  for (const Stmt* let : b->stmts) {
    if (let->kind != StmtKind::Let || !let->value || strip(let->value)->kind != ExprKind::TensorNew)
      continue;
    const Type& t = fn.slot_types[static_cast<size_t>(let->slot)];
    if (t.kind != TypeKind::Tensor || t.memory != Memory::Smem || t.dims.size() != 1 ||
        t.dims[0] <= 0 || (!strip(let->value)->builtin_fill && !dense.count(let->slot)))
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
        IndexRanges around = ranges;
        around[var] = {shape->lo, shape->lo + shape->count - 1};
        auto iv = index_interval(*e->args[1], around);
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
    if (ok && (n + stride - 1) / stride <= 64) reg_tiles[slot] = stride;
  }
}

}  // namespace vx::offload
