// The CUDA emitter's statements (emit_cuda_impl.hpp): statements as sequential C, and block code
// as steps that all threads of the block walk together, each ended by __syncthreads() unless no
// thread can race with it (barrier_free()): leader-only runs of plain statements, uniform
// control flow, lane loop nests on threadIdx, and tile creation.
#include <algorithm>

#include "offload/emit_cuda_impl.hpp"
#include "support/internal_error.hpp"

namespace vx::offload::emit {

// ---- statements (one thread's code: lane loop bodies, the leader's block code, functions) -------

// Each statement under the `.vx` line it comes from, so that the messages of NVRTC, nvcc, ptxas
// and compute-sanitizer about its code name that line (spec/offload.md §1.1); once, where a step
// and the statement it holds both begin.
void RegionEmitter::mark_line(const Stmt& s, std::string& out) {
  if (!prog_.file) return;
  // A block's last `if` made a statement has the span of the block's end: its condition's line.
  Span at = s.span;
  if (s.kind == StmtKind::Expr && s.value)
    at = s.value->kind == ExprKind::If && !s.value->args.empty() ? s.value->args[0]->span
                                                                 : s.value->span;
  const std::string directive = line_directive(*prog_.file, prog_.file->line_col(at.begin).line);
  if (!out.ends_with(directive)) out += directive;
}

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
    if (!t.type.is_scalar() && !t.type.is_array()) unsupported("assigning a tensor in device code");
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

// `for v in (a..b).rev()`, `.step_by(k)` and their chains (spec/semantics.md §3): after the
// bounds, each step is evaluated and checked in order (below 1: vx_kErrStep, and no pass; the
// interpreter reruns the region and reports it). The passes are a progression of offsets from
// the range's first value `lo`: `first`, then up or down by `st`, `n` passes after the first,
// computed in unsigned 64 bits as the interpreter's SteppedForStmt does. Every value lies in the
// range, so no operation wraps where it would change a pass; the offset after the last pass is
// computed and never used (unsigned: it wraps without UB).
void RegionEmitter::stepped_for(const Stmt& s, std::string& out,
                                const std::function<void(std::string&)>& body) {
  const Scalar sc = s.start->type.scalar;
  const std::string T = ctype(sc);
  const std::string U = std::string("unsigned ") + (scalar_info(sc).bits == 64   ? "long long"
                                                    : scalar_info(sc).bits == 32 ? "int"
                                                    : scalar_info(sc).bits == 16 ? "short"
                                                                                 : "char");
  std::string pre;
  const std::string lo = tmp("lo"), hi = tmp("hi"), go = tmp("go"), first = tmp("first"),
                    n = tmp("n"), st = tmp("st"), down = tmp("down"), j = tmp("j");
  std::string a = expr(*s.start, pre);
  std::string b = expr(*s.end, pre);
  const std::string v = name(s.slot);
  if (s.start->kind == ExprKind::Literal && s.end->kind == ExprKind::Literal) {
    const int64_t a0 = s.start->lit.i, b0 = s.end->lit.i - (s.inclusive ? 0 : 1);
    if (a0 <= b0) ranges_[s.slot] = {a0, b0};  // every pass's value lies in the range
  }
  out += "{\n" + pre + "const " + T + " " + lo + " = " + a + ";\nconst " + T + " " + hi + " = " +
         b + ";\n";
  std::vector<std::string> steps;
  for (const tir::RangeAdapter& ad : s.adapters) {
    if (!ad.step) continue;
    std::string spre;
    std::string k = expr(*ad.step, spre);
    const std::string kv = tmp("k");
    out +=
        spre + "const " + std::string(ctype(ad.step->type.scalar)) + " " + kv + " = " + k + ";\n";
    steps.push_back(kv);
  }
  out += "bool " + go + " = " + lo + (s.inclusive ? " <= " : " < ") + hi + ";\n";
  for (const std::string& kv : steps)
    out += "if (!(" + kv + " > 0)) { vx_fail(vx_err, vx_kErrStep); " + go + " = false; }\n";
  // The range's last offset, then each adapter on (first, n, st, down).
  out += "unsigned long long " + first + " = 0ull, " + n + " = 0ull, " + st + " = 1ull;\nbool " +
         down + " = false;\nif (" + go + ") {\n" + n + " = (unsigned long long)(" + U + ")((" + U +
         ")" + hi + " - (" + U + ")" + lo + ")" + (s.inclusive ? "" : " - 1ull") + ";\n";
  size_t next_step = 0;
  for (const tir::RangeAdapter& ad : s.adapters) {
    if (!ad.step) {
      out += first + " = " + down + " ? " + first + " - " + n + " * " + st + " : " + first + " + " +
             n + " * " + st + ";\n" + down + " = !" + down + ";\n";
      continue;
    }
    const std::string kv = "(unsigned long long)" + steps[next_step++];
    out +=
        "if (" + n + " / " + kv + " != 0ull) " + st + " *= " + kv + ";\n" + n + " /= " + kv + ";\n";
  }
  out += "}\n";
  std::string inner;
  body(inner);
  out += "for (unsigned long long " + j + " = 0ull, vx_off" + j + " = " + first + "; " + go + "; " +
         go + " = (" + j + " != " + n + "), ++" + j + ", vx_off" + j + " = " + down + " ? vx_off" +
         j + " - " + st + " : vx_off" + j + " + " + st + ") {\nconst " + T + " " + v + " = (" + T +
         ")(" + U + ")((unsigned long long)(" + U + ")" + lo + " + vx_off" + j + ");\n" +
         loop_body(s, inner) + "}\n}\n" + after_loop(s);
}

void RegionEmitter::seq_for(const Stmt& s, std::string& out,
                            const std::function<void(std::string&)>& body) {
  if (!s.adapters.empty()) return stepped_for(s, out, body);
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
         loop_body(s, inner) + "}\n}\n" + after_loop(s);
}

std::string RegionEmitter::jump(const Stmt& s) {
  const bool cont = s.kind == StmtKind::Continue;
  if (s.levels == 0 || !s.jump_target) return cont ? "continue;\n" : "break;\n";
  const int id = jump_ids_.emplace(s.jump_target, static_cast<int>(jump_ids_.size())).first->second;
  jumps_used_.insert({s.jump_target, cont});
  return std::string("goto ") + (cont ? "vx_cont" : "vx_brk") + std::to_string(id) + ";\n";
}

std::string RegionEmitter::loop_body(const Stmt& loop, const std::string& body) {
  if (!jumps_used_.count({&loop, true})) return body;
  // The body in a block of its own: the `goto` crosses no declaration still in scope.
  return "{\n" + body + "}\nvx_cont" + std::to_string(must_find(jump_ids_, &loop)) + ": ;\n";
}

std::string RegionEmitter::after_loop(const Stmt& loop) {
  if (!jumps_used_.count({&loop, false})) return "";
  return "vx_brk" + std::to_string(must_find(jump_ids_, &loop)) + ": ;\n";
}

void RegionEmitter::stmt(const Stmt& s, std::string& out, bool step_level) {
  mark_line(s, out);
  switch (s.kind) {
    case StmtKind::Let: {
      const Type& t = slot_type(s.slot);
      if (t.kind == TypeKind::Ref && s.value) {
        std::string pre;
        TRef r = tensor_ref(*s.value, pre);
        if (!r.init.empty()) unsupported("a reference to part of an uninit() tile");
        const std::string name = step_level ? shared(s.slot) : base(s.slot);
        const std::string ptr_type = std::string(ctype(r.elem)) + "*";
        if (step_level) {
          slots_[s.slot].store = Store::Shared;
          decls_ << "__shared__ " << ptr_type << " " << name << ";\n";
          out += pre + name + " = " + r.ptr + ";\n";
        } else {
          slots_[s.slot].store = Store::Reg;
          out += pre + ptr_type + " const " + name + " = " + r.ptr + ";\n";
        }
        r.ptr = name;
        local_refs_[s.slot] = r;
        return;
      }
      if (!t.is_scalar() && !t.is_array()) {
        unsupported("a `let` of a " + type_name(t) + " in this place of device code");
      }
      std::string pre;
      // No value: assigned before it is read (the checker's rule). A zero of its type, which
      // `0` is not for vx_f16 and vx_bf16 (`loop { break 1.5f16; }`, issue 35).
      std::string v = s.value ? expr(*s.value, pre) : "vx_zero<" + value_type(t) + ">()";
      if (!s.value && t.is_array()) v = "{}";
      if (step_level) {
        slots_[s.slot].store = Store::Shared;
        decls_ << "__shared__ " << value_type(t) << " " << shared(s.slot) << ";\n";
        if (s.value || !t.is_array()) out += pre + shared(s.slot) + " = " + v + ";\n";
      } else {
        slots_[s.slot].store = Store::Reg;
        out += pre + value_type(t) + " " + base(s.slot) + " = " + v + ";\n";
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
      out += "while (true) {\n" + pre + "if (!(" + c + ")) break;\n" + loop_body(s, body) + "}\n" +
             after_loop(s);
      return;
    }
    case StmtKind::Loop: {
      std::string body;
      stmts(s.body, body, false);
      out += "while (true) {\n" + loop_body(s, body) + "}\n" + after_loop(s);
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
    case StmtKind::Continue:
      out += jump(s);
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

// ---- block code ---------------------------------------------------------------------------------
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
        (tir::builtin_acts_on_memory(e->builtin) || tir::is_collective(e->builtin)))
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
  find_tiles(b);
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
    // every thread computes it: no shared slot, no barrier
    if (redundant_let(*s) && apply(Optimisation::UniformLets, "`let " + base(s->slot) + "`")) {
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
  mark_line(s, out);
  switch (s.kind) {
    case StmtKind::Break:
    case StmtKind::Continue:
      out += jump(s);
      return;
    case StmtKind::For:
      if (s.across == tir::Across::Lanes) {
        lane_nest(s, out);
        if (barrier_free(s) &&
            apply(Optimisation::BarrierFreeLoops, "the lane loop over `" + name(s.slot) + "`")) {
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
      for (const tir::RangeAdapter& ad : s.adapters)
        if (expr_impure(ad.step)) unsupported("a loop step with side effects in block code");
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
             ";\n__syncthreads();\nif (!" + t + ") break;\n" + loop_body(s, body) + "}\n" +
             after_loop(s);
      return;
    }
    case StmtKind::Loop: {
      std::string body;
      steps(s.body, body);
      out += "while (true) {\n" + loop_body(s, body) + "}\n" + after_loop(s);
      return;
    }
    case StmtKind::Let:
      if (s.value && strip(s.value)->kind == ExprKind::TensorNew) return make_tile(s, out);
      if (s.value && s.value->kind == ExprKind::Builtin &&
          tir::builtin_form(s.value->builtin) == tir::BuiltinForm::Let)
        return collective(s, *s.value, out);
      unsupported(
          "a `let` whose value holds a lane loop or a lanes:: routine inside an expression");
    case StmtKind::Expr: {
      const Expr& v = *s.value;
      if (v.kind == ExprKind::Builtin &&
          tir::builtin_form(v.builtin) == tir::BuiltinForm::Statement)
        return collective(s, v, out);
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
    case StmtKind::Assign:
    case StmtKind::Spawn:
    case StmtKind::Return:
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
  if (!s.adapters.empty()) unsupported("a lane loop over a range with adapters");
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
  // A loop that touches a register tile is unrolled whatever the options: its passes' registers
  // are numbered by the unrolled counter (reg_tile_elem()).
  const bool unrolled =
      trips > 1 && trips <= 16 &&
      (stmt_has(&s,
                [&](const Stmt*, const Expr* e) {
                  return e && e->kind == ExprKind::Var && reg_tiles_.count(e->slot);
                }) ||
       apply(Optimisation::UnrolledPasses, "the lane loop over `" + name(s.slot) + "`"));
  const std::string k = unrolled ? tmp("k") : "0";
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
    if (unrolled) {
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
  const std::string nm = shared(s.slot);
  const Expr* init = strip(s.value);
  auto& info = slots_[s.slot];
  if (auto it = reg_tiles_.find(s.slot);
      it != reg_tiles_.end()) {  // in registers (register_tiles())
    info.store = Store::RegTile;
    const std::string regs = std::to_string((n + it->second - 1) / it->second);
    out += T + " " + registers(s.slot) + "[" + regs + "];\n";
    if (!init->builtin_fill) return;
    if (expr_impure(init->args[0])) unsupported("a tile fill value with side effects");
    std::string pre;
    std::string v = expr(*init->args[0], pre);
    out += "{\n" + pre + "const " + T + " vx_fill = " + v + ";\nfor (int vx_e = 0; vx_e < " + regs +
           "; ++vx_e) " + registers(s.slot) + "[vx_e] = vx_fill;\n}\n";
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

}  // namespace vx::offload::emit
