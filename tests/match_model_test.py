#!/usr/bin/env python3
"""`match` exhaustiveness and unreachable patterns against a model that enumerates values
(spec/semantics.md §3, spec/errors.md `unreachable_patterns`).

Each program matches a tuple of scalars (a tuple inside it too): bool, u8 and i8, and in half of
the programs the wide types, i16 to u64 and char, at most two of them not bool. The arms,
or-patterns at the top and inside tuples, guards and `_` are drawn at random from a seed. numpy
holds every value of the type at once, a wide scalar by its classes: the type's values cut at the
first value and one past the last of each range the program writes of it (a char's also at the
surrogates, which are no values), so every range holds each class whole or not at all. Some
programs have two arms that hold every char between them, one on each side of the surrogates. A
pattern is the set of values (classes) it matches, and the model says, from those sets alone:

- whether the arms without a guard hold every value: E0208 if not, and then each pattern vx names
  as not covered must match some value and none that an unguarded arm matches (a range it names
  may cut a class: it matches a class when it holds any of its values, and a covered class is
  covered whole);
- which patterns no value reaches: an alternative of an arm whose values the unguarded arms above
  and the alternatives before it in its arm hold; inside a tuple pattern, an alternative whose
  values (the rest of the pattern as it is) those and the alternatives before it hold. Only the
  outermost such pattern is named. vx must warn `unreachable pattern` on exactly those spans.

The algorithm in vx (check/match_usefulness.cpp) splits a column by the rows at each step of a
recursion and takes tuples apart. The model cuts each type once, by every range of the program,
and tests every combination of classes.

usage: match_model_test.py VX [--programs N] [--seed S]
"""
import bisect
import json
import os
import random
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, int_option, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
PROGRAMS = int_option("--programs", 400)
SEED = int_option("--seed", 1)
BOUNDS = {"bool": (0, 1), "u8": (0, 255), "i8": (-128, 127)}
for bits in (16, 32, 64):
    BOUNDS[f"i{bits}"] = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    BOUNDS[f"u{bits}"] = (0, (1 << bits) - 1)
BOUNDS["char"] = (0, 0x10FFFF)
SURROGATES = (0xD800, 0xDFFF)
WIDE = ["i16", "u16", "i32", "u32", "i64", "u64", "char"]
checks = Checks("match_model")
tmp = scratch_dir(prefix="vx_match_model_")


# A type is a scalar's name or a list of types (a tuple). Its values are columns: one per scalar
# leaf, a pair of a numpy array of class numbers (all of one length, every combination once) and
# the classes, each an interval (lo, hi) of the scalar's values in order. A bool's or an 8-bit
# scalar's class is one value; a wide scalar's are cut at `cuts[type]`.
def leaves(t):
    return [t] if isinstance(t, str) else [x for e in t for x in leaves(e)]


def domain(s):
    lo, hi = BOUNDS[s]
    if s == "char":
        return [(lo, SURROGATES[0] - 1), (SURROGATES[1] + 1, hi)]
    return [(lo, hi)]


def classes(s, cuts):
    if s not in WIDE:
        return [(v, v) for v in range(BOUNDS[s][0], BOUNDS[s][1] + 1)]
    out = []
    for a, b in domain(s):
        at = a
        for c in sorted(c for c in cuts.get(s, ()) if a < c <= b):
            out.append((at, c - 1))
            at = c
        out.append((at, b))
    return out


def columns(t, cuts):
    tables = [classes(s, cuts) for s in leaves(t)]
    grids = np.meshgrid(*[np.arange(len(x)) for x in tables], indexing="ij")
    return [(g.ravel(), table) for g, table in zip(grids, tables)]


def collect_cuts(node, t, cuts):
    """Adds to cuts[type] the first value, and one past the last, of each range of the pattern."""
    if node.kind == "range":
        cuts.setdefault(t, set()).update((node.lo, node.hi + 1))
    elif node.kind == "or":
        for alt in node.subs:
            collect_cuts(alt, t, cuts)
    elif node.kind == "tuple":
        for sub, et in zip(node.subs, t):
            collect_cuts(sub, et, cuts)


def type_text(t):
    if isinstance(t, str):
        return t
    return "(" + ", ".join(type_text(e) for e in t) + ("," if len(t) == 1 else "") + ")"


# A pattern is a node: ("wild",), ("range", lo, hi), ("tuple", [subs]) or ("or", [alts]), with
# its text and its columns within the line (`at`, `to`) set when it is written.
class Node:
    def __init__(self, kind, subs=(), lo=0, hi=0):
        self.kind, self.subs, self.lo, self.hi = kind, list(subs), lo, hi
        self.at = self.to = 0


