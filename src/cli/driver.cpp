#include "cli/driver.hpp"

#include <pthread.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>

#include "check/checker.hpp"
#include "check/kernel_rules.hpp"
#include "interp/interpreter.hpp"
#include "interp/race_check.hpp"
#include "offload/emit_cuda.hpp"
#include "offload/nvrtc.hpp"
#include "offload/runner.hpp"
#include "parse/parser.hpp"
#include "uir/uir.hpp"

namespace vx {

int with_large_stack(const std::function<int()>& body, ErrorFormat format) {
  struct Call {
    const std::function<int()>* body;
    ErrorFormat format;
    int result = 0;
  } call{&body, format};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);  // virtual: pages are touched only if used
  pthread_t thread;
  auto trampoline = [](void* p) -> void* {
    auto* c = static_cast<Call*>(p);
    try {
      c->result = (*c->body)();
    } catch (const std::bad_alloc&) {
      render_plain_error(std::cerr, "out of memory", c->format);
      c->result = 101;
    } catch (const std::exception& e) {
      render_plain_error(std::cerr,
                         std::string("internal error: ") + e.what() + " (this is a bug in vx)",
                         c->format);
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

// emit-cuda --cubin OUT: every emitted region compiled by NVRTC (as `vx run` compiles them) for
// --arch, else for the machine file's compute capability; regions that are not emitted are listed.
int compile_cubin(const std::vector<offload::EmittedRegion>& regions, const Machine& machine,
                  const DriverOptions& options, std::ostream& err) {
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

int run_driver(const DriverOptions& options, std::ostream& out, std::ostream& err) {
  if (options.file.size() > 4 && options.file.ends_with(".uir")) {
    if (options.stage == Stage::EmitCuda || options.stage == Stage::Lower ||
        !options.dump.empty()) {
      render_plain_error(
          err,
          "`" + options.file +
              "` is .uir; `emit-cuda`, `lower` and `--dump` read .vx (spec/uir.md §6)",
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
  int read_status = 0;
  auto file = read_source_or_report(options.file, err, options.error_format, read_status);
  if (!file) return read_status;
  Diagnostics diags(file);
  auto parsed = parse_program(*file, diags);
  if (!parsed) {
    emit_diagnostics(err, diags, options.error_format);
    return 1;
  }
  Machine machine = default_machine();
  if (!options.machine.empty()) {
    std::string machine_error;
    // A relative path that is not found from here is looked up beside the program and in the
    // directories above it, so `// run-flags: --machine fleet/l4.vx` works from anywhere.
    std::string path = options.machine;
    if (!path.empty() && path[0] != '/' && !std::filesystem::exists(path)) {
      std::filesystem::path dir = std::filesystem::path(options.file).parent_path();
      for (int up = 0; up < 16 && !dir.empty(); ++up, dir = dir.parent_path()) {
        if (std::filesystem::exists(dir / path)) {
          path = (dir / path).string();
          break;
        }
        if (dir == dir.parent_path()) break;
      }
    }
    std::unique_ptr<Diagnostics> machine_diags;
    if (!load_machine(path, machine, machine_error, &machine_diags)) {
      if (machine_diags)
        emit_diagnostics(err, *machine_diags, options.error_format);
      else
        render_plain_error(err, "cannot read the machine file: " + machine_error,
                           options.error_format);
      return 2;
    }
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
  std::vector<kr::StoreExplain> explained;
  if (!options.skip_kernel_rules &&
      !check_kernel_rules(*program, machine, diags, options.explain ? &explained : nullptr)) {
    emit_diagnostics(err, diags, options.error_format);
    return 1;
  }
  if (options.explain) kr::emit_explain(out, *file, explained, options.error_format);
  if (!diags.list().empty()) emit_diagnostics(err, diags, options.error_format);  // warnings
  if (options.stage == Stage::Check) return 0;
  if (options.stage == Stage::Lower) {
    if (options.lower_run) return uir::lower_running(*program, out, err);
    for (const auto& r : uir::lower_program(*program)) uir::print_lowered(out, r);
    return 0;
  }
  if (options.stage == Stage::EmitCuda) {
    auto regions = offload::emit_regions(*program);
    if (!options.cubin.empty()) return compile_cubin(regions, machine, options, err);
    out << offload::cuda_prelude();
    for (auto& r : regions) {
      if (r.ok)
        out << "\n" << r.source;
      else
        out << "\n// " << r.location << ": not emitted: " << r.reason << "\n";
    }
    return 0;
  }
  offload::OffloadOptions oo;
  oo.mode = options.offload;
  oo.verbose = options.verbose;
  oo.profile = options.profile;
  offload::OffloadRunner runner(*program, oo, err);
  // verify (and auto's first GPU launch of each region) compare at a checkpoint after the region.
  if (runner.active()) {
    runner.set_checkpoints(offload::insert_checkpoints(*program));
    runner.set_sync_points(offload::insert_sync_points(*program));  // device memory stays valid
  }
  RunOptions run;
  run.out = &out;
  run.err = &err;
  run.error_format = options.error_format;
  if (options.error_format == ErrorFormat::Json)
    run.report_error = [&](std::ostream& o, const Diagnostic& d) {
      render_diagnostic(o, *file, d, ErrorFormat::Json);
    };
  run.runner = runner.active() ? &runner : nullptr;
  // --check-races: the interpreter records every pass of every across loop and stops at the
  // first collision (interp/race_check.hpp); regions then run in the interpreter.
  interp::RaceRecorder races;
  if (options.check_races) run.race_recorder = &races;
  run.max_steps = options.max_steps;
  run.max_seconds = options.max_seconds;
  const int status = run_program(*program, run);
  runner.finish();
  return status;
}

}  // namespace vx
