// The CUDA emitter's collectives (emit_cuda_impl.hpp): statements that every thread of the block
// runs together: lanes:: reductions in the tree order of DESIGN §3.7 (so the bits equal the
// interpreter's), lanes::sort, copy_async between HBM and a tile, and its wait.
#include <algorithm>

#include "offload/emit_cuda_impl.hpp"
#include "support/internal_error.hpp"

namespace vx::offload::emit {

// builtins.def's collective rows (form Let or Statement): a Reduce row through the shared tree,
// any other through the member its emit column names.
void RegionEmitter::collective(const Stmt& s, const Expr& e, std::string& out) {
#define VX_BLOCK_KIND(E, emit) \
  case BuiltinId::E:           \
    return emit(s, e, out);
#define VX_BLOCK_KIND_Reduce(E, emit) \
  case BuiltinId::E:                  \
    return reduce(s, out);
#define VX_BLOCK_KIND_Lanes VX_BLOCK_KIND
#define VX_BLOCK_KIND_Copy VX_BLOCK_KIND
#define VX_BLOCK_KIND_Atomic VX_BLOCK_KIND
#define VX_BLOCK_KIND_Fence VX_BLOCK_KIND
#define VX_BLOCK_KIND_Method VX_BLOCK_KIND
#define VX_BLOCK_KIND_Query VX_BLOCK_KIND
#define VX_BLOCK_KIND_Debug VX_BLOCK_KIND
#define VX_BLOCK_FORM_Value(E, kind, emit)
#define VX_BLOCK_FORM_Let(E, kind, emit) VX_BLOCK_KIND_##kind(E, emit)
#define VX_BLOCK_FORM_Statement VX_BLOCK_FORM_Let
#define VX_BUILTIN(E, spelling, kind, arity, result, effect, place, form, interp, emit) \
  VX_BLOCK_FORM_##form(E, kind, emit)
  switch (e.builtin) {
#include "check/builtins.def"
    default:
      break;
  }
#undef VX_BUILTIN
#undef VX_BLOCK_FORM_Value
#undef VX_BLOCK_FORM_Let
#undef VX_BLOCK_FORM_Statement
#undef VX_BLOCK_KIND
#undef VX_BLOCK_KIND_Reduce
#undef VX_BLOCK_KIND_Lanes
#undef VX_BLOCK_KIND_Copy
#undef VX_BLOCK_KIND_Atomic
#undef VX_BLOCK_KIND_Fence
#undef VX_BLOCK_KIND_Method
#undef VX_BLOCK_KIND_Query
#undef VX_BLOCK_KIND_Debug
  internal_error(std::string("a collective call of ") + tir::builtin_spelling(e.builtin) +
                 " that builtins.def does not mark collective");
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
  decls_ << "__shared__ " << ctype(slot_type(s.slot).scalar) << " " << shared(s.slot) << ";\n";
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
           "LL) { vx_fail(vx_err, vx_kErrLanesN); " + n + " = 1; }\n";
    need_scratch(t.elem, e.builtin == BuiltinId::LanesArgmax, true);
    reduce_general(s, t, n, out);
  }
  out += "}\n";
}

namespace {

// builtins.def's Reduce rows' emit column: a := a op x (and, for argmax, ai := xi when x wins).
std::string sum_step(Scalar elem, const std::string& a, const std::string&, const std::string& x,
                     const std::string&) {
  return a + " = " + (is_float(elem) ? a + " + " + x : "vx_add(" + a + ", " + x + ")") + ";\n";
}
std::string max_step(Scalar, const std::string& a, const std::string&, const std::string& x,
                     const std::string&) {
  return a + " = vx_maxm(" + a + ", " + x + ");\n";
}
std::string argmax_step(Scalar, const std::string& a, const std::string& ai, const std::string& x,
                        const std::string& xi) {
  return "if (vx_argmax_takes(" + a + ", " + ai + ", " + x + ", (int)(" + xi + "))) { " + a +
         " = " + x + "; " + ai + " = (int)(" + xi + "); }\n";
}

}  // namespace

// a := a op x for the reduction b: its row's step.
std::string RegionEmitter::combine(BuiltinId b, Scalar elem, const std::string& a,
                                   const std::string& ai, const std::string& x,
                                   const std::string& xi) const {
#define VX_STEP_Reduce(E, emit) \
  case BuiltinId::E:            \
    return emit(elem, a, ai, x, xi);
#define VX_STEP_OTHER(E, emit)
#define VX_STEP_Lanes VX_STEP_OTHER
#define VX_STEP_Atomic VX_STEP_OTHER
#define VX_STEP_Fence VX_STEP_OTHER
#define VX_STEP_Copy VX_STEP_OTHER
#define VX_STEP_Method VX_STEP_OTHER
#define VX_STEP_Query VX_STEP_OTHER
#define VX_STEP_Debug VX_STEP_OTHER
#define VX_BUILTIN(E, spelling, kind, arity, result, effect, place, form, interp, emit) \
  VX_STEP_##kind(E, emit)
  switch (b) {
#include "check/builtins.def"
    default:
      break;
  }
#undef VX_BUILTIN
#undef VX_STEP_Reduce
#undef VX_STEP_OTHER
#undef VX_STEP_Lanes
#undef VX_STEP_Atomic
#undef VX_STEP_Fence
#undef VX_STEP_Copy
#undef VX_STEP_Method
#undef VX_STEP_Query
#undef VX_STEP_Debug
  internal_error(std::string("a combining step for ") + tir::builtin_spelling(b));
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
  const std::string result = shared(s.slot);
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
  const std::string result = shared(s.slot);
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
  if (p > 1024 ||
      !apply(Optimisation::WarpReductions,
             std::string(tir::builtin_spelling(e.builtin)) + " into `" + result + "`")) {
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

void RegionEmitter::sort(const Stmt&, const Expr& e, std::string& out) {
  std::string pre;
  TRef t = tensor_ref(*e.args[0], pre);
  const int64_t size = t.static_size();
  if (size <= 0) unsupported("lanes::sort on a tile whose size is not a constant");
  const std::string T = ctype(t.elem);
  const std::string n = tmp("sn");
  std::string nv = as_index(*e.args[1], pre);
  out += "{ // lanes::sort: odd-even transposition (stable, NaN last)\n" + pre;
  out += "long long " + n + " = " + nv + ";\n";
  out += "if (" + n + " < 1 || " + n + " > " + std::to_string(size) +
         "LL) { vx_fail(vx_err, vx_kErrLanesN); " + n + " = 1; }\n";
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

void RegionEmitter::copy_async(const Stmt& s, const Expr& e, std::string& out) {
  if (s.kind == StmtKind::Let) slots_[s.slot].store = Store::Reg;  // the token
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

// `tok.wait()`: cp.async copies of this thread done, then every thread's visible
// (spec/offload.md).
void RegionEmitter::wait(const Stmt&, const Expr&, std::string& out) {
  out +=
      "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\nasm "
      "volatile(\"cp.async.wait_all;\" ::: "
      "\"memory\");\n__syncthreads();\n#endif\n";
}

}  // namespace vx::offload::emit
