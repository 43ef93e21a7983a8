"""The Python package vx (spec/python.md) under pytest.

- llm.c's GELU, layernorm and softmax forward kernels, written in Vx below, called on NumPy arrays
  and on PyTorch tensors. Each result is checked against two references computed here without
  vx: NumPy, step by step in float32 in the kernel's order (the sums in the tree order of
  lanes::sum, spec/builtins.md §2), with tanh and exp correctly rounded (float64 NumPy, and
  mpmath where float64 is too close to a float32 midpoint to decide) — bit for bit, since every
  step is then an IEEE operation or correctly rounded; and PyTorch's own functions (gelu with
  approximate="tanh", layer_norm, softmax), which sum in other orders and use their own exp and
  tanh — within the ulp bounds stated at each check.
- The memory is the caller's: the output array is written in place (same address, a slice of a
  larger buffer written without its neighbours), a by-value tensor is copied.
- Every refusal: those that `vx call` also makes are compared with what the vx binary prints for
  a .npy file with the same fault (the same text but for the file's words); the Python-only ones
  (layout, read-only, alignment, a GPU tensor, aliasing, the kind of object, scalars, missing
  and unknown arguments) by their text.
- vx.CompileError and vx.KernelError carry the diagnostics' fields; warnings go through
  `warnings`; Ctrl-C (SIGINT) during a call raises KeyboardInterrupt and the module stays
  usable; the GIL is released while a kernel runs; help() shows the Vx signature; vx.check has
  the map as SVG.

Runs under Debian's /usr/bin/python3 with python3-pytest, -numpy, -torch and -mpmath (tools/setup
installs them), PYTHONPATH=build/python and VX_BINARY=build/vx (tests/python.cmake).
"""
import gc
import glob
import inspect
import os
import pydoc
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings

import mpmath
import numpy as np
import pytest
import torch

import vx

VX_BINARY = os.environ.get("VX_BINARY", "")
f32 = np.float32

# ---- the kernels ------------------------------------------------------------------------------

# llm.c's forward kernels (train_gpt2.cu and dev/cuda/*_forward.cu), as seed 002 wrote them in Vx
# (tools/bench/cuda/): one block per row, the row in a shared-memory tile, the row's sums with
# lanes::sum. GELU and softmax use the correctly rounded tanh and exp.
KERNELS = r"""
/// llm.c's GELU (the tanh approximation), element by element:
/// out[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) for i < n.
pub fn gelu_forward(out: &mut Tensor<f32, [?], Memory::HBM>, inp: &Tensor<f32, [?], Memory::HBM>, n: i32) {
    spawn on(Topology::Device) {
        for b in 0..(n + 255) / 256 across blocks {
            for l in 0..256 across lanes {
                let i = b * 256 + l;
                if i < n {
                    let x = inp[i];
                    let cube = 0.044715 * x * x * x;
                    out[i] = 0.5 * x * (1.0 + (0.7978846 * (x + cube)).tanh());
                }
            }
        }
    }
}

/// llm.c's layernorm over rows of 768: out = (x - mean) * rstd * weight + bias, and each row's
/// mean and rstd = 1 / sqrt(variance + 1e-5).
pub fn layernorm_forward(out: &mut Tensor<f32, [?, 768], Memory::HBM>, mean: &mut Tensor<f32, [?], Memory::HBM>,
                         rstd: &mut Tensor<f32, [?], Memory::HBM>, inp: &Tensor<f32, [?, 768], Memory::HBM>,
                         weight: &Tensor<f32, [768], Memory::HBM>, bias: &Tensor<f32, [768], Memory::HBM>) {
    spawn on(Topology::Device) {
        for r in 0..inp.len() across blocks {
            let mut part = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            let mut row = unsafe { Tensor<f32, [768], Memory::SMEM>::uninit() };
            for c in 0..768 across lanes(256) {
                row[c] = inp[r][c];
            }
            for l in 0..256 across lanes {
                part[l] = row[l] + row[l + 256] + row[l + 512];
            }
            let total = lanes::sum(&part, 256);
            let m = total / 768.0;
            for l in 0..256 across lanes {
                let d0 = row[l] - m;
                let d1 = row[l + 256] - m;
                let d2 = row[l + 512] - m;
                part[l] = d0 * d0 + d1 * d1 + d2 * d2;
            }
            let squares = lanes::sum(&part, 256);
            let rs = 1.0 / (squares / 768.0 + 0.00001).sqrt();
            for c in 0..768 across lanes(256) {
                out[r][c] = (row[c] - m) * rs * weight[c] + bias[c];
            }
            mean[r] = m;
            rstd[r] = rs;
        }
    }
}

/// llm.c's softmax over rows of 1024: out = exp(x - max) / sum(exp(x - max)).
pub fn softmax_forward(out: &mut Tensor<f32, [?, 1024], Memory::HBM>, inp: &Tensor<f32, [?, 1024], Memory::HBM>) {
    spawn on(Topology::Device) {
        for r in 0..inp.len() across blocks {
            let mut part = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            let mut row = unsafe { Tensor<f32, [1024], Memory::SMEM>::uninit() };
            for c in 0..1024 across lanes(256) {
                row[c] = inp[r][c];
            }
            for l in 0..256 across lanes {
                part[l] = row[l].max(row[l + 256]).max(row[l + 512]).max(row[l + 768]);
            }
            let mx = lanes::max(&part, 256);
            for c in 0..1024 across lanes(256) {
                row[c] = (row[c] - mx).exp();
            }
            for l in 0..256 across lanes {
                part[l] = row[l] + row[l + 256] + row[l + 512] + row[l + 768];
            }
            let total = lanes::sum(&part, 256);
            for c in 0..1024 across lanes(256) {
                out[r][c] = row[c] / total;
            }
        }
    }
}
"""


