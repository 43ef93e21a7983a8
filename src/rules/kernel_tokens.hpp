// Copy tokens (spec/kernel-rules.md §5): a token of `lanes::copy_async` must be waited for
// (E6036), and until the statement that waits, the tile it fills is not used and the tensor it
// reads is not written (E0304). Called by the kernel rules' walk (kernel_rules.cpp) for each
// `let` of a token, with what it knows of places and constants.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>

#include "check/tir.hpp"
#include "support/diagnostics.hpp"

namespace vx::kr {

struct TokenContext {
  const tir::Function& fn;
  Diagnostics& diags;
  std::function<int(const tir::Expr*)> root_slot;  // the tensor a place names, or -1
  std::function<std::optional<int64_t>(const tir::Expr*)> constant;  // an index's constant value
  std::set<uint32_t>& reported;  // places already reported, by the start of their span
};

// Checks the token declared by the `let` b->stmts[k] (nothing when it declares no token).
void check_token(const TokenContext& c, const tir::Block* b, size_t k);

}  // namespace vx::kr
