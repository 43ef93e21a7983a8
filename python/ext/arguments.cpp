// See arguments.hpp. The checks of a tensor argument, in order: what kind of object it is (a NumPy
// array, `__dlpack__`, the buffer protocol), where its memory is (the host), its dtype and shape
// (the messages of `vx call`, call::array_mismatch), its layout (C order), its alignment, whether
// a `&mut` one is writable, and a bool's bytes; then, over all of them, that no `&mut` tensor
// shares memory with another argument (Vx's references never alias; the kernel rules rely on it).
#include "arguments.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>

#include "dlpack.hpp"
#include "pipeline/call.hpp"
#include "pipeline/npy.hpp"
#include "support/half.hpp"
#include "support/suggest.hpp"

namespace vx::python {

namespace {

const std::string kCaller = "Python";

// `1.5 (float)`: a value as a message shows what was given.
std::string given_text(PyObject* value) {
  std::string text;
  PyObject* r = PyObject_Repr(value);
  if (r) {
    Py_ssize_t n = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(r, &n);
    if (utf8) text.assign(utf8, static_cast<size_t>(n));
    Py_DECREF(r);
  }
  PyErr_Clear();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text + " (" + Py_TYPE(value)->tp_name + ")";
}

bool is_numpy_bool(PyObject* value) {
  return std::strcmp(Py_TYPE(value)->tp_name, "numpy.bool_") == 0;
}

// ---- scalars ------------------------------------------------------------------------------------

// The slot bits of `value` for the scalar parameter (or tuple leaf) `name` of type `s`. Integers
// are range-checked by their decimal text with `vx call`'s own reader (call::scalar_value), so
// the two refuse the same values with the same words.
uint64_t scalar_bits(const std::string& name, Scalar s, PyObject* value) {
  uint64_t bits = 0;
  auto refuse = [&](const std::string& word) {
    const std::string why = call::scalar_value(s, word, bits);
    throw ArgumentRefused("`" + name + "` takes " + why + ", not " + given_text(value));
  };
  const ScalarInfo& info = scalar_info(s);
  if (s == Scalar::Bool) {
    if (PyBool_Check(value) || is_numpy_bool(value)) return PyObject_IsTrue(value) == 1 ? 1 : 0;
    refuse("");
  }
  if (s == Scalar::Char) {
    if (PyUnicode_Check(value)) {
      Py_ssize_t n = 0;
      const char* utf8 = PyUnicode_AsUTF8AndSize(value, &n);
      if (!utf8) throw py::error_already_set();
      const std::string word(utf8, static_cast<size_t>(n));
      if (call::scalar_value(s, word, bits).empty()) return bits;
    }
    refuse("");
  }
  if (info.is_int) {
    // bool is an int to Python; a `True` given for a count is more likely a slip than a 1.
    if (PyBool_Check(value) || !PyIndex_Check(value)) refuse("");
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(value));
    if (!index) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    const std::string word = overflow ? std::string(py::str(index)) : std::to_string(v);
    if (call::scalar_value(s, word, bits).empty()) return bits;
    refuse(word);
  }
  // A float: Python's float (an f64), an int, or anything with __float__ (NumPy's scalars), rounded
  // once to the parameter's type.
  double d = 0;
  if (PyFloat_Check(value)) {
    d = PyFloat_AS_DOUBLE(value);
  } else if (!PyBool_Check(value) && !PyUnicode_Check(value) &&
             (PyIndex_Check(value) ||
              (Py_TYPE(value)->tp_as_number && Py_TYPE(value)->tp_as_number->nb_float))) {
    d = PyFloat_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();  // an int too large for a double
      refuse("");
    }
  } else {
    refuse("");
  }
  switch (s) {
    case Scalar::F32:
      return interp::to_bits(static_cast<float>(d));
    case Scalar::F16:
      return f64_to_f16_bits(d);
    case Scalar::BF16:
      return f64_to_bf16_bits(d);
    default:
      return interp::to_bits(d);
  }
}

