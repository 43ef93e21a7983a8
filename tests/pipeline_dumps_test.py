#!/usr/bin/env python3
"""`--dump=ast|typed|lowered|kernels|cuda|uir` (spec/cli.md §4, pipeline/pipeline.hpp): what each
step of the pipeline made, printed, for programs small enough to work out by hand.

- `check --dump=typed`: every local with its slot, literals with their types, every composite
  expression with its type, the loops with their across levels and positions;
- `run --dump=lowered`: the same program as the run executes it, with the offload marks: a sync
  before each host statement that touches a tensor, a checkpoint after the region; `run
  --dump=typed` is `check --dump=typed` (no marks: they are placed on the lowered program);
- a `match`: `--dump=typed` shows it with its patterns, guard and arms, `--dump=lowered` as the
  block of its scrutinee's locals and the chain of `if`s of its tests (worked out by hand from
  spec/cli.md §4, each line at its depth: four spaces per block it is in); the checker's warnings
  come with the lowered program only;
- tuples: `--dump=typed` keeps `==` of two tuples and a tuple printed with `{:?}`,
  `--dump=lowered` has the `&&` of the scalars' `==` (after the locals that keep the reads in
  order) and the print of the scalars;
- `check --dump=kernels`: the store and what the kernel rules proved, with the digits of the
  offset y * 8 + x (coefficients 8 and 1, worked out by hand);
- `check --dump=cuda` is exactly `emit-cuda`'s output, `--dump=uir` exactly `lower --to uir`'s;
- a dump stops the command: nothing runs (no output of the program);
- an unknown dump is a usage error (exit 2); a program the checker refuses is not dumped (exit 1,
  its diagnostic).

usage: pipeline_dumps_test.py VX
"""
import os
import subprocess
import sys
import tempfile

VX = os.path.abspath(sys.argv[1])
failures = []

PROGRAM = """fn main() {
    let mut g = transfer(Tensor<i32, [4, 8]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for y in 0..4 across blocks {
            for x in 0..8 across lanes {
                g[y][x] = y * 8 + x;
            }
        }
    }
    let h = transfer(g, Memory::CPU_DRAM);
    println!("{}", h[3][7]);
}
"""

HBM = "Tensor<i32, [4, 8], Memory::HBM>"
TYPED_BODY = [
    f"    let g%0: {HBM} = (transfer(Tensor<i32, [4, 8]>::fill(0i32), Memory::HBM) : {HBM});",
    "    spawn on(Topology::Device) {  // region at 3:5",
    "        for y%1 in 0i32..4i32 across blocks {  // 4:9",
    "            for x%2 in 0i32..8i32 across lanes {  // 5:13",
    "                (g%0[y%1][x%2] : i32) = ((y%1 * 8i32 : i32) + x%2 : i32);",
    "            }",
    "        }",
    "    }",
    "    let h%3: Tensor<i32, [4, 8]> = (transfer(g%0, Memory::CPU_DRAM) : Tensor<i32, [4, 8]>);",
    '    println!("{}", (h%3[3i32][7i32] : i32));',
]
# A `match` on a tuple of two locals: `v` is immutable, tested itself; `k` is `mut`, so its value
# goes into a hidden local `_match` first (the typed program's statement of the tuple declares it,
# `_` for `v`; the lowering makes the `let`). Arm 2's alternatives are an or-pattern, then its guard; `(u, _)`
# completes the cover and is the chain's final `else` (`u` is `v`'s own local).
MATCH_PROGRAM = """fn main() {
    let v = 7;
    let w = 1;
    let mut k = v;
    k -= 7;
    let r = match (v, k) {
        (0, _) => 1,
        (1..=9, 0) | (10, _) if v > 2 => 2,
        (u, _) => u,
    };
    println!("{}", r);
}
"""
MATCH_HEAD = (0, "fn main() -> () {  // 1:4, 5 slots")
MATCH_TYPED = [
    MATCH_HEAD,
    (1, "let v%0: i32 = 7i32;"),
    (1, "let w%1: i32 = 1i32;"),
    (1, "let k%2: i32 = v%0;"),
    (1, "k%2 -= 7i32;"),
    (1, "let r%4: i32 = (match {"),
    (2, "((v%0, k%2) : (i32, i32)) -> let (_, _match%3);"),
    (1, "} v%0, _match%3 {"),
    (2, "(0i32, _) => {"),
    (3, "1i32"),
    (2, "}"),
    (2, "(1i32..=9i32, 0i32) | (10i32, _) if (v%0 > 2i32 : bool) => {"),
    (3, "2i32"),
    (2, "}"),
    (2, "(_, _) => {"),
    (3, "v%0"),
    (2, "}"),
    (1, "} : i32);"),
    (1, 'println!("{}", r%4);'),
    (0, "}"),
]
BETWEEN = "((v%0 >= 1i32 : bool) && (v%0 <= 9i32 : bool) : bool)"
ARM2 = f"((({BETWEEN} && (_match%3 == 0i32 : bool) : bool) || (v%0 == 10i32 : bool) : bool)" \
       " && (v%0 > 2i32 : bool) : bool)"
