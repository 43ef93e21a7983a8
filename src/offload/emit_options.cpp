// The emitter's optimisations by name, and the gate of its decisions (emit_options.hpp).
#include "offload/emit_options.hpp"

#include <sstream>

namespace vx::offload {

namespace {

constexpr const char* kNames[] = {
#define VX_OPTIMISATION(Id, name, what, without) name,
#include "offload/optimisations.def"
#undef VX_OPTIMISATION
};

}  // namespace

const char* optimisation_name(Optimisation o) { return kNames[static_cast<size_t>(o)]; }

std::optional<Optimisation> optimisation_by_name(std::string_view name) {
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (name == kNames[i]) return static_cast<Optimisation>(i);
  return std::nullopt;
}

std::string optimisation_names() {
  std::string all;
  for (const char* n : kNames) all += (all.empty() ? "" : ", ") + std::string(n);
  return all;
}

std::string EmitOptions::describe() const {
  std::string d;
  if (!off.empty()) {
    d = "no-opt=";
    bool first = true;
    for (Optimisation o : off) {
      d += (first ? "" : ",") + std::string(optimisation_name(o));
      first = false;
    }
  }
  if (bisect_limit >= 0)
    d += (d.empty() ? "" : " ") + std::string("opt-bisect-limit=") + std::to_string(bisect_limit);
  return d;
}

bool parse_no_opt(const std::string& list, std::set<Optimisation>& off, std::string& error) {
  std::istringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (name == "all") {
      for (size_t i = 0; i < std::size(kNames); ++i) off.insert(static_cast<Optimisation>(i));
      continue;
    }
    const std::optional<Optimisation> o = optimisation_by_name(name);
    if (!o) {
      error = "`" + name + "` is not an optimisation of the CUDA emitter (" + optimisation_names() +
              ", or all)";
      return false;
    }
    off.insert(*o);
  }
  return true;
}

bool OptimisationGate::apply(Optimisation o, const std::string& region, const std::string& what) {
  if (options_.off.count(o)) return false;
  if (options_.bisect_limit < 0) return true;
  const bool applied = ++decisions_ <= options_.bisect_limit;
  if (options_.bisect_log)
    *options_.bisect_log << "BISECT: " << (applied ? "applying" : "NOT applying")
                         << " optimisation (" << decisions_ << ") " << optimisation_name(o)
                         << " on " << region << " (" << what << ")\n";
  return applied;
}

}  // namespace vx::offload