// The leaves of a tuple or struct argument, in the order of the parameter's slots: a tuple (or
// list) of its elements, or for a struct also a dict of its fields.
void aggregate_leaves(const std::string& name, const Type& t, PyObject* value,
                      std::vector<PyObject*>& leaves) {
  if (!t.is_tuple()) {
    leaves.push_back(value);
    return;
  }
  const size_t n = t.elems.size();
  if (t.is_struct() && PyDict_Check(value)) {
    if (static_cast<size_t>(PyDict_Size(value)) != n) {
      std::string fields;
      for (const std::string& f : t.fields) fields += (fields.empty() ? "`" : ", `") + f + "`";
      throw ArgumentRefused("`" + name + "` is `" + type_name(t) + "`: the dict has " +
                            std::to_string(PyDict_Size(value)) + " keys; its fields are " + fields);
    }
    for (size_t i = 0; i < n; ++i) {
      PyObject* item = PyDict_GetItemString(value, t.fields[i].c_str());
      if (!item)
        throw ArgumentRefused("`" + name + "` is `" + type_name(t) + "`: the dict has no field `" +
                              t.fields[i] + "`");
      aggregate_leaves(name + "." + t.fields[i], t.elems[i], item, leaves);
    }
    return;
  }
  if ((PyTuple_Check(value) || PyList_Check(value)) &&
      static_cast<size_t>(PySequence_Size(value)) == n) {
    for (size_t i = 0; i < n; ++i) {
      PyObject* item =
          PyTuple_Check(value) ? PyTuple_GET_ITEM(value, i) : PyList_GET_ITEM(value, i);
      aggregate_leaves(name + "." + (t.is_struct() ? t.fields[i] : std::to_string(i)), t.elems[i],
                       item, leaves);
    }
    return;
  }
  throw ArgumentRefused("`" + name + "` is `" + type_name(t) + "`: pass a tuple of its " +
                        std::to_string(n) +
                        (t.is_struct() ? " fields in order, or a dict of them" : " elements") +
                        ", not " + given_text(value));
}

// ---- tensors ------------------------------------------------------------------------------------

struct BufferBorrow final : Borrow {
  Py_buffer view{};
  ~BufferBorrow() override { PyBuffer_Release(&view); }
};

struct DlpackBorrow final : Borrow {
  dlpack::DLManagedTensor* tensor = nullptr;
  ~DlpackBorrow() override {
    if (tensor && tensor->deleter) tensor->deleter(tensor);
  }
};

// What an object offers as a tensor's elements.
struct Offered {
  std::string source;  // "the array", "the tensor", "the buffer": the messages' words for it
  std::byte* data = nullptr;
  std::string descr;  // NumPy's dtype string (`<f4`); "bfloat16" for DLPack's bf16
  std::vector<int64_t> shape;
  bool c_order = true;
  bool writable = true;
  std::string device;  // empty: host memory; else where it is ("DLPack device kDLCUDA:0")
  bool cuda0 = false;  // the memory of CUDA device 0 (kDLCUDA), which the offload tier can use
};

// A NumPy array's dtype as NumPy writes it (`<f4`, `|b1`); the byte order of a one-byte type is
// `|`, and native order is written `<` (vx runs only on little-endian machines).
std::string numpy_descr(PyObject* array) {
  const auto* a = py::detail::array_proxy(array);
  const auto* d = py::detail::array_descriptor_proxy(a->descr);
  const bool basic = d->kind == 'b' || d->kind == 'i' || d->kind == 'u' || d->kind == 'f';
  if (!basic) return py::str(py::handle(a->descr).attr("str"));
  const char order = d->elsize == 1 ? '|' : d->byteorder == '>' ? '>' : '<';
  return std::string(1, order) + d->kind + std::to_string(d->elsize);
}

void offer_numpy(PyObject* array, Offered& o) {
  const auto* a = py::detail::array_proxy(array);
  o.source = "the array";
  o.data = reinterpret_cast<std::byte*>(a->data);
  o.descr = numpy_descr(array);
  o.shape.assign(a->dimensions, a->dimensions + a->nd);
  o.c_order = (a->flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_) != 0;
  o.writable = (a->flags & py::detail::npy_api::NPY_ARRAY_WRITEABLE_) != 0;
}

const char* device_name(int32_t type) {
  switch (type) {
    case dlpack::kDLCPU:
      return "kDLCPU";
    case dlpack::kDLCUDA:
      return "kDLCUDA";
    case dlpack::kDLCUDAHost:
      return "kDLCUDAHost";
    case dlpack::kDLCUDAManaged:
      return "kDLCUDAManaged";
    case dlpack::kDLROCM:
      return "kDLROCM";
    case dlpack::kDLMetal:
      return "kDLMetal";
    case dlpack::kDLOneAPI:
      return "kDLOneAPI";
    default:
      return "another kind";
  }
}

