#include "cli/driver.hpp"

#include <pthread.h>

#include <functional>
#include <iostream>

#include "check/checker.hpp"
#include "interp/interpreter.hpp"
#include "parse/parser.hpp"

namespace vx {

int with_large_stack(const std::function<int()>& body) {
  struct Call {
    const std::function<int()>* body;
    int result = 0;
  } call{&body};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);  // virtual: pages are touched only if used
  pthread_t thread;
  auto trampoline = [](void* p) -> void* {
    auto* c = static_cast<Call*>(p);
    try {
      c->result = (*c->body)();
    } catch (const std::bad_alloc&) {
      std::cerr << "error: out of memory\n";
      c->result = 101;
    } catch (const std::exception& e) {
      std::cerr << "error: internal error: " << e.what() << "\n";
      c->result = 70;
    }
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, &call) != 0) {
    pthread_attr_destroy(&attr);
    return body();
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return call.result;
}

int run_driver(const DriverOptions& options, std::ostream& out, std::ostream& err) {
  std::string read_error;
  auto file = read_source_file(options.file, read_error);
  if (!file) {
    err << "error: " << read_error << "\n";
    return 2;
  }
  Diagnostics diags(file);
  auto parsed = parse_program(*file, diags);
  if (!parsed) {
    emit_diagnostics(err, diags, options.error_format);
    return 1;
  }
  if (options.dump == "ast") {
    dump_ast(out, *parsed, *file);
    return 0;
  }
  if (options.stage == Stage::Parse) return 0;
  auto program = check_program(*parsed, diags);
  if (!program) {
    emit_diagnostics(err, diags, options.error_format);
    return 1;
  }
  if (!diags.list().empty()) emit_diagnostics(err, diags, options.error_format);  // warnings
  if (options.stage == Stage::Check) return 0;
  RunOptions run;
  run.out = &out;
  run.err = &err;
  return run_program(*program, run);
}

}  // namespace vx
