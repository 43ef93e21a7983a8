"""Race mutants of run-time shapes (spec/smith.md §4): kernels in a `pub fn` whose tensor has `?`
dimensions and whose loops may end at a parameter, and CUDA's grid-stride loop.

**Index by index** (classes `dyn2d_<form>`): `out[I0][I1] = 1;` on a `[?, ?]` (or `[?, W]`, or
fixed) tensor, in `for b in 0..ROWS across blocks` / `for l in 0..COLS across lanes(256)`, where
ROWS and COLS are constants or the function's parameters, perhaps with a plain loop `k` inside;
(I0, I1) is the pair the rules prove index by index (kernel-rules.md §4 step 9) or one of its near
misses: halved, fixed, taken modulo a constant, shifted, the same variable twice, or the row-major
offset flattened into a `[?]` tensor with a constant row width while the lane loop ends at a
parameter (which may exceed it).

**Grid-stride** (classes `stride_<form>`): `for i in (START..N).step_by(S)` inside the lane loop
(kernel-rules.md §4 step 10), START the pass's first element (`b * L + l`, `l`, …) and S the grid
(G * L), a step one short or one long of it, the lanes alone, half the grid, or twice it; N a
constant or a parameter; perhaps writing rows of a `[?, ?]` tensor (`out[b][i]`).

The truth is the enumeration of races.Mutant over the values main passes: the rules prove a
`pub fn` for every value of its parameters, so an accepted kernel that collides at these values is
a soundness finding; a refused one that does not may collide at others (then "imprecise" is an
upper bound of the imprecision).
"""

import random

from .races import B, C, Loop, Mutant, V

FORMS_2D = ["exact", "transposed", "row_halves", "col_halves", "fixed_row", "fixed_col", "col_mod",
            "row_mod", "col_shift", "same_var", "plain_inner", "plain_inner_dropped", "flat_const_width",
            "flat_exact", "pair_param", "pair_mismatch"]
FORMS_STRIDE = ["grid", "grid_short", "grid_long", "lanes_only", "half_grid", "twice_grid", "offset_start",
                "interleaved", "rows"]


class RuntimeLoop(Loop):
    """A loop whose end is a parameter (`0..cols`, `hi` its value in main), or whose start is an
    expression of the outer loops' variables (a grid-stride loop)."""

    def __init__(self, name, kind, lo, hi, hi_text=None, start=None, lanes=None, adapters=()):
        super().__init__(name, kind, lo, hi, lanes=lanes, adapters=adapters)
        self.hi_text, self.start = hi_text, start

    def values_in(self, env):
        if self.start is None:
            return self.values()
        r = range(self.start.ev(env), self.hi)
        for a in self.adapters:
            r = r[::-1] if a[0] == "rev" else r[::a[1]]
        return r

    def bounds_text(self):
        if self.hi_text is None and self.start is None:
            return super().bounds_text()
        lo = self.start.text() if self.start is not None else str(self.lo)
        return "%s..%s" % (lo, self.hi_text or str(self.hi))


