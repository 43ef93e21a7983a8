#!/usr/bin/python3
"""smith_kinds (tests/smith.cmake): the program generator reaches every kind of the typed program
in every context of device code where the language accepts it (spec/smith.md §2.1), so that a
kind added to the checker cannot land without the generator making it.

The kinds are the enumerators of `enum class ExprKind` and `enum class StmtKind`, read from
src/check/tir.hpp; the contexts are those of tools/smith/vxsmith/kinds.py (`lane`, `block`,
`helper_lane`, `helper_block`, `nested_helper`). The feature table is that of the CI seed range
of smith_programs, made by `tools/smith/smith --generate-only` (no vx; a second or two). The test
fails naming every (kind, context) pair that no program has and that the tables below do not
explain, every pair they exclude that a program has all the same, and every kind the features
name that tir.hpp does not have. Each built-in (a row of src/check/builtins.def or
src/numeric/math.def) must be called in some context of device code.

EXCLUDED lists what the language refuses in device code, with the rule and a small program for
each context; GAPS what vx accepts and interprets but the CUDA emitter cannot run yet (smith's
offload tiers would report every such program as a fallback). With --vx the test checks each row
against vx: an example of EXCLUDED must be refused (or, where the row says so, is accepted today:
a finding), an example of GAPS must be accepted and not emitted; a row vx contradicts fails, so
that the table cannot go stale. With --vx, too, kinds.py's reading of every fifth program is held
against `vx check --dump=typed`: a kind it reads in a function must show in vx's dump of it, so
that a lowering it assumes and vx has changed is noticed.

usage: smith_kinds_test.py [--seed 0] [--count 200] [--vx build/vx]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
SMITH = os.path.join(SOURCE, "tools", "smith", "smith")
TIR = os.path.join(SOURCE, "src", "check", "tir.hpp")
# The built-ins, one row each (the float math methods' rows are in numeric/math.def).
BUILTIN_TABLES = [os.path.join(SOURCE, "src", "check", "builtins.def"),
                  os.path.join(SOURCE, "src", "numeric", "math.def")]

CONTEXTS = ["lane", "block", "helper_lane", "helper_block", "nested_helper"]
HELPERS = ["helper_lane", "helper_block", "nested_helper"]
ACROSS = ["lane", "block"]

# (kind, contexts, why, snippet, what vx does today: "refused" or "accepted" (a finding))
# A snippet is device code in the context, where `x` is an i32 local; None: nothing to write.
EXCLUDED = [
    ("Print", CONTEXTS, "E6032 PrintsInPass (kernel-rules.md §3.1): `println!`/`print!` in an across "
     "loop, or a call of a function that prints", 'println!("{}", x);', "refused"),
    ("Spawn", CONTEXTS, "E0404: a region inside a region; device code cannot call a function that "
     "opens one", "spawn on(Topology::Device) { }", "refused"),
    ("Transfer", ACROSS, "E0200: `transfer` is host code only (memory.md §2)",
     "let t = transfer(Tensor<i32, [2]>::fill(x), Memory::HBM);", "refused"),
    ("Transfer", HELPERS, "host code only (memory.md §2), but vx accepts it in a function called "
     "from device code, and the emitter leaves the region to the interpreter: a finding",
     "let t = transfer(Tensor<i32, [2]>::fill(x), Memory::HBM);", "accepted"),
    ("TensorNew", ["lane"], "E6032 (kernel-rules.md §3.5): a tile is made in the code of a block",
     "let t = Tensor<i32, [2], Memory::SMEM>::fill(x);", "refused"),
    ("TensorNew", HELPERS, "E0402: a tile is made in a region's block code (memory.md §1); (vx "
     "accepts an HBM or CPU_DRAM tensor made in such a function, which memory.md §1 makes in host "
     "code and the emitter leaves to the interpreter: a finding)",
     "let t = Tensor<i32, [2], Memory::SMEM>::fill(x);", "refused"),
    ("Return", ACROSS, "E6032 LeavesAcrossLoop (kernel-rules.md §2.6): each lane must get to the end "
     "of the loop", "if x > 100 { return; }", "refused"),
]

# (kind, contexts, why, snippet): accepted and interpreted, not emitted for the GPU yet.
GAPS = [
    ("Assert", CONTEXTS, "the CUDA emitter leaves a region with `assert!` to the interpreter ('not "
     "emitted: assert! in device code'), which smith's offload tiers report; made with "
     "VX_SMITH_GAPS=1 (tools/smith/vxsmith/devcode.py)", "assert!(x >= 0);"),
    ("String", CONTEXTS, "a string literal is only a macro's argument: in device code, of `assert!` "
     "(see Assert)", 'assert!(x >= 0, "{}", "text");'),
]


def enumerators(text, name):
    """The enumerators of `enum class NAME : T { … };` in C++ source, comments dropped."""
    m = re.search(r"enum\s+class\s+%s\b[^{]*\{(.*?)\};" % re.escape(name), text, re.S)
    if not m:
        raise SystemExit("smith_kinds: no `enum class %s` in tir.hpp" % name)
    body = re.sub(r"//[^\n]*|/\*.*?\*/", "", m.group(1), flags=re.S)
    out = []
    for item in body.split(","):
        item = item.strip()
        if item:
            out.append(re.match(r"[A-Za-z_]\w*", item).group())
    return out


def builtin_spellings(texts):
    """The spelling of every row `VX_BUILTIN(E, "spelling", …)` / `VX_MATH_…(E, "spelling", …)`."""
    out = []
    for text in texts:
        for m in re.finditer(r'^\s*VX_(?:BUILTIN|MATH_[A-Z]+)\(\s*\w+\s*,\s*"([^"]+)"', text, re.M):
            out.append(m.group(1))
    return out


# Built-ins the generator leaves out on purpose, with why.
NOT_GENERATED = {
    "dbg!": "a debugging aid whose lines go to stderr, which no tier compares, and which makes the "
            "interpreter run blocks on one thread (spec/builtins.md §7): nothing for a differential "
            "run to find; tests/dbg_test.py and cuda_host_test check it",
}


def judge_builtins(spellings, features):
    """Each built-in in some context of device code (a lanes:: routine is only in block code, an
    atomic only where its tensor is shared: every context is not asked), but NOT_GENERATED's."""
    fails = []
    for b in spellings:
        if b in NOT_GENERATED:
            if any(features.get("builtin:%s@%s" % (b, c)) for c in CONTEXTS):
                fails.append("the built-in `%s` is NOT_GENERATED (%s), but programs call it"
                             % (b, NOT_GENERATED[b]))
            continue
        if not any(features.get("builtin:%s@%s" % (b, c)) for c in CONTEXTS):
            fails.append("no generated program calls the built-in `%s` in device code" % b)
    for key in sorted(features):
        m = re.match(r"builtin:(.+)@\w+$", key)
        if m and m.group(1) not in spellings:
            fails.append("kinds.py names the built-in `%s`, which builtins.def does not have" % m.group(1))
    return fails