@pytest.fixture(scope="module")
def llmc():
    return vx.compile(KERNELS, path="llmc.vx")


# ---- references, without vx --------------------------------------------------------------------

def f32_literal(text):
    """A decimal literal rounded once to float32, as Vx reads `0.044715` in f32 code."""
    with mpmath.workprec(24):
        return f32(float(+mpmath.mpf(text)))


def correctly_rounded(x, fast, exact):
    """f(x) rounded once to float32 for a float32 array x: `fast` in float64 (NumPy's, within a
    few float64 ulps), re-done with mpmath's `exact` where the float64 value is within 16 of its
    ulps of a float32 midpoint, where the float64 error could decide the rounding."""
    approx = fast(x.astype(np.float64))
    r = approx.astype(f32)
    lo = np.nextafter(r, f32(-np.inf)).astype(np.float64)
    hi = np.nextafter(r, f32(np.inf)).astype(np.float64)
    rd = r.astype(np.float64)
    near = np.minimum(np.abs(approx - (rd + lo) / 2), np.abs(approx - (rd + hi) / 2))
    close = near <= 16 * np.spacing(approx)
    for k in np.flatnonzero(close):
        with mpmath.workprec(200):
            v = exact(mpmath.mpf(float(x.flat[k])))
        with mpmath.workprec(24):
            r.flat[k] = f32(float(+v))
    return r


def tree(values, op):
    """lanes::sum / lanes::max over the last axis, in the tree order of spec/builtins.md §2."""
    s = values.copy()
    n = s.shape[-1]
    p = 1
    while p < n:
        p *= 2
    h = p // 2
    while h >= 1:
        m = max(0, min(h, n - h))
        s[..., :m] = op(s[..., :m], s[..., h:h + m])
        h //= 2
    return s[..., 0]


def gelu_reference(x):
    cube = f32_literal("0.044715") * x * x * x
    t = correctly_rounded(f32_literal("0.7978846") * (x + cube), np.tanh, mpmath.tanh)
    return f32(0.5) * x * (f32(1.0) + t)


def layernorm_reference(x, w, b):
    part = x[:, 0:256] + x[:, 256:512] + x[:, 512:768]
    m = tree(part, np.add) / f32(768.0)
    d = x - m[:, None]
    part = d[:, 0:256] * d[:, 0:256] + d[:, 256:512] * d[:, 256:512] + d[:, 512:768] * d[:, 512:768]
    squares = tree(part, np.add)
    rs = f32(1.0) / np.sqrt(squares / f32(768.0) + f32_literal("0.00001"))
    out = (x - m[:, None]) * rs[:, None] * w + b
    return out, m, rs


def softmax_reference(x):
    mx = tree(np.maximum(np.maximum(np.maximum(x[:, :256], x[:, 256:512]), x[:, 512:768]),
                         x[:, 768:]), np.maximum)
    e = correctly_rounded(x - mx[:, None], np.exp, mpmath.exp)
    part = e[:, :256] + e[:, 256:512] + e[:, 512:768] + e[:, 768:]
    total = tree(part, np.add)
    return e / total[:, None]


def ulps(a, b):
    """The distance of two float32 arrays in units in the last place, element by element."""
    ia = np.asarray(a, f32).view(np.int32).astype(np.int64)
    ib = np.asarray(b, f32).view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def first_difference(got, want):
    k = int(np.flatnonzero(got.view(np.uint32).ravel() != want.view(np.uint32).ravel())[0])
    return f"first at flat index {k}: {got.ravel()[k]!r}, reference {want.ravel()[k]!r}"


# ---- inputs ----------------------------------------------------------------------------------

def gelu_input(n):
    return ((np.arange(n, dtype=np.int64) % 2001) - 1000).astype(f32) * f32(0.005)


def rows_input(rows, cols, seed, scale):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((rows, cols)) * scale).astype(f32)


# ---- GELU, layernorm, softmax on NumPy arrays and PyTorch tensors --------------------------------

N_GELU = 100_003  # 391 blocks, the last one partly idle


def check_gelu_against_torch(out, x):
    # PyTorch's gelu(approximate="tanh") is the same formula in another order with its own tanh:
    # within 1 ulp for x > 0, and within 2^-22 |x| everywhere (measured: 1.7 * 2^-24 |x|), since
    # for x below about -2, 1 + tanh(…) cancels and its rounding error is relative to 1, not to
    # the result.
    t = torch.nn.functional.gelu(torch.from_numpy(x), approximate="tanh").numpy()
    assert ulps(out[x > 0], t[x > 0]).max() <= 1
    assert (np.abs(out.astype(np.float64) - t) <= np.abs(x) * 2.0 ** -22).all()


