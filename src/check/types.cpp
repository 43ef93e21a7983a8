#include "check/types.hpp"

namespace vx {

const ScalarInfo& scalar_info(Scalar s) {
  static const ScalarInfo table[] = {
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic) \
  {name, bits, is_int, is_signed, is_float, cuda, atomic},
#include "check/scalar_types.def"
#undef VX_SCALAR
  };
  return table[static_cast<int>(s)];
}

bool scalar_by_name(const std::string& name, Scalar& out) {
#define VX_SCALAR(E, n, ctype, bits, is_int, is_signed, is_float, cuda, atomic) \
  if (name == n) {                                                              \
    out = Scalar::E;                                                            \
    return true;                                                                \
  }
#include "check/scalar_types.def"
#undef VX_SCALAR
  return false;
}

const char* memory_name(Memory m) {
  switch (m) {
    case Memory::CpuDram:
      return "CPU_DRAM";
    case Memory::Hbm:
      return "HBM";
    case Memory::Smem:
      return "SMEM";
  }
  return "?";
}

bool holds_tensor(const Type& t) {
  for (const Type& e : t.elems)
    if (e.kind == TypeKind::Tensor || holds_tensor(e)) return true;
  return false;
}

int64_t Type::static_size() const {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    n *= d;
  }
  return n;
}

int Type::leaf_count() const {
  if (kind != TypeKind::Tuple) return 1;
  int n = 0;
  for (const Type& e : elems) n += e.leaf_count();
  return n;
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case TypeKind::Scalar:
      return a.scalar == b.scalar;
    case TypeKind::Ref:
      if (a.ref_mut != b.ref_mut) return false;
      [[fallthrough]];
    case TypeKind::Tensor:
      return a.scalar == b.scalar && a.memory == b.memory && a.dims == b.dims;
    case TypeKind::Array:
      return a.scalar == b.scalar && a.dims == b.dims;
    case TypeKind::Tuple:
      return a.name == b.name && a.elems == b.elems && a.struct_ref == b.struct_ref &&
             (!a.struct_ref || a.ref_mut == b.ref_mut);
    default:
      return true;
  }
}

std::string aggregate_debug(const Type& t, const std::function<std::string(const Type&)>& leaf) {
  if (!t.is_tuple()) return leaf(t);
  std::string s = t.is_struct() ? t.name + " { " : "(";
  for (size_t i = 0; i < t.elems.size(); ++i) {
    if (i) s += ", ";
    if (t.is_struct()) s += t.fields[i] + ": ";
    s += aggregate_debug(t.elems[i], leaf);
  }
  return s + (t.is_struct() ? " }" : t.elems.size() == 1 ? ",)" : ")");
}

std::string type_name(const Type& t) {
  switch (t.kind) {
    case TypeKind::Unit:
      return "()";
    case TypeKind::Scalar:
      return scalar_info(t.scalar).name;
    case TypeKind::Token:
      return "Token";
    case TypeKind::String:
      return "&str";
    case TypeKind::Error:
      return "{error}";
    case TypeKind::Array: {  // `[[f32; 3]; 2]`: the outermost length last
      std::string s = scalar_info(t.scalar).name;
      for (size_t i = t.dims.size(); i-- > 0;) s = "[" + s + "; " + std::to_string(t.dims[i]) + "]";
      return s;
    }
    case TypeKind::Tuple: {
      if (t.struct_ref) return (t.ref_mut ? "&mut " : "&") + t.name;
      if (!t.name.empty()) return t.name;
      std::string s = "(";
      for (size_t i = 0; i < t.elems.size(); ++i) s += (i ? ", " : "") + type_name(t.elems[i]);
      return s + (t.elems.size() == 1 ? ",)" : ")");
    }
    case TypeKind::Tensor:
    case TypeKind::Ref: {
      std::string s = t.kind == TypeKind::Ref ? (t.ref_mut ? "&mut " : "&") : "";
      s += "Tensor<";
      s += scalar_info(t.scalar).name;
      s += ", [";
      for (size_t i = 0; i < t.dims.size(); ++i) {
        if (i) s += ", ";
        s += t.dims[i] < 0 ? "?" : std::to_string(t.dims[i]);
      }
      s += "]";
      if (t.memory != Memory::CpuDram) s += std::string(", Memory::") + memory_name(t.memory);
      return s + ">";
    }
  }
  return "?";
}

}  // namespace vx
