// The machine protocol (spec/cli.md §7.7). A request's code goes line by line into a LineRepl,
// the terminal REPL's reader, so that it means what it means typed at the prompt. The session's
// hooks (session.hpp) hand over the events as data instead of text; what is still printed
// (program output, the text of commands, other messages) is captured per request. The session
// reads each input as a text of its own, so its positions start at that text's first line: they
// are moved into the request's code by finding which part of it the session read (an Origin),
// and diagnostics and tables are rendered again against the whole code.
#include "repl/protocol.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <streambuf>

#include "repl/repl.hpp"
#include "repl/report.hpp"
#include "repl/wrapped.hpp"
#include "support/diagnostics.hpp"
#include "support/internal_error.hpp"
#include "support/json_input.hpp"
#include "support/source.hpp"

namespace vx::repl {

namespace {

using nlohmann::json;

constexpr size_t kMaxRequestBytes = size_t{16} << 20;  // one request line
constexpr size_t kMaxOutputBytes = size_t{8} << 20;    // kept of a request's stdout or stderr

std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);  // invalid UTF-8 becomes U+FFFD
}

// A stream buffer that keeps the first kMaxOutputBytes written to it and counts the rest, so that
// a program printing without end cannot fill the memory before its reply.
class CappedText : public std::streambuf {
 public:
  std::string& text() { return text_; }
  // The text, with a line that says how much was left out; then empty again.
  std::string take() {
    std::string t = std::move(text_);
    if (dropped_ > 0) t += "\n[" + std::to_string(dropped_) + " more bytes of output left out]\n";
    text_.clear();
    dropped_ = 0;
    return t;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    put(&ch, 1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    put(s, static_cast<size_t>(n));
    return n;
  }

 private:
  void put(const char* s, size_t n) {
    const size_t room = kMaxOutputBytes - std::min(kMaxOutputBytes, text_.size());
    text_.append(s, std::min(n, room));
    dropped_ += n - std::min(n, room);
  }
  std::string text_;
  size_t dropped_ = 0;
};

// An error with no place, in the shape of a JSON diagnostic (spec/cli.md §5).
json plain_error(const std::string& message) {
  std::ostringstream o;
  render_plain_error(o, message, ErrorFormat::Json);
  std::string why;  // no limit of size: the message may quote a request of up to 16 MiB, twice
  std::optional<json> j = parse_json(o.str(), std::numeric_limits<size_t>::max(), why);
  if (!j) internal_error("a diagnostic rendered as JSON is " + why);
  return std::move(*j);
}

// A diagnostic with no place in the request's code: the keys of a JSON diagnostic (spec/cli.md
// §5), with no spans, rendered as the REPL prints it.
json unplaced_json(const Diagnostic& d) {
  std::ostringstream rendered;
  render_unplaced(rendered, d);
  return {{"level", d.severity == Severity::Warning ? "warning"
                    : d.severity == Severity::Note  ? "note"
                                                    : "error"},
          {"code", d.code.empty() ? json() : json(d.code)},
          {"message", d.message},
          {"spans", json::array()},
          {"notes", d.notes},
          {"helps", d.helps},
          {"rendered", rendered.str()}};
}

// A text the session read, and where it lies in the code of a request.
struct Origin {
  std::shared_ptr<const SourceFile> code;  // the request's code, ending with a newline
  uint32_t at = 0;                         // the byte where the text starts in it
  std::string text;
  uint32_t code_bytes = 0;  // the code's length as sent (the newline above may be added)
};

// An SVG document, as a command such as `:map` writes it.
bool is_svg(const std::string& text) {
  const std::string t = trim(text);
  return (t.rfind("<svg", 0) == 0 || t.rfind("<?xml", 0) == 0) && t.size() >= 6 &&
         t.compare(t.size() - 6, 6, "</svg>") == 0;
}

// The word before the cursor that TAB completes (as the terminal's line editor takes it).
size_t word_start(const std::string& code, size_t cursor) {
  size_t start = cursor;
  while (start > 0) {
    const char c = code[start - 1];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '!')) break;
    --start;
  }
  return start;
}