def test_gelu_numpy(llmc):
    x = gelu_input(N_GELU)
    x_before = x.copy()
    out = np.zeros(N_GELU, f32)
    address = out.ctypes.data
    assert llmc.gelu_forward(out, x, N_GELU) is None
    assert out.ctypes.data == address
    assert same_bits(x, x_before), "a `&` argument was written"
    ref = gelu_reference(x)
    assert same_bits(out, ref), first_difference(out, ref)
    check_gelu_against_torch(out, x)


def test_gelu_torch(llmc):
    x = torch.from_numpy(gelu_input(N_GELU))
    out = torch.zeros(N_GELU, dtype=torch.float32)
    address = out.data_ptr()
    llmc.gelu_forward(out, x, N_GELU)
    assert out.data_ptr() == address
    ref = gelu_reference(x.numpy())
    assert same_bits(out.numpy(), ref), first_difference(out.numpy(), ref)
    check_gelu_against_torch(out.numpy(), x.numpy())


ROWS = 48


def layernorm_inputs():
    x = rows_input(ROWS, 768, 1, 2.0) + f32(0.5)
    w = rows_input(1, 768, 2, 0.3)[0] + f32(1.0)
    b = rows_input(1, 768, 3, 0.1)[0]
    return x, w, b


def check_layernorm(out, mean, rstd, x, w, b):
    ref, ref_m, ref_rs = layernorm_reference(x, w, b)
    assert same_bits(mean, ref_m), first_difference(mean, ref_m)
    assert same_bits(rstd, ref_rs), first_difference(rstd, ref_rs)
    assert same_bits(out, ref), first_difference(out, ref)
    # PyTorch's layer_norm (Welford's running mean and variance): within 2^-20 of each row's
    # largest magnitude (measured: 2^-22; outputs near zero are the difference of two nearly
    # equal terms, so a bound in ulps of each element would be meaningless).
    t = torch.nn.functional.layer_norm(torch.from_numpy(x), (768,), torch.from_numpy(w),
                                       torch.from_numpy(b), eps=1e-5).numpy()
    scale = np.abs(t).max(axis=1, keepdims=True)
    assert (np.abs(out - t) <= scale * 2.0 ** -20).all()


def test_layernorm_numpy(llmc):
    x, w, b = layernorm_inputs()
    out = np.zeros((ROWS, 768), f32)
    mean = np.zeros(ROWS, f32)
    rstd = np.zeros(ROWS, f32)
    llmc.layernorm_forward(out, mean, rstd, x, w, b)
    check_layernorm(out, mean, rstd, x, w, b)


def test_layernorm_torch(llmc):
    x, w, b = (torch.from_numpy(a) for a in layernorm_inputs())
    out = torch.zeros((ROWS, 768))
    mean = torch.zeros(ROWS)
    rstd = torch.zeros(ROWS)
    llmc.layernorm_forward(out=out, mean=mean, rstd=rstd, inp=x, weight=w, bias=b)
    check_layernorm(out.numpy(), mean.numpy(), rstd.numpy(), x.numpy(), w.numpy(), b.numpy())


def check_softmax(out, x):
    ref = softmax_reference(x)
    assert same_bits(out, ref), first_difference(out, ref)
    # PyTorch's softmax (its own exp, its own order of the sum): within 8 ulps (measured: 5).
    t = torch.softmax(torch.from_numpy(x), dim=-1).numpy()
    assert ulps(out, t).max() <= 8


def test_softmax_numpy(llmc):
    x = rows_input(32, 1024, 4, 1.5)
    out = np.zeros_like(x)
    llmc.softmax_forward(out, x)
    check_softmax(out, x)


def test_softmax_torch(llmc):
    x = torch.from_numpy(rows_input(32, 1024, 4, 1.5))
    out = torch.empty_like(x)
    llmc.softmax_forward(out, x)
    check_softmax(out.numpy(), x.numpy())


def test_host_threads_same_bits(llmc):
    x = rows_input(32, 1024, 5, 3.0)
    one, two = np.zeros_like(x), np.zeros_like(x)
    llmc.softmax_forward(one, x, host_threads=1)
    llmc.softmax_forward(two, x, host_threads=2)
    assert same_bits(one, two)


# ---- the caller's memory -------------------------------------------------------------------------

SCALE = """
pub fn scale(out: &mut Tensor<f32, [?]>, x: &Tensor<f32, [?]>, s: f32) {
    for i in 0..x.len() {
        out[i] = x[i] * s;
    }
}

pub fn consume(t: Tensor<f32, [4]>) -> f32 {
    let mut u = t;
    u[0] = 100.0;
    return u[0] + u[3];
}
"""


@pytest.fixture(scope="module")
def scale():
    return vx.compile(SCALE, path="scale.vx")


def test_written_in_place_in_a_larger_buffer(scale):
    big = np.full(20, -1.0, f32)
    x = np.arange(10, dtype=f32)
    scale.scale(big[5:15], x, 2.0)
    assert np.shares_memory(big[5:15], big)
    assert (big[5:15] == x * 2).all()
    assert (big[:5] == -1).all() and (big[15:] == -1).all()


