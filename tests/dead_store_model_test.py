#!/usr/bin/env python3
"""`unused_assignments` against a model, and each value it calls dead against a run
(spec/errors.md, "Warnings").

Each program is a `main` of i32 locals drawn from a seed: `let mut`s, assignments and compound
assignments, prints, `if`/`else`, `&&` whose right side is a block that assigns, and loops
(`for`, `while` with a counter, `loop` with a counter and a `break`), each labelled, with
`break` and `continue` to any loop around them, or `return`, behind an `if`; a value that only
such a jump's way may read (`print(v); v = …; if c { continue } v = …;`, `if c { v = …;
return; }`). Every store is on a line of its own.

- The model is a liveness of its own over the drawn tree, in Python: the set of locals that a
  read may reach, carried backward; a loop's head to a fixed point. A store is dead when the
  local is not live after it; the lint looks only at locals that are both read and assigned
  somewhere. vx must warn "value assigned to `x` is never read" on exactly the lines of those.
- A run says the model is right: every value the model calls dead is changed (`+ 7`) in a
  second program, and both programs must print the same.

usage: dead_store_model_test.py VX [--programs N] [--seed S]
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, int_option, json_diagnostics, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
PROGRAMS = int_option("--programs", 300)
SEED = int_option("--seed", 1)
checks = Checks("dead_store_model")
tmp = scratch_dir(prefix="vx_dead_store_")


class Draw:
    """One program's tree. Statements are tuples: ("let", var, expr), ("set", var, expr, op)
    (op "" for `=`, else "+" or "^"), ("print", expr), ("if", cond, then, else or None),
    ("return",), ("for", label, ivar, n, body), ("while", label, wvar, n, body), ("loop", label,
    lvar, n, body), ("break", label), ("continue", label). Expressions: ("var", name), ("num", k),
    ("bin", op, a, b), ("and", a, stmts, b) for `a && { stmts; b }`."""

    def __init__(self, rng):
        self.rng = rng
        self.vars = [f"v{k}" for k in range(rng.randint(2, 4))]
        self.counters = 0
        self.budget = rng.randint(8, 22)

    def expr(self, names, depth=0):
        r = self.rng.random()
        if depth >= 2 or r < 0.35:
            return ("var", self.rng.choice(names)) if self.rng.random() < 0.75 else \
                ("num", self.rng.randint(0, 9))
        return ("bin", self.rng.choice(["+", "-", "^", "&"]), self.expr(names, depth + 1),
                self.expr(names, depth + 1))

    def cond(self, names):
        a = ("bin", self.rng.choice(["<", ">", "=="]), ("var", self.rng.choice(names)),
             ("num", self.rng.randint(0, 9)))
        if self.rng.random() < 0.25:
            b = ("bin", "<", ("var", self.rng.choice(names)), ("num", self.rng.randint(0, 9)))
            return ("and", a, [("set", self.rng.choice(self.vars), self.expr(names), "")], b)
        return a

    def block(self, names, loops, depth):
        out = []
        for _ in range(self.rng.randint(1, 4)):
            if self.budget <= 0:
                break
            self.budget -= 1
            out += self.stmt(names, loops, depth)
        return out

    def stmt(self, names, loops, depth):
        r = self.rng.random()
        v = self.rng.choice(self.vars)
        if r < 0.3:
            return [("set", v, self.expr(names), "")]
        if r < 0.42:
            return [("set", v, self.expr(names), self.rng.choice(["+", "^"]))]
        if r < 0.52:
            return [("print", self.expr(names))]
        if r < 0.7 and (loops or r < 0.56):
            jump = self.rng.choice(["break", "continue", "continue", "return"]) if loops \
                else "return"
            then = [("return",) if jump == "return" else (jump, self.rng.choice(loops))]
            if self.rng.random() < 0.4:  # a value that only the jump's way may read
                then.insert(0, ("set", v, self.expr(names), ""))
            out = [("if", self.cond(names), then, None)]
            if self.rng.random() < 0.5:  # a value that only the jump's way may read
                out = [("print", ("var", v)), ("set", v, self.expr(names), "")] + out + \
                    [("set", v, self.expr(names), "")]
            return out
        if depth >= 3 or r < 0.82:
            els = self.block(names, loops, depth + 1) if self.rng.random() < 0.5 else None
            return [("if", self.cond(names), self.block(names, loops, depth + 1), els)]
        k = self.counters
        self.counters += 1
        label = f"'a{k}"
        n = self.rng.randint(1, 3)
        kind = self.rng.choice(["for", "while", "loop"])
        if kind == "for":
            body = self.block(names + [f"i{k}"], loops + [label], depth + 1)
            return [("for", label, f"i{k}", n, body)]
        c = f"c{k}"
        body = self.block(names + [c], loops + [label], depth + 1)
        return [("let", c, ("num", 0)), (kind, label, c, n, body)]

    def program(self):
        lets = [("let", v, ("num", self.rng.randint(0, 9))) for v in self.vars]
        body = self.block(list(self.vars), [], 0)
        while self.budget > 0:
            self.budget -= 1
            body += self.stmt(list(self.vars), [], 0)
        return lets + body + [("print", ("var", v)) for v in self.vars if self.rng.random() < 0.4]


def write(stmts, changed=frozenset()):
    """The program's text and each store's line: {id(stmt): line}. A store in `changed` (by id)
    stores its value `+ 7`."""
    lines = ["fn main() {"]
    where = {}

    def text(e):
        if e[0] == "var":
            return e[1]
        if e[0] == "num":
            return str(e[1])
        if e[0] == "bin":
            return f"({text(e[2])} {e[1]} {text(e[3])})"
        for s in e[2]:  # on the line being written
            where[id(s)] = len(lines) + 1
        inner = " ".join(f"{s[1]} = {value(s)};" for s in e[2])
        return f"({text(e[1])} && {{ {inner} {text(e[3])} }})"

    def value(s):
        return f"{text(s[2])} + 7" if id(s) in changed else text(s[2])

    def emit(stmts, ind):
        pad = "    " * ind
        for s in stmts:
            k = s[0]
            if k == "let":
                where[id(s)] = len(lines) + 1
                lines.append(f"{pad}let mut {s[1]} = {value(s)};")
            elif k == "set":
                where[id(s)] = len(lines) + 1
                lines.append(f"{pad}{s[1]} {s[3]}= {value(s)};")
            elif k == "print":
                lines.append(f'{pad}println!("{{}}", {text(s[1])});')
            elif k == "if":
                lines.append(f"{pad}if {text(s[1])} {{")
                emit(s[2], ind + 1)
                if s[3] is not None:
                    lines.append(f"{pad}}} else {{")
                    emit(s[3], ind + 1)
                lines.append(f"{pad}}}")
            elif k in ("break", "continue"):
                lines.append(f"{pad}{k} {s[1]};")
            elif k == "return":
                lines.append(f"{pad}return;")
            elif k == "for":
                lines.append(f"{pad}{s[1]}: for {s[2]} in 0..{s[3]} {{")
                emit(s[4], ind + 1)
                lines.append(f"{pad}}}")
            elif k == "while":  # the counter goes up first: a `continue` cannot skip it
                lines.append(f"{pad}{s[1]}: while {s[2]} < {s[3]} {{")
                lines.append(f"{pad}    {s[2]} += 1;")
                emit(s[4], ind + 1)
                lines.append(f"{pad}}}")
            else:  # loop
                lines.append(f"{pad}{s[1]}: loop {{")
                lines.append(f"{pad}    {s[2]} += 1;")
                lines.append(f"{pad}    if {s[2]} > {s[3]} {{")
                lines.append(f"{pad}        break;")
                lines.append(f"{pad}    }}")
                emit(s[4], ind + 1)
                lines.append(f"{pad}}}")

    emit(stmts, 1)
    lines.append("}")
    return "\n".join(lines) + "\n", where


# ---- the model: backward liveness over the tree


def reads(e):
    if e[0] == "var":
        return {e[1]}
    if e[0] == "num":
        return set()
    if e[0] == "bin":
        return reads(e[2]) | reads(e[3])
    return reads(e[1]) | reads(e[3]) | {v for s in e[2] for v in reads(s[2])}


class Model:
    def __init__(self, tracked):
        self.tracked = tracked
        self.dead = {}  # id(store) -> dead at the last walk
        self.stores = {}

    def store(self, s, var, after):
        if var in self.tracked:
            self.dead[id(s)] = var not in after
            self.stores[id(s)] = s

    def expr(self, e, after):
        if e[0] == "var":
            return after | {e[1]}
        if e[0] == "num":
            return after
        if e[0] == "bin":
            return self.expr(e[2], self.expr(e[3], after))
        # a && { stores; b }: the right side runs or not
        right = self.expr(e[3], after)
        for s in reversed(e[2]):
            right = self.set(s, right)
        return self.expr(e[1], after | right)

    def set(self, s, after):
        self.store(s, s[1], after)
        live = (after - {s[1]}) | ({s[1]} if s[3] else set())
        return self.expr(s[2], live)

    def block(self, stmts, after, jumps):
        for s in reversed(stmts):
            after = self.stmt(s, after, jumps)
        return after

    def loop(self, label, after, jumps, head):
        h = frozenset()
        while True:
            nxt = frozenset(head(h, {**jumps, label: (after, h)}))
            if nxt == h:
                return h
            h = nxt

    def stmt(self, s, after, jumps):
        k = s[0]
        if k == "let":
            self.store(s, s[1], after)
            return self.expr(s[2], after - {s[1]})
        if k == "set":
            return self.set(s, after)
        if k == "print":
            return self.expr(s[1], after)
        if k == "if":
            then = self.block(s[2], after, jumps)
            els = self.block(s[3], after, jumps) if s[3] is not None else after
            return self.expr(s[1], then | els)
        if k == "break":
            return jumps[s[1]][0]
        if k == "continue":
            return jumps[s[1]][1]
        if k == "return":
            return frozenset()
        if k == "for":
            return self.loop(s[1], after, jumps,
                             lambda h, j: after | self.block(s[4], h, j))
        if k == "while":  # head: `c < n`; body: `c += 1;` then the drawn statements
            c = s[2]

            def head(h, j):
                body = self.block(s[4], h, j) - {c} | {c}  # `c += 1` reads and writes c
                return (after | body) | {c}
            return self.loop(s[1], after, jumps, head)
        c = s[2]  # loop: `c += 1; if c > n { break; }` then the drawn statements

        def head(h, j):
            return (self.block(s[4], h, j) | after) | {c}
        return self.loop(s[1], after, jumps, head)


def walk(stmts):
    for s in stmts:
        yield s
        if s[0] == "if":
            yield from walk(s[2])
            yield from walk(s[3] or [])
        elif s[0] in ("for", "while", "loop"):
            yield from walk(s[4])


def exprs_of(stmts):
    for s in walk(stmts):
        if s[0] in ("let", "set"):
            yield s[2]
        elif s[0] == "print":
            yield s[1]
        elif s[0] == "if":
            yield s[1]


def sets_in(e):
    if e[0] == "bin":
        yield from sets_in(e[2])
        yield from sets_in(e[3])
    elif e[0] == "and":
        yield from sets_in(e[1])
        yield from e[2]
        yield from sets_in(e[3])


def one(seed):
    rng = random.Random(seed)
    stmts = Draw(rng).program()
    read, assigned = set(), set()
    for e in exprs_of(stmts):
        read |= reads(e)
        assigned |= {s[1] for s in sets_in(e)}
    for s in walk(stmts):
        if s[0] == "set":
            assigned.add(s[1])
        elif s[0] in ("while", "loop"):  # the counter's own `c < n` or `c > n` and `c += 1`
            read.add(s[2])
            assigned.add(s[2])
    model = Model(read & assigned)
    model.block(stmts, frozenset(), {})
    dead = [model.stores[k] for k, d in model.dead.items() if d]

    source, where = write(stmts)
    path = os.path.join(tmp, f"d{seed}.vx")
    with open(path, "w") as f:
        f.write(source)
    what = f"seed {seed} ({path}):\n{source}"
    p = run([VX, "run", "--error-format=json", path])
    if p.returncode != 0:
        return checks.fail(f"{what}vx run: status {p.returncode}: {p.stderr[-600:]}")
    got = {(s["line_start"], d["message"]) for d, s in json_diagnostics(p.stderr)
           if d.get("lint") == "unused_assignments"}
    want = {(where[id(s)], f"value assigned to `{s[1]}` is never read") for s in dead}
    if got != want:
        return checks.fail(f"{what}dead stores (line, message): vx {sorted(got)}, "
                           f"model {sorted(want)}")
    if dead:
        changed, _ = write(stmts, frozenset(id(s) for s in dead))
        path2 = os.path.join(tmp, f"d{seed}_changed.vx")
        with open(path2, "w") as f:
            f.write(changed)
        q = run([VX, "run", path2])
        if q.returncode != 0 or q.stdout != p.stdout:
            return checks.fail(f"{what}the model's dead stores changed (+ 7) print otherwise "
                               f"({path2}): status {q.returncode}\n{q.stdout[:300]}\nvs\n"
                               f"{p.stdout[:300]}")
    return len(dead)


total = 0
programs_with = 0
for k in range(PROGRAMS):
    n = one(SEED * 1_000_003 + k)
    if isinstance(n, int):
        total += n
        programs_with += n > 0
print(f"{PROGRAMS} programs: {total} dead stores in {programs_with} of them")
if programs_with < PROGRAMS // 4:
    checks.fail(f"only {programs_with} of {PROGRAMS} programs have a dead store: the draw is "
                "too weak to test the lint")
checks.finish()
