"""Race mutants made of calls and row references, and calls with aliased arguments (spec/smith.md
§4).

**Stores in a helper** (classes `call_<shape>`): the store of a race mutant (races.py) moves into
a device helper `fn hw(a: &mut Tensor<…>, i: i32, …, v: i32)` that writes `a[i] = v` inside one
shape of device code: an `if`, the `else` of one, a `{ }` block, an arm of a `match`, a
`loop { … break; }`, a `while`, through `let r = &mut a;` made in an `if`, or plainly. The helper
is called from the lane loop of the mutant (with its guard and plain loop), or from block code
(one or two block loops, an index over the blocks), directly or through a second helper that
calls the first inside a shape of its own; now and then the call passes a row,
`hw(&mut out[i], j, v)`. The index is the mutant's E expression over the pass's variables and the
shapes' conditions are on `v`, a pass variable: the truth is the enumeration of races.Mutant,
with the conditions in its guard. Today the kernel rules refuse every call in an across loop that
can write a tensor declared outside it (kernel-rules.md §3.3, E6032) whatever the index, so a
collision-free one refused is imprecision; an accepted collision is a soundness bug.

**Stores through a row reference** (classes `row_ref_block`, `row_ref_lane`): `let r = &mut
out[R];` in block code or in the pass, `r[I] = 1;` in a lane loop or in a lane loop nested in it;
the truth is the enumeration of the element (R, I), and the rules prove such a store at its row.

**Aliased arguments** (classes `alias_<form>`): one call given two references to one tensor,
`k(&mut x, &x)`, `k(&mut x, &mut x)`, a row and the whole (`k(&mut m[0], &m)`), a struct's tensor
field twice, or a reference bound by `let` and the tensor itself; from host code (a `pub fn` with a
lane loop `a[t] = b[t + 1] + 1` inside, which races when the two are one) and from device code (a
tile in block code, an HBM tensor in a lane loop). Each must be refused with E0305 (types.md §4.1,
rustc's "cannot borrow `x` as mutable more than once at a time"); an accepted one is a finding.
"""

import itertools
import random

from .races import B, C, V, Loop, Mutant, cast, mutant

# The shapes of device code a store (or a call) stands in.
SHAPES = ["if", "else", "block", "match", "loop", "while", "let_ref", "plain"]


