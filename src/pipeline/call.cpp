// `vx call`: the parameters of one function set from files and words instead of by a caller.
// Everything a request can get wrong is found before the run starts; the run itself is
// pipeline::run with the function as its entry.
#include "pipeline/call.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

#include "pipeline/npy.hpp"
#include "pipeline/params.hpp"
#include "support/internal_error.hpp"
#include "support/suggest.hpp"
#include "support/utf8.hpp"

namespace vx::call {

namespace {

const std::string kCaller = "`vx call`";

// What NumPy calls an element type, for the hint of a dtype mismatch.
std::string numpy_name(Scalar s) {
  if (s == Scalar::Bool) return "bool_";
  if (s == Scalar::BF16) return "uint16 (the bits of each bf16)";
  const ScalarInfo& info = scalar_info(s);
  return std::string(info.is_float    ? "float"
                     : info.is_signed ? "int"
                                      : "uint") +
         std::to_string(info.bits);
}

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + (dims[i] == kUnknownDim ? std::string("?") : std::to_string(dims[i]));
  return s + "]";
}

}  // namespace

// A scalar parameter's value from its word: an integer in range, a float (`1.5`, `-0`, `inf`,
// `nan`; f32 and f64 rounded once from the decimal, f16 and bf16 through f64), `true`/`false`.
std::string scalar_value(Scalar s, const std::string& word, uint64_t& bits) {
  const ScalarInfo& info = scalar_info(s);
  const char* begin = word.data();
  const char* end = word.data() + word.size();
  const std::string want = std::string("a value of type `") + info.name + "`";
  if (s == Scalar::Bool) {
    if (word != "true" && word != "false") return want + " (true or false)";
    bits = word == "true";
    return {};
  }
  if (s == Scalar::Char) {  // the character itself, as one code point of UTF-8
    size_t i = 0;
    const uint32_t cp = word.empty() ? 0 : decode_utf8(word, i);
    if (word.empty() || i != word.size() || (cp == 0xFFFD && i == 1))
      return want + " (one character)";
    bits = cp;
    return {};
  }
  if (info.is_int) {
    if (info.is_signed) {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(begin, end, v);
      const int64_t hi = info.bits == 64 ? INT64_MAX : (int64_t{1} << (info.bits - 1)) - 1;
      if (ec != std::errc() || p != end || v > hi || v < -hi - 1)
        return want + " (from " + std::to_string(-hi - 1) + " to " + std::to_string(hi) + ")";
      bits = static_cast<uint64_t>(v);
    } else {
      uint64_t v = 0;
      auto [p, ec] = std::from_chars(begin, end, v);
      const uint64_t hi = info.bits == 64 ? UINT64_MAX : (uint64_t{1} << info.bits) - 1;
      if (word.starts_with("-") || ec != std::errc() || p != end || v > hi)
        return want + " (from 0 to " + std::to_string(hi) + ")";
      bits = v;
    }
    return {};
  }
  // from_chars takes no leading `+`; `-` it does. Out-of-range decimals are refused by it too.
  if (s == Scalar::F32) {
    float v = 0;
    auto [p, ec] = std::from_chars(begin, end, v);
    if (ec != std::errc() || p != end) return want + " (a decimal number, inf or nan)";
    bits = interp::to_bits(v);
    return {};
  }
  double v = 0;
  auto [p, ec] = std::from_chars(begin, end, v);
  if (ec != std::errc() || p != end) return want + " (a decimal number, inf or nan)";
  bits = s == Scalar::F64   ? interp::to_bits(v)
         : s == Scalar::F16 ? f64_to_f16_bits(v)
                            : f64_to_bf16_bits(v);
  return {};
}

