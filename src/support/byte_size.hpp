// A size in bytes as the environment gives one (VX_MEMORY_LIMIT, VX_CACHE_MAX): digits, with an
// optional K, M, G or T suffix (either case; powers of 1024, `1M` = 1,048,576).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace vx {

// The size `text` names, or nullopt when it is not one or is past INT64_MAX bytes.
std::optional<int64_t> parse_byte_size(std::string_view text);

// What a value that is not a size is told: "NAME=VALUE is not a size (a number of bytes, with an
// optional K, M, G or T suffix)".
std::string_view byte_size_form();

}  // namespace vx