def scalar_text(s, v):
    if s == "bool":
        return "true" if v else "false"
    if s == "char":
        printable = 0x20 <= v < 0x7F and chr(v) not in "'\\"
        return f"'{chr(v)}'" if printable else "'\\u{%X}'" % v
    return str(v)


def wide_value(s, r):
    """A value of the wide scalar s: an edge of the type, a small one or any."""
    lo, hi = BOUNDS[s]
    if s == "char":
        v = r.choice([0, 0x7F, ord("a"), ord("z"), SURROGATES[0] - 1, SURROGATES[1] + 1, hi,
                      r.randint(0x20, 0x7E), r.randint(0x20, 0x7E), r.randint(lo, hi)])
        return v if not SURROGATES[0] <= v <= SURROGATES[1] else SURROGATES[1] + 1
    return r.choice([lo, lo + 1, -1 if lo < 0 else 2, 0, 1, hi - 1, hi, r.randint(max(lo, -50), 50),
                     r.randint(max(lo, -50), 50), r.randint(lo, hi)])


def wide_range(s, r):
    """A range of the wide scalar s: a value, a short range, or one to a far value or the end."""
    lo, hi = BOUNDS[s]
    if s == "char" and r.random() < 0.15:  # the values on one side of the surrogates
        a, b = r.choice([(lo, SURROGATES[0] - 1), (SURROGATES[1] + 1, hi)])
        return Node("range", lo=a, hi=b)
    a = wide_value(s, r)
    b = r.choice([a, a + r.choice([1, 3, 30]), max(a, wide_value(s, r)), hi])
    b = min(b, hi)
    if s == "char" and SURROGATES[0] <= b <= SURROGATES[1]:
        b = SURROGATES[0] - 1 if a < SURROGATES[0] else SURROGATES[1] + 1
    return Node("range", lo=a, hi=max(a, b))


def draw(t, r, depth=0, ors=True):
    """A random pattern for type t; or-patterns of scalars inside tuples, of tuples at the top."""
    if r.random() < 0.12:
        return Node("wild")
    if isinstance(t, list):
        if ors and depth == 0 and r.random() < 0.3:
            return Node("or", [draw(t, r, 1, False) for _ in range(r.randint(2, 3))])
        return Node("tuple", [draw(e, r, depth + 1, ors) for e in t])
    lo, hi = BOUNDS[t]
    if ors and r.random() < 0.2:
        return Node("or", [draw(t, r, depth + 1, False) for _ in range(r.randint(2, 3))])
    if t in WIDE:
        return wide_range(t, r)
    a = r.randint(lo, hi)
    if t != "bool" and r.random() < 0.5:
        return Node("range", lo=a, hi=r.randint(a, min(hi, a + r.choice([0, 3, 20, 100]))))
    return Node("range", lo=a, hi=a)


def write(node, t, col):
    """The pattern's text, starting at column `col` (1-based); sets each node's at and to."""
    node.at = col
    if node.kind == "wild":
        text = "_"
    elif node.kind == "range":
        text = scalar_text(t, node.lo)
        if node.hi != node.lo:
            text += "..=" + scalar_text(t, node.hi)
    elif node.kind == "or":
        text = ""
        for k, alt in enumerate(node.subs):
            if k:
                text += " | "
            text += write(alt, t, col + len(text))
    else:
        text = "("
        for k, (sub, et) in enumerate(zip(node.subs, t)):
            if k:
                text += ", "
            text += write(sub, et, col + len(text))
        text += ",)" if len(t) == 1 else ")"
    node.to = col + len(text)
    return text


def mask(node, t, cols):
    """The values of type t (as columns) that the pattern matches."""
    n = len(cols[0][0])
    if node.kind == "wild":
        return np.ones(n, dtype=bool)
    if node.kind == "range":  # the classes with a value in lo..=hi, which are in a row
        numbers, table = cols[0]
        first = bisect.bisect_left([b for _, b in table], node.lo)
        last = bisect.bisect_right([a for a, _ in table], node.hi) - 1
        return (numbers >= first) & (numbers <= last)
    if node.kind == "or":
        m = np.zeros(n, dtype=bool)
        for alt in node.subs:
            m |= mask(alt, t, cols)
        return m
    m = np.ones(n, dtype=bool)
    at = 0
    for sub, et in zip(node.subs, t):
        width = len(leaves(et))
        m &= mask(sub, et, cols[at:at + width])
        at += width
    return m


def replaced(node, target, by):
    """The pattern with the node `target` replaced by `by`."""
    if node is target:
        return by
    if node.kind in ("tuple", "or"):
        return Node(node.kind, [replaced(s, target, by) for s in node.subs])
    return node


