// `vx`'s sub-commands that take a program: their options, turned into calls of the pipeline
// (pipeline/pipeline.hpp), which runs the steps in order.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include "pipeline/call.hpp"
#include "support/diagnostics.hpp"

namespace vx {

enum class Stage { Parse, Check, Run, Call, EmitCuda, Lower };

struct CommandOptions {
  std::string file;
  Stage stage = Stage::Run;
  std::string dump;      // "", or a step's output: ast, typed, kernels, cuda, uir (pipeline.hpp);
                         // under run also FILE.json, main's values (pipeline/values.hpp)
  std::string dump_npy;  // run --dump-npy=DIR: main's tensors as DIR/NAME.npy
  bool dump_regions = false;  // run --dump=FILE.json --dump-regions: also after each region
  ErrorFormat error_format = ErrorFormat::Human;
  std::string machine;     // --machine FILE (read by the kernel rules); empty: fleet/h100-sxm.vx
  bool explain = false;    // check --explain: print the kernel rules' digit tables
  std::string map;         // check --map: "true" (a text map on `out`) or FILE.svg; empty: none
  bool map_color = false;  // the text map with ANSI colour (--color, NO_COLOR, on stdout)
  bool deny_warnings = false;      // -D warnings: a warning refuses the program (exit status 1)
  bool check_races = false;        // run --check-races: record the passes of across loops
  bool skip_kernel_rules = false;  // hidden: run without the kernel rules (the race oracle's tests)
  std::string offload = "auto";    // run --offload=auto|off|gpu|verify (spec/offload.md)
  bool verbose = false;            // run -v: say where each region ran and why
  bool profile = false;            // run --profile: a table of the GPU launches at the end
  int64_t max_steps = 0;           // run --max-steps N (spec/semantics.md §8.1); 0: no limit
  double max_seconds = 0;          // run --max-seconds S; 0: no limit
  bool lower_run = false;  // lower --run: lower each region with the values of its first launch
  std::string cubin;       // emit-cuda --cubin OUT: compile with NVRTC into OUT instead of printing
  std::string arch;        // emit-cuda --arch sm_XX; empty: the machine file's compute capability
  std::string prelude = "inline";  // emit-cuda --prelude=inline|include|header
  // emit-cuda, run, call: the CUDA emitter's optimisations switched off (--no-opt=NAME,…, checked
  // by the parser) and --opt-bisect-limit N (-1: none); offload/emit_options.hpp.
  std::string no_opt;
  int64_t opt_bisect_limit = -1;
  call::Request call;  // vx call FILE FN --arg … --out …
};

// Returns the process exit status: 0, 1 (refused), 2 (usage: unreadable file), 101 (runtime
// error), or main's return value.
int run_command(const CommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace vx
