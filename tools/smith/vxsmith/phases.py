"""Race mutants of the rules' other indices (spec/kernel-rules.md §4 step 2): one tensor accessed
in three phases of a block, a lane loop, block code and a second lane loop, at indices written
in several equivalent ways (`l + b * 8`, `8 * b + l`), at the store's index with another value of
a lane (`b * 8`, `b * 8 + 7 - l`), next to it (`b * 8 + 8`, `b * 8 + l + 1`), or at a constant
apart. The oracle knows the phases: two accesses of one element, one a write, race when two
blocks make them, or two lanes of one block in one lane loop; the phases of a block run in
order. Used by races.any_mutant."""
import random

from .races import Mutant


def _idx(text, fn):
    return (text, fn)


class PhaseMutant(Mutant):
    def __init__(self, nb, nl, phases, klass, note, rows=False):
        self.nb, self.nl, self.phases, self.rows = nb, nl, phases, rows
        # one spare element: `b * nl + nl` is in bounds for every b; by rows, a spare row and
        # column (`out[b + 1][c]`, `out[b][nl]`)
        self.dims = [nb + 1, nl + 1] if rows else [nb * nl + 1]
        self.klass, self.note = klass, note
        self.loops = []

    def region_lines(self):
        lines = ["    spawn on(Topology::Device) {",
                 "        for b in 0..%d across blocks {" % self.nb]
        for kind, stmts in self.phases:
            body = [self._statement(w, r) for w, r in stmts]
            if kind == "lanes":
                lines.append("            for l in 0..%d across lanes {" % self.nl)
                lines += ["                " + s for s in body]
                lines.append("            }")
            else:
                lines += ["            " + s for s in body]
        return lines + ["        }", "    }"]

    @staticmethod
    def _statement(w, r):
        return "out%s = %s;" % (PhaseMutant._place(w[0]), "out%s + 1" % PhaseMutant._place(r[0]) if r else "1")

    @staticmethod
    def _place(text):
        """`[i]`, or `[row][col]` for an index given as a (row, col) pair of texts."""
        return "[%s][%s]" % text if isinstance(text, tuple) else "[%s]" % text

    def text(self):
        lines = ["// vx smith race mutant: %s %s" % (self.klass, self.note), "fn main() {",
                 "    let mut out = transfer(Tensor<i32, [%s]>::fill(0), Memory::HBM);" % ", ".join(map(str, self.dims))]
        return "\n".join(lines + self.region_lines() + self.checksum_lines()) + "\n"

    def truth(self, limit=1 << 18):
        n = self.dims[0]
        events = {}  # element -> [(write, block, phase, lane)]
        oob = False
        for b in range(self.nb):
            for ph, (kind, stmts) in enumerate(self.phases):
                for l in (range(self.nl) if kind == "lanes" else [None]):
                    for w, r in stmts:
                        for acc, write in ((r, False), (w, True)):
                            if acc is None:
                                continue
                            e = acc[1](b, l)
                            if self.rows:  # (row, column), each in its dimension
                                if not (0 <= e[0] < self.dims[0] and 0 <= e[1] < self.dims[1]):
                                    oob = True
                                    continue
                            elif e < 0 or e >= n:
                                oob = True
                                continue
                            events.setdefault(e, []).append((write, b, ph, l))
        for e, evs in sorted(events.items()):
            for i, x in enumerate(evs):
                for y in evs[i + 1:]:
                    if not (x[0] or y[0]):
                        continue
                    if x[1] != y[1] or (x[2] == y[2] and x[3] is not None and x[3] != y[3]):
                        kind = "write" if x[0] and y[0] else "read"
                        return True, (kind, (x[1], x[3]), (y[1], y[3]), e), oob
        return False, None, oob


def phase_mutant(seed):
    r = random.Random(seed * 6700417 + 29)
    nb = r.choice([2, 3, 4])
    nl = r.choice([4, 8, 16])

    def row(c):  # b * nl + c, written one of three ways
        form = r.choice(["b * %d + %s", "%s + b * %d", "%d * b + %s"])
        if form.startswith("%s"):
            return form % (c, nl)
        return form % (nl, c)

    store = _idx(row("l"), lambda b, l: b * nl + l)
    # the first lane loop: the store, and a read at its index (reordered) or next to it
    first_read = r.choice([None, "same", "same", "next", "previous"])
    reads = {None: None,
             "same": _idx(row("l"), lambda b, l: b * nl + l),
             "next": _idx(row("l + 1"), lambda b, l: b * nl + l + 1),
             "previous": _idx(row("l - 1"), lambda b, l: b * nl + l - 1)}
    phases = [("lanes", [(store, reads[first_read])])]
    # block code: a store and a read at constants of the block's row (or the next row's)
    consts = [0, 1, nl - 1, 0, 1, nl - 1, nl, -1]  # within the row three times in four
    c1, c2 = r.choice(consts), r.choice(consts)
    block = []
    if r.random() < 0.7:
        block.append((_idx(row(str(c1)), lambda b, l, c=c1: b * nl + c),
                      _idx(row(str(c2)), lambda b, l, c=c2: b * nl + c)))
    if r.random() < 0.3:
        # a second store of the block, a constant apart from the first
        d = r.choice([1, 2, nl])
        block.append((_idx(row(str(c1 + d)), lambda b, l, c=c1 + d: b * nl + c), None))
    if block:
        phases.append(("block", block))
    # a second lane loop: its own store and read, reversed, shifted or collapsed
    forms = {"own": ("l", lambda b, l: b * nl + l),
             "reversed": ("%d - l" % (nl - 1), lambda b, l: b * nl + nl - 1 - l),
             "shifted": ("l + 1", lambda b, l: b * nl + l + 1),
             "first": ("0", lambda b, l: b * nl)}
    w3 = r.choice(["own", "own", "reversed", "shifted", "first"])
    r3 = w3 if r.random() < 0.6 else r.choice(list(forms))
    if r.random() < 0.8:
        phases.append(("lanes", [(_idx(row(forms[w3][0]), forms[w3][1]),
                                  _idx(row(forms[r3][0]), forms[r3][1]))]))
    note = "first read %s, block %s, second %s/%s" % (first_read, [c1, c2] if block else "-", w3, r3)
    if random.Random(seed * 9973 + 5).random() < 0.35:
        # by rows: `out[b][c]` for `b * nl + c`, and now and then the next row (`out[b + 1][c]`)
        nxt = random.Random(seed * 9973 + 6).random() < 0.2

        def by_rows(ix, first):
            text, fn = ix
            col = text.replace("b * %d + " % nl, "").replace(" + b * %d" % nl, "").replace("%d * b + " % nl, "")
            row = "b + 1" if nxt and not first else "b"
            return ((row, col), lambda b, l, fn=fn, dr=(1 if nxt and not first else 0): (b + dr, fn(b, l) - b * nl))

        phases = [(kind, [(by_rows(w, k == 0), by_rows(r, False) if r else None) for w, r in stmts])
                  for k, (kind, stmts) in enumerate(phases)]
        return PhaseMutant(nb, nl, phases, "phases_rows", note + (", next row" if nxt else ""), rows=True)
    return PhaseMutant(nb, nl, phases, "phases", note)
