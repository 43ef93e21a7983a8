// Exact results as data: the document spec/values.schema.json describes, written from main's
// frame, and read back by `vx diff`.
#include "pipeline/values.hpp"

#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "pipeline/npy.hpp"
#include "support/json_input.hpp"
#include "support/source.hpp"

namespace vx::values {

namespace {

// `0x3f800000`: the bits of a float element, as many hex digits as its type has nibbles.
std::string hex_bits(Scalar s, uint64_t bits) {
  const int nibbles = scalar_info(s).bits / 4;
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", nibbles, static_cast<unsigned long long>(bits));
  return buf;
}

// A float's slot bits keep its value in the low bits (interp/runtime.hpp).
uint64_t float_bits(Scalar s, uint64_t slot) {
  const int n = scalar_info(s).bits;
  return n == 64 ? slot : slot & ((uint64_t{1} << n) - 1);
}

// The `type` of a `&str` binding.
constexpr const char* kStrType = "str";

nlohmann::json scalar_entry(Scalar s, uint64_t bits) {
  nlohmann::json e = {{"value", interp::scalar_text(s, bits)}};
  if (is_float(s)) e["bits"] = hex_bits(s, float_bits(s, bits));
  return e;
}

}  // namespace

namespace {

// Whether a local is one the program names: the text of its declaration is its name (`t` for the
// leaf `t.0`). The checker's hidden locals, which carry a call's results into a tuple's
// (tir::kTupleTemp), are declared at the expression whose value they carry.
bool declared(const tir::Program& program, const tir::Function& fn, int slot) {
  if (!program.file) return true;
  const std::string& name = fn.slot_names[static_cast<size_t>(slot)];
  const Span decl = fn.slot_decls[static_cast<size_t>(slot)];
  const std::string& text = program.file->text();
  return decl.end <= text.size() &&
         text.compare(decl.begin, decl.end - decl.begin, name, 0, name.find('.')) == 0;
}

// main's top-level `let`s in scope at its end that ran (among the first `ran` statements of its
// body: a `return` before a `let` leaves its slot as it was made, 0, which is no value of the
// program's): the last slot of each name, in the order of the names' first declarations. A
// tuple's or struct's leaves are `let`s of their own, named as Vx writes them (`t.0`, `p.x`).
std::vector<std::pair<std::string, int>> main_bindings(const tir::Program& program,
                                                       const tir::Function& main, size_t ran) {
  std::map<std::string, int> last;
  std::vector<std::string> order;
  const auto& stmts = main.body->stmts;
  for (size_t i = 0; i < std::min(ran, stmts.size()); ++i)
    if (const tir::Stmt* s = stmts[i];
        s->kind == tir::StmtKind::Let && s->slot >= 0 && declared(program, main, s->slot)) {
      if (!last.count(s->var_name)) order.push_back(s->var_name);
      last[s->var_name] = s->slot;
    }
  std::vector<std::pair<std::string, int>> out;
  for (const std::string& name : order) out.emplace_back(name, last[name]);
  return out;
}

}  // namespace

std::string write_npy(const tir::Program& program, const tir::Function& main,
                      const interp::Frame& frame, size_t ran, const std::string& dir) {
  for (const auto& [name, slot] : main_bindings(program, main, ran)) {
    const Type& t = main.slot_types[slot];
    const interp::TensorView& v = frame.t[slot].view;
    if (t.kind != TypeKind::Tensor || v.rank == 0 || !v.dims) continue;
    const std::string why = npy::write(dir + "/" + name + ".npy", t.scalar, v);
    if (!why.empty()) return why;
  }
  return {};
}

namespace {

// One binding as the document holds it, or null for one that has no value to show (a tensor
// moved away, a copy token, `()`; a reference too unless `refs`). A scalar (a `char` too) has its
// `value`; a `&str` its text as `value`, of type `str`; a tensor and an array (`[T; N]`, which
// has no memory) their `shape` and `values`.
nlohmann::json binding(const std::string& name, const Type& t, int slot, const interp::Frame& frame,
                       bool refs) {
  nlohmann::json b = {{"name", name}};
  if (t.is_scalar()) {
    b["type"] = scalar_info(t.scalar).name;
    b.update(scalar_entry(t.scalar, frame.s[slot]));
    return b;
  }
  if (t.kind == TypeKind::String) {
    b["type"] = kStrType;
    b["value"] = interp::string_of(frame.s[slot]);
    return b;
  }
  if (t.kind != TypeKind::Tensor && t.kind != TypeKind::Array && !(refs && t.kind == TypeKind::Ref))
    return nullptr;
  const interp::TensorView& v = frame.t[slot].view;
  if (v.rank == 0 || !v.dims) return nullptr;  // moved away
  b["type"] = scalar_info(t.scalar).name;
  b["shape"] = std::vector<int64_t>(v.dims, v.dims + v.rank);
  if (t.kind != TypeKind::Array)
    b["memory"] = memory_name(v.storage ? v.storage->memory : t.memory);
  nlohmann::json vals = nlohmann::json::array(), bits = nlohmann::json::array();
  const int es = interp::scalar_size(t.scalar);
  for (int64_t k = 0; k < v.size; ++k) {
    if (v.init && !v.init[k]) {  // an element never written
      vals.push_back(nullptr);
      if (is_float(t.scalar)) bits.push_back(nullptr);
      continue;
    }
    const uint64_t x = interp::element_bits(t.scalar, v.data + k * es);
    vals.push_back(interp::scalar_text(t.scalar, x));
    if (is_float(t.scalar)) bits.push_back(hex_bits(t.scalar, float_bits(t.scalar, x)));
  }
  b["values"] = std::move(vals);
  if (is_float(t.scalar)) b["bits"] = std::move(bits);
  return b;
}

// The names in scope at one statement of a function: its parameters, then the `let`s and loop
// variables of the blocks around the statement declared before it, in order.
struct ScopeAt {
  const tir::Stmt* target;
  std::vector<std::pair<std::string, int>> open, found;
  bool done = false;

