"""Tuples in generated programs (spec/types.md §8, spec/smith.md §2): device helpers that take a
scalar and return a tuple, and expressions that use them: a block that takes the result apart
with `let (a, b) = …;`, a read of one element (`.1`), a comparison of two tuples (`==`, `!=`),
and a `match` on the result. A helper of three elements may nest the last two (`(A, (B, C))`), so
that `.1` of its result is itself a tuple (`(tupN(x).1).0`). The element read and the `match` now
and then take the result into a local first and read the local's fields (`tl.1`, `(tl.1).0`, `match
(tl.0, tl.1)`), which the typed program keeps as fields of the local (spec/cli.md §4), and now and
then assign one of its fields first (`(tl.1).1 += …;`). The helpers, the choice of a local and
the choice of a write each come from an RNG of their own, so a program without them is the one
the seed gave before they existed."""

import random

# Element types of the generated tuples: what `expr` makes well in host and device code.
ELEMS = ["i32", "i64", "u8", "f32", "f64", "bool"]


def shape(parts, nested):
    """The tuple of `parts` (types, values or patterns): `(a, (b, c))` when nested."""
    if nested:
        return "(%s, (%s))" % (parts[0], ", ".join(parts[1:]))
    return "(%s)" % ", ".join(parts)


def element(v, i, nested):
    """The i-th scalar of the tuple `v`: `v.2`, or `(v.1).1` in a nested one."""
    return "(%s.1).%d" % (v, i - 1) if nested and i > 0 else "%s.%d" % (v, i)


def tuple_helpers(g):
    """Adds 0-2 helpers `fn tupN(x: T) -> (A, B[, C]) { (…, …) }` (or `(A, (B, C))`) to g.helpers;
    records them in g.tuple_sigs as (name, param type, element types, nested)."""
    r = random.Random(g.seed * 7919 + 17)
    nest = random.Random(g.seed * 7919 + 29)  # its own: the flat helpers stay as they were
    g.tuple_sigs = []
    g.tuple_local = random.Random(g.seed * 7919 + 41)  # its own: see the module's text
    g.tuple_write = random.Random(g.seed * 7919 + 53)  # its own too
    if r.random() < 0.5:
        return
    for _ in range(r.randint(1, 2)):
        t = r.choice(["i32", "f32", "i64"])
        elems = [r.choice(ELEMS) for _ in range(r.randint(2, 3))]
        name = g.fresh("tup")
        values = [g.expr(e, [("x", t)], 1) for e in elems]
        nested = len(elems) == 3 and nest.random() < 0.5
        g.helpers.append("fn %s(x: %s) -> %s {\n    %s\n}" % (name, t, shape(elems, nested),
                                                              shape(values, nested)))
        g.tuple_sigs.append((name, t, elems, nested))
        g.feat("tuple_helper_fn")
        if nested:
            g.feat("tuple_nested")


def tuple_expr(g, t, env, d, reads):
    """An expression of scalar type t made with a tuple helper's result."""
    name, pt, elems, nested = g.pick(g.tuple_sigs)
    call = "%s(%s)" % (name, g.expr(pt, env, d, reads))
    k = g.r.random()
    if 0.6 <= k < 0.8:
        if g.tuple_local.random() < 0.3:
            # the scrutinee made of a local's fields: a `match` that tests the local's scalars
            g.feat("tuple_match_fields")
            v = g.fresh("tl")
            scrut = shape([element(v, i, nested) for i in range(len(elems))], nested)
            return "({ let %s = %s; %s })" % (v, call, tuple_match(g, t, env, d, reads, scrut,
                                                                  elems, nested))
        return tuple_match(g, t, env, d, reads, call, elems, nested)
    if k < 0.3:
        # a tuple compared with one made of its own elements, some changed
        g.feat("tuple_eq")
        v = g.fresh("tv")
        parts = [element(v, i, nested) if g.chance(0.7) else g.expr(e, env, d, reads)
                 for i, e in enumerate(elems)]
        op = g.pick(["==", "!="])
        eq = "({ let %s = %s; %s %s %s })" % (v, call, v, op, shape(parts, nested))
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
        return "({ let %s = %s; %s })" % (shape(pats, nested), call, body)
    # one element, converted to t
    i = g.ri(0, len(elems) - 1)
    g.feat("tuple_field")
    e = elems[i]
    local = g.fresh("tl") if g.tuple_local.random() < 0.5 else None
    if local:
        g.feat("tuple_local_field")
    # nested: `.1` of the value is a tuple (spec/types.md §8)
    field = element(local or call, i, nested)
    write = field_write(g, local, elems, nested) if local and g.tuple_write.random() < 0.4 else ""
    if e == t:
        value = field
    elif e == "bool":
        value = "(%s as i32 as %s)" % (field, t) if t != "bool" else field
    elif t == "bool":
        value = "(%s > %s)" % (field, g.lit(e))
    else:
        value = "(%s as %s)" % (field, t)
    if not local:
        return value
    return "({ let %s%s = %s; %s%s })" % ("mut " if write else "", local, call, write, value)


def field_write(g, local, elems, nested):
    """`tl.0 = …; ` or `(tl.1).1 += …; `: a field of the local assigned before it is read, which
    the typed program keeps as an assigned field (spec/cli.md §4), through parentheses for a nested
    one (spec/grammar.md §3). The value is a literal or another field of the same type, drawn from
    g.tuple_write alone, so the program's other choices (g.r) stay those the seed gave before."""
    g.feat("tuple_field_write")
    w = g.tuple_write
    j = w.randrange(len(elems))
    e = elems[j]
    op = "+=" if e != "bool" and w.random() < 0.5 else "="
    same = [k for k, ek in enumerate(elems) if ek == e and k != j]
    if same and op == "=" and w.random() < 0.5:
        value = element(local, w.choice(same), nested)
    elif e == "bool":
        value = w.choice(["true", "false"])
    else:
        value = g.lit(e, w.randint(0, 20) if e not in ("f32", "f64") else w.randint(-8, 8) * 0.25)
    return "%s %s %s; " % (element(local, j, nested), op, value)


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


def tuple_match(g, t, env, d, reads, call, elems, nested=False):
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
        pat = "(%s)" % ", ".join(pats) if pats[1:] == [".."] else shape(pats, nested)
        if g.chance(0.2):
            g.feat("tuple_match_guard")
            pat += " if %s" % g.expr("bool", env + names, d, reads)
        arms.append("%s => %s" % (pat, arm(g.expr(t, env + names, d, reads))))
    arms.append("_ => %s" % arm(g.expr(t, env, d, reads)))
    return "(match %s { %s })" % (call, ", ".join(arms))
