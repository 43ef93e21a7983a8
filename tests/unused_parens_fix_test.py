#!/usr/bin/env python3
"""unused_parens (spec/errors.md, "Warnings") says parentheses change nothing: take them away, as
rustfix applies rustc's suggestion, and the program must mean what it meant.

For every program of the corpus that vx check accepts, and for programs of the generator
(tools/smith, which writes many parentheses), each warning's span must start with `(` and end
with the `)` that closes it; the program with all of them taken away (again, for parentheses in
parentheses, until none is warned of) must be accepted, with the other warnings as before, and
`vx run` must print the same and end with the same status. At least MIN_WARNINGS warnings are
taken away in all, and from half the generated programs, so that the test cannot pass on
programs that have none.

usage: unused_parens_fix_test.py VX REPO_ROOT [--smith N]
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, int_option, json_diagnostics, run, scratch_dir  # noqa: E402

VX, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SMITH_PROGRAMS = int_option("--smith", 40)
MIN_WARNINGS = 300
ROUNDS = 300  # the corpus nests parentheses 256 deep (spec/grammar.md §1.5)
checks = Checks("unused_parens_fix")
tmp = scratch_dir(prefix="vx_unused_parens_")


CAP = 50  # warnings printed (spec/errors.md, "Warnings")


def warnings_of(path):
    """vx check's status, its unused_parens spans (byte offsets) and its other warnings. When the
    warnings reach the cap of those printed, the others are read again with unused_parens allowed,
    so that the parentheses taken away do not make room for others that were there before."""
    p = run([VX, "check", "--error-format=json", path])
    parens, others = [], []
    for d, s in json_diagnostics(p.stderr):
        if d.get("lint") == "unused_parens":
            parens.append((s["byte_start"], s["byte_end"]))
        elif d["level"] == "warning":
            others.append((d["lint"], d["message"], s["line_start"]))
    if len(parens) + len(others) >= CAP:
        with open(path, encoding="latin-1") as f:
            text = f.read()
        allowed = path + ".allowed.vx"
        with open(allowed, "w", encoding="latin-1") as f:
            f.write("#![allow(unused_parens)]\n" + text)
        q = run([VX, "check", "--error-format=json", allowed])
        others = [(d["lint"], d["message"], s["line_start"] - 1)
                  for d, s in json_diagnostics(q.stderr) if d["level"] == "warning"]
    return p.returncode, parens, others


def closing(text, start):
    """The index of the `)` that closes the `(` at `start` (strings, chars and comments skipped),
    or None."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "'" and i + 2 < len(text) and (text[i + 2] == "'" or text[i + 1] == "\\"):
            i = text.index("'", i + 2 if text[i + 1] != "\\" else i + 3)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return None
        elif text.startswith("/*", i):
            i = text.find("*/", i) + 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def fixed(name, text, spans):
    """`text` without the parentheses at `spans`, each checked to be one group."""
    drop = set()
    for b, e in spans:
        if text[b:b + 1] != "(" or closing(text, b) != e - 1:
            checks.fail(f"{name}: the span {b}..{e} is not one group in parentheses: {text[b:e]!r}")
            return None
        drop |= {b, e - 1}
    return "".join(c for i, c in enumerate(text) if i not in drop)


def outcome(path):
    p = run([VX, "run", path], timeout=120)
    return p.returncode, p.stdout


def check_program(name, text):
    """Returns how many parentheses were taken away."""
    path = os.path.join(tmp, "before.vx")
    with open(path, "w", encoding="latin-1") as f:  # a byte a character: spans are bytes
        f.write(text)
    status, spans, others = warnings_of(path)
    if status != 0 or not spans:
        return 0
    before = outcome(path)
    taken, now = 0, text
    for _ in range(ROUNDS):  # parentheses in parentheses come out one group at a time
        if not spans:
            break
        now = fixed(name, now, spans)
        if now is None:
            return taken
        taken += len(spans)
        after_path = os.path.join(tmp, "after.vx")
        with open(after_path, "w", encoding="latin-1") as f:
            f.write(now)
        status, spans, now_others = warnings_of(after_path)
        if status != 0:
            checks.fail(f"{name}: refused once its unused parentheses are taken away:\n{now}")
            return taken
        if [(lint, msg) for lint, msg, _ in now_others] != [(lint, msg) for lint, msg, _ in others]:
            checks.fail(f"{name}: other warnings changed: {others} became {now_others}")
    if spans:
        checks.fail(f"{name}: still warned of after {ROUNDS} rounds")
    after = outcome(os.path.join(tmp, "after.vx"))
    if after != before:
        checks.fail(f"{name}: runs differently without the parentheses: {before} then {after}\n{now}")
    return taken


total = programs = generated = 0
for path in sorted(glob.glob(os.path.join(ROOT, "conformance", "**", "*.vx"), recursive=True)):
    with open(path, encoding="latin-1") as f:
        text = f.read()
    n = check_program(os.path.relpath(path, ROOT), text)
    total, programs = total + n, programs + (n > 0)
smith = os.path.join(ROOT, "tools", "smith", "smith")
for seed in range(SMITH_PROGRAMS):
    p = run([sys.executable, smith, "--seed", str(seed)])
    if p.returncode != 0:
        checks.fail(f"smith --seed {seed}: status {p.returncode}: {p.stderr[-400:]}")
        continue
    n = check_program(f"smith seed {seed}", p.stdout)
    total, generated = total + n, generated + (n > 0)
print(f"unused_parens_fix: {total} parentheses taken away from {programs} programs of the corpus "
      f"and {generated} of {SMITH_PROGRAMS} generated")
if total < MIN_WARNINGS or generated < SMITH_PROGRAMS // 2:
    checks.fail(f"only {total} parentheses taken away, from {generated} generated programs: the "
                "programs test too little")
checks.finish()