class Server {
 public:
  Server(const SessionOptions& options)
      : out_(&out_text_), err_(&err_text_), repl_(options, out_, err_) {
    SessionHooks hooks;
    hooks.diagnostic = [this](const SourceFile& file, const Diagnostic& d) {
      on_diagnostic(file, d);
    };
    hooks.value = [this](const std::string& value, const std::string& type,
                         const std::string& text) {
      values_.push_back({out_text_.text().size(), value, type, text});
    };
    hooks.explained = [this](const SourceFile& file, const kr::StoreExplain& s) {
      on_explained(file, s);
    };
    hooks.region_ran = [this](const SourceFile& file, Span region, bool gpu, double ms) {
      on_region(file, region, gpu, ms);
    };
    hooks.unplaced = [this](const Diagnostic& d) {
      reply_["diagnostics"].push_back(unplaced_json(d));
    };
    hooks.interrupted = [this] { interrupted_ = true; };
    repl_.session().set_hooks(std::move(hooks));
  }

  // One request line; its reply. `quit` is set after `:quit`.
  json handle(const std::string& line, bool& quit) {
    id_ = json();
    std::string why;
    std::optional<json> read = parse_json(line, kMaxRequestBytes, why);
    if (!read) return refusal(json(), "the request is " + why);
    json request = std::move(*read);
    if (!request.is_object())
      return refusal(json(),
                     "a request is a JSON object, such as {\"id\": 1, \"code\": \"1 + 2\"}");
    const json id = id_ = request.contains("id") ? request["id"] : json();
    const json op = request.contains("op") ? request["op"] : json("execute");
    const json code = request.contains("code") ? request["code"] : json();
    if (!code.is_string()) return refusal(id, "the request has no \"code\" string");
    if (op == "execute") return execute(id, code.get<std::string>(), quit);
    if (op == "is_complete")
      return {{"id", id},
              {"status", "ok"},
              {"complete", !input_is_open(code.get<std::string>() + "\n")}};
    if (op == "complete") return complete(id, code.get<std::string>(), request);
    return refusal(id, "unknown \"op\" " + dump(op) + ": one of execute, is_complete, complete");
  }

  // The reply to a request that ended in an exception (a bug in vx), which drops what it printed.
  json broken(const std::string& what) {
    out_text_.take();
    err_text_.take();
    return refusal(id_, "internal error: " + what);
  }

  // A request that could not be served: status error, the reason as a diagnostic.
  json refusal(const json& id, const std::string& why) {
    json r = empty_reply(id);
    r["status"] = "error";
    r["diagnostics"].push_back(plain_error(why));
    return r;
  }

 private:
  struct Value {
    size_t at;  // where it stood in stdout
    std::string value, type, text;
  };

  static json empty_reply(const json& id) {
    return {{"id", id},
            {"status", "ok"},
            {"stdout", ""},
            {"stderr", ""},
            {"value", nullptr},
            {"type", nullptr},
            {"text", nullptr},
            {"diagnostics", json::array()},
            {"tables", json::array()},
            {"svg", json::array()},
            {"timing", json::array()},
            {"elapsed_ms", 0.0}};
  }

