"""The race oracle: kernels whose stores may collide, and the truth decided by enumeration.

Each mutant is one region: block loops, lane loops, perhaps a plain loop inside, a guard, and a
store `out[IDX] = …` (perhaps with a read `out[IDX2]` in the same phase). IDX is an expression
tree evaluated here with the exact integer semantics of Vx (spec/semantics.md §4: every `+ - *`
and `<<` wraps at its type's width in two's complement, `|` and `^` act on those bits, `/` rounds
toward zero, `%` has the sign of the left operand, `as` between integers keeps the value modulo
2^bits). Nothing from src/check or src/rules is used: the truth is the set of elements each pass
of the region touches, over every pass.

A pass is one value of the block and lane variables (plain loops inside a lane are the same
pass). Two passes collide when one writes an element the other writes or reads (every two passes
of one region here run at the same time: different blocks, or different lanes of one phase).
An index outside its dimension stops the program before the store, so it touches nothing.
"""

import random

BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}
SIGNED = {"i8", "i16", "i32", "i64"}


def wrap(v, t):
    n = BITS[t]
    v &= (1 << n) - 1
    if t in SIGNED and v >= 1 << (n - 1):
        v -= 1 << n
    return v


class E:
    """An integer expression: op in v (variable), c (constant), + - * / % | ^ <<, as (cast)."""

    def __init__(self, op, t, a=None, b=None, name=None, value=None):
        self.op, self.t, self.a, self.b, self.name, self.value = op, t, a, b, name, value

    def ev(self, env):
        op = self.op
        if op == "v":
            return env[self.name]
        if op == "c":
            return self.value
        if op == "as":
            return wrap(self.a.ev(env), self.t)
        if op in ("dbg", "ifsame", "call", "via"):
            return self.a.ev(env)
        if op == "mutacc":  # `let mut ix = a; ix += b;` and then `ix`
            return wrap(self.a.ev(env) + self.b.ev(env), self.t)
        x, y = self.a.ev(env), self.b.ev(env)
        if op == "+":
            return wrap(x + y, self.t)
        if op == "-":
            return wrap(x - y, self.t)
        if op == "*":
            return wrap(x * y, self.t)
        if op in ("|", "^"):  # Python's ints act as infinitely sign-extended two's complement
            return wrap(x | y if op == "|" else x ^ y, self.t)
        if op == "<<":  # by a constant below the type's bits
            return wrap(x << y, self.t)
        if y == 0:
            raise ZeroDivisionError
        q = abs(x) // abs(y)
        if (x < 0) != (y < 0):
            q = -q
        if op == "/":
            return wrap(q, self.t)
        return wrap(x - q * y, self.t)

    def text(self):
        op = self.op
        if op == "v":
            return self.name
        if op == "c":
            if self.value < 0:
                return "(%d%s)" % (self.value, self.t)
            return "%d%s" % (self.value, self.t) if self.t != "i32" else str(self.value)
        if op == "as":
            return "(%s as %s)" % (self.a.text(), self.t)
        if op == "dbg":
            return "dbg!(%s)" % self.a.text()
        if op == "ifsame":  # the same index in both arms, the second commuted
            return "(if %s { %s } else { %s })" % (self.name, self.a.text(), self.b.text())
        if op == "call":  # a helper that returns a's value from the variables it names
            return "%s(%s)" % (self.name, ", ".join(n for n, _ in self.value))
        if op in ("mutacc", "via"):  # via: a local a call gave a's value (ThroughMutant)
            return self.name
        return "(%s %s %s)" % (self.a.text(), op, self.b.text())

    def helpers(self):
        """The definitions of the helpers this expression calls."""
        out = []
        if self.op == "call":
            out.append("fn %s(%s) -> %s {\n    %s\n}" % (
                self.name, ", ".join("%s: %s" % nt for nt in self.value), self.t, self.a.text()))
        for x in (self.a, self.b):
            if isinstance(x, E):
                out += x.helpers()
        return out