def test_torch_view_written_in_place(scale):
    base = torch.zeros(3, 10)
    scale.scale(base[1], torch.arange(10, dtype=torch.float32), 3.0)
    assert base[1].tolist() == [3.0 * i for i in range(10)]
    assert base[0].abs().sum() == 0 and base[2].abs().sum() == 0


def test_by_value_tensor_is_copied(scale):
    t = np.array([1, 2, 3, 4], f32)
    assert scale.consume(t) == 104.0
    assert t.tolist() == [1, 2, 3, 4]


def test_buffer_protocol(scale):
    import array
    out = array.array("f", [0.0] * 4)
    scale.scale(out, memoryview(array.array("f", [1, 2, 3, 4])), 0.5)
    assert list(out) == [0.5, 1.0, 1.5, 2.0]


def test_scalars_rounded_as_numpy_does(scale):
    out = np.zeros(1, f32)
    scale.scale(out, np.ones(1, f32), 0.1)  # the float64 0.1 rounded once to float32
    assert out[0] == f32(0.1)
    scale.scale(out, np.ones(1, f32), 3)  # an int for a float
    assert out[0] == 3
    scale.scale(out, np.ones(1, f32), np.float32(2.5))
    assert out[0] == 2.5


def test_bf16_from_torch():
    m = vx.compile("pub fn twice(out: &mut Tensor<bf16, [?]>, x: &Tensor<bf16, [?]>) {\n"
                   "    for i in 0..x.len() { out[i] = x[i] + x[i]; }\n}\n")
    x = torch.tensor([1.5, -2.0, 0.375], dtype=torch.bfloat16)
    out = torch.zeros(3, dtype=torch.bfloat16)
    m.twice(out, x)
    assert out.tolist() == [3.0, -4.0, 0.75]
    bits = np.zeros(3, np.uint16)  # NumPy has no bf16: its bits, as `vx call` takes them
    m.twice(bits, x.view(torch.int16).numpy().view(np.uint16))
    assert bits.tolist() == out.view(torch.int16).numpy().view(np.uint16).tolist()


RETURNS = """
struct P { x: f32, n: i64 }
pub fn halve(v: f64) -> f64 { v / 2.0 }
pub fn pair(a: i32) -> (i32, bool) { (a * 2, a > 0) }
pub fn point(p: P) -> P { P { x: p.x * 2.0, n: p.n + 1 } }
pub fn ones(n: i64) -> Tensor<i32, [?]> { Tensor<i32, [?]>::fill_dims([n], 1) }
pub fn letter(c: char) -> char { c }
pub fn greeting() -> &'static str { "hello" }
"""


def test_return_values():
    m = vx.compile(RETURNS)
    assert m.halve(3.0) == 1.5
    assert m.pair(-4) == (-8, False)
    assert m.point((1.5, 2)) == {"x": 3.0, "n": 3}
    assert m.point({"x": 0.25, "n": -1}) == {"x": 0.5, "n": 0}
    ones = m.ones(5)
    assert ones.dtype == np.int32 and ones.tolist() == [1] * 5
    assert m.letter("é") == "é"
    assert m.greeting() == "hello"


# ---- refusals --------------------------------------------------------------------------------

def vx_call_message(program, fn, args, tmp):
    """What `vx call` prints for a request (the usage error's message, without `error: `)."""
    path = os.path.join(tmp, "program.vx")
    with open(path, "w") as f:
        f.write(program)
    argv = [VX_BINARY, "call", path, fn]
    for name, value in args:
        if isinstance(value, np.ndarray):
            file = os.path.join(tmp, name + ".npy")
            np.save(file, value)
            value = file
        argv += ["--arg", f"{name}={value}"]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    line = r.stderr.strip()
    assert line.startswith("error: ")
    return line[len("error: "):]


def python_message(program, fn, args):
    m = vx.compile(program, path="program.vx")
    with pytest.raises(vx.ArgumentError) as e:
        getattr(m, fn)(*[v for _, v in args])
    return str(e.value)


REFUSED = """
pub fn f(out: &mut Tensor<f32, [?, 3]>, x: &Tensor<f32, [?, 3]>, flags: &Tensor<bool, [2]>, n: i16) {
    if flags[0] {
        out[0][0] = x[0][0] + (n as f32);
    }
}
"""


@pytest.mark.parametrize("fault", ["dtype", "rank", "fixed dimension", "size 0",
                                   "0-dimensional", "bool byte", "scalar out of range",
                                   "scalar not an integer"])
