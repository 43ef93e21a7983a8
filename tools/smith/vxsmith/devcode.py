"""Device code of every kind, in every context (spec/smith.md §2.1).

A section (feature `section_device_code`) whose region runs statements of the kinds device code may
hold in every context: in a lane loop, in block code, in a helper called from both (`kdA`), in the
helpers it calls (`kdB`, `kdC`) and those call (`kdC`, `kdD`), and in a helper that writes an
element of the block's tile (`kdP`, from block code): each with two to four forms (features
`device_code_FORM`) of shallow expressions (the other sections make deep ones, and NVRTC's time
grows with them): `let`, compound assignments, an array literal written at an index and in a loop,
`if` as a statement and with a value, a `{ }` block with a value, `match` as a statement and with a
value, `while`, `for` with `continue` and `break`, `loop` as a statement and with a value (`break
v`), the unit value `()`, `min`/`max`, the input's `len()` and `dim(1)`, a unary operator, in
helpers an early `return`, and always a call that passes the 2-D input (`&a`) and one that passes a
row of it (`&a[i]`), so that every helper is called from device code (tools/smith/vxsmith/kinds.py
names the kinds they make). Each context's statements fold their values into an accumulator, which
the lanes store at their own element (of the output, or of its row through `let r = &mut out[b];`
in block code or in the pass) and block code at its block's: race-free by construction, every loop
bounded, every index in range (a non-negative value `% n`). A float accumulator is kept a number
(`.max(-1.0e6).min(1.0e6)`: `max` and `min` ignore a NaN), so that no operation on two NaNs, whose
sign IEEE leaves open, reaches the output. GAPS are forms the CUDA emitter cannot run yet, made
only with VX_SMITH_GAPS=1.

The section is chosen, and made, by an RNG of its own (the generator's is swapped for it), so a
seed's program without it is the one it gave before it existed.
"""

import os
import random

from .gen import INTS, W, arm

TYPES = ["i32", "i64", "u32", "f32", "f64"]
# The statement forms; `return` only in helpers.
FORMS = ["let", "compound", "array", "if_stmt", "if_value", "block", "match_stmt", "match_value", "while", "for",
         "loop_stmt", "loop_value", "unit", "call_ref", "call_row", "method", "query", "unary", "return"]
# Forms that vx accepts and interprets but whose region the CUDA emitter leaves to the interpreter
# (a finding of the offload tiers, spec/smith.md §2.1): made only with VX_SMITH_GAPS=1 in the
# environment, to try a fix of the emitter. tests/smith_kinds_test.py lists what they would cover.
GAPS = ["assert"]