namespace {

// `NAME=VALUE` split at its first `=`; false when there is none or NAME is empty.
bool split_pair(const std::string& word, std::string& name, std::string& value) {
  const size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  name = word.substr(0, eq);
  value = word.substr(eq + 1);
  return true;
}

// Whether a tuple or struct holds only scalars (an array in a struct: `vx call` has no text for
// it).
bool scalars_only(const Type& t) {
  if (!t.is_tuple()) return t.is_scalar();
  return std::all_of(t.elems.begin(), t.elems.end(), scalars_only);
}

// The words of a tuple's or struct's scalars in `text`, written as `{:?}` prints the value
// (`(1, 2.5)`, `(true, (3, 'x'))`, `P { x: 1.5, n: 2 }`, its fields in order), in order; false
// when it has not the shape of `t`.
bool aggregate_words(const Type& t, std::string_view text, size_t& at,
                     std::vector<std::string>& out) {
  auto skip = [&] {
    while (at < text.size() && text[at] == ' ') ++at;
  };
  auto take = [&](std::string_view word) {
    skip();
    if (text.substr(at, word.size()) != word) return false;
    at += word.size();
    skip();
    return true;
  };
  skip();
  if (!t.is_tuple()) {
    const size_t begin = at;
    while (at < text.size() && text[at] != ',' && text[at] != ')' && text[at] != '}') ++at;
    size_t end = at;
    while (end > begin && text[end - 1] == ' ') --end;
    out.emplace_back(text.substr(begin, end - begin));
    return end > begin;
  }
  const bool is_struct = t.is_struct();
  if (is_struct ? !take(t.name) || !take("{") : !take("(")) return false;
  for (size_t i = 0; i < t.elems.size(); ++i) {
    if (is_struct && (!take(t.fields[i]) || !take(":"))) return false;
    if (!aggregate_words(t.elems[i], text, at, out)) return false;
    skip();
    const bool last = i + 1 == t.elems.size();
    if (at < text.size() && text[at] == ',') {
      ++at;
      skip();
    } else if (!last || (!is_struct && t.elems.size() == 1)) {
      return false;  // `(x,)` needs its comma
    }
  }
  return take(is_struct ? "}" : ")");
}

// The shape of an output the call makes (`--out` without `--arg`): the type's, where every
// dimension is fixed; `--shape`'s `dims` (`4,256`, also `[4, 256]`) where it is given, which must
// have the type's rank and agree with its fixed dimensions. Returns an error message (after the
// parameter's name and type), or empty.
std::string made_shape(const Type& t, const std::string& dims, std::vector<int64_t>& shape) {
  constexpr int64_t kMaxDim = int64_t{1} << 31;
  if (dims.empty()) {
    for (int64_t d : t.dims) {
      if (d == kUnknownDim)
        return "has a `?` dimension: give --shape NAME=D0,D1,… for the tensor the call writes";
      shape.push_back(d);
    }
    return {};
  }
  std::string text;
  for (char c : dims)
    if (c != ' ' && c != '[' && c != ']') text += c;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    int64_t d = 0;
    const auto [p, ec] = std::from_chars(text.data() + at, text.data() + comma, d);
    if (ec != std::errc() || p != text.data() + comma || d < 1 || d > kMaxDim)
      return "--shape `" + dims + "`: each dimension is an integer from 1 to 2147483648";
    shape.push_back(d);
    at = comma + 1;
  }
  bool fits = shape.size() == t.dims.size();
  for (size_t d = 0; fits && d < t.dims.size(); ++d)
    fits = t.dims[d] == kUnknownDim || t.dims[d] == shape[d];
  if (!fits) return "cannot have the shape " + shape_text(shape) + " of --shape";
  return {};
}

}  // namespace

int find_pub_fn(const tir::Program& program, const std::string& name, const std::string& caller,
                std::string& why) {
  std::vector<std::string> public_fns;
  int index = -1;
  for (size_t i = 0; i < program.functions.size(); ++i) {
    const tir::Function& f = program.functions[i];
    if (f.is_pub) public_fns.push_back(f.name);
    if (f.name == name) index = static_cast<int>(i);
  }
  std::string listed;
  for (const std::string& n : public_fns) listed += (listed.empty() ? "`" : ", `") + n + "`";
  listed = public_fns.empty() ? "the program has no `pub fn`" : "its `pub fn`s: " + listed;
  if (index < 0) {
    why = "the program has no function `" + name + "`";
    if (auto near = closest_name(name, public_fns)) why += "; did you mean `" + *near + "`?";
    why += " (" + listed + ")";
  } else if (!program.functions[static_cast<size_t>(index)].is_pub) {
    why = "`" + name + "` is not `pub`: " + caller + " calls a `pub fn` (" + listed + ")";
    index = -1;
  }
  return index;
}

