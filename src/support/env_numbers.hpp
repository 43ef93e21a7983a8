// Numbers as the environment gives them: a size in bytes (VX_MEMORY_LIMIT, VX_CACHE_MAX), digits
// with an optional K, M, G or T suffix (either case; powers of 1024, `1M` = 1,048,576); a count
// (VX_OFFLOAD_THRESHOLD, VX_HOST_THREADS), digits alone. Each says when the text is not one, so
// that the caller can report it (a usage error before anything runs) rather than read it as 0.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vx {

// The size `text` names, or nullopt when it is not one or is past INT64_MAX bytes.
std::optional<int64_t> parse_byte_size(std::string_view text);

// The count `text` names when it is digits alone, from `lo` to `hi`; nullopt otherwise.
std::optional<int64_t> parse_count(std::string_view text, int64_t lo, int64_t hi);

// The size in the variable `name`, `unset` when it is unset or empty; nullopt when it is not a
// size, with `error` set to "NAME=VALUE is not a size (…)".
std::optional<int64_t> env_byte_size(const char* name, int64_t unset, std::string* error);

// The count in the variable `name`, from `lo` to `hi`: nullopt when it is unset, and also when it
// is anything else (empty included), then with `error` set to "NAME=VALUE is not a number of
// `what` (lo to hi)".
std::optional<int64_t> env_count(const char* name, int64_t lo, int64_t hi, const char* what,
                                 std::string* error);

}  // namespace vx
