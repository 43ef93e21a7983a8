// The playground's engine (web/README.md): one C entry, vx_request, that takes a request as JSON
// and answers in JSON, so that the page's Web Worker (web/src/worker.js) needs no bindings
// library. It runs the same pipeline as `vx check` and `vx run` (pipeline/pipeline.hpp) with the
// offload tier off, and answers with the diagnostics as `--error-format=json` gives them (each
// with its rustc-style "rendered" text), the explain tables, the write maps as `check --map
// --error-format=json` gives them, the run's output and its runtime error.
//
//   {"op": "check", "source": S, "explain": B, "map": B}
//   {"op": "run", "source": S, "max_steps": N, "max_seconds": X, "explain": B}
//   {"op": "explain", "code": "E6032"}         the page of spec/errors.md, as Markdown
//   {"op": "codes"}                            every code that has a page
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "pipeline/pipeline.hpp"
#include "rules/explain.hpp"
#include "rules/write_map.hpp"
#include "support/error_index.hpp"
#include "support/internal_error.hpp"

namespace vx::wasm {
namespace {

using nlohmann::json;

// The name diagnostics give the program (`--> playground.vx:3:5`).
constexpr const char* kFileName = "playground.vx";
// The nested calls a run may make (see run below).
constexpr int kBrowserCallDepth = 500;

// One JSON object a line (emit_diagnostics', render_maps' and emit_explain's JSON forms) as an
// array.
json json_lines(const std::string& text) {
  json out = json::array();
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

json diagnostics_of(const Diagnostics& diags) {
  std::ostringstream out;
  emit_diagnostics(out, diags, ErrorFormat::Json);
  return json_lines(out.str());
}

struct Front {
  std::shared_ptr<SourceFile> file;
  pipeline::Compiled compiled;
};

// The program's text as `vx` reads a file (support/source.cpp): a leading byte order mark is no
// part of it.
std::string source_of(const json& request) {
  std::string text = request.value("source", std::string());
  if (text.starts_with(kByteOrderMark)) text.erase(0, kByteOrderMark.size());
  return text;
}

// A program over the size limit is refused at its start with E0003, as `vx` refuses such a file.
std::optional<json> too_large(const std::string& text) {
  if (text.size() <= kMaxSourceBytes) return std::nullopt;
  Diagnostics diags(std::make_shared<SourceFile>(kFileName, std::string()));
  auto& d = diags.error("E0003", {0, 0}, source_too_large_message(), "the file starts here");
  d.notes.push_back("a source file may hold at most " + std::to_string(kMaxSourceBytes) + " bytes");
  return json{{"ok", false}, {"diagnostics", diagnostics_of(diags)}};
}

Front compile(const std::string& text, pipeline::Step through, bool explain, bool maps) {
  auto file = std::make_shared<SourceFile>(kFileName, text);
  pipeline::Options options;
  options.through = through;
  options.explain = explain || maps;
  options.maps = maps;
  return {file, pipeline::compile(file, options)};
}

// The explain tables (as text, as `vx check --explain` prints them, and as data) and the maps of
// a program the kernel rules saw.
void add_explanations(json& answer, const Front& front, bool explain, bool maps) {
  const pipeline::Compiled& c = front.compiled;
  const bool rules_ran = c.ok() || *c.refused_at == pipeline::Step::KernelRules;
  if (!rules_ran) return;
  if (explain) {
    std::ostringstream text, data;
    kr::render_explain(text, *front.file, c.explained);
    kr::emit_explain(data, *front.file, c.explained, ErrorFormat::Json);
    answer["explain_text"] = text.str();
    answer["explain"] = json_lines(data.str());
  }
  if (maps) {
    std::ostringstream data;
    kr::render_maps(data, *front.file, c.explained, kr::MapFormat::Json, false);
    answer["maps"] = json_lines(data.str());
  }
}

json check(const json& request) {
  const bool explain = request.value("explain", false), maps = request.value("map", false);
  const std::string text = source_of(request);
  if (auto refused = too_large(text)) return *refused;
  Front front = compile(text, pipeline::Step::KernelRules, explain, maps);
  json answer{{"ok", front.compiled.ok()}, {"diagnostics", diagnostics_of(*front.compiled.diags)}};
  add_explanations(answer, front, explain, maps);
  return answer;
}

json run(const json& request) {
  const bool explain = request.value("explain", false), maps = request.value("map", false);
  const std::string text = source_of(request);
  if (auto refused = too_large(text)) return *refused;
  Front front = compile(text, pipeline::Step::OffloadMarks, explain, maps);
  json answer{{"ok", front.compiled.ok()}, {"diagnostics", diagnostics_of(*front.compiled.diags)}};
  add_explanations(answer, front, explain, maps);
  if (!front.compiled.ok()) return answer;
  pipeline::RunRequest run;
  run.offload.mode = "off";
  run.max_steps = request.value("max_steps", int64_t{0});
  run.max_seconds = request.value("max_seconds", 0.0);
  // A browser's worker has a small native stack (chromium 156's held 800 nested calls of a small
  // function, not 1,000): past kBrowserCallDepth the interpreter reports its stack overflow
  // error, as `vx` does past 10,000, rather than the browser stopping the engine.
  run.max_call_depth = kBrowserCallDepth;
  json runtime_error;
  run.report_error = [&](std::ostream& err, const Diagnostic& d) {
    runtime_error = diagnostic_json(*front.file, d);
    err << runtime_error["rendered"].get<std::string>();
  };
  std::ostringstream out, err;
  const int status = pipeline::run(front.compiled, run, out, err);
  answer["status"] = status;
  answer["stdout"] = out.str();
  answer["stderr"] = err.str();
  answer["runtime_error"] = runtime_error;
  return answer;
}

json explain_page(const json& request) {
  std::ostringstream out, err;
  const int status = explain_code(request.value("code", std::string()), out, err);
  if (status != 0) return {{"error", err.str()}};
  return {{"markdown", out.str()}};
}

json answer(const std::string& text) {
  const json request = json::parse(text, nullptr, false);
  if (request.is_discarded() || !request.is_object()) return {{"error", "the request is not JSON"}};
  const std::string op = request.value("op", std::string());
  if (op == "check") return check(request);
  if (op == "run") return run(request);
  if (op == "explain") return explain_page(request);
  if (op == "codes") return {{"codes", error_codes()}};
  return {{"error", "no such request: `" + op + "`"}};
}

}  // namespace
}  // namespace vx::wasm

extern "C" {

// The answer to one request, as JSON in memory the caller frees with vx_free.
char* vx_request(const char* request) {
  std::string text;
  try {
    text = vx::wasm::answer(request).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const vx::InternalError& e) {  // its text says where (support/internal_error.hpp)
    text = nlohmann::json{{"error", e.what()}}.dump();
  } catch (const std::bad_alloc&) {
    text = R"({"error": "out of memory"})";
  } catch (const std::exception& e) {
    text = nlohmann::json{{"error",
                           std::string("internal error: ") + e.what() + " (this is a bug in vx)"}}
               .dump();
  }
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

void vx_free(char* p) { std::free(p); }
}
