"""Tuples in generated programs (spec/types.md §8, spec/smith.md §2): device helpers that take a
scalar and return a tuple, and expressions that use them: a block that takes the result apart
with `let (a, b) = …;`, a read of one element (`.1`), a comparison of two tuples (`==`, `!=`),
and a `match` on the result. The helpers are chosen by an RNG of their own, so a program without them is the one the
seed gave before tuples existed."""

import random

# Element types of the generated tuples: what `expr` makes well in host and device code.
ELEMS = ["i32", "i64", "u8", "f32", "f64", "bool"]


def tuple_helpers(g):
    """Adds 0-2 helpers `fn tupN(x: T) -> (A, B[, C]) { (…, …) }` to g.helpers; records them in
    g.tuple_sigs as (name, param type, element types)."""
    r = random.Random(g.seed * 7919 + 17)
    g.tuple_sigs = []
    if r.random() < 0.5:
        return
    for _ in range(r.randint(1, 2)):
        t = r.choice(["i32", "f32", "i64"])
        elems = [r.choice(ELEMS) for _ in range(r.randint(2, 3))]
        name = g.fresh("tup")
        values = [g.expr(e, [("x", t)], 1) for e in elems]
        ret = "(%s)" % ", ".join(elems)
        g.helpers.append("fn %s(x: %s) -> %s {\n    (%s)\n}" % (name, t, ret, ", ".join(values)))
        g.tuple_sigs.append((name, t, elems))
        g.feat("tuple_helper_fn")


def tuple_expr(g, t, env, d, reads):
    """An expression of scalar type t made with a tuple helper's result."""
    name, pt, elems = g.pick(g.tuple_sigs)
    call = "%s(%s)" % (name, g.expr(pt, env, d, reads))
    k = g.r.random()
    if 0.6 <= k < 0.8:
        return tuple_match(g, t, env, d, reads, call, elems)
    if k < 0.3:
        # a tuple compared with one made of its own elements, some changed
        g.feat("tuple_eq")
        v = g.fresh("tv")
        parts = ["%s.%d" % (v, i) if g.chance(0.7) else g.expr(e, env, d, reads) for i, e in enumerate(elems)]
        op = g.pick(["==", "!="])
        eq = "({ let %s = %s; %s %s (%s) })" % (v, call, v, op, ", ".join(parts))
        return eq if t == "bool" else "(%s as i32 as %s)" % (eq, t)
    if k < 0.6:
        # `let (a, _, c) = f(x);` and an expression of the names bound
        g.feat("tuple_let")
        names, pats = [], []
        for e in elems:
            if g.chance(0.2):
                pats.append("_")
                continue
            n = g.fresh("te")
            names.append((n, e))
            pats.append(n)
        body = g.expr(t, env + names, d, reads)
        return "({ let (%s) = %s; %s })" % (", ".join(pats), call, body)
    # one element, converted to t
    i = g.ri(0, len(elems) - 1)
    g.feat("tuple_field")
    e = elems[i]
    if e == t:
        return "%s.%d" % (call, i)
    if e == "bool":
        return "(%s.%d as i32 as %s)" % (call, i, t) if t != "bool" else "%s.%d" % (call, i)
    if t == "bool":
        return "(%s.%d > %s)" % (call, i, g.lit(e))
    return "(%s.%d as %s)" % (call, i, t)


def element_pattern(g, e):
    """A pattern of a tuple element of type e: `_`, a literal, a range or two literals joined by
    `|` (integers), `true` or `false`; a float's is `_` (only names and `_` match floats)."""
    if e == "bool":
        return g.pick(["true", "false", "_"])
    if e in ("f32", "f64"):
        return "_"
    k = g.r.random()
    if k < 0.3:
        return "_"
    if k < 0.6:
        return g.lit(e, g.ri(0, 20))
    if k < 0.8:
        a = g.ri(0, 20)
        return "%s..=%s" % (g.lit(e, a), g.lit(e, a + g.ri(0, 10)))
    return "%s | %s" % (g.lit(e, g.ri(0, 9)), g.lit(e, g.ri(10, 19)))


def tuple_match(g, t, env, d, reads, call, elems):
    """`match tupN(x) { (p, q) => …, … _ => … }`: element patterns, names bound to elements and
    used in the arm, sometimes a `..` after the first element, sometimes a guard; the last arm is
    `_` (always exhaustive; an arm that an earlier one covers is only a warning)."""
    from .gen import arm
    g.feat("tuple_match")
    arms = []
    for _ in range(g.ri(1, 3)):
        pats, names = [], []
        for e in elems:
            if g.chance(0.25):
                n = g.fresh("tm")
                pats.append(n)
                names.append((n, e))
            else:
                pats.append(element_pattern(g, e))
        if g.chance(0.2):
            g.feat("tuple_match_rest")
            pats = [pats[0], ".."]
            names = [(n, e) for (n, e) in names if n == pats[0]]
        pat = "(%s)" % ", ".join(pats)
        if g.chance(0.2):
            g.feat("tuple_match_guard")
            pat += " if %s" % g.expr("bool", env + names, d, reads)
        arms.append("%s => %s" % (pat, arm(g.expr(t, env + names, d, reads))))
    arms.append("_ => %s" % arm(g.expr(t, env, d, reads)))
    return "(match %s { %s })" % (call, ", ".join(arms))