// A reference to a struct is its fields, copied in and (`&mut`) back (spec/types.md §9): a call
// from outside has no place to write them back to.
std::string struct_ref_refused(const std::string& name, const Type& t, const std::string& caller) {
  if (!t.is_struct_ref()) return {};
  return "`" + name + "` is `" + type_name(t) + "`: " + caller +
         " cannot pass a reference to a struct (pass the struct by value)";
}

std::string parameter_refused(const std::string& name, const Type& t, const std::string& caller) {
  if (std::string why = struct_ref_refused(name, t, caller); !why.empty()) return why;
  // A struct holding a tensor (spec/types.md §9) has no text: neither `{:?}` nor a `.npy` file.
  if (holds_tensor(t))
    return "`" + name + "` is `" + type_name(t) + "`, which holds a tensor: " + caller +
           " cannot pass a struct holding a tensor (spec/cli.md §2.2)";
  if (t.is_tuple() && !scalars_only(t))
    return "`" + name + "` is `" + type_name(t) + "`, which holds an array: " + caller +
           " cannot pass it";
  if (!t.is_scalar() && !t.is_tuple() && !t.is_tensor_like())
    return "`" + name + "` is `" + type_name(t) + "`, which " + caller + " cannot pass";
  return {};
}

std::string return_refused(const tir::Function& fn, const std::string& caller) {
  const Type* ret = params::returned_aggregate(fn);
  if (!ret) ret = &fn.ret;
  if (holds_tensor(*ret))
    return "`" + fn.name + "` returns `" + type_name(*ret) + "`, which holds a tensor: " + caller +
           " cannot print it (spec/cli.md §2.2)";
  if (ret->kind == TypeKind::Array)
    return "`" + fn.name + "` returns `" + type_name(*ret) + "`, which " + caller +
           " cannot print (spec/cli.md §2.2)";
  if (ret->is_tuple() && !scalars_only(*ret))
    return "`" + fn.name + "` returns `" + type_name(*ret) + "`, which holds an array: " + caller +
           " cannot print it (spec/cli.md §2.2)";
  return {};
}

std::string array_mismatch(const std::string& name, const Type& t, const std::string& descr,
                           const std::vector<int64_t>& shape, const std::string& source) {
  const std::string head = "`" + name + "` is `" + type_name(t) + "`, but " + source + " ";
  if (descr != npy::descr(t.scalar))
    return head + "holds `" + descr + "` elements (write it as " + numpy_name(t.scalar) + ", `" +
           npy::descr(t.scalar) + "`)";
  bool fits = shape.size() == t.dims.size();
  for (size_t d = 0; fits && d < t.dims.size(); ++d)
    fits = t.dims[d] == kUnknownDim || t.dims[d] == shape[d];
  if (!fits) return head + "has the shape " + shape_text(shape);
  if (t.dims.empty()) return head + "is 0-dimensional";
  // A Vx tensor has no dimension of size 0 (spec/types.md §3): nothing in the call could make or
  // index one.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return head + "has the shape " + shape_text(shape) +
           ", with a dimension of size 0, which no Vx tensor has";
  return {};
}

std::string bool_bytes_mismatch(const std::string& name, const Type& t, const std::byte* data,
                                size_t bytes, const std::string& source) {
  if (t.scalar != Scalar::Bool) return {};
  for (size_t i = 0; i < bytes; ++i)
    if (data[i] != std::byte{0} && data[i] != std::byte{1})
      return "`" + name + "` is `" + type_name(t) + "`, but " + source +
             " holds a bool byte other than 0 and 1";
  return {};
}