  void block(const tir::Block* b) {
    if (!b || done) return;
    const size_t mark = open.size();
    for (const tir::Stmt* s : b->stmts) {
      stmt(s);
      if (done) return;
    }
    expr(b->tail);
    if (!done) open.resize(mark);
  }
  void stmt(const tir::Stmt* s) {
    if (s == target) {
      found = open;
      done = true;
      return;
    }
    for (const tir::Expr* e : s->exprs()) expr(e);
    if (done) return;
    if (s->kind == tir::StmtKind::For) {
      const size_t mark = open.size();
      open.emplace_back(s->var_name, s->slot);
      block(s->body);
      if (!done) open.resize(mark);
      return;
    }
    block(s->body);
    if (!done && s->kind == tir::StmtKind::Let && s->slot >= 0)
      open.emplace_back(s->var_name, s->slot);
  }
  void expr(const tir::Expr* e) {
    if (!e || done) return;
    for (const tir::Expr* a : e->args) expr(a);
    block(e->block);
    block(e->else_block);
  }
};

}  // namespace

nlohmann::json dump_main(const tir::Program& program, const tir::Function& main,
                         const interp::Frame& frame, size_t ran) {
  nlohmann::json bindings = nlohmann::json::array();
  for (const auto& [name, slot] : main_bindings(program, main, ran)) {
    nlohmann::json b = binding(name, main.slot_types[slot], slot, frame, false);
    if (!b.is_null()) bindings.push_back(std::move(b));
  }
  return {{"vx_values", 1},
          {"file", program.file ? program.file->path() : std::string()},
          {"bindings", std::move(bindings)}};
}

nlohmann::json dump_region(const tir::Program& program, const tir::Function& fn,
                           const tir::Stmt& spawn, int launch, const interp::Frame& frame) {
  ScopeAt scope{&spawn, {}, {}};
  for (int slot : fn.param_slots) scope.open.emplace_back(fn.slot_names[slot], slot);
  scope.block(fn.body);
  std::map<std::string, int> last;  // the last of each name: the one in scope
  std::vector<std::string> order;
  for (const auto& [name, slot] : scope.found) {
    if (!declared(program, fn, slot)) continue;
    if (!last.count(name)) order.push_back(name);
    last[name] = slot;
  }
  nlohmann::json bindings = nlohmann::json::array();
  for (const std::string& name : order) {
    nlohmann::json b = binding(name, fn.slot_types[last[name]], last[name], frame, true);
    if (!b.is_null()) bindings.push_back(std::move(b));
  }
  const LineCol lc = program.file ? program.file->line_col(spawn.span.begin) : LineCol{};
  return {{"region", std::to_string(lc.line) + ":" + std::to_string(lc.col)},
          {"function", fn.name},
          {"launch", launch},
          {"bindings", std::move(bindings)}};
}

std::string to_text(const nlohmann::json& doc) {
  auto text = [](const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  auto lines = [&](const nlohmann::json& bindings, const char* indent) {
    std::string out;
    for (size_t i = 0; i < bindings.size(); ++i)
      out += std::string(i ? "," : "") + "\n" + indent + text(bindings[i]);
    return out;
  };
  std::string out = "{\"vx_values\": " + text(doc["vx_values"]) +
                    ", \"file\": " + text(doc["file"]) + ", \"bindings\": [" +
                    lines(doc["bindings"], " ") + "\n]";
  if (doc.contains("regions")) {
    out += ",\n\"regions\": [";
    const nlohmann::json& regions = doc["regions"];
    for (size_t i = 0; i < regions.size(); ++i) {
      const nlohmann::json& r = regions[i];
      out += std::string(i ? "," : "") + "\n {\"region\": " + text(r["region"]) +
             ", \"function\": " + text(r["function"]) + ", \"launch\": " + text(r["launch"]) +
             ", \"bindings\": [" + lines(r["bindings"], "  ") + "]}";
    }
    out += "\n]";
  }
  return out + "}\n";
}

namespace {

struct Binding {
  std::string name, where;  // "`t`", and " after the region at 4:5 (launch 2)" or empty
  std::string type;
  Scalar scalar = Scalar::I32;
  std::vector<int64_t> shape;  // empty for a scalar
  std::vector<nlohmann::json> values, bits;
};

// Reads a document; an error says what is wrong with it.
std::optional<std::map<std::string, Binding>> read_doc(const std::string& path, std::string& why) {
  std::string text;
  if (!read_at_most(path, kMaxDocumentBytes, text, why)) return std::nullopt;
  auto bad = [&](const std::string& what) {
    why = "`" + path + "` is not a values document (spec/values.schema.json): " + what;
    return std::nullopt;
  };
  std::string not_json;
  const std::optional<nlohmann::json> read = parse_json(text, kMaxDocumentBytes, not_json);
  if (!read) return bad(not_json);
  const nlohmann::json& doc = *read;
  if (!doc.is_object() || !doc.contains("bindings") || !doc["bindings"].is_array())
    return bad("no `bindings` array");
  // Keyed by how a difference names the binding: `t`, or `t` after the region at 4:5 (launch 2).
  std::map<std::string, Binding> out;
  std::vector<std::pair<const nlohmann::json*, std::string>> all;
  for (const nlohmann::json& b : doc["bindings"]) all.emplace_back(&b, "");
  if (doc.contains("regions")) {
    if (!doc["regions"].is_array()) return bad("`regions` is not an array");
    for (const nlohmann::json& r : doc["regions"]) {
      if (!r.is_object() || !r.contains("region") || !r["region"].is_string() ||
          !r.contains("launch") || !r["launch"].is_number_integer() || !r.contains("bindings") ||
          !r["bindings"].is_array())
        return bad("a region without a `region`, a `launch` and `bindings`");
      const std::string where = " after the region at " + r["region"].get<std::string>() +
                                " (launch " + std::to_string(r["launch"].get<int64_t>()) + ")";
      for (const nlohmann::json& b : r["bindings"]) all.emplace_back(&b, where);
    }
  }
  for (const auto& [bp, where] : all) {
    const nlohmann::json& b = *bp;
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string() || !b.contains("type") ||
        !b["type"].is_string())
      return bad("a binding without a `name` and a `type`");
    Binding x;
    x.type = b["type"];
    // A `&str`'s value is compared as text (its scalar, unused, stays i32: not a float).
    if (x.type != kStrType && !scalar_by_name(x.type, x.scalar))
      return bad("unknown type `" + x.type + "`");
    const bool tensor = b.contains("shape");
    int64_t count = 1;
    if (tensor) {
      if (!b["shape"].is_array()) return bad("a `shape` that is not an array");
      for (const nlohmann::json& d : b["shape"]) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0 || d.get<int64_t>() > (1ll << 31))
          return bad("a dimension that is not a size");
        x.shape.push_back(d.get<int64_t>());
        count *= x.shape.back();
        if (count > (1ll << 31)) return bad("more than 2^31 elements");
      }
      if (!b.contains("values") || !b["values"].is_array() ||
          b["values"].size() != static_cast<size_t>(count))
        return bad("`" + b["name"].get<std::string>() + "` has not one value per element");
      x.values = b["values"].get<std::vector<nlohmann::json>>();
      if (is_float(x.scalar)) {
        if (!b.contains("bits") || !b["bits"].is_array() || b["bits"].size() != x.values.size())
          return bad("`" + b["name"].get<std::string>() + "` has not its bits");
        x.bits = b["bits"].get<std::vector<nlohmann::json>>();
      }
    } else {
      if (!b.contains("value")) return bad("a scalar without a `value`");
      x.values = {b["value"]};
      if (is_float(x.scalar)) {
        if (!b.contains("bits")) return bad("a float without its `bits`");
        x.bits = {b["bits"]};
      }
    }
    x.name = "`" + b["name"].get<std::string>() + "`";
    x.where = where;
    out[x.name + where] = std::move(x);
  }
  return out;
}

