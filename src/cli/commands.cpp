#include "cli/commands.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "check/tir_walk.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/nvrtc.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/values.hpp"
#include "rules/write_map.hpp"
#include "support/internal_error.hpp"
#include "uir/uir.hpp"

namespace vx {

// emit-cuda --cubin OUT: every emitted region compiled by NVRTC (as `vx run` compiles them) for
// --arch, else for the machine file's compute capability; regions that are not emitted are listed.
int compile_cubin(const std::vector<offload::EmittedRegion>& regions, const Machine& machine,
                  const CommandOptions& options, std::ostream& err) {
  std::string arch = options.arch;
  if (arch.empty()) {
    if (machine.device != DeviceKind::Nvidia) {
      render_plain_error(err,
                         "the machine " + machine.name + " has no NVIDIA GPU; give --arch sm_XX",
                         options.error_format);
      return 2;
    }
    arch = "sm_" + std::to_string(machine.compute_capability);
  }
  if (arch.rfind("sm_", 0) != 0 || arch.size() < 5 ||
      arch.find_first_not_of("0123456789", 3) != std::string::npos) {
    render_plain_error(
        err, "--arch takes sm_ and a compute capability (sm_80, sm_90), not `" + arch + "`",
        options.error_format);
    return 2;
  }
  std::string cache_error;
  if (!offload::kernel_cache_limit(&cache_error)) {
    render_plain_error(err, cache_error, options.error_format);
    return 2;
  }
  size_t emitted = 0;
  for (auto& r : regions) {
    if (r.ok)
      ++emitted;
    else
      err << "vx: " << r.location << ": not emitted: " << r.reason << "\n";
  }
  offload::Nvrtc nvrtc;
  std::string why;
  if (!nvrtc.load(why)) {
    render_plain_error(err, why, options.error_format);
    return 2;
  }
  std::vector<char> cubin;
  std::string log;
  if (!nvrtc.compile(offload::cuda_translation_unit(regions), arch, cubin, log)) {
    while (!log.empty() && log.back() == '\n') log.pop_back();
    render_plain_error(
        err,
        "NVRTC " + nvrtc.version() + " could not compile the kernels for " + arch + ":\n" + log,
        options.error_format);
    return 1;
  }
  std::ofstream f(options.cubin, std::ios::binary);
  f.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
  if (!f.flush()) {
    render_plain_error(err, "cannot write " + options.cubin, options.error_format);
    return 2;
  }
  err << "vx: " << emitted << " kernel(s) for " << arch << " compiled by NVRTC " << nvrtc.version()
      << " into " << options.cubin << " (" << cubin.size() << " bytes)\n";
  return 0;
}

// `check --map`: the maps of who writes what, on `out` (text, or JSON notes) or into FILE.svg.
bool write_maps(const CommandOptions& options, const SourceFile& file,
                const std::vector<kr::StoreExplain>& stores, std::ostream& out, std::ostream& err) {
  if (options.map == "true") {
    kr::render_maps(
        out, file, stores,
        options.error_format == ErrorFormat::Json ? kr::MapFormat::Json : kr::MapFormat::Text,
        options.map_color);
    return true;
  }
  std::ofstream svg(options.map, std::ios::binary);
  if (svg) kr::render_maps(svg, file, stores, kr::MapFormat::Svg, false);
  if (!svg || !svg.flush()) {
    render_plain_error(err, "cannot write `" + options.map + "`", options.error_format);
    return false;
  }
  return true;
}

// --no-opt and --opt-bisect-limit as the emitter takes them; its decisions are said on `err`.
offload::EmitOptions emit_options(const CommandOptions& options, std::ostream& err) {
  offload::EmitOptions emit;
  std::string unused;  // the parser has checked the names
  offload::parse_no_opt(options.no_opt, emit.off, unused);
  emit.bisect_limit = options.opt_bisect_limit;
  emit.bisect_log = &err;
  return emit;
}

int run_command(const CommandOptions& options, std::ostream& out, std::ostream& err) {
  if (options.file.size() > 4 && options.file.ends_with(".uir")) {
    if (options.stage == Stage::EmitCuda || options.stage == Stage::Lower ||
        options.stage == Stage::Call || !options.dump.empty() || !options.map.empty()) {
      render_plain_error(
          err,
          "`" + options.file +
              "` is .uir; `emit-cuda`, `lower`, `call`, `--dump` and `--map` read .vx (spec/uir.md "
              "§6)",
          options.error_format);
      return 2;
    }
    return uir::uir_command(options.file,
                            options.stage == Stage::Run     ? uir::UirStage::Run
                            : options.stage == Stage::Check ? uir::UirStage::Check
                                                            : uir::UirStage::Read,
                            options.explain, options.error_format, out, err, options.max_steps,
                            options.max_seconds);
  }
  // `run --dump=FILE.json`: main's values at its end (pipeline/values.hpp), not a step's output.
  const bool values_file = options.stage == Stage::Run && options.dump.ends_with(".json");
  const bool dumping = !options.dump.empty() && !values_file;
  pipeline::Dump dump = pipeline::Dump::Ast;
  if (dumping) {
    const std::optional<pipeline::Dump> named = pipeline::dump_by_name(options.dump);
    if (!named) {
      render_plain_error(
          err, "--dump takes ast, typed, lowered, kernels, cuda or uir, not `" + options.dump + "`",
          options.error_format);
      return 2;
    }
    dump = *named;
  }
  const bool map_svg = !options.map.empty() && options.map != "true";
  if (map_svg && (options.map.size() <= 4 || !options.map.ends_with(".svg"))) {
    render_plain_error(
        err, "--map=FILE writes an SVG picture: FILE ends in .svg, `" + options.map + "` does not",
        options.error_format);
    return 2;
  }
  int read_status = 0;
  auto file = read_source_or_report(options.file, err, options.error_format, read_status);
  if (!file) return read_status;
  Machine machine = default_machine();
  if (!options.machine.empty() && !pipeline::load_machine_for(options.machine, options.file,
                                                              machine, err, options.error_format))
    return 2;

  pipeline::Options front;
  front.machine = &machine;
  front.explain =
      options.explain || !options.map.empty() || (dumping && dump == pipeline::Dump::Kernels);
  front.maps = !options.map.empty();
  front.deny_warnings = options.deny_warnings;
  // A dump stops at the step that makes it; under `run`, the lowered program is the one the run
  // executes (with its offload marks).
  // Only a run starts at `main` (E0103 without one); `check`, `emit-cuda`, `lower` and `call`
  // take a library file of `pub fn`s as well (spec/cli.md §3).
  front.needs_main =
      options.stage == Stage::Run || (options.stage == Stage::Lower && options.lower_run);
  front.through = options.stage == Stage::Parse ? pipeline::Step::Parse
                  : options.stage == Stage::Run || options.stage == Stage::Call
                      ? pipeline::Step::OffloadMarks
                      : pipeline::Step::KernelRules;
  if (dumping && (options.stage != Stage::Run || pipeline::step_of(dump) < pipeline::Step::Lower))
    front.through = pipeline::step_of(dump);
  if (options.skip_kernel_rules) front.through = std::min(front.through, pipeline::Step::Lower);
  pipeline::Compiled c = pipeline::compile(file, front);
  // The tables also for a program the kernel rules refused: its error says to look at them (a
  // program the parser or the checker refused never reached the rules).
  const bool rules_ran = c.ok() || *c.refused_at == pipeline::Step::KernelRules;
  if (options.explain && rules_ran) kr::emit_explain(out, *file, c.explained, options.error_format);
  if (!options.map.empty() && rules_ran && !write_maps(options, *file, c.explained, out, err))
    return 2;
  if (!c.ok()) {
    emit_diagnostics(err, *c.diags, options.error_format);
    return 1;
  }
  if (!c.diags->list().empty()) emit_diagnostics(err, *c.diags, options.error_format);  // warnings
  if (dumping) {
    pipeline::print_dump(out, dump, c);
    return 0;
  }
  switch (options.stage) {
    case Stage::Parse:
    case Stage::Check:
      return 0;
    case Stage::Lower:
      if (options.lower_run) return uir::lower_running(*c.program, out, err);
      pipeline::print_dump(out, pipeline::Dump::Uir, c);
      return 0;
    case Stage::EmitCuda:
      if (!options.cubin.empty())
        return compile_cubin(offload::emit_regions(*c.program, emit_options(options, err)), machine,
                             options, err);
      pipeline::print_cuda(out, c,
                           options.prelude == "include"  ? pipeline::CudaPrelude::Include
                           : options.prelude == "header" ? pipeline::CudaPrelude::Header
                                                         : pipeline::CudaPrelude::Inline,
                           emit_options(options, err));
      return 0;
    case Stage::Run:
    case Stage::Call:
      break;
  }
  pipeline::RunRequest run;
  run.offload.mode = options.offload;
  run.offload.verbose = options.verbose;
  run.offload.profile = options.profile;
  run.offload.error_format = options.error_format;
  run.offload.emit = emit_options(options, err);
  run.check_races = options.check_races;
  run.max_steps = options.max_steps;
  run.max_seconds = options.max_seconds;
  run.error_format = options.error_format;
  if (options.stage == Stage::Call)
    return call::call(c, options.call, std::move(run), out, err, options.error_format);
  if (options.dump_regions && !values_file) {
    render_plain_error(err, "--dump-regions goes with --dump=FILE.json", options.error_format);
    return 2;
  }
  if (!values_file && options.dump_npy.empty()) return pipeline::run(c, run, out, err);
  // main's values at its end (pipeline/values.hpp); nothing is written after a runtime error.
  nlohmann::json values, regions = nlohmann::json::array();
  std::string npy_error;
  if (options.dump_regions) {
    // The function that holds each region, and how many times each has run.
    std::map<const tir::Stmt*, std::pair<const tir::Function*, int>> region_of;
    for (const tir::Function& fn : c.program->functions)
      tir::walk_block(fn.body, [&](const tir::Stmt* s, const tir::Expr*) {
        if (s && s->kind == tir::StmtKind::Spawn) region_of[s] = {&fn, 0};
      });
    run.after_region = [&, region_of](const tir::Stmt& spawn, interp::Frame& frame) mutable {
      auto& [fn, launches] = must_find(region_of, &spawn);
      regions.push_back(values::dump_region(*c.program, *fn, spawn, ++launches, frame));
    };
  }
  run.at_end = [&](const tir::Function& main, interp::Frame& frame, size_t ran) {
    if (values_file) values = values::dump_main(*c.program, main, frame, ran);
    if (options.dump_regions) values["regions"] = std::move(regions);
    if (!options.dump_npy.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(options.dump_npy, ec);
      npy_error = ec ? "cannot make the directory `" + options.dump_npy + "`"
                     : values::write_npy(*c.program, main, frame, ran, options.dump_npy);
    }
  };
  const int status = pipeline::run(c, run, out, err);
  if (!npy_error.empty()) {
    render_plain_error(err, npy_error, options.error_format);
    return 2;
  }
  if (values.is_null()) return status;
  std::ofstream dump_file(options.dump, std::ios::binary);
  dump_file << values::to_text(values);
  if (!dump_file.flush()) {
    render_plain_error(err, "cannot write `" + options.dump + "`", options.error_format);
    return 2;
  }
  return status;
}

}  // namespace vx
