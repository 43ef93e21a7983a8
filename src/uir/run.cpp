// Runs a .uir program with the sequential meaning (spec/uir.md §4): every range is a plain loop,
// axes change nothing. Values are slot bits (interp/runtime.hpp) and the arithmetic is the
// interpreter's own (interp/arith.hpp), so a lowered Vx kernel gives the same bits as the Vx
// program. Runtime errors (an offset outside a buffer, an integer division by zero) stop the run
// with the interpreter's message format and exit status 101; inside global and local loops the
// message names the block and the thread.
#include <sstream>

#include "interp/arith.hpp"
#include "support/format.hpp"
#include "uir/uir.hpp"

namespace vx::uir {

namespace {

using interp::from_bits;
using interp::to_bits;

// Calls f.template operator()<T>() with T the C++ type of `s` (a .uir type).
template <class F>
decltype(auto) with_type(Scalar s, F&& f) {
  switch (s) {
    case Scalar::I8:
      return f.template operator()<int8_t>();
    case Scalar::I16:
      return f.template operator()<int16_t>();
    case Scalar::I32:
      return f.template operator()<int32_t>();
    case Scalar::I64:
      return f.template operator()<int64_t>();
    case Scalar::U8:
      return f.template operator()<uint8_t>();
    case Scalar::U16:
      return f.template operator()<uint16_t>();
    case Scalar::U32:
      return f.template operator()<uint32_t>();
    case Scalar::U64:
      return f.template operator()<uint64_t>();
    case Scalar::F32:
      return f.template operator()<float>();
    default:
      return f.template operator()<double>();
  }
}

template <tir::BinOp Op>
uint64_t arith(Scalar t, uint64_t a, uint64_t b, Span span) {
  return with_type(t, [&]<class T>() {
    return to_bits<T>(interp::apply_arith<Op, T>(from_bits<T>(a), from_bits<T>(b), span));
  });
}

class Runner {
 public:
  Runner(const Program& p, std::ostream& out, interp::RunLimits limits)
      : p_(p), out_(out), vals_(p.nodes.size()), bufs_(p.nodes.size()), limits_(limits) {}

  void run() { exec(p_.top); }
  Buffers top_buffers() const {
    Buffers b;
    for (int i : p_.top)
      if (p_.nodes[i].op == Op::Buffer) b[p_.nodes[i].name] = bufs_[i];
    return b;
  }

 private:
  uint64_t val(const Operand& o) const { return o.node >= 0 ? vals_[o.node] : o.bits; }

  int64_t offset(const Node& n) const {
    const Node& buf = p_.nodes[n.args[0].node];
    const Operand& o = n.args[1];
    Scalar t = o.node >= 0 ? p_.nodes[o.node].type : Scalar::I64;
    uint64_t bits = val(o);
    bool in = scalar_info(t).is_signed
                  ? static_cast<int64_t>(bits) >= 0 && static_cast<int64_t>(bits) < buf.size
                  : bits < static_cast<uint64_t>(buf.size);
    if (!in) {
      std::string v = scalar_info(t).is_signed ? std::to_string(static_cast<int64_t>(bits))
                                               : std::to_string(bits);
      interp::runtime_error(n.args[1].span, "offset " + v + " is outside `%" + buf.name +
                                                "`, which has " + std::to_string(buf.size) +
                                                " elements");
    }
    return static_cast<int64_t>(bits);
  }

  void init_buffer(int i) {
    const Node& n = p_.nodes[i];
    auto& b = bufs_[i];
    switch (n.init) {
      case Node::Init::Zero:
        b.assign(n.size, 0);
        break;
      case Node::Init::Fill:
        b.assign(n.size, n.data[0]);
        break;
      case Node::Init::Data:
        b = n.data;
        break;
      case Node::Init::Iota:
        b.resize(n.size);
        for (int64_t k = 0; k < n.size; ++k)
          b[k] = with_type(
              n.type, [&]<class T>() { return to_bits<T>(interp::cast_value<T, int64_t>(k)); });
        break;
    }
  }

  void print(const Node& n) {
    const Node& t = p_.nodes[n.args[0].node];
    if (t.op != Op::Buffer) {
      out_ << value_text(t.type, vals_[n.args[0].node]) << "\n";
      return;
    }
    const auto& b = bufs_[n.args[0].node];
    int64_t start = n.print_start, count = n.print_count < 0 ? t.size : n.print_count;
    for (int64_t k = 0; k < count; ++k) out_ << (k ? " " : "") << value_text(t.type, b[start + k]);
    out_ << "\n";
  }