// DLPack's (code, bits, lanes) as NumPy's dtype string, where there is one.
std::string dlpack_descr(const dlpack::DLDataType& t) {
  if (t.lanes != 1) return "vectors of " + std::to_string(t.lanes) + " lanes";
  if (t.code == dlpack::kDLBfloat && t.bits == 16) return "bfloat16";
  if (t.code == dlpack::kDLBool) return "|b" + std::to_string(t.bits / 8);
  const char kind = t.code == dlpack::kDLInt       ? 'i'
                    : t.code == dlpack::kDLUInt    ? 'u'
                    : t.code == dlpack::kDLFloat   ? 'f'
                    : t.code == dlpack::kDLComplex ? 'c'
                                                   : '?';
  if (kind == '?') return "DLPack type code " + std::to_string(t.code);
  return std::string(t.bits == 8 ? "|" : "<") + kind + std::to_string(t.bits / 8);
}

// The text of the Python exception being raised, which is cleared.
std::string take_error_text() {
  py::error_already_set e;
  return py::str(e.value());
}

// Whether `object` says (`__dlpack_device__`) that its memory is a CUDA device's.
bool on_cuda(PyObject* object) {
  if (!PyObject_HasAttrString(object, "__dlpack_device__")) return false;
  py::object d =
      py::reinterpret_steal<py::object>(PyObject_CallMethod(object, "__dlpack_device__", nullptr));
  if (!d || !PyTuple_Check(d.ptr()) || PyTuple_GET_SIZE(d.ptr()) < 1) {
    PyErr_Clear();
    return false;
  }
  return PyLong_AsLong(PyTuple_GET_ITEM(d.ptr(), 0)) == dlpack::kDLCUDA;
}

void offer_dlpack(const std::string& head, PyObject* object, Offered& o, BoundCall& out) {
  // A CUDA tensor is asked for on the legacy default stream (DLPack's stream 1), where the offload
  // tier launches: its producer orders its own work before it (PyTorch records an event).
  py::object capsule = py::reinterpret_steal<py::object>(
      on_cuda(object) ? PyObject_CallMethod(object, "__dlpack__", "(i)", 1)
                      : PyObject_CallMethod(object, "__dlpack__", nullptr));
  // PyTorch's own refusals (a tensor that requires grad, a conjugate view) name the way out.
  if (!capsule) throw ArgumentRefused(head + "could not be taken: " + take_error_text());
  auto* managed = static_cast<dlpack::DLManagedTensor*>(
      PyCapsule_GetPointer(capsule.ptr(), dlpack::kCapsuleName));
  if (!managed) throw py::error_already_set();
  // Ours now: renamed so that the capsule's destructor leaves it to our deleter.
  PyCapsule_SetName(capsule.ptr(), dlpack::kUsedCapsuleName);
  auto borrow = std::make_unique<DlpackBorrow>();
  borrow->tensor = managed;
  out.borrows.push_back(std::move(borrow));
  const dlpack::DLTensor& t = managed->dl_tensor;
  o.source = "the tensor";
  o.data = static_cast<std::byte*>(t.data) + t.byte_offset;
  o.descr = dlpack_descr(t.dtype);
  o.shape.assign(t.shape, t.shape + t.ndim);
  if (t.strides) {
    int64_t expected = 1;
    for (int d = t.ndim - 1; d >= 0; --d) {
      if (t.shape[d] != 1 && t.strides[d] != expected) o.c_order = false;
      expected *= t.shape[d];
    }
  }
  const int32_t device = t.device.device_type;
  if (device != dlpack::kDLCPU && device != dlpack::kDLCUDAHost && device != dlpack::kDLCUDAManaged)
    o.device = std::string("DLPack device ") + device_name(device) + ":" +
               std::to_string(t.device.device_id);
  o.cuda0 = device == dlpack::kDLCUDA && t.device.device_id == 0;
}

