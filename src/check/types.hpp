// Vx's types (spec/types.md): scalars from scalar_types.def, tensors in one of three memories,
// references to tensors and structs, copy tokens and unit.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vx {

enum class Scalar : uint8_t {
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic) E,
#include "check/scalar_types.def"
#undef VX_SCALAR
};

struct ScalarInfo {
  const char* name;
  int bits;
  bool is_int;
  bool is_signed;
  bool is_float;
  const char* cuda;  // its type in an emitted kernel
  bool atomic;       // the atomic_* families exist for it
};
const ScalarInfo& scalar_info(Scalar s);
inline bool is_int(Scalar s) { return scalar_info(s).is_int; }
inline bool is_float(Scalar s) { return scalar_info(s).is_float; }
inline bool is_signed_int(Scalar s) { return is_int(s) && scalar_info(s).is_signed; }
inline bool is_number(Scalar s) { return is_int(s) || is_float(s); }
// Finds a scalar by its name ("f32"); returns false if there is none.
bool scalar_by_name(const std::string& name, Scalar& out);

enum class Memory : uint8_t { CpuDram, Hbm, Smem };
const char* memory_name(Memory m);  // "CPU_DRAM", "HBM", "SMEM"

enum class TypeKind : uint8_t {
  Unit,    // `()`
  Scalar,  // `scalar`
  Tensor,  // `scalar`, `memory`, `dims`
  Ref,     // a reference to a tensor: `scalar`, `memory`, `dims`, `ref_mut`
  Token,   // the value of `lanes::copy_async`
  String,  // `&str`: a string slice (every one a literal, so `'static`); host code only
  Array,   // `[T; N]`, `[[T; M]; N]`: `scalar`, `dims` (outermost first); a Copy value
  Tuple,   // `(T1, T2, …)` of scalars and tuples: `elems`. The checker's only: it gives every
           // element a local of its own (check_tuple.cpp), so no tuple reaches the back ends.
           // A struct is a tuple with a `name` and `fields` (check_struct.cpp); a reference to
           // one is that tuple with `struct_ref` set (check_struct_ref.cpp)
  Error,   // the type of an expression that already failed to check (no further errors)
};

inline constexpr int64_t kUnknownDim = -1;  // `?`

struct Type {
  TypeKind kind = TypeKind::Unit;
  Scalar scalar = Scalar::I32;
  Memory memory = Memory::CpuDram;
  bool ref_mut = false;     // Ref, or a struct reference: `&mut`
  bool struct_ref = false;  // a Tuple with a `name`: `&P` or `&mut P` (check_struct_ref.cpp)
  std::vector<int64_t> dims;
  std::vector<Type> elems;          // Tuple
  std::string name;                 // a struct's name (a Tuple): "" for a tuple
  std::vector<std::string> fields;  // a struct's field names, one per element

  static Type unit() { return {}; }
  static Type kind_only(TypeKind k) {
    Type t;
    t.kind = k;
    return t;
  }
  static Type error() { return kind_only(TypeKind::Error); }
  static Type token() { return kind_only(TypeKind::Token); }
  static Type of(Scalar s) {
    Type t = kind_only(TypeKind::Scalar);
    t.scalar = s;
    return t;
  }
  static Type array(Scalar s, std::vector<int64_t> dims) {
    Type t = of(s);
    t.kind = TypeKind::Array;
    t.dims = std::move(dims);
    return t;
  }
  static Type tensor(Scalar s, Memory m, std::vector<int64_t> dims) {
    Type t = of(s);
    t.kind = TypeKind::Tensor;
    t.memory = m;
    t.dims = std::move(dims);
    return t;
  }
  bool is_scalar() const { return kind == TypeKind::Scalar; }
  bool is_scalar(Scalar s) const { return kind == TypeKind::Scalar && scalar == s; }
  bool is_array() const { return kind == TypeKind::Array; }
  bool is_tensor_like() const { return kind == TypeKind::Tensor || kind == TypeKind::Ref; }
  bool is_error() const { return kind == TypeKind::Error; }
  bool is_unit() const { return kind == TypeKind::Unit; }
  bool is_tuple() const { return kind == TypeKind::Tuple; }
  bool is_struct() const { return kind == TypeKind::Tuple && !name.empty(); }
  bool is_struct_ref() const { return is_struct() && struct_ref; }
  // The scalars a tuple holds, nested tuples' counted (1 for anything else).
  int leaf_count() const;
  int rank() const { return static_cast<int>(dims.size()); }
  // Element count when every dimension is known, else -1.
  int64_t static_size() const;
};

bool operator==(const Type& a, const Type& b);
inline bool operator!=(const Type& a, const Type& b) { return !(a == b); }
// A struct with a tensor field, or with a struct that has one: not Copy, host code only
// (spec/types.md §9). False for a tensor itself.
bool holds_tensor(const Type& t);
// How the type is written in Vx: `Tensor<f32, [64, 300], Memory::HBM>`, `&mut Tensor<…>`.
std::string type_name(const Type& t);
// A tuple's or struct's value as `{:?}` prints it, `(1, P { x: 2.5 })`, with the text of each leaf
// (a scalar or an array, in order) from `leaf`.
std::string aggregate_debug(const Type& t, const std::function<std::string(const Type&)>& leaf);

}  // namespace vx
