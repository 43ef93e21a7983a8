// The accesses a call makes through one reference argument (spec/kernel-rules.md §3 rule 3),
// when they can all be read: every use of the parameter in the callee, and in the functions it
// lends the parameter to, is an element read or written at indices computed from the callee's
// integer parameters (never assigned) and constants, or its size. The kernel rules then check
// those accesses at the call as if the caller made them, instead of refusing the call. Needs the
// typed program and the index graph.
#pragma once
#include <optional>
#include <vector>

#include "check/index_dag.hpp"
#include "check/tir.hpp"

namespace vx::kr {

struct CallAccess {
  bool write = false;
  std::vector<const IxNode*> indices;  // in the argument's root tensor, its row's first
  std::string place;                   // the callee's source text of the access
};

// The accesses of `fn` through its parameter `param`, which stands for the row `prefix` of the
// caller's tensor; `ints[k]`: the caller's node for the callee's k-th argument when it is an
// integer (null otherwise). nullopt when a use of the parameter is anything else.
std::optional<std::vector<CallAccess>> call_accesses(const tir::Program& prog, int fn, int param,
                                                     const std::vector<const IxNode*>& prefix,
                                                     const std::vector<const IxNode*>& ints,
                                                     IndexDag& dag);

}  // namespace vx::kr
