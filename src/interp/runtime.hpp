// The interpreter's run-time values: scalars in 8-byte slots, tensors (owned storage and
// non-owning views), frames, and the runtime-error exception. Shared by the executable tree
// (interpreter.cpp and its helpers) and by a region runner that runs `spawn on` regions
// elsewhere (DESIGN §2). See interpreter.cpp for how the pieces fit together.
#pragma once
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "check/types.hpp"
#include "support/format.hpp"
#include "support/half.hpp"
#include "support/internal_error.hpp"
#include "support/source.hpp"

namespace vx::interp {

// ---- Scalars ------------------------------------------------------------------------------------

// f16 and bf16 are stored as their bits; distinct types so that templates tell them from u16.
struct F16 {
  uint16_t bits;
};
struct BF16 {
  uint16_t bits;
};

// The C++ type that holds each Vx scalar (scalar_types.def, with F16/BF16 for the halves).
template <Scalar S>
struct CType;
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic)               \
  template <>                                                                                    \
  struct CType<Scalar::E> {                                                                      \
    using type = std::conditional_t<Scalar::E == Scalar::F16, F16,                               \
                                    std::conditional_t<Scalar::E == Scalar::BF16, BF16, ctype>>; \
  };
#include "check/scalar_types.def"
#undef VX_SCALAR
template <Scalar S>
using ctype_t = typename CType<S>::type;

template <class T>
inline constexpr bool kIsHalf = std::is_same_v<T, F16> || std::is_same_v<T, BF16>;
template <class T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
inline constexpr bool kIsFloat = std::is_floating_point_v<T> || kIsHalf<T>;

// A scalar slot holds 8 bytes: integers sign- or zero-extended to 64 bits (so an index reads the
// same whatever its type), f32/f16/bf16 as their bits in the low bytes, f64 as its bits, bool 0/1.
template <class T>
inline uint64_t to_bits(T v) {
  if constexpr (std::is_same_v<T, bool>)
    return v ? 1 : 0;
  else if constexpr (kIsInt<T> && std::is_signed_v<T>)
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  else if constexpr (kIsInt<T>)
    return static_cast<uint64_t>(v);
  else if constexpr (kIsHalf<T>)
    return v.bits;
  else if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<uint32_t>(v);
  else
    return std::bit_cast<uint64_t>(v);
}
template <class T>
inline T from_bits(uint64_t b) {
  if constexpr (std::is_same_v<T, bool>)
    return (b & 1) != 0;
  else if constexpr (kIsInt<T>)
    return static_cast<T>(b);
  else if constexpr (kIsHalf<T>)
    return T{static_cast<uint16_t>(b)};
  else if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<float>(static_cast<uint32_t>(b));
  else
    return std::bit_cast<double>(b);
}

inline float to_f32(F16 h) { return f16_bits_to_f32(h.bits); }
inline float to_f32(BF16 h) { return bf16_bits_to_f32(h.bits); }
template <class H>
inline H half_from_f32(float f) {
  if constexpr (std::is_same_v<H, F16>)
    return F16{f32_to_f16_bits(f)};
  else
    return BF16{f32_to_bf16_bits(f)};
}
template <class H>
inline H half_from_f64(double d) {
  if constexpr (std::is_same_v<H, F16>)
    return F16{f64_to_f16_bits(d)};
  else
    return BF16{f64_to_bf16_bits(d)};
}

int scalar_size(Scalar s);  // bytes of one element in a tensor

// ---- Tensors ------------------------------------------------------------------------------------

// The storage of one tensor: its elements in row-major order, and for an SMEM tile made with
// `uninit()` one flag per element saying whether it was written.
// Called when an HBM tensor's storage is freed (before its memory goes), so that a holder of a
// copy of it elsewhere (the offload tier's device copies) forgets it. Set by one runner at a
// time; HBM storages are made and freed by host code only.
using StorageFreeHook = void (*)(void* context, const std::byte* data, size_t bytes);
struct StorageFreeListener {
  StorageFreeHook hook = nullptr;
  void* context = nullptr;
};
inline StorageFreeListener g_hbm_free_listener;

