// `vx check --explain` (spec/kernel-rules.md §6, spec/cli.md §3): for every store in an across
// loop, the lesson's table of seed 001 — digit, coefficient, largest value, the most it adds —
// and the comparisons that prove or refute it, once per across loop around the store. The same
// data is the `data` of a JSON diagnostic. Needs the proofs that kernel_rules.cpp made.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "rules/mixed_radix.hpp"
#include "support/diagnostics.hpp"

namespace vx::kr {

struct WriteMap;  // write_map.hpp

// One across loop's check of one store.
struct LoopCheck {
  std::string level;            // "block" or "lane"
  std::string var;              // the loop's variable
  Span loop_span;               // the loop's header
  bool private_buffer = false;  // the tensor is made inside the loop: each pass has its own
  bool atomic_only = false;     // (unused for stores)
  RadixProof proof;
  std::string same_expression;  // empty, or the access whose index differs from the store's
  // The other accesses to the tensor with another index that the rule accepts, and why
  // (spec/kernel-rules.md §4 step 2).
  std::vector<std::string> others;
  std::string collision;  // two passes that collide, when one was found
};

struct StoreExplain {
  Span span;           // the store's place (`grid[y][x]`)
  std::string place;   // its source text
  std::string tensor;  // the tensor's name
  std::string offset;  // the linear offset as Vx source; empty when the rule cannot read it
  std::vector<LoopCheck> checks;        // outer loop first
  std::shared_ptr<const WriteMap> map;  // who writes what, when the maps were asked for
};

nlohmann::json proof_json(const RadixProof& proof);
nlohmann::json check_json(const LoopCheck& check);
// The whole explanation of one store as a note diagnostic (`data` holds the tables).
Diagnostic explain_diagnostic(const StoreExplain& store);

// The lesson's table of a proof: digit, coefficient, largest value, the most it adds.
void print_proof_table(std::ostream& out, const RadixProof& proof, const std::string& indent);

// Prints the tables, in source order.
void render_explain(std::ostream& out, const SourceFile& file,
                    const std::vector<StoreExplain>& stores);
// `--explain`'s output in either format: the tables, or one JSON note per store.
void emit_explain(std::ostream& out, const SourceFile& file,
                  const std::vector<StoreExplain>& stores, ErrorFormat format);

}  // namespace vx::kr