def or_nodes(node):
    if node.kind == "or":
        yield node
    if node.kind in ("tuple", "or"):
        for s in node.subs:
            yield from or_nodes(s)


def unreachable(arm, t, cols, above):
    """The spans of the arm's patterns that no value reaches, the outermost only. `above`: the
    values the unguarded arms above hold."""
    found = []
    alts = arm.subs if arm.kind == "or" else [arm]
    covered = above.copy()
    for alt in alts:
        m = mask(alt, t, cols)
        if not (m & ~covered).any():
            found.append((alt.at, alt.to))
        else:
            dead = []  # the or-nodes' alternatives inside it
            for o in or_nodes(alt):
                if any(a <= o.at and o.to <= b for a, b in dead):
                    continue
                for k, sub in enumerate(o.subs):
                    if any(a <= sub.at and sub.to <= b for a, b in dead):
                        continue
                    values = mask(replaced(alt, o, sub), t, cols)
                    before = covered | mask(replaced(alt, o, Node("or", o.subs[:k])), t, cols)
                    if not (values & ~before).any():
                        dead.append((sub.at, sub.to))
            found += dead
        covered |= m
    return found


# The patterns vx names as missing, parsed back into nodes.
SCALAR = r"(?:[iu](?:8|16|32|64))"
CHAR = r"'(?:[^'\\]|\\u\{[0-9a-f]+\}|\\[0nrt'\\])'"
TOKEN = re.compile(rf"\s*(\(|\)|,|_|true|false|\.\.=|{SCALAR}::(?:MIN|MAX)|-?\d+_{SCALAR}|{CHAR})")
ESCAPES = {"0": 0, "n": 10, "r": 13, "t": 9, "'": 39, "\\": 92}


def parse_witnesses(message, t):
    """The patterns that E0208's message names between backticks, as (text, node). They are read
    with the tokens of patterns, not up to the next backtick, which a char may be (`'`'`)."""
    pos = 0

    def token():
        nonlocal pos
        m = TOKEN.match(message, pos)
        if not m:
            raise ValueError(f"cannot read {message[pos:]!r}")
        pos = m.end()
        return m.group(1)

    def value(tok, s):
        if tok in ("true", "false"):
            return int(tok == "true")
        if tok.startswith("'"):
            if s != "char":
                raise ValueError(f"{tok} is not a {s}")
            body = tok[1:-1]
            if body.startswith("\\u{"):
                return int(body[3:-1], 16)
            return ESCAPES[body[1]] if body.startswith("\\") else ord(body)
        if "::" in tok:
            name, end = tok.split("::")
            if name != s:
                raise ValueError(f"{tok} is not a {s}")
            return BOUNDS[s][0 if end == "MIN" else 1]
        number, suffix = tok.rsplit("_", 1)
        if suffix != s:
            raise ValueError(f"{tok} is not a {s}")
        return int(number)

    def one(t):
        nonlocal pos
        tok = token()
        if tok == "_":
            return Node("wild")
        if isinstance(t, list):
            if tok != "(":
                raise ValueError(f"a tuple starts with {tok!r}")
            subs = []
            for k, et in enumerate(t):
                subs.append(one(et))
                sep = token()
                if sep == ",":
                    sep = token() if k == len(t) - 1 else sep
                if (k == len(t) - 1) != (sep == ")"):
                    raise ValueError(f"{sep!r} after element {k}")
            return Node("tuple", subs)
        lo = value(tok, t)
        if message.startswith("..=", pos):
            pos += 3
            return Node("range", lo=lo, hi=value(token(), t))
        return Node("range", lo=lo, hi=lo)

    out = []
    while (start := message.find("`", pos)) >= 0:
        pos = start + 1
        node = one(t)
        if message[pos:pos + 1] != "`":
            raise ValueError(f"{message[start:pos + 10]!r}: no closing backtick")
        out.append((message[start + 1:pos], node))
        pos += 1
    return out


def draw_type(r):
    """A tuple type with at most two elements other than bool: 8-bit ones, or in half of the
    programs also wide ones."""
    wide = r.random() < 0.5
    big = 0

    def scalar(p_bool):
        nonlocal big
        if big >= 2 or r.random() < p_bool:
            return "bool"
        big += 1
        return r.choice(["u8", "i8"] + (WIDE if wide else []))

    out = []
    for _ in range(r.randint(2, 3)):
        out.append([scalar(0.5), scalar(0.5)] if r.random() < 0.2 else scalar(0.4))
    return out


