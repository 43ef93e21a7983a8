#!/usr/bin/python3
"""Tuple values against a model (spec/types.md §8, spec/semantics.md §2): random programs of
nested tuples whose scalars have effects (`{ n += 3; n }`), fields of tuple values that are
tuples or scalars (`(mk(x).1).0`), helpers that return nested tuples, `if`s of tuple type,
destructuring `let`s and `==`, each printed with `{:?}` after it runs. The expected output comes
from a model of the evaluation order written here (left to right; a field reads its value whole
first), not from vx. The typed program keeps these forms and the lowering takes them apart
(lower/lower_tuples.cpp): this is the test that a lowering reading the wrong scalar, or running
one twice, out of order or not at all, fails. Usage: tuple_values_test.py VX [COUNT]"""
import os
import random
import subprocess
import sys
import tempfile

VX = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 60

# The helpers: `mk` returns this shape, `g` a scalar.
MK = ("i", ("i", "i"))
HELPERS = """fn g(x: i32) -> i32 {
    x * 3 + 1
}

fn mk(x: i32) -> (i32, (i32, i32)) {
    (x, (x + 1, x * 2))
}
"""


def mk(x):
    return (x, (x + 1, x * 2))


def type_of(shape):
    return "i32" if shape == "i" else "(%s)" % ", ".join(type_of(s) for s in shape)


def debug(v):
    """Rust's `{:?}` of an i32 or a tuple of them."""
    if isinstance(v, int):
        return str(v)
    return "(%s%s)" % (", ".join(debug(x) for x in v), "," if len(v) == 1 else "")


class Gen:
    """Expressions of a shape, each with its evaluator: a function of the state (n) that returns
    the value and changes n as Vx would."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def scalar(self, depth):
        r = self.r
        k = r.randint(1, 9)
        c = r.random() if depth > 0 else r.random() * 0.5
        if c < 0.15:
            return str(k), lambda st: k
        if c < 0.3:
            return "n", lambda st: st["n"]
        if c < 0.5:
            def bump(st, k=k):
                st["n"] += k
                return st["n"]
            return "{ n += %d; n }" % k, bump
        if c < 0.65:
            text, ev = self.scalar(depth - 1)
            return "g(%s)" % text, lambda st: ev(st) * 3 + 1
        return self.field("i", depth)

    def field(self, shape, depth):
        """`(W).i` of a tuple W that holds `shape` at i."""
        wrapper, index = self.wrapper(shape)
        text, ev = self.value(wrapper, depth - 1)
        return "(%s).%d" % (text, index), lambda st: ev(st)[index]

    def wrapper(self, shape):
        r = self.r
        if shape == MK[1] and r.random() < 0.5:
            return MK, 1
        if shape == "i" and r.random() < 0.3:
            return MK, 0
        other = "i" if r.random() < 0.7 else ("i", "i")
        return ((shape, other), 0) if r.random() < 0.5 else ((other, shape), 1)

    def value(self, shape, depth):
        if shape == "i":
            return self.scalar(depth)
        r = self.r
        c = r.random() if depth > 0 else 0.0
        if shape == MK and c < 0.35:
            text, ev = self.scalar(depth - 1)
            return "mk(%s)" % text, lambda st: mk(ev(st))
        if c > 0.8:
            return self.field(shape, depth)
        if 0.65 < c <= 0.8:
            a_text, a = self.value(shape, depth - 1)
            b_text, b = self.value(shape, depth - 1)
            def choose(st, a=a, b=b):
                return a(st) if st["n"] % 2 == 0 else b(st)
            return "if n % 2 == 0 { " + a_text + " } else { " + b_text + " }", choose
        parts = [self.value(s, depth - 1) for s in shape]
        text = "(%s%s)" % (", ".join(t for t, _ in parts), "," if len(parts) == 1 else "")
        return text, lambda st: tuple(ev(st) for _, ev in parts)

    def shape(self):
        return self.r.choice([MK, ("i", "i"), MK[1], (("i", "i"), "i"), ("i", ("i", ("i", "i")))])

    def statement(self, k, st, out):
        """One statement (its text) and what it prints, run on the model's state."""
        r = self.r
        shape = self.shape()
        c = r.random()
        if c < 0.2 and shape == MK:
            text, ev = self.value(shape, 3)
            a, (b, c2) = ev(st)
            out.append("%d %d %d %d" % (a, b, c2, st["n"]))
            return "    let (a%d, (b%d, c%d)) = %s;\n    println!(\"{} {} {} {}\", a%d, b%d, c%d, n);" % (
                k, k, k, text, k, k, k)
        if c < 0.35:
            a_text, a = self.value(shape, 2)
            b_text, b = self.value(shape, 2)
            same = a(st) == b(st)
            out.append("%s %d" % ("true" if same else "false", st["n"]))
            return "    let e%d = %s == %s;\n    println!(\"{} {}\", e%d, n);" % (k, a_text, b_text, k)
        text, ev = self.value(shape, 3)
        v = ev(st)
        out.append("%s %d" % (debug(v), st["n"]))
        return "    let t%d: %s = %s;\n    println!(\"{:?} {}\", t%d, n);" % (k, type_of(shape), text, k)


def program(seed):
    gen = Gen(seed)
    st = {"n": 0}
    out = []
    body = [gen.statement(k, st, out) for k in range(6)]
    text = HELPERS + "\nfn main() {\n    let mut n = 0;\n" + "\n".join(body) + "\n}\n"
    return text, "".join(line + "\n" for line in out)


failures = []
with tempfile.TemporaryDirectory() as tmp:
    for seed in range(COUNT):
        text, want = program(seed)
        path = os.path.join(tmp, "t%d.vx" % seed)
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([VX, "run", "--offload=off", path], capture_output=True, text=True,
                           timeout=60)
        if r.returncode != 0 or r.stdout != want:
            failures.append("seed %d: status %d\n%s--- expected\n%s--- got\n%s%s" % (
                seed, r.returncode, text, want, r.stdout, r.stderr[-2000:]))
for f in failures[:3]:
    print("FAIL: " + f)
print("tuple values: %d programs, %d failure(s)" % (COUNT, len(failures)))
sys.exit(1 if failures else 0)
