"""The program generator: one deterministic, well-typed, terminating, race-free Vx program per seed.

A program is a `main` made of independent *sections*. Each section makes its own inputs on the
host, moves them to HBM, runs one or more `spawn on` regions (directly, through a `pub fn`, or
inside host control flow), moves its outputs back and prints every element it wrote (a checksum
and a sample for large tensors). Stores in across loops are made only at offsets that are
race-free by construction: the canonical multi-index of the block and lane nest, a mixed-radix
linearisation of it, digits split by `/` and `%`, plain loops inside lanes as extra digits. A
section may end the program with a runtime error on purpose (it is then the last one).

Lines whose last bits may legitimately differ between implementations (`lanes::sum_unordered`,
float atomics) are printed as `~TOL value ...`: the comparison accepts |a - b| <= TOL.
"""

import random

from . import kinds
from . import structs
from . import tuples

INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
SIGNED = {"i8", "i16", "i32", "i64"}
FLOATS = ["f16", "bf16", "f32", "f64"]
BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}
MATH1 = ["sqrt", "exp", "exp2", "log", "log2", "tanh", "sin", "cos", "abs", "floor", "ceil", "round", "trunc"]
MATH2 = ["pow", "min", "max"]
FAST = ["fast_exp", "fast_tanh"]
ORDERINGS = ["Relaxed", "Acquire", "Release", "AcqRel", "SeqCst"]
SCOPES = ["Block", "Device", "System"]


def arm(e):
    """An expression as a `match` arm: one that begins with a block (`{ … }.abs()`) in parentheses,
    or the block would end the arm (as in Rust)."""
    return "(%s)" % e if e.startswith("{") else e


class W:
    """Lines with indentation."""

    def __init__(self):
        self.lines = []
        self.ind = 0

    def __call__(self, text):
        self.lines.append("    " * self.ind + text)

    def open(self, text):
        self(text + " {")
        self.ind += 1

    def close(self, text="}"):
        self.ind -= 1
        self(text)


