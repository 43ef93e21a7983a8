#!/usr/bin/env python3
"""The CUDA a person can read (spec/offload.md §1.1): `vx emit-cuda` keeps the Vx names,
indents, writes `#line`, and `--prelude=inline|include|header`.

- seed 002's gelu_forward: its parameters and locals by their Vx names (`out`, `inp`, `n`,
  `inp_d0`, `b`, `l`, `i`, `x`, `cube`), and no `v<digits>` or `t<digits>` name;
- every statement's code stands under `#line N "FILE"` with N the statement's line, found here in
  the source; a `#line` names only lines that hold a statement;
- indentation: each line is two spaces per brace level open before it (counted here);
- names that clash: C++ words get `_`, a second `int` `int_2`, names like the emitter's own
  `v<slot>_…`; NVRTC compiles the result (where NVRTC is installed: tools/setup puts it in CI);
- the prelude: `include` is `#include "vx_prelude.cuh"` and then exactly what `inline` prints
  after the prelude; `header` is the prelude, guarded.

usage: emit_readable_test.py VX REPO_ROOT
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, run  # noqa: E402

VX, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
GELU = "conformance/book/blog_gelu_forward_exact.vx"
CLASH = "conformance/semantics/cuda_names_that_clash.vx"
checks = Checks("emit_readable")
fail = checks.fail


def vx(*args):
    return run([VX, *args], cwd=ROOT, timeout=120)


inline = vx("emit-cuda", GELU)
if inline.returncode != 0:
    fail(f"emit-cuda {GELU}: exit {inline.returncode}: {inline.stderr}")
code = inline.stdout[inline.stdout.index(f"// {GELU}:"):]
prelude = inline.stdout[:inline.stdout.index(f"\n// {GELU}:")]

# Names.
sig = re.search(r"vx_region_0_L4\(([^)]*)\)", code).group(1)
if sig != ("float* __restrict__ out, long long out_d0, float* __restrict__ inp, "
           "long long inp_d0, int n, int* vx_err"):
    fail(f"the kernel's parameters are {sig!r}")
for decl in ("const int b = ", "const int l = ", "int i = ", "float x = ", "float cube = "):
    if decl not in code:
        fail(f"no `{decl}` in the kernel")
numbered = sorted(set(re.findall(r"\b[vt]\d+\b", code)))
if numbered:
    fail(f"names by slot number left: {numbered}")

# #line: each directive names a line that holds a statement, and the statements of the kernel
# each come under their own.
source = open(os.path.join(ROOT, GELU), encoding="utf-8").read().split("\n")
lines = [int(m) for m in re.findall(r'^#line (\d+) "' + re.escape(GELU) + '"$', code, re.M)]
statement_lines = [n for n, text in enumerate(source, 1) if n in range(5, 14) and
                   re.match(r"\s*(for|let|if|out\[)", text)]
if sorted(set(lines)) != statement_lines:
    fail(f"#line directives name lines {sorted(set(lines))}, the statements are on {statement_lines}")
at_line = None
for text in code.split("\n"):
    m = re.match(r'#line (\d+) "', text)
    if m:
        at_line = int(m.group(1))
    elif text.strip().startswith("float cube = ") and at_line != 10:
        fail(f"`float cube` stands under #line {at_line}, not 10")

# Indentation: two spaces per open brace, counted outside strings and comments.
depth = 0
for n, text in enumerate(code.split("\n"), 1):
    stripped = text.lstrip(" ")
    if not stripped or stripped.startswith("#"):
        if stripped.startswith("#") and text != stripped:
            fail(f"line {n}: a preprocessor line is indented: {text!r}")
        continue
    plain = re.sub(r'"(\\.|[^"\\])*"', '""', stripped.split("//")[0])
    expect = depth - (1 if stripped.startswith("}") else 0)
    if len(text) - len(stripped) != 2 * expect:
        fail(f"line {n} is indented {len(text) - len(stripped)}, expected {2 * expect}: {text!r}")
        break
    depth += plain.count("{") - plain.count("}")

# Names that clash.
clash = vx("emit-cuda", CLASH)
if clash.returncode != 0:
    fail(f"emit-cuda {CLASH}: exit {clash.returncode}: {clash.stderr}")
else:
    c = clash.stdout[clash.stdout.index(f"// {CLASH}:"):]
    device = clash.stdout[len(prelude):]  # the helper `twice`, then the kernel
    for want in ("int vx_fn_0_twice(int class_, int v1_vx_tid, int* vx_err) {", "  int new_ = "):
        if want not in device:
            fail(f"{CLASH}: no `{want}` in the helper's CUDA")
    for want in ("const int threadIdx_ = ", "const int expf_ = ",
                 "int int_ = ", "int int_2 = ", "int lo0,", "_s_x,", "_x_d0 = ", "_v3 = "):
        if want not in c:
            fail(f"{CLASH}: no `{want}` in the CUDA")
    if re.search(r"\bint (int|class|new|threadIdx|expf) ", c):
        fail(f"{CLASH}: a C++ or CUDA word is a name in the CUDA")
    if re.search(r"\blo0 = ", c):
        fail(f"{CLASH}: a temporary is named `lo0` beside the local `lo0`")
    cubin = vx("emit-cuda", "--cubin", os.devnull, "--arch", "sm_80", CLASH)
    if cubin.returncode != 0:
        fail(f"NVRTC did not compile {CLASH}: {cubin.stderr[-2000:]}")

# The prelude.
include = vx("emit-cuda", "--prelude=include", GELU)
head = '#include "vx_prelude.cuh"  // vx emit-cuda --prelude=header FILE > vx_prelude.cuh\n'
if include.returncode != 0 or include.stdout != head + inline.stdout[len(prelude):]:
    fail(f"--prelude=include is not the #include and the kernels: {include.stdout[:300]!r}")
header = vx("emit-cuda", "--prelude=header", GELU)
want = ("// vx_prelude.cuh: what every kernel of `vx emit-cuda` needs (spec/offload.md §1.1)\n"
        "#ifndef VX_PRELUDE_CUH\n#define VX_PRELUDE_CUH\n" + prelude + "#endif\n")
if header.returncode != 0 or header.stdout != want:
    fail("--prelude=header is not the guarded prelude")
if f"// {GELU}:" in header.stdout or "#line" in header.stdout:
    fail("--prelude=header holds a kernel")
bad = vx("emit-cuda", "--prelude=both", GELU)
if bad.returncode != 2 or "--prelude" not in bad.stderr:
    fail(f"--prelude=both: exit {bad.returncode}: {bad.stderr!r}")

checks.finish()
