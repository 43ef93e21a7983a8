// JSON that comes from outside vx (`vx diff`'s documents, `vx repl --protocol=jsonl`'s requests):
// the one place where vx parses JSON (the ctest `json_input` holds every other file of src/ to
// it). A text longer than its limit, or nesting arrays and objects deeper than kMaxJsonDepth, is
// refused before nlohmann::json sees it: copying, printing or comparing a value is recursive in
// nlohmann::json, so a value nested 100,000 deep would overflow the stack wherever it went next.
// spec/cli.md §2.1 and §7.7 state the limits.
#pragma once
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace vx {

// The deepest nesting of arrays and objects read: `[[1]]` nests 2 deep.
inline constexpr int kMaxJsonDepth = 512;

// The value of `text`, or nullopt with `why` saying what is wrong with it: longer than
// `max_bytes` bytes, nested deeper than kMaxJsonDepth (at which byte), or not JSON (nlohmann's
// message: where, and what it expected).
// A file is read with support/source.hpp's read_at_most(path, max_bytes, …), which stops one byte
// past the limit.
std::optional<nlohmann::json> parse_json(std::string_view text, size_t max_bytes, std::string& why);

}  // namespace vx