MATCH_LOWERED = [
    MATCH_HEAD,
    (1, "let v%0: i32 = 7i32;"),
    (1, "let w%1: i32 = 1i32;"),
    (1, "let k%2: i32 = v%0;"),
    (1, "k%2 -= 7i32;"),
    (1, "let r%4: i32 = ({"),
    (2, "let _match%3: i32 = k%2;"),
    (2, "(if (v%0 == 0i32 : bool) {"),
    (3, "1i32"),
    (2, "} else {"),
    (3, f"(if {ARM2} {{"),
    (4, "2i32"),
    (3, "} else {"),
    (4, "v%0"),
    (3, "} : i32)"),
    (2, "} : i32)"),
    (1, "} : i32);"),
    (1, 'println!("{}", r%4);'),
    (0, "}"),
]

# Tuples: `let t = (…)`, `==` of two tuples and a tuple printed with `{:?}` are kept by the typed
# program (a tuple value is its scalars in parentheses, after what runs first; the `let` names
# the locals it declares); the lowering declares, compares and prints the scalars. `n` is read into `_tuple%3` before the block that changes it; the
# lowering reads the left tuple's scalars into locals of its own (5, 6), as the right one is
# literals; `t`'s scalars and `same` are plain reads, so the print needs no local.
TUPLE_PROGRAM = """fn main() {
    let t = (1, 2.5);
    let mut n = 0;
    let same = (n, { n += 1; n }) == (0, 1);
    println!("{:?} {}", t, same);
}
"""
TUPLE_TYPED = [
    (0, "fn main() -> () {  // 1:4, 5 slots"),
    (1, "((1i32, 2.5f64) : (i32, f64)) -> let (t.0%0, t.1%1);"),
    (1, "let n%2: i32 = 0i32;"),
    (1, "let same%4: bool = (({"),
    (2, "let _tuple%3: i32 = n%2;"),
    (2, "(_tuple%3, ({"),
    (3, "n%2 += 1i32;"),
    (3, "n%2"),
    (2, "} : i32))"),
    (1, "} : (i32, i32)) == ((0i32, 1i32) : (i32, i32)) : bool);"),
    (1, 'println!("{:?} {}", ((t.0%0, t.1%1) : (i32, f64)), same%4);'),
    (0, "}"),
]
TUPLE_LOWERED = [
    (0, "fn main() -> () {  // 1:4, 7 slots"),
    (1, "let t.0%0: i32 = 1i32;"),
    (1, "let t.1%1: f64 = 2.5f64;"),
    (1, "let n%2: i32 = 0i32;"),
    (1, "let same%4: bool = ({"),
    (2, "let _tuple%3: i32 = n%2;"),
    (2, "let _tuple%5: i32 = _tuple%3;"),
    (2, "let _tuple%6: i32 = ({"),
    (3, "n%2 += 1i32;"),
    (3, "n%2"),
    (2, "} : i32);"),
    (2, "((_tuple%5 == 0i32 : bool) && (_tuple%6 == 1i32 : bool) : bool)"),
    (1, "} : bool);"),
    (1, 'println!("({}, {}) {}", t.0%0, t.1%1, same%4);'),
    (0, "}"),
]

