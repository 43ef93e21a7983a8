// The kernel rules (spec/kernel-rules.md, seed 000's list, DESIGN §4): every rule that keeps an
// `across` loop's result equal to the sequential one — where across loops may stand, what their
// passes may write (the mixed-radix proof of seed 001 with the same-expression rule), atomics,
// block routines, tiles, the machine's limits (E6032), copy tokens (E6036, E0304). Runs on the
// lowered program (check_program's, then lower/lower.hpp's step); it reports and never changes it.
#pragma once
#include <vector>

#include "check/tir.hpp"
#include "rules/explain.hpp"
#include "rules/machine.hpp"
#include "support/diagnostics.hpp"

namespace vx {

// The rules of E6032, from kernel_rules.def.
enum class KernelRule {
#define VX_KERNEL_RULE(Id, id, section) Id,
#include "rules/kernel_rules.def"
#undef VX_KERNEL_RULE
};
inline constexpr const char* kKernelRuleIds[] = {
#define VX_KERNEL_RULE(Id, id, section) id,
#include "rules/kernel_rules.def"
#undef VX_KERNEL_RULE
};
// The id a diagnostic of the rule carries ("write-must-fix-loop").
inline const char* kernel_rule_id(KernelRule rule) {
  return kKernelRuleIds[static_cast<int>(rule)];
}
// An E6032 diagnostic of `rule`.
inline Diagnostic& kernel_rule_error(Diagnostics& diags, KernelRule rule, Span span,
                                     std::string message, std::string label = {}) {
  Diagnostic& d = diags.error("E6032", span, std::move(message), std::move(label));
  d.rule = kernel_rule_id(rule);
  return d;
}

// Reports every broken rule to `diags`; returns true when there was none. With `explain`, also
// records the proof of every store in an across loop, in source order; with `maps` too, the map
// of who writes what of each (write_map.hpp).
bool check_kernel_rules(const tir::Program& program, const Machine& machine, Diagnostics& diags,
                        std::vector<kr::StoreExplain>* explain = nullptr, bool maps = false);

}  // namespace vx
