// The interpreter: runs a checked, typed program (tir::Program) with the sequential meaning of
// spec/semantics.md (DESIGN §3). It needs a program the checker accepted; it compiles it once
// into an executable tree (interpreter.cpp explains the layout) and runs `main`.
#pragma once
#include <functional>
#include <iostream>
#include <ostream>

#include "check/tir.hpp"
#include "check/tir_marks.hpp"
#include "interp/runtime.hpp"
#include "support/diagnostics.hpp"

namespace vx::interp {

// Runs `spawn on` regions somewhere other than the interpreter (the offload tier plugs one in;
// the interpreter never includes it). `frame` is the frame of the function that holds the region:
// its slots are the TIR slots of tir::Function::slot_types.
class RaceRecorder;

class RegionRunner {
 public:
  virtual ~RegionRunner() = default;
  // Returns true when it ran the region; false lets the interpreter run it.
  virtual bool run_region(const tir::Stmt& spawn, Frame& frame) = 0;
  // An offload mark (RunOptions::marks, check/tir_marks.hpp) was reached. (Not under
  // `--check-races`.)
  virtual void at_mark(const tir::Mark& mark, Frame& frame) {}
};

struct RunOptions {
  std::ostream* out = &std::cout;
  std::ostream* err = &std::cerr;
  RegionRunner* runner = nullptr;  // null: every region runs in the interpreter
  // The offload marks (offload/marks.hpp), each handed to `runner` where it stands; null: none.
  const tir::Marks* marks = nullptr;
  // `--check-races` (race_check.hpp): when set, the program is compiled with recording nodes
  // and every region runs in the interpreter; null compiles the normal tree.
  RaceRecorder* race_recorder = nullptr;
  int max_call_depth = 10000;
  // `--max-steps N`, `--max-seconds S` (spec/semantics.md §8.1); 0: no limit.
  int64_t max_steps = 0;
  double max_seconds = 0;
  // The host threads of across-blocks loops (host_parallel.hpp); 0: VX_HOST_THREADS, else every
  // core.
  int host_threads = 0;
  // The REPL's interrupt (RunLimits::interrupt): when set, the run stops at its next loop pass or
  // call with a runtime error whose message is kInterrupted. Null: not interruptible.
  const std::atomic<bool>* interrupt = nullptr;
  // Prints a runtime error; null: render_human against the program's file. (The REPL maps the
  // span back into the text the user typed.)
  std::function<void(std::ostream&, const Diagnostic&)> report_error;
  // How errors without a position (out of memory, an internal error) are written.
  ErrorFormat error_format = ErrorFormat::Human;
  // Called when main has returned, at its end or early (not after a runtime error), with main's
  // frame and how many statements of its body (main.body->stmts) ran to their end: all of them,
  // or those before the one that returned. `vx run --dump=FILE.json` reads its bindings there,
  // of the `let`s that ran.
  std::function<void(const tir::Function& main, Frame& frame, size_t ran)> at_end;
  // `vx call` (spec/cli.md §2.2): the function to run instead of main (an index into
  // Program::functions; -1: main), and what sets its parameters' slots in its frame before it
  // starts (on the run's thread; a RuntimeError it throws is reported as the run's). A function
  // other than main ends with exit status 0; at_end finds its return value in the frame.
  int entry = -1;
  std::function<void(const tir::Function& fn, Frame& frame)> bind;
  // `vx call --bench`: asked after at_end; true calls the entry again in the same frame (bind
  // first), so that the kernels compiled and the threads started stay for the next call.
  std::function<bool()> again;
  // Called after each `spawn on` region has run (wherever it ran), with the frame of the
  // function that holds it: `vx run --dump=FILE.json --dump-regions`.
  std::function<void(const tir::Stmt& spawn, Frame& frame)> after_region;
  // Run on the caller's thread instead of a thread of run_program's own: for a caller that knows
  // its stack is deep enough for the calls the program can make (the Python package, for a
  // function whose calls do not recurse), and saves a thread's start and end per run.
  bool on_this_thread = false;
};

// Runs main. Returns the exit status: main's i32 return value & 0xFF (0 for a unit main), or 101
// after a runtime error (printed to err as `error: runtime error: …` with ` --> file:line:col`,
// the source line and ^^^). Runs on a thread of its own with a large stack, so that deep Vx
// recursion meets the call-depth limit before the C++ stack ends.
int run_program(const tir::Program& program, const RunOptions& options);

}  // namespace vx::interp

namespace vx {
using interp::RegionRunner;
using interp::run_program;
using interp::RunOptions;
}  // namespace vx
