// Ctrl-C in the REPL (spec/cli.md §7.3). While an input runs, SIGINT sets a flag that the
// interpreter and the .uir runner read at every loop pass, block and call
// (interp::RunLimits::interrupt): the input stops with a runtime error whose message is
// interp::kInterrupted, and the session stays as it was before the input. While no input runs,
// SIGINT does nothing, so that neither a stray Ctrl-C nor a Jupyter kernel's
// interrupt between two cells ends the process. Every Session installs the handler for its life,
// so each front end (the terminal, piped input, the JSON-lines protocol) gets the same behaviour.
#pragma once
#include <atomic>
#include <boost/core/noncopyable.hpp>

namespace vx::repl {

// Installs the SIGINT handler while alive; nested ones share it, and the last one to go restores
// the handler that was there before the first.
class InterruptHandler : boost::noncopyable {
 public:
  InterruptHandler();
  ~InterruptHandler();
};

// An input runs while one is alive: it clears the flag when made, and SIGINT then sets it.
class RunningInput : boost::noncopyable {
 public:
  RunningInput();
  ~RunningInput();
};

// The flag the runs read.
const std::atomic<bool>* interrupt_flag();
// Whether the running input was asked to stop.
bool interrupt_requested();

}  // namespace vx::repl
