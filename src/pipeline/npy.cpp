// The `.npy` format: a magic string and version, a header (a Python dict literal with the keys
// `descr`, `fortran_order` and `shape`) padded so that the elements start at a multiple of 64,
// then the elements. A library's reader (xtensor's load_npy<T>) wants the element type at compile
// time and throws its own texts; here the file's dtype is compared with a parameter's type known
// only at run time, and every problem is reported with the file's name, so the few lines of the
// format are written out.
#include "pipeline/npy.hpp"

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>

namespace vx::npy {

std::string descr(Scalar s) {
  const ScalarInfo& info = scalar_info(s);
  if (s == Scalar::BF16) return "<u2";  // NumPy has no bf16: its bits
  const char kind = s == Scalar::Bool ? 'b' : info.is_float ? 'f' : info.is_signed ? 'i' : 'u';
  return std::string(info.bits == 8 ? "|" : "<") + kind + std::to_string(info.bits / 8);
}

bool scalar_of(const std::string& d, Scalar& out) {
  // In the table's order, so that `<u2` is u16 before bf16 and `<u4` u32 before char.
  for (Scalar s : {Scalar::I8, Scalar::I16, Scalar::I32, Scalar::I64, Scalar::U8, Scalar::U16,
                   Scalar::U32, Scalar::U64, Scalar::F16, Scalar::F32, Scalar::F64, Scalar::Bool})
    if (descr(s) == d) {
      out = s;
      return true;
    }
  return false;
}

std::string write(const std::string& path, Scalar s, const interp::TensorView& v) {
  static_assert(std::endian::native == std::endian::little, "the elements are written as stored");
  std::string shape;
  for (int d = 0; d < v.rank; ++d) shape += std::to_string(v.dims[d]) + ", ";
  if (v.rank > 1)
    shape.resize(shape.size() - 2);  // (2, 3); a 1-tuple keeps its comma: (4,)
  else if (v.rank == 1)
    shape.pop_back();
  std::string header =
      "{'descr': '" + descr(s) + "', 'fortran_order': False, 'shape': (" + shape + "), }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  const auto len = static_cast<uint16_t>(header.size());
  f.write("\x93NUMPY\x01\x00", 8);
  const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(len_bytes, 2);
  f << header;
  const int es = interp::scalar_size(s);
  if (!v.init) {
    f.write(reinterpret_cast<const char*>(v.data), static_cast<std::streamsize>(v.size * es));
  } else {
    for (int64_t k = 0; k < v.size; ++k) {  // an element never written is written as 0
      static const std::byte zero[8] = {};
      const std::byte* p = v.init[k] ? v.data + k * es : zero;
      f.write(reinterpret_cast<const char*>(p), es);
    }
  }
  if (!f.flush()) return "cannot write `" + path + "`";
  return {};
}

namespace {

// A reader of the header's dict literal: `{'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }`, keys and strings in either quote.
struct HeaderReader {
  std::string_view s;
  size_t at = 0;

  void blanks() {
    while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')) ++at;
  }
  bool take(char c) {
    blanks();
    if (at < s.size() && s[at] == c) {
      ++at;
      return true;
    }
    return false;
  }
  bool string(std::string& out) {
    blanks();
    if (at >= s.size() || (s[at] != '\'' && s[at] != '"')) return false;
    const char q = s[at++];
    const size_t end = s.find(q, at);
    if (end == std::string_view::npos) return false;
    out = std::string(s.substr(at, end - at));
    at = end + 1;
    return true;
  }
  bool word(std::string_view w) {
    blanks();
    if (s.substr(at, w.size()) != w) return false;
    at += w.size();
    return true;
  }
  bool shape(std::vector<int64_t>& out) {
    if (!take('(')) return false;
    while (!take(')')) {
      blanks();
      int64_t v = 0;
      const size_t start = at;
      while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
        if (v > (INT64_MAX - 9) / 10) return false;
        v = v * 10 + (s[at++] - '0');
      }
      if (at == start) return false;
      out.push_back(v);
      if (!take(',')) return take(')');
    }
    return true;
  }
};

// The bytes of one element of a dtype such as `<f4`, `|b1`; 0 when it is not one vx reads.
int item_bytes(const std::string& d) {
  if (d.size() != 3 || std::strchr("<>|=", d[0]) == nullptr ||
      std::strchr("biuf", d[1]) == nullptr || std::strchr("1248", d[2]) == nullptr)
    return 0;
  return d[2] - '0';
}

}  // namespace

