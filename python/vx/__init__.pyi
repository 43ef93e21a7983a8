# Types of the package vx (spec/python.md). A Module's `pub fn`s are attributes made when the
# program is loaded; their signatures are known only then (`inspect.signature(m.gelu_forward)`,
# `help(m.gelu_forward)`), so here they are Callable[..., Any].
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Union
import os

__all__: List[str]

class Span(NamedTuple):
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
    level: str
    code: Optional[str]
    message: str
    spans: List[Span]
    notes: List[str]
    helps: List[str]
    rule: Optional[str]
    lint: Optional[str]
    rendered: str
    data: Any
    def __init__(self, d: Dict[str, Any]) -> None: ...
    @property
    def span(self) -> Optional[Span]: ...

class Pass(NamedTuple):
    loop: str
    index: int
    var: str
    value: Union[int, str]

class VxError(Exception): ...

class CompileError(VxError):
    rendered: str
    diagnostics: List[Diagnostic]
    def __init__(self, rendered: str, diagnostics: List[Dict[str, Any]]) -> None: ...
    @property
    def errors(self) -> List[Diagnostic]: ...

class KernelError(VxError):
    diagnostic: Optional[Diagnostic]
    rendered: str
    message: str
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    passes: List[Pass]
    block: Optional[int]
    lane: Optional[int]
    loop_values: Dict[str, Union[int, str]]
    def __init__(self, diagnostic: Optional[Dict[str, Any]], text: Optional[str] = ...) -> None: ...

class ArgumentError(VxError, TypeError, ValueError): ...

class VxWarning(UserWarning):
    diagnostic: Optional[Diagnostic]

class OffloadWarning(VxWarning): ...

Kernel = Callable[..., Any]

class Module:
    path: str
    source: str
    warnings: List[Diagnostic]
    functions: Dict[str, Kernel]
    def cuda(self) -> str: ...
    def check(self, *, machine: Optional[str] = ...) -> CheckResult: ...
    def __getattr__(self, name: str) -> Kernel: ...

class CheckResult:
    ok: bool
    diagnostics: List[Diagnostic]
    rendered: str
    svg: Optional[str]
    map_text: str
    explain: str
    rules_ran: bool
    stores: int
    @property
    def errors(self) -> List[Diagnostic]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...
    def __bool__(self) -> bool: ...
    def _repr_svg_(self) -> Optional[str]: ...

def load(path: Union[str, os.PathLike[str]], *, machine: Optional[str] = ...,
         deny_warnings: bool = ...) -> Module: ...
def compile(source: str, *, path: str = ..., machine: Optional[str] = ...,
            deny_warnings: bool = ...) -> Module: ...
def check(source: str, *, path: str = ..., machine: Optional[str] = ...) -> CheckResult: ...
def bench(fn: Kernel, *args: Any, warmup: int = ..., reps: int = ...,
          **kwargs: Any) -> Dict[str, float]: ...