class RuntimeMutant(Mutant):
    """The kernel as `pub fn k(out, PARAMS…)` called once from main with the values of PARAMS."""

    def __init__(self, loops, dims, idx, klass, note, params, shape_text):
        super().__init__(loops, dims, idx, None, None, klass, note)
        self.params = [n for n, _ in params]  # the signature's order
        # main calls k with the values the loops were made with, then with larger ones: the rules
        # prove k for every value, so a collision at either is a finding
        self.calls = [tuple(v for _, v in params)]
        if params:
            self.calls.append(tuple(2 * v + 3 for _, v in params))
        self.shape_text = shape_text  # the parameter's dimensions: "?, ?", "?, 16", "3, 16", "?"

    def _at(self, values):
        """Sets the ends of the loops that end at a parameter to `values` (one call's), and the
        parameters' values for the indices that use them (`env0`)."""
        self.env0 = dict(zip(self.params, values))
        for lp in self.loops:
            if getattr(lp, "hi_text", None) in self.params:
                lp.hi = values[self.params.index(lp.hi_text)]

    def size_for(self, spans):
        """The dimensions: each index's largest value over every call, plus one."""
        best = [0] * len(self.idx)
        for values in self.calls:
            self._at(values)
            best = [max(x, _span(e, self.loops, self.env0)) for x, e in zip(best, self.idx)]
        self._at(self.calls[0])
        self.dims = [x + 1 + s for x, s in zip(best, spans)]

    def truth(self, limit=1 << 18):
        """Races.Mutant's truth for each call: collisions within one call (calls run one after
        the other); an index out of bounds in any stops the program there."""
        result = (False, None, False)
        for values in self.calls:
            self._at(values)
            # the base's bound counts a stepped loop's whole range in every pass: 16 times it here
            t = super().truth(limit * 16)
            if t is None:
                self._at(self.calls[0])
                return None
            if t[0] and not result[0]:
                result = (True, t[1], result[2])
            if t[2]:
                result = (result[0], result[1], True)
        self._at(self.calls[0])
        return result

    def text(self):
        dyn = "?" in self.shape_text
        sig = ", ".join(["out: &mut Tensor<i32, [%s], Memory::HBM>" % self.shape_text] +
                        ["%s: i32" % n for n in self.params])
        lines = ["// vx smith race mutant: %s %s" % (self.klass, self.note), "pub fn k(%s) {" % sig]
        lines += ["    " + x for x in self.region_lines()] + ["}", "fn main() {"]
        dims = ", ".join(map(str, self.dims))
        if dyn:
            lines.append("    let mut out = transfer(Tensor<i32, [%s]>::fill_dims([%s], 0), Memory::HBM);" % (
                self.shape_text, dims))
        else:
            lines.append("    let mut out = transfer(Tensor<i32, [%s]>::fill(0), Memory::HBM);" % dims)
        for values in self.calls:
            lines.append("    k(%s);" % ", ".join(["&mut out"] + [str(v) for v in values]))
        return "\n".join(lines + self.checksum_lines()) + "\n"


def _bound(r, name, value, params):
    """A loop end: the constant, or (half the time) the parameter `name` that main sets to it."""
    if r.random() < 0.5:
        params.append((name, value))
        return name
    return None


def _span(e, loops, env0=None):
    """The largest value of the expression over every pass (enumerated: the loops here have at
    most a few hundred values each); `env0`: the values of the kernel's parameters."""
    best = 0

    def rec(k, env):
        nonlocal best
        if k == len(loops):
            try:
                best = max(best, e.ev(env))
            except ZeroDivisionError:
                pass
            return
        for v in loops[k].values_in(env):
            env[loops[k].name] = v
            rec(k + 1, env)

    rec(0, dict(env0 or {}))
    return best