namespace {

// One tensor parameter, read from its file before the run.
struct TensorArg {
  int slot = 0;
  Type type;
  std::string in_path, out_path;  // out_path empty: not written (a `&` or by-value parameter);
                                  // in_path empty: an output made for the call (zeros)
  npy::Array array;
  std::unique_ptr<interp::TensorStorage> storage;  // a reference's tensor, alive past the call
};

struct Plan {
  const tir::Function* fn = nullptr;
  int index = 0;
  std::map<int, uint64_t> scalars;  // slot → bits
  std::vector<TensorArg> tensors;
  std::string return_path;  // `--out return=PATH.npy`, for a function that returns a tensor
};

// Fills `plan` from the request. Returns an error message (a usage error), or empty.
std::string make_plan(const tir::Program& program, const Request& r, Plan& plan) {
  std::string why;
  plan.index = find_pub_fn(program, r.fn, kCaller, why);
  if (plan.index < 0) return why;
  plan.fn = &program.functions[static_cast<size_t>(plan.index)];
  const tir::Function& fn = *plan.fn;
  // The parameters: a tuple's or struct's leaves (locals named `t.0`, `p.x`, …) are one.
  std::map<std::string, int> param_of;  // name → index in `names`
  std::vector<std::string> names;
  std::vector<Type> types;
  std::vector<std::vector<int>> slots_of;  // a parameter's slots
  for (params::Param& p : params::of(fn)) {
    param_of[p.name] = static_cast<int>(names.size());
    names.push_back(std::move(p.name));
    types.push_back(std::move(p.type));
    slots_of.push_back(std::move(p.slots));
  }
  auto unknown = [&](const std::string& name, const char* option) {
    std::string msg =
        std::string(option) + " " + name + "=…: `" + r.fn + "` has no parameter `" + name + "`";
    if (auto near = closest_name(name, names)) msg += "; did you mean `" + *near + "`?";
    return msg;
  };
  std::vector<std::string> given(names.size());
  for (const std::string& word : r.args) {
    std::string name, value;
    if (!split_pair(word, name, value)) return "--arg takes NAME=VALUE, not `" + word + "`";
    auto it = param_of.find(name);
    if (it == param_of.end()) return unknown(name, "--arg");
    if (!given[it->second].empty()) return "--arg " + name + "=… is given twice";
    if (value.empty()) return "--arg " + name + "= has no value";
    given[it->second] = value;
  }
  std::map<std::string, std::string> outs;
  for (const std::string& word : r.outs) {
    std::string name, path;
    if (!split_pair(word, name, path) || path.empty())
      return "--out takes NAME=PATH.npy, not `" + word + "`";
    if (outs.count(name)) return "--out " + name + "=… is given twice";
    if (name == "return") {
      if (fn.ret.kind != TypeKind::Tensor)
        return "--out return=…: `" + r.fn + "` returns " +
               (fn.ret.is_unit() ? std::string("nothing") : "`" + type_name(fn.ret) + "`") +
               ", not a tensor";
      plan.return_path = path;
    } else {
      auto it = param_of.find(name);
      if (it == param_of.end()) return unknown(name, "--out");
      const Type& t = types[static_cast<size_t>(it->second)];
      if (t.kind != TypeKind::Ref || !t.ref_mut)
        return "--out " + name + "=…: `" + name + "` is `" + type_name(t) +
               "`; only a `&mut` tensor is written after the call";
    }
    outs[name] = path;
  }
  if (fn.ret.kind == TypeKind::Tensor && plan.return_path.empty())
    return "`" + r.fn + "` returns `" + type_name(fn.ret) + "`: give --out return=PATH.npy for it";
  for (size_t i = 0; i < names.size(); ++i)
    if (std::string why = struct_ref_refused(names[i], types[i], kCaller); !why.empty()) return why;
  for (size_t i = 0; i < names.size(); ++i)
    if (holds_tensor(types[i])) return parameter_refused(names[i], types[i], kCaller);
  if (std::string why = return_refused(fn, kCaller); !why.empty()) return why;
  std::map<std::string, std::string> shapes;
  for (const std::string& word : r.shapes) {
    std::string name, dims;
    if (!split_pair(word, name, dims) || dims.empty())
      return "--shape takes NAME=D0,D1,…, not `" + word + "`";
    if (!param_of.count(name)) return unknown(name, "--shape");
    if (shapes.count(name)) return "--shape " + name + "=… is given twice";
    shapes[name] = dims;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const int slot = slots_of[i].front();
    const Type& t = types[i];
    const std::string& name = names[i];
    const bool made = t.kind == TypeKind::Ref && t.ref_mut && t.is_tensor_like() &&
                      given[i].empty() && outs.count(name);
    if (shapes.count(name) && !made)
      return "--shape " + name + "=…: only a `&mut` tensor with an --out and no --arg is made " +
             "with a shape; `" + name + "` is `" + type_name(t) + "`" +
             (given[i].empty() ? "" : ", read from --arg " + name + "=" + given[i]);
    if (made) {  // an output only: zeros of the signature's shape, or of --shape
      TensorArg a;
      a.slot = slot;
      a.type = t;
      a.out_path = outs[name];
      const std::string why =
          made_shape(t, shapes.count(name) ? shapes[name] : std::string(), a.array.shape);
      if (!why.empty()) return "`" + name + "` (`" + type_name(t) + "`) " + why;
      size_t count = 1;
      for (int64_t d : a.array.shape) count *= static_cast<size_t>(d);
      a.array.descr = npy::descr(t.scalar);
      a.array.data.assign(count * static_cast<size_t>(scalar_info(t.scalar).bits / 8),
                          std::byte{0});
      plan.tensors.push_back(std::move(a));
      continue;
    }
    if (given[i].empty())
      return "`" + name + "` (`" + type_name(t) + "`) has no value: give --arg " + name +
             (t.is_tensor_like() ? "=PATH.npy" : "=VALUE") +
             (t.kind == TypeKind::Ref && t.ref_mut && t.is_tensor_like()
                  ? ", or --out " + name + "=PATH.npy for an output the call only writes"
                  : "");
    if (t.is_scalar()) {
      uint64_t bits = 0;
      const std::string why = scalar_value(t.scalar, given[i], bits);
      if (!why.empty()) return "--arg " + name + "=" + given[i] + ": `" + name + "` takes " + why;
      plan.scalars[slot] = bits;
      continue;
    }
    if (std::string why = parameter_refused(name, t, kCaller); !why.empty()) return why;
    if (t.is_tuple()) {  // `(1, 2.5)`, `P { x: 1.5 }`: a word per scalar
      std::vector<std::string> words;
      size_t at = 0;
      const std::string head = "--arg " + name + "=" + given[i] + ": `" + name + "` takes ";
      if (!aggregate_words(t, given[i], at, words) || at != given[i].size())
        return head + (t.is_struct()
                           ? "a struct `" + type_name(t) +
                                 "`, written as `{:?}` prints one, its fields in order: `" +
                                 aggregate_debug(t, [](const Type&) { return "…"; }) + "`"
                           : "a tuple of type `" + type_name(t) + "`, written as Vx writes one");
      for (size_t k = 0; k < words.size(); ++k) {
        const int leaf = slots_of[i][k];
        uint64_t bits = 0;
        const std::string why =
            scalar_value(fn.slot_types[static_cast<size_t>(leaf)].scalar, words[k], bits);
        if (!why.empty())
          return head + "`" + type_name(t) + "`, whose `" + words[k] + "` is not " + why;
        plan.scalars[leaf] = bits;
      }
      continue;
    }
    TensorArg a;
    a.slot = slot;
    a.type = t;
    a.in_path = given[i];
    if (t.kind == TypeKind::Ref && t.ref_mut) a.out_path = outs.count(name) ? outs[name] : given[i];
    std::string why = npy::read(a.in_path, a.array);
    if (!why.empty()) return "--arg " + name + "=" + a.in_path + ": " + why;
    const std::string head = "--arg " + name + "=" + a.in_path + ": ";
    why = array_mismatch(name, t, a.array.descr, a.array.shape, "the file");
    if (why.empty())
      why = bool_bytes_mismatch(name, t, a.array.data.data(), a.array.data.size(), "the file");
    if (!why.empty()) return head + why;
    plan.tensors.push_back(std::move(a));
  }
  return {};
}

// `vx call --bench` (spec/cli.md §2.2), in the manner of Triton's do_bench: the first call
// estimates the time of one; then warm-up calls for about `warmup_ms` (at least one), then
// timed calls for about `rep_ms` (at least one, at most 10,000); the median of the timed ones.
// A call's time runs from its arguments set to its return, the GPU's results copied back.
class Bench {
 public:
  explicit Bench(const Request& r) : on_(r.bench), warmup_ms_(r.warmup_ms), rep_ms_(r.rep_ms) {}
  void start() { begin_ = std::chrono::steady_clock::now(); }
  // Ends a call; true when it is the last one (always, without --bench).
  bool stop() {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin_)
            .count();
    if (!on_) return true;
    ++calls_;
    if (calls_ == 1) {  // the estimate: the counts follow from it
      const double one = std::max(ms, 1e-6);
      warmups_ = std::clamp(static_cast<int64_t>(warmup_ms_ / one), int64_t{1}, kMaxCalls);
      reps_ = std::clamp(static_cast<int64_t>(rep_ms_ / one), int64_t{1}, kMaxCalls);
    } else if (calls_ > 1 + warmups_) {
      timed_.push_back(ms);
    }
    return done();
  }
  bool done() const { return !on_ || (calls_ > 0 && calls_ == 1 + warmups_ + reps_); }
  void report(const std::string& fn, const std::string& mode, std::ostream& err) {
    std::vector<double> t = timed_;
    std::sort(t.begin(), t.end());
    const size_t n = t.size();
    const double median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    char line[256];
    std::snprintf(line, sizeof line,
                  "vx: bench %s: median %.4g ms, min %.4g ms, max %.4g ms, over %zu calls after "
                  "%lld warm-up calls, --offload=%s\n",
                  fn.c_str(), median, t.front(), t.back(), n, static_cast<long long>(warmups_ + 1),
                  mode.c_str());
    err << line;
  }

