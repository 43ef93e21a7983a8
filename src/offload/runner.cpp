// The offload runner (spec/offload.md): a `spawn` region on the GPU, and its check against the
// interpreter. A region's whole path, in the order it is taken, all in this file:
//   run_region: tier_policy (no device, not emitted, demoted, not hot yet) → kernel (NVRTC through
//     the cache) → capture_tensors (device copies, the launch's scalars) → launch →
//     kernel_failed (its error flag: the interpreter reruns the region and reports) →
//     keep_results. A gpu launch returns true: the interpreter skips the region.
//   verify (always under --offload=verify, the first launch under auto): run_region keeps the
//     GPU's results aside and returns false, so the interpreter runs the region on the host
//     copies; the Checkpoint mark after the region (offload/marks.hpp) reaches at_mark →
//     compare_pending, which compares bit for bit (f32 atomics within their bound), reports a
//     difference and keeps a differing region on the interpreter from then on.
//   A Sync mark (host code that may touch tensors follows) → at_mark → sync_all copies the
//   device's results back.
#include "offload/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "check/tir_walk.hpp"
#include "offload/cuda_driver.hpp"
#include "offload/nvrtc.hpp"
#include "support/env_numbers.hpp"
#include "support/half.hpp"
#include "support/internal_error.hpp"

