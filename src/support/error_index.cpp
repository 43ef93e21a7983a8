#include "support/error_index.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace vx {

namespace {

// spec/errors.md (the top-level CMakeLists.txt embeds it, vx_embed; copied only when it changes).
const char* const kErrorsMd =
#include "support/errors_md.inc"
    ;

// The sections of the error index: each starts at a line `### E0300 — …`.
struct Section {
  std::string code;
  std::string text;  // from the heading (without `### `) to the next section or rule
};

std::vector<Section> sections() {
  std::vector<Section> out;
  std::istringstream in(kErrorsMd);
  std::string line;
  bool open = false;
  while (std::getline(in, line)) {
    const bool heading = line.rfind("### E", 0) == 0;
    if (heading) {
      const std::string code = line.substr(4, line.find(' ', 4) - 4);
      out.push_back({code, line.substr(4) + "\n"});
      open = true;
    } else if (line.rfind("## ", 0) == 0 || line == "---") {
      open = false;
    } else if (open && line.rfind("<!-- tests:", 0) != 0) {  // which tests cover it: for the spec
      out.back().text += line + "\n";
    }
  }
  for (Section& s : out)
    while (s.text.size() > 1 && s.text[s.text.size() - 2] == '\n') s.text.pop_back();
  return out;
}

}  // namespace

std::vector<std::string> error_codes() {
  std::vector<std::string> codes;
  for (const Section& s : sections()) codes.push_back(s.code);
  return codes;
}

int explain_code(const std::string& code, std::ostream& out, std::ostream& err) {
  std::string want;
  for (char c : code) want += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!want.empty() && std::isdigit(static_cast<unsigned char>(want[0]))) want = "E" + want;
  for (const Section& s : sections()) {
    if (s.code != want) continue;
    out << s.text;
    out.flush();
    return 0;
  }
  // A kernel rule's id (`vx explain write-must-fix-loop`): its item of E6032's list of rules.
  for (const Section& s : sections()) {
    const size_t item = s.text.find("\n- `" + code + "` (");
    if (s.code != "E6032" || code.empty() || item == std::string::npos) continue;
    const size_t end = std::min(s.text.find("\n- ", item + 1), s.text.find("\n\n", item + 1));
    out << "E6032, kernel rule " << s.text.substr(item + 3, end - item - 3) << "\n\n"
        << "`vx explain E6032` explains the kernel rules together.\n";
    out.flush();
    return 0;
  }
  err << "error: no error code `" << code << "`: Vx's codes are listed in spec/errors.md (";
  const auto codes = error_codes();
  err << codes.front() << " … " << codes.back() << ")\n";
  return 2;
}

}  // namespace vx