def test_refusals_match_vx_call(fault):
    assert VX_BINARY, "VX_BINARY (the vx executable) is not set"
    good = [("out", np.zeros((2, 3), f32)), ("x", np.ones((2, 3), f32)),
            ("flags", np.array([True, False])), ("n", 5)]
    bad = dict(good)
    if fault == "dtype":
        bad["x"] = np.ones((2, 3), np.float64)
    elif fault == "rank":
        bad["x"] = np.ones(6, f32)
    elif fault == "fixed dimension":
        bad["x"] = np.ones((2, 4), f32)
    elif fault == "size 0":
        bad["x"] = np.ones((0, 3), f32)
    elif fault == "0-dimensional":
        bad["flags"] = np.array(True)
    elif fault == "bool byte":
        bad["flags"] = np.array([1, 2], np.uint8).view(np.bool_)
    elif fault == "scalar out of range":
        bad["n"] = 40000
    elif fault == "scalar not an integer":
        bad["n"] = 2.5
    args = list(bad.items())
    with tempfile.TemporaryDirectory() as tmp:
        cli = vx_call_message(REFUSED, "f", args, tmp)
    py = python_message(REFUSED, "f", args)
    if fault.startswith("scalar"):
        # `--arg n=40000: `n` takes …` and `` `n` takes …, not 40000 (int)``
        assert cli.split(": ", 1)[1] == py.rsplit(", not ", 1)[0], (cli, py)
    else:
        # `--arg x=PATH: `x` is …, but the file …` and `` `x` is …, but the array …``
        assert cli.split(": ", 1)[1].replace("the file", "the array") == py, (cli, py)


def test_unknown_and_private_functions_match_vx_call():
    program = "fn helper() {}\npub fn gelu_forward() { helper(); }\n"
    m = vx.compile(program)
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("gelu_forwad", "helper"):
            cli = vx_call_message(program, name, [], tmp)
            with pytest.raises(AttributeError) as e:
                getattr(m, name)
            assert str(e.value) == cli.replace("`vx call`", "Python")


def refusal(fn, *args, **kwargs):
    with pytest.raises(vx.ArgumentError) as e:
        fn(*args, **kwargs)
    return str(e.value)


def test_python_only_refusals(scale):
    x = np.arange(8, dtype=f32)
    out = np.zeros(8, f32)
    assert refusal(scale.scale, out, x[::2], 1.0) == (
        "`x` is `&Tensor<f32, [?]>`, but the array is not contiguous in C order "
        "(a transposed or strided view): a Vx tensor's elements are row-major and adjacent "
        "(numpy.ascontiguousarray or .contiguous() makes such a copy)")
    frozen = np.zeros(8, f32)
    frozen.flags.writeable = False
    assert refusal(scale.scale, frozen, x, 1.0) == (
        "`out` is `&mut Tensor<f32, [?]>`, but the array is read-only, and a "
        "`&mut` tensor is written in place")
    odd = np.frombuffer(bytearray(40), np.uint8)[1:33].view(f32)
    assert refusal(scale.scale, out, odd, 1.0) == (
        "`x` is `&Tensor<f32, [?]>`, but the array starts at an address that is "
        "not a multiple of its 4-byte elements")
    assert refusal(scale.scale, out, out, 1.0) == (
        "`out` and `x` share memory, and one of them is `&mut`: a `&mut` tensor is written in "
        "place, and must not be another argument's memory")
    assert refusal(scale.scale, out, [1.0, 2.0], 1.0) == (
        "`x` is `&Tensor<f32, [?]>`: pass a NumPy array, or an object with "
        "`__dlpack__` or the buffer protocol (a PyTorch tensor, a memoryview), not [1.0, 2.0] "
        "(list)")
    assert refusal(scale.scale, out, x, "2") == (
        "`s` takes a value of type `f32` (a decimal number, inf or nan), not '2' (str)")
    assert "not contiguous" in refusal(scale.scale, out[:4], torch.arange(8.0)[::2], 1.0)
    assert "holds `<f8` elements" in refusal(scale.scale, out, torch.zeros(8, dtype=torch.float64),
                                             1.0)
    # A .npy file in big-endian order `vx call` refuses as a file it cannot read; an array is
    # refused by its dtype.
    assert refusal(scale.scale, out, x.astype(">f4"), 1.0) == (
        "`x` is `&Tensor<f32, [?]>`, but the array holds `>f4` elements (write it as float32, "
        "`<f4`)")
    assert refusal(scale.scale, out, torch.ones(8, requires_grad=True), 1.0) == (
        "`x` is `&Tensor<f32, [?]>`, but the tensor could not be taken: Can't export tensors that "
        "require gradient, use tensor.detach()")
    m = vx.compile("pub fn count(n: i32) -> i32 { n }")
    assert refusal(m.count, True) == (
        "`n` takes a value of type `i32` (from -2147483648 to 2147483647), not True (bool)")


def test_missing_and_unknown_arguments(scale):
    out, x = np.zeros(2, f32), np.ones(2, f32)
    with pytest.raises(TypeError, match=r"scale\(\) is missing the argument `s` \(`f32`\)"):
        scale.scale(out, x)
    with pytest.raises(TypeError, match=r"scale\(\) takes 3 arguments \(4 given\)"):
        scale.scale(out, x, 1.0, 2)
    with pytest.raises(TypeError, match="`scale` has no parameter `y`; did you mean `x`?"):
        scale.scale(out, x, 1.0, y=1)
    with pytest.raises(TypeError, match="got the argument `s` twice"):
        scale.scale(out, x, 1.0, s=2.0)
    with pytest.raises(ValueError, match='offload= takes "off", "verify" or "gpu"'):
        scale.scale(out, x, 1.0, offload="cuda")


