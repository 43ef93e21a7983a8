// Numbers as the environment gives them: a size in bytes (VX_MEMORY_LIMIT, VX_CACHE_MAX), digits
// with an optional K, M, G or T suffix (either case; powers of 1024, `1M` = 1,048,576); a count
// (VX_OFFLOAD_THRESHOLD, VX_HOST_THREADS), digits alone. Each says when the text is not one, so
// that the caller can report it rather than read it as 0.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace vx {

// The size `text` names, or nullopt when it is not one or is past INT64_MAX bytes.
std::optional<int64_t> parse_byte_size(std::string_view text);

// The count `text` names when it is digits alone, from `lo` to `hi`; nullopt otherwise.
std::optional<int64_t> parse_count(std::string_view text, int64_t lo, int64_t hi);

// What a value that is not a size is told: "NAME=VALUE is not a size (a number of bytes, with an
// optional K, M, G or T suffix)".
std::string_view byte_size_form();

}  // namespace vx
