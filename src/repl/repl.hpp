// `vx repl` (spec/cli.md §7): reads inputs — multi-line while a bracket, brace, parenthesis,
// string or block comment is open, or while the text ends where it cannot (`let y = 3 +`); in
// `:uir` mode while a `range` lacks its `end` — and runs each against a Session, or runs a `:`
// command. On a terminal it edits lines with libedit (history, TAB completion); with standard
// input not a terminal it reads plain lines and prints results only, so that it can be scripted.
#pragma once
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "repl/session.hpp"

namespace vx::repl {

// Runs the REPL until `:quit` or the end of input. Returns the exit status (0).
int run_repl(const SessionOptions& options);

// The same without a terminal: inputs from `in`, for tests and scripts.
int run_repl_stream(const SessionOptions& options, std::istream& in, std::ostream& out,
                    std::ostream& err);

// The same REPL fed one line at a time by a front end of its own (the machine protocol,
// protocol.hpp): a line is read as if typed at the prompt, commands included.
class LineRepl {
 public:
  // Throws std::runtime_error when the session cannot start (an unreadable --machine file).
  LineRepl(const SessionOptions& options, std::ostream& out, std::ostream& err);
  ~LineRepl();
  bool line(const std::string& text);  // false after `:quit`
  bool continuing() const;             // an input is open
  void finish();                       // runs what is still open (the parser says what is missing)
  Session& session();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// How an input typed so far stands (spec/cli.md §7.2; continuation.cpp).
enum class InputEnd {
  Complete,    // it runs (or the parser says what is wrong with it)
  Open,        // a `(`, `[`, `{`, string or `/*` is open: it goes on
  Unfinished,  // it ends where it cannot (`let y = 3 +`, `let x =`, `if x > 3`): it goes on
};
InputEnd input_end(const std::string& text);
// True when input_end(text) is not Complete: the input goes on.
bool input_is_open(const std::string& text);

// What TAB offers for `word`: commands at the start of a line, methods after `.`, else keywords,
// built-ins (`lanes::`, atomics, fences, memories, macros), scalar types and `names`.
std::vector<std::string> completions(const std::string& word, const std::string& line,
                                     const std::vector<std::string>& names);

}  // namespace vx::repl
