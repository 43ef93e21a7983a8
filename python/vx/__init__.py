"""Vx kernels called from Python, on NumPy arrays and PyTorch tensors (spec/python.md).

    import numpy as np
    import vx

    m = vx.load("gelu.vx")                 # or vx.compile(source)
    inp = np.linspace(-3, 3, 300, dtype=np.float32)
    out = np.zeros_like(inp)
    m.gelu_forward(out, inp, 300)          # `out` (a `&mut` tensor) is written in place

Arrays are taken without a copy: the kernel reads and writes their memory. An argument whose
dtype, shape, layout or memory does not fit its parameter raises vx.ArgumentError, with the
message `vx call` gives for a .npy file. A program the checker refuses raises vx.CompileError,
a runtime error in a kernel vx.KernelError; warnings go through Python's `warnings`.

`vx.check(source)` returns the diagnostics and the map of who writes what, which a notebook
draws (it has `_repr_svg_`).
"""
import inspect as _inspect
import os as _os
import statistics as _statistics
import time as _time
import warnings as _warnings
from typing import Any, Dict, List, NamedTuple, Optional

from . import _vx

__all__ = [
    "load", "compile", "check", "bench", "Module", "CheckResult", "Diagnostic", "Span", "Pass",
    "VxError", "CompileError", "KernelError", "ArgumentError", "VxWarning", "OffloadWarning",
]


# ---- diagnostics ---------------------------------------------------------------------------------

class Span(NamedTuple):
    """A place in the source: 1-based lines and columns (in characters), byte offsets."""
    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    byte_start: int
    byte_end: int
    label: str
    is_primary: bool


class Diagnostic:
    """One diagnostic, as `vx --error-format=json` prints it (spec/cli.md §5).

    level: "error", "warning" or "note"; code: "E6032" (None for a runtime error or a message
    with no code); message: the headline; spans: the primary span first; notes, helps: the
    `= note:` and `= help:` lines; rule: the kernel rule an E6032 breaks; lint: a warning's
    name; rendered: the text `vx` prints; data: machine-readable extras (the passes of a
    runtime error in a kernel, the tables of --explain).
    """

    __slots__ = ("level", "code", "message", "spans", "notes", "helps", "rule", "lint",
                 "rendered", "data")

    def __init__(self, d: Dict[str, Any]):
        self.level = d.get("level")
        self.code = d.get("code")
        self.message = d.get("message", "")
        self.spans = [Span(s["file"], s["line_start"], s["column_start"], s["line_end"],
                           s["column_end"], s["byte_start"], s["byte_end"], s.get("label", ""),
                           s["is_primary"]) for s in d.get("spans", [])]
        self.notes = list(d.get("notes", []))
        self.helps = list(d.get("helps", []))
        self.rule = d.get("rule")
        self.lint = d.get("lint")
        self.rendered = d.get("rendered", "")
        self.data = d.get("data")

    @property
    def span(self) -> Optional[Span]:
        """The primary span, or None for a message with no place."""
        return self.spans[0] if self.spans else None

    def __str__(self):
        return self.rendered

    def __repr__(self):
        where = f" at {self.span.file}:{self.span.line}:{self.span.column}" if self.span else ""
        code = f"[{self.code}]" if self.code else ""
        return f"<vx.Diagnostic {self.level}{code}{where}: {self.message}>"


class Pass(NamedTuple):
    """A pass of an across loop that a runtime error left: `loop` is "block" or "lane", `index`
    the block or lane that ran it, `var` the loop's variable and `value` its value."""
    loop: str
    index: int
    var: str
    value: int


# ---- errors and warnings -------------------------------------------------------------------------

class VxError(Exception):
    """The base of vx's exceptions."""


class CompileError(VxError):
    """The program was refused (a syntax error, a type error, a kernel rule, -D warnings).

    `diagnostics` holds every diagnostic (vx.Diagnostic), warnings included; `errors` only the
    errors. str() is the text `vx check` prints.
    """

    def __init__(self, rendered: str, diagnostics: List[Dict[str, Any]]):
        super().__init__(rendered.rstrip("\n"))
        self.rendered = rendered
        self.diagnostics = [Diagnostic(d) for d in diagnostics]

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "error"]


def _int_or_text(text):
    try:
        return int(text)
    except ValueError:
        return text


