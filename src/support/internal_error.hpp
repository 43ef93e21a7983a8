// Broken invariants of vx itself, kept apart from the program's errors (issue 18): an
// internal_error anywhere ends the command with `internal error in the checker: … (at
// src/check/x.cpp:LINE; this is a bug in vx)`, exit status 70, never a user-facing error with
// an empty span. The interpreter catches InternalError where it catches runtime errors
// (interp/interpreter.cpp); everything else reaches the large-stack runner's catch
// (large_stack.cpp) or main's.
#pragma once
#include <stdexcept>
#include <string>

namespace vx {

struct InternalError : std::logic_error {
  using std::logic_error::logic_error;
};

// The full text: the component comes from the folder of `file` (src/check: the checker, …).
std::string internal_error_text(const std::string& what, const char* file, int line);

// Throws InternalError. `file` and `line` are the caller's (clang 14 with libstdc++ 12, the
// sanitizer build, has no std::source_location).
[[noreturn]] void internal_error(const std::string& what, const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE());

// A hook called with the text of every internal error before it is thrown or reported, for the
// fuzz harnesses: they abort there, so that a broken invariant is a crash even where vx reports
// it and goes on (the REPL, a run that returns 70). Null by default.
using InternalErrorHook = void (*)(const std::string& text);
void set_internal_error_hook(InternalErrorHook hook);
// Calls the hook (for reports of an invariant broken that do not go through internal_error).
void notify_internal_error(const std::string& text);

// m.find(k)->second for a key that is there unless vx has a bug.
template <class Map, class Key>
auto& must_find(Map& m, const Key& k, const char* file = __builtin_FILE(),
                int line = __builtin_LINE()) {
  auto it = m.find(k);
  if (it == m.end()) internal_error("a lookup of a key that is always present missed", file, line);
  return it->second;
}

}  // namespace vx
