// Lowering with the values a region captures (spec/uir.md §7): read from the interpreter's frame
// at the region's entry, through the RegionRunner hook that the offload tier also uses. Serves
// `vx lower --to=uir --run` and tests/uir_test.cpp.
#include <cstring>
#include <map>
#include <sstream>

#include "interp/interpreter.hpp"
#include "uir/uir.hpp"

namespace vx::uir {

uint64_t element_bits(const interp::TensorView& v, Scalar s, int64_t k) {
  int n = interp::scalar_size(s);
  uint64_t b = 0;
  std::memcpy(&b, v.data + k * n, n);
  if (is_signed_int(s) && n < 8 && ((b >> (8 * n - 1)) & 1)) b |= ~uint64_t(0) << (8 * n);
  return b;
}

CaptureSource frame_values(const tir::Function& fn, const interp::Frame& frame) {
  return [&fn, &frame](int slot) -> std::optional<Captured> {
    const Type& t = fn.slot_types[slot];
    Captured c;
    if (t.is_tensor_like()) {
      const interp::TensorView& v = frame.t[slot].view;
      if (!v.data && v.size > 0) return std::nullopt;
      c.bits.reserve(v.size);
      for (int64_t k = 0; k < v.size; ++k) c.bits.push_back(element_bits(v, t.scalar, k));
      c.dims.assign(v.dims, v.dims + v.rank);
    } else {
      c.bits.push_back(frame.s[slot]);
    }
    return c;
  };
}

namespace {

// Lowers each region at its first launch; the interpreter then runs it as usual.
class FirstLaunch final : public interp::RegionRunner {
 public:
  explicit FirstLaunch(const tir::Program& p) : p_(p) {
    for (auto [f, s] : program_regions(p)) fn_of_[s] = f;
  }
  bool run_region(const tir::Stmt& spawn, interp::Frame& frame) override {
    auto it = fn_of_.find(&spawn);
    if (it == fn_of_.end() || lowered_.count(&spawn)) return false;
    CaptureSource values = frame_values(*it->second, frame);
    lowered_.emplace(&spawn, lower_region(p_, *it->second, spawn, &values));
    return false;
  }
  std::map<const tir::Stmt*, LoweredRegion> lowered_;

 private:
  const tir::Program& p_;
  std::map<const tir::Stmt*, const tir::Function*> fn_of_;
};

}  // namespace

int lower_running(const tir::Program& program, std::ostream& out, std::ostream& err) {
  FirstLaunch hook(program);
  std::ostringstream dropped;
  RunOptions run;
  run.out = &dropped;
  run.err = &err;
  run.runner = &hook;
  int status = interp::run_program(program, run);
  for (auto [f, s] : program_regions(program)) {
    auto it = hook.lowered_.find(s);
    LoweredRegion r = it != hook.lowered_.end() ? it->second : lower_region(program, *f, *s);
    if (it == hook.lowered_.end()) out << "# " << r.location << ": this region never ran\n";
    print_lowered(out, r);
  }
  return status;
}

}  // namespace vx::uir
