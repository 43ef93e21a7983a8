#!/usr/bin/env python3
"""`unconditional_recursion` against a model, and each function it warns of against runs
(spec/errors.md, "Warnings").

Each program has a function `f(n: i32) -> i32` drawn from a seed: `let`s, `if`/`else`,
`return`, calls of `f` (in a `let`, a condition, the right side of `&&` or `||`, a `return`, the
tail), `assert!`, and loops (`for`, `while` and `loop` with a counter, a `loop` without one;
`break` to any loop around behind an `if`, `continue`), ending with a tail. `main` calls `f`
only where it never runs.

- The model walks the tree forward in Python: whether a run that has not called `f` can reach
  a `return` or the end of the body. vx must warn "function cannot return without recursing" on
  `f` exactly when no such run can, with a "recursive call site" label on each call such a run
  reaches first.
- Runs say the model is right where it warns: in a second program every call of `f` in its body
  is `mark(…)` instead, which prints `R` and returns 0, a `loop` without a counter stops with an
  error at its 50th pass (which is no return), and `f(n)` runs for n in -2, 0 and 3 (each call in
  its own program). A run that prints its result, and no `R` before it, returned without calling
  `f`.

usage: recursion_model_test.py VX [--programs N] [--seed S]
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, int_option, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
PROGRAMS = int_option("--programs", 200)
SEED = int_option("--seed", 1)
checks = Checks("recursion_model")
tmp = scratch_dir(prefix="vx_recursion_")


class Draw:
    """Statements: ("let", name, expr), ("if", cond, then, else or None), ("return", expr),
    ("assert", cond), ("for", label, n, body), ("while", label, c, n, body), ("loop", label, c,
    n, body), ("bare", label, body) for a `loop` without a counter, ("break", label),
    ("continue", label). Expressions: ("n",), ("num", k), ("var", name), ("call", expr) for
    `f(expr)`, ("bin", op, a, b); conditions ("cmp", op, a, b) and ("logic", op, a, b) for `&&`
    and `||`."""

    def __init__(self, rng):
        self.rng = rng
        self.names = 0
        self.loops = 0
        self.budget = rng.randint(3, 12)

    def expr(self, names, depth=0):
        r = self.rng.random()
        if depth < 2 and r < 0.2:
            return ("call", ("bin", "-", ("n",), ("num", self.rng.randint(1, 2))))
        if depth < 2 and r < 0.4:
            return ("bin", self.rng.choice(["+", "-"]), self.expr(names, depth + 1),
                    self.expr(names, depth + 1))
        if names and r < 0.65:
            return ("var", self.rng.choice(names))
        return ("n",) if r < 0.8 else ("num", self.rng.randint(0, 5))

    def cond(self, names, depth=0):
        if depth < 1 and self.rng.random() < 0.3:
            return ("logic", self.rng.choice(["&&", "||"]), self.cond(names, depth + 1),
                    self.cond(names, depth + 1))
        return ("cmp", self.rng.choice(["<", ">", "=="]), self.expr(names, 1),
                ("num", self.rng.randint(-2, 3)))

    def block(self, names, loops, depth):
        names = list(names)
        out = []
        for _ in range(self.rng.randint(1, 3)):
            if self.budget <= 0:
                break
            self.budget -= 1
            s = self.stmt(names, loops, depth)
            out.append(s)
            if s[0] == "let":
                names.append(s[1])
        return out

    def stmt(self, names, loops, depth):
        r = self.rng.random()
        if r < 0.25:
            self.names += 1
            return ("let", f"x{self.names}", self.expr(names))
        if r < 0.35:
            return ("return", self.expr(names))
        if r < 0.42:
            return ("assert", self.cond(names))
        if r < 0.52 and loops:
            return ("if", self.cond(names),
                    [(self.rng.choice(["break", "continue"]), self.rng.choice(loops))], None)
        if depth >= 2 or r < 0.75:
            els = self.block(names, loops, depth + 1) if self.rng.random() < 0.5 else None
            return ("if", self.cond(names), self.block(names, loops, depth + 1), els)
        self.loops += 1
        label = f"'l{self.loops}"
        kind = self.rng.choice(["for", "while", "loop", "bare"])
        n = self.rng.randint(0, 2)
        body = self.block(names, loops + [label], depth + 1)
        if kind == "for":
            return ("for", label, n, body)
        if kind == "bare":  # `loop` without a counter: left only by a `break` drawn in it
            return ("bare", label, body)
        return (kind, label, f"c{self.loops}", n, body)

    def function(self):
        body = self.block([], [], 0)
        names = [s[1] for s in body if s[0] == "let"]
        return body, self.expr(names)


def write(body, tail, marked):
    """`f`'s text and the line and column of each call of `f` in it: {id(call): (line, col)}.
    With `marked`, each such call is `mark(…)`."""
    lines = ["fn f(n: i32) -> i32 {"]
    where = {}

    def ex(e, line):
        k = e[0]
        if k == "n":
            return "n"
        if k == "num":
            return str(e[1]) if e[1] >= 0 else f"({e[1]})"
        if k == "var":
            return e[1]
        if k == "call":
            name = "mark" if marked else "f"
            start = len(line)
            text = f"{name}({ex(e[1], line + ' ' * len(name) + '(')})"
            where[id(e)] = (len(lines) + 1, start + 1)
            return text
        # bin, cmp, logic: parenthesized, the left side written before the right one's column
        left = ex(e[2], line + "(")
        mid = f"({left} {e[1]} "
        right = ex(e[3], line + mid)
        return f"{mid}{right})"

    def emit(stmts, ind):
        pad = "    " * ind
        for s in stmts:
            k = s[0]
            if k == "let":
                head = f"{pad}let {s[1]} = "
                lines.append(f"{head}{ex(s[2], head)};")
            elif k == "return":
                head = f"{pad}return "
                lines.append(f"{head}{ex(s[1], head)};")
            elif k == "assert":
                head = f"{pad}assert!("
                lines.append(f"{head}{ex(s[1], head)});")
            elif k == "if":
                head = f"{pad}if "
                lines.append(f"{head}{ex(s[1], head)} {{")
                emit(s[2], ind + 1)
                if s[3] is not None:
                    lines.append(f"{pad}}} else {{")
                    emit(s[3], ind + 1)
                lines.append(f"{pad}}}")
            elif k in ("break", "continue"):
                lines.append(f"{pad}{k} {s[1]};")
            elif k == "for":
                lines.append(f"{pad}{s[1]}: for _ in 0..{s[2]} {{")
                emit(s[3], ind + 1)
                lines.append(f"{pad}}}")
            elif k == "bare":
                g = f"g{s[1][1:]}"
                if marked:  # the run stops with an error instead of looping for ever
                    lines.append(f"{pad}let mut {g} = 0;")
                lines.append(f"{pad}{s[1]}: loop {{")
                if marked:
                    lines.append(f"{pad}    {g} += 1;")
                    lines.append(f"{pad}    assert!({g} < 50);")
                emit(s[2], ind + 1)
                lines.append(f"{pad}}}")
            else:  # while, loop: a counter that goes up first
                c, n = s[2], s[3]
                lines.append(f"{pad}let mut {c} = 0;")
                if k == "while":
                    lines.append(f"{pad}{s[1]}: while {c} < {n} {{")
                    lines.append(f"{pad}    {c} += 1;")
                else:
                    lines.append(f"{pad}{s[1]}: loop {{")
                    lines.append(f"{pad}    {c} += 1;")
                    lines.append(f"{pad}    if {c} > {n} {{")
                    lines.append(f"{pad}        break;")
                    lines.append(f"{pad}    }}")
                emit(s[4], ind + 1)
                lines.append(f"{pad}}}")

    emit(body, 1)
    head = "    "
    lines.append(f"{head}{ex(tail, head)}")
    lines.append("}")
    return lines, where


# ---- the model: forward, what a run that has not called `f` reaches


class Model:
    def __init__(self):
        self.leaves = False
        self.calls = []  # the calls such a run reaches
        self.broken = set()

    def expr(self, e):
        """Whether evaluating `e` can complete without calling `f`."""
        k = e[0]
        if k in ("n", "num", "var"):
            return True
        if k == "call":
            if not self.expr(e[1]):
                return False
            self.calls.append(e)
            return False
        if k == "logic":
            if not self.expr(e[2]):
                return False
            self.expr(e[3])  # may be skipped
            return True
        return self.expr(e[2]) and self.expr(e[3])

    def block(self, stmts):
        for s in stmts:
            if not self.stmt(s):
                return False
        return True

    def stmt(self, s):
        k = s[0]
        if k == "let":
            return self.expr(s[2])
        if k == "assert":
            return self.expr(s[1])
        if k == "return":
            if self.expr(s[1]):
                self.leaves = True
            return False
        if k == "if":
            if not self.expr(s[1]):
                return False
            a = self.block(s[2])
            b = self.block(s[3]) if s[3] is not None else True
            return a or b
        if k in ("break", "continue"):
            if k == "break":
                self.broken.add(s[1])
            return False
        if k == "for":
            self.block(s[3])
            return True
        if k == "while":
            self.block(s[4])
            return True
        if k == "bare":
            self.block(s[2])
            return s[1] in self.broken
        self.block(s[4])  # loop: its counter's `break` leaves it
        return True


def run_f(lines, n, path):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
        f.write('fn mark(n: i32) -> i32 {\n    println!("R");\n    n - n\n}\n\n')
        f.write(f'fn main() {{\n    println!("{{}}", f({n}));\n}}\n')
    return run([VX, "run", "--error-format=json", path])


def one(seed):
    rng = random.Random(seed)
    body, tail = Draw(rng).function()
    model = Model()
    if model.block(body) and model.expr(tail):
        model.leaves = True
    warned = not model.leaves and bool(model.calls)

    lines, where = write(body, tail, False)
    source = "\n".join(lines) + "\n\nfn main() {\n    let k = 0;\n    if k > 9 {\n" \
        "        println!(\"{}\", f(k));\n    }\n}\n"
    path = os.path.join(tmp, f"r{seed}.vx")
    with open(path, "w") as f:
        f.write(source)
    what = f"seed {seed} ({path}):\n{source}"
    p = run([VX, "check", "--error-format=json", path])
    if p.returncode != 0:
        return checks.fail(f"{what}vx check: status {p.returncode}: {p.stderr[-600:]}")
    got = None
    for line in p.stderr.splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            if d.get("lint") == "unconditional_recursion":
                got = sorted((x["line_start"], x["column_start"]) for x in d["spans"]
                             if not x["is_primary"] and x["label"] == "recursive call site")
    want = sorted(where[id(c)] for c in model.calls) if warned else None
    if got != want:
        return checks.fail(f"{what}recursive call sites (line, column): vx {got}, model {want}")
    returned = 0
    if warned:
        marked, _ = write(body, tail, True)
        for n in (-2, 0, 3):
            q = run_f(marked, n, os.path.join(tmp, f"r{seed}_marked.vx"))
            out = q.stdout.splitlines()
            returned += q.returncode == 0
            if q.returncode == 0 and (not out or out[0] != "R"):
                return checks.fail(f"{what}warned, but f({n}) returns without calling f: with "
                                   f"the calls marked it prints {q.stdout!r}")
    return warned, returned


warned = returned = 0  # programs whose f is warned of; runs of a marked f that returned
for k in range(PROGRAMS):
    result = one(SEED * 1_000_003 + k)
    if result:
        warned += result[0]
        returned += result[1]
print(f"{PROGRAMS} programs: f warned of in {warned}; {returned} runs of a warned f returned")
if warned < PROGRAMS // 10 or warned > PROGRAMS * 9 // 10:
    checks.fail(f"{warned} of {PROGRAMS} programs warned of: the draw is too one-sided to test "
                "the lint")
if returned < warned:
    checks.fail(f"only {returned} runs of the {warned} warned functions returned: too few to "
                "check the model by runs")
checks.finish()
