// doctest's main for a test program whose cases need a tool that may be missing (libnvrtc):
// skip(why) reports the case as skipped, and the program then exits with 77, which ctest shows
// as "Skipped" (SKIP_RETURN_CODE 77 in the test's .cmake) and tools/test refuses, so a missing
// tool never passes silently. Include it instead of doctest.h, in one file of the program (the
// implementation is tests/doctest_impl.cpp's; this main replaces tests/doctest_main.cpp's).
#pragma once
#include <doctest/doctest.h>

#include <iostream>
#include <string>
#include <vector>

namespace vx::testing {

inline std::vector<std::string>& skipped_cases() {
  static std::vector<std::string> cases;
  return cases;
}

// Ends the current test case as skipped (call it as `return skip(why);`).
inline void skip(const std::string& why) {
  MESSAGE("SKIPPED: " << why);
  skipped_cases().push_back(why);
}

}  // namespace vx::testing

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  const auto& skipped = vx::testing::skipped_cases();
  if (skipped.empty()) return 0;
  std::cerr << argv[0] << ": " << skipped.size() << " test case(s) SKIPPED: " << skipped[0] << "\n";
  return 77;
}