class KernelError(VxError):
    """A runtime error while a function ran (an index out of bounds, a division by zero, a data
    race under check_races=True, the max_steps limit).

    message: what went wrong, as `vx run` says it; diagnostic: the vx.Diagnostic (None for an
    error with no place, such as running out of memory); line, column: where; passes: the
    passes of the across loops it left, outermost first (vx.Pass); block, lane: the block and
    lane of the innermost block and lane loops (None outside them); loop_values: each loop
    variable's value.
    """

    def __init__(self, diagnostic: Optional[Dict[str, Any]], text: Optional[str] = None):
        self.diagnostic = Diagnostic(diagnostic) if diagnostic is not None else None
        d = self.diagnostic
        self.rendered = d.rendered if d else (text or "")
        self.message = d.message if d else self.rendered.strip()
        span = d.span if d else None
        self.file = span.file if span else None
        self.line = span.line if span else None
        self.column = span.column if span else None
        data = (d.data or {}) if d else {}
        self.passes = [Pass(p["loop"], p["index"], p["var"], _int_or_text(p["value"]))
                       for p in data.get("passes", [])]
        blocks = [p.index for p in self.passes if p.loop == "block"]
        lanes = [p.index for p in self.passes if p.loop == "lane"]
        self.block = blocks[-1] if blocks else None
        self.lane = lanes[-1] if lanes else None
        self.loop_values = {p.var: p.value for p in self.passes}
        super().__init__(self.rendered.rstrip("\n"))


class ArgumentError(VxError, TypeError, ValueError):
    """An argument that does not fit its parameter: its dtype, shape, layout or memory, a scalar
    out of range, a `&mut` tensor that is read-only or shares memory with another argument.
    Nothing ran. The messages are those of `vx call` for .npy files where the two agree."""


class VxWarning(UserWarning):
    """A warning of the checker (a lint: spec/errors.md, "Warnings"); `diagnostic` holds it."""

    def __init__(self, diagnostic):
        self.diagnostic = diagnostic if isinstance(diagnostic, Diagnostic) else None
        super().__init__(diagnostic.rendered.rstrip("\n") if self.diagnostic else str(diagnostic))


class OffloadWarning(VxWarning):
    """A note of the offload tier: `no CUDA device` (the call ran on the host), a region that
    stayed on the host, a verify mismatch (spec/offload.md)."""


# ---- modules -------------------------------------------------------------------------------------

_OPTIONS = (
    _inspect.Parameter("offload", _inspect.Parameter.KEYWORD_ONLY, default="off"),
    _inspect.Parameter("host_threads", _inspect.Parameter.KEYWORD_ONLY, default=None),
    _inspect.Parameter("max_steps", _inspect.Parameter.KEYWORD_ONLY, default=None),
    _inspect.Parameter("check_races", _inspect.Parameter.KEYWORD_ONLY, default=False),
)

_CALL_DOC = """
Arguments: a NumPy array, or anything with `__dlpack__` or the buffer protocol, for a tensor
(taken without a copy; a `&mut` tensor is written in place, a `Tensor` moved into the call is
copied); a Python int, float or bool for a scalar, checked against its type; a tuple (or for a
struct, a dict of its fields) for a tuple or struct.

Options: offload="off" (the interpreter), "verify" (the GPU, checked against the interpreter)
or "gpu"; host_threads=N (the host threads of across-blocks loops; default VX_HOST_THREADS,
else every core); max_steps=N (stop after N loop passes and calls); check_races=True (record
every pass and stop at the first data race).
"""


def _function(program, index, info, path):
    call = program.call

    def kernel(*args, **kwargs):
        return call(index, args, kwargs)

    name = info["name"]
    kernel.__name__ = name
    kernel.__qualname__ = name
    kernel.__module__ = "vx.kernels"
    params = [_inspect.Parameter(p, _inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=t)
              for p, t in info["params"]]
    returns = info["returns"] if info["returns"] is not None else None
    kernel.__signature__ = _inspect.Signature(params + list(_OPTIONS), return_annotation=returns)
    kernel.__doc__ = (f"pub fn {info['signature']}\n\n" + (info["doc"] + "\n" if info["doc"] else "")
                      + f"Defined at {path}:{info['line']}.\n" + _CALL_DOC)
    kernel.vx_signature = "pub fn " + info["signature"]
    return kernel