// The bytes of tensor storage live now (elements and init flags, all threads), and the budget a
// new tensor is checked against (VX_MEMORY_LIMIT, spec/semantics.md §8.1; run_program sets it).
inline std::atomic<int64_t> g_tensor_bytes{0};
inline int64_t g_memory_limit = INT64_MAX;

// The bytes a tensor of `elem` with `dims` takes (elements, and init flags when `uninit`);
// INT64_MAX when that does not fit.
int64_t tensor_bytes(Scalar elem, const std::vector<int64_t>& dims, bool uninit);

struct TensorStorage {
  Scalar elem = Scalar::F32;
  Memory memory = Memory::CpuDram;
  std::vector<int64_t> dims;
  int64_t size = 0;   // number of elements
  int64_t bytes = 0;  // counted in g_tensor_bytes
  std::byte* data = nullptr;
  std::unique_ptr<uint8_t[]> init;  // null: every element is initialised
  // The storage's identity for `--check-races` (0: none yet; given at its first recorded access,
  // so that a later storage at the same address is another buffer).
  uint64_t race_id = 0;

  TensorStorage(Scalar e, Memory m, std::vector<int64_t> d, bool uninit);
  ~TensorStorage();
  TensorStorage(const TensorStorage&) = delete;
  TensorStorage& operator=(const TensorStorage&) = delete;
};

// What indexing reads: the first element, the dims (a suffix of the storage's dims, so a view of
// `t[i]` shares them) and the init flags of the same elements. Views are contiguous (row-major
// sub-tensors), so the offset of [i0, i1, …] is Horner's rule over dims and needs no strides.
struct TensorView {
  std::byte* data = nullptr;
  uint8_t* init = nullptr;  // null when every element is initialised
  const int64_t* dims = nullptr;
  int rank = 0;
  int64_t size = 0;  // elements in the view
  TensorStorage* storage = nullptr;
};

// A view of all of a storage's elements.
inline TensorView whole_view(TensorStorage& s) {
  return {s.data, s.init.get(), s.dims.data(), static_cast<int>(s.dims.size()), s.size, &s};
}

// A tensor-like local: a tensor it owns, or (owned == null) a reference to another's elements.
struct TensorSlot {
  TensorView view;
  std::unique_ptr<TensorStorage> owned;

  void own(std::unique_ptr<TensorStorage> s);
  void clear() {
    owned.reset();
    view = {};
  }
};

// ---- Frames -------------------------------------------------------------------------------------

struct ExecContext;

// One activation of a function. Both arrays are indexed by the TIR slot number; a slot of a
// scalar (or unit or token) type uses `s`, a tensor or reference uses `t`.
struct Frame {
  uint64_t* s = nullptr;
  TensorSlot* t = nullptr;
  ExecContext* ctx = nullptr;
  uint64_t ret_bits = 0;  // the value of `return`, when it is not a tensor
  TensorSlot ret_tensor;  // the value of `return`, when it is a tensor
  // Flow::Jump (a labelled `break`/`continue` of a loop further out): the loops still to leave,
  // and whether the last one is continued rather than left.
  int jump_levels = 0;
  bool jump_continue = false;

  explicit Frame(int slot_count) : scalars_(slot_count), tensors_(slot_count) {
    s = scalars_.data();
    t = tensors_.data();
  }
  std::vector<uint64_t> scalars_;
  std::vector<TensorSlot> tensors_;
};

// ---- Runtime errors -----------------------------------------------------------------------------

// The pass of an across loop that a runtime error left: the loop's level, the block or lane that
// runs the pass (the pass's number from 0, modulo the lanes for a lane loop, as the GPU runs it),
// the loop's variable and its value.
struct ErrorPass {
  bool block = false;  // a block loop; else a lane loop
  int64_t index = 0;   // the block or the lane
  std::string var;
  std::string value;
};