// A float's bits from `0x…`, or nullopt for null or malformed text.
std::optional<uint64_t> parse_bits(const nlohmann::json& j) {
  if (!j.is_string()) return std::nullopt;
  const std::string s = j;
  if (s.size() < 3 || s.size() > 18 || s.compare(0, 2, "0x") != 0) return std::nullopt;
  uint64_t v = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    const char c = s[i];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return std::nullopt;
    v = v << 4 | static_cast<uint64_t>(d);
  }
  return v;
}

// The distance in ulps of two floats of `bits` bits with `exp_bits` of exponent, 0 for two NaNs
// whatever their payloads, -1 for a NaN against a number. Floats are ordered as sign-magnitude
// integers, so that neighbours are 1 apart, with -0 one step below +0.
int64_t ulp_distance(int bits, int exp_bits, uint64_t a, uint64_t b) {
  const uint64_t sign = uint64_t{1} << (bits - 1);
  const uint64_t mantissa = (uint64_t{1} << (bits - 1 - exp_bits)) - 1;
  const uint64_t exponent = (sign - 1) & ~mantissa;
  auto is_nan = [&](uint64_t x) { return (x & exponent) == exponent && (x & mantissa) != 0; };
  if (is_nan(a) || is_nan(b)) return is_nan(a) && is_nan(b) ? 0 : -1;
  auto ordered = [&](uint64_t x) {  // -0 just below +0: they differ by one step
    const __int128 mag = static_cast<__int128>(x & (sign - 1));
    return x & sign ? -mag - 1 : mag;
  };
  const __int128 d = ordered(a) - ordered(b);
  return static_cast<int64_t>(d < 0 ? -d : d);
}

