// The CUDA emitter's expressions (emit_cuda_impl.hpp): scalars' C types, literals and wrapping
// arithmetic, tensor operands (views, bounds-checked offsets), and every expression kind, each
// emitted as a C expression after the statements it needs (`pre`).
#include <algorithm>
#include <cstdio>

#include "offload/emit_cuda_impl.hpp"
#include "support/half.hpp"
#include "support/internal_error.hpp"

namespace vx::offload::emit {

const char* ctype(Scalar s) { return scalar_info(s).cuda; }  // check/scalar_types.def

std::string int_literal(Scalar s, int64_t v) {
  const char* t = ctype(s);
  if (!is_signed_int(s) && s != Scalar::Bool) {
    return "((" + std::string(t) + ")" + std::to_string(static_cast<uint64_t>(v)) + "ull)";
  }
  if (v == INT64_MIN) return "((long long)(-9223372036854775807LL - 1))";
  return "((" + std::string(t) + ")(" + std::to_string(v) + "LL))";
}

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

// The name of an operator's function in numeric/vx_arith.h (parse/operators.def).
const char* arith_function(BinOp op) {
  static const char* names[] = {
#define VX_BINOP(E, spelling, precedence, cls, compound, fn) #fn,
#include "parse/operators.def"
#undef VX_BINOP
  };
  return names[static_cast<int>(op)];
}

// `a op b` for the arithmetic, bit and shift operators on `s` (the interpreter's meaning:
// integers wrap, division and shifts check their operands): on integers, the operator's function
// of vx_arith.h; on floats, C's operator, which is IEEE's (and vx_frem for `%`). The bit
// operators are C's on both: `&`, `|`, `^` of one integer type cannot overflow. Binary
// expressions and compound assignments both use it.
std::string arith(BinOp op, Scalar s, Scalar amount, const std::string& a, const std::string& b) {
  const bool fl = is_float(s);
  const std::string T = ctype(s);
  const std::string f = arith_function(op);
  switch (op) {
    case BinOp::Add:
    case BinOp::Sub:
    case BinOp::Mul:
      return fl ? "(" + a + " " + tir::binop_spelling(op) + " " + b + ")"
                : f + "(" + a + ", " + b + ")";
    case BinOp::Div:
      return fl ? "(" + a + " / " + b + ")" : f + "(" + a + ", " + b + ", vx_err)";
    case BinOp::Rem:
      return fl ? "vx_frem(" + a + ", " + b + ")" : f + "(" + a + ", " + b + ", vx_err)";
    case BinOp::BitAnd:
    case BinOp::BitOr:
    case BinOp::BitXor:
      return "((" + T + ")(" + a + " " + tir::binop_spelling(op) + " " + b + "))";
    case BinOp::Shl:
    case BinOp::Shr: {
      const std::string amt = is_signed_int(amount) ? "(unsigned long long)(long long)(" + b + ")"
                                                    : "(unsigned long long)(" + b + ")";
      return f + "(" + a + ", " + amt + ", vx_err)";
    }
    default:
      unsupported("this operator");
  }
}

// ---- tensors ------------------------------------------------------------------------------------

TRef RegionEmitter::tensor_ref(const Expr& e, std::string& pre) {
  if (e.kind == ExprKind::Ref) return tensor_ref(*e.args[0], pre);
  if (e.kind == ExprKind::Var) {
    const Type& t = slot_type(e.slot);
    if (t.is_array()) return array_ref(e);
    if (!t.is_tensor_like()) unsupported("a tensor operand that is not a tensor");
    TRef r;
    r.elem = t.scalar;
    r.mem = t.memory;
    if (auto ref = local_refs_.find(e.slot); ref != local_refs_.end()) return ref->second;
    auto it = slots_.find(e.slot);
    if (t.kind == TypeKind::Ref && (it == slots_.end() || it->second.store != Store::Param))
      unsupported("a local reference to a tensor in device code");
    if (t.memory == Memory::CpuDram) unsupported("a CPU_DRAM tensor in device code");
    if (it != slots_.end() && it->second.store == Store::RegTile)
      unsupported("a register tile used whole (an emitter bug)");
    if (it != slots_.end() && it->second.store == Store::Tile) {
      r.ptr = shared(e.slot);
      if (it->second.uninit) r.init = shared(e.slot) + "_init";
      for (auto d : t.dims) {
        r.dims.push_back(std::to_string(d) + "LL");
        r.sdims.push_back(d);
      }
      return r;
    }
    if (it != slots_.end() && it->second.store == Store::Param) {
      r.ptr = base(e.slot);
      for (size_t k = 0; k < t.dims.size(); ++k) {
        if (t.dims[k] == kUnknownDim) {
          r.dims.push_back(dim(e.slot, k));
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

std::string RegionEmitter::as_index(const Expr& e, std::string& pre) {
  std::string v = expr(e, pre);
  if (is_signed_int(e.type.scalar)) return "(long long)(" + v + ")";
  return "(long long)(unsigned long long)(" + v + ")";
}

std::string RegionEmitter::offset(const TRef& t, const Expr& e, size_t first, std::string& pre) {
  std::string off;
  for (size_t k = first; k < e.args.size(); ++k) {
    const size_t d = k - first;
    const auto iv = interval(*e.args[k]);
    const bool safe =
        iv && d < t.sdims.size() && t.sdims[d] > 0 && iv->first >= 0 && iv->second < t.sdims[d] &&
        apply(Optimisation::ProvenIndices, "index " + std::to_string(d) + " of `" + t.ptr + "`");
    std::string ix = safe ? as_index(*e.args[k], pre)
                          : "vx_ix(" + as_index(*e.args[k], pre) + ", " + t.dims[d] + ", vx_err)";
    off = off.empty() ? ix : "(" + off + ") * " + t.dims[d] + " + " + ix;
  }
  return off.empty() ? "0LL" : off;
}

// The register that holds the element `e` (an Index) of a register tile, or nullopt when e's
// tensor is not one.
std::optional<std::string> RegionEmitter::reg_tile_elem(const Expr& e) {
  const int slot = e.args[0]->kind == ExprKind::Var ? e.args[0]->slot : -1;
  auto it = slots_.find(slot);
  if (it == slots_.end() || it->second.store != Store::RegTile) return std::nullopt;
  const int64_t stride = must_find(reg_tiles_, slot);
  for (auto& [var, pass] : passes_)
    if (auto c = owned_offset(*e.args[1], var)) {
      const int64_t reg = (pass.lo + *c) / stride;
      const std::string r = registers(slot) + "[";
      return pass.counter == "0" ? r + std::to_string(reg) + "]"
                                 : r + pass.counter + " + " + std::to_string(reg) + "]";
    }
  unsupported("a register tile's element outside its lane loops (an emitter bug)");
}

// ---- expressions --------------------------------------------------------------------------------

std::string RegionEmitter::expr(const Expr& e, std::string& pre) {
  switch (e.kind) {
    case ExprKind::Match:  // lowered before this step
    case ExprKind::Field:
      tir::unlowered();
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
      if (e.type.is_array()) return name(e.slot);
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
      pre += value_type(e.type) + " " + t + ";\n";
      std::string then_pre, else_pre;
      std::string tv = block_value(e.block, e.type, then_pre);
      std::string ev = e.else_block ? block_value(e.else_block, e.type, else_pre) : "0";
      pre += "if (" + c + ") {\n" + then_pre + t + " = " + tv + ";\n} else {\n" + else_pre + t +
             " = " + ev + ";\n}\n";
      return t;
    }
    case ExprKind::BlockExpr:
      return block_value(e.block, e.type, pre);
    case ExprKind::ArrayLit:
      return array_lit(e, pre);
    case ExprKind::String:
      unsupported("a string in device code");
    case ExprKind::Print:
      unsupported("println!/print! in device code");
    case ExprKind::Assert:
      unsupported("assert! in device code");
    case ExprKind::View:
    case ExprKind::Ref:
    case ExprKind::TensorNew:
    case ExprKind::Transfer:
      unsupported("this expression kind in device code");
  }
  internal_error("unknown expression kind");
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
  pre += value_type(type) + " " + t + ";\n{\n" + body + p2 + t + " = " + v + ";\n}\n";
  return t;
}

std::string RegionEmitter::binary(const Expr& e, std::string& pre) {
  if (e.args[0]->type.is_array()) return array_eq(e, pre);
  const Scalar s = e.args[0]->type.scalar;
  if (e.bop == BinOp::And || e.bop == BinOp::Or) {
    std::string a = expr(*e.args[0], pre);
    std::string rp;
    std::string b = expr(*e.args[1], rp);
    const char* op = tir::binop_spelling(e.bop);  // `&&`, `||`, as in CUDA C
    if (rp.empty()) return "(" + a + " " + op + " " + b + ")";
    const std::string t = tmp("vl");
    pre += "bool " + t + " = " + a + ";\n";
    pre += std::string("if (") + (e.bop == BinOp::And ? "" : "!") + t + ") {\n" + rp + t + " = " +
           b + ";\n}\n";
    return t;
  }
  std::string a = expr(*e.args[0], pre);
  std::string b = expr(*e.args[1], pre);
  if (tir::binop_class(e.bop) == tir::OpClass::Compare)  // CUDA C spells them as Vx does
    return "(" + a + " " + tir::binop_spelling(e.bop) + " " + b + ")";
  return arith(e.bop, s, e.args[1]->type.scalar, a, b);
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
  // modular (a char is its code point), or int -> float (nearest)
  if (is_int(from) || from == Scalar::Char) return "((" + T + ")(" + a + "))";
  // from a float
  if (is_int(to)) return std::string("vx_sat_") + scalar_info(to).name + "((double)(" + a + "))";
  return "((" + T + ")(" + a + "))";
}

std::string RegionEmitter::call(const Expr& e, std::string& pre) {
  device_function(e.fn_index);
  const tir::Function& f = prog_.functions[static_cast<size_t>(e.fn_index)];
  std::string r = device_fn_name(e.fn_index) + "(";
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
  for (int out : e.out_slots) r += name(out) + ", ";
  return r + "vx_err)";
}

// builtins.def's emit column: an Atomic row's is the prelude's function, any other value row's
// the member called here. A collective row stands as a step of block code (collective, in
// emit_collectives.cpp), never in an expression.
std::string RegionEmitter::builtin(const Expr& e, std::string& pre) {
#define VX_EMIT_VALUE(E, emit) \
  case BuiltinId::E:           \
    return emit(e, pre);
#define VX_EMIT_Atomic(E, emit) \
  case BuiltinId::E:            \
    return atomic(e, #emit, pre);
#define VX_EMIT_Lanes VX_EMIT_VALUE
#define VX_EMIT_Fence VX_EMIT_VALUE
#define VX_EMIT_Copy VX_EMIT_VALUE
#define VX_EMIT_Method VX_EMIT_VALUE
#define VX_EMIT_Query VX_EMIT_VALUE
#define VX_EMIT_Debug VX_EMIT_VALUE
#define VX_EMIT_FORM_Value(E, kind, emit) VX_EMIT_##kind(E, emit)
#define VX_EMIT_COLLECTIVE(E, kind, emit) \
  case BuiltinId::E:                      \
    return block_statement(e, pre);
#define VX_EMIT_FORM_Let VX_EMIT_COLLECTIVE
#define VX_EMIT_FORM_Statement VX_EMIT_COLLECTIVE
#define VX_BUILTIN(E, spelling, kind, arity, result, effect, place, form, interp, emit) \
  VX_EMIT_FORM_##form(E, kind, emit)
  switch (e.builtin) {
#include "check/builtins.def"
  }
#undef VX_BUILTIN
#undef VX_EMIT_FORM_Value
#undef VX_EMIT_COLLECTIVE
#undef VX_EMIT_FORM_Let
#undef VX_EMIT_FORM_Statement
#undef VX_EMIT_VALUE
#undef VX_EMIT_Atomic
#undef VX_EMIT_Lanes
#undef VX_EMIT_Fence
#undef VX_EMIT_Copy
#undef VX_EMIT_Method
#undef VX_EMIT_Query
#undef VX_EMIT_Debug
  internal_error("a built-in outside builtins.def");
}

// A method of floats (numeric/math.def's rows), and an integer's pow.
std::string RegionEmitter::math_method(const Expr& e, std::string& pre) {
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
  // A binary method: both operands in order (each may add statements to `pre`).
  auto f2 = [&](const char* f32, const char* f64) -> std::string {
    const std::string a = a0();
    const std::string b = expr(*e.args[1], pre);
    if (s == Scalar::F32) return std::string(f32) + "(" + a + ", " + b + ")";
    if (s == Scalar::F64) return std::string(f64) + "(" + a + ", " + b + ")";
    if (is_half(s)) return narrow(std::string(f32) + "(vx_widen(" + a + "), vx_widen(" + b + "))");
    ctype(s);
    unsupported("a math method on a non-float");
  };
  if (e.builtin == BuiltinId::Pow && !is_float(s)) {  // an integer's pow: a u32 exponent
    ctype(s);
    const std::string a = a0();
    return "vx_ipow(" + a + ", (unsigned int)(" + expr(*e.args[1], pre) + "))";
  }
  switch (e.builtin) {
    // numeric/math.def's rows. A FAST row's f32 is vx_<name>_k: the instruction, or under
    // VX_CHECK_FAST (verify) the instruction checked against its bound and the exact value
    // passed on (vx_prelude.cuh).
#define VX_MATH_EXACT(Id, spelling, f32, f64, libm, mpfr) \
  case BuiltinId::Id:                                     \
    return f(#f32, #f64);
#define VX_MATH_ROUNDING(Id, spelling, f32, f64) \
  case BuiltinId::Id:                            \
    return f(#f32, #f64);
#define VX_MATH_FAST(Id, spelling, f32, f64)                                                 \
  case BuiltinId::Id:                                                                        \
    if (s == Scalar::F32) return std::string("vx_") + spelling + "_k(" + a0() + ", vx_err)"; \
    return f(#f32, #f64);
#define VX_MATH_BINARY(Id, spelling, f32, f64) \
  case BuiltinId::Id:                          \
    return f2(#f32, #f64);
#include "numeric/math.def"
#undef VX_MATH_EXACT
#undef VX_MATH_ROUNDING
#undef VX_MATH_FAST
#undef VX_MATH_BINARY
    default:
      internal_error(std::string("the math method ") + tir::builtin_spelling(e.builtin));
  }
}

// The methods of integers and floats: the prelude's function of each type.
std::string RegionEmitter::abs_method(const Expr& e, std::string& pre) {
  ctype(e.args[0]->type.scalar);
  return "vx_abs(" + expr(*e.args[0], pre) + ")";
}
std::string RegionEmitter::min_method(const Expr& e, std::string& pre) {
  return prelude_call("vx_minm", e, pre);
}
std::string RegionEmitter::max_method(const Expr& e, std::string& pre) {
  return prelude_call("vx_maxm", e, pre);
}
// fn(a, b) of the receiver and the argument, in order (each may add statements to `pre`).
std::string RegionEmitter::prelude_call(const char* fn, const Expr& e, std::string& pre) {
  ctype(e.args[0]->type.scalar);
  std::string a = expr(*e.args[0], pre);
  return std::string(fn) + "(" + a + ", " + expr(*e.args[1], pre) + ")";
}

std::string RegionEmitter::len_query(const Expr& e, std::string& pre) {
  TRef t = tensor_ref(*e.args[0], pre);
  return t.dims.empty() ? "0" : "((int)(" + t.dims[0] + "))";
}

// `dbg!(x)` (spec/builtins.md §7): x in a local, and a printf of the interpreter's line, except
// that floats are printf's `%.9g` (f32, f16, bf16) or `%.17g` (f64): the same value, perhaps
// other digits. CUDA's printf writes to stdout; the runner sends it to stderr (runner.cpp).
std::string RegionEmitter::dbg(const Expr& e, std::string& pre) {
  auto quoted = [](const std::string& text) {  // a C string of printf's format
    std::string q;
    for (char c : text) {
      if (c == '%')
        q += "%%";
      else if (c == '"' || c == '\\')
        q += std::string("\\") + c;
      else if (c == '\n')
        q += "\\n";
      else
        q += c;
    }
    return q;
  };
  // printf's conversion of a scalar and the argument it takes.
  auto conversion = [&](Scalar s, const std::string& v) -> std::pair<std::string, std::string> {
    if (s == Scalar::Bool) return {"%s", "((" + v + ") ? \"true\" : \"false\")"};
    if (s == Scalar::Char) return {"'\\\\u{%x}'", "(unsigned)(" + v + ")"};
    if (s == Scalar::F64) return {"%.17g", "(double)(" + v + ")"};
    if (s == Scalar::F32) return {"%.9g", "(double)(" + v + ")"};
    if (is_half(s)) return {"%.9g", "(double)vx_widen(" + v + ")"};
    if (scalar_info(s).is_signed) return {"%lld", "(long long)(" + v + ")"};
    return {"%llu", "(unsigned long long)(" + v + ")"};
  };
  const std::string x = expr(*e.args[0], pre);
  const std::string v = tmp("dbg");
  pre += value_type(e.type) + " " + v + " = " + x + ";\n";
  const LineCol at = prog_.file->line_col(e.span.begin);
  std::string format = "[" + quoted(prog_.file->path()) + ":" + std::to_string(at.line) + ":" +
                       std::to_string(at.col);
  std::string args;
  for (size_t k = 1; k < e.args.size(); ++k) {
    auto [conv, arg] = conversion(e.args[k]->type.scalar, expr(*e.args[k], pre));
    format += " " + quoted(e.args[k]->text) + "=" + conv;
    args += ", " + arg;
  }
  auto [conv, arg] = conversion(e.type.scalar, v);
  format += "] " + quoted(e.text) + " = " + conv + "\\n";
  pre += "printf(\"" + format + "\"" + args + ", " + arg + ");\n";
  out_.prints = true;
  return v;
}

std::string RegionEmitter::dim_query(const Expr& e, std::string& pre) {
  TRef t = tensor_ref(*e.args[0], pre);
  if (e.args[1]->kind != ExprKind::Literal) unsupported("dim(k) with k not a literal");
  const int64_t k = e.args[1]->lit.i;
  if (k < 0 || k >= static_cast<int64_t>(t.dims.size())) unsupported("dim(k) out of the rank");
  return "((int)(" + t.dims[static_cast<size_t>(k)] + "))";
}

std::string RegionEmitter::scoped_fence(const Expr& e, std::string& pre) {
  static const char* const kFences[] = {
#define VX_FENCE_SCOPE(Name, cuda) cuda,
#include "check/orderings.def"
#undef VX_FENCE_SCOPE
  };
  const int64_t device = static_cast<int64_t>(tir::FenceScope::Device);
  int64_t scope =
      e.args.size() > 1 && e.args[1]->kind == ExprKind::Literal ? e.args[1]->lit.i : device;
  if (scope < 0 || scope > static_cast<int64_t>(tir::FenceScope::System)) scope = device;
  pre += std::string(kFences[scope]) + "();\n";
  return "0";
}

// A collective row (builtins.def's form) as a value: collective emits them as steps of block code.
std::string RegionEmitter::block_statement(const Expr& e, std::string&) {
  unsupported(std::string(tir::builtin_spelling(e.builtin)) +
              " here (lanes:: routines and copy_async stand as the whole value of a `let` in "
              "block code)");
}

// An Atomic row: `fn` (builtins.def's emit column, `vx_at_add`) of the element's address and the
// values, between the fences its ordering asks for.
std::string RegionEmitter::atomic(const Expr& e, const char* fn, std::string& pre) {
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
  // The fences of its ordering (check/orderings.def); SeqCst where it is not a literal.
  static const bool kBefore[] = {
#define VX_ORDERING(Name, before, after, order) before,
#include "check/orderings.def"
#undef VX_ORDERING
  };
  static const bool kAfter[] = {
#define VX_ORDERING(Name, before, after, order) after,
#include "check/orderings.def"
#undef VX_ORDERING
  };
  const int64_t seq_cst = static_cast<int64_t>(tir::AtomicOrdering::SeqCst);
  int64_t ord = e.args.back()->kind == ExprKind::Literal ? e.args.back()->lit.i : seq_cst;
  if (ord < 0 || ord > seq_cst) ord = seq_cst;
  const bool before = kBefore[ord], after = kAfter[ord];
  const char* fence = t.mem == Memory::Smem ? "__threadfence_block();\n" : "__threadfence();\n";
  std::vector<std::string> vals;
  for (size_t k = 2; k + 1 < e.args.size(); ++k) vals.push_back(expr(*e.args[k], pre));
  const std::string p = "(" + t.ptr + " + " + idx + ")";
  std::string call = std::string(fn) + "(" + p;
  for (const std::string& v : vals) call += ", " + v;
  call += ")";
  if (before) pre += fence;
  if (tir::builtin_row(e.builtin).result == tir::BuiltinResult::Unit) {  // atomic_store
    pre += call + ";\n";
    if (after) pre += fence;
    return "0";
  }
  const std::string r = tmp("va");
  pre += std::string(ctype(t.elem)) + " " + r + " = " + call + ";\n";
  if (after) pre += fence;
  return r;
}

}  // namespace vx::offload::emit
