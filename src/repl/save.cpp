// See save.hpp.
#include "repl/save.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace vx::repl {

namespace {

// Whether a string literal of `text` holds a line break (indenting it would change the string).
bool string_spans_lines(const std::string& text) {
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      else if (c == '\n')
        return true;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"') {
      in_string = true;
    }
  }
  return false;
}

std::string indented(const std::string& text) {
  std::string out;
  const bool indent = !string_spans_lines(text);
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(at, nl - at);
    if (line.find_first_not_of(" \t\r") != std::string::npos)
      out += (indent ? "    " : "") + line + "\n";
    else if (!out.empty() && nl < text.size())
      out += "\n";
    at = nl + 1;
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

}  // namespace

std::string saved_program(const std::vector<std::string>& items,
                          const std::vector<std::string>& statements, bool values) {
  std::string s =
      "// Saved by `vx repl` (:save): the session's items, then its inputs in order.\n\n";
  for (const std::string& it : items) s += it + "\n\n";
  if (values) s += "#[allow(unused_results)]  // the values the REPL printed\n";
  s += "fn main() {\n";
  for (const std::string& st : statements) s += indented(st);
  s += "}\n";
  return s;
}

bool save_file(const std::string& path, const std::string& text, bool overwrite,
               std::set<std::string>& written, std::ostream& err) {
  std::error_code ec;
  const std::string key = std::filesystem::weakly_canonical(path, ec).string();
  const bool exists = std::filesystem::exists(path, ec);
  if (exists && !overwrite && !written.count(key)) {
    err << "error: `" << path << "` exists; `:save! " << path << "` overwrites it\n";
    return false;
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f << text;
  if (f) f.close();
  if (!f) {
    err << "error: cannot write `" << path << "`: " << std::strerror(errno) << "\n";
    return false;
  }
  written.insert(std::filesystem::weakly_canonical(path, ec).string());
  return true;
}

}  // namespace vx::repl
