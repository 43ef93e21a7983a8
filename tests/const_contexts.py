#!/usr/bin/env python3
"""Every expression form as a const's value (spec/semantics.md §1): the checker types a const
outside any function, and a form that needs a function's locals (a block with a `let`, a `match`,
a loop, a tuple taken apart) crashed it there. The class: an expression checked where the
checker has no function. This test puts every `let` initializer of the corpus, and one example
of each primary expression of the grammar (read from src/parse/ast.hpp, so a new one must be
added here), into `const C: i32 = …;` and `const S: &str = …;`, and requires a verdict: exit
status 0, or 1 with every error coded and placed (file:line:col), never a signal, an internal
error or a sanitizer's report.

Usage: const_contexts.py VX
"""
import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = sys.argv[1]
ROOT = pathlib.Path(__file__).resolve().parent.parent
TMP = scratch_dir(prefix="vx_const_")
BATCH = 10  # values a program: 20 consts, well under the 50 errors a checker may stop at

# One value of each alternative of ast::Primary, and of each suffix and prefix operator.
PRIMARY_EXAMPLES = {
    "FloatLit": "1.5",
    "IntLit": "7",
    "BoolLit": "true",
    "StringLit": '"text"',
    "CharLit": "'c'",
    "TensorCtor": "Tensor<f32, [4]>::fill(0.0)",
    "MacroCall": 'println!("x")',
    "PathExpr": "i32::MAX",
    "ArrayLit": "[1, 2, 3]",
    "StructLit": "P { x: 1 }",
    "UnitLit": "()",
    "Paren": "(1, (2, 3))",
    "UnsafeBlock": "unsafe { 1 }",
    "LoopExpr": "loop { break 1; }",
    "IfExpr": "if true { 1 } else { 2 }",
    "MatchExpr": "match 1 { 1 => 2, _ => 3 }",
    "Block": "{ let (a, b) = (1, 2); a + b }",
}
OTHER_FORMS = [
    "f(1)", "[1, 2][0]", "(1, 2).0", "(1, 2) == (1, 2)", "1.5f32.sqrt()", "&1", "*&1", "-(2 + 3)",
    "!true", "1 as f32 as i32", "{ let mut s = 0; for i in 0..3 { s += i; } s }",
    "{ let mut n = 0; while n < 3 { n += 1; } n }", "match (1, 2) { (1, _) => 1, _ => 0 }",
    "{ let t = (1, 2); t.0 }", "{ let p = P { x: 1 }; p.x }", "{ assert_eq!((1, 2), (1, 2)); 1 }",
    'if let 1 = 1 { 1 } else { 0 }', "'l: loop { break 'l 2; }", "C0 + 1", "S0",
]
PRELUDE = "struct P { x: i32 }\nfn f(a: i32) -> i32 { a }\n"


def ast_primaries():
    text = (ROOT / "src/parse/ast.hpp").read_text()
    m = re.search(r"struct Primary\s*:\s*position_tagged,\s*x3::variant<(.*?)>\s*\{", text, re.S)
    assert m, "struct Primary not found in src/parse/ast.hpp"
    names = re.sub(r"x3::forward_ast<(\w+)>", r"\1", m.group(1))
    return [n.strip() for n in names.split(",") if n.strip()]


def corpus_initializers():
    let = re.compile(r"^\s*let\s+(?:mut\s+)?[A-Za-z_]\w*\s*(?::[^=]+)?=\s*(.+?);\s*(//.*)?$")
    found = set()
    for folder in ("conformance", "tests", "spec", "bench"):
        for path in sorted((ROOT / folder).rglob("*.vx")):
            for line in path.read_text(errors="replace").splitlines():
                m = let.match(line)
                if m:
                    found.add(m.group(1).strip())
    return sorted(found)


def program(values):
    lines = [PRELUDE]
    for k, v in enumerate(values):
        lines.append(f"const C{k}: i32 = {v};\nconst S{k}: &str = {v};\n")
    lines.append("fn main() {}\n")
    return "".join(lines)


QUOTED = re.compile(r"^ *[0-9]* \|( .*)?$", re.M)  # a source line a diagnostic quotes, its marks
DIAG = re.compile(r"^(error|warning)(\[[EW]\d{4}\])?: ", re.M)
PLACED = re.compile(r"^error\[E\d{4}\]: .*\n\s*--> [^\n]+:\d+:\d+$", re.M)


def verdict(values, name):
    """None when vx gave a verdict for the program of `values`, else what went wrong."""
    path = os.path.join(TMP, name + ".vx")
    with open(path, "w") as f:
        f.write(program(values))
    try:
        p = subprocess.run([VX, "check", path], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "no verdict in 120 s"
    if p.returncode not in (0, 1):
        return f"exit status {p.returncode}: {p.stderr[-600:]}"
    said = QUOTED.sub("", p.stderr)  # the values quoted back are the corpus's words, not vx's
    if "internal error" in said or "Sanitizer" in said:
        return p.stderr[-600:]
    if "more diagnostics not shown" in p.stderr:
        return "past the error cap, where the checker may stop: make BATCH smaller"
    errors = [m for m in DIAG.finditer(p.stderr) if m.group(1) == "error"]
    aborting = len(re.findall(r"^error: aborting", p.stderr, re.M))
    if p.returncode == 1 and len(PLACED.findall(p.stderr)) != len(errors) - aborting:
        return "an error without a code or a place:\n" + p.stderr[-600:]
    if p.returncode == 1 and not errors:
        return "exit status 1 without an error"
    return None


def parses(value):
    with tempfile.NamedTemporaryFile("w", suffix=".vx", dir=TMP, delete=False) as f:
        f.write(f"fn main() {{ let v = {value}; }}\n")
    p = subprocess.run([VX, "check", "--dump=ast", f.name], capture_output=True, text=True)
    return p.returncode == 0


def main():
    failures = []
    primaries = ast_primaries()
    missing = [n for n in primaries if n not in PRIMARY_EXAMPLES]
    if missing:
        failures.append(f"ast::Primary alternatives with no example here: {missing}")
    values = sorted(set(PRIMARY_EXAMPLES.values()) | set(OTHER_FORMS) | set(corpus_initializers()))
    # A value that does not parse as an expression refuses its whole program: each is first
    # tried alone, and the batches hold those that got past the parser.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        parsed = list(pool.map(parses, values))
    values = [v for v, ok in zip(values, parsed) if ok]
    batches = [values[i : i + BATCH] for i in range(0, len(values), BATCH)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda kb: verdict(kb[1], f"batch{kb[0]}"), enumerate(batches)))
    for k, (batch, bad) in enumerate(zip(batches, results)):
        if bad is None:
            continue
        # Name the values that fail alone.
        alone = [(v, verdict([v], f"b{k}_{j}")) for j, v in enumerate(batch)]
        named = [f"  const C0: i32 = {v};  →  {why}" for v, why in alone if why]
        failures.append(f"batch {k}: {bad}\n" + ("\n".join(named) or "  (no value fails alone)"))
    print(f"{len(values)} values in {len(batches)} programs, each as an i32 and a &str const")
    if len(values) < 500:
        failures.append(f"only {len(values)} values: the corpus's `let`s were not found")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