// The buffer protocol's format character (struct module syntax) as NumPy's dtype string.
std::string buffer_descr(const Py_buffer& v) {
  std::string f = v.format ? v.format : "B";
  char order = '<';
  if (!f.empty() && (f[0] == '<' || f[0] == '>' || f[0] == '!' || f[0] == '=' || f[0] == '@')) {
    order = f[0] == '>' || f[0] == '!' ? '>' : '<';
    f = f.substr(1);
  }
  if (f.size() != 1) return "format '" + std::string(v.format) + "'";
  char kind = 0;
  switch (f[0]) {
    case '?':
      kind = 'b';
      break;
    case 'b':
    case 'h':
    case 'i':
    case 'l':
    case 'q':
    case 'n':
      kind = 'i';
      break;
    case 'B':
    case 'H':
    case 'I':
    case 'L':
    case 'Q':
    case 'N':
    case 'c':
      kind = 'u';
      break;
    case 'e':
    case 'f':
    case 'd':
      kind = 'f';
      break;
    default:
      return "format '" + std::string(v.format) + "'";
  }
  return std::string(1, v.itemsize == 1 ? '|' : order) + kind + std::to_string(v.itemsize);
}

bool offer_buffer(PyObject* object, Offered& o, BoundCall& out) {
  auto borrow = std::make_unique<BufferBorrow>();
  if (PyObject_GetBuffer(object, &borrow->view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return false;
  }
  const Py_buffer& v = borrow->view;
  o.source = "the buffer";
  o.data = static_cast<std::byte*>(v.buf);
  o.descr = buffer_descr(v);
  for (int d = 0; d < v.ndim; ++d) o.shape.push_back(v.shape ? v.shape[d] : v.len / v.itemsize);
  o.c_order = PyBuffer_IsContiguous(&v, 'C') != 0;
  o.writable = !v.readonly;
  out.borrows.push_back(std::move(borrow));
  return true;
}

TensorArgument tensor_argument(const std::string& name, const Type& t, int slot, PyObject* value,
                               const std::string& offload, BoundCall& out) {
  Offered o;
  if (py::isinstance<py::array>(value)) {
    offer_numpy(value, o);
  } else if (PyObject_HasAttrString(value, "__dlpack__")) {
    offer_dlpack("`" + name + "` is `" + type_name(t) + "`, but the tensor ", value, o, out);
  } else if (!PyObject_CheckBuffer(value) || !offer_buffer(value, o, out)) {
    throw ArgumentRefused("`" + name + "` is `" + type_name(t) +
                          "`: pass a NumPy array, or an object with `__dlpack__` or the buffer "
                          "protocol (a PyTorch tensor, a memoryview), not " +
                          given_text(value));
  }
  const std::string head = "`" + name + "` is `" + type_name(t) + "`, but " + o.source + " ";
  const bool by_value = t.kind == TypeKind::Tensor;
  if (!o.device.empty() && !o.cuda0)
    throw ArgumentRefused(head + "is in the memory of " + o.device +
                          ": vx reads host memory, or CUDA device 0's (PyTorch: pass `" + name +
                          ".cpu()`)");
  if (o.cuda0 && offload == "off")
    throw ArgumentRefused(head + "is in the memory of " + o.device + ", and offload=\"off\" runs " +
                          "the call on the host: pass offload=\"gpu\" (or `" + name + ".cpu()`)");
  if (o.cuda0 && by_value)
    throw ArgumentRefused(head + "is in the memory of " + o.device +
                          ", and a `Tensor` parameter is moved into the call as a copy on the " +
                          "host: pass it from host memory (`" + name + ".cpu()`)");
  // NumPy has no bf16, and `vx call` takes its bits as uint16; a DLPack producer (PyTorch's
  // torch.bfloat16) names it.
  if (t.scalar == Scalar::BF16 && o.descr == "bfloat16") o.descr = npy::descr(Scalar::BF16);
  if (std::string why = call::array_mismatch(name, t, o.descr, o.shape, o.source); !why.empty())
    throw ArgumentRefused(why);
  if (!o.c_order)
    throw ArgumentRefused(head +
                          "is not contiguous in C order (a transposed or strided view): a Vx "
                          "tensor's elements are row-major and adjacent (numpy.ascontiguousarray "
                          "or .contiguous() makes such a copy)");
  const int elem = interp::scalar_size(t.scalar);
  if (reinterpret_cast<uintptr_t>(o.data) % static_cast<uintptr_t>(elem) != 0)
    throw ArgumentRefused(head + "starts at an address that is not a multiple of its " +
                          std::to_string(elem) + "-byte elements");
  if (t.kind == TypeKind::Ref && t.ref_mut && !o.writable)
    throw ArgumentRefused(head + "is read-only, and a `&mut` tensor is written in place");
  TensorArgument a;
  a.name = name;
  a.type = &t;
  a.slot = slot;
  a.data = o.data;
  a.dims = std::move(o.shape);
  a.size = 1;
  for (int64_t d : a.dims) a.size *= d;
  a.bytes = static_cast<size_t>(a.size) * static_cast<size_t>(elem);
  a.by_value = by_value;
  if (o.cuda0) {  // bool bytes are not read from device memory: the kernel sees them as they are
    a.device = reinterpret_cast<uint64_t>(o.data);
    return a;
  }
  if (std::string why = call::bool_bytes_mismatch(name, t, a.data, a.bytes, o.source); !why.empty())
    throw ArgumentRefused(why);
  return a;
}

// Two references that share memory, one of them `&mut`: refused, as Vx's borrows would refuse
// them (a by-value tensor is copied before the call starts, and may share).
void check_no_alias(const BoundCall& call) {
  const auto& ts = call.tensors;
  for (size_t i = 0; i < ts.size(); ++i)
    for (size_t j = i + 1; j < ts.size(); ++j) {
      const TensorArgument &a = ts[i], &b = ts[j];
      if (a.by_value || b.by_value) continue;
      const bool mut = a.type->ref_mut || b.type->ref_mut;
      const bool overlap = a.data < b.data + b.bytes && b.data < a.data + a.bytes;
      if (mut && overlap)
        throw ArgumentRefused("`" + a.name + "` and `" + b.name +
                              "` share memory, and one of them is `&mut`: a `&mut` tensor is "
                              "written in place, and must not be another argument's memory");
    }
}

}  // namespace