def kinds_of(text):
    expr, stmt = enumerators(text, "ExprKind"), enumerators(text, "StmtKind")
    both = set(expr) & set(stmt)
    if both:
        # the features name a kind alone (`kind:If@lane`): give them the enum's name then
        raise SystemExit("smith_kinds: %s in both ExprKind and StmtKind; kinds.py's features would be "
                         "ambiguous" % sorted(both))
    return expr + stmt


def table(rows):
    out = {}
    for row in rows:
        for c in row[1]:
            out[(row[0], c)] = row
    return out


def judge(kinds, features):
    """The failures: pairs missing and not explained, pairs excluded but made, unknown kinds."""
    excluded, gaps = table(EXCLUDED), table(GAPS)
    fails = []
    for k in kinds:
        for c in CONTEXTS:
            have = features.get("kind:%s@%s" % (k, c), 0)
            if not have and (k, c) not in excluded and (k, c) not in gaps:
                fails.append("no generated program has %s in %s code: make it (tools/smith/vxsmith/"
                             "devcode.py; kinds.py names the kind of each form), or say in this test's "
                             "EXCLUDED why the language refuses it there" % (k, c))
            if have and (k, c) in excluded:
                fails.append("%s in %s code is excluded (%s), but %d generated programs have it"
                             % (k, c, excluded[(k, c)][2], have))
    for key in sorted(features):
        m = re.match(r"kind:(\w+)@(\w+)$", key)
        if m and m.group(1) not in kinds:
            fails.append("kinds.py names %s, which tir.hpp does not have" % m.group(1))
        elif m and m.group(2) not in CONTEXTS:
            fails.append("kinds.py names the context %s, which this test does not know" % m.group(2))
    for (k, c) in list(excluded) + list(gaps):
        if k not in kinds:
            fails.append("the table names %s, which tir.hpp does not have" % k)
    return fails