class FakeDevice:
    """A tensor that says its memory is a CUDA device's (DLPack kDLCUDA): the managed tensor of
    dlpack.h made with ctypes over the memory of `array` (float32, C order), its deleter counting
    its calls. Under the stand-in CUDA driver of tests/cuda_host, "device memory" is host memory,
    so the kernels read and write `array` itself as a GPU would its own memory; without it, the
    memory is never read."""

    def __init__(self, array, device_type=2, device_id=0):
        import ctypes

        class DLTensor(ctypes.Structure):
            _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                        ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                        ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                        ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                        ("strides", ctypes.POINTER(ctypes.c_int64)),
                        ("byte_offset", ctypes.c_uint64)]

        class Managed(ctypes.Structure):
            pass

        Deleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(Managed))
        Managed._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", Deleter)]
        assert array.dtype == np.float32 and array.flags.c_contiguous
        self.array, self.device = array, (device_type, device_id)
        self.deleted, self.streams = 0, []
        self._ctypes = (ctypes, DLTensor, Managed, Deleter)

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        ctypes, DLTensor, Managed, Deleter = self._ctypes
        self.streams.append(stream)
        shape = (ctypes.c_int64 * self.array.ndim)(*self.array.shape)

        def deleter(_):
            self.deleted += 1

        d = Deleter(deleter)
        managed = Managed(DLTensor(self.array.ctypes.data, self.device[0], self.device[1],
                                   self.array.ndim, 2, 32, 1, shape, None, 0), None, d)
        self._keep = getattr(self, "_keep", []) + [(managed, shape, d)]
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(managed), b"dltensor", None)


def test_gpu_tensors_refused_where_they_cannot_go(scale):
    out = np.zeros(8, f32)
    on_gpu = FakeDevice(np.zeros(8, f32))
    assert refusal(scale.scale, out, on_gpu, 1.0) == (
        "`x` is `&Tensor<f32, [?]>`, but the tensor is in the memory of DLPack device kDLCUDA:0, "
        "and offload=\"off\" runs the call on the host: pass offload=\"gpu\" (or `x.cpu()`)")
    assert on_gpu.deleted == 1, "the DLPack tensor's deleter was not called"
    assert on_gpu.streams == [1], "a CUDA tensor is asked for on the legacy default stream"
    other = FakeDevice(np.zeros(8, f32), device_id=1)
    assert refusal(scale.scale, out, other, 1.0, offload="gpu") == (
        "`x` is `&Tensor<f32, [?]>`, but the tensor is in the memory of DLPack device kDLCUDA:1: "
        "vx reads host memory, or CUDA device 0's (PyTorch: pass `x.cpu()`)")
    assert "and a `Tensor` parameter is moved into the call as a copy on the host" in refusal(
        scale.consume, FakeDevice(np.zeros(4, f32)), offload="gpu")


def test_gpu_tensor_without_a_gpu(scale):
    import ctypes
    try:  # a machine with a CUDA driver: the fake tensor's host memory must not reach a GPU
        ctypes.CDLL("libcuda.so.1")
        pytest.skip("a CUDA driver is installed")
    except OSError:
        pass
    if os.environ.get("VX_CUDA_DRIVER"):
        pytest.skip("a CUDA driver is named")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        message = refusal(scale.scale, np.zeros(8, f32), FakeDevice(np.ones(8, f32)), 1.0,
                          offload="gpu")
    # Here, without a GPU: said so (a machine with one runs the call on it).
    assert message.startswith("`x` is in the memory of the GPU, and no CUDA device (")
    assert [str(w.message) for w in record] == ["no CUDA device"]


STAND_IN = r"""
import os, sys, warnings
import numpy as np
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import vx
from python_test import FakeDevice, gelu_input, gelu_reference

m = vx.load(os.path.join(sys.argv[2], "conformance", "book", "blog_gelu_forward_exact.vx"))
n = 4099
x = gelu_input(n)
want = np.zeros(n, np.float32)
m.gelu_forward(want, x, n)  # the interpreter, on host arrays
assert want.tobytes() == gelu_reference(x).tobytes()
copies = os.environ["VX_FAKE_CUDA_COPIES"]
for mode in ("gpu", "verify"):
    dev_in, dev_out = x.copy(), np.zeros(n, np.float32)  # the "GPU's" memory
    open(copies, "w").close()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        m.gelu_forward(FakeDevice(dev_out), FakeDevice(dev_in), n, offload=mode)
    moved = open(copies).read().split()
    notes = [str(w.message) for w in record]
    launches = [t for t in notes if t.startswith("vx: kernel ") and " ms, grid " in t]
    on_host = [t for t in notes if t.startswith("vx: kernel ") and " ms, host, " in t]
    assert len(launches) == 1, notes
    assert len(on_host) == (0 if mode == "gpu" else 1), notes  # verify: the interpreter too
    assert dev_out.tobytes() == want.tobytes(), mode
    assert dev_in.tobytes() == x.tobytes(), mode
    if mode == "gpu":  # nothing between host and device but the 4-byte error flag
        assert moved == [], moved
    else:  # verify (spec/offload.md): each tensor down for the interpreter and back up for the
        # launch, the GPU's results down to be compared, the interpreter's (kept) up at the end
        assert moved == ["down", str(4 * n)] * 2 + ["up", str(4 * n)] * 2 + \
            ["down", str(4 * n)] * 2 + ["up", str(4 * n)] * 2, moved
print("ok")
"""


