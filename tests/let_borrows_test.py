#!/usr/bin/env python3
"""Random host programs of tensors, references bound with `let`, whole assignments, moves and
reads, against a model of the rule of spec/types.md §4 (E0305): a tensor may not be assigned whole
or moved where a reference that borrows it is used after. The model decides each program's
verdict and, for an accepted one, what it prints (Python lists standing for the tensors, a
reference the list its tensor held when it was taken). vx must refuse exactly the programs the
model refuses, with E0305 at the first assignment or move that a later use condemns, and print
the model's output for the others. This is the check that would have found the use-after-free
of `let r = &mut t; t = make(); r[0] = 5.0;` (accepted, and a write into freed storage).

Each program is straight-line code in `main`, or the same inside `for k in 0..2 { … }` after the
tensors' lets: each pass takes its own references, so the first pass decides. (A reference taken
before a loop and used in it, which condemns an assignment later in the body, is in
conformance/errors/E0305_assign_borrowed_tensor.vx.)

usage: let_borrows_test.py VX [COUNT] [SEED]
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 300
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 1
N = 4  # elements of every tensor
TENSORS = 3


def fmt(v):
    """Rust's Display of an f32 that holds a small integer."""
    return str(int(v)) if v == int(v) else repr(v)


def generate(rng):
    """A program as a list of (kind, fields) steps; every step names locals that exist."""
    steps = []
    valid = [True] * TENSORS  # not moved
    refs = []  # (name, tensor index)
    moved_to = []  # names of locals that took a tensor
    for _ in range(rng.randint(4, 10)):
        choices = ["ref", "assign", "move", "read"] + ["use"] * 3 * bool(refs)
        kind = rng.choice(choices)
        j = rng.randrange(TENSORS)
        if kind == "ref" and valid[j]:
            name = "r%d" % len(refs)
            refs.append((name, j))
            steps.append(("ref", name, j))
        elif kind == "assign":
            steps.append(("assign", j, float(rng.randint(1, 9))))
            valid[j] = True
        elif kind == "move" and valid[j]:
            name = "u%d" % len(moved_to)
            moved_to.append(name)
            steps.append(("move", name, j))
            valid[j] = False
        elif kind == "read" and valid[j]:
            steps.append(("read", j, rng.randrange(N)))
        elif kind == "use":
            name, _ = rng.choice(refs)
            steps.append(("use", name, rng.randrange(N), float(rng.randint(10, 99))))
    return steps


def text(steps, looped):
    lines = ["fn make(v: f32) -> Tensor<f32, [%d]> {" % N,
             "    Tensor<f32, [%d]>::fill(v)" % N, "}", "", "fn main() {"]
    for j in range(TENSORS):
        lines.append("    let mut t%d = make(%d.0);" % (j, j + 1))
    body = []  # (statement, the step it comes from)
    for i, s in enumerate(steps):
        if s[0] == "ref":
            body.append(("let %s = &mut t%d;" % (s[1], s[2]), i))
        elif s[0] == "assign":
            body.append(("t%d = make(%s);" % (s[1], fmt(s[2]) + ".0"), i))
        elif s[0] == "move":
            body.append(("let %s = t%d;" % (s[1], s[2]), i))
            body.append(('println!("{}", %s[0]);' % s[1], i))
        elif s[0] == "read":
            body.append(('println!("{}", t%d[%d]);' % (s[1], s[2]), i))
        else:
            body.append(("%s[%d] = %s;" % (s[1], s[2], fmt(s[3]) + ".0"), i))
            body.append(('println!("{}", %s[%d]);' % (s[1], s[2]), i))
    line_of_step = {}  # step index -> the line of its first statement in the file
    indent = "    "
    if looped:
        lines.append("    for k in 0..2 {")
        indent = "        "
    for b, i in body:
        lines.append(indent + b)
        line_of_step.setdefault(i, len(lines))
    if looped:
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n", line_of_step


