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
#include "numeric/arith.hpp"
#include "offload/emit_cuda_impl.hpp"
#include "support/half.hpp"

namespace vx::offload {
namespace emit {

// ---- device functions ---------------------------------------------------------------------------

void RegionEmitter::device_function(int index) {
  const std::string key_name = device_fn_name(index);
  if (device_fns_.count(index)) return;
  device_fns_[index] = {};  // marks it in progress (recursion)
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
  if (!(f.ret.is_unit() || f.ret.is_scalar() || f.ret.is_array()))
    unsupported("a call of `" + f.name + "`, which returns a tensor");
  sig = std::string("static __device__ ") + (f.ret.is_unit() ? "void" : value_type(f.ret)) + " " +
        key_name + "(";
  for (int p : f.param_slots) {
    const Type& t = f.slot_types[static_cast<size_t>(p)];
    if (t.is_tensor_like()) {  // a pointer, and the dimensions the type leaves open (`?`)
      if (t.scalar == Scalar::Bool)
        unsupported("a call of `" + f.name + "`, which takes a tensor of bool");
      slots_[p].store = Store::Param;
      sig += std::string(ctype(t.scalar)) + "* " + base(p) + ", ";
      for (size_t k = 0; k < t.dims.size(); ++k)
        if (t.dims[k] == kUnknownDim) sig += "long long " + dim(p, k) + ", ";
      continue;
    }
    if (!t.is_scalar() && !t.is_array())
      unsupported("a call of `" + f.name + "`, which takes a " + type_name(t));
    sig += value_type(t) + " " + base(p) + ", ";
  }
  // A tuple's scalars (tir::Function::ret_slots): written through references to the caller's
  // locals, which a `return` writes last (check_tuple.cpp).
  for (int r : f.ret_slots) sig += value_type(slot_type(r)) + "& " + base(r) + ", ";
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
    body += "return vx_zero<" + value_type(f.ret) + ">();\n";
  }
  device_fns_[index] = {sig + ";\n", "#ifndef VX_FN_" + std::to_string(index) + "\n#define VX_FN_" +
                                         std::to_string(index) + "\n" + sig + " {\n" + body +
                                         "}\n#endif\n"};
  cur_fn_ = saved_fn;
  slots_ = std::move(saved_slots);
  ranges_ = std::move(saved_ranges);
  lane_level_ = saved_level;
}

// ---- the region ---------------------------------------------------------------------------------

// The tiles made in block `b` that need no written-flags, and those kept in registers
// (tile_analysis.hpp), each as the options allow.
void RegionEmitter::find_tiles(const tir::Block* b) {
  std::set<int> dense;
  find_dense_tiles(b, *cur_fn_, dense);
  for (int slot : dense)
    if (!dense_tiles_.count(slot) && apply(Optimisation::DenseTiles, "tile `" + base(slot) + "`"))
      dense_tiles_.insert(slot);
  std::map<int, int64_t> in_registers;
  find_register_tiles(b, *cur_fn_, dense_tiles_, ranges_, in_registers);
  for (auto& [slot, stride] : in_registers)
    if (!reg_tiles_.count(slot) && apply(Optimisation::RegisterTiles, "tile `" + base(slot) + "`"))
      reg_tiles_[slot] = stride;
}

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
    } else if (t.is_array()) {  // a copy of its elements, by value
      ctype(t.scalar);
      out_.params.push_back({KernelParam::Kind::Array, slot, 0, t.scalar, t.static_size()});
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
  // A call's out locals are assigned too: a tuple's scalars, a `&mut` struct's fields coming back.
  tir::writes_in(spawn_.body, [&](int slot) { assigned_.insert(slot); });
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
    if (!l->adapters.empty()) unsupported("a block loop over a range with adapters");
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
    mark_line(l, code);
    std::string a = expr(*l.start, pre);
    code += pre + "const " + T + " " + base(l.slot) + " = (" + T + ")((unsigned long long)(" + a +
            ") + (unsigned long long)blockIdx." + "xyz"[dim] + ");\n";
  }
  std::string block_code;
  steps(body, block_code);
  // A barrier as the kernel's last statement orders nothing.
  const std::string last_barrier = "__syncthreads();\n";
  if (block_code.size() >= last_barrier.size() &&
      block_code.compare(block_code.size() - last_barrier.size(), last_barrier.size(),
                         last_barrier) == 0 &&
      apply(Optimisation::LastBarrier, "the kernel's end"))
    block_code.resize(block_code.size() - last_barrier.size());
  code += block_code;

  const int nt = out_.block[0] * out_.block[1] * out_.block[2];
  int p2 = 1;  // VX_P2: the largest power of two <= VX_NT, the threads a reduction's scratch holds
  while (p2 * 2 <= nt) p2 *= 2;
  std::ostringstream k;
  k << "// " << out_.location << "\n";
  // Options that change the emitted code stand in it (and so in the kernel cache's key).
  if (const std::string changed = gate_.options().describe(); !changed.empty())
    k << "// vx emit-cuda --" << changed << "\n";
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
        k << ctype(p.scalar) << " " << base(p.slot);
        break;
      case KernelParam::Kind::Array:
        k << "vx_arr<" << ctype(p.scalar) << ", " << p.count << "> " << base(p.slot);
        break;
      case KernelParam::Kind::TensorPtr:
        k << ctype(p.scalar) << "* __restrict__ " << base(p.slot);
        break;
      case KernelParam::Kind::TensorDim:
        k << "long long " << dim(p.slot, static_cast<size_t>(p.dim));
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
  for (auto& [i, f] : device_fns_) fns += f.declaration;
  for (auto& [i, f] : device_fns_) fns += f.definition;
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
      case KernelParam::Kind::Array:
        h << "*(vx_arr<" << ctype(p.scalar) << ", " << p.count << ">*)a[" << i << "]";
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
  out_.source = indent_code(out_.source + h.str());
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

}  // namespace emit

