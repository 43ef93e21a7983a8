// `:save FILE` (spec/cli.md §7.5): the session's accepted inputs written as a program that
// `vx run` runs. Internal to src/repl.
#pragma once
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace vx::repl {

// A Vx program: the items, then `fn main` with the statements of the inputs in order, each
// input's lines indented (unless a string in it spans lines). `values`: some statements are
// expressions whose value the REPL printed, so main allows `unused_results`.
std::string saved_program(const std::vector<std::string>& items,
                          const std::vector<std::string>& statements, bool values = false);

// Writes `text` to `path`, which must not exist unless `overwrite`, or unless it is one of
// `written` (files this session's :save wrote); adds it there. Says why not on `err`.
bool save_file(const std::string& path, const std::string& text, bool overwrite,
               std::set<std::string>& written, std::ostream& err);

}  // namespace vx::repl