def model(steps, looped):
    """("refused", the first condemned step) or ("accepted", output lines)."""
    # The verdict: a conflict (an assignment or a move of a reference's tensor after the reference
    # was taken) with a use of the reference after it. Inside the loop each pass takes its own
    # references, so the first pass decides.
    conflicts = []
    for i, s in enumerate(steps):
        if s[0] not in ("assign", "move"):
            continue
        j = s[2] if s[0] == "move" else s[1]
        for r, rs in enumerate(steps[:i]):
            if rs[0] != "ref" or rs[2] != j:
                continue
            # (Each reference has a name of its own.) A use of it after i condemns the conflict.
            if any(u[0] == "use" and u[1] == rs[1] for u in steps[i + 1:]):
                conflicts.append(i)
                break
    if conflicts:
        return "refused", min(conflicts)
    out = []
    passes = 2 if looped else 1
    tensors = [[float(j + 1)] * N for j in range(TENSORS)]
    for _ in range(passes):
        env = {}
        for s in steps:
            if s[0] == "ref":
                env[s[1]] = tensors[s[2]]
            elif s[0] == "assign":
                tensors[s[1]] = [s[2]] * N
            elif s[0] == "move":
                env[s[1]] = tensors[s[2]]
                out.append(fmt(env[s[1]][0]))
            elif s[0] == "read":
                out.append(fmt(tensors[s[1]][s[2]]))
            else:
                env[s[1]][s[2]] = s[3]
                out.append(fmt(env[s[1]][s[2]]))
    return "accepted", out


def loop_ok(steps):
    """A looped program's second pass must find every tensor it moves or reads valid: a tensor
    moved in the body must be assigned again later in it (else the next pass is E0301)."""
    valid = [True] * TENSORS
    for s in steps:
        if s[0] == "assign":
            valid[s[1]] = True
        elif s[0] == "move":
            valid[s[2]] = False
    return all(valid)


def main():
    rng = random.Random(SEED)
    tmp = scratch_dir(prefix="vx_let_borrows_")
    failures = 0
    counts = {"refused": 0, "accepted": 0}
    for n in range(COUNT):
        looped = n % 3 == 2
        steps = generate(rng)
        if looped and not loop_ok(steps):
            looped = False
        src, line_of_step = text(steps, looped)
        verdict, detail = model(steps, looped)
        counts[verdict] += 1
        path = os.path.join(tmp, "p%d.vx" % n)
        with open(path, "w") as f:
            f.write(src)
        r = subprocess.run([VX, "run", path], capture_output=True, text=True, timeout=60)
        if verdict == "refused":
            want = line_of_step[detail]
            # Every error E0305, the first (in the source) at the model's first condemned line.
            found = re.findall(r"error\[(E\d+)\]: [^\n]*\n *--> [^:]+:(\d+):", r.stderr)
            codes = {c for c, _ in found}
            first = min((int(line) for _, line in found), default=0)
            if r.returncode != 1 or codes != {"E0305"} or first != want:
                failures += 1
                print("FAIL %s: want E0305 at line %d, got status %d, %s\n%s\n%s" %
                      (path, want, r.returncode, found[:3], src, r.stderr[:1500]))
        else:
            if r.returncode != 0 or r.stdout.split("\n")[:-1] != detail:
                failures += 1
                print("FAIL %s: want status 0 and %s, got %d and %r\n%s\n%s" %
                      (path, detail, r.returncode, r.stdout, src, r.stderr[:1500]))
        if failures >= 5:
            break
    print("let_borrows: %d programs (%d refused, %d accepted by the model), %d failed" %
          (COUNT, counts["refused"], counts["accepted"], failures))
    if counts["refused"] < COUNT // 10 or counts["accepted"] < COUNT // 10:
        print("let_borrows: too few of one kind; the generator no longer tests both")
        failures += 1
    sys.exit(1 if failures else 0)


main()