# A field of a tuple value that has effects, a destructuring `let` with `_` and an assignment to
# a tuple local: the typed program keeps the field (`.1`, the value's second scalar), the `let` of
# the whole value (`-> let (a%3, _, b%4)`) and the assignment of the whole value to `t`'s locals,
# whose fields `t.1` and `t.0` it reads as fields of `t` too (the lowering reads their locals).
# The lowering spreads the block's stores first: the swap reads both of t's scalars into locals
# of its own (7, 8) before it writes either; then it runs the block of the field's value into a
# local (9) before 2.5 is read, and the `_` element for its effect (n becomes 2).
FIELD_PROGRAM = """fn main() {
    let mut n = 0;
    let x = ({ n += 1; n }, 2.5).1;
    let (a, _, b) = (n, { n += 1; n }, 4);
    let mut t = (a, b);
    t = (t.1, t.0);
    println!("{} {} {} {} {:?}", x, a, b, n, t);
}
"""
FIELD_TYPED = [
    (0, "fn main() -> () {  // 1:4, 7 slots"),
    (1, "let n%0: i32 = 0i32;"),
    (1, "let x%1: f64 = (((({"),
    (2, "n%0 += 1i32;"),
    (2, "n%0"),
    (1, "} : i32), 2.5f64) : (i32, f64)).1 : f64);"),
    (1, "({"),
    (2, "let _tuple%2: i32 = n%0;"),
    (2, "(_tuple%2, ({"),
    (3, "n%0 += 1i32;"),
    (3, "n%0"),
    (2, "} : i32), 4i32)"),
    (1, "} : (i32, i32, i32)) -> let (a%3, _, b%4);"),
    (1, "((a%3, b%4) : (i32, i32)) -> let (t.0%5, t.1%6);"),
    (1, "(((((t.0%5, t.1%6) : (i32, i32)).1 : i32), (((t.0%5, t.1%6) : (i32, i32)).0 : i32))"
        " : (i32, i32)) -> (t.0%5, t.1%6);"),
    (1, 'println!("{} {} {} {} {:?}", x%1, a%3, b%4, n%0, ((t.0%5, t.1%6) : (i32, i32)));'),
    (0, "}"),
]
FIELD_LOWERED = [
    (0, "fn main() -> () {  // 1:4, 10 slots"),
    (1, "let n%0: i32 = 0i32;"),
    (1, "let x%1: f64 = ({"),
    (2, "let _tuple%9: i32 = ({"),
    (3, "n%0 += 1i32;"),
    (3, "n%0"),
    (2, "} : i32);"),
    (2, "2.5f64"),
    (1, "} : f64);"),
    (1, "let _tuple%2: i32 = n%0;"),
    (1, "let a%3: i32 = _tuple%2;"),
    (1, "({"),
    (2, "n%0 += 1i32;"),
    (2, "n%0"),
    (1, "} : i32);"),
    (1, "let b%4: i32 = 4i32;"),
    (1, "let t.0%5: i32 = a%3;"),
    (1, "let t.1%6: i32 = b%4;"),
    (1, "let _tuple%7: i32 = t.1%6;"),
    (1, "let _tuple%8: i32 = t.0%5;"),
    (1, "t.0%5 = _tuple%7;"),
    (1, "t.1%6 = _tuple%8;"),
    (1, 'println!("{} {} {} {} ({}, {})", x%1, a%3, b%4, n%0, t.0%5, t.1%6);'),
    (0, "}"),
]

