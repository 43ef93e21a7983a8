// `vx`: the command line (spec/cli.md). Sub-commands: run, call, check, parse, emit-cuda, lower,
// conformance, repl, explain, diff.
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <string_view>
#include <type_traits>

#include "cli/commands.hpp"
#include "cli/conformance.hpp"
#include "offload/emit_options.hpp"
#include "pipeline/values.hpp"
#include "repl/explain_text.hpp"
#include "repl/protocol.hpp"
#include "repl/repl.hpp"
#include "support/error_index.hpp"
#include "support/internal_error.hpp"
#include "support/large_stack.hpp"
#include "support/suggest.hpp"

namespace {

std::string self_exe(const char* argv0) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) return std::string(buf, static_cast<size_t>(n));
  return argv0;
}

// Whether the command line asks for JSON diagnostics. Read before CLI11 parses it, so that a
// usage error of the same command line is JSON too (spec/cli.md §5).
bool wants_json(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--error-format=json") return true;
    if (arg == "--error-format" && i + 1 < argc && std::string_view(argv[i + 1]) == "json")
      return true;
  }
  return false;
}

// The check of every numeric option: its text is a number of type T (std::from_chars: decimal,
// no base prefix, nothing after it) from `lo` to `hi`, and finite. CLI11 2.1's own reading lets
// 9223372036854775808 through as INT64_MAX (strtoll saturates) and NaN through any Range (every
// comparison with it is false), so that `--max-steps 2^63` or `--max-seconds nan` set no limit.
// The text is rewritten as the number read, which CLI11 then reads back as the same value.
template <class T>
CLI::Validator number_in(T lo, T hi) {
  auto text = [](T v) {
    if constexpr (std::is_integral_v<T>) {
      return std::to_string(v);
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v);  // enough digits to read back the same double
      return std::string(buf);
    }
  };
  const std::string what = std::string(std::is_integral_v<T> ? "an integer" : "a number") +
                           " from " + text(lo) + " to " + text(hi);
  return CLI::Validator(
      [lo, hi, what, text](std::string& input) {
        T value{};
        const char* end = input.data() + input.size();
        const auto [at, error] = std::from_chars(input.data(), end, value);
        bool finite = true;
        if constexpr (std::is_floating_point_v<T>) finite = std::isfinite(value);
        if (error != std::errc() || at != end || !finite || value < lo || value > hi)
          return "`" + input + "` is not " + what;
        input = text(value);
        return std::string();
      },
      std::is_integral_v<T> ? "INT" : "NUMBER");
}

