#include "rules/explain.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace vx::kr {

namespace {

std::string value_text(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string("unbounded");
}

const char* failure_word(RadixProof::Failure f) {
  switch (f) {
    case RadixProof::None:
      return "proved";
    case RadixProof::NotDigits:
      return "not_digits";
    case RadixProof::Comparison:
      return "comparison";
    case RadixProof::Wraps:
      return "wraps";
    default:
      return "not_determined";
  }
}

}  // namespace

// The table, with columns as wide as their widest cell.
void print_proof_table(std::ostream& out, const RadixProof& p, const std::string& indent) {
  std::vector<std::vector<std::string>> rows = {
      {"digit", "coefficient", "largest value", "the most it adds"}};
  for (const Digit& d : p.digits)
    rows.push_back({d.text() + (d.parallel ? "  (parallel)" : ""), std::to_string(d.coefficient),
                    value_text(d.largest), value_text(d.adds)});
  std::vector<size_t> w(4, 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < 4; ++i) w[i] = std::max(w[i], r[i].size());
  for (size_t k = 0; k < rows.size(); ++k) {
    out << indent;
    for (size_t i = 0; i < 4; ++i) {
      if (i == 0)
        out << std::left << std::setw(static_cast<int>(w[i])) << rows[k][i];
      else
        out << " | " << std::right << std::setw(static_cast<int>(w[i])) << rows[k][i];
    }
    out << "\n";
    if (k == 0) {
      out << indent;
      for (size_t i = 0; i < 4; ++i) out << (i ? "-|-" : "") << std::string(w[i], '-');
      out << "\n";
    }
  }
  out << std::left;
}

nlohmann::json proof_json(const RadixProof& p) {
  nlohmann::json j;
  j["result"] = failure_word(p.failure);
  if (!p.why.empty()) j["why"] = p.why;
  j["digits"] = nlohmann::json::array();
  for (const Digit& d : p.digits) {
    nlohmann::json r{{"digit", d.text()},
                     {"loop", d.var},
                     {"form", d.form == DigitForm::Index ? "index"
                              : d.form == DigitForm::Div ? "div"
                                                         : "mod"},
                     {"coefficient", d.coefficient},
                     {"parallel", d.parallel}};
    if (d.form != DigitForm::Index) r["k"] = d.k;
    r["largest"] = d.largest ? nlohmann::json(*d.largest) : nlohmann::json();
    r["adds"] = d.adds ? nlohmann::json(*d.adds) : nlohmann::json();
    j["digits"].push_back(r);
  }
  j["comparisons"] = nlohmann::json::array();
  for (const Comparison& c : p.comparisons)
    j["comparisons"].push_back(
        {{"digit", p.digits[c.digit].text()},
         {"coefficient", c.coefficient},
         {"smaller", c.smaller ? nlohmann::json(*c.smaller) : nlohmann::json()},
         {"holds", c.holds},
         {"text", c.text}});
  j["determined"] = p.determined;
  j["constant"] = p.constant_part;
  return j;
}

nlohmann::json check_json(const LoopCheck& c) {
  nlohmann::json j{{"loop", c.level + " loop `" + c.var + "`"}, {"level", c.level}, {"var", c.var}};
  if (c.private_buffer) {
    j["private"] = true;
    return j;
  }
  j["proof"] = proof_json(c.proof);
  if (!c.same_expression.empty()) j["different_index"] = c.same_expression;
  if (!c.others.empty()) j["other_indices"] = c.others;
  if (!c.collision.empty()) j["collision"] = c.collision;
  return j;
}

Diagnostic explain_diagnostic(const StoreExplain& s) {
  Diagnostic d;
  d.severity = Severity::Note;
  d.message = "explain: the store `" + s.place + "`";
  d.span = s.span;
  d.label = s.offset.empty() ? "offset not readable" : "offset " + s.offset;
  nlohmann::json& data = *d.data;
  data = {{"kind", "explain"}, {"store", s.place}, {"tensor", s.tensor}, {"offset", s.offset}};
  data["checks"] = nlohmann::json::array();
  for (const auto& c : s.checks) data["checks"].push_back(check_json(c));
  return d;
}

void render_explain(std::ostream& out, const SourceFile& file,
                    const std::vector<StoreExplain>& stores) {
  if (stores.empty()) {
    out << "no stores in across loops\n";
    return;
  }
  for (const StoreExplain& s : stores) {
    LineCol lc = file.line_col(s.span.begin);
    out << file.path() << ":" << lc.line << ":" << lc.col << ": store `" << s.place << "`\n";
    out << "  offset: " << (s.offset.empty() ? "(not readable)" : s.offset) << "\n";
    for (const LoopCheck& c : s.checks) {
      LineCol ll = file.line_col(c.loop_span.begin);
      out << "  " << c.level << " loop `" << c.var << "` (line " << ll.line << "): ";
      if (c.private_buffer) {
        out << "`" << s.tensor << "` is made in this loop, so each pass writes its own\n";
        continue;
      }
      const RadixProof& p = c.proof;
      if (p.failure == RadixProof::NotDigits) {
        out << "not proved: the offset is not a sum of digits: " << p.why << "\n";
        continue;
      }
      out << (p.proved() && c.same_expression.empty() ? "proved" : "not proved") << "\n";
      if (!p.per_dimension.empty())
        out << "    index by index (the offset's strides are not constants): " << p.per_dimension
            << "\n";
      print_proof_table(out, p, "    ");
      if (p.comparisons.empty()) out << "    (one digit: nothing to compare)\n";
      for (const Comparison& cmp : p.comparisons)
        out << "    " << (cmp.holds ? "ok    " : "FAILS ") << cmp.text << "\n";
      std::string par = c.var;
      out << "    " << (p.determined ? "ok    " : "FAILS ") << "the digits of `" << par << "` "
          << (p.determined ? "determine it" : "do not determine it") << "\n";
      if (p.failure == RadixProof::Wraps) out << "    FAILS no wrapping: " << p.why << "\n";
      for (const std::string& why : c.others) out << "    ok    another index: " << why << "\n";
      if (!c.same_expression.empty())
        out << "    FAILS the same index everywhere: " << c.same_expression << "\n";
      if (!c.collision.empty()) out << "    for example: " << c.collision << "\n";
    }
  }
}

void emit_explain(std::ostream& out, const SourceFile& file,
                  const std::vector<StoreExplain>& stores, ErrorFormat format) {
  if (format == ErrorFormat::Human) return render_explain(out, file, stores);
  for (const auto& s : stores)
    out << diagnostic_json(file, explain_diagnostic(s))
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
}

}  // namespace vx::kr