  json execute(const json& id, const std::string& code, bool& quit) {
    const auto started = std::chrono::steady_clock::now();
    reply_ = empty_reply(id);
    values_.clear();
    interrupted_ = false;
    auto whole = std::make_shared<const SourceFile>(
        "<repl>", code.empty() || code.back() != '\n' ? code + "\n" : code);
    size_t at = 0;
    while (at < code.size() && !quit) {
      const size_t nl = std::min(code.find('\n', at), code.size());
      const std::string line = code.substr(at, nl - at);
      const bool command = !repl_.continuing() && trim(line).rfind(':', 0) == 0;
      const size_t out_before = out_text_.text().size();
      if (command) {
        const std::string t = trim(line);
        const size_t sp = t.find_first_of(" \t");
        const std::string arg = sp == std::string::npos ? "" : trim(t.substr(sp));
        argument_ = {whole, static_cast<uint32_t>(at + line.find(arg, line.find(':') + 1)), arg,
                     static_cast<uint32_t>(code.size())};
      } else {
        if (!repl_.continuing())
          open_ = {whole, static_cast<uint32_t>(at), "", static_cast<uint32_t>(code.size())};
        open_.text += line + "\n";
      }
      if (!repl_.line(line)) quit = true;
      if (command) take_svg(out_before);
      if (!command && !repl_.continuing() && !trim(open_.text).empty()) last_ = open_;
      at = nl + 1;
    }
    if (!quit && repl_.continuing()) {
      repl_.finish();
      last_ = open_;
    }
    return finish(started);
  }

  json finish(std::chrono::steady_clock::time_point started) {
    std::string& out = out_text_.text();
    if (!values_.empty()) {
      const Value& v = values_.back();
      reply_["value"] = v.value;
      reply_["type"] = v.type;
      reply_["text"] = v.text;
      // The values before the last stay in stdout where the REPL prints them.
      for (size_t i = values_.size() - 1; i-- > 0;)
        out.insert(std::min(values_[i].at, out.size()), values_[i].text);
    }
    reply_["stdout"] = out_text_.take();
    const std::string err = err_text_.take();
    reply_["stderr"] = err;
    bool failed = err.rfind("error", 0) == 0 || err.find("\nerror") != std::string::npos;
    for (const json& d : reply_["diagnostics"]) failed = failed || d["level"] == "error";
    reply_["status"] = interrupted_ ? "interrupted" : failed ? "error" : "ok";
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - started;
    reply_["elapsed_ms"] = ms.count();
    return std::move(reply_);
  }

  // Where the text of `file` lies in a request's code, when the session read it from one: the
  // open input, the argument of a command (`:type EXPR`), or the last input (`:check`).
  const Origin* origin_of(const SourceFile& file) const {
    if (file.path() != "<repl>") return nullptr;
    for (const Origin* o : {&open_, &argument_, &last_})
      if (o->code && o->text == file.text()) return o;
    return nullptr;
  }

  static Span moved(Span s, uint32_t by) { return {s.begin + by, s.end + by}; }

  void on_diagnostic(const SourceFile& file, const Diagnostic& d) {
    const Origin* o = origin_of(file);
    if (!o) {
      reply_["diagnostics"].push_back(diagnostic_json(file, d));
      return;
    }
    // Moved into the code, and never past its end: the end of an input that is the code's last
    // line lies after the newline the session adds to it, which the code may not have.
    auto in_code = [&](Span s) {
      const Span t = moved(s, o->at);
      return Span{std::min(t.begin, o->code_bytes), std::min(t.end, o->code_bytes)};
    };
    Diagnostic m = d;
    m.span = in_code(d.span);
    for (Label& l : m.secondary) l.span = in_code(l.span);
    reply_["diagnostics"].push_back(diagnostic_json(*o->code, m));
  }

  void on_explained(const SourceFile& file, kr::StoreExplain s) {
    const SourceFile* in = &file;
    if (const Origin* o = origin_of(file)) {
      in = o->code.get();
      s.span = moved(s.span, o->at);
      for (kr::LoopCheck& c : s.checks) c.loop_span = moved(c.loop_span, o->at);
    }
    const LineCol lc = in->line_col(s.span.begin);
    json loops = json::array();
    for (const kr::LoopCheck& c : s.checks) {
      json l = kr::check_json(c);
      l["line"] = in->line_col(c.loop_span.begin).line;
      l["proved"] = c.private_buffer || (c.proof.proved() && c.same_expression.empty());
      l["columns"] = {"digit", "coefficient", "largest value", "the most it adds"};
      l["rows"] = json::array();
      if (!c.private_buffer)
        for (const json& d : l["proof"]["digits"])
          l["rows"].push_back({d["digit"], d["coefficient"], d["largest"], d["adds"]});
      loops.push_back(std::move(l));
    }
    std::ostringstream text;
    kr::render_explain(text, *in, {s});
    reply_["tables"].push_back({{"store", s.place},
                                {"tensor", s.tensor},
                                {"offset", s.offset},
                                {"line", lc.line},
                                {"column", lc.col},
                                {"loops", std::move(loops)},
                                {"rendered", text.str()}});
  }