class CallMutant(Mutant):
    """A race mutant whose store is in the helper `hw` (perhaps called through `hw2`)."""

    def __init__(self, base, shape, outer, cond, row, where, lane_value):
        super().__init__(base.loops, base.dims, base.idx, None, base.read, "call_" + shape, base.note)
        self.shape, self.outer, self.cond, self.row, self.where = shape, outer, cond, row, where
        self.main_guard = base.guard
        self.value = self._value(lane_value)
        conds = [self._holds(shape)] + ([self._holds(outer)] if outer else [])
        mg = base.guard

        def guard(env):
            return (mg is None or mg[1](env)) and all(c(env) for c in conds)

        self.guard = ("", guard)
        used = shape in ("if", "else", "let_ref", "match") or outer in ("if", "else", "let_ref", "match")
        self.note = "; ".join(x for x in [
            "from %s code" % where, "through hw2 (%s)" % outer if outer else "", "if %s" % cond[0] if used else "",
            "a row passed" if row else "", base.note.strip()] if x)

    def truth(self, limit=1 << 18):
        t = super().truth(limit)
        if t is None or not self.row or t[2]:
            return t
        # the row is taken at the call, before the helper's conditions: a row out of its dimension
        # stops the program whatever they say (the truth's collisions stand: it touches nothing)
        for values in itertools.product(*[lp.values() for lp in self.loops]):
            env = {lp.name: v for lp, v in zip(self.loops, values)}
            if self.main_guard is not None and not self.main_guard[1](env):
                continue
            try:
                row = self.idx[0].ev(env)
            except ZeroDivisionError:
                row = -1
            if not 0 <= row < self.dims[0]:
                return t[0], t[1], True
        return t

    def _value(self, last):
        """`v`: the first or the last parallel loop's variable, as i32 (a u8 or u16 lane widens)."""
        par = [lp for lp in self.loops if lp.kind != "plain"]
        lp = par[-1] if last else par[0]
        return cast(V(lp.name, lp.t), "i32")

    def _holds(self, shape):
        """Whether the shape's store runs for the pass: its condition on v, evaluated here with
        the integer semantics of Vx (`if`: the condition; `match`: `v % m` is 0)."""
        text, test, m = self.cond
        if shape == "match":
            vm = B("%", V("v"), C(m))
            return lambda env: vm.ev({"v": self.value.ev(env)}) == 0
        if shape in ("if", "else", "let_ref"):
            return lambda env: test(self.value.ev(env))
        return lambda env: True

    def _wrap(self, shape, body, ind):
        """The lines of `body` (lines) placed in the shape; the condition on `v`."""
        pad = "    " * ind
        inner = ["    " + x for x in body]
        cond = self.cond[0]
        if shape == "if":
            return [pad + "if %s {" % cond] + [pad + x for x in inner] + [pad + "}"]
        if shape == "else":
            return [pad + "if !(%s) {" % cond, pad + "} else {"] + [pad + x for x in inner] + [pad + "}"]
        if shape == "block":
            return [pad + "{"] + [pad + x for x in inner] + [pad + "}"]
        if shape == "match":
            # the arm `0` of `v % m` (the condition is `v % m == 0`)
            return ([pad + "match v %% %d {" % self.cond[2], pad + "    0 => {"] + [pad + "    " + x for x in inner] +
                    [pad + "    }", pad + "    _ => {}", pad + "}"])
        if shape == "loop":
            return [pad + "loop {"] + [pad + x for x in inner] + [pad + "    break;", pad + "}"]
        if shape == "while":
            return ([pad + "let mut n = 0;", pad + "while n < 1 {"] + [pad + x for x in inner] +
                    [pad + "    n += 1;", pad + "}"])
        if shape == "let_ref":
            # a second name of the tensor, made inside the branch, used in its place
            body = [x.replace("a[", "r[").replace("(a,", "(r,") for x in body]
            return ([pad + "if %s {" % cond, pad + "    let r = &mut a;"] + [pad + "    " + x for x in body] +
                    [pad + "}"])
        return [pad + x for x in body]

    def _params(self):
        n = 1 if self.row else len(self.dims)
        idx = ["i%d" % k for k in range(n)]
        reads = ["j%d" % k for k in range(n)] if self.read is not None else []
        ty = "Tensor<i32, [%s], Memory::HBM>" % ", ".join(map(str, self.dims[1:] if self.row else self.dims))
        return ty, idx, reads

    def items(self):
        ty, idx, reads = self._params()
        exprs = (self.idx[1:] if self.row else self.idx) + (self.read or [])
        types = [e.t for e in exprs] + ["i32"]  # an index keeps its type (i64 for the wrap_i64 mutants)
        params = "a: &mut %s, %s" % (ty, ", ".join("%s: %s" % (x, t) for x, t in zip(idx + reads + ["v"], types)))
        val = "v" if not reads else "a%s + v" % "".join("[%s]" % j for j in reads)
        store = "a%s = %s;" % ("".join("[%s]" % i for i in idx), val)
        lines = ["fn hw(%s) {" % params] + self._wrap(self.shape, [store], 1) + ["}"]
        if self.outer:
            call = "hw(a, %s);" % ", ".join(idx + reads + ["v"])
            lines += ["fn hw2(%s) {" % params] + self._wrap(self.outer, [call], 1) + ["}"]
        return lines

    def statement(self):
        ref = "&mut out"
        idx = self.idx
        read = self.read or []
        if self.row:
            ref = "&mut out[%s]" % idx[0].text()
            idx = idx[1:]
        args = [ref] + [e.text() for e in idx + read] + [self.value.text()]
        st = self.index_prelude() + "%s(%s);" % ("hw2" if self.outer else "hw", ", ".join(args))
        if self.main_guard is not None:
            st = "if %s { %s }" % (self.main_guard[0], st)
        return st


