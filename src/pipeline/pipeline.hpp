// The pipeline (DESIGN §2, STYLE.md rule 3): the steps every program takes, in this order, and
// the one API that `vx` (cli/commands.cpp), the REPL (repl/session.cpp), the Python package
// (python/ext/module.cpp) and the tests call.
//
//   read → parse        (--dump=ast)     parse/parser.hpp
//        → check        (--dump=typed)   check/checker.hpp
//        → lower        (--dump=lowered) lower/lower.hpp; then the lints, check/lints.hpp
//        → kernel rules (--dump=kernels) rules/kernel_rules.hpp; --explain keeps their proofs
//        → offload marks                 offload/marks.hpp (shown by `run --dump=lowered`)
//        → emit CUDA    (--dump=cuda)    offload/emit_cuda.hpp
//        → to .uir      (--dump=uir)     uir/uir.hpp
//        → run                           interp/interpreter.hpp, with offload/runner.hpp
//
// Each step needs the one before it; a step that refuses ends the list, with its diagnostics.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "check/tir.hpp"
#include "offload/marks.hpp"
#include "offload/runner.hpp"
#include "parse/parser.hpp"
#include "rules/explain.hpp"
#include "rules/machine.hpp"
#include "support/diagnostics.hpp"

namespace vx::pipeline {

// The front end's steps, in order.
enum class Step { Parse, Check, Lower, KernelRules, OffloadMarks };

struct Options {
  Step through = Step::KernelRules;  // the last step to run
  const Machine* machine = nullptr;  // the kernel rules' machine; null: default_machine()
  bool explain = false;              // keep the kernel rules' proof of every store
  bool maps = false;                 // with explain: and its map of who writes what
  bool deny_warnings = false;        // `-D warnings`: a warning refuses the program
  bool needs_main = true;            // false: a file of functions for `vx call`
  std::vector<Span> session_decls;   // the REPL's wrapper: CheckOptions::session_decls
};

// What the front end made of one source.
struct Compiled {
  std::shared_ptr<SourceFile> file;
  std::unique_ptr<Diagnostics> diags;     // every step's diagnostics, warnings included
  std::unique_ptr<ParsedProgram> parsed;  // null: the parser refused
  // Null: the checker refused, or `through` was Parse. Typed as the checker made it when `through`
  // was Check, else lowered (lower/lower.hpp). Kept when the kernel rules refuse.
  std::unique_ptr<tir::Program> program;
  std::vector<kr::StoreExplain> explained;  // with Options::explain
  // The marked program's marks (offload/marks.hpp), beside `program`: set once the
  // offload-marks step ran.
  std::optional<offload::OffloadMarks> marks;
  std::optional<Step> refused_at;  // the step that refused, if one did
  bool ok() const { return !refused_at; }
};

// Runs the steps through `options.through` on `file`.
Compiled compile(std::shared_ptr<SourceFile> file, const Options& options = {});
// The offload-marks step on a program the kernel rules accepted (once; compile runs it when
// `through` is OffloadMarks, and run when it has not run): `compiled.marks`.
void mark_offload(Compiled& compiled);

// Reads a machine file for a program. A relative path that is not found from here is looked up
// beside the program and in the directories above it (`// run-flags: --machine fleet/l4.vx`
// works from anywhere). On failure reports to `err` and returns false.
bool load_machine_for(const std::string& machine_path, const std::string& program_path,
                      Machine& machine, std::ostream& err, ErrorFormat format);

// `vx emit-cuda` (spec/offload.md §1.1): the CUDA of every region after the prelude, its text
// (Inline, also `--dump=cuda`) or `#include "vx_prelude.cuh"` (Include); or that header alone,
// guarded (Header).
enum class CudaPrelude { Inline, Include, Header };
void print_cuda(std::ostream& out, const Compiled& c, CudaPrelude prelude,
                const offload::EmitOptions& options = {});

// `--dump=`: what one step made, printed. Kernels needs Options::explain.
enum class Dump { Ast, Typed, Lowered, Kernels, Cuda, Uir };
std::optional<Dump> dump_by_name(const std::string& name);  // "ast", "typed", …
Step step_of(Dump dump);                                    // the last step a dump needs
void print_dump(std::ostream& out, Dump dump, const Compiled& compiled);

struct RunRequest {
  offload::OffloadOptions offload;  // mode "off": every region in the interpreter
  bool check_races = false;         // record every pass of every across loop (race_check.hpp)
  int64_t max_steps = 0;            // spec/semantics.md §8.1; 0: no limit
  double max_seconds = 0;
  int max_call_depth = 0;  // nested calls before a stack overflow error; 0: the interpreter's
  int host_threads = 0;    // 0: VX_HOST_THREADS, else every core (interp::RunOptions)
  const std::atomic<bool>* interrupt = nullptr;  // the REPL's Ctrl-C (interp::RunOptions)
  ErrorFormat error_format = ErrorFormat::Human;
  // Prints a runtime error; null: rendered against the program's file in error_format.
  std::function<void(std::ostream&, const Diagnostic&)> report_error;
  // A runner of the caller's own, put around the offload tier's (null when the tier is off);
  // returns the runner the interpreter gets. Null: the offload tier's alone (the REPL's
  // markers and `:time` use it).
  std::function<interp::RegionRunner*(offload::OffloadRunner*)> around;
  // Called when main has returned with its frame and how many statements of its body ran
  // (interp::RunOptions::at_end), the GPU's results copied back first.
  std::function<void(const tir::Function& main, interp::Frame& frame, size_t ran)> at_end;
  // `vx call`: the function to run instead of main, and what sets its parameters (RunOptions).
  int entry = -1;
  std::function<void(const tir::Function& fn, interp::Frame& frame)> bind;
  std::function<bool()> again;  // `vx call --bench`: call the entry again (interp::RunOptions)
  // Called after each region with the frame that holds it, the GPU's results copied back first.
  std::function<void(const tir::Stmt& spawn, interp::Frame& frame)> after_region;
  bool on_this_thread = false;  // interp::RunOptions::on_this_thread
};

// Runs a compiled program (the offload marks are placed first if they are not yet). Returns
// run_program's exit status.
int run(Compiled& compiled, const RunRequest& request, std::ostream& out, std::ostream& err);

}  // namespace vx::pipeline