def only(t, leaf, node):
    """A pattern of type t that is `_` but at its scalar number `leaf`, which is `node`."""
    def build(t, at):
        if isinstance(t, str):
            return (node if at == leaf else Node("wild")), at + 1
        subs = []
        for e in t:
            sub, at = build(e, at)
            subs.append(sub)
        return Node("tuple", subs), at
    return build(t, 0)[0]


def one_program(seed):
    r = random.Random(seed)
    t = draw_type(r)
    lines = ["fn main() {", f"    let v: {type_text(t)} = {value_text(t)};",
             "    let g = v.0 == v.0;", "    let k = match v {"]
    arms = []
    count = r.randint(1, 7)
    chars = [k for k, s in enumerate(leaves(t)) if s == "char"]
    # Sometimes two arms that hold every char between them, one on each side of the surrogates.
    halves_at = r.randint(0, count - 1) if chars and r.random() < 0.3 else -1
    for i in range(count):
        if i == halves_at:
            leaf = r.choice(chars)
            drawn = [(only(t, leaf, Node("range", lo=a, hi=b)), False) for a, b in domain("char")]
        else:
            drawn = [(draw(t, r), r.random() < 0.15)]
        for arm, guard in drawn:
            text = write(arm, t, 9)
            lines.append("        " + text + (" if g" if guard else "") + f" => {i},")
            arms.append((len(lines), arm, guard))
    if r.random() < 0.35:
        arm = Node("wild")
        write(arm, t, 9)
        lines.append("        _ => 99,")
        arms.append((len(lines), arm, False))
    lines += ["    };", '    println!("{}", k);', "}"]
    source = "\n".join(lines) + "\n"
    cuts = {}
    for _, arm, _ in arms:
        collect_cuts(arm, t, cuts)
    cols = columns(t, cuts)

    above = np.zeros(len(cols[0][0]), dtype=bool)
    want_dead = set()
    for line, arm, guard in arms:
        want_dead |= {(line, a, b) for a, b in unreachable(arm, t, cols, above)}
        if not guard:
            above |= mask(arm, t, cols)
    exhaustive = bool(above.all())

    path = os.path.join(tmp, f"m{seed}.vx")
    with open(path, "w") as f:
        f.write(source)
    p = run([VX, "check", "--error-format=json", path])
    diags = []
    for line in p.stderr.splitlines():
        if line.startswith("{"):
            diags.append(json.loads(line))
    what = f"seed {seed} ({path}):\n{source}"
    errors = [d for d in diags if d["level"] == "error"]
    if not exhaustive:
        if [d["code"] for d in errors] != ["E0208"] or p.returncode != 1:
            return checks.fail(f"{what}not exhaustive; vx: status {p.returncode}, "
                               f"{[(d['code'], d['message']) for d in errors]}")
        try:
            named = parse_witnesses(errors[0]["message"], t)
        except ValueError as e:
            return checks.fail(f"{what}cannot read the missing patterns of "
                               f"{errors[0]['message']!r}: {e}")
        if not named:
            return checks.fail(f"{what}E0208 names no pattern: {errors[0]['message']}")
        for w, node in named:
            m = mask(node, t, cols)
            if not m.any() or (m & above).any():
                return checks.fail(f"{what}`{w}` is named as not covered, but it matches "
                                   f"{int(m.sum())} classes, {int((m & above).sum())} of them covered")
        return "missing"
    if errors or p.returncode != 0:
        return checks.fail(f"{what}exhaustive; vx: status {p.returncode}, "
                           f"{[(d['code'], d['message']) for d in errors]}")
    got_dead = set()
    for d in diags:
        if d.get("lint") == "unreachable_patterns":
            s = [x for x in d["spans"] if x["is_primary"]][0]
            got_dead.add((s["line_start"], s["column_start"], s["column_end"]))
    if got_dead != want_dead:
        return checks.fail(f"{what}unreachable patterns (line, from, to): vx {sorted(got_dead)}, "
                           f"model {sorted(want_dead)}")
    return "unreachable" if want_dead else "clean"


def value_text(t):
    if isinstance(t, str):
        return {"bool": "true", "char": "'a'"}.get(t, "1")
    return "(" + ", ".join(value_text(e) for e in t) + ("," if len(t) == 1 else "") + ")"


counts = {}
for i in range(PROGRAMS):
    kind = one_program(SEED * 1_000_003 + i)
    counts[kind] = counts.get(kind, 0) + 1
print("match_model: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str)))
# Each kind of verdict must occur, or the draw tests less than it says.
for kind in ("missing", "unreachable", "clean"):
    if counts.get(kind, 0) < PROGRAMS // 20:
        checks.fail(f"only {counts.get(kind, 0)} of {PROGRAMS} programs are `{kind}`")
checks.finish()