def commuted(e):
    """e with the operands of every + * | ^ swapped: the same value, another text."""
    if e.op in ("v", "c"):
        return e
    a = commuted(e.a) if isinstance(e.a, E) else e.a
    b = commuted(e.b) if isinstance(e.b, E) else e.b
    if e.op in ("+", "*", "|", "^"):
        a, b = b, a
    return E(e.op, e.t, a, b, e.name, e.value)


def V(name, t="i32"):
    return E("v", t, name=name)


def C(value, t="i32"):
    return E("c", t, value=wrap(value, t))


def B(op, a, b):
    assert a.t == b.t, (a.t, b.t)
    return E(op, a.t, a, b)


def cast(a, t):
    return a if a.t == t else E("as", t, a)


class Loop:
    def __init__(self, name, kind, lo, hi, t="i32", lanes=None, inclusive=False, adapters=()):
        self.name, self.kind, self.lo, self.hi, self.t, self.lanes, self.inclusive = name, kind, lo, hi, t, lanes, inclusive
        # a plain loop's `.rev()` / `.step_by(k)` (spec/semantics.md §3), in order: ("rev",) or ("step", k)
        self.adapters = list(adapters)

    def values(self):
        r = range(self.lo, self.hi)  # hi is exclusive here
        for a in self.adapters:  # Rust's adapters: `.rev()` is [::-1], `.step_by(k)` is [::k]
            r = r[::-1] if a[0] == "rev" else r[::a[1]]
        return r

    def values_in(self, env):
        """The values in a pass whose outer loops' variables are `env` (runtime_shapes.py has loops
        whose start depends on them)."""
        return self.values()

    def bounds_text(self):
        """`lo..hi` as the loop's header writes it."""
        sfx = "" if self.t == "i32" else self.t
        if self.inclusive:
            return "%d%s..=%d%s" % (self.lo, sfx, self.hi - 1, sfx)
        return "%d%s..%d%s" % (self.lo, sfx, self.hi, sfx)

    def header(self):
        rng = self.bounds_text()
        if self.adapters:
            rng = "(%s)%s" % (rng, "".join(".rev()" if a[0] == "rev" else ".step_by(%d)" % a[1] for a in self.adapters))
        if self.kind == "blocks":
            return "for %s in %s across blocks" % (self.name, rng)
        if self.kind == "lanes":
            return "for %s in %s across lanes%s" % (self.name, rng, "(%d)" % self.lanes if self.lanes else "")
        return "for %s in %s" % (self.name, rng)