# Fields of a local's tuple (spec/cli.md §4): the typed program keeps `u.1` as the tuple of the
# fields .1 and .2 of u's value (its scalars counted from 0), `u.1.0` as the field .1 of u itself
# and `v.1` as the field .1 of v; the lowering reads the locals: u.1.0%1 + u.0%0 = 2 + 1.
NESTED_PROGRAM = """fn main() {
    let u = (1, (2, 3.5));
    let v = u.1;
    println!("{} {}", u.1.0 + u.0, v.1);
}
"""
U = "((u.0%0, u.1.0%1, u.1.1%2) : (i32, (i32, f64)))"
NESTED_TYPED = [
    (0, "fn main() -> () {  // 1:4, 5 slots"),
    (1, "((1i32, 2i32, 3.5f64) : (i32, (i32, f64))) -> let (u.0%0, u.1.0%1, u.1.1%2);"),
    (1, f"((({U}.1 : i32), ({U}.2 : f64)) : (i32, f64)) -> let (v.0%3, v.1%4);"),
    (1, f'println!("{{}} {{}}", (({U}.1 : i32) + ({U}.0 : i32) : i32),'
        ' (((v.0%3, v.1%4) : (i32, f64)).1 : f64));'),
    (0, "}"),
]
NESTED_LOWERED = [
    (0, "fn main() -> () {  // 1:4, 5 slots"),
    (1, "let u.0%0: i32 = 1i32;"),
    (1, "let u.1.0%1: i32 = 2i32;"),
    (1, "let u.1.1%2: f64 = 3.5f64;"),
    (1, "let v.0%3: i32 = u.1.0%1;"),
    (1, "let v.1%4: f64 = u.1.1%2;"),
    (1, 'println!("{} {}", (u.1.0%1 + u.0%0 : i32), v.1%4);'),
    (0, "}"),
]

# A call that returns a tuple is a statement that declares its value's locals, and a call that
# borrows a struct `&mut` names the locals its fields come back to; the lowering gives each call
# out locals declared with 0, then copies the fields back into the struct after the call
# (spec/cli.md §4).
# An `if` whose value is a tuple: the typed program keeps it as a call's value is kept, a
# statement that declares hidden locals for its scalars (`-> let (_tuple.0%1, _tuple.1%2)`) and a
# tuple of their reads, which the `let` of `t` takes; the lowering declares them with zeros, assigns
# each branch's scalars to them, then declares t's locals from them.
IF_PROGRAM = """fn main() {
    let c = false;
    let t = if c { (1, 2) } else { (3, 4) };
    println!("{:?}", t);
}
"""
IF_TYPED = [
    (0, "fn main() -> () {  // 1:4, 5 slots"),
    (1, "let c%0: bool = false;"),
    (1, "({"),
    (2, "(if c%0 {"),
    (3, "((1i32, 2i32) : (i32, i32))"),
    (2, "} else {"),
    (3, "((3i32, 4i32) : (i32, i32))"),
    (2, "} : (i32, i32)) -> let (_tuple.0%1, _tuple.1%2);"),
    (2, "(_tuple.0%1, _tuple.1%2)"),
    (1, "} : (i32, i32)) -> let (t.0%3, t.1%4);"),
    (1, 'println!("{:?}", ((t.0%3, t.1%4) : (i32, i32)));'),
    (0, "}"),
]
IF_LOWERED = [
    (0, "fn main() -> () {  // 1:4, 5 slots"),
    (1, "let c%0: bool = false;"),
    (1, "let _tuple.0%1: i32 = 0i32;"),
    (1, "let _tuple.1%2: i32 = 0i32;"),
    (1, "(if c%0 {"),
    (2, "_tuple.0%1 = 1i32;"),
    (2, "_tuple.1%2 = 2i32;"),
    (1, "} else {"),
    (2, "_tuple.0%1 = 3i32;"),
    (2, "_tuple.1%2 = 4i32;"),
    (1, "} : ());"),
    (1, "let t.0%3: i32 = _tuple.0%1;"),
    (1, "let t.1%4: i32 = _tuple.1%2;"),
    (1, 'println!("({}, {})", t.0%3, t.1%4);'),
    (0, "}"),
]

