#include "repl/line_editor.hpp"

#include <histedit.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace vx::repl {

std::string common_prefix(const std::vector<std::string>& words) {
  if (words.empty()) return "";
  std::string p = words[0];
  for (const std::string& w : words) {
    size_t k = 0;
    while (k < p.size() && k < w.size() && p[k] == w[k]) ++k;
    p.resize(k);
  }
  return p;
}

std::string LineEditor::history_path() {
  if (const char* x = std::getenv("XDG_STATE_HOME"); x && *x) return std::string(x) + "/vx/history";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.local/state/vx/history";
  return "";
}

struct LineEditor::Impl {
  EditLine* el = nullptr;
  History* hist = nullptr;
  HistEvent ev{};
  std::string prompt;
  std::string path;
  Completer completer;
  bool abandoned = false;
  std::string abandoned_text;  // what the line held when Ctrl-C abandoned it

  static const char* prompt_of(EditLine* el) {
    Impl* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    return self ? self->prompt.c_str() : "";
  }

  // Ctrl-C: abandon the line (the terminal is raw while libedit reads, so it is a key, not a
  // signal; while an input runs, it is SIGINT, which stops the input: repl/interrupt.hpp).
  static unsigned char abandon(EditLine* el, int) {
    Impl* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    self->abandoned = true;
    const LineInfo* li = el_line(el);
    self->abandoned_text.assign(li->buffer, static_cast<size_t>(li->lastchar - li->buffer));
    return CC_NEWLINE;
  }

  // TAB: insert what all candidates share; when several remain, list them under the line.
  static unsigned char complete(EditLine* el, int) {
    Impl* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    const LineInfo* li = el_line(el);
    std::string before(li->buffer, static_cast<size_t>(li->cursor - li->buffer));
    size_t start = before.size();
    while (start > 0) {
      const char c = before[start - 1];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '!')) break;
      --start;
    }
    const std::string word = before.substr(start);
    std::vector<std::string> cands = self->completer(word, before);
    if (cands.empty()) return CC_ERROR;
    const std::string common = common_prefix(cands);
    if (common.size() > word.size()) el_insertstr(el, common.substr(word.size()).c_str());
    if (cands.size() == 1) return CC_REFRESH;
    std::fputs("\n", stdout);
    size_t width = 0;
    for (const auto& c : cands) width = std::max(width, c.size());
    const size_t per_line = std::max<size_t>(1, 78 / (width + 2));
    for (size_t i = 0; i < cands.size(); ++i) {
      std::fprintf(stdout, "%-*s", static_cast<int>(width + 2), cands[i].c_str());
      if ((i + 1) % per_line == 0 || i + 1 == cands.size()) std::fputs("\n", stdout);
    }
    std::fflush(stdout);
    return CC_REDISPLAY;
  }
};

LineEditor::LineEditor(const char* program_name, Completer completer)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.completer = std::move(completer);
  m.hist = history_init();
  history(m.hist, &m.ev, H_SETSIZE, 1000);
  history(m.hist, &m.ev, H_SETUNIQUE, 1);
  m.path = history_path();
  if (!m.path.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(m.path).parent_path(), ec);
    history(m.hist, &m.ev, H_LOAD, m.path.c_str());
  }
  m.el = el_init(program_name, stdin, stdout, stderr);
  el_set(m.el, EL_CLIENTDATA, &m);
  el_set(m.el, EL_EDITOR, "emacs");
  el_set(m.el, EL_PROMPT, &Impl::prompt_of);
  el_set(m.el, EL_HIST, history, m.hist);
  el_set(m.el, EL_ADDFN, "vx-complete", "complete a keyword, built-in or name", &Impl::complete);
  el_set(m.el, EL_BIND, "^I", "vx-complete", nullptr);
  el_set(m.el, EL_ADDFN, "vx-abandon", "abandon the line", &Impl::abandon);
  el_set(m.el, EL_BIND, "^C", "vx-abandon", nullptr);
  el_set(m.el, EL_SETTY, "-d", "-isig", nullptr);  // ^C reaches the binding above
  el_source(m.el, nullptr);                        // ~/.editrc
}

LineEditor::~LineEditor() {
  el_end(impl_->el);
  history_end(impl_->hist);
}

bool LineEditor::read_line(const std::string& prompt, std::string& line, bool& interrupted) {
  impl_->prompt = prompt;
  impl_->abandoned = false;
  impl_->abandoned_text.clear();
  int count = 0;
  const char* got = el_gets(impl_->el, &count);
  interrupted = impl_->abandoned;
  if (interrupted) {
    std::fputs("^C\n", stdout);
    std::fflush(stdout);
    line = impl_->abandoned_text;
    return true;
  }
  if (!got || count <= 0) return false;
  line.assign(got, static_cast<size_t>(count));
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return true;
}

void LineEditor::add_history(const std::string& line) {
  if (line.find_first_not_of(" \t") == std::string::npos) return;
  history(impl_->hist, &impl_->ev, H_ENTER, line.c_str());
  if (!impl_->path.empty()) history(impl_->hist, &impl_->ev, H_SAVE, impl_->path.c_str());
}

}  // namespace vx::repl