namespace {

using emit::DeviceFn;
using emit::RegionEmitter;
using emit::Unsupported;
using tir::Expr;
using tir::ExprKind;
using tir::Stmt;
using tir::StmtKind;
using tir::walk_block;

void find_spawns(const tir::Block* b, std::vector<const Stmt*>& out) {
  if (!b) return;
  walk_block(b, [&](const Stmt* s, const Expr*) {
    if (s && s->kind == StmtKind::Spawn) out.push_back(s);
  });
}

}  // namespace

// Whether code of the region (its functions included) uses a value that an atomic changing its
// element returns: the region's results then depend on the order of the passes.
bool uses_atomic_results(const tir::Program& program, const tir::Block* body, std::set<int>& seen) {
  const std::set<const Expr*> dropped = tir::dropped_values(body);
  bool found = false;
  walk_block(body, [&](const Stmt*, const Expr* e) {
    if (!e || found) return;
    if (tir::atomic_result_used(e, dropped)) found = true;
    if (e->kind == ExprKind::Call && e->fn_index >= 0 &&
        e->fn_index < static_cast<int>(program.functions.size()) && seen.insert(e->fn_index).second)
      found = uses_atomic_results(program, program.functions[e->fn_index].body, seen);
  });
  return found;
}

std::vector<EmittedRegion> emit_regions(const tir::Program& program, const EmitOptions& options) {
  OptimisationGate gate(options);
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
    std::set<int> seen;
    r.atomic_results = uses_atomic_results(program, r.spawn->body, seen);
    std::map<int, DeviceFn> fns;
    try {
      RegionEmitter(program, r.function, *r.spawn, r, fns, gate).run();
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

// The kernels' error codes (kernel_errors.def), ahead of the prelude that uses them. vx_arith.h
// reports its two with the same numbers.
static_assert(kErrDivZero == VX_ARITH_DIV_ZERO && kErrShift == VX_ARITH_SHIFT);
const char kKernelErrors[] =
    "enum {"
#define VX_KERNEL_ERROR(Name, code) " vx_kErr" #Name " = " #code ","
#include "offload/kernel_errors.def"
#undef VX_KERNEL_ERROR
    " };\n";

const std::string& cuda_prelude() {
  static const std::string text = std::string(kKernelErrors) +
                                  std::string(
#include "offload/vx_math_text.inc"
                                      ) +
                                  "\n" +
                                  std::string(
#include "offload/vx_half_text.inc"
                                      ) +
                                  "\n" +
                                  std::string(
#include "offload/vx_arith_text.inc"
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