CALL_PROGRAM = """struct P { x: f64, n: i32 }
fn two(a: i32) -> (i32, f64) { (a + 1, 0.5) }
fn bump(p: &mut P, k: i32) -> i32 {
    if k > 100 {
        return k;
    }
    p.n += k;
    p.n * 10
}
fn main() {
    let mut p = P { x: 1.5, n: 3 };
    let (a, b) = two(p.n);
    let v = bump(&mut p, a);
    println!("{} {} {} {:?}", a, b, v, p);
}
"""


# The struct's fields go back through `_back` locals (check_struct_ref.cpp), which the lowering
# assigns before a `return` and at the end of the body (lower/lower_write_backs.cpp).
def bump_head(slots):
    return (f"fn bump(p.x%0: f64, p.n%1: i32, k%2: i32) -> i32 {{  // 3:4, {slots} slots, "
            "on return (p.x%0, p.n%1) -> (_back.x%3, _back.n%4)")


BUMP_TYPED = [
    (0, bump_head(5)),
    (1, "(if (k%2 > 100i32 : bool) {"),
    (2, "return k%2;"),
    (1, "} : ());"),
    (1, "(((p.x%0, p.n%1) : &mut P).1 : i32) += k%2;"),
    (1, "((((p.x%0, p.n%1) : &mut P).1 : i32) * 10i32 : i32)"),
    (0, "}"),
    (0, ""),
]
BUMP_LOWERED = [
    (0, bump_head(7)),
    (1, "(if (k%2 > 100i32 : bool) {"),
    (2, "let _tuple%6: i32 = k%2;"),
    (2, "_back.x%3 = p.x%0;"),
    (2, "_back.n%4 = p.n%1;"),
    (2, "return _tuple%6;"),
    (1, "} : ());"),
    (1, "p.n%1 += k%2;"),
    (1, "let _tuple%5: i32 = (p.n%1 * 10i32 : i32);"),
    (1, "_back.x%3 = p.x%0;"),
    (1, "_back.n%4 = p.n%1;"),
    (1, "_tuple%5"),
    (0, "}"),
    (0, ""),
]
CALL_TYPED = [
    (0, "fn two(a%0: i32) -> (i32, f64) {  // 2:4, 3 slots, returned in (_ret.0%1, _ret.1%2)"),
    (1, "(((a%0 + 1i32 : i32), 0.5f64) : (i32, f64)) -> (_ret.0%1, _ret.1%2);"),
    (0, "}"),
    (0, ""),
] + BUMP_TYPED + [
    (0, "fn main() -> () {  // 10:4, 7 slots"),
    (1, "((1.5f64, 3i32) : P) -> let (p.x%0, p.n%1);"),
    (1, "({"),
    (2, "(two((((p.x%0, p.n%1) : P).1 : i32)) : (i32, f64)) -> let (_tuple.0%2, _tuple.1%3);"),
    (2, "(_tuple.0%2, _tuple.1%3)"),
    (1, "} : (i32, f64)) -> let (a%4, b%5);"),
    (1, "let v%6: i32 = (bump(((p.x%0, p.n%1) : &mut P), a%4) back (p.x%0, p.n%1) : i32);"),
    (1, 'println!("{} {} {} {:?}", a%4, b%5, v%6, ((p.x%0, p.n%1) : P));'),
    (0, "}"),
]
CALL_LOWERED = [
    (0, "fn two(a%0: i32) -> (i32, f64) {  // 2:4, 3 slots, returned in (_ret.0%1, _ret.1%2)"),
    (1, "_ret.0%1 = (a%0 + 1i32 : i32);"),
    (1, "_ret.1%2 = 0.5f64;"),
    (0, "}"),
    (0, ""),
] + BUMP_LOWERED + [
    (0, "fn main() -> () {  // 10:4, 10 slots"),
    (1, "let p.x%0: f64 = 1.5f64;"),
    (1, "let p.n%1: i32 = 3i32;"),
    (1, "let _tuple.0%2: i32 = 0i32;"),
    (1, "let _tuple.1%3: f64 = 0.0f64;"),
    (1, "(two(p.n%1) -> (_tuple.0%2, _tuple.1%3) : ());"),
    (1, "let a%4: i32 = _tuple.0%2;"),
    (1, "let b%5: f64 = _tuple.1%3;"),
    (1, "let v%6: i32 = ({"),
    (2, "let _tuple%7: f64 = 0.0f64;"),
    (2, "let _tuple%8: i32 = 0i32;"),
    (2, "let _tuple%9: i32 = (bump(p.x%0, p.n%1, a%4) -> (_tuple%7, _tuple%8) : i32);"),
    (2, "p.x%0 = _tuple%7;"),
    (2, "p.n%1 = _tuple%8;"),
    (2, "_tuple%9"),
    (1, "} : i32);"),
    (1, 'println!("{} {} {} P { x: {}, n: {} }", a%4, b%5, v%6, p.x%0, p.n%1);'),
    (0, "}"),
]