def _condition(r):
    """A condition on `v`: (the `if`'s text, its test of v's value, the m of the `match` on
    `v % m`, whose arm `0` holds the store)."""
    m = r.choice([2, 3, 4])
    if r.random() < 0.3:
        return ("v >= 0", lambda v: v >= 0, m)
    vm = B("%", V("v"), C(m))
    return ("v %% %d == 0" % m, lambda v: vm.ev({"v": v}) == 0, m)


def _block_base(r):
    """A store in block code: one or two block loops and an index over the blocks."""
    nb = r.choice([2, 3, 4, 8])
    b = V("b")
    form = r.choice(["same", "own", "half", "mod", "scaled", "grid", "grid_sum", "rows"])
    loops = [Loop("b", "blocks", 0, nb)]
    dims, idx = [nb], [b]
    if form == "same":  # every block writes x[0] (the example)
        dims, idx = [8], [C(0)]
    elif form == "half":
        idx = [B("/", b, C(2))]
    elif form == "mod":
        dims, idx = [3], [B("%", b, C(3))]
    elif form == "scaled":
        dims, idx = [2 * nb + 1], [B("+", B("*", b, C(2)), C(r.choice([0, 1])))]
    elif form in ("grid", "grid_sum"):
        nc = r.choice([2, 3])
        loops.append(Loop("c", "blocks", 0, nc))
        c = V("c")
        if form == "grid":
            dims, idx = [nb * nc], [B("+", B("*", b, C(nc)), c)]
        else:
            dims, idx = [nb + nc], [B("+", b, c)]
    elif form == "rows":
        w = r.choice([2, 4])
        dims, idx = [nb, w], [b, C(r.randrange(w))]
    return Mutant(loops, dims, idx, note="block " + form)


def call_mutant(seed):
    r = random.Random(seed * 4391 + 3)
    shape = r.choice(SHAPES)
    outer = r.choice(SHAPES) if r.random() < 0.4 else None
    where = "lane" if r.random() < 0.6 else "block"
    base = mutant(seed) if where == "lane" else _block_base(r)
    row = len(base.dims) == 2 and base.read is None and r.random() < 0.5
    m = CallMutant(base, shape, outer, _condition(r), row, where, r.random() < 0.5)
    if where == "lane":
        m.note += "; the store of a %s mutant" % base.klass
    return m


# ---- stores through a row reference

class RowMutant(Mutant):
    """`let r = &mut out[R];` in block code (or in each pass of the lane loop) and `r[I] = 1;` in a
    lane loop, or in a lane loop nested in it: the element (R, I) of a 2-D tensor."""

    def __init__(self, loops, dims, idx, where, note):
        super().__init__(loops, dims, idx, klass="row_ref_" + where, note=note)
        self.where = where

    def before_loop(self, k):
        if self.where == "block" and self.loops[k].kind == "lanes" and self.loops[k - 1].kind == "blocks":
            return ["let r = &mut out[%s];" % self.idx[0].text()]
        return []

    def statement(self):
        store = "r[%s] = 1;" % self.idx[1].text()
        return store if self.where == "block" else "let r = &mut out[%s]; %s" % (self.idx[0].text(), store)


def row_mutant(seed):
    r = random.Random(seed * 6007 + 7)
    nb, nl = r.choice([2, 3, 4]), r.choice([4, 8, 16])
    b, l, m = V("b"), V("l"), V("m")
    loops = [Loop("b", "blocks", 0, nb), Loop("l", "lanes", 0, nl)]
    nm = 1
    if r.random() < 0.4:
        nm = r.choice([2, 4])
        loops.append(Loop("m", "lanes", 0, nm))  # a lane loop nested in the lane loop
    rows, row = r.choice([(nb, b), (nb, B("/", b, C(2))), (2, B("%", b, C(2))), (1, C(0)), (nb + 1, B("+", b, C(1)))])
    w = nl * nm
    inner = [(w, l if nm == 1 else B("+", B("*", l, C(nm)), m)), (w, B("/", l, C(2))), (4, B("%", l, C(4))),
             (w + 1, B("+", l, C(1)))]
    if nm > 1:
        inner += [(w, B("+", B("*", m, C(nl)), l)), (w, B("+", l, m)), (nl, l)]
    w, col = r.choice(inner)
    where = r.choice(["block", "block", "lane"])
    return RowMutant(loops, [rows, w], [row, col], where,
                     "rows %s, %s%s" % (row.text(), col.text(), ", nested lanes" if nm > 1 else ""))