std::string index_text(const std::vector<int64_t>& shape, int64_t k) {
  if (shape.empty()) return "";
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? k % shape[d] : 0;
    k = shape[d] ? k / shape[d] : 0;
  }
  std::string s;
  for (int64_t i : idx) s += "[" + std::to_string(i) + "]";
  return s;
}

std::string value_text(const Binding& b, size_t k) {
  const nlohmann::json& v = b.values[k];
  std::string s = v.is_string() ? v.get<std::string>() : v.is_null() ? "(unset)" : v.dump();
  if (!b.bits.empty() && b.bits[k].is_string()) s += " (" + b.bits[k].get<std::string>() + ")";
  return s;
}

// `f32 [2, 3]`: a binding's or an array's type and shape, as a difference of them names it.
std::string shape_text(const std::string& type, const std::vector<int64_t>& shape) {
  std::string s = type;
  if (!shape.empty()) {
    s += " [";
    for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
    s += "]";
  }
  return s;
}

// ulp_distance for a float type: f64 has 11 bits of exponent, f32 and bf16 8, f16 5.
int64_t float_ulps(Scalar s, uint64_t a, uint64_t b) {
  const int bits = scalar_info(s).bits;
  return ulp_distance(bits, bits == 64 ? 11 : bits == 32 || s == Scalar::BF16 ? 8 : 5, a, b);
}