SYNC = "    // offload mark: sync (the GPU's results copied back)"
CHECKPOINT = "    // offload mark: checkpoint after the region at 3:5"


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def vx(*args):
    return subprocess.run([VX, *args], capture_output=True, text=True, timeout=60)


def expect_lines(what, got, want):
    lines = got.splitlines()
    if lines != want:
        fail(f"{what}:\n--- expected\n" + "\n".join(want) + "\n--- got\n" + "\n".join(lines))


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "p.vx")
    with open(path, "w") as f:
        f.write(PROGRAM)

    r = vx("run", "--offload=off", path)
    if r.returncode != 0 or r.stdout != "31\n":  # h[3][7] = 3 * 8 + 7
        fail(f"the program itself: status {r.returncode}, stdout {r.stdout!r}")

    head = "fn main() -> () {  // 1:4, 4 slots"
    r = vx("check", "--dump=typed", path)
    expect_lines("check --dump=typed", r.stdout, [head] + TYPED_BODY + ["}"])

    r = vx("check", "--dump=lowered", path)  # no `match`: lowering changes nothing
    expect_lines("check --dump=lowered", r.stdout, [head] + TYPED_BODY + ["}"])

    r = vx("run", "--offload=off", "--dump=lowered", path)
    marked = [head, SYNC, TYPED_BODY[0]] + TYPED_BODY[1:8] + [CHECKPOINT, SYNC, TYPED_BODY[8],
                                                              SYNC, TYPED_BODY[9], "}"]
    expect_lines("run --dump=lowered", r.stdout, marked)
    if "31" in r.stdout:
        fail("run --dump=lowered ran the program")
    r = vx("run", "--offload=off", "--dump=typed", path)
    expect_lines("run --dump=typed", r.stdout, [head] + TYPED_BODY + ["}"])

    match_path = os.path.join(tmp, "m.vx")
    with open(match_path, "w") as f:
        f.write(MATCH_PROGRAM)
    r = vx("run", match_path)
    if r.returncode != 0 or r.stdout != "2\n":  # (7, 0): not (0, _); (1..=9, 0) and 7 > 2
        fail(f"the match program: status {r.returncode}, stdout {r.stdout!r}")
    for dump, want in (("typed", MATCH_TYPED), ("lowered", MATCH_LOWERED)):
        r = vx("check", f"--dump={dump}", match_path)
        expect_lines(f"check --dump={dump} of a match", r.stdout,
                     ["    " * depth + text for depth, text in want])
        warned = "unused variable: `w`" in r.stderr
        if warned != (dump == "lowered"):
            fail(f"check --dump={dump}: the unused_variables warning is "
                 f"{'given' if warned else 'missing'}: {r.stderr!r}")

    def dumped(name, program, stdout, dumps, what):
        """`program` runs and prints `stdout`; its typed and lowered dumps are `dumps`."""
        p = os.path.join(tmp, name)
        with open(p, "w") as f:
            f.write(program)
        r = vx("run", p)
        if r.returncode != 0 or r.stdout != stdout:
            fail(f"the {what} program: status {r.returncode}, stdout {r.stdout!r}")
        for dump, want in zip(("typed", "lowered"), dumps):
            r = vx("check", f"--dump={dump}", p)
            expect_lines(f"check --dump={dump} of {what}", r.stdout,
                         ["    " * depth + text for depth, text in want])

    # (0, 1) == (0, 1): n read, then 1
    dumped("t.vx", TUPLE_PROGRAM, "(1, 2.5) true\n", (TUPLE_TYPED, TUPLE_LOWERED), "tuples")
    # n: 1 after x, read as a, then 2; t: (1, 4) swapped
    dumped("f.vx", FIELD_PROGRAM, "2.5 1 4 2 (4, 1)\n", (FIELD_TYPED, FIELD_LOWERED),
           "a field, a destructuring let and a tuple assigned")
    dumped("n.vx", NESTED_PROGRAM, "3 3.5\n", (NESTED_TYPED, NESTED_LOWERED),
           "fields of a local's tuple")
    # two(3) = (4, 0.5); bump adds 4 to p.n (7) and gives 70
    dumped("c.vx", CALL_PROGRAM, "4 0.5 70 P { x: 1.5, n: 7 }\n", (CALL_TYPED, CALL_LOWERED),
           "calls that return a tuple and copy a struct back")
    dumped("i.vx", IF_PROGRAM, "(3, 4)\n", (IF_TYPED, IF_LOWERED), "an `if` whose value is a tuple")

    r = vx("check", "--dump=kernels", path)
    expect_lines("check --dump=kernels", r.stdout, [
        "store g[y][x] at 6:17: tensor g, offset y * 8 + x",
        "    across block y (4:9): proved: no two passes reach the same offset; digits y × 8, x × 1",
        "    across lane x (5:13): proved: no two passes reach the same offset; digits x × 1",
    ])

    for dump, command in (("cuda", ["emit-cuda"]), ("uir", ["lower", "--to", "uir"])):
        a, b = vx("check", f"--dump={dump}", path), vx(*command, path)
        if a.returncode != 0 or a.stdout != b.stdout or not a.stdout:
            fail(f"check --dump={dump} (status {a.returncode}) differs from {' '.join(command)}")
    if "__global__" not in vx("check", "--dump=cuda", path).stdout:
        fail("check --dump=cuda has no kernel")

    r = vx("parse", "--dump=ast", path)
    a = vx("check", "--dump=ast", path)
    if r.returncode != 0 or r.stdout != a.stdout or "SpawnOn" not in r.stdout:
        fail("check --dump=ast differs from parse --dump=ast")

    r = vx("check", "--dump=nope", path)
    if r.returncode != 2 or "nope" not in r.stderr:
        fail(f"--dump=nope: status {r.returncode}, stderr {r.stderr!r}")

    bad = os.path.join(tmp, "bad.vx")
    with open(bad, "w") as f:
        f.write("fn main() {\n    let x: i32 = true;\n}\n")
    r = vx("check", "--dump=typed", bad)
    if r.returncode != 1 or r.stdout or "error[E" not in r.stderr or "bad.vx:2:" not in r.stderr:
        fail(f"a refused program: status {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr!r}")

print(f"pipeline dumps: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