void bind_arguments(const tir::Function& fn, const FunctionInfo& info, PyObject* args,
                    PyObject* kwargs, const std::string& offload, BoundCall& out) {
  const size_t n = info.params.size();
  const size_t positional = static_cast<size_t>(PyTuple_GET_SIZE(args));
  if (positional > n)
    throw py::type_error(info.name + "() takes " + std::to_string(n) + " argument" +
                         (n == 1 ? "" : "s") + " (" + std::to_string(positional) + " given)");
  std::vector<PyObject*> given(n, nullptr);
  for (size_t i = 0; i < positional; ++i) given[i] = PyTuple_GET_ITEM(args, i);
  if (kwargs && PyDict_GET_SIZE(kwargs) > 0) {
    PyObject *key = nullptr, *value = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      size_t i = 0;
      while (i < n && PyUnicode_Compare(key, info.param_names[i]) != 0) ++i;
      if (i == n) {
        std::vector<std::string> names;
        for (const auto& p : info.params) names.push_back(p.name);
        const std::string word = py::str(key);
        std::string msg = "`" + info.name + "` has no parameter `" + word + "`";
        if (auto near = closest_name(word, names)) msg += "; did you mean `" + *near + "`?";
        throw py::type_error(msg);
      }
      if (given[i])
        throw py::type_error(info.name + "() got the argument `" + info.params[i].name + "` twice");
      given[i] = value;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const params::Param& p = info.params[i];
    if (!given[i])
      throw py::type_error(info.name + "() is missing the argument `" + p.name + "` (`" +
                           type_name(p.type) + "`)");
    if (std::string why = call::parameter_refused(p.name, p.type, kCaller); !why.empty())
      throw ArgumentRefused(why);
    if (p.type.is_scalar()) {
      out.scalars.emplace_back(p.slots.front(), scalar_bits(p.name, p.type.scalar, given[i]));
    } else if (p.type.is_tuple()) {
      std::vector<PyObject*> leaves;
      aggregate_leaves(p.name, p.type, given[i], leaves);
      for (size_t k = 0; k < leaves.size(); ++k) {
        const int slot = p.slots[k];
        out.scalars.emplace_back(
            slot, scalar_bits(fn.slot_names[static_cast<size_t>(slot)],
                              fn.slot_types[static_cast<size_t>(slot)].scalar, leaves[k]));
      }
    } else {
      out.tensors.push_back(
          tensor_argument(p.name, p.type, p.slots.front(), given[i], offload, out));
    }
  }
  check_no_alias(out);  // CUDA's unified addressing keeps device and host addresses apart
  for (TensorArgument& a : out.tensors)
    if (a.device) {
      a.shadow.reset(new std::byte[a.bytes ? a.bytes : 1]);  // not written: no page is touched
      a.data = a.shadow.get();
    }
}

}  // namespace vx::python
