#!/usr/bin/env python3
"""`match` exhaustiveness and unreachable patterns against a model that enumerates values
(spec/semantics.md §3, spec/errors.md `unreachable_patterns`).

Each program matches a tuple of bool, u8 and i8 elements (a tuple inside it too), at most two of
them 8-bit, so numpy holds every value of the type at once: a pattern is the set of values it
matches, and the arms, or-patterns at the top and inside tuples, guards and `_` are drawn at
random from a seed. The model says, from those sets alone:

- whether the arms without a guard hold every value: E0208 if not, and then each pattern vx names
  as not covered must match some value and none that an unguarded arm matches;
- which patterns no value reaches: an alternative of an arm whose values the unguarded arms above
  and the alternatives before it in its arm hold; inside a tuple pattern, an alternative whose
  values (the rest of the pattern as it is) those and the alternatives before it hold. Only the
  outermost such pattern is named. vx must warn `unreachable pattern` on exactly those spans.

The algorithm in vx (check/match_usefulness.cpp) splits columns into ranges and takes tuples
apart; nothing of that is used here.

usage: match_model_test.py VX [--programs N] [--seed S]
"""
import json
import os
import random
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
PROGRAMS = int(sys.argv[sys.argv.index("--programs") + 1]) if "--programs" in sys.argv else 400
SEED = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
BOUNDS = {"bool": (0, 1), "u8": (0, 255), "i8": (-128, 127)}
checks = Checks("match_model")
tmp = scratch_dir(prefix="vx_match_model_")


# A type is a scalar's name or a list of types (a tuple). Its values are columns: one numpy
# array per scalar leaf, all of one length, every combination once.
def leaves(t):
    return [t] if isinstance(t, str) else [x for e in t for x in leaves(e)]


def columns(t):
    ranges = [np.arange(BOUNDS[s][0], BOUNDS[s][1] + 1) for s in leaves(t)]
    return [g.ravel() for g in np.meshgrid(*ranges, indexing="ij")]


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
    return ("true" if v else "false") if s == "bool" else str(v)


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
    n = len(cols[0])
    if node.kind == "wild":
        return np.ones(n, dtype=bool)
    if node.kind == "range":
        return (cols[0] >= node.lo) & (cols[0] <= node.hi)
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
TOKEN = re.compile(r"\s*(\(|\)|,|_|true|false|\.\.=|(?:u8|i8)::(?:MIN|MAX)|-?\d+_(?:u8|i8))")


def parse_witness(text, t):
    tokens = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot read {text!r} at {pos}")
        tokens.append(m.group(1))
        pos = m.end()
    tokens.reverse()

    def value(tok, s):
        if tok in ("true", "false"):
            return int(tok == "true")
        if tok.endswith("::MIN"):
            return BOUNDS[tok[:2]][0]
        if tok.endswith("::MAX"):
            return BOUNDS[tok[:2]][1]
        number, suffix = tok.rsplit("_", 1)
        if suffix != s:
            raise ValueError(f"{tok} is not a {s}")
        return int(number)

    def one(t):
        tok = tokens.pop()
        if tok == "_":
            return Node("wild")
        if isinstance(t, list):
            if tok != "(":
                raise ValueError(f"{text!r}: a tuple starts with {tok!r}")
            subs = []
            for k, et in enumerate(t):
                subs.append(one(et))
                sep = tokens.pop()
                if sep == ",":
                    sep = tokens.pop() if k == len(t) - 1 else sep
                if (k == len(t) - 1) != (sep == ")"):
                    raise ValueError(f"{text!r}: {sep!r} after element {k}")
            return Node("tuple", subs)
        lo = value(tok, t)
        if tokens and tokens[-1] == "..=":
            tokens.pop()
            return Node("range", lo=lo, hi=value(tokens.pop(), t))
        return Node("range", lo=lo, hi=lo)

    node = one(t)
    if tokens:
        raise ValueError(f"{text!r}: left over {tokens}")
    return node


def draw_type(r):
    eight = 0
    out = []
    for _ in range(r.randint(2, 3)):
        if r.random() < 0.2:
            inner = []
            for _ in range(2):
                s = "bool" if eight >= 2 or r.random() < 0.5 else r.choice(["u8", "i8"])
                eight += s != "bool"
                inner.append(s)
            out.append(inner)
        else:
            s = "bool" if eight >= 2 or r.random() < 0.4 else r.choice(["u8", "i8"])
            eight += s != "bool"
            out.append(s)
    return out


def one_program(seed):
    r = random.Random(seed)
    t = draw_type(r)
    cols = columns(t)
    lines = ["fn main() {", f"    let v: {type_text(t)} = {value_text(t)};",
             "    let g = v.0 == v.0;", "    let k = match v {"]
    arms = []
    for i in range(r.randint(1, 7)):
        arm = draw(t, r)
        guard = r.random() < 0.15
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

    above = np.zeros(len(cols[0]), dtype=bool)
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
        named = re.findall(r"`([^`]*)`", errors[0]["message"])
        if not named:
            return checks.fail(f"{what}E0208 names no pattern: {errors[0]['message']}")
        for w in named:
            try:
                m = mask(parse_witness(w, t), t, cols)
            except (ValueError, IndexError) as e:
                return checks.fail(f"{what}cannot read the missing pattern {w!r}: {e}")
            if not m.any() or (m & above).any():
                return checks.fail(f"{what}`{w}` is named as not covered, but it matches "
                                   f"{int(m.sum())} values, {int((m & above).sum())} of them covered")
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
        return "true" if t == "bool" else "1"
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
