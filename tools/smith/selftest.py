#!/usr/bin/python3
"""smith's own tests: the oracle's integer semantics and verdicts against values worked out by
hand (spec/semantics.md §4), the output comparison, the reducer, and that the generator is
deterministic. No vx needed. Run: /usr/bin/python3 tools/smith/selftest.py"""

import multiprocessing
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vxsmith import calls, ending, gen, kinds, notes, phases, races, reduce as red, run as R, runtime_shapes  # noqa: E402
from vxsmith.races import B, C, V, Loop, Mutant, cast, wrap  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


# wrapping two's complement at each width (by hand: 4 * 2^30 = 2^32 ≡ 0; 127 + 1 = -128 in i8)
check(wrap(4 * (1 << 30), "i32") == 0, "4*2^30 wraps to 0 in i32")
check(wrap(2 * (1 << 30), "i32") == -(1 << 31), "2*2^30 is i32::MIN")
check(wrap(128, "i8") == -128, "128 in i8")
check(wrap(-1, "u16") == 65535, "-1 in u16")
check(wrap(4 * (1 << 62), "i64") == 0, "4*2^62 in i64")
check(wrap(256, "u8") == 0, "256 in u8")
# / rounds toward zero, % has the sign of the left operand: -7 / 2 = -3, -7 % 2 = -1, 7 % -2 = 1
env = {}
check(B("/", C(-7), C(2)).ev(env) == -3, "-7 / 2")
check(B("%", C(-7), C(2)).ev(env) == -1, "-7 % 2")
check(B("%", C(7), C(-2)).ev(env) == 1, "7 % -2")
check(B("/", C(-(1 << 31)), C(-1)).ev(env) == -(1 << 31), "MIN / -1 wraps")
check(B("%", C(-(1 << 31)), C(-1)).ev(env) == 0, "MIN % -1")
check(cast(C(300), "u8").ev(env) == 44, "300 as u8")
check(cast(C(-1, "i8"), "u16").ev(env) == 65535, "-1i8 as u16")

# the first example: out: [8], b in 0..8, l in 0..8, if b % 4 == 0 { out[b * 2^30 + l] = … }
b, l = V("b"), V("l")
m = Mutant([Loop("b", "blocks", 0, 8), Loop("l", "lanes", 0, 8)], [8], [B("+", B("*", b, C(1 << 30)), l)],
           guard=("b % 4 == 0", lambda e: e["b"] % 4 == 0))
t = m.truth()
check(t[0] and t[1][3] == (0,) and t[1][1] == (0, 0) and t[1][2] == (4, 0), "blocks 0 and 4 write element 0: %r" % (t,))
check("1073741824" in m.text() and "if b % 4 == 0" in m.text(), "mutant text")
# the second: out[(l * 2u8) as i32] over 0u8..=255: l = 0 and l = 128 both write element 0
u = V("l", "u8")
m = Mutant([Loop("b", "blocks", 0, 1), Loop("l", "lanes", 0, 256, t="u8", inclusive=True)], [512],
           [cast(B("*", u, C(2, "u8")), "i32")])
t = m.truth()
check(t[0] and t[1][1:] == ((0, 0), (0, 128), (0,)), "u8 wrap collision: %r" % (t,))
check("0u8..=255u8" in m.text(), "inclusive u8 range: " + m.text())
# race-free: b * 8 + l (8 lanes) — and refuted: b * 7 + l collides (block 0 lane 7, block 1 lane 0)
m = Mutant([Loop("b", "blocks", 0, 4), Loop("l", "lanes", 0, 8)], [32], [B("+", B("*", b, C(8)), l)])
check(m.truth() == (False, None, False), "b * 8 + l is collision-free")
m = Mutant([Loop("b", "blocks", 0, 4), Loop("l", "lanes", 0, 8)], [32], [B("+", B("*", b, C(7)), l)])
check(m.truth()[0] and m.truth()[1][1:] == ((0, 7), (1, 0), (7,)), "b * 7 + l collides at 7: %r" % (m.truth(),))
# a plain loop inside a lane is the same pass: out[l] written by k = 0, 1 of one lane is no collision
m = Mutant([Loop("b", "blocks", 0, 1), Loop("l", "lanes", 0, 4), Loop("k", "plain", 0, 2)], [4], [l])
check(m.truth() == (False, None, False), "one lane writing twice")
# a neighbour read in the same phase: lane 1 reads out[1] that lane 1 writes? no: lane 0 reads out[1]
m = Mutant([Loop("b", "blocks", 0, 1), Loop("l", "lanes", 0, 4)], [4], [l], read=[B("+", l, C(1))])
t = m.truth()
check(t[0] and t[1][0] == "read" and t[2], "neighbour read collides (and the last lane reads out of bounds): %r" % (t,))