// Thrown only on the error path; run_program catches it and prints the diagnostic.
struct RuntimeError {
  Span span;
  std::string message;
  std::vector<ErrorPass> passes;  // of the across loops it left, innermost first
  bool names_passes = false;      // the message names its passes itself (a data race's two)
};
[[noreturn]] void runtime_error(Span span, std::string message);
// " in block 3 lane 4 (`b` = 3, `l` = 4)": the passes an error left, for its message (issue 19);
// empty outside across loops. The .uir runner names a lane a thread (`lane_word`).
std::string pass_suffix(const std::vector<ErrorPass>& passes, const char* lane_word = "lane");
// Adds the pass with the loop variable's `bits` of an across loop from `start` to an error
// leaving it; `lanes` is the lane loop's lane count (0 for a block loop).
template <class T>
void add_pass(RuntimeError& e, const std::string& var, T start, uint64_t bits, int64_t lanes) {
  if (e.names_passes) return;
  const T v = from_bits<T>(bits);
  const __int128 pass = static_cast<__int128>(v) - static_cast<__int128>(start);
  const __int128 index = lanes > 0 ? pass % lanes : pass;
  e.passes.push_back({lanes == 0, static_cast<int64_t>(index), var, std::to_string(v)});
}

// A broken invariant of vx itself (InternalError, internal_error): support/internal_error.hpp.

// The run limits of `vx run --max-steps N --max-seconds S` (spec/semantics.md §8.1), shared by the
// interpreter and the .uir runner; and the REPL's interrupt (spec/cli.md §7.3): a flag that a
// SIGINT handler sets, read at the same checks (every loop pass and call), which then stop the run
// with a runtime error whose message is kInterrupted.
struct RunLimits {
  int64_t max_steps = INT64_MAX;
  int64_t steps = 0;
  double max_seconds = 0;                        // 0: no time limit
  int64_t deadline_ns = 0;                       // CLOCK_MONOTONIC
  const std::atomic<bool>* interrupt = nullptr;  // null: not interruptible
  // The limits of a run that starts now; 0 is no limit (interpreter.cpp).
  static RunLimits starting_now(int64_t max_steps, double max_seconds,
                                const std::atomic<bool>* interrupt = nullptr);
  // Steps or time are counted: the run keeps to one host thread, so the count is the same from
  // run to run. An interrupt alone counts nothing, and is read from any number of threads.
  bool counts() const { return max_steps != INT64_MAX || max_seconds > 0; }
  // Anything to check at all.
  bool limited() const { return counts() || interrupt != nullptr; }
  // Counts `n` steps at `span`; a runtime error when the run passes a limit or was interrupted
  // (interpreter.cpp).
  void charge(int64_t n, Span span);
  // The interrupt alone, for code that counted its steps in bulk before a long stretch.
  void poll(Span span) const {
    if (interrupt && interrupt->load(std::memory_order_relaxed)) [[unlikely]]
      interrupted(span);
  }
  [[noreturn]] static void interrupted(Span span);
};
// The message of the runtime error an interrupt ends a run with.
inline constexpr const char* kInterrupted = "interrupted";

// Calls fn(T{}) with the C++ type of `s` (a default-constructed value as a type tag).
template <class F>
decltype(auto) with_scalar(Scalar s, F&& fn) {
  switch (s) {
#define VX_SCALAR(E, name, ctype, bits, is_int, is_signed, is_float, cuda, atomic) \
  case Scalar::E:                                                                  \
    return fn(ctype_t<Scalar::E>{});
#include "check/scalar_types.def"
#undef VX_SCALAR
  }
  return fn(int32_t{});
}

// The slot bits (to_bits) of a tensor element of type `s` stored at `p`.
inline uint64_t element_bits(Scalar s, const std::byte* p) {
  return with_scalar(s, [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, p, sizeof v);
    return to_bits(v);
  });
}

// A `&str` value's slot bits: the text, kept for the life of the process (strings.cpp), and back.
uint64_t intern_string(const std::string& text);
const std::string& string_of(uint64_t bits);

// A scalar's value as Vx prints it (print.cpp): with a format spec, Display, Debug; and
// equality as `assert_eq!` compares (`==` on the values).
std::string format_scalar(Scalar s, uint64_t bits, const fmt::Spec& spec);
std::string scalar_text(Scalar s, uint64_t bits);
std::string scalar_debug(Scalar s, uint64_t bits);
bool scalar_equal(Scalar s, uint64_t a, uint64_t b);
// An array (arrays.cpp): two of scalar type `s` equal element by element (`==`); one as `{:?}`
// prints it, each element under `spec`.
bool array_equal(Scalar s, const TensorView& a, const TensorView& b);
std::string format_array(Scalar s, const TensorView& v, const fmt::Spec& spec);

}  // namespace vx::interp
