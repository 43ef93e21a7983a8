#!/usr/bin/env python3
"""Every way Vx code can use or change a struct, in an argument after the struct is borrowed by
the same call, against the rule of spec/types.md §9 (E0305): the arguments after a borrow may not
use the struct while it is borrowed `&mut`, nor change it while it is borrowed `&`. The model
below decides each program's verdict from what the form does (reads, writes) and, for an accepted
program, what it prints; vx must refuse exactly the programs the model refuses, with E0305 and the
rule's message at the argument, and print the model's output for the others.

This is the check that would have found the loss of the refusal of
`show(&p, { p = P { … }; 2 })`: a whole-struct assignment became a typed-program form of its own
(a tuple value stored into the struct's locals, lowered later), and the borrow rule, which read
only assignment statements, no longer saw it as a write. Each form of a write the typed program
has is here: a scalar field assigned and compounded, a struct field replaced (by a literal, a
call's value, an `if`'s), the whole struct replaced, a destructuring `let` and a field of a value
that read it, a `&mut` call that changes it and one that only reads it, at the argument's top or
nested in an `if` or a `match` arm.

usage: struct_call_borrows_test.py VX
"""
import os
import re
import subprocess
import sys
import tempfile

VX = sys.argv[1]

PRELUDE = """struct In {
    a: i32,
    b: i32,
}

struct P {
    n: i32,
    inner: In,
}

fn show(p: &P, v: i32) -> i32 {
    p.n + p.inner.a + p.inner.b + v
}

fn change(p: &mut P, v: i32) -> i32 {
    p.n += v;
    p.n
}

fn bump(p: &mut P) -> i32 {
    p.inner.b += 1;
    p.inner.b
}

fn peek(p: &P) -> i32 {
    p.n
}

fn make(k: i32) -> In {
    In { a: k, b: k + 1 }
}

fn main() {
    let mut p = P { n: 1, inner: In { a: 2, b: 3 } };
    let c = p.n > 0;
"""

# (statement, reads p, writes p): what the later argument's block runs before its value 2.
FORMS = [
    ("let _x = 0;", False, False),
    ("let _x = p.n;", True, False),
    ("let _x = p.inner.a * 2;", True, False),
    ("let _x = peek(&p);", True, False),
    ("let (_x, _) = (p.n, p.inner.b);", True, False),
    ("let _x = (peek(&p), p.inner.b).1;", True, False),
    ("if c { let _x = p.inner.b; }", True, False),
    ("p.n = 5;", True, True),
    ("p.n += 1;", True, True),
    ("p.inner.a = 7;", True, True),
    ("p.inner = In { a: 8, b: 9 };", True, True),
    ("p.inner = make(4);", True, True),
    ("p.inner = if c { In { a: 1, b: 1 } } else { make(0) };", True, True),
    ("p = P { n: 10, inner: In { a: 11, b: 12 } };", True, True),
    ("p = P { n: 10, inner: make(3) };", True, True),
    ("if c { p = P { n: 1, inner: In { a: 1, b: 1 } }; }", True, True),
    ("match p.n { 1 => { p.inner = make(5); } _ => {} }", True, True),
    ("let _x = bump(&mut p);", True, True),
]

MUT_MSG = "cannot use `p` because it was mutably borrowed"
SHARED_MSG = "cannot assign to `p` because it is borrowed"


def expected(borrow, reads, writes):
    """The model: (refused message or None, printed line for an accepted program)."""
    if borrow == "&mut" and (reads or writes):
        return MUT_MSG, None
    if borrow == "&" and writes:
        return SHARED_MSG, None
    n, a, b = 1, 2, 3  # an accepted form leaves p as it was
    if borrow == "&":
        r = n + a + b + 2
    else:
        n += 2
        r = n
    return None, "%d %d %d %d" % (r, n, a, b)


def main():
    failures = []
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for borrow in ("&", "&mut"):
            call = "show(&p" if borrow == "&" else "change(&mut p"
            for form, reads, writes in FORMS:
                line = "    let r = %s, { %s 2 });\n" % (call, form)
                text = PRELUDE + line + '    println!("{} {} {} {}", r, p.n, p.inner.a, p.inner.b);\n}\n'
                path = os.path.join(tmp, "b%d.vx" % checked)
                with open(path, "w") as f:
                    f.write(text)
                checked += 1
                msg, out = expected(borrow, reads, writes)
                r = subprocess.run([VX, "run", path], capture_output=True, text=True, timeout=60)
                what = "`%s` after `%s p`" % (form, borrow)
                if msg is None:
                    if r.returncode != 0 or r.stdout != out + "\n":
                        failures.append("%s: expected %r, got status %d, stdout %r, stderr %r"
                                        % (what, out, r.returncode, r.stdout, r.stderr[:400]))
                    continue
                at = "%s:%d:%d" % (path, text.count("\n", 0, text.index(line)) + 1, line.index("{ ") + 1)
                errors = re.findall(r"^error\[(E\d+)\]: (.*)$", r.stderr, re.M)
                if r.returncode != 1 or errors != [("E0305", msg)] or ("--> " + at) not in r.stderr:
                    failures.append("%s: expected error[E0305]: %s at %s, got status %d, stderr %r"
                                    % (what, msg, at, r.returncode, r.stderr[:600]))
    for f in failures:
        print("FAIL: " + f)
    print("struct_call_borrows: %d programs, %d failure(s)" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