# the comparison: exact, except ~TOL lines
check(R.same_output("a 1\n", "a 1\n") is None, "equal")
check(R.same_output("a 1\n", "a 2\n") is not None, "different")
check(R.same_output("~0.01 x: 1.0 2\n", "~0.01 x: 1.005 2\n") is None, "within tolerance")
check(R.same_output("~0.01 x: 1.0 2\n", "~0.01 x: 1.5 2\n") is not None, "outside tolerance")
check(R.same_output("~0.01 x: NaN\n", "~0.01 x: 1\n") is not None, "NaN against a number")

check(R.same_output("~r2e-5 x: 100000\n", "~r2e-5 x: 100001\n") is None, "within a relative bound")
check(R.same_output("~r2e-5 x: 100000\n", "~r2e-5 x: 100003\n") is not None, "outside a relative bound")

check(R.same_output("~u0.5 x: 1.25\n", "~u0.5 x: 1.5\n") is None, "sum_unordered within its bound")
check(R.same_output("~u0.5 x: 1.25\n", "~u0.5 x: 1.5\n", strict_unordered=True) is not None,
      "sum_unordered exact between vx's tiers")

# the reducer keeps the signature and drops the rest
prog = "fn main() {\n    let a = 1;\n    for i in 0..3 {\n        let b = 2;\n        BUG;\n    }\n    let c = 3;\n}\n"
small = red.reduce(prog, lambda t: "BUG" in t and t.count("{") == t.count("}"))
check(small == "fn main() {\n    BUG;\n}\n", "reduced to %r" % small)
# and stops, the program as it was, in a pool's process whose smith or campaign is being ended
# (ending.py): a reduction runs up to --reduce-seconds, and the pool's shutdown waits for it
ending._stop = multiprocessing.Event()
ending._stop.set()
stats = {}
check(red.reduce(prog, lambda t: "BUG" in t, stats=stats) == prog and stats["stopped"] == "ended",
      "a reduction once smith is being ended: %r" % stats)
ending._stop = None

# the generator is deterministic, and its programs print
for s in range(40):
    a, b2 = gen.generate(s), gen.generate(s)
    check(a == b2, "seed %d deterministic" % s)
    check("println!" in a and "fn main()" in a, "seed %d prints" % s)
# a block used as an expression is parenthesized: `{ …; x }.ceil()` at the start of a statement is
# a block statement and then a syntax error (found by a campaign's reference tier, seed 9000214)
for s in list(range(300)) + [9000214]:
    a = gen.generate(s)
    check(not re.search(r"(?<![(=])\s*\{ let", a.replace("= {", "=(")), "seed %d: a block expression "
          "not parenthesized: %s" % (s, re.findall(r".{30}(?<![(=])\s*\{ let.{30}", a)[:2]))
# sizes known at run time (spec/types.md §3.1): some maps make their output with `fill_dims`, of a
# size from a host loop or a function's argument, now and then over `0..out.len()` blocks
feats = {}
for s in range(200):
    gen.generate(s, feats)
for k in ("run_time_size_host_loop", "run_time_size_fn_arg", "run_time_size_len_bound",
          "struct_item", "struct_local", "struct_pass", "struct_field_read", "struct_ref_helpers",
          "struct_ref_mut", "tuple_local_field", "tuple_match_fields",
          "tuple_field_write"):
    check(feats.get(k, 0) > 0, "feature %s in seeds 0-199" % k)
text = gen.generate(77)
check("[?, 31, 4], Memory::HBM>::fill_dims(" in text and ".len() across blocks" in text,
      "seed 77's run-time sized output")
