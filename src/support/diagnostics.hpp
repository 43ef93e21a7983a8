// Diagnostics: a code, a span, a message, labels and notes, collected in a list and rendered
// like rustc's (`error[E0200]: …`, `--> file:line:col`, the line, a `^^^` underline) or as JSON.
// Every pass reports user errors here; internal errors never come from here.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.hpp"

namespace vx {

enum class Severity { Error, Warning, Note };

struct Label {
  Span span;
  std::string text;
};

// A diagnostic's machine-readable data (explain tables, write maps …), null until written. It is
// held by pointer so that this header, which nearly every file includes, needs only
// <nlohmann/json_fwd.hpp>: the whole of nlohmann::json costs about 2 s of compiling a file that
// includes it. A file that reads or writes the data includes <nlohmann/json.hpp>.
class DiagnosticData {
 public:
  DiagnosticData() noexcept;
  DiagnosticData(const DiagnosticData& other);
  DiagnosticData(DiagnosticData&& other) noexcept;
  DiagnosticData& operator=(const DiagnosticData& other);
  DiagnosticData& operator=(DiagnosticData&& other) noexcept;
  ~DiagnosticData();
  nlohmann::json& operator*();                 // made null on first use
  const nlohmann::json* get() const noexcept;  // nullptr when never written
 private:
  std::unique_ptr<nlohmann::json> value_;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;     // "E0200"; empty for a plain message
  std::string message;  // the headline
  Span span;            // the primary span
  std::string label;    // text under the primary `^^^`
  std::vector<Label> secondary;
  std::vector<std::string> notes;  // `= note: …` lines
  std::vector<std::string> helps;  // `= help: …` lines
  DiagnosticData data;             // extra machine-readable data (explain tables …)
  std::string rule;                // E6032: which kernel rule (rules/kernel_rules.def), for JSON
  std::string lint;                // a warning's name (`idle_lanes`), for `#[allow(…)]` and JSON
};

// The note that the first warning of the lint `lint` carries: "`#[warn(LINT)]` on by default".
std::string on_by_default(const std::string& lint);
bool is_on_by_default(const std::string& note);
// Removes that note from the warning `d`, and gives it back when `first` (the first of its lint
// that a reader sees), before the other notes.
void note_on_by_default(Diagnostic& d, bool first);

class Diagnostics {
 public:
  explicit Diagnostics(std::shared_ptr<const SourceFile> file) : file_(std::move(file)) {}

  Diagnostic& error(std::string code, Span span, std::string message, std::string label = {});
  // A warning of the lint `lint` (spec/errors.md, "Warnings"); the first of each lint kept says
  // that it is on by default (on_by_default).
  Diagnostic& warning(std::string lint, Span span, std::string message, std::string label = {});
  size_t warning_count() const;
  // Drops the diagnostics `drop` says so of (warnings that `#[allow(…)]` allows).
  // The first warning of each lint that is left says that it is on by default.
  template <class Pred>
  void remove_if(Pred drop) {
    std::erase_if(list_, drop);
    std::erase_if(dropped_, drop);
    note_defaults();
  }
  // From now on, the warnings that `allowed` says so of (`#[allow(…)]`) are neither kept nor
  // counted, so that they take no place under the cap; remove_if takes away those made before.
  void set_allowed(std::function<bool(const Diagnostic&)> allowed) {
    allowed_ = std::move(allowed);
  }
  // `-D warnings`: every warning becomes an error, with a note that says why.
  void deny_warnings();
  Diagnostic& add(Diagnostic d);
  bool has_errors() const;
  size_t error_count() const;
  // The diagnostics kept for printing; those past the caps are counted, never printed.
  const std::vector<Diagnostic>& list() const { return list_; }
  // Errors and warnings reported past their caps (each cap counts its own severity, so warnings
  // can never crowd out an error, and every count above includes these).
  size_t dropped_count() const { return dropped_.size(); }
  const SourceFile& file() const { return *file_; }
  std::shared_ptr<const SourceFile> file_ptr() const { return file_; }
  // The errors kept are capped, so that garbage input cannot produce megabytes of output; a pass
  // may stop early once the cap is reached. Warnings have a cap of their own.
  bool full() const { return kept(Severity::Error) >= kMaxKept; }
  static constexpr size_t kMaxKept = 50;  // of each severity

 private:
  size_t kept(Severity s) const;
  void note_defaults();
  std::shared_ptr<const SourceFile> file_;
  std::vector<Diagnostic> list_;
  // Past the caps: code, lint, severity and span only (for the counts, `#[allow]` and `-D`).
  std::vector<Diagnostic> dropped_;
  std::function<bool(const Diagnostic&)> allowed_;
};

enum class ErrorFormat { Human, Json };

void render_human(std::ostream& out, const SourceFile& file, const Diagnostic& d);
// A runtime error of a running program: `error: runtime error: MESSAGE`, its place, the line;
// under Json the diagnostic object (code null) on one line (spec/cli.md §5).
void render_runtime_error(std::ostream& out, const SourceFile& file, Span span,
                          const std::string& message, ErrorFormat format = ErrorFormat::Human);
// One diagnostic in the form `format` asks for (Json: one object on one line).
void render_diagnostic(std::ostream& out, const SourceFile& file, const Diagnostic& d,
                       ErrorFormat format);
// An error with no code and no place (a usage error, an unreadable file): `error: MESSAGE`, or
// under Json an object of the diagnostics' shape with "code": null and no spans.
void render_plain_error(std::ostream& out, const std::string& message, ErrorFormat format);
nlohmann::json diagnostic_json(const SourceFile& file, const Diagnostic& d);
// Prints every diagnostic in `diags`, then (human format) a line counting the errors and, unless
// `explain_command` is empty, which of their codes it explains (rustc's "For more information
// about this error, try …").
void emit_diagnostics(std::ostream& out, const Diagnostics& diags, ErrorFormat format,
                      std::string_view explain_command = "vx explain");

// Colour in human diagnostics (`--color`, spec/cli.md §5): off until the command line turns it
// on. JSON, and the "rendered" text inside it, never has it.
void set_diagnostic_color(bool on);
bool diagnostic_color();
// Whether `--color=CHOICE` (auto, always, never) means colour on the terminal `fd`: auto is
// colour when `fd` is a terminal, NO_COLOR is unset or empty, and TERM is not `dumb`.
bool color_wanted(std::string_view choice, int fd);

// Reads the source file a command works on. When it cannot, prints why in `format` and returns
// nullptr with `status` set: 2 for a file that cannot be read, 1 for one larger than 16 MiB
// (refused with E0003 at its start, spec/grammar.md §1).
std::shared_ptr<SourceFile> read_source_or_report(const std::string& path, std::ostream& err,
                                                  ErrorFormat format, int& status);

}  // namespace vx