 private:
  static constexpr int64_t kMaxCalls = 10000;
  bool on_;
  double warmup_ms_, rep_ms_;
  std::chrono::steady_clock::time_point begin_;
  int64_t calls_ = 0, warmups_ = 0, reps_ = 0;
  std::vector<double> timed_;
};

}  // namespace

int call(pipeline::Compiled& c, const Request& r, pipeline::RunRequest run, std::ostream& out,
         std::ostream& err, ErrorFormat format) {
  Plan plan;
  const std::string why = make_plan(*c.program, r, plan);
  if (!why.empty()) {
    render_plain_error(err, why, format);
    return 2;
  }
  run.entry = plan.index;
  Bench bench(r);
  run.bind = [&](const tir::Function&, interp::Frame& frame) {
    for (const auto& [slot, bits] : plan.scalars) frame.s[slot] = bits;
    for (TensorArg& a : plan.tensors) {
      auto s = std::make_unique<interp::TensorStorage>(a.type.scalar, a.type.memory, a.array.shape,
                                                       false);
      std::memcpy(s->data, a.array.data.data(), a.array.data.size());
      // The file's bytes are now in the tensor; --bench sets them again before each call.
      if (!r.bench) std::vector<std::byte>().swap(a.array.data);
      if (a.type.kind == TypeKind::Tensor) {
        frame.t[a.slot].own(std::move(s));  // moved into the call
      } else {
        frame.t[a.slot].view = interp::whole_view(*s);
        a.storage = std::move(s);
      }
    }
    bench.start();
  };
  std::string write_error;
  run.at_end = [&](const tir::Function& fn, interp::Frame& frame, size_t) {
    if (!bench.stop()) return;  // a call of --bench's before the last
    for (const TensorArg& a : plan.tensors)
      if (!a.out_path.empty() && write_error.empty())
        write_error = npy::write(a.out_path, a.type.scalar, interp::whole_view(*a.storage));
    if (!plan.return_path.empty() && write_error.empty())
      write_error = npy::write(plan.return_path, fn.ret.scalar, frame.ret_tensor.view);
    if (fn.ret.is_scalar()) out << interp::scalar_text(fn.ret.scalar, frame.ret_bits) << "\n";
    if (const Type* aggregate = params::returned_aggregate(fn)) {  // as `{:?}` prints it
      size_t next = 0;
      out << aggregate_debug(*aggregate, [&](const Type& leaf) {
        const int slot = fn.ret_slots[next++];
        return interp::scalar_debug(leaf.scalar, frame.s[static_cast<size_t>(slot)]);
      }) << "\n";
    }
    if (fn.ret.kind == TypeKind::String) out << interp::string_of(frame.ret_bits) << "\n";
    if (r.bench) bench.report(r.fn, run.offload.mode, err);
  };
  if (r.bench) run.again = [&] { return !bench.done(); };
  const int status = pipeline::run(c, run, out, err);
  if (!write_error.empty()) {
    render_plain_error(err, write_error, format);
    return 2;
  }
  return status;
}

}  // namespace vx::call
