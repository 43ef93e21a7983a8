// What `vx emit-cuda` and `vx run --offload` may tell the CUDA emitter: which of its
// optimisations (optimisations.def) are off, and how many of its decisions to apply one are kept
// (LLVM's -opt-bisect-limit), for finding the optimisation behind a wrong GPU result. Needs
// nothing; spec/offload.md §1.2, spec/cli.md.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>

namespace vx::offload {

enum class Optimisation : uint8_t {
#define VX_OPTIMISATION(Id, name, what, without) Id,
#include "offload/optimisations.def"
#undef VX_OPTIMISATION
};

const char* optimisation_name(Optimisation o);
std::optional<Optimisation> optimisation_by_name(std::string_view name);
// Every name, comma-separated, in the table's order (for messages and --help).
std::string optimisation_names();

struct EmitOptions {
  std::set<Optimisation> off;  // --no-opt=NAME,…
  int64_t bisect_limit = -1;   // --opt-bisect-limit=N: only decisions 1 … N apply; -1: all
  std::ostream* bisect_log = nullptr;  // where each decision is said under a limit (stderr)
  // "" for the defaults, else the options as a kernel's comment shows them (and so as the kernel
  // cache's key holds them): `no-opt=dense-tiles,register-tiles opt-bisect-limit=3`.
  std::string describe() const;
};

// `--no-opt`'s value: names separated by commas, or `all`. False, with `error`, on a name that
// is not an optimisation's.
bool parse_no_opt(const std::string& list, std::set<Optimisation>& off, std::string& error);

// The decisions of one emission (every region of a program, in order), numbered from 1: each
// place where the emitter could apply an optimisation asks apply(), once.
class OptimisationGate {
 public:
  explicit OptimisationGate(const EmitOptions& options) : options_(options) {}
  // Whether to apply `o` at this decision (`region` and `what` say where, for the log): false
  // when it is off, or when a bisect limit is set and this decision's number is past it. Under a
  // limit each decision is logged as LLVM's are: `BISECT: applying optimisation (3) NAME on
  // REGION (WHAT)`, or `BISECT: NOT applying …`.
  bool apply(Optimisation o, const std::string& region, const std::string& what);
  const EmitOptions& options() const { return options_; }

 private:
  const EmitOptions& options_;
  int64_t decisions_ = 0;
};

}  // namespace vx::offload