def dyn2d_mutant(seed):
    r = random.Random(seed * 6151 + 29)
    form = r.choice(FORMS_2D)
    rows = r.choice([1, 2, 3, 5, 8])
    cols = r.choice([3, 4, 7, 16, 33, 64])
    params = []
    b, l = V("b"), V("l")
    blocks = RuntimeLoop("b", "blocks", 0, rows, hi_text=_bound(r, "rows", rows, params))
    lanes = RuntimeLoop("l", "lanes", 0, cols, hi_text=_bound(r, "cols", cols, params), lanes=256)
    loops = [blocks, lanes]
    kk = r.choice([2, 3])
    if form == "exact":
        idx = [b, l]
    elif form == "transposed":
        idx = [l, b]
    elif form == "row_halves":
        idx = [B("/", b, C(2)), l]
    elif form == "col_halves":
        idx = [b, B("/", l, C(2))]
    elif form == "fixed_row":
        idx = [C(0), l]
    elif form == "fixed_col":
        idx = [b, C(r.choice([0, 1]))]
    elif form == "col_mod":
        idx = [b, B("%", l, C(r.choice([2, 4, 16])))]
    elif form == "row_mod":
        idx = [B("%", b, C(r.choice([2, 4]))), l]
    elif form == "col_shift":
        idx = [b, B("+", l, C(r.choice([1, -1])))]
    elif form == "same_var":
        idx = r.choice([[l, l], [b, b]])
    elif form in ("plain_inner", "plain_inner_dropped"):
        loops.append(RuntimeLoop("k", "plain", 0, kk))
        lane = B("+", B("*", l, C(kk)), V("k")) if form == "plain_inner" else B("+", l, V("k"))
        idx = [b, lane]
    elif form == "flat_const_width":
        # out[b * W + l] of a `[?]` tensor: W a constant, the lane loop's end perhaps past it
        w = r.choice([cols, cols, max(1, cols - 1), cols + 1])
        idx = [B("+", B("*", b, C(w)), l)]
    elif form in ("pair_param", "pair_mismatch"):
        # `[x / w][x % w]` with w a parameter (index by index the pair is x, §4 step 9), or a
        # near miss dividing by w but taking the remainder by a constant
        lanes.hi_text = None
        params[:] = [p for p in params if p[0] != "cols"]
        x = B("+", B("*", b, C(cols)), l)
        params.append(("w", r.choice([2, 3, cols, cols + 1, 7])))
        m = r.choice([2, 4])
        idx = [B("/", x, V("w")), B("%", x, V("w") if form == "pair_param" else C(m))]
    else:  # flat_exact: the same with the width the lane loop's own constant end
        lanes.hi_text = None
        params[:] = [p for p in params if p[0] != "cols"]
        idx = [B("+", B("*", b, C(cols)), l)]
    note = "%s over %s" % (" ".join(e.text() for e in idx), ", ".join("%s = %d" % p for p in params) or "constants")
    m = RuntimeMutant(loops, [], idx, "dyn2d_" + form, note, params, "?, ?")
    m.size_for([r.choice([0, 0, 0, 1]) for _ in idx])
    if len(idx) == 1:
        m.shape_text = "?"
    elif r.random() < 0.25:
        m.shape_text = "?, %d" % m.dims[1]
    elif r.random() < 0.15:
        m.shape_text = "%d, %d" % tuple(m.dims)
    return m


def stride_mutant(seed):
    r = random.Random(seed * 7177 + 31)
    form = r.choice(FORMS_STRIDE)
    g = r.choice([1, 2, 3, 4])
    lanes_n = r.choice([4, 8, 32, 64])
    n = g * lanes_n * r.choice([1, 2, 3]) + r.choice([0, 1, lanes_n // 2, 5])
    params = []
    b, l = V("b"), V("l")
    blocks = RuntimeLoop("b", "blocks", 0, g)
    lanes = RuntimeLoop("l", "lanes", 0, lanes_n, lanes=lanes_n)
    start = B("+", B("*", b, C(lanes_n)), l)
    step = g * lanes_n
    if form == "grid_short":
        step = g * lanes_n - 1
    elif form == "grid_long":
        step = g * lanes_n + 1
    elif form == "lanes_only":
        step = lanes_n
    elif form == "half_grid":
        step = max(1, g * lanes_n // 2)
    elif form == "twice_grid":
        step = 2 * g * lanes_n
    elif form == "offset_start":
        start = B("+", start, C(r.choice([1, lanes_n, g * lanes_n])))
    elif form == "interleaved":
        start = B("+", b, B("*", l, C(g)))  # block b owns the residues b mod G: collision-free
    rows_form = form == "rows"
    if rows_form:
        start = l
        step = lanes_n if r.random() < 0.7 else lanes_n // 2
    hi_text = _bound(r, "n", n, params)
    inner = RuntimeLoop("i", "plain", 0, n, hi_text=hi_text, start=start, adapters=[("step", step)])
    loops = [blocks, lanes, inner]
    i = V("i")
    idx = [b, i] if rows_form else [i]
    note = "from %s step %d to %s" % (start.text(), step, "n = %d" % n if hi_text else n)
    m = RuntimeMutant(loops, [], idx, "stride_" + form, note, params, "?, ?" if rows_form else "?")
    m.size_for([0, 0] if rows_form else [r.choice([0, 0, 3])])
    if not rows_form and r.random() < 0.3:
        m.shape_text = str(m.dims[0])
    return m