# ---- calls with aliased arguments: refused with E0305

_LANE = "for l in 0..N across lanes {\n                %s\n            }"
# form: (the helpers it calls, the call, the call of its control: two tensors, which vx accepts,
# or None where no such call is accepted: a call in a lane loop that writes an outer tensor)
_ALIAS = {
    # from host code: a `pub fn` whose lane loop reads `b` one element past what it writes of `a`
    "host_mut_shared": ("k", "k(&mut x, &x);", "k(&mut x, &y);"),
    "host_mut_mut": ("km", "km(&mut x, &mut x);", "km(&mut x, &mut y);"),
    "host_let_shared": ("k", "let r = &x;\n    k(&mut x, r);", "let r = &y;\n    k(&mut x, r);"),
    "host_let_mut": ("k", "let r = &mut x;\n    k(r, &x);", "let r = &mut x;\n    k(r, &y);"),
    # host code on CPU_DRAM tensors: a row and the whole, one row twice, a struct's field twice
    "host_row_whole": ("kcr", "kcr(&mut c[0], &c);", "kcr(&mut c[0], &d);"),
    "host_row_row": ("kc", "kc(&mut c[1], &c[1]);", "kc(&mut c[1], &d[1]);"),
    "host_field": ("kc", "kc(&mut p.w, &p.w);", "kc(&mut p.w, &q.w);"),
    # device code: the block's tile in block code, an HBM tensor (or a row of it) in a lane loop
    "device_tile": ("kt", "kt(&mut t, &t, 0);", "kt(&mut t, &u, 0);"),
    "device_tile_mut_mut": ("ktm", "ktm(&mut t, &mut t, 1);", "ktm(&mut t, &mut u, 1);"),
    "device_tile_row_whole": ("ktr", "ktr(&mut t2[0], &t2, 0);", "ktr(&mut t2[0], &u2, 0);"),
    "device_hbm_lane": ("kh", _LANE % "kh(&mut x, &x, b * N + l);", None),
    "device_hbm_row_lane": ("khr", _LANE % "khr(&mut m[b], &m, l);", None),
}
ALIAS_FORMS = sorted(_ALIAS)


