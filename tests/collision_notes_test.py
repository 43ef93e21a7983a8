#!/usr/bin/env python3
"""The collision notes of E6032 name only passes that get to the accesses (spec/kernel-rules.md §4:
every note is true).

Each program refuses a store that an `if`, a `break`, a `while`, a helper's `if` or loop, or a stepped loop
keeps some passes from. The expected note is computed here: the passes are enumerated in the
order the rule counts them (outer loop first), with the program's condition and index written
again in Python, and the first pair of passes of different blocks (or lanes) that reach one
element is the note's (never vx's output). Where the rule cannot tell whether a pass gets there
(a `break`, a `while`, a helper's loop) the note says so; where no two passes that get there
collide, the note says that the rule does not narrow the passes by the condition. Before the fix
the notes named blocks that the `if` kept out (`limit_guarded_store.vx`: blocks 0 and 4) and a
value a `.step_by(2)` loop never takes; and an `if` with `||` was not followed.

usage: collision_notes_test.py VX
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
failures = []
WORK = scratch_dir("vx-notes-")
HEDGE = ", if both get there (what decides it is not followed here)"
CONDITION = ("the rule proves `%s` as if every pass got to it: it does not narrow the passes by a "
             "condition on the way; write the condition into the loop or the index "
             "(spec/kernel-rules.md §4 step 11)")


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def program(body, n=8, helpers=""):
    return (helpers + "fn main() {\n"
            "    let mut out = transfer(Tensor<i32, [%d]>::fill(0), Memory::HBM);\n"
            "    spawn on(Topology::Device) {\n%s    }\n"
            "    let r = transfer(out, Memory::CPU_DRAM);\n"
            "    println!(\"{}\", r[0]);\n}\n" % (n, body))


def first_collision(passes):
    """passes: (name, block, element or None) in enumeration order -> (first name, second name,
    element) of the first element two blocks reach, or None."""
    seen = {}
    for name, block, elem in passes:
        if elem is None:
            continue
        if elem in seen and seen[elem][1] != block:
            return seen[elem][0], name, elem
        seen.setdefault(elem, (name, block))
    return None


def notes(text, name):
    path = os.path.join(WORK, name + ".vx")
    with open(path, "w") as f:
        f.write(text)
    r = subprocess.run([VX, "check", path], capture_output=True, text=True, timeout=60)
    if r.returncode != 1 or "error[E6032]" not in r.stderr:
        fail("%s: expected E6032, got status %d: %s" % (name, r.returncode, r.stderr[:300]))
    return [line.split("= note: ", 1)[1] for line in r.stderr.splitlines() if "= note: " in line]


def expect_note(name, text, want, absent=()):
    got = notes(text, name)
    if want not in got:
        fail("%s: no note %r in %r" % (name, want, got))
    for a in absent:
        if any(a in g for g in got):
            fail("%s: a note says %r: %r" % (name, a, got))


# 1. `if b % 2 == 0 && b != 0`: blocks 2, 4, 6 store out[b / 4]; 0, 1, 1: blocks 4 and 6.
c = first_collision(("block %d" % b, b, b // 4 if b % 2 == 0 and b != 0 else None) for b in range(8))
expect_note("if_and", program(
    "        for b in 0..8 across blocks {\n"
    "            if b % 2 == 0 && b != 0 {\n"
    "                out[b / 4] = b;\n"
    "            }\n"
    "        }\n"), "%s and %s both write element %d" % c)

# 2. the `else` of `if b < 2`: blocks 2..7 store out[b / 4]; 0, 0, 1, …: blocks 2 and 3.
c = first_collision(("block %d" % b, b, None if b < 2 else b // 4) for b in range(8))
expect_note("else", program(
    "        for b in 0..8 across blocks {\n"
    "            if b < 2 {\n"
    "            } else {\n"
    "                out[b / 4] = b;\n"
    "            }\n"
    "        }\n"), "%s and %s both write element %d" % c)

# 3. `if !(l < 3) && l < 6 && l % 2 == 1` in a lane loop: lanes 3 and 5 store out[l / 4]: 0 and
# 1, no two meet, so no pair is named and the note says why the store is refused anyway.
lanes = [l for l in range(8) if not (l < 3) and l < 6 and l % 2 == 1]
assert first_collision(("lane %d" % l, l, l // 4 if l in lanes else None) for l in range(8)) is None
expect_note("no_pair", program(
    "        for b in 0..1 across blocks {\n"
    "            for l in 0..8 across lanes {\n"
    "                if !(l < 3) && l < 6 && l % 2 == 1 {\n"
    "                    out[l / 4] = l;\n"
    "                }\n"
    "            }\n"
    "        }\n"), CONDITION % "out[l / 4]", absent=(" both write ",))

# 4. the same `if` as the refused wrap of limit_guarded_store.vx: only block 0 gets there.
expect_note("one_block", program(
    "        for b in 0..8 across blocks {\n"
    "            for l in 0..8 across lanes {\n"
    "                if b % 8 == 0 {\n"
    "                    out[b * 1073741824 + l] = 1;\n"
    "                }\n"
    "            }\n"
    "        }\n"), CONDITION % "out[b * 1073741824 + l]", absent=(" both write ",))

# 5-7. A `break` in the plain loop, a `while` around the store, a helper that stores in a loop
# that may not run: whether a pass gets to the store is not followed, and the note says so; the
# pair is the first of the indices alone (k = 0 in blocks 0 and 1; b / 2 = 0 in blocks 0 and 1).
HW = ("fn hw(a: &mut Tensor<i32, [8], Memory::HBM>, i: i32, v: i32) {\n"
      "    for k in 0..v {\n"
      "        a[i] = k;\n"
      "    }\n"
      "}\n")
for name, body, helpers, passes in [
        ("break", "            for k in 0..2 {\n"
                  "                if b > 0 { break; }\n"
                  "                out[k] = 1;\n"
                  "            }\n", "",
         [("block %d with `k` = %d" % (b, k), b, k) for b in range(4) for k in range(2)]),
        ("while", "            let mut n = 0;\n"
                  "            while n < b {\n"
                  "                out[b / 2] = 1;\n"
                  "                n += 1;\n"
                  "            }\n", "", [("block %d" % b, b, b // 2) for b in range(4)]),
        ("helper_loop", "            hw(&mut out, b / 2, b);\n", HW, [("block %d" % b, b, b // 2) for b in range(4)])]:
    c = first_collision(passes)
    expect_note(name, program("        for b in 0..4 across blocks {\n" + body + "        }\n", helpers=helpers),
                "%s and %s would both write element %d%s" % (c + (HEDGE,)))

# 12-13. A helper that stores in an `if` on its parameter: the note follows the helper's condition
# as the caller's (before, it said "if both get there"). `if v % 2 == 1 { a[i] = v; }` called with
# (b / 4, b) over 0..8: blocks 1, 3, 5, 7 store at 0, 0, 1, 1: blocks 1 and 3. With `v == 0` only
# block 0 stores: no pair, and the note says the rule does not narrow the passes by the condition.
def helper_if(cond):
    return ("fn hw(a: &mut Tensor<i32, [8], Memory::HBM>, i: i32, v: i32) {\n"
            "    if %s {\n"
            "        a[i] = v;\n"
            "    }\n"
            "}\n" % cond)


c = first_collision(("block %d" % b, b, b // 4 if b % 2 == 1 else None) for b in range(8))
expect_note("helper_if", program("        for b in 0..8 across blocks {\n"
                                 "            hw(&mut out, b / 4, b);\n"
                                 "        }\n", helpers=helper_if("v % 2 == 1")),
            "%s and %s both write element %d" % c, absent=(HEDGE,))
assert first_collision(("block %d" % b, b, b // 2 if b == 0 else None) for b in range(4)) is None
expect_note("helper_if_one_block", program("        for b in 0..4 across blocks {\n"
                                           "            hw(&mut out, b / 2, b);\n"
                                           "        }\n", helpers=helper_if("v == 0")),
            CONDITION % "a[i]` in `hw(…)", absent=(" both write ",))

# 8. `(0..3).step_by(2)` takes 0 and 2, never 1: out[b + k] meets at block 0 with k = 2 and
# block 2 with k = 0 (a note over 0..=2 named k = 1).
c = first_collision(("block %d with `k` = %d" % (b, k), b, b + k) for b in range(4) for k in range(0, 3, 2))
expect_note("step_by", program(
    "        for b in 0..4 across blocks {\n"
    "            for k in (0..3).step_by(2) {\n"
    "                out[b + k] = 1;\n"
    "            }\n"
    "        }\n"), "%s and %s both write element %d" % c, absent=("`k` = 1",))

# 10-11. `||` where it holds and `&&` where it does not: one side or the other lets a pass in.
# `if b == 1 || b > 5`: blocks 1, 6, 7 store out[b / 4]: 0, 1, 1: blocks 6 and 7 (blocks 0 and 1
# before, when the `||` was not followed and the note named a block it keeps out). The `else` of
# `if b % 3 == 0 && b != 0`: blocks 0, 1, 2, 4, 5, 7 store out[b / 3]: blocks 0 and 1.
c = first_collision(("block %d" % b, b, b // 4 if b == 1 or b > 5 else None) for b in range(8))
expect_note("if_or", program(
    "        for b in 0..8 across blocks {\n"
    "            if b == 1 || b > 5 {\n"
    "                out[b / 4] = b;\n"
    "            }\n"
    "        }\n"), "%s and %s both write element %d" % c, absent=(HEDGE,))
c = first_collision(("block %d" % b, b, None if b % 3 == 0 and b != 0 else b // 3) for b in range(8))
expect_note("else_of_and", program(
    "        for b in 0..8 across blocks {\n"
    "            if b % 3 == 0 && b != 0 {\n"
    "            } else {\n"
    "                out[b / 3] = b;\n"
    "            }\n"
    "        }\n"), "%s and %s both write element %d" % c, absent=(HEDGE,))

# 9. the write map of 1 (`vx check --map`): the passes the `if` keeps out write nothing.
path = os.path.join(WORK, "if_and.vx")
r = subprocess.run([VX, "check", "--map", path], capture_output=True, text=True, timeout=60,
                   env=dict(os.environ, NO_COLOR="1"))
kept_out = sum(1 for b in range(8) if not (b % 2 == 0 and b != 0))
want = "%d of the passes enumerated do not get to the store (a condition on the way), and write nothing" % kept_out
if want not in r.stdout + r.stderr:
    fail("if_and --map: no line %r in %r" % (want, (r.stdout + r.stderr)[:600]))

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("collision_notes: 13 programs")