class Mutant:
    def __init__(self, loops, dims, idx, guard=None, read=None, klass="", note=""):
        self.loops, self.dims, self.idx, self.guard, self.read = loops, dims, idx, guard, read
        self.klass, self.note = klass, note

    def items(self):
        """Lines of the items before `main` (none here; the helpers of a call mutant, calls.py)."""
        return []

    def before_loop(self, k):
        """Lines before the header of loop k (none here; a row reference, calls.py)."""
        return []

    def index_prelude(self):
        """The statements before the store that its first index needs: `let mut ix = a; ix += b;`."""
        e = self.idx[0] if self.idx else None
        if e is None or e.op != "mutacc":
            return ""
        return "let mut %s: %s = %s; %s += %s; " % (e.name, e.t, e.a.text(), e.name, e.b.text())

    def statement(self):
        """The innermost statement: the store (and the read) under the guard."""
        pre = self.index_prelude()
        store = "out%s" % "".join("[%s]" % e.text() for e in self.idx)
        val = "1"
        if self.read is not None:
            val = "out%s + 1" % "".join("[%s]" % e.text() for e in self.read)
        st = pre + "%s = %s;" % (store, val)
        if self.guard is not None:
            st = "if %s { %s }" % (self.guard[0], st)
        return st

    def helper_defs(self):
        """The helpers the store's and the read's indices call."""
        out = []
        for e in list(self.idx) + list(self.read or []):
            for h in e.helpers():
                if h not in out:
                    out.append(h)
        return out

    def text(self):
        lines = ["// vx smith race mutant: %s %s" % (self.klass, self.note)] + self.helper_defs() + self.items() + ["fn main() {",
                 "    let mut out = transfer(Tensor<i32, [%s]>::fill(0), Memory::HBM);" % ", ".join(map(str, self.dims))]
        lines += self.region_lines() + self.checksum_lines()
        return "\n".join(lines) + "\n"

    def region_lines(self):
        """`spawn on(Topology::Device) { LOOPS { STATEMENT } }`, indented for main's body."""
        lines = ["    spawn on(Topology::Device) {"]
        ind = 2
        for k, lp in enumerate(self.loops):
            lines += ["    " * ind + x for x in self.before_loop(k)]
            lines.append("    " * ind + lp.header() + " {")
            ind += 1
        lines.append("    " * ind + self.statement())
        for _ in self.loops:
            ind -= 1
            lines.append("    " * ind + "}")
        return lines + ["    }"]

    def checksum_lines(self):
        """The tensor back to the host and a hash of every element printed, closing main."""
        lines = ["    let r = transfer(out, Memory::CPU_DRAM);", "    let mut s: i64 = 0;"]
        if len(self.dims) == 1:
            lines.append("    for i in 0..%d { s = s * 31 + (r[i] as i64); }" % self.dims[0])
        else:
            lines.append("    for i in 0..%d { for j in 0..%d { s = s * 31 + (r[i][j] as i64); } }" % tuple(self.dims))
        return lines + ['    println!("{}", s);', "}"]

    def truth(self, limit=1 << 18):
        """(collides, witness or None, out_of_bounds: bool); None when too many passes."""
        par = [lp for lp in self.loops if lp.kind != "plain"]
        n = 1
        for lp in self.loops:
            n *= max(0, lp.hi - lp.lo)
        if n > limit:
            return None
        writer = {}
        readers = {}
        oob = False

        def element(exprs, env):
            el = []
            for e, d in zip(exprs, self.dims):
                v = e.ev(env)
                if v < 0 or v >= d:
                    return None
                el.append(v)
            return tuple(el)

        def rec(k, env):
            nonlocal oob
            if k == len(self.loops):
                if self.guard is not None and not self.guard[1](env):
                    return None
                p = tuple(env[lp.name] for lp in par)
                if self.read is not None:
                    try:
                        r = element(self.read, env)
                    except ZeroDivisionError:
                        r = None
                    if r is None:
                        oob = True
                    else:
                        readers.setdefault(r, set()).add(p)
                try:
                    w = element(self.idx, env)
                except ZeroDivisionError:
                    w = None
                if w is None:
                    oob = True
                    return None
                if w in writer and writer[w] != p:
                    return ("write", writer[w], p, w)
                writer.setdefault(w, p)
                return None
            lp = self.loops[k]
            for v in lp.values_in(env):
                env[lp.name] = v
                hit = rec(k + 1, env)
                if hit:
                    return hit
            return None

        hit = rec(0, dict(getattr(self, "env0", {})))  # env0: a kernel's parameters
        if hit:
            return True, hit, oob
        for el, ps in readers.items():
            if el in writer and any(q != writer[el] for q in ps):
                q = next(q for q in ps if q != writer[el])
                return True, ("read", writer[el], q, el), oob
        return False, None, oob


# ---- the mutants

def _lin(terms, t="i32"):
    """Sum of (coefficient, expr) with coefficient 1 left out."""
    e = None
    for c, x in terms:
        term = x if c == 1 else B("*", x, C(c, t))
        e = term if e is None else B("+", e, term)
    return e


KLASSES = ["coef_lowered", "shift", "digit_dropped", "divmod_changed", "wrap_i32", "wrap_i64", "wrap_u8",
           "wrap_u16", "neighbour_read", "swapped", "random_coefs", "exact"]


