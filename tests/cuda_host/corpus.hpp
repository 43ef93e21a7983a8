// Test support: the corpus programs with `spawn on` regions that the checker accepts, checked.
#pragma once
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "offload/emit_cuda.hpp"
#include "parse/parser.hpp"
#include "pipeline/pipeline.hpp"
#include "rules/machine.hpp"
#include "support/diagnostics.hpp"

namespace vx::testing {

struct CorpusProgram {
  std::string path;  // relative to the corpus root's parent, e.g. conformance/book/x.vx
  std::shared_ptr<SourceFile> file;
  std::unique_ptr<ParsedProgram> parsed;
  std::unique_ptr<tir::Program> program;
  bool expects_runtime_error = false;
};

inline std::unique_ptr<CorpusProgram> load_program(const std::string& path,
                                                   const std::string& shown,
                                                   const Machine& machine = default_machine()) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto p = std::make_unique<CorpusProgram>();
  p->path = shown;
  p->file = std::make_shared<SourceFile>(shown, ss.str());
  p->expects_runtime_error = ss.str().find("//~ RUNTIME-ERROR") != std::string::npos;
  pipeline::Options front;
  front.machine = &machine;
  pipeline::Compiled c = pipeline::compile(p->file, front);
  if (!c.ok() || c.diags->has_errors()) return nullptr;
  p->parsed = std::move(c.parsed);
  p->program = std::move(c.program);
  return p;
}

// The machine file a program's first line names (`// run-flags: --machine fleet/x.vx`), relative
// to the source tree; empty when it names none.
inline std::string machine_flag(const std::string& path) {
  std::ifstream in(path);
  std::string first_line;
  std::getline(in, first_line);
  const std::string key = "--machine ";
  const auto at = first_line.find(key);
  if (first_line.find("run-flags:") == std::string::npos || at == std::string::npos) return "";
  std::istringstream rest(first_line.substr(at + key.size()));
  std::string file;
  rest >> file;
  return file;
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
    if (text.find("//~ ERROR") != std::string::npos || text.find("//~ WARN") != std::string::npos)
      continue;
    out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The programs of the offload tests under the source tree `source_dir`: conformance/, and
// tests/cuda_host/programs/ (written for the host harness: larger blocks, more element types,
// regions launched several times, runtime errors in late launches).
inline std::vector<std::string> offload_corpus_files(const std::string& source_dir) {
  std::vector<std::string> files = corpus_files(source_dir + "/conformance");
  for (auto& f : corpus_files(source_dir + "/tests/cuda_host/programs")) files.push_back(f);
  return files;
}

// Programs with a region the emitter cannot emit yet (issue 5 is open), each with a phrase of the
// reason; such a region stays on the interpreter and `-v` says why. The list must shrink, never
// hide a new failure: emission_problems() reports a listed region that starts to emit too.
inline const std::map<std::string, std::string>& not_emitted_yet() {
  static const std::map<std::string, std::string> list = {};  // none at present
  return list;
}

// What is wrong with the regions of the program `rel` (its path from the source root): a region
// that is not emitted though the program is not listed, or one of a listed program that is
// emitted or fails for another reason. `listed`: whether the program is on not_emitted_yet().
inline std::vector<std::string> emission_problems(
    const std::string& rel, const std::vector<offload::EmittedRegion>& regions, bool& listed) {
  std::vector<std::string> out;
  auto known = not_emitted_yet().find(rel);
  listed = known != not_emitted_yet().end();
  for (auto& r : regions) {
    if (!listed && !r.ok) out.push_back(r.location + ": not emitted: " + r.reason);
    if (listed && r.ok)
      out.push_back(r.location + ": now emitted: take it off the not_emitted_yet list");
    if (listed && !r.ok && r.reason.find(known->second) == std::string::npos)
      out.push_back(r.location + ": not emitted for another reason than listed: " + r.reason);
  }
  return out;
}

}  // namespace vx::testing
