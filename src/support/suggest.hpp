// Did-you-mean (issue 19): the name a typo most likely meant, among the names that would have
// been accepted where it stands, as rustc and cargo suggest them.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace vx {

// Edits from a to b: insertions, deletions, substitutions, and swaps of two neighbours.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `typo`, if it is within max(1, |typo| / 3) edits (a name that differs
// from it only in case always is); the first of equally close ones. Never `typo` itself. A typo
// of more than 256 bytes gets only a name that differs from it in case, so that the time is
// linear in the length of the names.
std::optional<std::string> closest_name(const std::string& typo,
                                        const std::vector<std::string>& candidates);

}  // namespace vx
