// Line editing for `vx repl` on a terminal, with libedit's native API: emacs key bindings,
// history kept in $XDG_STATE_HOME/vx/history (else ~/.local/state/vx/history), and TAB
// completion that inserts the common prefix and lists the candidates when there are several.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vx::repl {

class LineEditor {
 public:
  // Candidates for `word` (the text before the cursor back to a blank or an operator);
  // `line` is the whole text before the cursor.
  using Completer =
      std::function<std::vector<std::string>(const std::string& word, const std::string& line)>;

  LineEditor(const char* program_name, Completer completer);
  ~LineEditor();

  // Reads one line (without its newline). Returns false at the end of input (Ctrl-D).
  // `interrupted` is set when Ctrl-C abandoned the line; `line` is then what it held.
  bool read_line(const std::string& prompt, std::string& line, bool& interrupted);
  void add_history(const std::string& line);

  // The history file: $XDG_STATE_HOME/vx/history, else ~/.local/state/vx/history.
  static std::string history_path();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The longest common prefix of the candidates.
std::string common_prefix(const std::vector<std::string>& words);

}  // namespace vx::repl
