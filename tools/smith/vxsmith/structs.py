"""Structs in generated programs (spec/types.md §9, spec/smith.md §2): a struct item of two or
three scalar fields, a device helper that builds one with a literal (some fields by the field
init shorthand) and one that takes one and returns a scalar after writing its fields, helpers
that take one by reference (`&mut SN` to write a field, `&SN` to read them), and expressions in
host and device code that use them: a block with a struct local whose fields are written and read
(in a lane loop, the pass's own), the local passed `&mut` and `&`, and a read of one field of a
helper's result.
The structs are chosen by an RNG of their own, so a program without them is the one the seed gave
before structs existed."""

import random

# Field types: what `expr` makes well in host and device code.
FIELDS = ["i32", "i64", "u8", "f32", "f64", "bool"]
NAMES = ["a", "b", "c"]


def struct_helpers(g):
    """Adds 0-1 struct items with their helpers `fn mkN(x: T) -> SN` and
    `fn useN(s: SN, x: T) -> T`, and maybe `fn bumpN(s: &mut SN, x: T)` and
    `fn readN(s: &SN, x: T) -> T`; records them in g.struct_sigs as
    (struct, maker, user, param type, [(field, type)], (bump, read) or None)."""
    r = random.Random(g.seed * 6151 + 29)
    g.struct_sigs = []
    if r.random() < 0.55:
        return
    name = "S%d" % r.randint(0, 99)
    fields = [(NAMES[i], r.choice(FIELDS)) for i in range(r.randint(2, 3))]
    g.helpers.append("struct %s {\n%s}" % (name, "".join("    %s: %s,\n" % f for f in fields)))
    g.feat("struct_item")
    t = r.choice(["i32", "f32", "i64"])
    env = [("x", t)]
    # the maker: a literal, the first field by the shorthand from a local of its own name
    mk = g.fresh("mk")
    f0, t0 = fields[0]
    inits = [f0] + ["%s: %s" % (f, g.expr(ft, env, 1)) for f, ft in fields[1:]]
    if r.random() < 0.5:
        inits.reverse()  # a literal's fields in any order
        g.feat("struct_lit_reordered")
    g.helpers.append("fn %s(x: %s) -> %s {\n    let %s = %s;\n    %s { %s }\n}" % (
        mk, t, name, f0, g.expr(t0, env, 1), name, ", ".join(inits)))
    g.feat("struct_helper_return")
    # the user: takes the struct, writes a field, reads them all
    use = g.fresh("use")
    fenv = [("s.%s" % f, ft) for f, ft in fields] + env
    fw, fwt = r.choice(fields)
    op = "+=" if fwt != "bool" and r.random() < 0.5 else "="
    write = "s.%s %s %s;" % (fw, op, g.expr(fwt, fenv, 1))
    if op == "+=":
        g.feat("struct_field_compound")
    # the field written is read back, and more of them maybe
    back = convert("s.%s" % fw, fwt, t, g) if fwt != "bool" else "(s.%s as i32 as %s)" % (fw, t)
    g.helpers.append("fn %s(mut s: %s, x: %s) -> %s {\n    %s\n    (%s + %s)\n}" % (
        use, name, t, t, write, back, g.expr(t, fenv, 1)))
    g.feat("struct_helper_param")
    g.feat("struct_field_write")
    # by reference (spec/types.md §9): a field written through `&mut`, the fields read through `&`
    refs = None
    if r.random() < 0.7:
        bump, rd = g.fresh("bump"), g.fresh("read")
        fb, fbt = r.choice(fields)
        op = "+=" if fbt != "bool" and r.random() < 0.5 else "="
        g.helpers.append("fn %s(s: &mut %s, x: %s) {\n    s.%s %s %s;\n}" % (
            bump, name, t, fb, op, g.expr(fbt, fenv, 1)))
        fr, frt = r.choice(fields)
        g.helpers.append("fn %s(s: &%s, x: %s) -> %s {\n    %s + %s\n}" % (
            rd, name, t, t, convert("s.%s" % fr, frt, t, g), g.expr(t, fenv, 1)))
        g.feat("struct_ref_helpers")
        refs = (bump, rd)
    g.struct_sigs.append((name, mk, use, t, fields, refs))
    g.struct_r = r  # chooses between tuples and structs in an expression (gen.py)


def struct_expr(g, t, env, d, reads):
    """An expression of scalar type t made with a struct helper."""
    name, mk, use, pt, fields, refs = g.pick(g.struct_sigs)
    arg = g.expr(pt, env, d, reads)
    k = g.r.random()
    if refs and k < 0.4:
        # a struct local passed `&mut` to be written and `&` to be read; the `&mut` helper called
        # from host code or from a pass of a lane loop, on the pass's own struct
        g.feat("struct_ref_mut")
        g.feat("struct_ref")
        v = g.fresh("sv")
        bump, rd = refs
        call = "%s(&%s, %s)" % (rd, v, g.expr(pt, env, d, reads))
        return "({ let mut %s = %s(%s); %s(&mut %s, %s); %s })" % (
            v, mk, arg, bump, v, g.expr(pt, env, d, reads), call if pt == t else convert(call, pt, t, g))
    if refs:
        k = (k - 0.4) / 0.6
    if k < 0.4:
        # a struct local: a field written, then an expression of its fields
        g.feat("struct_local")
        v = g.fresh("sv")
        f, ft = g.pick(fields)
        fenv = env + [("%s.%s" % (v, n), nt) for n, nt in fields]
        write = "%s.%s = %s;" % (v, f, g.expr(ft, fenv, d, reads))
        return "({ let mut %s = %s(%s); %s %s })" % (v, mk, arg, write, g.expr(t, fenv, d, reads))
    if k < 0.7:
        # the struct passed to the helper that takes it
        g.feat("struct_pass")
        call = "%s(%s(%s), %s)" % (use, mk, arg, g.expr(pt, env, d, reads))
        return call if pt == t else convert(call, pt, t, g)
    # one field of the maker's result
    g.feat("struct_field_read")
    f, ft = g.pick(fields)
    return convert("%s(%s).%s" % (mk, arg, f), ft, t, g)


def convert(e, frm, to, g):
    if frm == to:
        return e
    if frm == "bool":
        return "(%s as i32 as %s)" % (e, to)
    if to == "bool":
        return "(%s > %s)" % (e, g.lit(frm))
    return "(%s as %s)" % (e, to)