def program(context, snippet):
    """A small program with `snippet` in `context` of device code (an i32 `x` in scope there)."""
    fns = ""
    block, lane = ["let x = 1;"], ["let x = 1;"]
    if context in ("lane", "block"):
        (lane if context == "lane" else block).append(snippet)
    else:
        fns = "fn h(x: i32) -> i32 {\n    %s\n    x\n}\n" % snippet
        call = "h(x)"
        if context == "nested_helper":
            fns += "fn g(x: i32) -> i32 {\n    h(x) + 1\n}\n"
            call = "g(x)"
        (block if context == "helper_block" else lane).append("let x = %s;" % call)
    return fns + """fn main() {
    let mut out = transfer(Tensor<i32, [2, 8]>::fill(0), Memory::HBM);
    let mut bo = transfer(Tensor<i32, [2]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..2 across blocks {
            %s
            bo[b] = x;
            for l in 0..8 across lanes {
                %s
                out[b][l] = x;
            }
        }
    }
    let r = transfer(out, Memory::CPU_DRAM);
    let q = transfer(bo, Memory::CPU_DRAM);
    println!("{} {}", r[1][1], q[1]);
}
""" % ("\n            ".join(block), "\n                ".join(lane))


def check_with_vx(vx):
    """Each row's examples against vx: the failures."""
    fails = []
    work = scratch_dir(prefix="smith-kinds-")
    n = 0
    for c in CONTEXTS:
        # the template itself, with a statement every context accepts
        path = os.path.join(work, "control_%s.vx" % c)
        with open(path, "w") as f:
            f.write(program(c, "let z = x + 1;"))
        r = subprocess.run([vx, "run", path], capture_output=True, text=True)
        if r.returncode != 0 or not re.match(r"\d+ 1\n$", r.stdout):
            fails.append("the examples' template in %s code (%s): status %s, output %r" % (
                c, path, r.returncode, r.stdout))
        else:
            os.remove(path)
    for row in EXCLUDED + GAPS:
        kind, contexts, why, snippet = row[:4]
        today = row[4] if len(row) > 4 else "gap"
        if snippet is None:
            continue
        for c in contexts:
            n += 1
            path = os.path.join(work, "%s_%s.vx" % (kind, c))
            with open(path, "w") as f:
                f.write(program(c, snippet))
            r = subprocess.run([vx, "check", path], capture_output=True, text=True)
            codes = sorted(set(re.findall(r"error\[(E\d+)\]", r.stderr)))
            where = "%s in %s code (%s)" % (kind, c, path)
            if today == "refused" and r.returncode != 1:
                fails.append("%s: the table says vx refuses it, vx check gives status %s: generate it, "
                             "or correct the row" % (where, r.returncode))
            elif today == "accepted" and r.returncode != 0:
                fails.append("%s: vx now refuses it (%s): mark the row `refused`" % (where, ", ".join(codes)))
            elif today == "gap":
                if r.returncode != 0:
                    fails.append("%s: vx refuses it (%s): move the row to EXCLUDED" % (where, ", ".join(codes)))
                    continue
                e = subprocess.run([vx, "emit-cuda", path], capture_output=True, text=True)
                if "not emitted" not in e.stdout + e.stderr:
                    fails.append("%s: vx now emits it for the GPU: generate it (devcode.GAPS) and drop the "
                                 "row from GAPS" % where)
            if not any(f.startswith(where) for f in fails):
                os.remove(path)
    if not fails:
        os.rmdir(work)
    print("smith_kinds: %d examples of the tables checked with %s" % (n, vx))
    return fails


# What each kind looks like in `vx check --dump=typed` (check/tir_print.cpp), for the kinds a
# program's text shows: the dump of a function that kinds.py says has one must match.
DUMP_SIGNS = {"If": r"\(if ", "BlockExpr": r"\(\{", "Match": r"\(match ", "Loop": r"\bloop \{", "While": r"\bwhile ",
              "For": r"\bfor ", "Let": r"\blet ", "Return": r"\breturn\b", "Break": r"\bbreak\b",
              "Continue": r"\bcontinue\b", "Builtin": r"\.\w+\(|lanes::|atomic_\w+\(|scoped_fence",
              "Ref": r"\(&", "View": r"\(&\(", "ArrayLit": r"\(\[", "Cast": r" as ", "Field": r"\)\.\d+ : ",
              "TensorNew": r"::(fill|uninit|fill_dims)\("}


def check_kinds_with_dump(vx, seeds):
    """kinds.py's reading against vx's typed program: every kind it names in a function (of those
    DUMP_SIGNS knows, and calls of the program's functions) is in vx's dump of that function, so
    that a lowering kinds.py assumes and vx no longer does is noticed. The failures."""
    sys.path.insert(0, os.path.join(SOURCE, "tools", "smith"))
    from vxsmith import gen, kinds
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        for s in seeds:
            text = gen.generate(s)
            path = os.path.join(tmp, "seed-%d.vx" % s)
            with open(path, "w") as f:
                f.write(text)
            d = subprocess.run([vx, "check", "--dump=typed", path], capture_output=True, text=True).stdout
            parts = re.split(r"(?m)^fn (\w+)\(", d)
            dumps = {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}
            fns = kinds.parse(text)
            call = r"\b(%s)\(" % "|".join(re.escape(n) for n in fns)
            for name, (found, _, _) in fns.items():
                for k in sorted({k for k, _ in found}):
                    sign = call if k == "Call" else DUMP_SIGNS.get(k)
                    if sign and not re.search(sign, dumps.get(name, "")):
                        fails.append("seed %d: kinds.py reads %s in `%s`, which vx check --dump=typed does not "
                                     "show (tools/smith/smith --seed %d)" % (s, k, name, s))
    print("smith_kinds: kinds.py's reading of %d programs checked against vx's typed program" % len(seeds))
    return fails