for s in range(200):
    m = races.mutant(s)
    check(m.text() == races.mutant(s).text(), "mutant %d deterministic" % s)

# stores in a helper (calls.py): the example, every block writing x[0] in an `if` of the
# helper, collides (blocks 0 and 1); the same store in the arm `0` of `match v % 2` over b / 2 does
# not (only the even blocks write, each its own element)
base = Mutant([Loop("b", "blocks", 0, 8)], [8], [C(0)])
m = calls.CallMutant(base, "if", None, ("v >= 0", lambda v: v >= 0, 2), False, "block", False)
t = m.truth()
check(t[0] and t[1][1:] == ((0,), (1,), (0,)), "every block writes x[0] through hw: %r" % (t,))
check("if v >= 0 {" in m.text() and "hw(&mut out, 0, b);" in m.text() and "a[i0] = v;" in m.text(),
      "the helper store's text: " + m.text())
base = Mutant([Loop("b", "blocks", 0, 8)], [8], [B("/", V("b"), C(2))])
m = calls.CallMutant(base, "match", "else", ("v >= 0", lambda v: v >= 0, 2), False, "block", False)
check(m.truth() == (False, None, False), "b / 2 in the arm of `match v %% 2`: %r" % (m.truth(),))
check("match v % 2 {" in m.text() and "fn hw2(" in m.text() and "} else {" in m.text(), "nested: " + m.text())
m = calls.CallMutant(Mutant([Loop("b", "blocks", 0, 8)], [8], [B("/", V("b"), C(2))]), "loop", None,
                     ("v >= 0", lambda v: v >= 0, 2), False, "block", False)
check(m.truth()[0], "b / 2 unconditionally collides")
# a row passed: out[b][l] as hw(&mut out[b], l, v)
b, l = V("b"), V("l")
m = calls.CallMutant(Mutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4)], [2, 4], [b, l]), "let_ref",
                     None, ("v % 2 == 0", lambda v: v % 2 == 0, 2), True, "lane", True)
check(m.truth() == (False, None, False) and "hw(&mut out[b], l, l);" in m.text() and "let r = &mut a;" in m.text(),
      "a row passed: " + m.text())
# the row is taken before the helper's condition: block 1's row 2 of 2 stops the program although
# only even blocks store
m = calls.CallMutant(Mutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4)], [2, 4],
                            [B("*", b, C(2)), l]), "if", None, ("v % 2 == 0", lambda v: v % 2 == 0, 2), True,
                     "lane", False)
check(m.truth() == (False, None, True), "a row out of bounds under the helper's condition: %r" % (m.truth(),))
for s in range(3, 400, 8):
    check(calls.call_mutant(s).text() == calls.call_mutant(s).text(), "call mutant %d deterministic" % s)
# calls with aliased arguments: refused with E0305; the control passes two tensors
for f in calls.ALIAS_FORMS:
    a = calls.AliasMutant(f, 8, 2)
    call = calls._ALIAS[f][1].replace("N", "8")
    check(a.expect == "E0305" and a.truth() == "refuse" and call in a.text(), "alias %s: %s" % (f, a.text()))
    c = a.control()
    check(c is None and f.startswith("device_hbm") or c is not None and call not in c, "alias %s's control" % f)
check({races.any_mutant(s).klass[:5] for s in range(3, 200, 8)} == {"call_"}, "seeds 8k+3 are call mutants")
check({races.any_mutant(s).klass[:6] for s in range(5, 200, 16)} == {"alias_"}, "seeds 16k+5 are alias mutants")
# one race mutant in ten has its first index under `dbg!`, evaluated as its argument
dbgs = [s for s in range(400) if "dbg!(" in races.mutant(s).text()]
check(20 <= len(dbgs) <= 70 and all("dbg!" in races.mutant(s).note for s in dbgs), "dbg! mutants: %r" % dbgs)
m = Mutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4)], [8], [races.E("dbg", "i32", B("+", B("*", b, C(3)), l))])
check("out[dbg!(((b * 3) + l))] = 1;" in m.text() and m.truth()[0], "dbg!(b * 3 + l) over 4 lanes collides: %r" % (m.truth(),))
# the store's index in an `if` of equal arms (one commuted), or returned by a helper
e = B("+", B("*", b, C(3)), l)
m = Mutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4)], [8],
           [races.E("call", "i32", races.E("ifsame", "i32", e, races.commuted(e), name="b >= 0"), name="ix",
                    value=[("b", "i32"), ("l", "i32")])])