std::string read(const std::string& path, Array& out) {
  static_assert(std::endian::native == std::endian::little, "the elements are read as stored");
  std::ifstream f(path, std::ios::binary);
  if (!f) return "cannot read `" + path + "`";
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) return "cannot read `" + path + "`";
  const std::string bad = "`" + path + "` is not a NumPy .npy file";
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) return bad;
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, start = 0;
  auto byte = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(bytes[i])); };
  if (major == 1) {
    header_len = byte(8) | byte(9) << 8;
    start = 10;
  } else if ((major == 2 || major == 3) && bytes.size() >= 12) {
    header_len = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
    start = 12;
  } else {
    return bad + " of a version vx reads (1.0, 2.0 or 3.0)";
  }
  if (header_len > bytes.size() - start) return bad + ": its header is cut short";
  HeaderReader h{std::string_view(bytes.data() + start, header_len)};
  bool fortran = false, have_descr = false, have_order = false, have_shape = false;
  if (!h.take('{')) return bad + ": its header is not a dict";
  while (!h.take('}')) {
    std::string key;
    if (!h.string(key) || !h.take(':')) return bad + ": its header is not a dict";
    if (key == "descr") {
      if (!h.string(out.descr)) return bad + ": `descr` is not a string";
      have_descr = true;
    } else if (key == "fortran_order") {
      if (h.word("True"))
        fortran = true;
      else if (!h.word("False"))
        return bad + ": `fortran_order` is not True or False";
      have_order = true;
    } else if (key == "shape") {
      if (!h.shape(out.shape)) return bad + ": `shape` is not a tuple of sizes";
      have_shape = true;
    } else {
      return bad + ": its header has the key `" + key + "`";
    }
    if (!h.take(',')) {
      if (!h.take('}')) return bad + ": its header is not a dict";
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape)
    return bad + ": its header lacks `descr`, `fortran_order` or `shape`";
  if (fortran)
    return "`" + path + "` is in Fortran order; vx reads C order (numpy.ascontiguousarray)";
  const int item = item_bytes(out.descr);
  if (item == 0) return "`" + path + "` holds dtype `" + out.descr + "`, which no Vx type has";
  // One-byte types have no byte order, and `=` is this machine's (little-endian) order.
  if (item == 1 || out.descr[0] == '=') out.descr[0] = item == 1 ? '|' : '<';
  if (out.descr[0] == '>') return "`" + path + "` is big-endian; vx reads little-endian files";
  unsigned __int128 count = 1;
  for (int64_t d : out.shape) {
    count *= static_cast<unsigned __int128>(d);
    if (count > bytes.size()) count = static_cast<unsigned __int128>(bytes.size()) + 1;
  }
  const size_t data_at = start + header_len;
  const unsigned __int128 want = count * static_cast<unsigned>(item);
  if (want != bytes.size() - data_at)
    return "`" + path + "` holds " + std::to_string(bytes.size() - data_at) +
           " bytes of elements; its shape and dtype need " +
           (want > bytes.size() ? std::string("more")
                                : std::to_string(static_cast<uint64_t>(want)));
  out.data.resize(bytes.size() - data_at);
  if (!out.data.empty())  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(out.data.data(), bytes.data() + data_at, out.data.size());
  return {};
}

}  // namespace vx::npy
