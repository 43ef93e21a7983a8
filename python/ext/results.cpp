// See results.hpp.
#include "results.hpp"

#include <pybind11/numpy.h>

#include <cstring>

#include "pipeline/npy.hpp"
#include "pipeline/params.hpp"
#include "support/half.hpp"

namespace vx::python {

namespace {

size_t leaf_count(const Type& t) {
  if (!t.is_tuple()) return 1;
  size_t n = 0;
  for (const Type& e : t.elems) n += leaf_count(e);
  return n;
}

py::object aggregate_object(const Type& t, const std::vector<uint64_t>& leaves, size_t& next) {
  if (!t.is_tuple()) return scalar_object(t.scalar, leaves[next++]);
  if (t.is_struct()) {
    py::dict d;
    for (size_t i = 0; i < t.elems.size(); ++i)
      d[py::str(t.fields[i])] = aggregate_object(t.elems[i], leaves, next);
    return d;
  }
  py::tuple out(t.elems.size());
  for (size_t i = 0; i < t.elems.size(); ++i) out[i] = aggregate_object(t.elems[i], leaves, next);
  return out;
}

}  // namespace

void capture_return(const tir::Function& fn, interp::Frame& frame, Returned& out) {
  if (const Type* aggregate = params::returned_aggregate(fn)) {
    out.type = aggregate;
    const size_t n = leaf_count(*aggregate);
    for (size_t k = 0; k < n; ++k)
      out.leaves.push_back(frame.s[static_cast<size_t>(fn.ret_slots[k])]);
    return;
  }
  if (fn.ret.is_unit()) return;
  out.type = &fn.ret;
  if (fn.ret.kind == TypeKind::Tensor) {
    const interp::TensorView& v = frame.ret_tensor.view;
    out.dims.assign(v.dims, v.dims + v.rank);
    const size_t bytes =
        static_cast<size_t>(v.size) * static_cast<size_t>(interp::scalar_size(fn.ret.scalar));
    out.elements.resize(bytes);
    if (bytes) std::memcpy(out.elements.data(), v.data, bytes);
    return;
  }
  out.bits = frame.ret_bits;
}

py::object scalar_object(Scalar s, uint64_t bits) {
  switch (s) {
    case Scalar::Bool:
      return py::bool_(bits != 0);
    case Scalar::Char: {
      const auto cp = static_cast<uint32_t>(bits);
      return py::reinterpret_steal<py::object>(
          PyUnicode_FromOrdinal(static_cast<int>(std::min<uint32_t>(cp, 0x10FFFF))));
    }
    case Scalar::F32:
      return py::float_(interp::from_bits<float>(bits));
    case Scalar::F64:
      return py::float_(interp::from_bits<double>(bits));
    case Scalar::F16:
      return py::float_(f16_bits_to_f32(static_cast<uint16_t>(bits)));
    case Scalar::BF16:
      return py::float_(bf16_bits_to_f32(static_cast<uint16_t>(bits)));
    default:
      break;
  }
  // Integers: slots hold them sign- or zero-extended to 64 bits.
  if (scalar_info(s).is_signed)
    return py::reinterpret_steal<py::object>(PyLong_FromLongLong(static_cast<int64_t>(bits)));
  return py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(bits));
}

py::object return_value(const Returned& r) {
  if (!r.type) return py::none();
  const Type& t = *r.type;
  if (t.is_tuple()) {
    size_t next = 0;
    return aggregate_object(t, r.leaves, next);
  }
  if (t.kind == TypeKind::String) return py::str(interp::string_of(r.bits));
  if (t.kind == TypeKind::Tensor) {
    py::array out(py::dtype(npy::descr(t.scalar)),
                  std::vector<py::ssize_t>(r.dims.begin(), r.dims.end()));
    if (!r.elements.empty()) std::memcpy(out.mutable_data(), r.elements.data(), r.elements.size());
    return out;
  }
  if (t.is_scalar()) return scalar_object(t.scalar, r.bits);
  return py::none();
}

py::object from_json(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const auto& e : j) out.append(from_json(e));
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (auto it = j.begin(); it != j.end(); ++it) out[py::str(it.key())] = from_json(it.value());
      return out;
    }
    default:
      return py::none();
  }
}

}  // namespace vx::python