class Module:
    """A compiled Vx program: each `pub fn` is an attribute, a Python function with the Vx
    signature (`help(m.gelu_forward)` shows it). Made by vx.load or vx.compile.

    functions: the `pub fn`s by name; path, source: where the program came from and its text;
    warnings: the checker's warnings (vx.Diagnostic), also given through `warnings` at load;
    cuda(): the CUDA C++ of its regions, as `vx emit-cuda` prints it; check(): vx.check of its
    source. A `pub fn` named like one of these is reached through `functions`.
    """

    def __init__(self, program):
        self._program = program
        self.path = program.path
        self.source = program.source
        self.warnings = [Diagnostic(d) for d in program.warnings]
        self.functions = {}
        for index_info in program.functions():
            index = program.function_index(index_info["name"])
            self.functions[index_info["name"]] = _function(program, index, index_info, self.path)
        for name, fn in self.functions.items():
            if name not in self.__dict__:
                setattr(self, name, fn)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self._program.function_index(name)  # raises AttributeError with vx call's message
        raise AttributeError(name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.functions))

    def cuda(self) -> str:
        """The CUDA C++ of the program's `spawn on` regions (spec/offload.md)."""
        return self._program.cuda()

    def check(self, *, machine: Optional[str] = None) -> "CheckResult":
        """vx.check of this program's source."""
        return check(self.source, path=self.path, machine=machine)

    def __repr__(self):
        return f"<vx.Module {self.path}: {', '.join(self.functions) or 'no pub fn'}>"


def _warn_all(diagnostics, stacklevel):
    for d in diagnostics:
        if d.level == "warning":
            _warnings.warn(VxWarning(d), stacklevel=stacklevel + 1)


def load(path, *, machine: Optional[str] = None, deny_warnings: bool = False) -> Module:
    """Reads, checks and compiles the Vx program in the file `path` (a file of `pub fn`s needs
    no `main`). Raises vx.CompileError if it is refused, OSError if it cannot be read; each
    warning goes through `warnings` (vx.VxWarning). machine: a machine file (fleet/l4.vx) for
    the kernel rules, as `vx --machine`; deny_warnings: refuse on a warning, as `-D warnings`."""
    program = _vx.Program.from_file(_os.fspath(path), machine or "", deny_warnings)
    m = Module(program)
    _warn_all(m.warnings, 2)
    return m


def compile(source: str, *, path: str = "<string>", machine: Optional[str] = None,
            deny_warnings: bool = False) -> Module:
    """vx.load of the program text `source`; `path` is the name its diagnostics give it."""
    program = _vx.Program.from_source(source, path, machine or "", deny_warnings)
    m = Module(program)
    _warn_all(m.warnings, 2)
    return m


# ---- check ---------------------------------------------------------------------------------------

class CheckResult:
    """What `vx check --explain --map` says of a program, as an object.

    ok: accepted; diagnostics: every diagnostic (vx.Diagnostic); errors, warnings: those of
    each level; rendered: the text `vx check` prints; svg: the map of who writes each element
    of every store in an across loop (None when there is none, or the kernel rules did not run),
    which a notebook draws (`_repr_svg_`); map_text: the same map as text; explain: the digit
    tables of `--explain`.
    """

    def __init__(self, d):
        self.ok = d["ok"]
        self.diagnostics = [Diagnostic(x) for x in d["diagnostics"]]
        self.rendered = d["rendered"]
        self.svg = d["svg"]
        self.map_text = d["map_text"]
        self.explain = d["explain"]
        self.rules_ran = d["rules_ran"]
        self.stores = d["stores"]

    @property
    def errors(self) -> List[Diagnostic]:
        return [x for x in self.diagnostics if x.level == "error"]

    @property
    def warnings(self) -> List[Diagnostic]:
        return [x for x in self.diagnostics if x.level == "warning"]

    def __bool__(self):
        return self.ok

    def _repr_svg_(self):
        return self.svg

    def __repr__(self):
        head = "accepted" if self.ok else "refused"
        parts = [f"<vx.CheckResult {head}: {len(self.errors)} error(s), "
                 f"{len(self.warnings)} warning(s), {self.stores} store(s) mapped>"]
        if self.rendered:
            parts.append(self.rendered.rstrip("\n"))
        return "\n".join(parts)


def check(source: str, *, path: str = "<string>", machine: Optional[str] = None) -> CheckResult:
    """Checks the program text `source` without running it: the checker and the kernel rules,
    with the proof of every store and its map of who writes what. Never raises for a refused
    program: the result says why (`ok`, `diagnostics`)."""
    return CheckResult(_vx.check(source, path, machine or ""))


# ---- timing --------------------------------------------------------------------------------------

def bench(fn, *args, warmup: int = 3, reps: int = 20, **kwargs) -> Dict[str, float]:
    """Times `fn(*args, **kwargs)` in the manner of Triton's do_bench: `warmup` calls, then
    `reps` timed ones; returns the median, the minimum and the mean in milliseconds (and the
    repetitions). Options such as offload="gpu" go to the call."""
    for _ in range(warmup):
        fn(*args, **kwargs)
    times = []
    for _ in range(reps):
        start = _time.perf_counter()
        fn(*args, **kwargs)
        times.append((_time.perf_counter() - start) * 1e3)
    return {"median_ms": _statistics.median(times), "min_ms": min(times),
            "mean_ms": _statistics.fmean(times), "reps": reps}