check("fn ix(b: i32, l: i32) -> i32 {\n    (if b >= 0 { ((b * 3) + l) } else { (l + (3 * b)) })\n}" in m.text()
      and "out[ix(b, l)] = 1;" in m.text() and m.truth()[0], "a helper of an if of equal arms: %r" % (m.text(),))
# the store's index summed into a `let mut` first
m = Mutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4)], [8],
           [races.E("mutacc", "i32", B("*", b, C(4)), l, name="ix")])
check("let mut ix: i32 = (b * 4); ix += l; out[ix] = 1;" in m.text() and m.truth() == (False, None, False),
      "a let mut index: %r" % (m.text(),))
forms = [races.mutant(s).note for s in range(400)]
check(15 <= sum("helper" in n for n in forms) <= 50 and 15 <= sum("if-same" in n for n in forms) <= 50 and
      10 <= sum("let-mut" in n for n in forms) <= 50,
      "helper and if-same mutants: %d, %d" % (sum("helper" in n for n in forms), sum("if-same" in n for n in forms)))
# `|`, `^` and `<<` in the store's index (kernel-rules.md §4 step 1): `(b << 2) | l` over 4 lanes
# is b * 4 + l; `(b * 2) ^ l` over 4 lanes meets (b = 1, l = 0 and b = 0, l = 2 both reach 2)
m = Mutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4)], [8], [B("|", B("<<", b, C(2)), l)])
check("out[((b << 2) | l)] = 1;" in m.text() and m.truth() == (False, None, False), "(b << 2) | l: %r" % (m.truth(),))
m = Mutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4)], [8], [B("^", B("*", b, C(2)), l)])
check("out[((b * 2) ^ l)] = 1;" in m.text() and m.truth()[0], "(b * 2) ^ l collides: %r" % (m.truth(),))
check(races.wrap(B("|", C(-8), C(3)).ev({}), "i32") == -5 and B("^", C(-1, "u8"), C(15, "u8")).ev({}) == 240 and
      B("<<", C(3, "i8"), C(6, "i8")).ev({}) == -64, "| ^ << wrap as two's complement")
bitsm = [m for m in map(races.mutant, range(400)) if "bits" in m.note]
check(30 <= len(bitsm) <= 100 and all(any(op in m.text() for op in (" | ", " ^ ")) for m in bitsm),
      "bits mutants: %d" % len(bitsm))
check(any(" << " in m.text() for m in bitsm), "a bits mutant with `<<`")
# run-time shapes: a pub fn called with its loops' values and with larger ones
check({races.any_mutant(s).klass[:6] for s in range(9, 400, 16)} == {"dyn2d_"}, "seeds 16k+9 are dyn2d mutants")
check({races.any_mutant(s).klass[:7] for s in range(1, 400, 16)} == {"stride_"}, "seeds 16k+1 are stride mutants")
for s in range(1, 800, 8):
    m = races.any_mutant(s)
    check(m.text() == races.any_mutant(s).text() and m.truth() is not None, "run-time shape %d deterministic" % s)
rows, cols = runtime_shapes.RuntimeLoop("b", "blocks", 0, 3, hi_text="rows"), runtime_shapes.RuntimeLoop(
    "l", "lanes", 0, 5, hi_text="cols", lanes=256)
m = runtime_shapes.RuntimeMutant([rows, cols], [], [l, b], "dyn2d_transposed", "", [("rows", 3), ("cols", 5)], "?, ?")
m.size_for([0, 0])
check(m.calls == [(3, 5), (9, 13)] and m.dims == [13, 9] and m.truth() == (False, None, False),
      "the transpose over two calls: %r %r %r" % (m.calls, m.dims, m.truth()))
check("k(&mut out, 3, 5);" in m.text() and "k(&mut out, 9, 13);" in m.text() and "out[l][b] = 1;" in m.text(),
      "the transpose's text")