class AliasMutant:
    """A call given two references to one tensor: vx must refuse it with E0305."""

    expect = "E0305"

    def __init__(self, form, n, nb):
        self.form, self.n, self.nb = form, n, nb
        self.klass, self.note = "alias_" + form, "n %d, %d blocks" % (n, nb)

    def truth(self):
        return "refuse"

    def helper(self, name):
        n, tot = self.n, self.n * self.nb
        hbm = "Tensor<i32, [%d], Memory::HBM>" % tot
        if name in ("k", "km"):
            second = "&mut " if name == "km" else "&"
            return ["pub fn %s(a: &mut %s, b: %s%s) {" % (name, hbm, second, hbm), "    spawn on(Topology::Device) {",
                    "        for bb in 0..%d across blocks {" % self.nb,
                    "            for t in 0..%d across lanes {" % n,
                    "                a[bb * %d + t] = b[(bb * %d + t + 1) %% %d] + 1;" % (n, n, tot),
                    "            }", "        }", "    }", "}"]
        if name in ("kc", "kcr"):
            b = "&Tensor<i32, [2, %d]>" % tot if name == "kcr" else "&Tensor<i32, [%d]>" % tot
            return ["fn %s(a: &mut Tensor<i32, [%d]>, b: %s) {" % (name, tot, b), "    for t in 0..%d {" % (tot - 1),
                    "        a[t] = b%s[t + 1] + 1;" % ("[0]" if name == "kcr" else ""), "    }", "}"]
        smem = "Tensor<i32, [%d], Memory::SMEM>" % n
        params = {"kt": (smem, "&" + smem, ""), "ktm": (smem, "&mut " + smem, ""),
                  "ktr": (smem, "&Tensor<i32, [2, %d], Memory::SMEM>" % n, "[1]"),
                  "kh": (hbm, "&" + hbm, ""),
                  "khr": ("Tensor<i32, [%d], Memory::HBM>" % n, "&Tensor<i32, [%d, %d], Memory::HBM>" % (self.nb, n),
                          "[0]")}
        a, b, row = params[name]
        size = tot if name == "kh" else n
        return ["fn %s(a: &mut %s, b: %s, i: i32) {" % (name, a, b),
                "    a[i] = b%s[(i + 1) %% %d] + 1;" % (row, size), "}"]

    def text(self, control=False):
        """The program; with `control`, the same with two tensors where the call had one."""
        n, nb, tot = self.n, self.nb, self.n * self.nb
        name, call, other = _ALIAS[self.form]
        call = (other if control else call).replace("N", str(n))
        lines = ["// vx smith: must be refused with E0305 (%s)%s" % (self.klass, ", control" if control else "")]
        if self.form.startswith("host_"):
            if self.form == "host_field":
                lines += ["struct P {", "    w: Tensor<i32, [%d]>," % tot, "}"]
            lines += self.helper(name) + ["fn main() {"]
            for v in ("x", "y"):
                lines.append("    let mut %s = transfer(Tensor<i32, [%d]>::fill(1), Memory::HBM);" % (v, tot))
            for v in ("c", "d"):
                lines.append("    let mut %s = Tensor<i32, [2, %d]>::fill(1);" % (v, tot))
            for v in ("p", "q"):
                lines.append("    let mut %s = P { w: Tensor<i32, [%d]>::fill(1) };" % (v, tot)
                             if self.form == "host_field" else "    let %s = 0;" % v)
            lines += ["    " + call,
                      "    let hx = transfer(x, Memory::CPU_DRAM);",
                      "    let hy = transfer(y, Memory::CPU_DRAM);",
                      '    println!("{} {} {} {}", hx[0], hy[0], c[0][0], d[0][0]);',
                      '    println!("{}", %s);' % ("p.w[0] + q.w[0]" if self.form == "host_field" else "p + q"), "}"]
            return "\n".join(lines) + "\n"
        lines += self.helper(name) + [
            "fn main() {",
            "    let mut x = transfer(Tensor<i32, [%d]>::fill(1), Memory::HBM);" % tot,
            "    let mut m = transfer(Tensor<i32, [%d, %d]>::fill(1), Memory::HBM);" % (nb, n),
            "    spawn on(Topology::Device) {",
            "        for b in 0..%d across blocks {" % nb]
        for t, shape in (("t", "[%d]" % n), ("u", "[%d]" % n), ("t2", "[2, %d]" % n), ("u2", "[2, %d]" % n)):
            lines.append("            let mut %s = Tensor<i32, %s, Memory::SMEM>::fill(1);" % (t, shape))
        lines += ["            " + call,
                  "            for l in 0..%d across lanes {" % n,
                  "                x[b * %d + l] = t[l] + u[l] + t2[1][l] + u2[0][l];" % n, "            }",
                  "        }", "    }",
                  "    let hx = transfer(x, Memory::CPU_DRAM);",
                  "    let hm = transfer(m, Memory::CPU_DRAM);",
                  '    println!("{} {}", hx[0], hm[0][0]);', "}"]
        return "\n".join(lines) + "\n"

    def control(self):
        return self.text(control=True) if _ALIAS[self.form][2] else None


def alias_mutant(seed):
    r = random.Random(seed * 2741 + 5)
    return AliasMutant(r.choice(ALIAS_FORMS), r.choice([4, 8, 16]), r.choice([1, 2, 3]))