class DeviceCode:
    def __init__(self, g, r):
        self.g, self.r = g, r
        self.t = r.choice(TYPES)
        self.rows, self.cols = r.randint(1, 4), r.choice([3, 5, 8])
        self.nb, self.nl = r.randint(1, 4), r.choice([4, 8, 16, 32])

    # ---- small pieces
    def lit(self, v):
        return self.g.lit(self.t, v)

    def expr(self, env, reads, d=None):
        # shallow: the section is there for its statements (the other sections make deep
        # expressions), and NVRTC's time grows with them (smith's nvrtc tier compiles every program)
        return self.g.expr(self.t, env, self.r.randint(0, 1) if d is None else min(d, 1), reads)

    def combine(self, acc, v):
        """`acc = acc op v;`: wraps for integers, stays finite or not for floats, always defined."""
        op = self.r.choice(["+", "-", "^"] if self.t in INTS else ["+", "-"])
        return "%s = %s %s %s;" % (acc, acc, op, v)

    def index(self, var, n):
        """An index in 0..n from a non-negative i32 value."""
        return "(%s * %d + %d) %% %d" % (var, self.r.randint(1, 7), self.r.randint(0, 9), n)

    # ---- the statement forms: lines that change `acc` (of type T) and declare what they need
    def statements(self, env, reads, ivars, calls, helper=False):
        """Statements for one context, and the name of their accumulator. `ivars` are
        non-negative i32 names; `calls` is (the 2-D input here, a helper that takes it whole, a
        helper that takes a row of it) or None; `helper` allows `return`."""
        g, r, t = self.g, self.r, self.t
        acc = g.fresh("acc")
        lines = ["let mut %s: %s = %s;" % (acc, t, self.expr(env, reads, 1))]
        # every helper is called (an uncalled one that indexes an HBM tensor would be host code)
        forced = ["call_ref", "call_row"] if calls else []
        forms = [f for f in FORMS + (GAPS if os.environ.get("VX_SMITH_GAPS") == "1" else [])
                 if (f != "return" or helper) and f not in ("call_ref", "call_row") and (calls or f != "query")]
        chosen = r.sample(forms, r.randint(2, 4)) + forced
        r.shuffle(chosen)
        self.calls = calls
        for form in chosen:
            g.feat("device_code_" + form)
            lines += getattr(self, "form_" + form)(acc, env + [(acc, t)], reads, ivars)
            if t not in INTS:
                # `max` and `min` ignore a NaN (semantics.md §4): the accumulator stays a number, so
                # no operation of two NaNs, whose result's sign IEEE leaves open, reaches the output
                lines.append("%s = %s.max(-1.0e6%s).min(1.0e6%s);" % (acc, acc, t, t))
        return acc, lines

    def form_let(self, acc, env, reads, ivars):
        v = self.g.fresh("v")
        return ["let %s = %s;" % (v, self.expr(env, reads)), self.combine(acc, v)]

    def form_compound(self, acc, env, reads, ivars):
        op = self.r.choice(["+=", "-=", "^=", "|="] if self.t in INTS else ["+=", "-=", "*="])
        return ["%s %s %s;" % (acc, op, self.expr(env, reads))]

    def form_array(self, acc, env, reads, ivars):
        a, k = self.g.fresh("arr"), self.g.fresh("k")
        n = self.r.choice([2, 3, 4])
        return ["let mut %s = [%s];" % (a, ", ".join(self.expr(env, reads, 1) for _ in range(n))),
                "%s[%s] = %s;" % (a, self.index(self.r.choice(ivars), n), self.expr(env, reads, 1)),
                "for %s in 0..%d {" % (k, n),
                "    %s[%s] += %s;" % (a, k, self.expr(env + [("(%s as %s)" % (k, self.t), self.t)], reads, 0)),
                "}",
                self.combine(acc, "%s[%s]" % (a, self.index(self.r.choice(ivars), n)))]

    def cond(self, env, reads):
        return self.g.expr("bool", env, 1, reads)

    def form_if_stmt(self, acc, env, reads, ivars):
        lines = ["if %s {" % self.cond(env, reads), "    " + self.combine(acc, self.expr(env, reads))]
        if self.r.random() < 0.5:
            lines += ["} else if %s {" % self.cond(env, reads), "    %s = %s;" % (acc, self.expr(env, reads))]
        if self.r.random() < 0.7:
            lines += ["} else {", "    " + self.combine(acc, self.expr(env, reads))]
        return lines + ["}"]

    def form_if_value(self, acc, env, reads, ivars):
        return [self.combine(acc, "(if %s { %s } else { %s })" % (
            self.cond(env, reads), self.expr(env, reads), self.expr(env, reads)))]

    def form_block(self, acc, env, reads, ivars):
        v, x = self.g.fresh("v"), self.g.fresh("x")
        return ["let %s = {" % v, "    let %s = %s;" % (x, self.expr(env, reads)),
                "    %s %s %s" % (x, self.r.choice(["+", "-", "*"]), self.expr(env, reads, 1)), "};",
                self.combine(acc, v)]

    def form_match_stmt(self, acc, env, reads, ivars):
        i = self.r.choice(ivars)
        return ["match %s %% 4 {" % i,
                "    0 => {", "        " + self.combine(acc, self.expr(env, reads)), "    }",
                "    1 | 2 => %s = %s," % (acc, arm(self.expr(env, reads))),
                "    _ => ()", "}"]

    def form_match_value(self, acc, env, reads, ivars):
        i = self.r.choice(ivars)
        return [self.combine(acc, "match %s { 0 => %s, 1..=3 => %s, _ => %s }" % (
            i, arm(self.expr(env, reads)), arm(self.expr(env, reads)), arm(self.expr(env, reads))))]

    def form_while(self, acc, env, reads, ivars):
        n = self.g.fresh("n")
        return ["let mut %s = 0;" % n, "while %s < %d {" % (n, self.r.randint(1, 4)),
                "    " + self.combine(acc, self.expr(env + [(n, "i32")], reads)), "    %s += 1;" % n, "}"]

    def form_for(self, acc, env, reads, ivars):
        k = self.g.fresh("k")
        hi = self.r.randint(2, 5)
        return ["for %s in %s {" % (k, self.g.plain_range(0, hi)),
                "    if %s == %d {" % (k, self.r.randint(0, hi - 1)), "        continue;", "    }",
                "    " + self.combine(acc, self.expr(env + [(k, "i32")], reads)),
                "    if %s > %d {" % (k, self.r.randint(1, hi)), "        break;", "    }", "}"]

    def form_loop_stmt(self, acc, env, reads, ivars):
        n = self.g.fresh("n")
        return ["let mut %s = 0;" % n, "loop {", "    %s += 1;" % n,
                "    " + self.combine(acc, self.expr(env + [(n, "i32")], reads)),
                "    if %s >= %d {" % (n, self.r.randint(1, 3)), "        break;", "    }", "}"]

    def form_loop_value(self, acc, env, reads, ivars):
        n, v = self.g.fresh("n"), self.g.fresh("v")
        return ["let mut %s = 0;" % n, "let %s = loop {" % v, "    %s += 1;" % n,
                "    if %s >= %d {" % (n, self.r.randint(1, 3)),
                "        break %s;" % self.expr(env + [(n, "i32")], reads), "    }", "};", self.combine(acc, v)]

    def form_assert(self, acc, env, reads, ivars):
        i = self.r.choice(ivars)
        if self.r.random() < 0.5:
            return ['assert!(%s >= 0, "{} is {}", "%s", %s);' % (i, i, i)]
        return ["assert_eq!(%s %% 2, %s %% 2);" % (i, i)]

    def form_unit(self, acc, env, reads, ivars):
        # `()` as the value of an `if` (a `let` of a () is not emitted for the GPU: offload.md §1)
        return ["if %s {" % self.cond(env, reads), "    %s = %s;" % (acc, self.expr(env, reads)), "    ()",
                "} else {", "    ()", "};"]

    def form_call_ref(self, acc, env, reads, ivars):
        tensor, whole, _ = self.calls
        return [self.combine(acc, "%s(%s, &%s, %s)" % (whole, self.expr(env, reads, 1), tensor, self.r.choice(ivars)))]

    def form_call_row(self, acc, env, reads, ivars):
        tensor, _, row = self.calls
        return [self.combine(acc, "%s(%s, &%s[%s], %s)" % (
            row, self.expr(env, reads, 1), tensor, self.index(self.r.choice(ivars), self.rows), self.r.choice(ivars)))]

    def form_query(self, acc, env, reads, ivars):
        # the input's sizes (`len`, `dim`): constants of its type
        tensor = self.calls[0]
        return [self.combine(acc, "((%s.len() * %d + %s.dim(1)) as %s)" % (tensor, self.r.randint(1, 5), tensor,
                                                                           self.t))]

    def form_method(self, acc, env, reads, ivars):
        return ["%s = %s.%s(%s);" % (acc, acc, self.r.choice(["min", "max"]), self.expr(env, reads))]

    def form_unary(self, acc, env, reads, ivars):
        op = "!" if self.t.startswith("u") else "-"
        return [self.combine(acc, "(%s%s)" % (op, self.expr(env, reads, 1)))]

    def form_return(self, acc, env, reads, ivars):
        return ["if %s {" % self.cond(env, reads), "    return %s;" % self.expr(env, reads), "}"]

    # ---- the helpers
    def helper(self, name, param, reads, calls):
        """`fn name(x: T, PARAM, i: i32) -> T` of the statements of a helper."""
        env = [("x", self.t), ("i", "i32")]
        acc, body = self.statements(env, reads, ["i"], calls, helper=True)
        w = W()
        w.open("fn %s(x: %s, %s, i: i32) -> %s" % (name, self.t, param, self.t))
        for line in body:
            w(line)
        w(acc)
        w.close()
        self.g.helpers.append("\n".join(w.lines))

    def helpers(self):
        """kdA(x, a, i) (a: the 2-D input) passes `&a` to kdB and `&a[k]` to kdC; kdB passes `&a` to
        kdD and `&a[k]` to kdC; kdC and kdD read what they are given. kdP writes an element of
        the block's tile."""
        g, t, R, C = self.g, self.t, self.rows, self.cols
        two = "a: &Tensor<%s, [%d, %d], Memory::HBM>" % (t, R, C)
        row = "r: &Tensor<%s, [%d], Memory::HBM>" % (t, C)
        self.a, b, c, d, self.p = (g.fresh(n) for n in ("kdA", "kdB", "kdC", "kdD", "kdP"))
        self.c = c
        two_reads = [(lambda: "a[%s][%s]" % (self.index("i", R), self.index("i", C)), t)]
        self.helper(c, row, [(lambda: "r[%s]" % self.index("i", C), t)], None)
        self.helper(d, two, two_reads, None)
        self.helper(b, two, two_reads, ("a", d, c))
        self.helper(self.a, two, two_reads, ("a", b, c))
        g.helpers.append("fn %s(tl: &mut Tensor<%s, [%d], Memory::SMEM>, i: i32, v: %s) {\n"
                         "    if i %% 2 == 0 {\n        tl[i] = v;\n    } else {\n        tl[i] = v + %s;\n    }\n}" % (
                             self.p, t, self.nl, t, self.lit(1)))

    # ---- the section
    def run(self, w):
        g, t, r = self.g, self.t, self.r
        g.feat("section_device_code")
        self.helpers()
        inp = g.host_input(w, t, [self.rows, self.cols])
        out, bo = g.fresh("out"), g.fresh("bo")
        zero = self.lit(0)
        w("let mut %s = transfer(Tensor<%s, [%d, %d]>::fill(%s), Memory::HBM);" % (out, t, self.nb, self.nl, zero))
        w("let mut %s = transfer(Tensor<%s, [%d]>::fill(%s), Memory::HBM);" % (bo, t, self.nb, zero))
        w.open("spawn on(Topology::Device)")
        g.feat("region")
        b = g.fresh("b")
        w.open("for %s in 0..%d across blocks" % (b, self.nb))
        reads = [(lambda: "%s[%s][%s]" % (inp, self.index(b, self.rows), self.index(b, self.cols)), t)]
        bacc, lines = self.statements([(b, "i32")], reads, [b], (inp, self.a, self.c))
        for line in lines:
            w(line)
        tile = g.fresh("tl")
        w("let mut %s = Tensor<%s, [%d], Memory::SMEM>::fill(%s);" % (tile, t, self.nl, zero))
        w("%s(&mut %s, %s %% %d, %s);" % (self.p, tile, b, self.nl, bacc))
        # the lanes store at their own element: of `out`, or of its row through a reference made
        # in block code or in the pass (kernel-rules.md §4, step 1: the access is at its row)
        row = r.choice([None, "block", "lane"])
        place = "%s[%s]" % (out, b)
        if row:
            g.feat("device_code_row_ref_" + row)
            place = g.fresh("orow")
            if row == "block":
                w("let %s = &mut %s[%s];" % (place, out, b))
        l = g.fresh("l")
        w.open("for %s in 0..%d across lanes" % (l, self.nl))
        lreads = reads + [(lambda: "%s[%s][%s]" % (inp, self.index(b, self.rows), self.index(l, self.cols)), t)]
        lenv = [(b, "i32"), (l, "i32"), (bacc, t)]
        lacc, lines = self.statements(lenv, lreads, [b, l], (inp, self.a, self.c))
        for line in lines:
            w(line)
        if row == "lane":
            w("let %s = &mut %s[%s];" % (place, out, b))
        w("%s[%s] = %s + %s[%s];" % (place, l, lacc, tile, l))
        w.close()
        w("%s[%s] = %s;" % (bo, b, bacc))
        w.close()
        w.close()
        g.print_tensor(w, out, t, [self.nb, self.nl])
        g.print_tensor(w, bo, t, [self.nb])


def section(g, w):
    """Perhaps (one program in eight) a device-code section, made with an RNG of its own."""
    r = random.Random(g.seed * 9973 + 41)
    if r.random() >= 1 / 8:
        return False
    saved = g.r
    g.r = r
    try:
        w.open("")
        w.lines[-1] = w.lines[-1].replace(" {", "{ // section device code").replace("{//", "{ //")
        DeviceCode(g, r).run(w)
        w.close()
    finally:
        g.r = saved
    return True