# l % 8 is collision-free for 5 columns, but not for 13: the second call decides
m = runtime_shapes.RuntimeMutant([rows, cols], [], [b, B("%", l, C(8))], "dyn2d_col_mod", "", [("rows", 3),
                                                                                              ("cols", 5)], "?, ?")
m.size_for([0, 0])
check(m.truth()[0] and m.truth()[1][3] == (0, 0), "l %% 8 at 13 columns collides: %r" % (m.truth(),))
# the grid-stride loop over 2 blocks of 4 lanes, to 20: by 8 it is one pass per element, by 7 not
for step, collides in ((8, False), (7, True), (4, True), (16, False)):
    st = runtime_shapes.RuntimeLoop("i", "plain", 0, 20, start=B("+", B("*", b, C(4)), l), adapters=[("step", step)])
    m = runtime_shapes.RuntimeMutant([Loop("b", "blocks", 0, 2), Loop("l", "lanes", 0, 4), st], [], [V("i")],
                                     "stride_grid", "", [], "?")
    m.size_for([0])
    check(m.truth()[0] == collides and m.dims == [20] and
          "for i in (((b * 4) + l)..20).step_by(%d) {" % step in m.text(), "grid stride by %d: %r %r" % (
              step, m.truth(), m.dims))

# phases.py: the oracle knows a block's phases
check({races.any_mutant(s).klass for s in range(14, 800, 16)} == {"phases", "phases_rows"}, "seeds 16k+14 are phase mutants")
ph = phases.PhaseMutant(2, 4, [("lanes", [(("b * 4 + l", lambda b, l: b * 4 + l), None)]),
                               ("block", [(("b * 4 + 3", lambda b, l: b * 4 + 3), ("b * 4", lambda b, l: b * 4))])],
                        "phases", "")
check(ph.truth() == (False, None, False) and "out[b * 4 + 3] = out[b * 4] + 1;" in ph.text(),
      "a block's code after its lane loop, at its own row: %r" % (ph.truth(),))
ph.phases[1] = ("block", [(("b * 4 + 4", lambda b, l: b * 4 + 4), None)])
check(ph.truth()[0] and ph.truth()[1][3] == 4, "block 0's code writes element 4, block 1's lane 0 too: %r" % (ph.truth(),))
ph.phases[1] = ("lanes", [(("b * 4 + 3 - l", lambda b, l: b * 4 + 3 - l), ("b * 4 + l", lambda b, l: b * 4 + l))])
check(ph.truth()[0] and ph.truth()[1][0] == "read", "a reversed store beside a read of `l` in one lane loop: %r" % (
    ph.truth(),))

# kinds.py: the kind and context of each node of device code
prog = """fn leaf(x: i32) -> i32 {
    let v = loop { break x; };
    v
}
fn mid(x: i32, r: &Tensor<i32, [4], Memory::HBM>) -> i32 {
    if x > 0 { return leaf(x); }
    r[0]
}
fn main() {
    let m = transfer(Tensor<i32, [2, 4]>::fill(1), Memory::HBM);
    let mut out = transfer(Tensor<i32, [2, 4]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..2 across blocks {
            let t = Tensor<i32, [4], Memory::SMEM>::fill(mid(b, &m[b]));
            for l in 0..4 across lanes {
                let k = match l { 0 => (), _ => () };
                out[b][l] = t[l] + (l as i32).abs() - [1, 2][0];
            }
        }
    }
    println!("{}", 1);
}
"""
f = kinds.features(prog)
for k in ["If@helper_block", "Return@helper_block", "Call@helper_block", "Loop@nested_helper", "Break@nested_helper",
          "BlockExpr@nested_helper", "TensorNew@block", "Call@block", "Ref@block", "View@block", "Match@lane",
          "Unit@lane", "Cast@lane", "Builtin@lane", "ArrayLit@lane", "Index@lane", "Assign@lane",
          "For@block", "Let@lane"]:
    check(f.get("kind:" + k), "kinds: %s in %r" % (k, sorted(f)))
