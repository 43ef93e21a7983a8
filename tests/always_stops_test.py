#!/usr/bin/env python3
"""E0220 for an operation that stops every run by a constant right-hand side (spec/errors.md
E0220, spec/semantics.md §4), against a model of when an integer operation stops and against vx's
own runtime.

Random integer `/`, `%`, `<<` and `>>`, as operators and as compound assignments, of every integer
type, whose right-hand side is a literal, a negated literal, a const, or a constant expression
whose value it is (`(3u8 + 253u8)`, `(R7 - 0i16)`, `(255u16 as i8)`: the sum, difference and cast
wrap), with the left operand a variable, a literal or such an expression. The model says, from
the operator, the types' widths and the value alone:
a division or remainder by zero stops, and so does a shift by an amount outside 0 to the left
operand's width minus 1. vx check must refuse exactly those lines, with E0220, rustc's message and
the label that names the dividend (`7_i32`, `i64::MIN`, or `_`) or the amount (`8_u8`). Then the runtime must
agree: each refused operation with its right-hand side read from a variable stops with a runtime
error (exit status 101) at its line, and the accepted ones all run.

usage: always_stops_test.py VX [--programs N] [--seed S]
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, int_option, json_diagnostics, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
PROGRAMS = int_option("--programs", 12)
SEED = int_option("--seed", 1)
CASES = 40  # operations per program
checks = Checks("always_stops")
tmp = scratch_dir(prefix="vx_always_stops_")

BITS = {f"{s}{b}": b for b in (8, 16, 32, 64) for s in "iu"}


def bounds(t):
    b = BITS[t]
    return (-(1 << (b - 1)), (1 << (b - 1)) - 1) if t[0] == "i" else (0, (1 << b) - 1)


def literal(v, t):
    return f"{v}{t}"  # a negative one is a negated literal, which only signed types have


def const_name(v, t):
    """A constant as rustc's messages name it (its ConstInt): `i32::MIN`, `u8::MAX` at the ends
    of the type, else the value and its type, `7_i32`."""
    lo, hi = bounds(t)
    if t[0] == "i" and v == lo:
        return f"{t}::MIN"
    return f"{t}::MAX" if v == hi else f"{v}_{t}"


def wrap(v, t):
    """`v` as a value of `t`, wrapped as Vx's integer arithmetic and casts wrap."""
    lo, _ = bounds(t)
    return (v - lo) % (1 << BITS[t]) + lo


def expression(v, t, r, name=None):
    """A constant expression of type `t` whose value is `v`, worked out here: a sum or difference
    of two literals (or of the const `name` and a literal) that wraps to `v`, or a cast from
    another integer type of a value that wraps to `v`."""
    lo, hi = bounds(t)
    a = literal(r.randint(lo, hi), t) if name is None else name
    a_value = int(a[: -len(t)]) if name is None else v
    form = r.choice(["+", "-", "as"])
    if form == "+":
        return f"({a} + {literal(wrap(v - a_value, t), t)})"
    if form == "-":
        return f"({a} - {literal(wrap(a_value - v, t), t)})"
    w = r.choice(sorted(BITS))
    wlo, whi = bounds(w)
    choices = [x for x in (v + k * (1 << BITS[t]) for k in range(-2, 3)) if wlo <= x <= whi]
    if not choices:
        return f"({a} + {literal(wrap(v - a_value, t), t)})"
    return f"({literal(r.choice(choices), w)} as {t})"


def value(t, r, near=()):
    lo, hi = bounds(t)
    pool = [lo, hi, 0, 1, r.randint(lo, hi)] + [x for x in near if lo <= x <= hi]
    return r.choice(pool)