// A program on PATH, by name.
bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    if (!dir.empty() && access((dir + "/" + name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// `vx explain CODE` (spec/cli.md §8). Piped, the entry's Markdown as it is. On a terminal, as
// `rustc --explain`: laid out for the terminal (repl::terminal_text, cmark) to its width and paged
// through $PAGER, else `less -FRX` when there is one (-F: a page that fits is just printed),
// else printed.
int explain_command(const std::string& code, const std::string& color) {
  if (!isatty(STDOUT_FILENO)) return vx::explain_code(code, std::cout, std::cerr);
  std::ostringstream markdown;
  if (const int status = vx::explain_code(code, markdown, std::cerr); status != 0) return status;
  winsize size{};
  const size_t width =
      ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40 ? size.ws_col : 80;
  const std::string text = vx::repl::terminal_text(
      markdown.str(), vx::color_wanted(color, STDOUT_FILENO), std::min<size_t>(width, 100));
  const char* env = std::getenv("PAGER");
  const std::string pager = env && *env ? env : on_path("less") ? "less -FRX" : "";
  if (!pager.empty()) {
    std::cout.flush();
    // A pager quit before the end closes the pipe: that is no error of vx.
    void (*old)(int) = std::signal(SIGPIPE, SIG_IGN);
    FILE* pipe = popen(pager.c_str(), "w");
    if (pipe) {
      std::fwrite(text.data(), 1, text.size(), pipe);
      const int status = pclose(pipe);
      std::signal(SIGPIPE, old);
      if (WIFEXITED(status) && WEXITSTATUS(status) != 126 && WEXITSTATUS(status) != 127) return 0;
    } else {
      std::signal(SIGPIPE, old);
    }
  }
  std::cout << text;  // no pager, or one that could not run
  return 0;
}

// The arguments after the program's name, last first (as CLI11's parse takes them), with
// `--map FILE.svg` joined into `--map=FILE.svg`: `--map` is a flag, so the next word is its value
// only when it names an SVG file; otherwise it is the program (`vx check --map f.vx`).
std::vector<std::string> map_file_argument(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--map" && i + 1 < argc && std::string_view(argv[i + 1]).ends_with(".svg"))
      args.push_back(a + "=" + argv[++i]);
    else
      args.push_back(a);
  }
  std::reverse(args.begin(), args.end());
  return args;
}

int vx_main(int argc, char** argv) {
  CLI::App app{"vx: the reference implementation of the Vx language", "vx"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "vx 0.1.0");

  vx::CommandOptions opts;
  std::string error_format = "human";
  std::string color = "auto";
  auto add_program_options = [&](CLI::App* cmd) {
    cmd->add_option("FILE", opts.file, "the .vx program")->required();
    cmd->add_option("--error-format", error_format, "how diagnostics are printed")
        ->check(CLI::IsMember({"human", "json"}));
    cmd->add_option("--color", color, "colour in diagnostics: auto (on a terminal), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    cmd->add_option_function<std::string>(
           "-D", [&](const std::string&) { opts.deny_warnings = true; },
           "-D warnings: every warning is an error")
        ->check(CLI::IsMember({"warnings"}));
    cmd->add_option("--machine", opts.machine, "machine file (fleet/*.vx)");
  };
  // The bounds of a run (spec/semantics.md §8.1): `vx run`, `vx call` and `vx repl`.
  auto add_limits = [](CLI::App* cmd, int64_t& max_steps, double& max_seconds) {
    cmd->add_option("--max-steps", max_steps,
                    "stop after N loop passes and calls (a runtime error)")
        ->check(number_in<int64_t>(1, INT64_MAX));
    cmd->add_option("--max-seconds", max_seconds,
                    "stop after S seconds of running (a runtime error)")
        ->check(number_in(0.001, 1e9));
  };
  // The CUDA emitter's optimisations (src/offload/optimisations.def): `vx emit-cuda`, `vx run`
  // and `vx call`.
  auto add_emit_options = [&](CLI::App* cmd) {
    cmd->add_option("--no-opt", opts.no_opt,
                    "switch these optimisations of the CUDA emitter off: NAME,… or all (" +
                        vx::offload::optimisation_names() + ")")
        ->check(CLI::Validator(
            [](std::string& v) {
              std::set<vx::offload::Optimisation> off;
              std::string error;
              return vx::offload::parse_no_opt(v, off, error) ? std::string() : error;
            },
            "NAME,…"));
    cmd->add_option("--opt-bisect-limit", opts.opt_bisect_limit,
                    "apply only the CUDA emitter's first N optimisation decisions, saying each "
                    "on stderr")
        ->check(number_in<int64_t>(0, INT64_MAX));
  };
  // How a program runs: `vx run` and `vx call`.
  auto add_run_options = [&](CLI::App* cmd) {
    add_emit_options(cmd);
    cmd->add_option("--offload", opts.offload, "where spawn regions run (spec/offload.md)")
        ->check(CLI::IsMember({"auto", "off", "gpu", "verify"}));
    cmd->add_flag("-v,--verbose", opts.verbose, "say where each region ran, and why");
    cmd->add_flag("--profile", opts.profile, "print a table of the GPU launches at the end");
    add_limits(cmd, opts.max_steps, opts.max_seconds);
    cmd->add_flag("--check-races", opts.check_races,
                  "stop when two passes of an across loop touch the same element");
  };
  auto* run = app.add_subcommand("run", "check a program, then run it");
  add_program_options(run);
  add_run_options(run);
  auto* call = app.add_subcommand("call", "call a `pub fn` on .npy arrays (spec/cli.md §2.2)");
  add_program_options(call);
  call->add_option("FN", opts.call.fn, "the function")->required();
  call->add_option("--arg", opts.call.args, "NAME=PATH.npy for a tensor, NAME=VALUE for a scalar");
  call->add_option("--out", opts.call.outs,
                   "NAME=PATH.npy: where a &mut tensor (or `return`) is written");
  call->add_option("--shape", opts.call.shapes,
                   "NAME=D0,D1,…: the shape of a &mut tensor made for --out (no --arg)");
  auto* bench =
      call->add_flag("--bench", opts.call.bench,
                     "call it repeatedly (warm-up, then timed calls); print the median time");
  call->add_option("--bench-warmup", opts.call.warmup_ms,
                   "with --bench: milliseconds of warm-up calls (default 25)")
      ->check(number_in(0.0, 1e7))
      ->needs(bench);
  call->add_option("--bench-rep", opts.call.rep_ms,
                   "with --bench: milliseconds of timed calls (default 100)")
      ->check(number_in(0.0, 1e7))
      ->needs(bench);
  add_run_options(call);
  run->add_option("--dump-npy", opts.dump_npy, "write main's tensors at its end as DIR/NAME.npy");
  run->add_flag("--dump-regions", opts.dump_regions,
                "with --dump=FILE.json: also the bindings after each spawn region");
  auto* emit_cuda = app.add_subcommand("emit-cuda", "print the CUDA C++ of every spawn region");
  add_program_options(emit_cuda);
  add_emit_options(emit_cuda);
  emit_cuda->add_option("--cubin", opts.cubin,
                        "compile the kernels with NVRTC into this file instead");
  emit_cuda->add_option("--arch", opts.arch, "with --cubin: sm_XX (default: the machine file's)");
  emit_cuda
      ->add_option("--prelude", opts.prelude,
                   "inline (the default): the prelude first; include: #include \"vx_prelude.cuh\" "
                   "instead; header: print that header alone")
      ->check(CLI::IsMember({"inline", "include", "header"}));
  run->add_flag("--unchecked-kernels", opts.skip_kernel_rules)->group("");  // for race tests
  auto* check = app.add_subcommand("check", "check a program without running it");
  add_program_options(check);
  check->add_flag("--explain", opts.explain,
                  "print the digit table of every store in an across loop");
  // A flag that takes a value: bare `--map` is "true" (CLI11's value for a flag given alone,
  // which shows no `{true}` in --help), `--map=FILE.svg` the file; `--map FILE.svg` is made
  // `--map=FILE.svg` before parsing (map_file_argument).
  check->add_flag("--map", opts.map,
                  "draw who writes each element of every store in an across loop; "
                  "--map FILE.svg (or --map=FILE.svg): as an SVG picture in FILE.svg");
  auto* parse = app.add_subcommand("parse", "parse a program (and print its AST)");
  add_program_options(parse);
  parse->add_option("--dump", opts.dump, "what to print: ast")->check(CLI::IsMember({"ast"}));
  // What a step of the pipeline made (pipeline/pipeline.hpp), printed instead of going on; under
  // `run`, a FILE.json is the values of main's bindings at its end (pipeline/values.hpp).
  const CLI::IsMember steps({"ast", "typed", "lowered", "kernels", "cuda", "uir"});
  check->add_option("--dump", opts.dump, "print what a step made, and stop")->check(steps);
  run->add_option("--dump", opts.dump,
                  "print what a step made, and stop; or FILE.json: write main's values there")
      ->check(steps | CLI::Validator(
                          [](std::string& v) {
                            return v.size() > 5 && v.ends_with(".json")
                                       ? std::string()
                                       : std::string("not a FILE.json");
                          },
                          "FILE.json"));
  std::string lower_to;
  auto* lower = app.add_subcommand("lower", "print every checked spawn region in another IR");
  add_program_options(lower);
  lower->add_option("--to", lower_to, "the IR: uir (spec/uir.md)")
      ->required()
      ->check(CLI::IsMember({"uir"}));
  lower->add_flag("--run", opts.lower_run,
                  "run the program; lower each region with the values it captures");

  vx::ConformanceOptions conf;
  auto* conformance = app.add_subcommand("conformance", "run the conformance corpus");
  conformance->add_option("DIR", conf.dirs, "corpus directories or files")->required();
  conformance->add_option("--impl", conf.impl_template,
                          "command of another implementation, with {file} (and {flags})");
  conformance->add_option("--format", conf.format, "text, json or junit")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  conformance->add_option("--output", conf.output_file, "also write the JSON/JUnit report here");
  conformance->add_option("--timeout", conf.timeout_seconds, "seconds per program")
      ->check(number_in(1, 86400));
  conformance->add_option("-j,--jobs", conf.jobs, "programs run at once")->check(number_in(1, 256));
  conformance->add_flag("-v,--verbose", conf.verbose, "list passing programs too");
  conformance->add_option("--filter", conf.filters, "only programs whose path matches GLOB");
  conformance->add_option("--exclude", conf.excludes, "skip programs whose path matches GLOB");
  conformance->add_option("--xfail", conf.xfail_file, "a file of programs expected to fail");
  conformance->add_flag("--bless", conf.bless, "(re)write NAME.stdout from this vx's output");
  conformance->add_flag("--coverage", conf.coverage,
                        "list every section of spec/ with its tests (runs nothing)");
  conformance->add_option("--spec", conf.spec_dir, "with --coverage: the spec/ directory");
  conf.progress = "auto";
  conformance
      ->add_option("--progress", conf.progress,
                   "progress on stderr: auto (bar on a terminal, else lines), bar, lines, off")
      ->check(CLI::IsMember({"auto", "bar", "lines", "off"}));
  conformance->add_flag("--by-section", conf.by_section, "pass rates per `// spec:` section");
  conformance->add_option("--write-xfail", conf.write_xfail,
                          "write the failing programs to FILE, as --xfail reads them");
  conformance
      ->add_option("--impl-format", conf.impl_format,
                   "the implementation's diagnostics: human, or json (one object a line)")
      ->check(CLI::IsMember({"human", "json"}));

  vx::repl::SessionOptions repl_opts;
  auto* repl = app.add_subcommand("repl", "an interactive session (spec/cli.md §7)");
  repl->add_option("--offload", repl_opts.offload, "where spawn regions run (spec/offload.md)")
      ->check(CLI::IsMember({"auto", "off", "gpu", "verify"}));
  repl->add_option("--machine", repl_opts.machine, "machine file (fleet/*.vx)");
  add_limits(repl, repl_opts.max_steps, repl_opts.max_seconds);
  std::string repl_protocol = "text";
  repl->add_option("--protocol", repl_protocol,
                   "text (the default), or jsonl: one JSON request and reply a line (spec/cli.md "
                   "§7.7)")
      ->check(CLI::IsMember({"text", "jsonl"}));
  repl->add_option("--color", color, "colour in diagnostics and :explain: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  std::string diff_a, diff_b;
  int64_t diff_ulps = 0;
  auto* diff =
      app.add_subcommand("diff", "compare two `vx run --dump=FILE.json` files, or two .npy files");
  diff->add_option("A", diff_a, "a values file, or a .npy file")->required();
  diff->add_option("B", diff_b, "another")->required();
  diff->add_option("--ulp", diff_ulps, "floats may differ by this many ulps (default 0)")
      ->check(number_in<int64_t>(0, INT64_MAX));
  std::string explain_code;
  auto* explain = app.add_subcommand("explain", "the long explanation of an error code");
  explain->add_option("CODE", explain_code, "an error code of spec/errors.md (E0300)")->required();

  std::vector<std::string> args = map_file_argument(argc, argv);
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // `vx runn x.vx`: CLI11 says only that a sub-command is required; name the likely one. The
    // first word that is no option nor the value of --error-format is the sub-command.
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    const char* word = nullptr;
    const char* option = nullptr;  // the first option before it, but --error-format
    for (int i = 1; i < argc && !word; ++i) {
      if (argv[i][0] == '-') {
        const std::string a = argv[i];
        if (a == "--error-format")
          ++i;
        else if (!option && !a.starts_with("--error-format="))
          option = argv[i];
        continue;
      }
      word = argv[i];
    }
    if (word && std::find(names.begin(), names.end(), word) == names.end()) {
      std::string msg = std::string("no such sub-command: `") + word + "`";
      const std::string w = word;
      const bool program = (w.size() > 3 && w.compare(w.size() - 3, 3, ".vx") == 0) ||
                           (w.size() > 4 && w.compare(w.size() - 4, 4, ".uir") == 0);
      if (program)
        msg += "; did you mean `vx run " + w + "`?";
      else if (auto near = vx::closest_name(word, names))
        msg += "; did you mean `" + *near + "`?";
      msg += " (`vx --help` lists the sub-commands)";
      vx::render_plain_error(
          std::cerr, msg, wants_json(argc, argv) ? vx::ErrorFormat::Json : vx::ErrorFormat::Human);
      return 2;
    }
    if (!word && dynamic_cast<const CLI::RequiredError*>(&e)) {
      // `vx` alone: what it can do, as cargo answers `cargo`. An option before any sub-command
      // (`vx --bogus`) is named.
      const std::string msg =
          (option ? "unexpected argument `" + std::string(option) + "`: " : "") +
          std::string("a sub-command is required");
      const bool json = wants_json(argc, argv);
      vx::render_plain_error(std::cerr, msg, json ? vx::ErrorFormat::Json : vx::ErrorFormat::Human);
      if (!json) std::cerr << "\n" << app.help();
      return 2;
    }
    if (wants_json(argc, argv))
      vx::render_plain_error(std::cerr, e.what(), vx::ErrorFormat::Json);
    else
      app.exit(e);
    return 2;
  }
  opts.error_format = error_format == "json" ? vx::ErrorFormat::Json : vx::ErrorFormat::Human;
  vx::set_diagnostic_color(vx::color_wanted(color, STDERR_FILENO));
  opts.map_color = vx::color_wanted(color, STDOUT_FILENO);  // the map is drawn on stdout
  if (*explain) return explain_command(explain_code, color);
  if (*diff) return vx::values::diff_files(diff_a, diff_b, diff_ulps, std::cout, std::cerr);
  if (*repl) {
    repl_opts.color = vx::color_wanted(color, STDOUT_FILENO);
    if (repl_protocol == "jsonl") return vx::repl::run_protocol(repl_opts);
    return vx::repl::run_repl(repl_opts);
  }
  if (*conformance) {
    conf.self_exe = self_exe(argv[0]);
    return vx::run_conformance(conf, std::cout, std::cerr);
  }
  opts.stage = *run         ? vx::Stage::Run
               : *call      ? vx::Stage::Call
               : *check     ? vx::Stage::Check
               : *emit_cuda ? vx::Stage::EmitCuda
               : *lower     ? vx::Stage::Lower
                            : vx::Stage::Parse;
  int status = vx::with_large_stack([&] { return vx::run_command(opts, std::cout, std::cerr); },
                                    opts.error_format);
  std::cout.flush();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  try {
    return vx_main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "error: out of memory\n";
    return 101;
  } catch (const vx::InternalError& e) {  // its text says where (support/internal_error.hpp)
    std::cout.flush();
    std::cerr << "error: " << e.what() << "\n";
    return 70;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "error: internal error: " << e.what() << " (this is a bug in vx)\n";
    return 70;
  }
}