def test_gpu_tensors_through_the_stand_in_driver(tmp_path):
    """CUDA tensors (kDLCUDA) to the offload tier with no host round trip, through the stand-in
    CUDA driver of tests/cuda_host, which runs the emitted kernels on the host and whose "device
    memory" is host memory: the kernel reads the input and writes the output in the tensors'
    own memory, and the driver's log of copies (VX_FAKE_CUDA_COPIES) shows no tensor moved between
    host and device. Under verify the interpreter runs the region on host copies too (the two
    tensors copied down) and the two agree. Needs cuda_host_test's harness objects (ctest runs
    it first) and NVRTC."""
    objects = sorted(glob.glob(os.path.join(os.environ.get("VX_CUDA_HOST_DIR", "-"), "corpus_*.so")))
    driver = os.environ.get("VX_FAKE_CUDA_DRIVER", "")
    if not objects or not os.path.exists(driver):
        pytest.skip("no harness objects of cuda_host_test (run it first) or no stand-in driver")
    env = dict(os.environ, VX_CUDA_DRIVER=driver, VX_FAKE_CUDA_SO=":".join(objects),
               VX_FAKE_CUDA_PROGRAM="conformance/book/blog_gelu_forward_exact.vx",
               VX_CACHE_DIR=str(tmp_path), VX_TIME_KERNEL="1",
               VX_FAKE_CUDA_COPIES=str(tmp_path / "copies"))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", STAND_IN, os.path.abspath(__file__), root],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


# ---- errors and warnings -------------------------------------------------------------------------

def test_compile_error_carries_diagnostics():
    source = ("pub fn f(out: &mut Tensor<i32, [512], Memory::HBM>) {\n"
              "    spawn on(Topology::Device) {\n"
              "        for b in 0..2 across blocks {\n"
              "            for l in 0..256 across lanes {\n"
              "                out[l] = 1;\n"
              "            }\n"
              "        }\n"
              "    }\n"
              "}\n")
    with pytest.raises(vx.CompileError) as e:
        vx.compile(source, path="race.vx")
    err = e.value
    (d,) = err.errors
    assert d.code == "E6032" and d.level == "error" and d.rule
    assert (d.span.file, d.span.line, d.span.column) == ("race.vx", 5, 17)
    assert "error[E6032]" in d.rendered and " --> race.vx:5:17" in d.rendered
    assert "error[E6032]" in str(err) and err.diagnostics[0].level == "warning"
    with pytest.raises(vx.CompileError) as e:
        vx.compile("pub fn f( {")
    assert e.value.errors[0].code.startswith("E0")


KERNEL_ERROR = """
pub fn wrap(grid: &mut Tensor<i32, [4, 300], Memory::HBM>) {
    spawn on(Topology::Device) {
        for y in 5..9 across blocks {
            for x in 5..305 across lanes(128) {
                let d = if y == 7 && x == 265 { 0 } else { 1 };
                grid[y - 5][x - 5] = 10 / d;
            }
        }
    }
}

pub fn spin(out: &mut Tensor<i64, [1]>, n: i64) {
    let mut s: i64 = 0;
    for i in 0..n {
        s += i % 7;
    }
    out[0] = s;
}
"""


@pytest.fixture(scope="module")
def kernel_error():
    return vx.compile(KERNEL_ERROR, path="kernel_error.vx")


def test_kernel_error_names_the_pass(kernel_error):
    grid = np.zeros((4, 300), np.int32)
    with pytest.raises(vx.KernelError) as e:
        kernel_error.wrap(grid)
    err = e.value
    assert err.message == ("runtime error: attempt to divide by zero in block 2 lane 4 "
                           "(`y` = 7, `x` = 265)")
    assert (err.block, err.lane) == (2, 4)
    assert err.loop_values == {"y": 7, "x": 265}
    assert err.passes == [vx.Pass("block", 2, "y", 7), vx.Pass("lane", 4, "x", 265)]
    assert (err.file, err.line, err.column) == ("kernel_error.vx", 7, 38)
    assert err.diagnostic.code is None
    assert "error: runtime error: attempt to divide by zero" in str(err)


def test_max_steps(kernel_error):
    out = np.zeros(1, np.int64)
    with pytest.raises(vx.KernelError, match="max-steps"):
        kernel_error.spin(out, 10**6, max_steps=1000)
    kernel_error.spin(out, 100, max_steps=1000, check_races=True)
    assert out[0] == sum(i % 7 for i in range(100))


def test_warnings_and_deny_warnings():
    source = "pub fn f(x: i32) -> i32 {\n    let y = 3;\n    x\n}\n"
    with pytest.warns(vx.VxWarning, match="unused variable: `y`") as record:
        m = vx.compile(source, path="warn.vx")
    assert record[0].filename == __file__  # said at the caller's line
    w = record[0].message.diagnostic
    assert (w.level, w.lint, w.span.line) == ("warning", "unused_variables", 2)
    assert m.f(4) == 4
    with pytest.raises(vx.CompileError):
        vx.compile(source, deny_warnings=True)


