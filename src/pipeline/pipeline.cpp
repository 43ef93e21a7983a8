#include "pipeline/pipeline.hpp"

#include <algorithm>
#include <boost/variant/get.hpp>
#include <filesystem>
#include <set>

#include "check/checker.hpp"
#include "check/lints.hpp"
#include "check/tir_print.hpp"
#include "interp/interpreter.hpp"
#include "interp/race_check.hpp"
#include "lower/lower.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/runner.hpp"
#include "rules/kernel_rules.hpp"
#include "uir/uir.hpp"

namespace vx::pipeline {

namespace {

// The lints an attribute's text allows: `allow(idle_lanes, lanes_not_warp_multiple)`.
std::set<std::string> allowed_by(const std::string& text) {
  std::string t;
  for (char ch : text)
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') t += ch;
  std::set<std::string> out;
  if (t.rfind("allow(", 0) != 0 || t.back() != ')') return out;
  t = t.substr(6, t.size() - 7);
  for (size_t at = 0; at <= t.size();) {
    const size_t comma = std::min(t.find(',', at), t.size());
    if (comma > at) out.insert(t.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

// `#![allow(…)]` at the top of the file and `#[allow(…)]` on an item silence those lints
// (`warnings`: all of them) in the file or in the item (spec/errors.md, "Warnings"). Set before
// the checker runs, so that the warnings they silence take no place under the cap of those printed.
void apply_allows(const ParsedProgram& parsed, Diagnostics& diags) {
  std::set<std::string> file_wide, pending;
  std::vector<std::pair<Span, std::set<std::string>>> items;
  for (const ast::Item& item : parsed.program.items) {
    if (const auto* a = boost::get<ast::Attribute>(&item)) {
      for (const std::string& lint : allowed_by(a->text))
        (a->inner ? file_wide : pending).insert(lint);
      continue;
    }
    const Span span =
        boost::apply_visitor([&](const auto& x) { return parsed.span(x); }, item.get());
    if (!pending.empty()) items.push_back({span, std::move(pending)});
    pending.clear();
  }
  auto allows = [](const std::set<std::string>& set, const std::string& lint) {
    return set.count(lint) > 0 || set.count("warnings") > 0;
  };
  auto allowed = [=](const Diagnostic& d) {
    if (d.severity != Severity::Warning) return false;
    if (allows(file_wide, d.lint)) return true;
    for (const auto& [span, set] : items)
      if (d.span.begin >= span.begin && d.span.begin < span.end && allows(set, d.lint)) return true;
    return false;
  };
  diags.remove_if(allowed);
  diags.set_allowed(allowed);
}

Compiled compile_steps(std::shared_ptr<SourceFile> file, const Options& options);

}  // namespace

Compiled compile(std::shared_ptr<SourceFile> file, const Options& options) {
  Compiled c = compile_steps(std::move(file), options);
  if (options.deny_warnings && c.diags->warning_count() > 0) {
    c.diags->deny_warnings();
    if (!c.refused_at) c.refused_at = std::min(options.through, Step::KernelRules);
  }
  return c;
}

namespace {

Compiled compile_steps(std::shared_ptr<SourceFile> file, const Options& options) {
  Compiled c;
  c.file = std::move(file);
  c.diags = std::make_unique<Diagnostics>(c.file);
  c.parsed = parse_program(*c.file, *c.diags);
  if (!c.parsed) {
    c.refused_at = Step::Parse;
    return c;
  }
  apply_allows(*c.parsed, *c.diags);
  if (options.through == Step::Parse) return c;
  c.program = check_program(*c.parsed, *c.diags, {options.needs_main, options.session_decls});
  if (!c.program) {
    c.refused_at = Step::Check;
    return c;
  }
  if (options.through == Step::Check) return c;
  lower::lower_program(*c.program);
  lint_program(*c.program, *c.parsed, *c.diags);
  if (options.through == Step::Lower) return c;
  static const Machine kDefault = default_machine();
  if (!check_kernel_rules(*c.program, options.machine ? *options.machine : kDefault, *c.diags,
                          options.explain ? &c.explained : nullptr, options.maps)) {
    c.refused_at = Step::KernelRules;
    return c;
  }
  if (options.through == Step::OffloadMarks) mark_offload(c);
  return c;
}

}  // namespace

void mark_offload(Compiled& c) {
  if (!c.marks) c.marks = offload::offload_marks(*c.program);
}

bool load_machine_for(const std::string& machine_path, const std::string& program_path,
                      Machine& machine, std::ostream& err, ErrorFormat format) {
  std::string path = machine_path;
  if (!path.empty() && path[0] != '/' && !std::filesystem::exists(path)) {
    std::filesystem::path dir = std::filesystem::path(program_path).parent_path();
    for (int up = 0; up < 16 && !dir.empty(); ++up, dir = dir.parent_path()) {
      if (std::filesystem::exists(dir / path)) {
        path = (dir / path).string();
        break;
      }
      if (dir == dir.parent_path()) break;
    }
  }
  std::string error;
  std::unique_ptr<Diagnostics> diags;
  if (load_machine(path, machine, error, &diags)) return true;
  if (diags)
    emit_diagnostics(err, *diags, format);
  else
    render_plain_error(err, "cannot read the machine file: " + error, format);
  return false;
}

// ---- dumps --------------------------------------------------------------------------------------

namespace {

// `--dump=kernels`: what the kernel rules proved, one store at a time (--explain has the tables).
void print_kernels(std::ostream& out, const Compiled& c) {
  if (c.explained.empty()) out << "// no stores in across loops\n";
  for (const kr::StoreExplain& s : c.explained) {
    const LineCol lc = c.file->line_col(s.span.begin);
    out << "store " << s.place << " at " << lc.line << ":" << lc.col << ": tensor " << s.tensor
        << ", offset " << (s.offset.empty() ? "(not linear)" : s.offset) << "\n";
    for (const kr::LoopCheck& check : s.checks) {
      const LineCol at = c.file->line_col(check.loop_span.begin);
      out << "    across " << check.level << " " << check.var << " (" << at.line << ":" << at.col
          << "): ";
      if (check.private_buffer)
        out << "private (the tensor is made in each pass)";
      else if (check.proof.proved()) {
        out << "proved: no two passes reach the same offset; digits";
        const char* sep = " ";
        for (const auto& d : check.proof.digits) {
          out << sep << d.text() << " × " << d.coefficient;
          sep = ", ";
        }
      } else
        out << "not proved" << (check.proof.why.empty() ? "" : ": " + check.proof.why);
      out << "\n";
    }
  }
}

}  // namespace

std::optional<Dump> dump_by_name(const std::string& name) {
  if (name == "ast") return Dump::Ast;
  if (name == "typed") return Dump::Typed;
  if (name == "lowered") return Dump::Lowered;
  if (name == "kernels") return Dump::Kernels;
  if (name == "cuda") return Dump::Cuda;
  if (name == "uir") return Dump::Uir;
  return std::nullopt;
}

Step step_of(Dump dump) {
  switch (dump) {
    case Dump::Ast:
      return Step::Parse;
    case Dump::Typed:
      return Step::Check;
    case Dump::Lowered:
      return Step::Lower;
    case Dump::Kernels:
    case Dump::Cuda:
    case Dump::Uir:
      return Step::KernelRules;
  }
  return Step::KernelRules;
}

void print_cuda(std::ostream& out, const Compiled& c, CudaPrelude prelude,
                const offload::EmitOptions& options) {
  constexpr const char* kHeader = "vx_prelude.cuh";
  if (prelude == CudaPrelude::Header) {  // one header, guarded, for any number of .cu files
    out << "// " << kHeader
        << ": what every kernel of `vx emit-cuda` needs (spec/offload.md §1.1)\n"
        << "#ifndef VX_PRELUDE_CUH\n#define VX_PRELUDE_CUH\n"
        << offload::cuda_prelude() << "#endif\n";
    return;
  }
  if (prelude == CudaPrelude::Include)
    out << "#include \"" << kHeader << "\"  // vx emit-cuda --prelude=header FILE > " << kHeader
        << "\n";
  else
    out << offload::cuda_prelude();
  for (const auto& r : offload::emit_regions(*c.program, options)) {
    if (r.ok)
      out << "\n" << r.source;
    else
      out << "\n// " << r.location << ": not emitted: " << r.reason << "\n";
  }
}

void print_dump(std::ostream& out, Dump dump, const Compiled& c) {
  switch (dump) {
    case Dump::Ast:
      dump_ast(out, *c.parsed, *c.file);
      return;
    case Dump::Typed:
    case Dump::Lowered:
      tir::print_program(out, *c.program, c.marks ? &c.marks->marks : nullptr);
      return;
    case Dump::Kernels:
      print_kernels(out, c);
      return;
    case Dump::Cuda:
      print_cuda(out, c, CudaPrelude::Inline);
      return;
    case Dump::Uir:
      for (const auto& r : uir::lower_program(*c.program)) uir::print_lowered(out, r);
      return;
  }
}

// ---- running ------------------------------------------------------------------------------------

int run(Compiled& c, const RunRequest& request, std::ostream& out, std::ostream& err) {
  // A VX_OFFLOAD_THRESHOLD or VX_CACHE_MAX that says nothing offloading can use is a usage error
  // before anything runs, as a VX_MEMORY_LIMIT that is not a size is (spec/offload.md §2).
  if (const std::string e = offload::offload_environment_error(); !e.empty()) {
    render_plain_error(err, e, request.error_format);
    return 2;
  }
  mark_offload(c);
  offload::OffloadRunner offload(*c.program, request.offload, err);
  // --offload=gpu asks for the GPU: without one it is an error before anything runs, not a quiet
  // run on the host (spec/offload.md §3).
  if (request.offload.mode == "gpu") {
    std::string why;
    if (const tir::Stmt* region = offload.region_without_device(why)) {
      Diagnostics diags(c.diags->file_ptr());
      Diagnostic& d = diags.error("E0700", region->span,
                                  "`--offload=gpu` but there is no GPU to run this region on",
                                  "this region would run on the GPU");
      d.notes.push_back(why);
      d.helps.push_back(
          "`--offload=auto` (the default) or `--offload=off` runs the regions on the interpreter");
      emit_diagnostics(err, diags, request.error_format);
      return 2;
    }
  }
  if (offload.active()) offload.set_marks(*c.marks);
  interp::RegionRunner* runner = offload.active() ? &offload : nullptr;
  if (request.around) runner = request.around(offload.active() ? &offload : nullptr);
  RunOptions run;
  run.out = &out;
  run.err = &err;
  run.error_format = request.error_format;
  run.report_error = request.report_error;
  if (!run.report_error && request.error_format == ErrorFormat::Json)
    run.report_error = [&](std::ostream& o, const Diagnostic& d) {
      render_diagnostic(o, *c.file, d, ErrorFormat::Json);
    };
  run.runner = runner;
  run.marks = &c.marks->marks;
  // --check-races: the interpreter records every pass of every across loop and stops at the
  // first collision (interp/race_check.hpp); regions then run in the interpreter.
  interp::RaceRecorder races;
  if (request.check_races) run.race_recorder = &races;
  run.max_steps = request.max_steps;
  run.max_seconds = request.max_seconds;
  if (request.max_call_depth > 0) run.max_call_depth = request.max_call_depth;
  run.host_threads = request.host_threads;
  run.on_this_thread = request.on_this_thread;
  run.interrupt = request.interrupt;
  run.entry = request.entry;
  run.bind = request.bind;
  run.again = request.again;
  if (request.after_region)
    run.after_region = [&](const tir::Stmt& spawn, interp::Frame& frame) {
      if (offload.active()) offload.copy_back();
      request.after_region(spawn, frame);
    };
  if (request.at_end)
    run.at_end = [&](const tir::Function& main, interp::Frame& frame, size_t ran) {
      if (offload.active()) offload.copy_back();
      request.at_end(main, frame, ran);
    };
  const int status = run_program(*c.program, run);
  offload.finish();
  return status;
}

}  // namespace vx::pipeline