class Gen:
    def __init__(self, seed, features=None):
        self.seed = seed
        self.r = random.Random(seed)
        self.features = features if features is not None else {}
        self.n = 0
        self.helpers = []  # text of helper functions (device helpers, pub fns with regions)
        self.helper_sigs = {}  # type -> [names] of scalar device helpers T -> T
        self.float_atomics = False
        # Sizes known at run time (run_time_sizes) draw from a generator of their own, so the rest
        # of a seed's program is the one it was before they existed.
        self.rs = random.Random(seed * 65537 + 29)
        # So do the forms of a transfer's argument (spec/memory.md §2: any tensor value).
        self.tf = random.Random(seed * 40503 + 7)

    # ---- small utilities
    def feat(self, name, k=1):
        self.features[name] = self.features.get(name, 0) + k

    def fresh(self, base):
        self.n += 1
        return "%s%d" % (base, self.n)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    def ri(self, a, b):
        return self.r.randint(a, b)

    # ---- literals
    def lit(self, t, v=None):
        if t in INTS:
            if v is None:
                hi = 100 if self.chance(0.8) else (1 << (BITS[t] - (1 if t in SIGNED else 0))) - 1
                lo = -hi if t in SIGNED else 0
                v = self.ri(lo, hi)
            if v < 0:
                return "(%d%s)" % (v, t)
            return "%d%s" % (v, t)
        if t == "bool":
            return self.pick(["true", "false"])
        if v is None:
            v = self.ri(-16, 16) * 0.25
            if self.chance(0.1):
                v = self.pick([0.1, 1e-3, 3.14159, 100.5, 2.5, -7.75])
        s = repr(float(v))
        return "(%s%s)" % (s, t) if v < 0 else "%s%s" % (s, t)

    # ---- expressions over an environment of scalars: env = [(name, type)]
    def expr(self, t, env, depth, reads=()):
        """A scalar expression of type t. reads: [(tensor_text_fn, elem_type)] giving safe loads."""
        same = [n for n, ty in env if ty == t]
        if depth <= 0 or self.chance(0.25):
            c = self.r.random()
            if same and c < 0.45:
                return self.pick(same)
            rd = [f for f, ty in reads if ty == t]
            if rd and c < 0.75:
                self.feat("load")
                return self.pick(rd)()
            if env and c < 0.9:
                n, ty = self.pick(env)
                if ty == "bool" or (ty in FLOATS and t == "bool"):
                    return self.lit(t)
                if t == "bool":
                    return "(%s > %s)" % (n, self.lit(ty))
                self.feat("cast")
                self.feat("cast_%s_to_%s" % ("int" if ty in INTS else "float", "int" if t in INTS else "float"))
                return "(%s as %s)" % (n, t)
            return self.lit(t)
        d = depth - 1
        if getattr(self, "plain", False) and t != "bool":
            # what .uir can say (spec/uir.md §7): + - * / % and casts, no f16/bf16
            a = self.expr(t, env, d, reads)
            c = self.r.random()
            if c < 0.15:
                u = self.pick(["i32", "i64", "f32", "f64"])
                self.feat("cast")
                return "(%s as %s)" % (self.expr(u, env, d, reads), t)
            if c < 0.3:
                self.feat("int_divmod" if t in INTS else "float_op")
                return "(%s %s %s)" % (a, self.pick(["/", "%"]), self.lit(t, self.pick([3, 7, 10]) if t in INTS else 2.5))
            self.feat("int_op" if t in INTS else "float_op")
            return "(%s %s %s)" % (a, self.pick(["+", "-", "*"]), self.expr(t, env, d, reads))
        if t == "bool":
            u = self.pick(INTS + FLOATS)
            op = self.pick(["<", "<=", ">", ">=", "==", "!="])
            return "(%s %s %s)" % (self.expr(u, env, d, reads), op, self.expr(u, env, d, reads))
        c = self.r.random()
        if c < 0.08 and t in INTS and self.chance(0.35):
            return self.match_expr(t, env, d, reads)
        if c < 0.08:
            self.feat("if_expr")
            return "(if %s { %s } else { %s })" % (self.expr("bool", env, d, reads), self.expr(t, env, d, reads),
                                                   self.expr(t, env, d, reads))
        if c < 0.18:
            u = self.pick(INTS + FLOATS)
            self.feat("cast")
            self.feat("cast_%s_to_%s" % ("int" if u in INTS else "float", "int" if t in INTS else "float"))
            if u in ("f16", "bf16") or t in ("f16", "bf16"):
                self.feat("half_cast")
            return "(%s as %s)" % (self.expr(u, env, d, reads), t)
        if c < 0.21 and t in INTS:
            self.feat("cast_bool_to_int")
            return "(%s as %s)" % (self.expr("bool", env, d, reads), t)
        if 0.26 <= c < 0.36 and getattr(self, "struct_sigs", None) and (
                not getattr(self, "tuple_sigs", None) or self.struct_r.random() < 0.5):
            return structs.struct_expr(self, t, env, d, reads)
        if 0.26 <= c < 0.36 and getattr(self, "tuple_sigs", None):
            return tuples.tuple_expr(self, t, env, d, reads)
        if c < 0.26 and self.helper_sigs:
            self.feat("device_helper_call")
            ht = self.pick(sorted(self.helper_sigs))
            call = "%s(%s)" % (self.pick(self.helper_sigs[ht]), self.expr(ht, env, d, reads))
            return call if ht == t else "(%s as %s)" % (call, t)
        a = self.expr(t, env, d, reads)
        if t in INTS:
            c = self.r.random()
            if c < 0.45:
                op = self.pick(["+", "-", "*", "&", "|", "^"])
                self.feat("int_op")
                return "(%s %s %s)" % (a, op, self.expr(t, env, d, reads))
            if c < 0.6:
                op = self.pick(["/", "%"])
                self.feat("int_divmod")
                return "(%s %s (%s | %s))" % (a, op, self.expr(t, env, d, reads), self.lit(t, 1))
            if c < 0.7:
                op = self.pick(["<<", ">>"])
                u = self.pick(INTS)
                self.feat("shift")
                return "(%s %s (%s & %s))" % (a, op, self.expr(u, env, d, reads), self.lit(u, 7))
            if c < 0.85:
                m = self.pick(["min", "max", "pow"] + (["abs"] if t in SIGNED else []))
                self.feat("int_method_" + m)
                if m == "abs":
                    return "%s.abs()" % a
                if m == "pow":
                    return "%s.pow(%du32)" % (a, self.ri(0, 5))
                return "%s.%s(%s)" % (a, m, self.expr(t, env, d, reads))
            if t in SIGNED and self.chance(0.5):
                return "(-%s)" % a
            return "(!%s)" % a
        c = self.r.random()
        if t in ("f16", "bf16"):
            self.feat("half_arith")
        if c < 0.5:
            op = self.pick(["+", "-", "*", "/", "%"])
            self.feat("float_op")
            return "(%s %s %s)" % (a, op, self.expr(t, env, d, reads))
        if c < 0.8:
            m = self.pick(MATH1)
            self.feat("math_" + m)
            return "%s.%s()" % (a, m)
        if c < 0.95:
            m = self.pick(MATH2)
            self.feat("math_" + m)
            return "%s.%s(%s)" % (a, m, self.expr(t, env, d, reads))
        return "(-%s)" % a

    def match_expr(self, t, env, d, reads):
        """A `match` on an integer: literal, range and `|` arms, some guarded, and a last `_` arm
        (always exhaustive; an arm that an earlier one covers is only a warning)."""
        self.feat("match_expr")
        u = self.pick(INTS)
        arms = []
        for _ in range(self.ri(1, 3)):
            k = self.r.random()
            if k < 0.4:
                pat = self.lit(u, self.ri(0, 20))
            elif k < 0.7:
                a = self.ri(0, 20)
                pat = "%s..=%s" % (self.lit(u, a), self.lit(u, a + self.ri(0, 10)))
                self.feat("match_range")
            else:
                pat = "%s | %s" % (self.lit(u, self.ri(0, 9)), self.lit(u, self.ri(10, 19)))
                self.feat("match_or")
            if self.chance(0.2):
                pat += " if %s" % self.expr("bool", env, d, reads)
                self.feat("match_guard")
            arms.append("%s => %s" % (pat, arm(self.expr(t, env, d, reads))))
        arms.append("_ => %s" % arm(self.expr(t, env, d, reads)))
        return "(match %s { %s })" % (self.expr(u, env, d, reads), ", ".join(arms))

    # ---- host-side helpers
    def host_input(self, w, t, shape, name=None):
        """A CPU tensor filled with a deterministic formula, moved to HBM. Returns the HBM name."""
        h = self.fresh("h")
        name = name or self.fresh("in")
        dims = ", ".join(str(d) for d in shape)
        w("let mut %s = Tensor<%s, [%s]>::fill(%s);" % (h, t, dims, self.lit(t, 0)))
        idx = ["i%d" % k for k in range(len(shape))]
        for k, d in enumerate(shape):
            w.open("for %s in 0..%d" % (idx[k], d))
        lin = idx[0]
        for k in range(1, len(shape)):
            lin = "(%s * %d + %s)" % (lin, shape[k], idx[k])
        a, m, o = self.ri(1, 37), self.pick([7, 11, 13, 17, 29, 101, 1000]), self.ri(0, 50)
        if t in INTS:
            val = "((%s * %d + %d) %% %d) as %s" % (lin, a, o, m, t)
            if t in SIGNED and self.chance(0.5):
                val = "(((%s * %d + %d) %% %d) - %d) as %s" % (lin, a, o, m, m // 2, t)
        else:
            val = "(((%s * %d + %d) %% %d) as f32 * %s - %s) as %s" % (
                lin, a, o, m, self.pick(["0.25", "0.125", "0.37", "1.5", "0.01"]), self.pick(["1.0", "2.0", "0.0", "3.5"]), t)
        w("%s%s = %s;" % (h, "".join("[%s]" % i for i in idx), val))
        for _ in shape:
            w.close()
        w("let %s = transfer(%s, Memory::HBM);" % (name, self.tensor_value(h)))
        return name

    def tensor_value(self, h):
        """The host tensor `h` as one of the values `transfer` takes: itself, a block, an `if`
        whose arms are it, or another transfer."""
        form = self.tf.choice(["plain", "plain", "block", "if", "transfer"])
        if form != "plain":
            self.feat("transfer_of_" + form)
        if form == "block":
            return "{ %s }" % h
        if form == "if":
            return "if %s.len() > 0 { %s } else { %s }" % (h, h, h)
        if form == "transfer":
            return "transfer(%s, Memory::CPU_DRAM)" % h
        return h

    def print_tensor(self, w, name, t, shape, tol=None):
        """Move an HBM tensor back and print it (every element, or a checksum and samples); returns
        the name of the host tensor."""
        back = self.fresh("r")
        w("let %s = transfer(%s, Memory::CPU_DRAM);" % (back, name))
        label = name  # the tensor's name, which `vx lower --to=uir` gives its buffer
        total = 1
        for d in shape:
            total *= d
        pre = "~%s " % tol if tol is not None else ""
        if total <= 96 or tol is not None:
            idx = ["i%d" % k for k in range(len(shape))]
            for k, d in enumerate(shape[:-1]):
                w.open("for %s in 0..%d" % (idx[k], d))
            w('print!("%s%s:");' % (pre, label))
            w.open("for %s in 0..%d" % (idx[-1], shape[-1]))
            fmt = "{:?}" if self.chance(0.2) else "{}"
            if fmt != "{}":
                self.feat("print_debug_format")
            w('print!(" %s", %s%s);' % (fmt, back, "".join("[%s]" % i for i in idx)))
            w.close()
            w('println!("");')
            for _ in shape[:-1]:
                w.close()
            self.feat("print_full")
            return back
        self.feat("print_checksum")
        cs = self.fresh("cs")
        idx = ["i%d" % k for k in range(len(shape))]
        lin = idx[0]
        for k in range(1, len(shape)):
            lin = "(%s * %d + %s)" % (lin, shape[k], idx[k])
        if t in INTS:
            w("let mut %s: i64 = 0;" % cs)
        else:
            w("let mut %s: f64 = 0.0;" % cs)
            nan = self.fresh("nan")
            w("let mut %s = 0;" % nan)
        for k, d in enumerate(shape):
            w.open("for %s in 0..%d" % (idx[k], d))
        el = "%s%s" % (back, "".join("[%s]" % i for i in idx))
        if t in INTS:
            w("%s = %s * 1000003 + (%s as i64) + (%s as i64);" % (cs, cs, el, lin))
        else:
            w("let v = %s as f64;" % el)
            w.open("if v != v")
            w("%s += 1;" % nan)
            w.close("} else {")
            w.ind += 1
            w("%s += v * ((%s %% 7 + 1) as f64);" % (cs, lin))
            w.close()
        for _ in shape:
            w.close()
        if t in INTS:
            w('println!("%s: checksum {}", %s);' % (label, cs))
        else:
            w('println!("%s: checksum {} nan {}", %s, %s);' % (label, cs, nan))
        # samples
        samples = []
        for _ in range(6):
            samples.append("".join("[%d]" % self.ri(0, d - 1) for d in shape))
        w('println!("%s: sample%s", %s);' % (label, " {}" * len(samples), ", ".join(back + s for s in samples)))
        return back

    # ---- sections
    def section(self, w, last):
        kinds = ["map", "map", "map", "tile_reduce", "tile_reduce", "phases", "atomics", "sort", "copy_async",
                 "pubfn", "host_loop", "fast", "map_plain", "arrays"]
        k = self.pick(kinds)
        self.feat("section_" + k)
        getattr(self, "sec_" + k)(w)

    def block_nest(self, w, depth):
        """Open a nest of block loops; returns [(var, start, end)]."""
        loops = []
        for _ in range(depth):
            v = self.fresh("b")
            s = 0 if self.chance(0.8) else self.ri(1, 3)
            # one pass now and then, also inside a nest: its digit adds nothing (kernel-rules.md §4)
            e = s + (1 if self.chance(0.1) else self.ri(2, 5 if depth > 1 else 9))
            if e - s == 1:
                self.feat("one_pass_loop")
            incl = self.chance(0.15)
            w.open("for %s in %d..%s%d across blocks" % (v, s, "=" if incl else "", e - 1 if incl else e))
            if incl:
                self.feat("inclusive_range")
            loops.append((v, s, e))
        self.feat("block_depth_%d" % depth)
        return loops

    def lane_nest(self, w, depth, budget=1024):
        """Open a nest of lane loops; returns [(var, start, end)]."""
        loops = []
        left = budget
        for k in range(depth):
            v = self.fresh("l")
            s = 0 if self.chance(0.75) else self.ri(1, 5)
            if depth == 1:
                n = self.pick([3, 7, 16, 32, 33, 64, 100, 128, 256])
            else:
                n = self.pick([1, 2, 3, 4, 5, 8, 16, 31])
                if n == 1:
                    self.feat("one_pass_loop")
            e = s + n
            lanes = None
            if self.chance(0.4):
                lanes = self.pick([x for x in [1, 2, 4, 8, 16, 32, 64, 128] if x <= max(1, left // 2) and x <= 1024])
                self.feat("lanes_n")
                if n % lanes:
                    self.feat("range_not_multiple_of_lanes")
            used = lanes if lanes else n
            if used > left:
                lanes = 1
                used = 1
            left //= max(1, used)
            w.open("for %s in %d..%d across lanes%s" % (v, s, e, "(%d)" % lanes if lanes else ""))
            loops.append((v, s, e))
        self.feat("lane_depth_%d" % depth)
        return loops

    def plain_range(self, lo, hi):
        """The range of a plain loop over lo..hi: now and then reversed or stepped (spec/semantics.md
        §3), its values then some of lo..hi in another order. Not in a .uir map (.uir has plain
        ranges only)."""
        if getattr(self, "plain", False) or not self.chance(0.4):
            return "%d..%d" % (lo, hi)
        form = self.pick(["rev", "step", "step_rev", "rev_step", "inclusive_rev"])
        self.feat("range_" + form)
        k = self.ri(2, 3)
        if form == "rev":
            return "(%d..%d).rev()" % (lo, hi)
        if form == "step":
            return "(%d..%d).step_by(%d)" % (lo, hi, k)
        if form == "step_rev":
            return "(%d..%d).step_by(%d).rev()" % (lo, hi, k)
        if form == "rev_step":
            return "(%d..%d).rev().step_by(%d)" % (lo, hi, k)
        return "(%d..=%d).rev()" % (lo, hi - 1)

    def close_n(self, w, n):
        for _ in range(n):
            w.close()

    def sec_map_plain(self, w):
        """A map with only what .uir can say, so that `vx lower --to=uir --run` compares it."""
        self.plain = True
        try:
            self.sec_map(w, self.pick(["i32", "i64", "f32", "f64"]))
        finally:
            self.plain = False

    def sec_map(self, w, t=None):
        """Elementwise: out[blocks..][lanes..] = f(inputs, indices)."""
        t = t or self.pick(INTS + FLOATS)
        ti = t if getattr(self, "plain", False) else self.pick(INTS + FLOATS)
        self.feat("type_" + t)
        bd = self.ri(1, 3) if self.chance(0.5) else 1
        ld = self.ri(1, 3) if self.chance(0.5) else 1
        # plan shapes first: open into a temp writer
        body = W()
        body.ind = w.ind + 1
        blocks = self.block_nest(body, bd)
        lanes = self.lane_nest(body, ld)
        inner = None
        if self.chance(0.25):
            inner = (self.fresh("k"), 0, self.ri(2, 4))
            body.open("for %s in %s" % (inner[0], self.plain_range(inner[1], inner[2])))
            self.feat("plain_loop_digit")
        loops = blocks + lanes + ([inner] if inner else [])
        shape = [e for (_, _, e) in loops]
        total = 1
        for d in shape:
            total *= d
        mode = self.pick(["multi", "linear", "linear_perm", "divmod"])
        if total > 200000:
            mode = "multi"

        # the input: same shape, read at the same index, plus a 1-D table read anywhere
        nin = self.ri(16, 97)
        out = self.fresh("out")
        env = [(v, "i32") for (v, _, _) in loops]
        tab = None
        reads = []
        pre = W()
        pre.ind = w.ind
        if self.chance(0.8):
            tab = self.host_input(pre, ti, [nin])
            lv = [v for (v, _, _) in loops]
            reads.append((lambda tab=tab, lv=lv: "%s[((%s * %d + %s) %% %d + %d) %% %d]" % (
                tab, self.pick(lv), self.ri(1, 9), self.pick(lv), nin, nin, nin), ti))
        cap = None
        if self.chance(0.3):
            cap = self.fresh("c")
            ct = self.pick(INTS + FLOATS)
            pre("let %s: %s = %s;" % (cap, ct, self.lit(ct)))
            env.append((cap, ct))
            self.feat("captured_scalar")
        if mode == "multi":
            idx = "".join("[%s]" % v for (v, _, _) in loops)
            oshape = shape
        elif mode == "linear":
            lin = loops[0][0]
            for (v, _, e) in loops[1:]:
                lin = "(%s * %d + %s)" % (lin, e, v)
            idx = "[%s]" % lin
            oshape = [total]
            self.feat("index_linear")
        elif mode == "linear_perm":
            order = loops[:]
            self.r.shuffle(order)
            lin = order[0][0]
            for (v, _, e) in order[1:]:
                lin = "(%s * %d + %s)" % (lin, e, v)
            idx = "[%s]" % lin
            oshape = [total]
            self.feat("index_permuted")
        else:
            # split the last lane digit l (0-based only) into l / q and l % q
            v, s, e = lanes[-1]
            if s != 0 or e < 4:
                idx = "".join("[%s]" % v for (v, _, _) in loops)
                oshape = shape
            else:
                q = self.pick([2, 3, 4, 8])
                hi = (e - 1) // q + 1
                rest = [x for x in loops if x[0] != v]
                idx = "".join("[%s]" % x[0] for x in rest) + "[%s %% %d][%s / %d]" % (v, q, v, q)
                oshape = [x[2] for x in rest] + [q, hi]
                self.feat("index_divmod")
        if inner is None and self.chance(0.3) and not getattr(self, "plain", False):
            self.feat("guarded_store")
            body.open("if %s" % self.expr("bool", env, 1, reads))
            guarded = True
        else:
            guarded = False
        val = self.expr(t, env, self.ri(1, 4), reads)
        if inner is not None and self.chance(0.5):
            # a compound assignment: read and write of the same element by the same pass
            self.feat("compound_store")
            body("%s%s += %s;" % (out, idx, val) if t not in ("bool",) else "")
        else:
            body("%s%s = %s;" % (out, idx, val))
        if guarded:
            body.close()
        self.close_n(body, len(loops))
        self.output_region(w, pre, body, out, t, oshape, (loops if mode == "multi" else None,))

    def output_region(self, w, pre, body, out, t, shape, map_loops=None):
        """The host lines `pre`, a zeroed HBM output `out`, the region `body` that writes it, and
        its printing; returns the name of the host copy. A map passes `map_loops` (a 1-tuple of
        its block and lane loops when its store is at the nest's own multi-index, else of None):
        its output is now and then run-time sized (run_time_out)."""
        for line in pre.lines:
            w.lines.append(line)
        fill = self.lit(t, 0 if t in INTS else 0.5)
        if map_loops is None or getattr(self, "plain", False) or self.rs.random() >= 0.2:
            w("let mut %s = transfer(Tensor<%s, [%s]>::fill(%s), Memory::HBM);" % (
                out, t, ", ".join(map(str, shape)), fill))
        else:
            self.run_time_out(w, body, out, t, shape, fill, map_loops[0])
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        w.lines.extend(body.lines)
        w.close()
        return self.print_tensor(w, out, t, shape)

    def sec_arrays(self, w):
        """Arrays in host and device code (arrays.py)."""
        from . import arrays
        arrays.section(self, w)

    def run_time_out(self, w, body, out, t, shape, fill, multi_loops):
        """The output of a map made with `fill_dims`: its first dimension `?`, of a size the program
        computes (a host loop's count, or a function's argument: spec/types.md §3.1). Only the
        first: the kernel rules prove offsets from the fixed inner dimensions. When the store is
        at the nest's own multi-index and the first block loop starts at 0, that loop runs over
        `0..out.len()`."""
        ty = "Tensor<%s, [%s], Memory::HBM>" % (t, ", ".join(["?"] + [str(d) for d in shape[1:]]))
        rest = "".join(", %d" % d for d in shape[1:])
        if self.rs.random() < 0.5:
            self.feat("run_time_size_host_loop")
            n, i = self.fresh("n"), self.fresh("i")
            w("let mut %s = 0;" % n)
            w.open("for %s in 0..%d" % (i, shape[0]))
            w("%s = %s + 1;" % (n, i))
            w.close()
            w("let mut %s = %s::fill_dims([%s%s], %s);" % (out, ty, n, rest, fill))
        else:
            self.feat("run_time_size_fn_arg")
            mk = self.fresh("make")
            self.helpers.append("fn %s(n: i32) -> %s {\n    return %s::fill_dims([n%s], %s);\n}" % (
                mk, ty, ty, rest, fill))
            w("let mut %s = %s(%d);" % (out, mk, shape[0]))
        if multi_loops and multi_loops[0][1] == 0:
            v, _, e = multi_loops[0]
            for k, line in enumerate(body.lines):
                head = line.lstrip()
                if head.startswith("for %s in " % v):
                    body.lines[k] = line[:len(line) - len(head)] + "for %s in 0..%s.len() across blocks {" % (v, out)
                    self.feat("run_time_size_len_bound")
                    break

    def sec_tile_reduce(self, w):
        """Tiles in SMEM (one or several, 1-D and 2-D), filled by lanes, reduced in block code."""
        t = self.pick(INTS + FLOATS)
        self.feat("type_" + t)
        nb = self.ri(1, 6)
        n = self.pick([1, 2, 5, 7, 16, 32, 33, 64, 100, 128, 256])
        lanes_n = self.pick([None, 32, 64]) if n > 32 else None
        if self.chance(0.06):
            # a tile over 48 KiB (the H100 allows 227 KiB per block): dynamic shared memory
            t = self.pick(["f32", "i32", "f64", "u32"])
            n = self.pick([12800, 16384, 20000]) if t != "f64" else self.pick([6400, 8192])
            lanes_n = self.pick([128, 256, 1024])
            nb = self.ri(1, 3)
            self.feat("smem_tile_over_48k")
        src = self.host_input(w, t, [nb, n])
        ops = []
        for _ in range(self.ri(1, 3)):
            ops.append(self.pick(["sum", "max", "argmax", "sum_unordered", "sum", "argmax"]))
        outs = []
        for op in ops:
            o = self.fresh("red")
            rt = "i32" if op == "argmax" else t
            outs.append((o, op, rt))
            w("let mut %s = transfer(Tensor<%s, [%d]>::fill(%s), Memory::HBM);" % (o, rt, nb, self.lit(rt, 0 if rt in INTS else 0.5)))
        two_d = n % 4 == 0 and n >= 8 and self.chance(0.3)
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        b = self.fresh("b")
        w.open("for %s in 0..%d across blocks" % (b, nb))
        tile = self.fresh("tile")
        init = self.chance(0.2)
        if init:
            w("let mut %s = Tensor<%s, [%d], Memory::SMEM>::fill(%s);" % (tile, t, n, self.lit(t)))
            self.feat("smem_fill")
        else:
            w("let mut %s = unsafe { Tensor<%s, [%d], Memory::SMEM>::uninit() };" % (tile, t, n))
            self.feat("smem_uninit")
        self.feat("smem_tile")
        extra = None
        if two_d:
            extra = self.fresh("tile2d")
            w("let mut %s = unsafe { Tensor<%s, [4, %d], Memory::SMEM>::uninit() };" % (extra, t, n // 4))
            self.feat("smem_tile_2d")
        l = self.fresh("l")
        w.open("for %s in 0..%d across lanes%s" % (l, n, "(%d)" % lanes_n if lanes_n else ""))
        if lanes_n and n % lanes_n:
            self.feat("range_not_multiple_of_lanes")
        ties = self.chance(0.5)
        if ties:
            self.feat("reduce_ties")
            k = self.pick([2, 3, 7])
            w("%s[%s] = ((%s %% %d) as %s) + (%s[%s][%s] - %s[%s][%s]);" % (tile, l, l, k, t, src, b, l, src, b, l)
              if t in INTS else "%s[%s] = ((%s %% %d) as %s);" % (tile, l, l, k, t))
        else:
            env = [(l, "i32"), (b, "i32")]
            reads = [(lambda: "%s[%s][%s]" % (src, b, l), t)]
            w("%s[%s] = %s;" % (tile, l, self.expr(t, env, self.ri(0, 2), reads)))
        if extra:
            w("%s[%s / %d][%s %% %d] = %s[%s][%s];" % (extra, l, n // 4, l, n // 4, src, b, l))
        w.close()
        if extra:
            # read the 2-D tile after the barrier into the 1-D tile's reduction
            s2 = self.fresh("s")
            w("let %s = %s[%s %% 4][%d];" % (s2, extra, b, n // 8))
            self.feat("block_code_between_lane_loops")
        cnt_choices = [str(n), str(max(1, n - 1)), "%d - %s %% %d" % (n, b, min(n, 3))]
        for (o, op, rt) in outs:
            cnt = self.pick(cnt_choices)
            s = self.fresh("s")
            w("let %s = lanes::%s(&%s, %s);" % (s, op, tile, cnt))
            self.feat("lanes_" + op)
            w("%s[%s] = %s;" % (o, b, s))
            if op == "sum_unordered":
                self.feat("tolerance_compare")
        w.close()
        w.close()
        for (o, op, rt) in outs:
            tol = None
            if op == "sum_unordered" and rt in FLOATS:
                tol = self.unordered_tol(rt, n)
            self.print_tensor(w, o, rt, [nb], tol=tol)

    def unordered_tol(self, t, n):
        return "u" + self._unordered_tol(t, n)

    def _unordered_tol(self, t, n):
        # |values| < 2^16 here in the worst case the generator makes (lits ≤ 100, inputs ≤ 1000*1.5)
        # but expressions can grow: the bound is relative to the sum of magnitudes, which the
        # comparator does not know, so use n * u * 2 * max|value| with a generous max; a
        # difference outside it is a finding to look at by hand.
        u = {"f16": 2 ** -11, "bf16": 2 ** -8, "f32": 2 ** -24, "f64": 2 ** -53}[t]
        return "%.3g" % (n * n * u * 4096.0)

    def sec_phases(self, w):
        """Block code between lane loops: a tile written in one phase, read at a neighbour in the next."""
        t = self.pick(["f32", "i32", "f64", "i64", "u32", "f16", "bf16"])
        self.feat("type_" + t)
        nb = self.ri(1, 5)
        n = self.pick([8, 16, 31, 32, 64, 96, 128])
        lanes_n = self.pick([None, 16, 32])
        src = self.host_input(w, t, [nb, n])
        out = self.fresh("out")
        out2 = self.fresh("bo")
        w("let mut %s = transfer(Tensor<%s, [%d, %d]>::fill(%s), Memory::HBM);" % (out, t, nb, n, self.lit(t, 0 if t in INTS else 0.5)))
        w("let mut %s = transfer(Tensor<%s, [%d]>::fill(%s), Memory::HBM);" % (out2, t, nb, self.lit(t, 0 if t in INTS else 0.5)))
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        b = self.fresh("b")
        w.open("for %s in 0..%d across blocks" % (b, nb))
        tile = self.fresh("sh")
        w("let mut %s = unsafe { Tensor<%s, [%d], Memory::SMEM>::uninit() };" % (tile, t, n))
        self.feat("smem_tile")
        ln = "(%d)" % lanes_n if lanes_n else ""
        l = self.fresh("l")
        w.open("for %s in 0..%d across lanes%s" % (l, n, ln))
        w("%s[%s] = %s;" % (tile, l, self.expr(t, [(l, "i32"), (b, "i32")], 2, [(lambda: "%s[%s][%s]" % (src, b, l), t)])))
        w.close()
        self.feat("block_code_between_lane_loops")
        acc = self.fresh("acc")
        w("let mut %s = %s[0];" % (acc, tile))
        k = self.fresh("k")
        w.open("for %s in 1..%d" % (k, min(n, 8)))
        w("%s = %s.max(%s[%s]);" % (acc, acc, tile, k))
        w.close()
        if self.chance(0.5):
            w("scoped_fence(AtomicOrdering::%s, FenceScope::%s);" % (self.pick(ORDERINGS), self.pick(SCOPES)))
            self.feat("fence")
        w("%s[%s] = %s;" % (out2, b, acc))
        l2 = self.fresh("l")
        w.open("for %s in 0..%d across lanes%s" % (l2, n, ln))
        shift = self.ri(1, n - 1)
        self.feat("neighbour_read_after_barrier")
        w("let nb = %s[(%s + %d) %% %d];" % (tile, l2, shift, n))
        env = [("nb", t), (acc, t), (l2, "i32")]
        w("%s[%s][%s] = %s;" % (out, b, l2, self.expr(t, env, 2)))
        w.close()
        w.close()
        w.close()
        self.print_tensor(w, out, t, [nb, n])
        self.print_tensor(w, out2, t, [nb])

    def sec_atomics(self, w):
        """Atomics with order-independent results (integers), float adds compared within a bound."""
        t = self.pick(["i32", "u32", "i64", "u64", "f32", "i32", "u32"])
        self.feat("atomic_type_" + t)
        nb = self.ri(1, 8)
        nl = self.pick([16, 32, 64, 100, 256])
        bins = self.ri(1, 9)
        smem = self.chance(0.4)
        hb = self.fresh("bins")
        w("let %s = transfer(Tensor<%s, [%d]>::fill(%s), Memory::HBM);" % (hb, t, bins, self.lit(t, 0 if t in INTS else 0.0)))
        per = self.fresh("per")
        if smem:
            w("let mut %s = transfer(Tensor<%s, [%d, %d]>::fill(%s), Memory::HBM);" % (per, t, nb, bins, self.lit(t, 0 if t in INTS else 0.0)))
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        b = self.fresh("b")
        w.open("for %s in 0..%d across blocks" % (b, nb))
        if smem:
            sm = self.fresh("sbins")
            w("let %s = Tensor<%s, [%d], Memory::SMEM>::fill(%s);" % (sm, t, bins, self.lit(t, 0 if t in INTS else 0.0)))
            self.feat("atomic_smem")
        l = self.fresh("l")
        w.open("for %s in 0..%d across lanes" % (l, nl))
        key = "(%s * %d + %s * %d) %% %d" % (b, self.ri(1, 7), l, self.ri(1, 13), bins)
        # one family per tensor, so that the final state does not depend on the order: adds and
        # subs commute (integers wrap; floats within a bound), max alone, min alone, and swap,
        # store or compare-and-swap of one value
        family = self.pick([["fetch_add"], ["fetch_sub"], ["fetch_add", "fetch_sub"], ["fetch_max"], ["fetch_min"],
                            ["compare_and_swap"], ["swap"], ["store"]])
        tgt = sm if smem else hb
        abs_sum = 0.0
        for op in family:
            self.feat("atomic_" + op)
            o = self.pick(ORDERINGS)
            m = self.ri(2, 50)
            if t in INTS:
                v = "((%s + %s) %% %d) as %s" % (l, b, m, t)
            else:
                v = "(((%s + %s) %% %d) as f32 * 0.25 + 0.5)" % (l, b, m)
                abs_sum += sum(((x + y) % m) * 0.25 + 0.5 for x in range(nb) for y in range(nl))
                if op in ("fetch_add", "fetch_sub") and self.chance(0.5):
                    v = "((%s * 7 + %s) as f32 * 0.1 + 0.3)" % (l, b)
                    abs_sum += sum((y * 7 + x) * 0.1 + 0.3 for x in range(nb) for y in range(nl))
            if op in ("swap", "store"):
                v = self.lit(t, 3 if t in INTS else 2.5)
            if op == "compare_and_swap":
                w("let _c%d = atomic_compare_and_swap_%s(&%s, %s, %s, %s, AtomicOrdering::%s);" % (
                    self.n, t, tgt, key, self.lit(t, 0 if t in INTS else 0.0), self.lit(t, 1 if t in INTS else 1.0), o))
                self.n += 1
            elif op == "store":
                w("atomic_store_%s(&%s, %s, %s, AtomicOrdering::%s);" % (t, tgt, key, v, o))
            elif self.chance(0.3):
                # the atomic in the branches of an `else if` chain, which must run once, and
                # only where taken (the emitter once ran a branch's tail twice per level)
                call = "atomic_%s_%s(&%s, %s, %s, AtomicOrdering::%s)" % (op, t, tgt, key, v, o)
                k = self.ri(3, 5)
                w("let _a%d = if %s %% %d == 0 { %s } else if %s %% %d == 1 { %s } else { %s };" % (
                    self.n, l, k, self.lit(t, 0 if t in INTS else 0.0), l, k, call, call))
                self.n += 1
                self.feat("atomic_in_if_branch")
            else:
                w("let _a%d = atomic_%s_%s(&%s, %s, %s, AtomicOrdering::%s);" % (self.n, op, t, tgt, key, v, o))
                self.n += 1
        if t == "f32" and any(op in ("fetch_add", "fetch_sub") for op in family):
            self.float_atomics = True
        if self.chance(0.3):
            w("scoped_fence(AtomicOrdering::%s, FenceScope::%s);" % (self.pick(ORDERINGS), self.pick(SCOPES)))
            self.feat("fence")
        w.close()
        if smem:
            k = self.fresh("k")
            w.open("for %s in 0..%d" % (k, bins))
            w("let v = atomic_load_%s(&%s, %s, AtomicOrdering::%s);" % (t, sm, k, self.pick(ORDERINGS)))
            self.feat("atomic_load")
            w("%s[%s][%s] = v;" % (per, b, k))
            w.close()
        w.close()
        w.close()
        tol = None
        if self.float_atomics and t == "f32":
            # the adds in another order: within 2^-12 of the sum of the magnitudes added
            tol = "%.3g" % (abs_sum * 2 ** -12)
            self.feat("tolerance_compare")
            self.float_atomics = False
        if smem:
            self.print_tensor(w, per, t, [nb, bins], tol=tol)
        else:
            self.print_tensor(w, hb, t, [bins], tol=tol)

    def sec_sort(self, w):
        nb = self.ri(1, 4)
        p = self.pick([1, 2, 4, 8, 16, 32, 64, 128])
        out = self.fresh("sorted")
        src = self.host_input(w, "i64", [nb, p])
        w("let mut %s = transfer(Tensor<i64, [%d, %d]>::fill(0), Memory::HBM);" % (out, nb, p))
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        b = self.fresh("b")
        w.open("for %s in 0..%d across blocks" % (b, nb))
        tile = self.fresh("st")
        w("let mut %s = unsafe { Tensor<i64, [%d], Memory::SMEM>::uninit() };" % (tile, p))
        l = self.fresh("l")
        w.open("for %s in 0..%d across lanes" % (l, p))
        if self.chance(0.5):
            w("%s[%s] = (%s[%s][%s] %% 5) - 2;" % (tile, l, src, b, l))
            self.feat("sort_ties")
        else:
            w("%s[%s] = %s[%s][%s];" % (tile, l, src, b, l))
        w.close()
        cnt = self.pick([str(p), "%d - %s %% %d" % (p, b, p)]) if p > 1 else "1"
        w("lanes::sort(&mut %s, %s);" % (tile, cnt))
        self.feat("lanes_sort")
        l2 = self.fresh("l")
        w.open("for %s in 0..%d across lanes" % (l2, p))
        w("%s[%s][%s] = %s[%s];" % (out, b, l2, tile, l2))
        w.close()
        w.close()
        w.close()
        self.print_tensor(w, out, "i64", [nb, p])

    def sec_copy_async(self, w):
        t = self.pick(["f32", "f16", "bf16"])
        self.feat("copy_async_" + t)
        two_d = self.chance(0.4)
        nb = self.ri(1, 5)
        if two_d:
            rows, cols = self.ri(2, 6), self.pick([8, 16, 20, 33])
            tr, tc = self.ri(1, 3), self.pick([4, 8, 16])
            src = self.host_input(w, t, [rows, cols])
            self.feat("copy_async_2d")
        else:
            ln = self.pick([10, 32, 50, 100])
            tn = self.pick([4, 8, 16, 32])
            src = self.host_input(w, t, [ln])
        dbl = self.chance(0.4)
        out = self.fresh("cp")
        n = tr * tc if two_d else tn
        w("let mut %s = transfer(Tensor<%s, [%d, %d]>::fill(%s), Memory::HBM);" % (out, t, nb, n, self.lit(t, 0.5)))
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        b = self.fresh("b")
        w.open("for %s in 0..%d across blocks" % (b, nb))
        tiles = [self.fresh("ct")]
        if dbl:
            tiles.append(self.fresh("ct"))
            self.feat("copy_async_double_buffer")
        toks = []
        for k, tl in enumerate(tiles):
            if two_d:
                w("let mut %s = unsafe { Tensor<%s, [%d, %d], Memory::SMEM>::uninit() };" % (tl, t, tr, tc))
                start = "[%s * %d + %d, %s * %d - %d]" % (b, self.ri(0, 2), k, b, self.ri(1, 9), self.ri(0, 3))
            else:
                w("let mut %s = unsafe { Tensor<%s, [%d], Memory::SMEM>::uninit() };" % (tl, t, tn))
                start = "[%s * %d + %d]" % (b, tn * (len(tiles)), k * tn - self.ri(0, 2))
            tok = self.fresh("tok")
            toks.append(tok)
            w("let %s = lanes::copy_async(&mut %s, &%s, %s);" % (tok, tl, src, start))
        for tok in toks:
            w("%s.wait();" % tok)
        self.feat("copy_async_wait")
        l = self.fresh("l")
        w.open("for %s in 0..%d across lanes" % (l, n))
        el = ["%s[%s / %d][%s %% %d]" % (tl, l, tc, l, tc) if two_d else "%s[%s]" % (tl, l) for tl in tiles]
        w("%s[%s][%s] = %s;" % (out, b, l, " + ".join(el)))
        w.close()
        w.close()
        w.close()
        self.print_tensor(w, out, t, [nb, n])

    def sec_fast(self, w):
        """fast_exp / fast_tanh: the GPU's approximations, compared within their relative bound
        (spec/math.md §4: 2^-21 for fast_exp, 2^-10.9 + 2^-23 for fast_tanh)."""
        m = self.pick(FAST)
        self.feat("math_" + m)
        nb, nl = self.ri(1, 4), self.pick([16, 32, 50])
        src = self.host_input(w, "f32", [nb, nl])
        out = self.fresh("fx")
        w("let mut %s = transfer(Tensor<f32, [%d, %d]>::fill(0.0), Memory::HBM);" % (out, nb, nl))
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        w.open("for b in 0..%d across blocks" % nb)
        w.open("for l in 0..%d across lanes" % nl)
        w("%s[b][l] = (%s[b][l] * %s).%s();" % (out, src, self.lit("f32", self.pick([0.5, 1.0, 2.0, -1.5])), m))
        w.close()
        w.close()
        w.close()
        self.print_tensor(w, out, "f32", [nb, nl], tol="r2e-5" if m == "fast_exp" else "r6e-4")

    def sec_pubfn(self, w):
        """A `pub fn` with a region inside, called from main (perhaps twice)."""
        t = self.pick(["f32", "i32", "f64", "u64", "i16"])
        name = self.fresh("kern")
        nb, nl = self.ri(1, 6), self.pick([8, 32, 50, 128])
        h = W()
        h.open("pub fn %s(out: &mut Tensor<%s, [%d, %d], Memory::HBM>, inp: &Tensor<%s, [?], Memory::HBM>, scale: %s)" % (
            name, t, nb, nl, t, t))
        h.open("spawn on(Topology::Device)")
        h.open("for b in 0..%d across blocks" % nb)
        h.open("for l in 0..%d across lanes" % nl)
        reads = [(lambda: "inp[(b * %d + l) %% inp.len()]" % self.ri(1, 9), t)]
        env = [("b", "i32"), ("l", "i32"), ("scale", t)]
        h("out[b][l] = out[b][l] + %s;" % self.expr(t, env, 2, reads))
        for _ in range(4):
            h.close()
        self.helpers.append("\n".join(h.lines))
        self.feat("pub_fn_region")
        inp = self.host_input(w, t, [self.ri(5, 40)])
        out = self.fresh("out")
        w("let mut %s = transfer(Tensor<%s, [%d, %d]>::fill(%s), Memory::HBM);" % (out, t, nb, nl, self.lit(t, 0 if t in INTS else 0.5)))
        for _ in range(self.ri(1, 2)):
            w("%s(&mut %s, &%s, %s);" % (name, out, inp, self.lit(t)))
            self.feat("region")
        self.print_tensor(w, out, t, [nb, nl])

    def sec_host_loop(self, w):
        """Host control flow around regions: a loop of launches, an if choosing between two."""
        t = self.pick(["i32", "f32", "i64", "u32"])
        nb, nl = self.ri(1, 5), self.pick([16, 33, 64])
        out = self.fresh("acc")
        w("let mut %s = transfer(Tensor<%s, [%d, %d]>::fill(%s), Memory::HBM);" % (out, t, nb, nl, self.lit(t, 0 if t in INTS else 0.0)))
        rep = self.fresh("rep")
        w.open("for %s in %s" % (rep, self.plain_range(0, self.ri(2, 4))))
        self.feat("host_loop")
        x = self.fresh("x")
        w("let %s = (%s * %d) as %s;" % (x, rep, self.ri(1, 9), t))
        w.open("if %s %% 2 == 0" % rep)
        self.feat("host_if")
        for branch in range(2):
            w.open("spawn on(Topology::Device)")
            self.feat("region")
            w.open("for b in 0..%d across blocks" % nb)
            w.open("for l in 0..%d across lanes" % nl)
            env = [("b", "i32"), ("l", "i32"), (x, t)]
            w("%s[b][l] = %s[b][l] %s %s;" % (out, out, "+" if branch == 0 else "-", self.expr(t, env, 2)))
            w.close()
            w.close()
            w.close()
            if branch == 0:
                w.close("} else {")
                w.ind += 1
        w.close()
        w.close()
        self.print_tensor(w, out, t, [nb, nl])

    def sec_error(self, w):
        """A region that stops with a runtime error on purpose (index out of bounds, division by 0)."""
        kind = self.pick(["oob", "div0", "rem0", "lanes_n", "array_oob"])
        self.feat("runtime_error_" + kind)
        nb, nl = self.ri(1, 4), self.pick([8, 32, 40])
        out = self.fresh("bad")
        tab = self.host_input(w, "i32", [nb * nl])
        w("let mut %s = transfer(Tensor<i32, [%d, %d]>::fill(0), Memory::HBM);" % (out, nb, nl))
        w.open("spawn on(Topology::Device)")
        self.feat("region")
        w.open("for b in 0..%d across blocks" % nb)
        if kind == "lanes_n":
            w("let mut t = unsafe { Tensor<i32, [%d], Memory::SMEM>::uninit() };" % nl)
            w.open("for l in 0..%d across lanes" % nl)
            w("t[l] = l;")
            w.close()
            w("let s = lanes::sum(&t, %d + b);" % (nl - nb + 2))
            w("%s[b][0] = s;" % out)
        else:
            w.open("for l in 0..%d across lanes" % nl)
            z = self.ri(0, nl - 1)
            bz = self.ri(0, nb - 1)
            if kind == "oob":
                w("%s[b][l] = %s[b * %d + l + %d];" % (out, tab, nl, self.ri(1, nl)))
            elif kind == "array_oob":
                from . import arrays
                arrays.error_oob(self, w, out, nb, nl)
            elif kind == "div0":
                w("%s[b][l] = 100 / (l - %d + b - %d);" % (out, z, bz))
            else:
                w("%s[b][l] = 100 %% (l - %d + b - %d);" % (out, z, bz))
            w.close()
        w.close()
        w.close()
        self.print_tensor(w, out, "i32", [nb, nl])

    def helper_fns(self):
        for _ in range(self.ri(0, 2)):
            t = self.pick(["f32", "i32", "f64", "u8", "i64", "f16"])
            name = self.fresh("dev")
            x = "x"
            body = self.expr(t, [(x, t)], 2)
            if self.chance(0.4):
                # a bounded while loop in device code
                n = self.ri(1, 4)
                step = self.expr(t, [("acc", t), (x, t)], 1)
                self.helpers.append(
                    "fn %s(%s: %s) -> %s {\n    let mut acc = %s;\n    let mut i = 0;\n    while i < %d {\n"
                    "        acc = %s;\n        i += 1;\n    }\n    return acc;\n}" % (name, x, t, t, body, n, step))
                self.feat("device_while_loop")
            else:
                self.helpers.append("fn %s(%s: %s) -> %s {\n    return %s;\n}" % (name, x, t, t, body))
            self.helper_sigs.setdefault(t, []).append(name)
            self.feat("device_helper_fn")

    def program(self):
        self.helper_fns()
        tuples.tuple_helpers(self)
        structs.struct_helpers(self)
        w = W()
        w.ind = 1
        nsec = self.ri(1, 4)
        self.feat("sections_%d" % nsec)
        # each section in a block of its own, so that the reducer's first deletions are sections
        for k in range(nsec):
            w.open("")
            w.lines[-1] = w.lines[-1].replace(" {", "{// section %d" % k).replace("{//", "{ //")
            self.section(w, k == nsec - 1)
            w.close()
        from . import devcode
        devcode.section(self, w)
        if self.chance(0.12):
            w.open("")
            w.lines[-1] = w.lines[-1].replace(" {", "{ // section error")
            self.sec_error(w)
            w.close()
        text = "// vx smith --seed %d\n" % self.seed
        for h in self.helpers:
            text += h + "\n\n"
        text += "fn main() {\n" + "\n".join(w.lines) + "\n}\n"
        return text


def generate(seed, features=None):
    text = Gen(seed, features).program()
    if features is not None:
        try:
            found = kinds.features(text)
        except kinds.ParseError:
            found = {"kind_parse_error": 1}  # tests/smith_kinds_test.py names the seed and why
        for k, v in found.items():
            features[k] = features.get(k, 0) + v
    return text