# what the checker drops or does not make: the arms after one that every value reaches, an array
# of copy_async's start, a Ref of a struct passed `&mut`
f = kinds.features("""struct S {
    a: i32,
}
fn mk(x: i32) -> S {
    S { a: x }
}
fn bump(s: &mut S) {
    s.a += 1;
}
fn g(x: i32) -> i32 {
    match x { 1 => 1, y => y.abs(), _ => x.max(1) }
}
fn main() {
    let src = transfer(Tensor<f32, [16]>::fill(1.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..2 across blocks {
            let mut t = unsafe { Tensor<f32, [8], Memory::SMEM>::uninit() };
            let tok = lanes::copy_async(&mut t, &src, [b * 8]);
            tok.wait();
            let mut sv = mk(g(b));
            bump(&mut sv);
        }
    }
}
""")
check(f.get("builtin:abs@helper_block") and not f.get("builtin:max@helper_block"), "the arm after `y =>`: %r" % f)
check(f.get("kind:Match@helper_block") == 1 and f.get("kind:If@helper_block") is None,
      "one Match (the typed program's; no If until the lowering): %r" % f)
check(not f.get("kind:ArrayLit@block") and f.get("builtin:lanes::copy_async@block") == 1, "copy_async: %r" % f)
check(f.get("kind:Ref@block") == 2, "&mut t and &src, not &mut sv: %r" % f)
# host code has no context: main's println!, transfers and region are none of these
for k in ["Print@", "Transfer@", "Spawn@", "If@block", "Return@helper_lane", "Loop@helper_block", "View@lane"]:
    check(not any(x.startswith("kind:" + k) for x in f), "kinds: no %s in %r" % (k, sorted(f)))
for s in range(200):
    feats = {}
    gen.generate(s, feats)
    check("kind_parse_error" not in feats, "kinds.py reads seed %d" % s)

# the device-code section (devcode.py): one program in eight, made by an RNG of its own, and the
# kinds it exists for: every form in lane loops, block code and helpers at every depth
feats = {}
with_section = [s for s in range(200) if "section_device_code" in (lambda f: (gen.generate(s, f), f)[1])({})]
check(15 <= len(with_section) <= 50, "device code in %d of seeds 0-199" % len(with_section))
for s in with_section[:10]:
    gen.generate(s, feats)
for k in ("kind:Loop@lane", "kind:While@block", "kind:View@helper_block", "kind:Return@nested_helper",
          "kind:Continue@helper_lane", "kind:Unit@block", "kind:Call@nested_helper"):
    check(feats.get(k), "device code sections make %s: %r" % (k, sorted(feats)))

# the collision notes (notes.py): a note is true where its passes get past the guard and reach
# its element, false where the guard keeps one out, or where a loop does not take a value it
# names; a hedged note is read on its indices alone
gm = races.Mutant([races.Loop("b", "blocks", 0, 8)], [2], [races.B("/", races.V("b"), races.C(4))],
                  guard=("b % 2 == 0 && b != 0", lambda env: env["b"] % 2 == 0 and env["b"] != 0))
for note, want in [("block 4 and block 6 both write element 1", True),
                   ("block 0 and block 1 both write element 0", False),
                   ("block 0 and block 1 would both write element 0, if both get there (what decides it "
                    "is not followed here)", True),
                   ("block 4 and block 6 both write element 0", False),
                   ("block 9 and block 6 both write element 1", False)]:
    check(notes.note_holds(gm, note) is want, "note %r: %r" % (note, notes.note_holds(gm, note)))
km = races.Mutant([races.Loop("b", "blocks", 0, 4), races.Loop("k", "plain", 0, 3, adapters=[("step", 2)])], [8],
                  [races.B("+", races.V("b"), races.V("k"))])
check(notes.note_holds(km, "block 0 with `k` = 2 and block 2 with `k` = 0 both write element 2") is True, "step 2")
check(notes.note_holds(km, "block 0 with `k` = 1 and block 1 with `k` = 0 both write element 1") is False,
      "k = 1 is not a value of (0..3).step_by(2)")
check(notes.collision_notes("  = note: lane 1 writes element 1 and lane 0 reads it\n  = note: the offset is `l`\n")
      == ["lane 1 writes element 1 and lane 0 reads it"], "collision_notes")
check(notes.note_holds(gm, "the offset is `b / 4`") is None, "not a collision note")

print("smith selftest: %s" % ("%d failures" % failures if failures else "ok"))
sys.exit(1 if failures else 0)