class Case:
    """One operation `k`: its operator, types and operands, and what the model says of it
    (`stops`, and the message and label of its E0220)."""

    def __init__(self, r, k):
        self.k = k
        self.op = r.choice(["/", "%", "<<", ">>"])
        self.t = r.choice(sorted(BITS))
        self.compound = r.random() < 0.3
        self.left_literal = not self.compound and r.random() < 0.4
        self.left = value(self.t, r, near=(7, -7))
        shift = self.op in ("<<", ">>")
        self.u = r.choice(sorted(BITS)) if shift else self.t
        bits = BITS[self.t]
        self.right = value(self.u, r, near=(0, -1, bits - 1, bits, bits + 1, 255) if shift else (0, 0, 0, -3))
        self.as_const = r.random() < 0.2
        # The right-hand side as a constant expression (of the const, when there is one).
        self.right_expression = expression(self.right, self.u, r, f"R{self.k}" if self.as_const else None) \
            if r.random() < 0.4 else None
        self.left_expression = expression(self.left, self.t, r) \
            if self.left_literal and r.random() < 0.4 else None
        if shift:
            self.stops = not 0 <= self.right < bits
            way = "left" if self.op == "<<" else "right"
            self.message = "this arithmetic operation will overflow"
            self.label = f"attempt to shift {way} by `{const_name(self.right, self.u)}`, which would overflow"
        else:
            self.stops = self.right == 0
            named = const_name(self.left, self.t) if self.left_literal else "_"
            self.message = "this operation will panic at runtime"
            self.label = (f"attempt to divide `{named}` by zero" if self.op == "/" else
                          f"attempt to calculate the remainder of `{named}` with a divisor of zero")

    def const(self):
        return f"const R{self.k}: {self.u} = {literal(self.right, self.u)};" if self.as_const else None

    def statement(self, right):
        """The operation's line, its right-hand side `right`."""
        left = (self.left_expression or literal(self.left, self.t)) if self.left_literal else f"x{self.k}"
        if self.compound:
            return f"    let mut y{self.k}: {self.t} = {literal(self.left, self.t)}; y{self.k} {self.op}= {right};"
        return f"    let y{self.k} = {left} {self.op} {right};"

    def prelude(self):
        return f"    let x{self.k}: {self.t} = {literal(self.left, self.t)};"

    def right_text(self):
        if self.right_expression:
            return self.right_expression
        return f"R{self.k}" if self.as_const else literal(self.right, self.u)


def program(cases, from_variable=False):
    """The cases as one program: their consts, then per case its left variable and its line, the
    right-hand side as written or (from_variable) read from a variable `rK`. Returns the text and
    the line of each case."""
    lines = [c.const() for c in cases if c.const()] + ["fn main() {"]
    at = {}
    for c in cases:
        lines.append(c.prelude())
        if from_variable:
            lines.append(f"    let r{c.k}: {c.u} = {literal(c.right, c.u)};")
        lines.append(c.statement(f"r{c.k}" if from_variable else c.right_text()))
        at[c.k] = len(lines)
        lines.append(f'    println!("{{}}", y{c.k});')
    lines.append("}")
    return "\n".join(lines) + "\n", at


def check_program(seed):
    r = random.Random(seed)
    cases = [Case(r, k) for k in range(CASES)]
    text, at = program(cases)
    path = os.path.join(tmp, f"ops{seed}.vx")
    with open(path, "w") as f:
        f.write(text)
    p = run([VX, "check", "--error-format=json", path])
    got = {s["line_start"]: (d["code"], d["message"], s["label"])
           for d, s in json_diagnostics(p.stderr) if d["level"] == "error"}
    want = {at[c.k]: ("E0220", c.message, c.label) for c in cases if c.stops}
    if got != want:
        for line in sorted(set(got) | set(want)):
            if got.get(line) != want.get(line):
                checks.fail(f"seed {seed} ({path}) line {line}: vx {got.get(line)}, model {want.get(line)}")
        return 0, 0
    if p.returncode != (1 if want else 0):
        checks.fail(f"seed {seed}: vx check status {p.returncode}")

    # The runtime: every refused case, its right-hand side from a variable, stops at its line.
    stopped = 0
    for c in [c for c in cases if c.stops]:
        one, where = program([c], from_variable=True)
        rpath = os.path.join(tmp, f"ops{seed}_{c.k}.vx")
        with open(rpath, "w") as f:
            f.write(one)
        q = run([VX, "run", rpath])
        if q.returncode != 101 or "runtime error" not in q.stderr or f"{rpath}:{where[c.k]}:" not in q.stderr:
            checks.fail(f"{rpath}: the model says it stops, but vx run gives status {q.returncode}: {q.stderr[-400:]}")
        stopped += 1
    # and the accepted ones, as written, all run.
    kept = [c for c in cases if not c.stops]
    text, _ = program(kept)
    apath = os.path.join(tmp, f"ops{seed}_kept.vx")
    with open(apath, "w") as f:
        f.write(text)
    q = run([VX, "run", apath])
    if q.returncode != 0 or len(q.stdout.splitlines()) != len(kept):
        checks.fail(f"{apath}: the model says none stops, but vx run gives status {q.returncode}: {q.stderr[-400:]}")
    return stopped, len(kept)


stops = runs = 0
for i in range(PROGRAMS):
    s, k = check_program(SEED * 1_000_003 + i)
    stops, runs = stops + s, runs + k
print(f"always_stops: {PROGRAMS} programs of {CASES} operations: {stops} refused, {runs} accepted")
# Both verdicts must be common, or the draw tests less than it says.
for what, n in (("refused", stops), ("accepted", runs)):
    if n < PROGRAMS * CASES // 5:
        checks.fail(f"only {n} of {PROGRAMS * CASES} operations {what}")
checks.finish()
