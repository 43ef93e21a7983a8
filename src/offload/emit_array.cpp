// Arrays `[T; N]` in emitted kernels (spec/types.md §7, spec/offload.md): an array is a
// `vx_arr<T, size>` (vx_prelude.cuh), a struct holding its elements row-major, so it is a local
// of its pass (a register or local-memory array), copied by assignment and passed to and returned
// from __device__ functions by value; in block code, a `__shared__` one that the leader writes.
// Indexing is the tensors' (emit_expr.cpp's offset(): every index checked with vx_ix, whose
// failure sends the region back to the interpreter, which reports the error).
#include "offload/emit_cuda_impl.hpp"

namespace vx::offload::emit {

std::string value_type(const Type& t) {
  if (!t.is_array()) return ctype(t.scalar);
  return "vx_arr<" + std::string(ctype(t.scalar)) + ", " + std::to_string(t.static_size()) + ">";
}

TRef RegionEmitter::array_ref(const Expr& var) {
  const Type& t = slot_type(var.slot);
  TRef r;
  r.elem = t.scalar;
  r.mem = Memory::Hbm;  // a register or local-memory array: plain loads and stores
  r.ptr = name(var.slot) + ".v";
  for (int64_t d : t.dims) {
    r.dims.push_back(std::to_string(d) + "LL");
    r.sdims.push_back(d);
  }
  return r;
}

std::string RegionEmitter::array_lit(const Expr& e, std::string& pre) {
  const std::string a = tmp("varr");
  const int64_t n = e.type.dims[0];
  const int64_t inner = e.type.static_size() / n;
  const bool repeat = e.args.size() == 1 && n > 1;
  std::string body = value_type(e.type) + " " + a + ";\n";
  for (size_t i = 0; i < e.args.size(); ++i) {
    const std::string v = expr(*e.args[i], body);
    const std::string at = std::to_string(static_cast<int64_t>(i) * inner);
    if (e.args[i]->type.is_array()) {
      const std::string x = tmp("vel");
      body += "{\nconst " + value_type(e.args[i]->type) + " " + x + " = " + v + ";\n";
      body += "for (int vx_k = 0; vx_k < " + std::to_string(inner) + "; ++vx_k) " + a + ".v[" + at +
              " + vx_k] = " + x + ".v[vx_k];\n}\n";
    } else {
      body += a + ".v[" + at + "] = " + v + ";\n";
    }
  }
  if (repeat)
    body += "for (int vx_k = " + std::to_string(inner) + "; vx_k < " +
            std::to_string(e.type.static_size()) + "; ++vx_k) " + a + ".v[vx_k] = " + a +
            ".v[vx_k - " + std::to_string(inner) + "];\n";
  pre += body;
  return a;
}

std::string RegionEmitter::array_eq(const Expr& e, std::string& pre) {
  const Expr& l = *e.args[0];
  const std::string T = value_type(l.type);
  const std::string a = tmp("vea"), b = tmp("veb"), r = tmp("veq");
  const std::string av = expr(l, pre);
  pre += "const " + T + " " + a + " = " + av + ";\n";
  const std::string bv = expr(*e.args[1], pre);
  pre += "const " + T + " " + b + " = " + bv + ";\n";
  // Element by element with the scalars' `==` (CUDA C's, as binary() emits it).
  pre += "bool " + r + " = true;\nfor (int vx_k = 0; vx_k < " +
         std::to_string(l.type.static_size()) + "; ++vx_k) if (!(" + a + ".v[vx_k] == " + b +
         ".v[vx_k])) { " + r + " = false; break; }\n";
  return e.bop == BinOp::Ne ? "(!" + r + ")" : r;
}

}  // namespace vx::offload::emit