// The element-by-element comparison of one binding (or one .npy array) of both files: prints the
// first ten differing elements with their indices, both values and the distance in ulps, then
// how many differ. `distance(k)`: element k's distance in ulps (0 for equal, -1 for unequal
// in kind: integers that differ, a NaN against a number); `text(k, in_a)`: its value in A or B.
struct ElementDiff {
  std::string name;   // "`t`", "array"
  std::string where;  // " after the region at 4:5 (launch 2)" or empty
  const std::vector<int64_t>& shape;
  const std::string &a_path, &b_path;
  int64_t ulps;

  template <class Distance, class Text>
  bool run(size_t n, Distance distance, Text text, std::ostream& out) const {
    constexpr int kShown = 10;
    int64_t count = 0, worst = 0;
    for (size_t k = 0; k < n; ++k) {
      const int64_t dist = distance(k);
      if (dist == 0 || (dist > 0 && dist <= ulps)) continue;
      if (count < kShown) {
        out << name << index_text(shape, static_cast<int64_t>(k)) << where << ": " << text(k, true)
            << " in " << a_path << ", " << text(k, false) << " in " << b_path;
        if (dist > 0) out << ": " << dist << (dist == 1 ? " ulp" : " ulps");
        out << "\n";
      }
      ++count;
      worst = dist < 0 ? worst : std::max(worst, dist);
    }
    if (count > kShown || (count > 0 && !shape.empty()))
      out << name << where << ": " << count << " of " << n << " elements differ"
          << (worst > 0 ? " (at most " + std::to_string(worst) + (worst == 1 ? " ulp" : " ulps") +
                              " apart)"
                        : std::string())
          << "\n";
    return count > 0;
  }
};

