#!/usr/bin/env python3
"""Deep expressions (spec/grammar.md §1.5): for every way of making an expression's tree deep
without nesting delimiters, a program one level past the limit must be refused with E0003 at
the stated line and column, and the deepest program accepted must check, run (and, in a kernel,
emit CUDA) without crashing. The programs are generated here, since they are large.

Usage: deep_exprs.py VX
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

MAX_DEPTH = 8192        # kMaxExprDepth
MAX_PARSE_DEPTH = 1024  # kMaxParseDepth: expressions and types open at once
MAX_PREFIX = 256
MAX_CASTS = 256

VX = sys.argv[1]
TMP = scratch_dir(prefix="vx_deep_")
failures = []


def run(args, path, timeout=120):
    p = subprocess.run([VX] + args + [path], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def write(name, text):
    path = os.path.join(TMP, name + ".vx")
    with open(path, "w") as f:
        f.write(text)
    return path


def diag_at(stderr):
    """(code, line, col) of the first diagnostic of a human-format report."""
    m = re.search(r"error\[(E\d+)\][^\n]*\n\s*--> [^\n]*:(\d+):(\d+)", stderr)
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else None


def expect_refused(name, text, line, col):
    path = write(name, text)
    for cmd in (["check"], ["run"], ["parse", "--dump=ast"]):
        rc, _, err = run(cmd, path)
        got = diag_at(err)
        if rc != 1 or got != ("E0003", line, col):
            failures.append(f"{name}: vx {' '.join(cmd)}: expected exit 1 and E0003 at {line}:{col}, "
                            f"got exit {rc} and {got}: {err[:300]!r}")


def expect_runs(name, text, stdout, emit_cuda=False):
    path = write(name, text)
    rc, out, err = run(["check"], path)
    if rc != 0:
        failures.append(f"{name}: vx check: exit {rc}: {err[:300]!r}")
    rc, out, err = run(["parse", "--dump=ast"], path)
    if rc != 0 or not out.startswith("Program"):
        failures.append(f"{name}: vx parse --dump=ast: exit {rc}: {err[:300]!r}")
    rc, out, err = run(["run"], path)
    if rc != 0 or out != stdout:
        failures.append(f"{name}: vx run: expected exit 0 and {stdout!r}, got exit {rc} and "
                        f"{out[:200]!r}: {err[:300]!r}")
    if emit_cuda:
        rc, out, err = run(["emit-cuda"], path)
        if rc != 0 or "__global__" not in out:
            failures.append(f"{name}: vx emit-cuda: exit {rc}: {err[:300]!r}")


def expect_other_error(name, text):
    """Accepted by the parser (no E0003), refused by the checker without crashing."""
    path = write(name, text)
    rc, _, err = run(["check"], path)
    got = diag_at(err)
    if rc != 1 or got is None or got[0] == "E0003":
        failures.append(f"{name}: vx check: expected exit 1 and a diagnostic other than E0003, "
                        f"got exit {rc} and {got}: {err[:300]!r}")


MAIN = "fn main() {\n    let a: i64 = -3;\n"
LET = "    let x = "  # line 3 starts with this; its column 13 is the expression's first

# 1. A chain of method calls: `a` is 1 deep and each call adds one, so 8191 calls are the most.
# The program of the issue, two million calls (12 MB), stops at the 8192nd call's `.`.
call = ".abs()"
for n, ok in ((MAX_DEPTH - 1, True), (MAX_DEPTH, False), (2_000_000, False)):
    text = MAIN + LET + "a" + call * n + ";\n    println!(\"{}\", x);\n}\n"
    if ok:
        expect_runs(f"calls_{n}", text, "3\n")
    else:
        expect_refused(f"calls_{n}", text, 3, 14 + (MAX_DEPTH - 1) * len(call))

# 2. A chain of indexes: refused at the 8192nd `[` (before the checker, which would refuse a
# chain longer than the rank).
text = MAIN + "    let t = Tensor<i64, [2]>::fill(5);\n" + LET + "t" + "[0]" * MAX_DEPTH + ";\n}\n"
expect_refused("indexes", text, 4, 14 + (MAX_DEPTH - 1) * 3)
text = MAIN + "    let t = Tensor<i64, [2]>::fill(5);\n" + LET + "t[1]" + call * (MAX_DEPTH - 2) + \
    ";\n    println!(\"{}\", x);\n}\n"
expect_runs("index_then_calls", text, "5\n")

# 3. `as` casts: at most 256 in a row, refused at the 257th `as`.
cast = " as i64"
text = MAIN + LET + "a" + cast * MAX_CASTS + ";\n    println!(\"{}\", x);\n}\n"
expect_runs("casts_256", text, "-3\n")
text = MAIN + LET + "a" + cast * (MAX_CASTS + 1) + ";\n}\n"
expect_refused("casts_257", text, 3, 14 + MAX_CASTS * len(cast) + 1)
# Casts after calls add to the depth: 7935 calls and 256 casts are 8192 deep, one more call is
# past the limit at the last cast's type.
base = MAX_DEPTH - 1 - MAX_CASTS
text = MAIN + LET + "a" + call * base + cast * MAX_CASTS + ";\n    println!(\"{}\", x);\n}\n"
expect_runs("calls_then_casts", text, "3\n")
text = MAIN + LET + "a" + call * (base + 1) + cast * MAX_CASTS + ";\n}\n"
expect_refused("calls_then_casts_over", text, 3,
               14 + (base + 1) * len(call) + (MAX_CASTS - 1) * len(cast) + len(" as "))

# 4. Prefix operators: at most 256 in a row, refused at the 257th.
text = MAIN + LET + "- " * MAX_PREFIX + "a;\n    println!(\"{}\", x);\n}\n"
expect_runs("prefix_256", text, "-3\n")
text = MAIN + LET + "- " * (MAX_PREFIX + 1) + "a;\n}\n"
expect_refused("prefix_257", text, 3, 13 + MAX_PREFIX * 2)

# 5. Binary operators after a chain of calls: each operator adds one to the deepest operand so
# far. 5000 calls (5001 deep) and 3191 `+ 0` are 8192 deep; the 3192nd `+` is past the limit.
calls = 5000
ops = MAX_DEPTH - 1 - calls
text = MAIN + LET + "a" + call * calls + " + 0" * ops + ";\n    println!(\"{}\", x);\n}\n"
expect_runs("calls_then_operators", text, "3\n")
text = MAIN + LET + "a" + call * calls + " + 0" * (ops + 1) + ";\n}\n"
expect_refused("calls_then_operators_over", text, 3, 14 + calls * len(call) + ops * 4 + 1)

# 6. `else if` chains: the else block is 2 deep (a block holding a literal), each `else if`
# adds 2 and the `if` 1, so 4094 arms make 8191 and 4095 arms make 8193, refused at the `if`.
def else_ifs(arms):
    s = "    let v = 4000;\n    let x = if v == 0 { 0 }"
    for k in range(1, arms + 1):
        s += f" else if v == {k} {{ {k} }}"
    return "fn main() {\n" + s + " else { 9 };\n    println!(\"{}\", x);\n}\n"


expect_runs("else_if_4094", else_ifs(4094), "4000\n")
expect_refused("else_if_4095", else_ifs(4095), 3, 13)

# 7. `if` conditions that are `if` expressions, nested without parentheses: each is an
# expression open inside the one before, at most 1024 at once (the `let`'s is the first); the
# 1025th starts at `c` when there are 1024 `if`s.
def nested_ifs(n):
    return ("fn main() {\n    let c = true;\n    let x = " + "if " * n + "c" +
            " { true } else { false }" * n + ";\n    println!(\"{}\", x);\n}\n")


expect_runs("nested_if_1023", nested_ifs(MAX_PARSE_DEPTH - 1), "true\n")
expect_refused("nested_if_1024", nested_ifs(MAX_PARSE_DEPTH), 3, 13 + 3 * MAX_PARSE_DEPTH)

# 8. Types nested without delimiters the pre-scan counts: `& & … i32` and `Tensor<Tensor<…>>`.
# Each is a type open inside the one before: 1024 at most.
def refs(n):
    return "fn f(x: " + "& " * n + "i32) {}\nfn main() {}\n"


expect_refused("ref_types_1024", refs(MAX_PARSE_DEPTH), 1, 9 + 2 * MAX_PARSE_DEPTH)
expect_other_error("ref_types_1023", refs(MAX_PARSE_DEPTH - 1))
text = ("fn main() {\n    let t: " + "Tensor<" * MAX_PARSE_DEPTH + "f32" + ", [1]>" * MAX_PARSE_DEPTH +
        " = 1;\n}\n")
expect_refused("tensor_types_1025", text.replace("f32", "Tensor<f32, [1]>", 1), 2,
               12 + 7 * MAX_PARSE_DEPTH)

# 9. Statements are not depth: 20,000 statements in one block run.
text = "fn main() {\n    let mut x = 0;\n" + "    x += 1;\n" * 20000 + "    println!(\"{}\", x);\n}\n"
expect_runs("statements_20000", text, "20000\n")

# 10. The deepest chain accepted inside a kernel: the kernel rules, the interpreter and the
# CUDA emitter all walk it. The region's block and the two loops' blocks add a level each, so
# 8188 calls are the most. Lane l stores |l - 40|, so element 3 is 37.
kernel = """fn main() {
    let mut out = transfer(Tensor<i64, [1, 32]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            for l in 0..32 across lanes {
                let a = (l as i64) - 40;
                out[b][l] = a""" + call * (MAX_DEPTH - 4) + """;
            }
        }
    }
    let host = transfer(out, Memory::CPU_DRAM);
    println!("{}", host[0][3]);
}
"""
expect_runs("kernel_calls", kernel, "37\n", emit_cuda=True)
expect_refused("kernel_calls_over", kernel.replace(call * (MAX_DEPTH - 4), call * (MAX_DEPTH - 3)),
               3, 32)  # the region's `{`: its block is the first part past the limit

# 11. Range adapters (issue 35): at most 8191 after a range, like any other chain of suffixes;
# the 8192nd `.` is E0003 (it was "expected block, found `.`").
FOR = "fn main() {\n    let mut s = 0;\n    for i in (0..10)"
rev = ".rev()"
text = FOR + rev * (MAX_DEPTH - 1) + " {\n        s += i;\n    }\n    println!(\"{}\", s);\n}\n"
expect_runs("adapters_8191", text, "45\n")
text = FOR + rev * MAX_DEPTH + " {\n        s += i;\n    }\n}\n"
expect_refused("adapters_8192", text, 3, len("    for i in (0..10)") + 1 + (MAX_DEPTH - 1) * len(rev))

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failed (programs in {TMP})")
    sys.exit(1)
shutil.rmtree(TMP)
print("all deep-expression programs behave")