def _wrap_guard(seed, m, nb):
    """The guard of a wrap mutant, `b % m == 0`; now and then with `|| b == X`, or as the `!` of an
    `&&`, which the notes follow as one side or the other (kernel-rules.md §4; notes.py checks the
    pair a note names against it). From its own generator, so that the rest of the seed's mutant is
    unchanged."""
    g = random.Random(seed * 7919 + 13)
    form, x = g.random(), g.randrange(nb)
    if form < 0.25:
        return ("b %% %d == 0 || b == %d" % (m, x), lambda env: env["b"] % m == 0 or env["b"] == x)
    if form < 0.5:
        return ("!(b %% %d != 0 && b != %d)" % (m, x), lambda env: not (env["b"] % m != 0 and env["b"] != x))
    return ("b %% %d == 0" % m, lambda env: env["b"] % m == 0)


def as_bits(e, g):
    """`e` (a sum) with one of its `+` written `|` or `^`, and now and then a product by 2^s as `<< s`:
    the same value where the two sides' bits do not meet, another where they do
    (kernel-rules.md §4 step 1, value ranges). From the mutant's own generator `g`."""
    def walk(x, pred, out):
        if isinstance(x, E) and x.op not in ("v", "c"):
            if pred(x):
                out.append(x)
            walk(x.a, pred, out)
            walk(x.b, pred, out)
        return out

    def rebuilt(x, target, make):
        if x is target:
            return make(x)
        if not isinstance(x, E) or x.op in ("v", "c"):
            return x
        return E(x.op, x.t, rebuilt(x.a, target, make), rebuilt(x.b, target, make), x.name, x.value)

    sums = walk(e, lambda x: x.op == "+", [])
    e = rebuilt(e, g.choice(sums), lambda x: E(g.choice(["|", "|", "^"]), x.t, x.a, x.b))
    powers = walk(e, lambda x: x.op == "*" and x.b.op == "c" and x.b.value > 1 and
                  x.b.value & (x.b.value - 1) == 0, [])
    if powers and g.random() < 0.5:
        e = rebuilt(e, g.choice(powers),
                    lambda x: E("<<", x.t, x.a, C(x.b.value.bit_length() - 1, x.t)))
    return e


