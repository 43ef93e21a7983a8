// Test support: the corpus programs with `spawn on` regions that the checker accepts, checked.
#pragma once
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "check/checker.hpp"
#include "check/kernel_rules.hpp"
#include "check/machine.hpp"
#include "parse/parser.hpp"
#include "support/diagnostics.hpp"

namespace vx::testing {

struct CorpusProgram {
  std::string path;  // relative to the corpus root's parent, e.g. conformance/book/x.vx
  std::shared_ptr<SourceFile> file;
  std::unique_ptr<ParsedProgram> parsed;
  std::unique_ptr<tir::Program> program;
  bool expects_runtime_error = false;
};

inline std::unique_ptr<CorpusProgram> load_program(const std::string& path, const std::string& shown) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto p = std::make_unique<CorpusProgram>();
  p->path = shown;
  p->file = std::make_shared<SourceFile>(shown, ss.str());
  p->expects_runtime_error = ss.str().find("//~ RUNTIME-ERROR") != std::string::npos;
  Diagnostics diags(p->file);
  p->parsed = parse_program(*p->file, diags);
  if (!p->parsed) return nullptr;
  p->program = check_program(*p->parsed, diags);
  if (!p->program || diags.has_errors()) return nullptr;
  if (!check_kernel_rules(*p->program, default_machine(), diags)) return nullptr;
  return p;
}

// Every .vx under `root` (sorted) with a `spawn on` and no expected compile error.
inline std::vector<std::string> corpus_files(const std::string& root) {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() != ".vx") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    if (text.find("spawn on") == std::string::npos) continue;
    if (text.find("//~ ERROR") != std::string::npos || text.find("//~ WARN") != std::string::npos) continue;
    out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace vx::testing
