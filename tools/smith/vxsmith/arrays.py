"""Arrays `[T; N]` in generated programs (spec/types.md §7, spec/smith.md §2).

A section whose region uses arrays every way device code may: an array captured from the host
and read in every pass, one made in block code and read by the block's lanes, one made in each
pass (a literal or a repeat), written in a plain loop and compound-assigned at computed indices,
passed to and returned from device helpers, compared with `==`, and an array of arrays. Every
index is in range by construction: a non-negative loop variable (loop ranges start at 0 or
above) times a constant plus a constant, `% N`. Stores into the output tensor are at the nest's
own multi-index, so the program stays race-free. A host array built from the results is printed
with `{:?}`. The runtime error on purpose of the last section may be an array index past the
length (`array_oob`).
"""

from .gen import FLOATS, INTS, W


def _elem_types():
    return INTS + FLOATS


class ArraySection:
    def __init__(self, g):
        self.g = g

    def index(self, vars_, n):
        """An index of an array of length n that is in range: (v * a + c) % n, v >= 0."""
        g = self.g
        v = g.pick(vars_)
        return "((%s * %d + %d) %% %d)" % (v, g.ri(1, 7), g.ri(0, 9), n)

    def helper_sum(self, t, n):
        g = self.g
        name = g.fresh("arrsum")
        g.helpers.append(
            "fn %s(a: [%s; %d]) -> %s {\n    let mut s = a[0];\n    for i in 1..%d {\n"
            "        s = s + a[i];\n    }\n    return s;\n}" % (name, t, n, t, n))
        g.feat("array_helper_param")
        return name

    def helper_rev(self, t, n):
        g = self.g
        name = g.fresh("arrrev")
        g.helpers.append(
            "fn %s(a: [%s; %d]) -> [%s; %d] {\n    let mut r = a;\n    for i in 0..%d {\n"
            "        r[i] = a[%d - 1 - i];\n    }\n    r\n}" % (name, t, n, t, n, n, n))
        g.feat("array_helper_return")
        return name

    def run(self, w):
        g = self.g
        g.lane_vars = None  # the variables an index may use inside the lane nest, once open
        t = g.pick(_elem_types())
        g.feat("type_" + t)
        n = g.pick([1, 2, 3, 4, 5, 8, 16])
        body = W()
        body.ind = w.ind + 1
        blocks = g.block_nest(body, g.ri(1, 2))
        bvars = [v for (v, _, _) in blocks]
        env = [(v, "i32") for v in bvars]
        reads = []
        pre = W()
        pre.ind = w.ind
        # captured from the host, read in every pass
        if g.chance(0.6):
            cap = g.fresh("ca")
            if g.chance(0.3):
                pre("let %s = [%s; %d];" % (cap, g.lit(t), n))
                g.feat("array_repeat")
            else:
                pre("let %s: [%s; %d] = [%s];" % (cap, t, n, ", ".join(g.lit(t) for _ in range(n))))
                g.feat("array_literal")
            g.feat("array_captured")
            reads.append((lambda cap=cap: "%s[%s]" % (cap, self.index(g.lane_vars or bvars, n)), t))
        # made in block code, read by the block's lanes
        if g.chance(0.4):
            ba = g.fresh("ba")
            g.lane_vars = None
            body("let %s = [%s];" % (ba, ", ".join("(%s as %s)" % (g.pick(bvars), t) if t in INTS else
                                                   g.expr(t, env, 1, ()) for _ in range(n))))
            g.feat("array_block_code")
            reads.append((lambda ba=ba: "%s[%s]" % (ba, self.index(g.lane_vars or bvars, n)), t))
        lanes = g.lane_nest(body, g.ri(1, 2), budget=256)
        lvars = [v for (v, _, _) in lanes]
        g.lane_vars = lvars + bvars
        env = env + [(v, "i32") for v in lvars]
        # the pass's own array
        a = g.fresh("la")
        if g.chance(0.5):
            body("let mut %s = [%s; %d];" % (a, g.expr(t, env, 1, reads), n))
            g.feat("array_repeat")
        else:
            body("let mut %s = [%s];" % (a, ", ".join(g.expr(t, env, 1, reads) for _ in range(n))))
            g.feat("array_literal")
        g.feat("array_local")
        if g.chance(0.6):
            i = g.fresh("i")
            body.open("for %s in 0..%d" % (i, n))
            body("%s[%s] = %s;" % (a, i, g.expr(t, env + [(i, "i32")], 2, reads)))
            body.close()
            g.feat("array_write_loop")
        if g.chance(0.5):
            op = g.pick(["+=", "-=", "*="])
            body("%s[%s] %s %s;" % (a, self.index(g.lane_vars, n), op, g.expr(t, env, 1, reads)))
            g.feat("array_compound")
        own = (lambda a=a: "%s[%s]" % (a, self.index(g.lane_vars, n)), t)
        if g.chance(0.4):
            rev = self.helper_rev(t, n)
            r = g.fresh("rv")
            body("let %s = %s(%s);" % (r, rev, a))
            own = (lambda r=r: "%s[%s]" % (r, self.index(g.lane_vars, n)), t)
        reads.append(own)
        used = []  # values the stored value must read (no unused variable)
        if g.chance(0.4):
            s = g.fresh("sm")
            body("let %s = %s(%s);" % (s, self.helper_sum(t, n), a))
            used.append(s)
        if g.chance(0.3):
            m = g.fresh("m2")
            body("let %s = [[%s, %s], [%s, %s]];" % (m, lvars[0], bvars[0], bvars[0], lvars[0]))
            g.feat("array_2d")
            eq = g.fresh("eq")
            body("let %s = %s == [[%s, %s], [%s, %s]];" % (eq, m, bvars[0], lvars[0], lvars[0], bvars[0]))
            g.feat("array_eq")
            env.append(("%s[%d][%d]" % (m, g.ri(0, 1), g.ri(0, 1)), "i32"))
            used.append("(if %s { %s } else { %s })" % (eq, g.expr(t, env, 1, reads), g.expr(t, env, 1, reads)))
        val = g.expr(t, env, g.ri(1, 3), reads)
        for u in used:
            val = "(%s + %s)" % (val, u)
        loops = blocks + lanes
        shape = [e for (_, _, e) in loops]
        out = g.fresh("out")
        body("%s%s = %s;" % (out, "".join("[%s]" % v for (v, _, _) in loops), val))
        g.close_n(body, len(loops))
        g.lane_vars = None
        back = g.output_region(w, pre, body, out, t, shape)
        # a host array of some results, printed as Rust prints it
        picks = ["%s%s" % (back, "".join("[%d]" % g.ri(0, d - 1) for d in shape)) for _ in range(g.ri(1, 4))]
        w('println!("%s: {:?}", [%s]);' % (g.fresh("arr"), ", ".join(picks)))
        g.feat("array_print_debug")


def section(g, w):
    ArraySection(g).run(w)


def error_oob(g, w, out, nb, nl):
    """The body of sec_error's lane loop for `array_oob`: a pass's array read past its length."""
    n = g.pick([4, 8, 16])
    w("let a = [l; %d];" % n)
    w("%s[b][l] = a[l + %d];" % (out, g.ri(max(1, n - nl + 1), n)))
