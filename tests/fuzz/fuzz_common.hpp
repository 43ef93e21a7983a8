// What every libFuzzer harness of tests/fuzz shares (tests/fuzz/README.md): the input as a
// SourceFile, a stream that drops what it is given, the large stack the CLI runs on, and
// internal errors as crashes.
#pragma once
#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

#include "support/internal_error.hpp"
#include "support/source.hpp"

namespace vx::fuzz {

// Inputs longer than this are skipped (-max_len in tools/fuzz sets the same). Until the
// interpreter and the checker have their own limits everywhere (issue 14, deliverable 3), a cap
// keeps one input from taking seconds: the 16 MiB source limit of the CLI is far above it.
constexpr size_t kMaxInput = 64 * 1024;

// A broken invariant of vx (support/internal_error.hpp) aborts, so libFuzzer reports it as a
// crash even where vx reports it and goes on: the interpreter returns 70 from a run, the REPL
// prints it and reads the next line.
inline const bool kInternalErrorsAbort = [] {
  set_internal_error_hook([](const std::string& text) {
    std::fprintf(stderr, "%s\n", text.c_str());
    std::abort();
  });
  return true;
}();

// A stream that discards everything (the output is not what a harness checks).
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c == EOF ? 0 : c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};
inline std::ostream& null_stream() {
  static NullBuffer buffer;
  static std::ostream stream(&buffer);
  stream.clear();
  return stream;
}

inline std::shared_ptr<SourceFile> input_file(const uint8_t* data, size_t size, const char* name) {
  return std::make_shared<SourceFile>(name, std::string(reinterpret_cast<const char*>(data), size));
}

// Runs `body` on a thread with the 1 GiB stack `vx` gives run_command (cli/commands.cpp's
// with_large_stack), so that a harness sees what the command line sees. Unlike the CLI it does
// not catch exceptions: an exception that reaches here is a bug and ends the run (abort).
inline void on_large_stack(const std::function<void()>& body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);
  pthread_t thread;
  auto trampoline = [](void* p) -> void* {
    (*static_cast<const std::function<void()>*>(p))();
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&body)) != 0)
    abort();
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

}  // namespace vx::fuzz