  void on_region(const SourceFile& file, Span region, bool gpu, double ms) {
    json t{{"line", nullptr}, {"column", nullptr}, {"on", gpu ? "GPU" : "host"}, {"ms", ms}};
    if (!region.empty()) {
      const Origin* o = origin_of(file);
      const SourceFile& in = o ? *o->code : file;
      const LineCol lc = in.line_col(o ? region.begin + o->at : region.begin);
      t["line"] = lc.line;
      t["column"] = lc.col;
    }
    reply_["timing"].push_back(std::move(t));
  }

  // What a command wrote on stdout after `from`, when it is an SVG document, goes to "svg".
  void take_svg(size_t from) {
    std::string& out = out_text_.text();
    if (from >= out.size() || !is_svg(out.substr(from))) return;
    reply_["svg"].push_back(trim(out.substr(from)) + "\n");
    out.erase(from);
  }

  json complete(const json& id, const std::string& code, const json& request) {
    size_t cursor = code.size();
    if (request.contains("cursor")) {
      const json& c = request["cursor"];
      if (!c.is_number_unsigned() || c.get<size_t>() > code.size())
        return refusal(id, "\"cursor\" is a byte offset into the code, at most its length");
      cursor = c.get<size_t>();
    }
    const size_t start = word_start(code, cursor);
    const size_t line_start = code.rfind('\n', cursor == 0 ? 0 : cursor - 1);
    const size_t from = line_start == std::string::npos || cursor == 0 ? 0 : line_start + 1;
    const std::string line = code.substr(from, cursor - from);
    return {
        {"id", id},
        {"status", "ok"},
        {"matches", completions(code.substr(start, cursor - start), line, repl_.session().names())},
        {"cursor_start", start},
        {"cursor_end", cursor}};
  }

  CappedText out_text_, err_text_;
  std::ostream out_, err_;
  LineRepl repl_;
  json id_, reply_;
  std::vector<Value> values_;
  bool interrupted_ = false;
  Origin open_, argument_, last_;
};

}  // namespace

int serve_protocol(const SessionOptions& options, std::istream& in,
                   const std::function<void(const std::string& line)>& send, std::ostream& err) {
  std::optional<Server> server;
  try {
    server.emplace(options);
  } catch (const std::runtime_error& e) {
    err << "error: " << e.what() << "\n";
    return 2;
  }
  std::string line;
  bool quit = false;
  while (!quit && std::getline(in, line)) {
    if (trim(line).empty()) continue;
    json reply;
    try {
      reply = server->handle(line, quit);
    } catch (const std::exception& e) {  // a bug in vx: said in the reply, and the session goes on
      reply = server->broken(e.what());
    }
    send(dump(reply));
  }
  return 0;
}

int run_protocol(const SessionOptions& options) {
  std::cout.flush();
  const int reply_fd = dup(STDOUT_FILENO);
  FILE* replies = reply_fd < 0 ? nullptr : fdopen(reply_fd, "w");
  if (!replies || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::cerr << "error: cannot set up standard output for the protocol\n";
    return 2;
  }
  // A SIGINT changes nothing until the session installs its handler (interrupt.hpp), which stops
  // a running input; between requests it changes nothing either.
  signal(SIGINT, SIG_IGN);
  return serve_protocol(
      options, std::cin,
      [&](const std::string& line) {
        std::fwrite(line.data(), 1, line.size(), replies);
        std::fputc('\n', replies);
        std::fflush(replies);
      },
      std::cerr);
}

}  // namespace vx::repl