namespace vx::offload {
namespace {

using tir::BinOp;
using tir::Expr;
using tir::ExprKind;

// Normalises 64 bits to a scalar type's width (sign- or zero-extended), as frame slots hold them.
uint64_t norm(uint64_t v, Scalar s) {
  const int bits = scalar_info(s).bits;
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (is_signed_int(s) && (v >> (bits - 1)) & 1) v |= ~mask;
  return v;
}

// The value of an integer expression of a block loop's bounds: literals, captured scalars,
// operators, casts between integers, len/dim. Anything else: nullopt (the region stays on host).
std::optional<uint64_t> eval_int(const Expr& e, interp::Frame& f) {
  if (!e.type.is_scalar() || !is_int(e.type.scalar)) return std::nullopt;
  const Scalar s = e.type.scalar;
  switch (e.kind) {
    case ExprKind::Match:  // lowered before this step
    case ExprKind::Field:
      tir::unlowered();
    case ExprKind::Literal:
      return norm(static_cast<uint64_t>(e.lit.i), s);
    case ExprKind::Var:
      return norm(f.s[e.slot], s);
    case ExprKind::Cast: {
      if (!e.args[0]->type.is_scalar() || !is_int(e.args[0]->type.scalar)) return std::nullopt;
      auto a = eval_int(*e.args[0], f);
      if (!a) return std::nullopt;
      return norm(*a, s);
    }
    case ExprKind::Unary: {
      auto a = eval_int(*e.args[0], f);
      if (!a) return std::nullopt;
      return norm(e.uop == tir::UnOp::Neg ? uint64_t{0} - *a : ~*a, s);
    }
    case ExprKind::Binary: {
      auto a = eval_int(*e.args[0], f);
      auto b = eval_int(*e.args[1], f);
      if (!a || !b) return std::nullopt;
      const bool sg = is_signed_int(s);
      switch (e.bop) {
        case BinOp::Add:
          return norm(*a + *b, s);
        case BinOp::Sub:
          return norm(*a - *b, s);
        case BinOp::Mul:
          return norm(*a * *b, s);
        case BinOp::Div:
        case BinOp::Rem: {
          if (*b == 0) return std::nullopt;
          if (sg) {
            const int64_t x = static_cast<int64_t>(*a), y = static_cast<int64_t>(*b);
            if (y == -1) return norm(e.bop == BinOp::Div ? uint64_t{0} - *a : 0, s);
            return norm(static_cast<uint64_t>(e.bop == BinOp::Div ? x / y : x % y), s);
          }
          return norm(e.bop == BinOp::Div ? *a / *b : *a % *b, s);
        }
        case BinOp::BitAnd:
          return *a & *b;
        case BinOp::BitOr:
          return *a | *b;
        case BinOp::BitXor:
          return *a ^ *b;
        default:
          return std::nullopt;
      }
    }
    case ExprKind::Builtin:
      if (e.builtin == tir::BuiltinId::Len && e.args[0]->kind == ExprKind::Var) {
        const auto& v = f.t[e.args[0]->slot].view;
        return v.rank ? static_cast<uint64_t>(v.dims[0]) : 0;
      }
      return std::nullopt;
    case ExprKind::Unit:
    case ExprKind::String:
    case ExprKind::Index:
    case ExprKind::View:
    case ExprKind::Ref:
    case ExprKind::Call:
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

// `no CUDA device`, said once on stderr (spec/cli.md §2): under --error-format=json as an object of
// the diagnostics' shape (§5), a note with no code and no place, so that every line is JSON.
void say_no_device(std::ostream& err, ErrorFormat format) {
  constexpr const char* kNoDevice = "no CUDA device";
  if (format == ErrorFormat::Human) {
    err << kNoDevice << "\n";
    return;
  }
  const nlohmann::json note = {{"level", "note"},
                               {"code", nullptr},
                               {"message", kNoDevice},
                               {"spans", nlohmann::json::array()},
                               {"notes", nlohmann::json::array()},
                               {"helps", nlohmann::json::array()},
                               {"rendered", std::string(kNoDevice) + "\n"}};
  err << note.dump() << "\n";
}

// While it lives, file descriptor 1 is 2: what is written to stdout below the C++ streams (the CUDA
// driver's printf buffer, the host harness's printf) goes to stderr. Both sides are flushed at
// either end, so that nothing crosses over.
class StdoutToStderr {
 public:
  explicit StdoutToStderr(std::ostream& err) {
    std::cout.flush();
    err.flush();
    std::fflush(stdout);
    saved_ = ::dup(1);
    if (saved_ >= 0) ::dup2(2, 1);
  }
  ~StdoutToStderr() {
    std::fflush(stdout);
    if (saved_ >= 0) {
      ::dup2(saved_, 1);
      ::close(saved_);
    }
  }
  StdoutToStderr(const StdoutToStderr&) = delete;
  StdoutToStderr& operator=(const StdoutToStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace

bool build_launch(const EmittedRegion& r, interp::Frame& frame,
                  const std::function<uint64_t(int, const interp::TensorView&)>& pointer_of,
                  LaunchArgs& out, std::string& why) {
  for (size_t d = 0; d < r.grid.size(); ++d) {
    const GridLoop& g = r.grid[d];
    auto a = eval_int(*g.start, frame);
    auto b = eval_int(*g.end, frame);
    if (!a || !b) {
      why = "the range of a block loop could not be evaluated before the launch";
      return false;
    }
    const Scalar s = g.start->type.scalar;
    uint64_t count = 0;
    const bool lt =
        is_signed_int(s) ? static_cast<int64_t>(*a) < static_cast<int64_t>(*b) : *a < *b;
    if (lt)
      count = *b - *a + (g.inclusive ? 1 : 0);
    else if (g.inclusive && *a == *b)
      count = 1;
    const uint64_t limit = d == 0 ? 0x7fffffffull : 65535ull;
    if (count > limit) {
      why = "a block loop has more passes than the grid allows";
      return false;
    }
    if (count == 0) out.empty = true;
    out.grid[d] = static_cast<unsigned>(count);
  }
  out.values.assign(r.params.size(), 0);
  out.params.resize(r.params.size());
  out.arrays.assign(r.params.size(), {});
  for (size_t i = 0; i < r.params.size(); ++i) {
    const KernelParam& p = r.params[i];
    switch (p.kind) {
      case KernelParam::Kind::Scalar: {
        const uint64_t bits = frame.s[p.slot];
        std::memcpy(&out.values[i], &bits, 8);  // little-endian: low bytes hold narrow types
        break;
      }
      case KernelParam::Kind::TensorPtr:
        out.values[i] = pointer_of(p.slot, frame.t[p.slot].view);
        break;
      case KernelParam::Kind::TensorDim: {
        const auto& v = frame.t[p.slot].view;
        const int64_t d = p.dim < v.rank ? v.dims[p.dim] : 0;
        std::memcpy(&out.values[i], &d, 8);
        break;
      }
      case KernelParam::Kind::ErrorFlag: {
        int* flag = &out.error;
        out.values[i] = reinterpret_cast<uint64_t>(flag);
        break;
      }
      case KernelParam::Kind::Array: {  // vx_arr<T, count>: the elements as the frame holds them
        const auto& v = frame.t[p.slot].view;
        const auto* first = v.data;
        out.arrays[i].assign(first, first + v.size * interp::scalar_size(p.scalar));
        out.params[i] = out.arrays[i].data();
        continue;
      }
    }
    out.params[i] = &out.values[i];
  }
  return true;
}

std::string element_text(const std::byte* p, Scalar s) {
  std::ostringstream o;
  uint64_t bits = 0;
  const int bytes = std::max(1, interp::scalar_size(s));
  std::memcpy(&bits, p, static_cast<size_t>(bytes));
  switch (s) {
    case Scalar::F32: {
      float v;
      std::memcpy(&v, p, 4);
      o.precision(9);
      o << v;
      break;
    }
    case Scalar::F64: {
      double v;
      std::memcpy(&v, p, 8);
      o.precision(17);
      o << v;
      break;
    }
    case Scalar::F16:
      o << f16_bits_to_f32(static_cast<uint16_t>(bits));
      break;
    case Scalar::BF16:
      o << bf16_bits_to_f32(static_cast<uint16_t>(bits));
      break;
    default:
      if (is_signed_int(s))
        o << static_cast<int64_t>(norm(bits, s));
      else
        o << bits;
  }
  if (is_float(s)) o << " (bits 0x" << std::hex << bits << ")";
  return o.str();
}

VerifyResult compare_launch(const std::byte* host, const std::byte* gpu, size_t bytes,
                            Scalar scalar, bool float_atomics) {
  VerifyResult out;
  const size_t es = static_cast<size_t>(std::max(1, scalar_info(scalar).bits / 8));
  // A region with f32 atomics: the order of the updates is the GPU's, so float elements may differ
  // by the rounding of a different order: accepted within 2^-12 of the tensor's largest
  // magnitude (spec/offload.md); NaN where the interpreter has NaN.
  const bool loose = float_atomics && (scalar == Scalar::F32 || scalar == Scalar::F64);
  auto value = [&](const std::byte* p) {
    if (scalar == Scalar::F16 || scalar == Scalar::BF16) {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return static_cast<double>(scalar == Scalar::F16 ? f16_bits_to_f32(h) : bf16_bits_to_f32(h));
    }
    if (scalar == Scalar::F32) {
      float v;
      std::memcpy(&v, p, 4);
      return static_cast<double>(v);
    }
    double v;
    std::memcpy(&v, p, 8);
    return v;
  };
  // A NaN's sign and payload are not the program's (spec/offload.md): no operation of Vx shows
  // them, and the tiers' NaNs differ (0.0 / 0.0 is 0xffc00000 on x86 and 0x7fffffff on an
  // NVIDIA GPU, and a compiler may write `a + -b` as `a - b`, which keeps b's sign).
  const bool is_float = scalar_info(scalar).is_float;
  auto nan = [&](const std::byte* p) {
    const double v = value(p);
    return v != v;
  };
  double bound = 0;
  if (loose) {
    for (size_t k = 0; k < bytes; k += es) {
      const double h = std::fabs(value(host + k));
      if (h == h && h != HUGE_VAL) bound = std::max(bound, h);
    }
    bound *= 0x1p-12;
  }
  for (size_t k = 0; k < bytes; k += es) {
    if (std::memcmp(host + k, gpu + k, es) == 0) continue;
    if (is_float && nan(host + k) && nan(gpu + k)) continue;
    if (loose) {
      const double h = value(host + k), g = value(gpu + k);
      if (std::fabs(h - g) <= bound) {  // two NaNs went on above; a NaN and a number differ
        ++out.within;
        continue;
      }
    }
    out.first_difference = static_cast<int64_t>(k / es);
    return out;
  }
  return out;
}

// ---- the runner ---------------------------------------------------------------------------------

struct OffloadRunner::Impl {
  const tir::Program& program;
  std::ostream& err;
  std::vector<EmittedRegion> regions;
  std::map<const tir::Stmt*, size_t> by_spawn;
  bool tried_device = false, device_ok = false;
  std::string no_device_why;
  CudaDriver driver;
  Nvrtc nvrtc;
  bool compiled = false, checked_compiled = false, compile_failed = false;
  std::map<size_t, void*> functions, checked_functions;
  std::map<size_t, int> launches;
  std::set<size_t> verified, demoted, reported, loosely_verified;
  bool time_kernel = false;
  struct Stat {
    std::vector<float> ms;
    uint64_t bytes = 0;
  };
  std::map<size_t, Stat> stats;
  struct Pending {
    size_t region;
    std::vector<std::tuple<const std::byte*, std::vector<std::byte>, Scalar, std::string>> results;
  };
  std::optional<Pending> pending;

  // A host buffer's device copy, by the host data pointer (DESIGN §5's validity flags).
  struct Resident {
    uint64_t dev = 0;
    size_t bytes = 0;
    bool dev_valid = false, host_valid = true;
    bool adopted = false;  // adopt_device_memory: the caller's device memory, never freed here
  };
  std::map<std::byte*, Resident> resident;
  uint64_t err_dev = 0;

  // The entry for [host, host + bytes): reused when it exists with that size; entries that
  // overlap it otherwise (another view of the same memory, a buffer freed and reused) are
  // written back if the device holds their only valid copy, and dropped.
  Resident* resident_for(std::byte* host, size_t bytes) {
    for (auto& [at, r] : resident)  // part of adopted memory: not a device copy of its own
      if (r.adopted && at < host + bytes && host < at + r.bytes &&
          !(at == host && r.bytes == bytes))
        return nullptr;
    for (auto it = resident.begin(); it != resident.end();) {
      const bool same = it->first == host && it->second.bytes == bytes;
      const bool overlap = it->first < host + bytes && host < it->first + it->second.bytes;
      if (overlap && !same) {
        write_back(it->first, it->second);
        driver.free(it->second.dev);
        it = resident.erase(it);
      } else {
        ++it;
      }
    }
    auto it = resident.find(host);
    if (it != resident.end()) return &it->second;
    Resident r;
    r.bytes = bytes;
    if (!driver.alloc(bytes, &r.dev)) return nullptr;
    return &resident.emplace(host, r).first->second;
  }
  uint64_t write_back(std::byte* host, Resident& r) {
    if (r.host_valid) return 0;
    driver.download(host, r.dev, r.bytes);
    r.host_valid = true;
    return r.bytes;
  }
  // An HBM tensor's storage is being freed: its device copy goes too, unread (nothing can read
  // the tensor any more; writing it back would write freed memory).
  static void forget(void* self, const std::byte* data, size_t bytes) {
    Impl& m = *static_cast<Impl*>(self);
    for (auto it = m.resident.begin(); it != m.resident.end();) {
      if (it->first < data + bytes && data < it->first + it->second.bytes) {
        if (!it->second.adopted) m.driver.free(it->second.dev);
        it = m.resident.erase(it);
      } else {
        ++it;
      }
    }
  }
  // The end of a run (copy_back): every host copy valid, but adopted memory's device copy, which
  // is the tensor (uploaded when host code wrote it last; the host copy is then valid too).
  uint64_t settle() {
    uint64_t bytes = 0;
    for (auto& [host, r] : resident) {
      if (!r.adopted) {
        bytes += write_back(host, r);
        r.dev_valid = false;
      } else if (!r.dev_valid) {
        driver.upload(r.dev, host, r.bytes);
        r.dev_valid = true;
        bytes += r.bytes;
      }
    }
    return bytes;
  }
  // Opens the driver on the first call (said once when there is no device).
  bool open_device(ErrorFormat format) {
    if (!tried_device) {
      tried_device = true;
      device_ok = driver.open(no_device_why);
      if (!device_ok) say_no_device(err, format);
    }
    return device_ok;
  }
  // Before host code: every host copy valid, and no device copy trusted (host code may write).
  uint64_t sync_all() {
    uint64_t bytes = 0;
    for (auto& [host, r] : resident) {
      bytes += write_back(host, r);
      r.dev_valid = false;
    }
    return bytes;
  }

  Impl(const tir::Program& p, std::ostream& e) : program(p), err(e) {}
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  // Device memory goes with the runner (the host copies are written back before: finish()).
  ~Impl() {
    if (!driver.ready()) return;
    for (auto& [host, r] : resident)
      if (!r.adopted) driver.free(r.dev);
    if (err_dev) driver.free(err_dev);
  }

  // ---- the steps of run_region, in the order it takes them

  // A captured tensor of the launch being prepared: its device copy (Resident), or none when
  // two captured views share memory.
  struct Buf {
    Resident* res = nullptr;
    std::byte* host = nullptr;
    Scalar scalar = Scalar::F32;
    std::string name;
  };
  struct Launch {
    LaunchArgs args;
    std::vector<Buf> bufs;
    bool host_exact = true;  // every host copy was valid before the launch
    uint64_t moved = 0;      // bytes copied between host and device
    float ms = 0;
  };

  void compare_pending(bool verbose);
  bool on_host(size_t ri, const std::string& why, bool verbose);
  std::string tier_policy(size_t ri, int count, const OffloadOptions& options);
  bool kernel(size_t ri, bool checked, void*& fn, std::string& why);
  bool capture_tensors(size_t ri, interp::Frame& frame, bool verify, Launch& l, std::string& why);
  bool launch(size_t ri, void* fn, Launch& l, std::string& why);
  bool kernel_failed(size_t ri, Launch& l);
  void keep_results(size_t ri, bool verify, bool eager, Launch& l);
};

// At a checkpoint (the end of a verified region): the GPU's results of the region's last launch
// compared with the interpreter's; the region is verified, or demoted to the interpreter.
void OffloadRunner::Impl::compare_pending(bool verbose) {
  if (!pending) return;
  const size_t ri = pending->region;
  const EmittedRegion& r = regions[ri];
  bool same = true;
  size_t within = 0;  // float elements accepted within the bound of unordered atomics
  for (auto& [host, gpu, scalar, name] : pending->results) {
    const VerifyResult v = compare_launch(host, gpu.data(), gpu.size(), scalar, r.float_atomics);
    within += v.within;
    if (v.first_difference >= 0) {
      const size_t es = static_cast<size_t>(std::max(1, scalar_info(scalar).bits / 8));
      const size_t k = static_cast<size_t>(v.first_difference) * es;
      err << "vx: verify: the region at " << r.location << " differs from the interpreter: `"
          << name << "` element " << v.first_difference << ": GPU "
          << element_text(gpu.data() + k, scalar) << ", interpreter "
          << element_text(host + k, scalar);
      if (r.atomic_results) {
        // Not a fault of either tier (spec/kernel-rules.md §8): said, never silent, not demoted.
        err << "; the region uses values that atomics return, which depend on the order of the "
               "passes: both results are the program's\n";
        ++within;
        break;
      }
      err << "; the region stays on the interpreter\n";
      same = false;
      break;
    }
  }
  if (same)
    verified.insert(ri);
  else
    demoted.insert(ri);
  if (same && within) loosely_verified.insert(ri);
  if (same && within && verbose)
    err << "vx: verify: the region at " << r.location << ": " << within
        << " float element(s) differ within the bound for f32 atomics (spec/offload.md)\n";
  pending.reset();
}

// The region runs on the interpreter (said once under -v, with the reason); returns false.
bool OffloadRunner::Impl::on_host(size_t ri, const std::string& why, bool verbose) {
  sync_all();
  if (verbose && reported.insert(ri).second)
    err << "vx: " << regions[ri].location << ": region runs on the interpreter: " << why << "\n";
  return false;
}

// The tier policy (spec/offload.md): why the region's `count`-th launch stays on the host, or ""
// when it goes to the GPU. Opens the driver on the first region that asks.
std::string OffloadRunner::Impl::tier_policy(size_t ri, int count, const OffloadOptions& options) {
  const EmittedRegion& r = regions[ri];
  if (!open_device(options.error_format)) return "no CUDA device (" + no_device_why + ")";
  if (!r.ok) return "not emitted: " + r.reason;
  if (demoted.count(ri)) return "its GPU result differed from the interpreter's";
  if (options.mode == "auto" && count <= options.threshold)
    return "not hot yet (" + std::to_string(options.threshold) + " launches; VX_OFFLOAD_THRESHOLD)";
  return {};
}

// The region's kernel in `fn`, or false with the reason. The kernels: one module for the program,
// compiled on first use, and for verify launches of regions that call fast_exp/fast_tanh a second
// one built with VX_CHECK_FAST (vx_prelude.cuh).
bool OffloadRunner::Impl::kernel(size_t ri, bool checked, void*& fn, std::string& why) {
  std::map<size_t, void*>& fns = checked ? checked_functions : functions;
  bool& done = checked ? checked_compiled : compiled;
  if (!done && !compile_failed) {
    std::string load_why;
    if (!nvrtc.load(load_why)) {
      compile_failed = true;
      no_device_why = load_why;
    } else {
      std::vector<char> cubin;
      std::string log;
      void* module = nullptr;
      bool cached = false;
      std::vector<std::string> extra;
      if (checked) extra.push_back("-DVX_CHECK_FAST");
      const auto t0 = std::chrono::steady_clock::now();
      const bool built =
          nvrtc.compile(cuda_translation_unit(regions), driver.arch(), cubin, log, &cached, extra);
      const auto t1 = std::chrono::steady_clock::now();
      const bool loaded = built && driver.load_module(cubin, &module, log);
      const auto t2 = std::chrono::steady_clock::now();
      if (time_kernel && loaded) {
        const auto ms = [](auto a, auto b) {
          return std::chrono::duration<double, std::milli>(b - a).count();
        };
        err << "vx: kernels: " << regions.size() << " region(s) for " << driver.arch()
            << (checked ? " (fast_* checked)" : "") << ", "
            << (cached ? "read from the cache" : "compiled by NVRTC " + nvrtc.version()) << " in "
            << ms(t0, t1) << " ms, module loaded in " << ms(t1, t2) << " ms\n";
      }
      if (!loaded) {
        compile_failed = true;
        no_device_why = "the kernels did not compile: " + log;
      } else {
        for (size_t i = 0; i < regions.size(); ++i) {
          void* f = nullptr;
          if (regions[i].ok && driver.get_function(module, regions[i].name, &f, log)) fns[i] = f;
        }
        done = true;
      }
    }
    if (compile_failed) err << "vx: offload: " << no_device_why << "\n";
  }
  if (!done || !fns.count(ri)) {
    why = no_device_why.empty() ? "no kernel" : no_device_why;
    return false;
  }
  fn = fns[ri];
  return true;
}

// The launch's arguments, and the captured tensors' device copies (Impl::Resident): uploaded only
// where the device copy is not valid; after the launch the device copy is the valid one until a
// mark. False, with the reason, when the region must stay on the host.
bool OffloadRunner::Impl::capture_tensors(size_t ri, interp::Frame& frame, bool verify, Launch& l,
                                          std::string& why) {
  const EmittedRegion& r = regions[ri];
  const tir::Function& fn = program.functions[static_cast<size_t>(r.function)];
  bool alloc_ok = true, overlap = false;
  if (verify) sync_all();  // the interpreter runs the region too, on the host copies
  auto pointer_of = [&](int slot, const interp::TensorView& v) -> uint64_t {
    Buf b;
    b.scalar = fn.slot_types[static_cast<size_t>(slot)].scalar;
    b.name = fn.slot_names[static_cast<size_t>(slot)];
    b.host = reinterpret_cast<std::byte*>(v.data);
    const size_t bytes =
        static_cast<size_t>(v.size) * static_cast<size_t>(interp::scalar_size(b.scalar));
    for (const Buf& o : l.bufs)  // two captured views of one memory: not on the device (yet)
      if (o.res && o.host < b.host + bytes && b.host < o.host + o.res->bytes &&
          !(o.host == b.host && o.res->bytes == bytes))
        overlap = true;
    if (overlap) {
      l.bufs.push_back(b);
      return 0;
    }
    b.res = resident_for(b.host, bytes);
    if (!b.res) {
      alloc_ok = false;
    } else {
      l.host_exact = l.host_exact && b.res->host_valid;
      if (!b.res->dev_valid) {
        if (!driver.upload(b.res->dev, b.host, bytes)) alloc_ok = false;
        b.res->dev_valid = true;
        l.moved += bytes;
      }
    }
    l.bufs.push_back(b);
    return b.res ? b.res->dev : 0;
  };
  std::string launch_why;
  if (!build_launch(r, frame, pointer_of, l.args, launch_why) || !alloc_ok || overlap) {
    sync_all();
    if (overlap)
      why = "two of its tensors are views of the same memory";
    else
      why = alloc_ok ? launch_why : "device memory for its tensors could not be allocated";
    return false;
  }
  if (!err_dev && !driver.alloc(sizeof(int), &err_dev)) {
    sync_all();
    why = "device memory for its error flag could not be allocated";
    return false;
  }
  const int zero = 0;
  driver.upload(err_dev, &zero, sizeof zero);
  for (size_t i = 0; i < r.params.size(); ++i)
    if (r.params[i].kind == KernelParam::Kind::ErrorFlag) l.args.values[i] = err_dev;
  return true;
}

// The launch itself (none when a block loop has no pass). False, with the driver's reason, when
// it failed: the region is demoted and what the device holds is forgotten.
bool OffloadRunner::Impl::launch(size_t ri, void* fn, Launch& l, std::string& why) {
  const EmittedRegion& r = regions[ri];
  if (l.args.empty) return true;
  // A kernel with `dbg!` prints with CUDA's printf, which the driver writes to stdout when the
  // launch ends; its lines are no output of the program's, so stdout is stderr meanwhile.
  std::optional<StdoutToStderr> debug_lines;
  if (r.prints) debug_lines.emplace(err);
  if (driver.launch(fn, l.args.grid, r.block, l.args.params.data(), &l.ms, why, r.dynamic_smem))
    return true;
  for (auto& b : l.bufs) b.res->dev_valid = false;  // whatever the device holds now is unknown
  sync_all();
  demoted.insert(ri);
  return false;
}

// Whether the kernel set its error flag. A runtime error: the interpreter reruns the region and
// reports it. Where the host copies were valid before the launch they still are (the device's
// partial results are dropped); otherwise the device copies are the only state there is
// (spec/offload.md).
bool OffloadRunner::Impl::kernel_failed(size_t ri, Launch& l) {
  int flag = 0;
  driver.download(&flag, err_dev, sizeof flag);
  if (flag == 0) return false;
  for (auto& b : l.bufs) {
    if (!l.host_exact && !b.res->host_valid) {
      driver.download(b.host, b.res->dev, b.res->bytes);
      b.res->host_valid = true;
    }
    b.res->dev_valid = false;
  }
  sync_all();
  if (flag == kErrFastBound) {  // a fast_* instruction outside its documented bound
    err << "vx: verify: the region at " << regions[ri].location
        << ": a fast_exp/fast_tanh result on the GPU is outside its documented bound "
           "(spec/math.md §4); the "
           "region stays on the interpreter\n";
    demoted.insert(ri);
  }
  return true;
}

// After a launch: a verify launch keeps the GPU's results for the checkpoint to compare (the
// interpreter's are the ones kept); otherwise the device copies are the valid ones (copied back
// at once when `eager`). Then the timing and the --profile statistics.
void OffloadRunner::Impl::keep_results(size_t ri, bool verify, bool eager, Launch& l) {
  const EmittedRegion& r = regions[ri];
  if (verify) {
    Pending p;
    p.region = ri;
    for (auto& b : l.bufs) {
      std::vector<std::byte> out(b.res->bytes);
      driver.download(out.data(), b.res->dev, b.res->bytes);
      l.moved += b.res->bytes;
      b.res->dev_valid = false;  // the interpreter's result is the one kept
      p.results.emplace_back(b.host, std::move(out), b.scalar, b.name);
    }
    pending = std::move(p);
  } else {
    for (auto& b : l.bufs) b.res->host_valid = false;
    if (eager) l.moved += sync_all();
  }
  if (time_kernel)
    err << "vx: kernel " << r.location << ": " << l.ms << " ms, grid " << l.args.grid[0] << "x"
        << l.args.grid[1] << "x" << l.args.grid[2] << ", block " << r.block[0] << "x" << r.block[1]
        << "x" << r.block[2] << "\n";
  stats[ri].ms.push_back(l.ms);
  stats[ri].bytes += l.moved;
}

namespace {

// VX_OFFLOAD_THRESHOLD's value: unset, nullopt and no error.
std::optional<int> offload_threshold(std::string* error) {
  if (const auto v = env_count("VX_OFFLOAD_THRESHOLD", 0, INT32_MAX, "launches", error))
    return static_cast<int>(*v);
  return std::nullopt;
}

}  // namespace

std::string offload_environment_error() {
  std::string error;
  offload_threshold(&error);
  if (error.empty()) kernel_cache_limit(&error);
  return error;
}

OffloadRunner::OffloadRunner(const tir::Program& program, const OffloadOptions& options,
                             std::ostream& err)
    : impl_(std::make_unique<Impl>(program, err)), options_(options) {
  std::string threshold_error;  // offload_environment_error says it before a run
  if (const std::optional<int> t = offload_threshold(&threshold_error)) options_.threshold = *t;
  if (const char* t = std::getenv("VX_TIME_KERNEL")) impl_->time_kernel = std::string(t) == "1";
  if (!active()) return;
  interp::g_hbm_free_listener = {&Impl::forget, impl_.get()};
  impl_->regions = emit_regions(program, options_.emit);
  for (size_t i = 0; i < impl_->regions.size(); ++i) impl_->by_spawn[impl_->regions[i].spawn] = i;
}

OffloadRunner::~OffloadRunner() {
  if (interp::g_hbm_free_listener.context == impl_.get()) interp::g_hbm_free_listener = {};
}

void OffloadRunner::at_mark(const tir::Mark& mark, interp::Frame&) {
  if (mark.kind == tir::MarkKind::Sync)  // host code that may touch tensors follows
    impl_->sync_all();
  else  // the end of a region: compare a verify launch's results
    impl_->compare_pending(options_.verbose);
}

void OffloadRunner::copy_back() { impl_->settle(); }

bool OffloadRunner::adopt_device_memory(std::byte* host, uint64_t dev, size_t bytes,
                                        std::string& why) {
  Impl& m = *impl_;
  if (!active()) {
    why = "the offload tier is off";
    return false;
  }
  if (!m.open_device(options_.error_format)) {
    why = "no CUDA device (" + m.no_device_why + ")";
    return false;
  }
  Impl::Resident r;
  r.dev = dev;
  r.bytes = bytes;
  r.dev_valid = true;
  r.host_valid = false;
  r.adopted = true;
  m.resident[host] = r;
  return true;
}

const tir::Stmt* OffloadRunner::region_without_device(std::string& why) {
  for (const EmittedRegion& r : impl_->regions) {
    if (!r.ok) continue;
    if (!impl_->tried_device) {
      impl_->tried_device = true;
      impl_->device_ok = impl_->driver.open(impl_->no_device_why);
    }
    if (impl_->device_ok) return nullptr;
    why = impl_->no_device_why;
    return r.spawn;
  }
  return nullptr;
}

bool OffloadRunner::run_region(const tir::Stmt& spawn, interp::Frame& frame) {
  Impl& m = *impl_;
  auto it = m.by_spawn.find(&spawn);
  if (it == m.by_spawn.end()) {
    m.sync_all();
    return false;
  }
  const size_t ri = it->second;
  const int count = ++m.launches[ri];
  std::string why = m.tier_policy(ri, count, options_);
  if (!why.empty()) return m.on_host(ri, why, options_.verbose);
  const bool verify =
      options_.mode == "verify" || (options_.mode == "auto" && !m.verified.count(ri));
  const bool checked = verify && m.regions[ri].source.find("vx_fast_") != std::string::npos;
  void* fn = nullptr;
  if (!m.kernel(ri, checked, fn, why)) return m.on_host(ri, why, options_.verbose);
  Impl::Launch l;
  if (!m.capture_tensors(ri, frame, verify, l, why)) return m.on_host(ri, why, options_.verbose);
  if (!m.launch(ri, fn, l, why)) return m.on_host(ri, why, options_.verbose);
  if (m.kernel_failed(ri, l)) return false;  // the interpreter reruns it and reports the error
  m.keep_results(ri, verify, eager_, l);
  return !verify;  // verify: the interpreter runs it too; the checkpoint after the region compares
}

void OffloadRunner::finish() {
  Impl& m = *impl_;
  if (options_.verbose) {
    for (auto& [ri, st] : m.stats)
      m.err << "vx: " << m.regions[ri].location << ": " << st.ms.size() << " GPU launch(es)"
            << (m.loosely_verified.count(ri) ? ", verified within the bound for f32 atomics"
                : m.verified.count(ri)       ? ", verified bit-identical"
                                             : "")
            << (m.demoted.count(ri) ? ", differed from the interpreter" : "") << "\n";
  }
  if (!options_.profile) return;
  m.err << "vx profile: region                                   launches  median ms    bytes "
           "moved     GB/s\n";
  for (auto& [ri, st] : m.stats) {
    std::vector<float> v = st.ms;
    std::sort(v.begin(), v.end());
    const double med = v.empty() ? 0 : v[v.size() / 2];
    const double gbs =
        med > 0 ? static_cast<double>(st.bytes) / static_cast<double>(v.size()) / (med * 1e6) : 0;
    char line[256];
    std::snprintf(line, sizeof line, "vx profile: %-40s %8zu %10.4f %14llu %8.1f\n",
                  m.regions[ri].location.c_str(), v.size(), med,
                  static_cast<unsigned long long>(st.bytes), gbs);
    m.err << line;
  }
  if (m.stats.empty()) m.err << "vx profile: no region ran on the GPU\n";
}

}  // namespace vx::offload
