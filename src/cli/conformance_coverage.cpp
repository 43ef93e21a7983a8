// `vx conformance --coverage` (spec/cli.md §6.5): every section of spec/ with the corpus programs
// whose `// spec:` headers name it, and the sections about vx's own tools with the tests that a
// `<!-- tests: … -->` line under their heading names. Nothing is run.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/conformance.hpp"
#include "cli/conformance_internal.hpp"

namespace vx::conformance {

namespace fs = std::filesystem;

namespace {

// `2.1` of `### 2.1 Exact results`, `2` of `## 2. vx run`; empty when the heading has no number.
std::string section_number(std::string_view title) {
  size_t i = 0;
  while (i < title.size() &&
         (std::isdigit(static_cast<unsigned char>(title[i])) || (title[i] == '.' && i > 0)))
    ++i;
  std::string n(title.substr(0, i));
  while (!n.empty() && n.back() == '.') n.pop_back();
  // A number is followed by a blank: `2. Title`, `2.1 Title`.
  if (n.empty() || i >= title.size() || title[i] != ' ') return {};
  return n;
}

// `E0200` of `### E0200 — mismatched types`; empty otherwise.
std::string error_code(std::string_view title) {
  if (title.size() < 5 || title[0] != 'E') return {};
  for (size_t i = 1; i < 5; ++i)
    if (!std::isdigit(static_cast<unsigned char>(title[i]))) return {};
  if (title.size() > 5 && title[5] != ' ') return {};
  return std::string(title.substr(0, 5));
}

}  // namespace

std::vector<SpecSection> spec_sections(const std::string& spec_dir, std::string& why) {
  std::vector<fs::path> chapters;
  std::error_code ec;
  for (auto it = fs::directory_iterator(spec_dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    if (it->path().extension() == ".md" && it->path().filename() != "README.md")
      chapters.push_back(it->path());
  if (ec || chapters.empty()) {
    why = "no chapters (*.md) in `" + spec_dir + "`";
    return {};
  }
  std::sort(chapters.begin(), chapters.end());
  std::vector<SpecSection> out;
  for (const fs::path& chapter : chapters) {
    const auto text = read_file(chapter);
    if (!text) {
      why = "cannot read `" + chapter.string() + "`";
      return {};
    }
    const std::string file = chapter.filename().string();
    bool fenced = false;
    SpecSection* current = nullptr;
    for (std::string_view raw : split_lines(*text)) {
      const std::string_view line = trimmed(raw);
      if (line.starts_with("```")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) continue;
      if (line.starts_with("## ") || line.starts_with("### ")) {
        const std::string_view title = trimmed(line.substr(line.find(' ')));
        SpecSection s;
        const std::string code = error_code(title), number = section_number(title);
        s.key = file + " " +
                (!code.empty()     ? code
                 : !number.empty() ? "§" + number
                                   : "\"" + std::string(title) + "\"");
        // The title without its number (`2.1 `, `2. `) or code and dash (`E0200 — `).
        std::string_view rest = title;
        if (!code.empty() || !number.empty()) {
          rest.remove_prefix(std::min(rest.find(' '), rest.size()));
          rest = trimmed(rest);
          if (!code.empty() && rest.starts_with("—")) rest = trimmed(rest.substr(3));
        }
        s.title = std::string(rest.empty() ? title : rest);
        out.push_back(std::move(s));
        current = &out.back();
        continue;
      }
      if (line.starts_with("#")) {  // the chapter's title, or a deeper heading: not a section
        if (!line.starts_with("####")) current = nullptr;
        continue;
      }
      constexpr std::string_view kTests = "<!-- tests:";
      if (current && line.starts_with(kTests) && line.ends_with("-->")) {
        std::string_view list = line.substr(kTests.size(), line.size() - kTests.size() - 3);
        while (!list.empty()) {
          const size_t comma = std::min(list.find(','), list.size());
          const std::string_view name = trimmed(list.substr(0, comma));
          if (!name.empty()) current->tests.emplace_back(name);
          list.remove_prefix(std::min(comma + 1, list.size()));
        }
      }
    }
  }
  return out;
}

std::vector<std::string> spec_keys(std::string_view header) {
  std::vector<std::string> keys;
  while (!header.empty()) {
    const size_t semi = std::min(header.find(';'), header.size());
    const std::string_view item = trimmed(header.substr(0, semi));
    if (!item.empty()) keys.emplace_back(item);
    header.remove_prefix(std::min(semi + 1, header.size()));
  }
  return keys;
}

namespace {

// The spec/ for a corpus directory: the `spec` folder of the nearest directory above it that has
// one (the repository's, for conformance/).
std::string find_spec_dir(const std::string& corpus) {
  std::error_code ec;
  fs::path at = fs::weakly_canonical(fs::absolute(corpus, ec), ec);
  for (; !ec && !at.empty(); at = at.parent_path()) {
    std::error_code missing;  // a path that is not there is not an error here
    if (fs::is_regular_file(at / "spec" / "errors.md", missing)) return (at / "spec").string();
    if (at == at.parent_path()) break;
  }
  return {};
}

}  // namespace

int report_coverage(const std::vector<std::string>& programs, const ConformanceOptions& options,
                    std::ostream& out, std::ostream& err) {
  const std::string spec_dir =
      !options.spec_dir.empty() ? options.spec_dir : find_spec_dir(options.dirs.front());
  if (spec_dir.empty()) {
    err << "vx conformance: no spec/ above `" << options.dirs.front()
        << "`; give it with --spec DIR\n";
    return 2;
  }
  std::string why;
  const std::vector<SpecSection> sections = spec_sections(spec_dir, why);
  if (sections.empty()) {
    err << "vx conformance: " << why << "\n";
    return 2;
  }
  std::map<std::string, size_t> index;  // key → sections
  for (size_t i = 0; i < sections.size(); ++i) index.emplace(sections[i].key, i);
  std::vector<std::vector<std::string>> named(sections.size());
  std::vector<std::pair<std::string, std::string>> unknown;  // program, key
  std::vector<std::string> without;                          // programs with no `// spec:`
  for (const std::string& path : programs) {
    const bool uir = path.ends_with(".uir");
    const Expectations e = parse_expectations(read_file(path).value_or(""), uir ? "#" : "//");
    if (e.spec.empty()) without.push_back(path);
    for (const std::string& key : spec_keys(e.spec)) {
      auto it = index.find(key);
      if (it == index.end()) {
        unknown.emplace_back(path, key);
        continue;
      }
      named[it->second].push_back(path);
    }
  }
  // A section is tested by the programs that name it or one of its subsections (`§2.1` tests
  // `§2` too), or by the tests its `<!-- tests: -->` line names (which must exist).
  const fs::path root = fs::path(spec_dir).parent_path();
  nlohmann::json doc = nlohmann::json::array();
  int untested = 0, missing_files = 0;
  std::ostringstream text;
  for (size_t i = 0; i < sections.size(); ++i) {
    const SpecSection& s = sections[i];
    std::vector<std::string> progs = named[i];
    for (size_t j = 0; j < sections.size(); ++j)
      if (j != i && sections[j].key.starts_with(s.key + "."))
        progs.insert(progs.end(), named[j].begin(), named[j].end());
    std::sort(progs.begin(), progs.end());
    progs.erase(std::unique(progs.begin(), progs.end()), progs.end());
    std::vector<std::string> gone;
    std::error_code ec;
    for (const std::string& t : s.tests)
      if (!fs::exists(root / t, ec)) gone.push_back(t);
    missing_files += static_cast<int>(gone.size());
    const bool tested = !progs.empty() || (!s.tests.empty() && gone.empty());
    if (!tested) ++untested;
    text << s.key << " " << s.title << ": ";
    if (!progs.empty()) text << progs.size() << (progs.size() == 1 ? " program" : " programs");
    if (!s.tests.empty()) {
      text << (progs.empty() ? "" : "; ") << "vx's tests ";
      for (size_t k = 0; k < s.tests.size(); ++k) text << (k ? ", " : "") << s.tests[k];
    }
    for (const std::string& g : gone) text << " (" << g << " does not exist)";
    if (!tested) text << (s.tests.empty() ? "" : "; ") << "NO TEST";
    text << "\n";
    if (options.verbose)
      for (const std::string& p : progs) text << "    " << p << "\n";
    doc.push_back({{"section", s.key},
                   {"title", s.title},
                   {"programs", progs},
                   {"tests", s.tests},
                   {"tested", tested}});
  }
  for (const auto& [path, key] : unknown)
    text << path << ": `// spec: " << key << "` names no section of " << spec_dir << "\n";
  for (const std::string& path : without) text << path << ": no `// spec:` header\n";
  text << sections.size() << " sections, " << sections.size() - untested << " tested, " << untested
       << " without a test; " << programs.size() - without.size() << " of " << programs.size()
       << " programs name their sections";
  if (!unknown.empty()) text << "; " << unknown.size() << " name no section";
  text << "\n";
  if (options.format == "json") {
    nlohmann::json report = {{"sections", std::move(doc)},
                             {"unknown", nlohmann::json::array()},
                             {"without_header", without}};
    for (const auto& [path, key] : unknown)
      report["unknown"].push_back({{"file", path}, {"section", key}});
    out << report.dump(1) << "\n";
  } else {
    out << text.str();
  }
  return untested == 0 && unknown.empty() && without.empty() && missing_files == 0 ? 0 : 1;
}

}  // namespace vx::conformance
