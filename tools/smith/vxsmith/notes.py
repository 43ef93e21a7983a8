"""The collision notes of `vx check`, checked against the race oracle (spec/smith.md §4).

spec/kernel-rules.md §4 promises that every note naming two passes is true: "block 0 lane 8 and
block 1 lane 0 both write element 8", "lane 1 writes element 1 and lane 0 reads it". Here each pass
a note names is run through the mutant's own model (races.Mutant: its loops, its guard, its indices,
evaluated with Vx's integer semantics), and the note holds when each named pass gets to the
access the note says (its guard holds, for some values of the loops the note does not name) and
reaches that element there. A note that says it does not follow what decides whether a pass gets
there ("… would both write …, if both get there") is checked on the indices alone. Nothing from
src/check or src/rules is used.
"""

import itertools
import re

_GROUP = r"(?:\d+|\(\d+(?:, \d+)*\))"
_PASS = r"((?:block %s)?(?: ?lane %s)?(?: with `\w+` = -?\d+(?:, `\w+` = -?\d+)*)?)" % (_GROUP, _GROUP)
_ELEM = r"element ((?:\[\d+\])+|\d+)"
_HEDGE = r"(, if both get there.*)?"
WRITES = re.compile(r"^%s and %s( would)? both write %s%s$" % (_PASS, _PASS, _ELEM, _HEDGE))
READS = re.compile(r"^%s (?:would write|writes) %s and %s (?:read|reads) it%s$" % (_PASS, _ELEM, _PASS, _HEDGE))
NOTE = re.compile(r"^\s*= note: (.*)$")


def _numbers(group):
    return [int(x) for x in re.findall(r"-?\d+", group)] if group else []


def parse_pass(text):
    """{loop kind or name: values}: 'blocks' and 'lanes' lists in loop order, and each named plain
    loop's value."""
    out = {"blocks": [], "lanes": [], "plain": {}}
    m = re.match(r"^(?:block (%s))? ?(?:lane (%s))?(?: with (.*))?$" % (_GROUP, _GROUP), text.strip())
    if not m:
        return None
    out["blocks"], out["lanes"] = _numbers(m.group(1)), _numbers(m.group(2))
    for name, v in re.findall(r"`(\w+)` = (-?\d+)", m.group(3) or ""):
        out["plain"][name] = int(v)
    return out


def parse(note):
    """(first pass, second pass, element as a tuple, whether the second reads, hedged) or None."""
    m = WRITES.match(note)
    if m:
        return parse_pass(m.group(1)), parse_pass(m.group(2)), _element(m.group(4)), False, bool(m.group(5))
    m = READS.match(note)
    if m:
        return parse_pass(m.group(1)), parse_pass(m.group(3)), _element(m.group(2)), True, bool(m.group(4))
    return None


def _element(text):
    return tuple(_numbers(text))


def collision_notes(stderr):
    """The notes of `vx check`'s stderr that name two passes."""
    out = []
    for line in stderr.splitlines():
        m = NOTE.match(line)
        if m and (" both write " in m.group(1) or " reads it" in m.group(1) or " read it" in m.group(1)):
            out.append(m.group(1).strip())
    return out


def checkable(m):
    """Whether the mutant's model is races.Mutant's: loops, a guard, a store's and a read's indices
    (a mutant of phases is not)."""
    return hasattr(m, "loops") and hasattr(m, "idx") and not hasattr(m, "phases")


def _reaches(m, p, exprs, element, hedged):
    """Whether some values of the loops the pass `p` does not name make it get to the access of
    `exprs` (the store's or the read's indices) and reach `element`."""
    if exprs is None:
        return False
    blocks = [lp for lp in m.loops if lp.kind == "blocks"]
    lanes = [lp for lp in m.loops if lp.kind == "lanes"]
    # a note names the loops its offset uses: with two lane loops it may name one, not saying
    # which, so each choice of loops, in order, is tried
    for bs in itertools.combinations(blocks, len(p["blocks"])):
        for ls in itertools.combinations(lanes, len(p["lanes"])):
            fixed = dict(p["plain"])
            fixed.update({lp.name: v for lp, v in zip(bs, p["blocks"])})
            fixed.update({lp.name: v for lp, v in zip(ls, p["lanes"])})
            if _reaches_with(m, fixed, exprs, element, hedged):
                return True
    return False


def _reaches_with(m, fixed, exprs, element, hedged):
    env0 = dict(getattr(m, "env0", {}))

    def rec(k, env):
        if k == len(m.loops):
            if not hedged and m.guard is not None and not m.guard[1](env):
                return False
            try:
                got = tuple(e.ev(env) for e in exprs)
            except ZeroDivisionError:
                return False
            if any(v < 0 or v >= d for v, d in zip(got, m.dims)):
                return False
            return _flat(got, m.dims) == _flat(element, m.dims) if len(element) != len(got) else got == element
        lp = m.loops[k]
        values = list(lp.values_in(env))
        if lp.name in fixed:
            values = [fixed[lp.name]] if fixed[lp.name] in values else []
        for v in values:
            env[lp.name] = v
            if rec(k + 1, env):
                return True
        return False

    return rec(0, env0)


def _flat(index, dims):
    off = 0
    for i, d in zip(index, dims):
        off = off * d + i
    return off if len(index) == len(dims) else index[0]


def note_holds(m, note):
    """True or False for a note this can read about a mutant it can model; None otherwise."""
    parsed = parse(note)
    if parsed is None or not checkable(m):
        return None
    first, second, element, reads, hedged = parsed
    if first is None or second is None:
        return None
    if hasattr(m, "calls"):  # a kernel with parameters: the values of main's first call
        m._at(m.calls[0])
    limit = 1
    for lp in m.loops:
        limit *= max(1, lp.hi - lp.lo)
    if limit > 1 << 18:
        return None
    return (_reaches(m, first, m.idx, element, hedged) and
            _reaches(m, second, m.read if reads else m.idx, element, hedged))