def mutant(seed):
    """One kernel (racy or not), from a race-free base and one mutation."""
    r = random.Random(seed * 7919 + 17)
    klass = r.choice(KLASSES)
    nb = r.choice([2, 3, 4, 5, 8])
    nl = r.choice([4, 7, 8, 16, 32, 64])
    k = r.choice([1, 1, 2, 3])
    b = V("b")
    l = V("l")
    kv = V("k")
    loops = [Loop("b", "blocks", 0, nb), Loop("l", "lanes", 0, nl, lanes=r.choice([None, None, 4, 16]))]
    if k > 1:
        # now and then reversed or stepped: its values are some of 0..k, which the rules take whole
        # (an own generator, so that the other choices of the seed stay as they were)
        ra = random.Random(seed * 104729 + 11)
        adapters = ra.choice([(), (), (), (("rev",),), (("step", 2),), (("rev",), ("step", 2)), (("step", 2), ("rev",))])
        loops.append(Loop("k", "plain", 0, k, adapters=adapters))
    base = [(nl * k, b), (k, l)] + ([(1, kv)] if k > 1 else [])
    dims = [nb * nl * k]
    guard = None
    read = None
    note = ""
    if klass == "exact":
        idx = [_lin(base)]
    elif klass == "coef_lowered":
        j = r.randrange(len(base))
        c, x = base[j]
        base[j] = (max(0, c - r.choice([1, 1, c // 2 if c > 1 else 1])), x)
        base = [(c, x) for (c, x) in base if c != 0] or [(1, b)]
        idx = [_lin(base)]
    elif klass == "shift":
        j = r.randrange(len(base))
        c, x = base[j]
        base[j] = (c, B("+", x, C(r.choice([1, -1]))))
        idx = [_lin(base)]
    elif klass == "digit_dropped":
        j = r.randrange(len(base))
        base.pop(j)
        idx = [_lin(base) if base else C(0)]
    elif klass == "divmod_changed":
        q = r.choice([2, 4, 8])
        if nl % q:
            nl = q * 4
            loops[1] = Loop("l", "lanes", 0, nl)
            base = [(nl * k, b), (k, l)] + ([(1, kv)] if k > 1 else [])
            dims = [nb * nl * k]
        # l as (l / q) * q + l % q, then one of the parts changed
        hi, lo = B("/", l, C(q)), B("%", l, C(q))
        change = r.choice(["div", "mod", "coef", "both_div", "none"])
        note = change
        if change == "div":
            hi = B("/", l, C(q * 2))
        elif change == "mod":
            lo = B("%", l, C(max(1, q // 2)))
        elif change == "both_div":
            lo = B("/", l, C(q))
        coef = q if change != "coef" else q - 1
        lane = B("+", B("*", hi, C(coef)), lo)
        base[1] = (k, lane)
        idx = [_lin(base)]
    elif klass == "wrap_i32":
        # out[b * 2^30 + l] with blocks 0 and 4 meeting (4 * 2^30 wraps to 0 in i32)
        nb = 8
        loops[0] = Loop("b", "blocks", 0, nb)
        loops = loops[:2]
        dims = [nl]
        sh = r.choice([30, 29, 31, 28])
        idx = [B("+", B("*", b, C(1 << sh)), l)]
        m = r.choice([4, 2, 8])
        guard = _wrap_guard(seed, m, nb)
        note = "2^%d, %s" % (sh, guard[0])
    elif klass == "wrap_i64":
        nb = 8
        loops[0] = Loop("b", "blocks", 0, nb)
        loops = loops[:2]
        dims = [nl]
        sh = r.choice([62, 61, 63])
        bi = cast(b, "i64")
        idx = [B("+", B("*", bi, C(1 << sh, "i64")), cast(l, "i64"))]
        m = r.choice([4, 2, 8])
        guard = _wrap_guard(seed, m, nb)
        note = "2^%d, %s" % (sh, guard[0])
    elif klass == "wrap_u8":
        u = V("l", "u8")
        c = r.choice([2, 3, 4, 1])
        loops = [Loop("b", "blocks", 0, 1), Loop("l", "lanes", 0, 256, t="u8", inclusive=True)]
        dims = [256 * 4]
        idx = [cast(B("*", u, C(c, "u8")), "i32")]
        note = "l * %du8" % c
    elif klass == "wrap_u16":
        u = V("l", "u16")
        c = r.choice([256, 512, 255, 1024])
        loops = [Loop("b", "blocks", 0, 1), Loop("l", "lanes", 0, 256, t="u16")]
        dims = [1 << 18]
        idx = [cast(B("*", u, C(c, "u16")), "i32")]
        note = "l * %du16" % c
    elif klass == "neighbour_read":
        idx = [_lin(base)]
        sh = r.choice([1, -1, nl * k])
        read = [B("+", _lin(base), C(sh))]
        note = "read at %+d" % sh
    elif klass == "swapped":
        # the coefficients of b and l exchanged (proved when the lanes count the coarse digit)
        base = [(k, b), (nb * k, l)] + ([(1, kv)] if k > 1 else [])
        if r.random() < 0.5:
            base[0] = (k, b)
            base[1] = (max(1, nb * k - 1), l)
        idx = [_lin(base)]
    else:  # random_coefs
        cs = [r.randint(0, nl * k + 2) for _ in base]
        base = [(c, x) for c, (_, x) in zip(cs, base) if c]
        idx = [_lin(base) if base else C(0)]
        dims = [max(1, sum(c * ((nb if x is b else nl if x is l else k) - 1) for c, x in base) + 1)]
        note = str(cs)
    bits = random.Random(seed * 1000003 + 29)
    if bits.random() < 0.15 and klass not in ("wrap_u8", "wrap_u16") and idx[0].op == "+":
        idx = [as_bits(idx[0], bits)]
        note += " bits"
    if r.random() < 0.2 and klass not in ("wrap_u8", "wrap_u16", "wrap_i32", "wrap_i64", "neighbour_read"):
        # the same offsets as a 2-D tensor: out[o / W][o % W]
        total = dims[0]
        wd = r.choice([w for w in (2, 4, 8, 16) if total % w == 0] or [1])
        if wd > 1:
            o = idx[0]
            idx = [B("/", o, C(wd)), B("%", o, C(wd))]
            dims = [total // wd, wd]
            note += " 2-D"
    # now and then the store's first index under `dbg!`, which the rules prove as its argument
    # (kernel-rules.md §3): an own generator, so that the rest of the seed's mutant is unchanged
    if random.Random(seed * 15485863 + 3).random() < 0.1:
        idx = [E("dbg", idx[0].t, idx[0])] + idx[1:]
        note += " dbg!"
    # now and then the store's first index in an `if` whose arms are it and it commuted, or
    # returned by a helper (kernel-rules.md §4 step 1): own generators, as for dbg!
    form = random.Random(seed * 2654435761 + 7).random()
    if form < 0.08:
        idx = [E("ifsame", idx[0].t, idx[0], commuted(idx[0]), name="b >= 0")] + idx[1:]
        note += " if-same"
    elif form < 0.16:
        params = [(lp.name, lp.t) for lp in loops]
        idx = [E("call", idx[0].t, idx[0], name="ix", value=params)] + idx[1:]
        note += " helper"
    elif form < 0.24 and idx[0].op == "+":
        idx = [E("mutacc", idx[0].t, idx[0].a, idx[0].b, name="ix")] + idx[1:]
        note += " let-mut"
    return Mutant(loops, dims, idx, guard, read, klass, note)


# ---- programs that break a rule other than disjointness: vx must refuse each (any code)

_REFUSE = {
    "refuse_lanes_0": "for l in 0..4 across lanes(0) { out[b * 4 + l] = 1; }",
    "refuse_lanes_1025": "for l in 0..1025 across lanes { out[b] = 1; }",
    "refuse_lanes_n_1025": "for l in 0..4 across lanes(1025) { out[b * 4 + l] = 1; }",
    "refuse_sum_of_hbm": "let s = lanes::sum(&src, 4); out[b * 4] = s;",
    "refuse_max_of_hbm": "let s = lanes::max(&src, 4); out[b * 4] = s;",
    "refuse_argmax_of_hbm": "let s = lanes::argmax(&src, 4); out[b * 4] = s;",
    "refuse_sort_of_hbm": "lanes::sort(&mut lsrc, 4);",
    "refuse_sum_not_let": "let mut t = unsafe { Tensor<i32, [4], Memory::SMEM>::uninit() }; "
                          "for l in 0..4 across lanes { t[l] = l; } out[b * 4] = lanes::sum(&t, 4);",
    "refuse_sum_in_lanes": "let mut t = Tensor<i32, [4], Memory::SMEM>::fill(1); "
                           "for l in 0..4 across lanes { let s = lanes::sum(&t, 4); out[b * 4 + l] = s; }",
    "refuse_sort_f32": "let mut t = Tensor<f32, [4], Memory::SMEM>::fill(1.0); lanes::sort(&mut t, 4);",
    "refuse_sort_not_pow2": "let mut t = Tensor<i64, [6], Memory::SMEM>::fill(1); lanes::sort(&mut t, 6);",
    "refuse_tile_too_big": "let mut t = Tensor<f32, [60000], Memory::SMEM>::fill(1.0); "
                           "for l in 0..4 across lanes { out[b * 4 + l] = t[l] as i32; }",
    "refuse_println_in_lanes": "for l in 0..4 across lanes { println!(\"{}\", l); }",
    "refuse_break_across": "for l in 0..4 across lanes { if l == 2 { break; } out[b * 4 + l] = 1; }",
    "refuse_write_outer_var": "let mut acc = 0; for l in 0..4 across lanes { acc = l; } out[b * 4] = acc;",
    "refuse_token_dropped": "let mut t = unsafe { Tensor<f32, [4], Memory::SMEM>::uninit() }; "
                            "let tok = lanes::copy_async(&mut t, &fsrc, [0]);",
    "refuse_tile_read_before_wait": "let mut t = unsafe { Tensor<f32, [4], Memory::SMEM>::uninit() }; "
                                    "let tok = lanes::copy_async(&mut t, &fsrc, [0]); let x = t[0]; tok.wait(); "
                                    "out[b * 4] = x as i32;",
    "refuse_atomic_i8": "let _a = atomic_fetch_add_i8(&small, 0, 1, AtomicOrdering::Relaxed);",
    "refuse_lanes_in_lanes_if": "for l in 0..4 across lanes { if l < 2 { for m in 0..2 across lanes { out[b * 4 + l] = m; } } }",
    "refuse_block_in_lanes": "for l in 0..4 across lanes { for c in 0..2 across blocks { out[c] = 1; } }",
    "refuse_copy_async_i32": "let mut t = unsafe { Tensor<i32, [4], Memory::SMEM>::uninit() }; "
                             "let tok = lanes::copy_async(&mut t, &src, [0]); tok.wait();",
}


# ---- an index part of which a call gives: a tuple's scalar, a `&mut` struct's field coming back,
# or a helper's integer value (kernel-rules.md §4 step 1). The first two are locals the call
# writes, which the rules must not take for the 0 they are declared with: the part may cancel
# the lane's own digit (x + (0 - x)), and then every lane writes one element. The rules read them
# from the helper's body, when they can follow it: its top level, run once and in order. The
# helper's body takes a shape (drawn with a generator of its own): plainly the value; through a
# second helper (`nested`); added to a local or field that starts at 0 (`acc`); a field of a
# nested tuple (`field`: `(thru(b, l).1).0`); the helper's own value after it sets the field
# (`ret`); after a `return` in an `if` that never runs (`early`), or assigned inside an `if` that
# always does (`in_if`), which the rules do not follow, so that what they refuse there is by
# design.

THROUGH = ["tuple", "struct", "helper"]
SHAPES = {"tuple": ["plain", "nested", "acc", "early", "field"],
          "struct": ["plain", "nested", "acc", "in_if", "ret"], "helper": ["plain"]}


class ThroughMutant(Mutant):
    def __init__(self, loops, dims, lane, part, how, note, shape="plain"):
        via = E("via", "i32", part, name="tv.v" if how == "struct" and shape != "ret" else "tv")
        klass = "through_" + how + ("" if shape == "plain" else "_" + shape)
        super().__init__(loops, dims, [B("+", lane, via)], klass=klass, note=note)
        self.part, self.how, self.shape = part, how, shape

    def items(self):
        body, shape = self.part.text(), self.shape
        if self.how == "tuple":
            if shape == "nested":
                return ["fn thru0(b: i32, l: i32) -> (i32, i32) {\n    (0, %s)\n}" % body,
                        "fn thru(b: i32, l: i32) -> (i32, (i32, i32)) {\n    let (z, v) = thru0(b, l);\n"
                        "    (v, (z, 1))\n}"]
            lead = {"acc": "    let mut v = 0;\n    v += %s;\n    (v, 0)" % body,
                    "early": "    if b < 0 {\n        return (1, 0);\n    }\n    (%s, 0)" % body}
            if shape == "field":
                return ["fn thru(b: i32, l: i32) -> (i32, (i32, i32)) {\n    (1, (%s, 0))\n}" % body]
            ret = "(i32, (i32, i32))" if shape == "nested" else "(i32, i32)"
            return ["fn thru(b: i32, l: i32) -> %s {\n%s\n}" % (ret, lead.get(shape, "    (%s, 0)" % body))]
        if self.how == "struct":
            st = "struct Thru {\n    v: i32,\n}"
            if shape == "nested":
                return [st, "fn thru0(c: &mut Thru, b: i32, l: i32) {\n    c.v = %s;\n}" % body,
                        "fn thru(c: &mut Thru, b: i32, l: i32) {\n    thru0(c, b, l);\n}"]
            if shape == "ret":
                return [st, "fn thru(c: &mut Thru, b: i32, l: i32) -> i32 {\n    c.v = %s;\n    c.v + 0\n}" % body]
            lead = {"acc": "    c.v += %s;" % body, "in_if": "    if b >= 0 {\n        c.v = %s;\n    }" % body}
            return [st, "fn thru(c: &mut Thru, b: i32, l: i32) {\n%s\n}" % lead.get(shape, "    c.v = %s;" % body)]
        return ["fn thru(b: i32, l: i32) -> i32 {\n    %s\n}" % body]

    def index_prelude(self):
        if self.how == "tuple":
            return "let tv = (thru(b, l).1).0; " if self.shape == "field" else "let (tv, _) = thru(b, l); "
        if self.how == "struct" and self.shape == "ret":
            return "let mut tc = Thru { v: 0 }; let tv = thru(&mut tc, b, l); "
        if self.how == "struct":
            return "let mut tv = Thru { v: 0 }; thru(&mut tv, b, l); "
        return "let tv = thru(b, l); "


def through_mutant(seed):
    """`out[b * NL + l + tv] = 1`, tv given by a call: 0, a constant, or a value that cancels or
    repeats the lane's digit (a race when it does)."""
    r = random.Random(seed * 6007 + 5)
    nb = r.choice([2, 3, 4])
    nl = r.choice([4, 8, 16, 32])
    how = r.choice(THROUGH)
    b, l = V("b"), V("l")
    loops = [Loop("b", "blocks", 0, nb), Loop("l", "lanes", 0, nl)]
    lane = _lin([(nl, b), (1, l)])
    k = r.randint(1, 3)
    parts = {
        "zero": C(0),
        "const": C(k),
        "neg_lane": B("-", C(0), l),
        "lane_times": B("*", l, C(k)),
        "neg_block": B("-", C(0), B("*", b, C(nl))),
        "lane_mod": B("%", l, C(2)),
        "block": B("*", b, C(k)),
    }
    name = r.choice(sorted(parts))
    shape = random.Random(seed * 7727 + 13).choice(SHAPES[how])
    return ThroughMutant(loops, [nb * nl * 4 + 8], lane, parts[name], how, name, shape)


class Negative:
    def __init__(self, klass):
        self.klass, self.note = klass, ""

    def text(self):
        return "\n".join([
            "// vx smith: must be refused (%s)" % self.klass,
            "fn main() {",
            "    let mut out = transfer(Tensor<i32, [16]>::fill(0), Memory::HBM);",
            "    let mut src = transfer(Tensor<i32, [16]>::fill(2), Memory::HBM);",
            "    let fsrc = transfer(Tensor<f32, [16]>::fill(2.0), Memory::HBM);",
            "    let small = transfer(Tensor<i8, [4]>::fill(0), Memory::HBM);",
            "    let mut lsrc = transfer(Tensor<i64, [16]>::fill(3), Memory::HBM);",
            "    spawn on(Topology::Device) {",
            "        for b in 0..4 across blocks {",
            "            " + _REFUSE[self.klass],
            "        }",
            "    }",
            "    let r = transfer(out, Memory::CPU_DRAM);",
            '    println!("{}", r[0]);',
            "}", ""])

    def truth(self):
        return "refuse"


KLASSES_REFUSE = sorted(_REFUSE)


def any_mutant(seed):
    """A race mutant; or (one seed in eight) a program that breaks another rule; or (one in eight)
    a race mutant whose store is in a helper, (one in sixteen) a call with aliased arguments, or
    (one in sixteen) a store through a row reference (calls.py); (one in sixteen each) a kernel of
    run-time shapes proved index by index, or a grid-stride loop (runtime_shapes.py), or one
    tensor in three phases of a block at other indices (phases.py); (one in sixteen) an index part
    of which a call gives (through_mutant)."""
    from . import calls, phases, runtime_shapes
    if seed % 8 == 7:
        return Negative(KLASSES_REFUSE[(seed // 8) % len(KLASSES_REFUSE)])
    if seed % 8 == 3:
        return calls.call_mutant(seed)
    if seed % 16 == 5:
        return calls.alias_mutant(seed)
    if seed % 16 == 13:
        return calls.row_mutant(seed)
    if seed % 16 == 9:
        return runtime_shapes.dyn2d_mutant(seed)
    if seed % 16 == 1:
        return runtime_shapes.stride_mutant(seed)
    if seed % 16 == 14:
        return phases.phase_mutant(seed)
    if seed % 16 == 6:
        return through_mutant(seed)
    return mutant(seed)