// `vx diff A.npy B.npy`: the two arrays as one binding named `array`, element by element.
int diff_npy(const std::string& a_path, const std::string& b_path, int64_t ulps, std::ostream& out,
             std::ostream& err) {
  npy::Array a, b;
  Scalar scalar = Scalar::I32;
  for (auto [path, array] : {std::pair{&a_path, &a}, std::pair{&b_path, &b}}) {
    const std::string why = npy::read(*path, *array);
    if (!why.empty()) {
      err << "vx diff: " << why << "\n";
      return 2;
    }
    if (!npy::scalar_of(array->descr, scalar)) {
      err << "vx diff: `" << *path << "` holds `" << array->descr
          << "` elements, which have no Vx element type (spec/cli.md §2.1)\n";
      return 2;
    }
  }
  if (a.descr != b.descr || a.shape != b.shape) {
    out << "array: " << shape_text(a.descr, a.shape) << " in " << a_path << ", "
        << shape_text(b.descr, b.shape) << " in " << b_path << "\n";
    return 1;
  }
  const size_t size = static_cast<size_t>(scalar_info(scalar).bits / 8);
  auto element = [size](const npy::Array& x, size_t k) {
    uint64_t v = 0;  // the low bytes, as a slot holds a narrow scalar (interp/runtime.hpp)
    std::memcpy(&v, x.data.data() + k * size, size);
    return v;
  };
  auto distance = [&](size_t k) -> int64_t {
    const uint64_t p = element(a, k), q = element(b, k);
    if (is_float(scalar)) return float_ulps(scalar, p, q);
    return p == q ? 0 : -1;
  };
  auto text = [&](size_t k, bool in_a) {
    const uint64_t v = element(in_a ? a : b, k);
    std::string s = interp::scalar_text(scalar, v);
    if (is_float(scalar)) s += " (" + hex_bits(scalar, v) + ")";
    return s;
  };
  const ElementDiff compare{"array", "", a.shape, a_path, b_path, ulps};
  return compare.run(a.data.size() / size, distance, text, out) ? 1 : 0;
}

}  // namespace

int diff_files(const std::string& a_path, const std::string& b_path, int64_t ulps,
               std::ostream& out, std::ostream& err) {
  auto is_npy = [](const std::string& path) { return path.ends_with(".npy"); };
  if (is_npy(a_path) && is_npy(b_path)) return diff_npy(a_path, b_path, ulps, out, err);
  if (is_npy(a_path) || is_npy(b_path)) {
    err << "vx diff: a .npy file is compared with another .npy file, not with a values document\n";
    return 2;
  }
  std::string why;
  const auto a = read_doc(a_path, why);
  if (!a) {
    err << "vx diff: " << why << "\n";
    return 2;
  }
  const auto b = read_doc(b_path, why);
  if (!b) {
    err << "vx diff: " << why << "\n";
    return 2;
  }
  bool differ = false;
  for (const auto& [name, x] : *a)
    if (!b->count(name)) {
      out << name << ": only in " << a_path << "\n";
      differ = true;
    }
  for (const auto& [name, y] : *b)
    if (!a->count(name)) {
      out << name << ": only in " << b_path << "\n";
      differ = true;
    }
  for (const auto& named : *a) {
    // Not a structured binding: the lambdas below capture `x`, which clang 14 (the sanitizer
    // build's) refuses for a binding's name.
    const std::string& name = named.first;
    const Binding& x = named.second;
    auto it = b->find(name);
    if (it == b->end()) continue;
    const Binding& y = it->second;
    if (x.type != y.type || x.shape != y.shape) {
      out << name << ": " << shape_text(x.type, x.shape) << " in " << a_path << ", "
          << shape_text(y.type, y.shape) << " in " << b_path << "\n";
      differ = true;
      continue;
    }
    const ElementDiff compare{x.name, x.where, x.shape, a_path, b_path, ulps};
    auto distance = [&](size_t k) -> int64_t {
      if (!is_float(x.scalar)) return x.values[k] == y.values[k] ? 0 : -1;
      const auto p = parse_bits(x.bits[k]), q = parse_bits(y.bits[k]);
      if (!p || !q) return p.has_value() == q.has_value() ? 0 : -1;  // set against unset
      return float_ulps(x.scalar, *p, *q);
    };
    auto text = [&](size_t k, bool in_a) { return value_text(in_a ? x : y, k); };
    if (compare.run(x.values.size(), distance, text, out)) differ = true;
  }
  return differ ? 1 : 0;
}

}  // namespace vx::values