  void range(int i, const Node& n) {
    int64_t k = 0;
    try {
      for (; k < n.count; ++k) {
        if (limits_.limited()) [[unlikely]]
          limits_.charge(1, n.span);  // a pass is a step, as a loop pass of the interpreter
        vals_[i] = to_bits<int32_t>(static_cast<int32_t>(k));
        exec(n.body);
      }
    } catch (interp::RuntimeError& e) {
      // An error in a global or local loop names its block and thread, as a Vx kernel's names
      // its block and lane (spec/uir.md §4); a plain loop is not a pass of a kernel.
      if (n.axis != Axis::None && !e.names_passes)
        e.passes.push_back({n.axis == Axis::Global, k, "%" + n.name, std::to_string(k)});
      throw;
    }
  }

  void exec(const std::vector<int>& list) {
    for (int i : list) {
      const Node& n = p_.nodes[i];
      switch (n.op) {
        case Op::Buffer:
          init_buffer(i);
          break;
        case Op::Range:
          range(i, n);
          break;
        case Op::End:
          break;
        case Op::Const:
          vals_[i] = n.args[0].bits;
          break;
        case Op::Add:
          vals_[i] = arith<tir::BinOp::Add>(n.type, val(n.args[0]), val(n.args[1]), n.op_span);
          break;
        case Op::Sub:
          vals_[i] = arith<tir::BinOp::Sub>(n.type, val(n.args[0]), val(n.args[1]), n.op_span);
          break;
        case Op::Mul:
          vals_[i] = arith<tir::BinOp::Mul>(n.type, val(n.args[0]), val(n.args[1]), n.op_span);
          break;
        case Op::Div:
          vals_[i] = arith<tir::BinOp::Div>(n.type, val(n.args[0]), val(n.args[1]), n.op_span);
          break;
        case Op::Mod:
          vals_[i] = arith<tir::BinOp::Rem>(n.type, val(n.args[0]), val(n.args[1]), n.op_span);
          break;
        case Op::Neg:
          vals_[i] = with_type(n.type, [&]<class T>() {
            return to_bits<T>(interp::op_neg<T>(from_bits<T>(val(n.args[0]))));
          });
          break;
        case Op::Cast: {
          const Operand& a = n.args[0];
          Scalar from =
              a.node >= 0 ? p_.nodes[a.node].type : (a.float_text ? Scalar::F64 : Scalar::I32);
          uint64_t v = val(a);
          vals_[i] = with_type(n.type, [&]<class To>() {
            return with_type(from, [&]<class From>() {
              return to_bits<To>(interp::cast_value<To, From>(from_bits<From>(v)));
            });
          });
          break;
        }
        case Op::Load:
          vals_[i] = bufs_[n.args[0].node][offset(n)];
          break;
        case Op::Store:
          bufs_[n.args[0].node][offset(n)] = val(n.args[2]);
          break;
        case Op::Print:
          print(n);
          break;
      }
    }
  }

  const Program& p_;
  std::ostream& out_;
  std::vector<uint64_t> vals_;
  std::vector<std::vector<uint64_t>> bufs_;
  interp::RunLimits limits_;
};

}  // namespace

std::string value_text(Scalar t, uint64_t bits) {
  fmt::Spec spec;
  if (t == Scalar::F32) return fmt::format_f32(from_bits<float>(bits), spec);
  if (t == Scalar::F64) return fmt::format_f64(from_bits<double>(bits), spec);
  if (scalar_info(t).is_signed)
    return fmt::format_i64(static_cast<int64_t>(bits), spec, scalar_info(t).bits);
  return fmt::format_u64(bits, spec);
}

int run_uir(const Program& program, std::ostream& out, std::ostream& err, Buffers* final,
            ErrorFormat format, int64_t max_steps, double max_seconds,
            const std::atomic<bool>* interrupt,
            const std::function<void(Span, const std::string&)>& report) {
  Runner r(program, out, interp::RunLimits::starting_now(max_steps, max_seconds, interrupt));
  try {
    r.run();
  } catch (const interp::RuntimeError& e) {
    out.flush();
    const std::string message = e.message + interp::pass_suffix(e.passes, "thread");
    if (report)
      report(e.span, message);
    else
      render_runtime_error(err, *program.file, e.span, message, format);
    return 101;
  } catch (const std::bad_alloc&) {
    out.flush();
    render_plain_error(err, "runtime error: out of memory", format);
    return 101;
  }
  out.flush();
  if (final) *final = r.top_buffers();
  return 0;
}

}  // namespace vx::uir