def self_test():
    """The enum reader and the judge on text made up here: a kind without coverage must fail."""
    fails = []
    text = """
enum class ExprKind : uint8_t {
  Literal,    // `lit`; a comment, with commas, and { braces }
  Fancy = 3,  /* a new kind, */
};
struct Expr { int x; };
enum class StmtKind : uint8_t { Let, Print };
"""
    kinds = kinds_of(text)
    if kinds != ["Literal", "Fancy", "Let", "Print"]:
        fails.append("self-test: the enum reader gives %r" % kinds)
    feats = {"kind:%s@%s" % (k, c): 1 for k in ("Literal", "Let") for c in CONTEXTS}
    got = judge(kinds, feats)
    if not any("Fancy in lane code" in f for f in got) or not any("Fancy in nested_helper" in f for f in got):
        fails.append("self-test: an uncovered kind passes: %r" % got)
    if any("Print" in f and "no generated" in f for f in got):
        fails.append("self-test: an excluded kind fails: %r" % got)
    feats["kind:Print@lane"] = 1
    if not any("excluded" in f for f in judge(kinds, feats)):
        fails.append("self-test: an excluded kind that is generated passes")
    feats["kind:Gone@lane"] = 1
    if not any("Gone" in f for f in judge(kinds, feats)):
        fails.append("self-test: a kind tir.hpp lacks passes")
    rows = ['// VX_BUILTIN(Enum, spelling, kind)', 'VX_BUILTIN(LanesSum, "lanes::sum", Reduce, 2)',
            '#define VX_MATH_UNARY(E, spelling, f32, f64) \\', 'VX_MATH_EXACT(Sqrt, "sqrt", a, b, c, d)',
            '  VX_BUILTIN(Frob, "frob", Method, 0)']
    spellings = builtin_spellings(["\n".join(rows)])
    if spellings != ["lanes::sum", "sqrt", "frob"]:
        fails.append("self-test: the built-in reader gives %r" % spellings)
    got = judge_builtins(spellings, {"builtin:lanes::sum@block": 1, "builtin:sqrt@nested_helper": 2})
    if got != ["no generated program calls the built-in `frob` in device code"]:
        fails.append("self-test: the built-ins' judgement gives %r" % got)
    return fails


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--vx", help="also check the tables' examples against this vx")
    a = p.parse_args()
    fails = self_test()
    with open(TIR) as f:
        kinds = kinds_of(f.read())
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "features.json")
        r = subprocess.run(["/usr/bin/python3", SMITH, "--generate-only", "--seed", str(a.seed), "--count",
                            str(a.count), "--json", out, "-q"], capture_output=True, text=True)
        if not os.path.exists(out):
            raise SystemExit("smith_kinds: smith --generate-only failed: %s" % r.stderr[-2000:])
        with open(out) as f:
            summary = json.load(f)
    for s in summary["kind_parse_errors"]:
        fails.append("kinds.py cannot read the program of seed %d (tools/smith/smith --seed %d)" % (s, s))
    fails += judge(kinds, summary["features"])
    texts = []
    for path in BUILTIN_TABLES:
        with open(path) as f:
            texts.append(f.read())
    spellings = builtin_spellings(texts)
    if len(spellings) < 10:
        fails.append("only %d built-ins read from %s" % (len(spellings), ", ".join(BUILTIN_TABLES)))
    fails += judge_builtins(spellings, summary["features"])
    if a.vx:
        fails += check_with_vx(os.path.abspath(a.vx))
        fails += check_kinds_with_dump(os.path.abspath(a.vx), range(a.seed, a.seed + a.count, 5))
    have = sum(1 for k in kinds for c in CONTEXTS if summary["features"].get("kind:%s@%s" % (k, c)))
    print("smith_kinds: %d kinds x %d contexts; seeds %d-%d have %d pairs, %d excluded, %d gaps; %d built-ins" % (
        len(kinds), len(CONTEXTS), a.seed, a.seed + a.count - 1, have, len(table(EXCLUDED)), len(table(GAPS)),
        len(spellings)))
    for f in fails:
        print("FAIL: " + f)
    print("smith_kinds: %s" % ("%d failures" % len(fails) if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