def test_offload_without_a_gpu_warns_or_runs_on_it(llmc):
    x = gelu_input(1000)
    out = np.zeros(1000, f32)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        llmc.gelu_forward(out, x, 1000, offload="verify")
    notes = [str(w.message) for w in record if issubclass(w.category, vx.OffloadWarning)]
    # No GPU here: the runner says so and the call runs on the host; with one, it verifies.
    assert notes in ([], ["no CUDA device"]), notes
    assert same_bits(out, gelu_reference(x))


def test_printed_output_goes_to_sys_stdout(capsys):
    m = vx.compile('pub fn hello(n: i32) {\n    println!("hello {}", n);\n}\n')
    m.hello(7)
    assert capsys.readouterr().out == "hello 7\n"


# ---- Ctrl-C and the GIL --------------------------------------------------------------------------

SPIN_LONG = 10**10  # far longer than the test waits


def test_keyboard_interrupt_and_module_still_usable(kernel_error, llmc):
    out = np.zeros(1, np.int64)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        kernel_error.spin(out, SPIN_LONG)
    assert time.monotonic() - started < 30
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Python's, put back
    kernel_error.spin(out, 100)
    assert out[0] == sum(i % 7 for i in range(100))
    x = gelu_input(512)
    y = np.zeros(512, f32)
    llmc.gelu_forward(y, x, 512)
    assert same_bits(y, gelu_reference(x))


def test_gil_released_while_a_kernel_runs(kernel_error):
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    out = np.zeros(1, np.int64)
    kernel_error.spin(out, 1000)  # compiled and warm
    t = threading.Thread(target=tick)
    t.start()
    time.sleep(0.05)
    start = time.monotonic()
    kernel_error.spin(out, 30_000_000)  # a few hundred milliseconds in the interpreter
    end = time.monotonic()
    stop.set()
    t.join()
    during = [x for x in ticks if start < x < end]
    assert end - start > 0.1, "the kernel ran too briefly to tell"
    # With the GIL held the thread could not have run at all while the call ran.
    assert len(during) >= 10, (len(during), end - start)


# ---- help, types, check ----------------------------------------------------------------------------

def test_help_shows_the_vx_signature(llmc):
    text = pydoc.render_doc(llmc.gelu_forward, renderer=pydoc.plaintext)
    assert ("pub fn gelu_forward(out: &mut Tensor<f32, [?], Memory::HBM>, "
            "inp: &Tensor<f32, [?], Memory::HBM>, n: i32)") in text
    assert "llm.c's GELU (the tanh approximation)" in text
    sig = inspect.signature(llmc.layernorm_forward)
    assert list(sig.parameters)[:6] == ["out", "mean", "rstd", "inp", "weight", "bias"]
    assert sig.parameters["out"].annotation == "&mut Tensor<f32, [?, 768], Memory::HBM>"
    assert sig.parameters["offload"].default == "off"
    assert set(dir(llmc)) >= {"gelu_forward", "layernorm_forward", "softmax_forward"}


def test_stub_and_typed_marker_installed():
    folder = os.path.dirname(vx.__file__)
    assert os.path.exists(os.path.join(folder, "__init__.pyi"))
    assert os.path.exists(os.path.join(folder, "py.typed"))


def test_check_draws_the_map():
    ok = vx.check(KERNELS.split("/// llm.c's layernorm")[0])
    assert ok.ok and ok.stores == 1 and not ok.errors
    svg = ok._repr_svg_()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert svg.rstrip().endswith("</svg>")
    refused = vx.check("pub fn f(out: &mut Tensor<i32, [512], Memory::HBM>) {\n"
                       "    spawn on(Topology::Device) {\n"
                       "        for b in 0..2 across blocks {\n"
                       "            for l in 0..256 across lanes { out[l] = 1; }\n"
                       "        }\n"
                       "    }\n"
                       "}\n")
    assert not refused.ok and refused.errors[0].code == "E6032"
    assert refused.svg and "both write" in refused.map_text
    assert "block loop `b`" in refused.explain


def test_load_from_a_file(tmp_path):
    path = tmp_path / "gelu.vx"
    path.write_text(KERNELS)
    m = vx.load(path)
    assert m.path == str(path) and "gelu_forward" in m.functions
    with pytest.raises(OSError, match="cannot read"):
        vx.load(tmp_path / "missing.vx")


def test_bench(scale):
    r = vx.bench(scale.scale, np.zeros(4, f32), np.ones(4, f32), 2.0, warmup=1, reps=5)
    assert r["reps"] == 5 and 0 < r["min_ms"] <= r["median_ms"]


def test_many_calls_release_everything(scale):
    gc.collect()
    x = torch.ones(4)
    out = torch.zeros(4)
    for _ in range(2000):
        scale.scale(out, x, 2.0)
    assert out.tolist() == [2.0] * 4
    assert sys.getrefcount(x) <= 3  # the DLPack capsules' references were given back
