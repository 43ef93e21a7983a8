#include "support/internal_error.hpp"

#include <atomic>

namespace vx {

namespace {
std::atomic<InternalErrorHook> g_hook{nullptr};

const char* component_of(const std::string& file) {
  static const std::pair<const char*, const char*> components[] = {
      {"src/parse/", "the parser"},
      {"src/check/", "the checker"},
      {"src/interp/", "the interpreter"},
      {"src/offload/", "the offload tier"},
      {"src/uir/", "the .uir tools"},
      {"src/pipeline/", "the pipeline"},
      {"src/repl/", "the REPL"},
      {"src/cli/", "the command line"},
      {"src/support/", "vx's support code"}};
  for (const auto& [folder, name] : components)
    if (file.rfind(folder, 0) == 0) return name;
  return "vx";
}
}  // namespace

std::string internal_error_text(const std::string& what, const char* file_name, int line) {
  std::string file = file_name;
  if (const auto at = file.rfind("src/"); at != std::string::npos) file.erase(0, at);
  return "internal error in " + std::string(component_of(file)) + ": " + what + " (at " + file +
         ":" + std::to_string(line) + "; this is a bug in vx)";
}

void internal_error(const std::string& what, const char* file, int line) {
  const std::string text = internal_error_text(what, file, line);
  notify_internal_error(text);
  throw InternalError(text);
}

void set_internal_error_hook(InternalErrorHook hook) { g_hook.store(hook); }

void notify_internal_error(const std::string& text) {
  if (InternalErrorHook hook = g_hook.load()) hook(text);
}

}  // namespace vx
