#!/usr/bin/env python3
"""`vx run --dump=FILE.json`, `--dump-npy=DIR` and `vx diff` (spec/cli.md §2.1,
spec/values.schema.json).

- a program whose values are worked out here (floats rounded with `struct`, not read from vx):
  main's top-level bindings at its end, the last of each name, a moved tensor left out, every
  float with its bits, a tensor in row-major order with its shape and memory;
- a runtime error writes no file;
- every corpus program that runs to its end dumps, with --dump-regions, a document of that
  format, every region launch in it, that `vx diff` finds equal to itself and to the document
  as Python writes it;
- `vx diff` on documents written here: equal, one ulp apart (refused, then allowed by --ulp 1),
  NaNs with different payloads equal, a NaN against a number, -0 against +0, f16 and bf16 ulps,
  a shape or a type that differs, a binding in one file only, a file that is not a document.

- every document written here and every corpus program's is valid against
  spec/values.schema.json (Debian's python3-jsonschema, Draft 2020-12; tools/setup installs it);
- every type the language has: each scalar type, `char` (once written as a type the schema did
  not allow), `&str`, arrays of one and two dimensions, a tensor, a tuple and a struct with a
  struct and an array in it (each element a binding of its own, `t.inner.y`), a reference left
  out; and after an early `return` only the `let`s that ran (before, the ones after it were
  written with made-up values, `0`, `false`, `'\0'`), in the document and in --dump-npy.

usage: values_test.py VX CORPUS_DIR
"""
import json
import os
import re
import shlex
import struct
import subprocess
import sys

import jsonschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
CORPUS = os.path.abspath(sys.argv[2])
with open(os.path.join(os.path.dirname(CORPUS), "spec", "values.schema.json")) as f:
    SCHEMA = json.load(f)
jsonschema.Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
# --every N: only every Nth corpus program is dumped (the sanitizer build's 2, CI in 30 minutes).
EVERY = int(sys.argv[sys.argv.index("--every") + 1]) if "--every" in sys.argv else 1
failures = []
tmp = scratch_dir(prefix="vx_values_")


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def vx(*args):
    return subprocess.run([VX, *args], capture_output=True, text=True, timeout=120)


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def schema_errors(doc):
    """What spec/values.schema.json finds wrong with `doc`: empty when it is valid."""
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message)
            for e in VALIDATOR.iter_errors(doc)][:3]


def f32_bits(x):
    return "0x%08x" % struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


PROGRAM = """fn main() {
    let n = 3;
    let n = n * 2;
    let x = 0.1f32;
    let d = -2.5f64;
    let big = -5i64;
    let mut t = Tensor<f32, [2, 3]>::fill(0.0);
    for i in 0..2 {
        for j in 0..3 {
            t[i][j] = (i * 3 + j) as f32 / 3.0;
        }
    }
    let moved = Tensor<i32, [2]>::fill(7);
    let h = transfer(moved, Memory::HBM);
    let b = true;
    println!("{} {} {} {} {}", n, x, d, big, b);
}
"""
prog = write("values.vx", PROGRAM)
dump = os.path.join(tmp, "values.json")
r = vx("run", "--dump=" + dump, prog)
if r.returncode != 0 or r.stdout != "6 0.1 -2.5 -5 true\n" or not os.path.exists(dump):
    fail(f"run --dump: want exit 0, the output and a file, got {r.returncode} {r.stdout!r} {r.stderr!r}")
else:
    with open(dump) as f:
        text = f.read()
    doc = json.loads(text)
    # f32 division of small integers by 3, rounded here: the value is the f32 nearest k / 3.
    t_bits = [f32_bits(f32(f32(k) / f32(3.0))) for k in range(6)]
    want = {"vx_values": 1, "file": prog, "bindings": [
        {"name": "n", "type": "i32", "value": "6"},
        {"name": "x", "type": "f32", "value": "0.1", "bits": f32_bits(0.1)},
        {"name": "d", "type": "f64", "value": "-2.5", "bits": f64_bits(-2.5)},
        {"name": "big", "type": "i64", "value": "-5"},
        {"name": "t", "type": "f32", "shape": [2, 3], "memory": "CPU_DRAM",
         "values": ["0", "0.33333334", "0.6666667", "1", "1.3333334", "1.6666666"],
         "bits": t_bits},
        {"name": "h", "type": "i32", "shape": [2], "memory": "HBM", "values": ["7", "7"]},
        {"name": "b", "type": "bool", "value": "true"}]}
    if doc != want:
        fail(f"the document: want\n{json.dumps(want)}\ngot\n{json.dumps(doc)}")
    if schema_errors(doc):
        fail(f"the document is not valid against the schema: {schema_errors(doc)}")
    if len(text.splitlines()) != len(want["bindings"]) + 2:
        fail(f"the document's text: want one line per binding, got {text!r}")
    r = vx("diff", dump, dump)
    if r.returncode != 0 or r.stdout != "":
        fail(f"diff of a dump with itself: want 0 and nothing, got {r.returncode} {r.stdout!r}")

# --dump-npy=DIR: the tensors as NumPy 1.0 files, read here by hand (no numpy needed): the magic,
# the header dict padded to 64 bytes with a newline, then the little-endian elements.
npy_dir = os.path.join(tmp, "npy")
r = vx("run", "--dump-npy=" + npy_dir, prog)
if r.returncode != 0 or sorted(os.listdir(npy_dir) if os.path.isdir(npy_dir) else []) != \
        ["h.npy", "t.npy"]:
    fail(f"run --dump-npy: want exit 0 and h.npy, t.npy, got {r.returncode} {r.stderr!r}")
else:
    for name, descr, shape, data in [
            ("t", "<f4", "(2, 3)", struct.pack("<6f", *[f32(f32(k) / f32(3.0)) for k in range(6)])),
            ("h", "<i4", "(2,)", struct.pack("<2i", 7, 7))]:
        with open(os.path.join(npy_dir, name + ".npy"), "rb") as f:
            raw = f.read()
        header_len = struct.unpack("<H", raw[8:10])[0]
        header = raw[10:10 + header_len].decode("latin-1")
        want_dict = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
        if raw[:8] != b"\x93NUMPY\x01\x00" or (10 + header_len) % 64 != 0 or \
                not header.endswith("\n") or header.rstrip() != want_dict or \
                raw[10 + header_len:] != data:
            fail(f"{name}.npy: want {want_dict} and {data!r}, got {raw!r}")

# Each element type's dtype and bytes: f16 1.0 is 0x3c00, bf16 1.0 is 0x3f80 (written as <u2).
TYPES = """fn main() {
    let a = Tensor<i8, [1]>::fill(-1i8);
    let b = Tensor<u16, [1]>::fill(2u16);
    let c = Tensor<f64, [1]>::fill(0.5);
    let d = Tensor<f16, [1]>::fill(1.0f16);
    let e = Tensor<bf16, [1]>::fill(1.0bf16);
    let f = Tensor<bool, [1]>::fill(true);
    let g = Tensor<u64, [1]>::fill(3u64);
    println!("{} {} {} {} {} {} {}", a[0], b[0], c[0], d[0], e[0], f[0], g[0]);
}
"""
types_dir = os.path.join(tmp, "npy_types")
r = vx("run", "--dump-npy=" + types_dir, write("types.vx", TYPES))
for name, descr, data in [("a", "|i1", b"\xff"), ("b", "<u2", b"\x02\x00"),
                          ("c", "<f8", struct.pack("<d", 0.5)), ("d", "<f2", b"\x00\x3c"),
                          ("e", "<u2", b"\x80\x3f"), ("f", "|b1", b"\x01"),
                          ("g", "<u8", struct.pack("<Q", 3))]:
    path = os.path.join(types_dir, name + ".npy")
    if r.returncode != 0 or not os.path.exists(path):
        fail(f"--dump-npy of `{name}`: want a file, got {r.returncode} {r.stderr!r}")
        break
    with open(path, "rb") as f:
        raw = f.read()
    header_len = struct.unpack("<H", raw[8:10])[0]
    if f"'descr': '{descr}'" not in raw[10:10 + header_len].decode("latin-1") or \
            raw[10 + header_len:] != data:
        fail(f"{name}.npy: want {descr} and {data!r}, got {raw!r}")

# Every type the language has, worked out here: float bits from `struct` (f16 through Python's
# half-precision "e" format; bf16 1.5 is f32 1.5's high half), `{}`'s text by hand.
ALL_TYPES = r"""struct In { y: f64, c: char }
struct Out { x: f32, inner: In, a: [i16; 2] }
fn main() -> i32 {
    let a = -8i8;
    let b = -300i16;
    let c = 70000;
    let d = -5000000000i64;
    let e = 200u8;
    let f = 60000u16;
    let g = 4000000000u32;
    let h = 18446744073709551615u64;
    let i = 1.5f16;
    let j = 1.5bf16;
    let k = 0.1f32;
    let l = 0.1;
    let m = false;
    let n = '\u{3bb}';
    let o = "a \"quoted\" text";
    let p = [1u8, 2u8, 3u8];
    let q = [[1.5f32, -0.0f32], [2.0f32, 3.0f32]];
    let r = Tensor<i64, [2, 2]>::fill(-1i64);
    let s = (1u16, (true, 'q'));
    let t = Out { x: 2.5, inner: In { y: -0.5, c: 'Z' }, a: [7i16, -7i16] };
    let u = &r;
    println!("{} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {:?} {:?} {:?} {:?} {}", a, b, c, d, e,
             f, g, h, i, j, k, l, m, n, o, p, q, s, t, u[1][1]);
    return 3;
}
"""


def scalar(name, typ, value, bits=None):
    b = {"name": name, "type": typ, "value": value}
    if bits:
        b["bits"] = bits
    return b


def dumped(what, r, status, path, want):
    """The document at `path` that the run `r` wrote, when it exited with `status` and wrote
    `want`, valid against the schema; else None, with the failure said."""
    if r.returncode != status or not os.path.exists(path):
        fail(f"{what}: want exit {status} and a file, got {r.returncode} {r.stderr[-300:]!r}")
        return None
    with open(path) as f:
        got = json.load(f)
    if got != want:
        fail(f"{what}: want\n{json.dumps(want)}\ngot\n{json.dumps(got)}")
        return None
    if schema_errors(got):
        fail(f"{what}: not valid against the schema: {schema_errors(got)}")
    return got


half_bits = "0x%04x" % struct.unpack("<H", struct.pack("<e", 1.5))[0]
all_json = os.path.join(tmp, "all.json")
r = vx("run", "--dump=" + all_json, write("all.vx", ALL_TYPES))
want = {"vx_values": 1, "file": os.path.join(tmp, "all.vx"), "bindings": [
    scalar("a", "i8", "-8"), scalar("b", "i16", "-300"), scalar("c", "i32", "70000"),
    scalar("d", "i64", "-5000000000"), scalar("e", "u8", "200"), scalar("f", "u16", "60000"),
    scalar("g", "u32", "4000000000"), scalar("h", "u64", str(2**64 - 1)),
    scalar("i", "f16", "1.5", half_bits), scalar("j", "bf16", "1.5", f32_bits(1.5)[:6]),
    scalar("k", "f32", "0.1", f32_bits(0.1)), scalar("l", "f64", "0.1", f64_bits(0.1)),
    scalar("m", "bool", "false"), scalar("n", "char", "\u03bb"),
    scalar("o", "str", 'a "quoted" text'),
    {"name": "p", "type": "u8", "shape": [3], "values": ["1", "2", "3"]},
    {"name": "q", "type": "f32", "shape": [2, 2], "values": ["1.5", "-0", "2", "3"],
     "bits": [f32_bits(1.5), f32_bits(-0.0), f32_bits(2.0), f32_bits(3.0)]},
    {"name": "r", "type": "i64", "shape": [2, 2], "memory": "CPU_DRAM", "values": ["-1"] * 4},
    scalar("s.0", "u16", "1"), scalar("s.1.0", "bool", "true"), scalar("s.1.1", "char", "q"),
    scalar("t.x", "f32", "2.5", f32_bits(2.5)), scalar("t.inner.y", "f64", "-0.5", f64_bits(-0.5)),
    scalar("t.inner.c", "char", "Z"),
    {"name": "t.a", "type": "i16", "shape": [2], "values": ["7", "-7"]}]}
got = dumped("every type", r, 3, all_json, want)
if got:
    r = vx("diff", all_json, all_json)
    if r.returncode != 0 or r.stdout:
        fail(f"every type: diff with itself: {r.returncode} {r.stdout!r} {r.stderr!r}")
    other = json.loads(json.dumps(got))
    other["bindings"][14]["value"] = "another text"
    r = vx("diff", all_json, write("all_b.json", json.dumps(other)))
    if r.returncode != 1 or "`o`: a \"quoted\" text in" not in r.stdout:
        fail(f"every type: a `&str` that differs: want 1 and `o`, got {r.returncode} "
             f"{r.stdout!r} {r.stderr!r}")

# An early `return` inside a loop: the `let`s after it never ran, so they are not written (a
# second `n` that never ran leaves the first one's value), and --dump-npy writes no tensor of
# them. Exit status 9 is the returned value.
EARLY = """fn main() -> i32 {
    let n = 1;
    let x = 2.5f32;
    let ones = Tensor<f32, [2]>::fill(1.0);
    let mut k = 0;
    while k < 10 {
        k += 1;
        if k == 3 {
            let n = 99;
            return n - 90;
        }
    }
    let n = 5;
    let late = 'x';
    let flag = true;
    let t = Tensor<f32, [2]>::fill(1.0);
    return n + ones.len() as i32;
}
"""
early = os.path.join(tmp, "early.json")
early_npy = os.path.join(tmp, "early_npy")
r = vx("run", "--dump=" + early, "--dump-npy=" + early_npy, write("early.vx", EARLY))
want = {"vx_values": 1, "file": os.path.join(tmp, "early.vx"), "bindings": [
    scalar("n", "i32", "1"), scalar("x", "f32", "2.5", f32_bits(2.5)),
    {"name": "ones", "type": "f32", "shape": [2], "memory": "CPU_DRAM", "values": ["1", "1"],
     "bits": [f32_bits(1.0)] * 2},
    scalar("k", "i32", "3")]}
if dumped("an early return", r, 9, early, want):
    if sorted(os.listdir(early_npy)) != ["ones.npy"]:
        fail(f"an early return: --dump-npy wrote {sorted(os.listdir(early_npy))}, want ones.npy")

late = os.path.join(tmp, "late.json")
r = vx("run", "--dump=" + late,
       write("late.vx", "fn main() {\n    let z = 0;\n    let q = 1 / z;\n}\n"))
if r.returncode != 101 or os.path.exists(late):
    fail(f"a runtime error: want 101 and no file, got {r.returncode}, file {os.path.exists(late)}")

# --dump-regions: after each launch of a region in a host loop, the names in scope there (main's
# `t`, the loop's `k` and the `let s` inside it), worked out here: launch 1 adds 0 + l, launch 2
# 10 + l.
REGIONS = """fn main() {
    let mut t = transfer(Tensor<i32, [4]>::fill(0), Memory::HBM);
    for k in 0..2 {
        let s = k * 10;
        spawn on(Topology::Device) {
            for b in 0..1 across blocks {
                for l in 0..4 across lanes {
                    t[l] = t[l] + s + l;
                }
            }
        }
    }
    let h = transfer(t, Memory::CPU_DRAM);
}
"""
reg_json = os.path.join(tmp, "regions.json")
r = vx("run", "--dump-regions", "--dump=" + reg_json, write("regions.vx", REGIONS))
if r.returncode != 0:
    fail(f"--dump-regions: {r.returncode} {r.stderr!r}")
else:
    with open(reg_json) as f:
        got = json.load(f)


    def ints(name, vals, memory):
        return {"name": name, "type": "i32", "shape": [len(vals)], "memory": memory,
                "values": [str(v) for v in vals]}


    def scalar(name, v):
        return {"name": name, "type": "i32", "value": str(v)}


    want_regions = [
        {"region": "5:9", "function": "main", "launch": 1,
         "bindings": [ints("t", [0, 1, 2, 3], "HBM"), scalar("k", 0), scalar("s", 0)]},
        {"region": "5:9", "function": "main", "launch": 2,
         "bindings": [ints("t", [10, 12, 14, 16], "HBM"), scalar("k", 1), scalar("s", 10)]},
    ]
    if got.get("regions") != want_regions or got.get("bindings") != [ints("h", [10, 12, 14, 16],
                                                                          "CPU_DRAM")]:
        fail(f"--dump-regions: want {want_regions}, got {got}")
    got["regions"][1]["bindings"][0]["values"][2] = "15"
    changed = write("regions_b.json", json.dumps(got))
    r = vx("diff", reg_json, changed)
    want = (f"`t`[2] after the region at 5:9 (launch 2): 14 in {reg_json}, 15 in {changed}\n"
            "`t` after the region at 5:9 (launch 2): 1 of 4 elements differ\n")
    if r.returncode != 1 or r.stdout != want:
        fail(f"diff of region dumps: want 1 {want!r}, got {r.returncode} {r.stdout!r}")
r = vx("run", "--dump-regions", write("regions2.vx", REGIONS))
if r.returncode != 2 or "--dump-regions goes with --dump=FILE.json" not in r.stderr:
    fail(f"--dump-regions alone: want a usage error, got {r.returncode} {r.stderr!r}")

# Every corpus program that runs to its end (a .stdout, no marker), with its header's run flags
# and environment: a document with main's bindings and one entry per region launch
# (--dump-regions) that `vx diff` finds equal to itself and to the same document as Python
# writes it (another writer of the format).
checked = regions = seen = 0
for root, _, files in sorted(os.walk(CORPUS)):
    for name in sorted(files):
        if not name.endswith(".vx"):
            continue
        path = os.path.join(root, name)
        base = path[:-3]
        if not os.path.exists(base + ".stdout"):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            source = f.read()
        if "//~" in source:
            continue
        seen += 1
        if seen % EVERY:
            continue
        flags, env = [], dict(os.environ)
        for line in source.splitlines():
            line = line.strip()
            if line and not line.startswith("//"):
                break
            if line.startswith("// run-flags:"):
                flags += shlex.split(line[len("// run-flags:"):])
            elif line.startswith("// env:"):
                env.update(w.split("=", 1) for w in line[len("// env:"):].split())
        status = 0
        if os.path.exists(base + ".exitcode"):
            with open(base + ".exitcode") as f:
                status = int(f.read())
        out = os.path.join(tmp, "corpus.json")
        if os.path.exists(out):
            os.remove(out)
        r = subprocess.run([VX, "run", "--offload=off", "--dump-regions", "--dump=" + out, *flags,
                            path], capture_output=True, text=True, timeout=120, env=env,
                           cwd=os.path.dirname(CORPUS))
        with open(base + ".stdout") as f:
            expected = f.read()
        if r.returncode == status == 2 and r.stderr.startswith("error") and \
                not os.path.exists(out):
            continue  # a usage error of its own making (a bad VX_MEMORY_LIMIT, machine file)
        if r.returncode != status or r.stdout != expected or not os.path.exists(out):
            fail(f"{path}: run --dump: want its .stdout, {status} and a file, got {r.returncode}"
                 f" {r.stderr[-300:]!r}")
            continue
        with open(out) as f:
            doc = json.load(f)
        if doc.get("vx_values") != 1 or not isinstance(doc.get("bindings"), list) or \
                not isinstance(doc.get("regions"), list):
            fail(f"{path}: not a values document with regions")
            continue
        if schema_errors(doc):
            fail(f"{path}: its document is not valid against the schema: {schema_errors(doc)}")
        every = list(doc["bindings"])
        for reg in doc["regions"]:
            if not re.fullmatch(r"[0-9]+:[0-9]+", reg.get("region", "")) or \
                    not isinstance(reg.get("launch"), int) or reg["launch"] < 1:
                fail(f"{path}: a region entry without its place and launch: {str(reg)[:200]}")
            every += reg.get("bindings", [])
        for b in every:
            n = 1
            for dim in b.get("shape", []):
                n *= dim
            if "shape" in b and len(b["values"]) != n:
                fail(f"{path}: `{b['name']}` has {len(b['values'])} values for shape {b['shape']}")
        if "spawn on" in source and not doc["regions"]:
            fail(f"{path}: a program with a spawn region dumped no region")
        regions += len(doc["regions"])
        again = write("again.json", json.dumps(doc, indent=2, sort_keys=True))
        for other in (out, again):
            r = vx("diff", out, other)
            if r.returncode != 0:
                fail(f"{path}: diff with {other}: {r.returncode} {r.stdout!r} {r.stderr!r}")
        checked += 1
if checked < 125 // EVERY:  # 128 when this was written
    fail(f"only {checked} corpus programs were dumped")

def doc(*bindings):
    return json.dumps({"vx_values": 1, "file": "x.vx", "bindings": list(bindings)})


def tensor(name, typ, bits, shape=None):
    return {"name": name, "type": typ, "shape": shape or [len(bits)], "memory": "CPU_DRAM",
            "values": ["?"] * len(bits), "bits": bits}


def diff(a, b, *flags):
    return vx("diff", *flags, write("a.json", a), write("b.json", b))


one = f32_bits(1.0)
next_one = "0x3f800001"
A = os.path.join(tmp, "a.json")
B = os.path.join(tmp, "b.json")
cases = [
    # (A, B, flags, exit, stdout)
    (doc(tensor("t", "f32", [one, one])), doc(tensor("t", "f32", [one, next_one])), [], 1,
     f"`t`[1]: ? (0x3f800000) in {A}, ? (0x3f800001) in {B}: 1 ulp\n"
     "`t`: 1 of 2 elements differ (at most 1 ulp apart)\n"),
    (doc(tensor("t", "f32", [one, one])), doc(tensor("t", "f32", [one, next_one])), ["--ulp", "1"],
     0, ""),
    (doc(tensor("t", "f32", ["0x7fc00000"])), doc(tensor("t", "f32", ["0xffc00001"])), [], 0, ""),
    (doc(tensor("t", "f32", ["0x7fc00000"])), doc(tensor("t", "f32", [one])), ["--ulp", "100"], 1,
     f"`t`[0]: ? (0x7fc00000) in {A}, ? (0x3f800000) in {B}\n`t`: 1 of 1 elements differ\n"),
    # -0 is one ulp below +0; the smallest negative subnormal two below.
    (doc(tensor("z", "f32", ["0x80000000"])), doc(tensor("z", "f32", ["0x00000000"])), [], 1,
     f"`z`[0]: ? (0x80000000) in {A}, ? (0x00000000) in {B}: 1 ulp\n"
     "`z`: 1 of 1 elements differ (at most 1 ulp apart)\n"),
    (doc(tensor("z", "f32", ["0x80000001"])), doc(tensor("z", "f32", ["0x00000000"])), ["--ulp", "2"],
     0, ""),
    # f16: 1.0 is 0x3c00, 1.0 + 2^-10 is 0x3c01; bf16 1.0 is 0x3f80, 0x3f82 two ulps above.
    (doc(tensor("h", "f16", ["0x3c00"])), doc(tensor("h", "f16", ["0x3c01"])), [], 1,
     f"`h`[0]: ? (0x3c00) in {A}, ? (0x3c01) in {B}: 1 ulp\n"
     "`h`: 1 of 1 elements differ (at most 1 ulp apart)\n"),
    (doc(tensor("g", "bf16", ["0x3f80"])), doc(tensor("g", "bf16", ["0x3f82"])), ["--ulp", "1"], 1,
     f"`g`[0]: ? (0x3f80) in {A}, ? (0x3f82) in {B}: 2 ulps\n"
     "`g`: 1 of 1 elements differ (at most 2 ulps apart)\n"),
    (doc(tensor("t", "f32", [one] * 6, [2, 3])), doc(tensor("t", "f32", [one] * 6, [3, 2])), [], 1,
     f"`t`: f32 [2, 3] in {A}, f32 [3, 2] in {B}\n"),
    (doc({"name": "n", "type": "i32", "value": "1"}),
     doc({"name": "n", "type": "i32", "value": "2"}, {"name": "m", "type": "u8", "value": "0"}), [],
     1, f"`m`: only in {B}\n`n`: 1 in {A}, 2 in {B}\n"),
]
for a, b, flags, status, out in cases:
    r = diff(a, b, *flags)
    if r.returncode != status or r.stdout != out:
        fail(f"diff {flags}: want {status} {out!r}, got {r.returncode} {r.stdout!r} {r.stderr!r}")
r = diff("not json", doc())
if r.returncode != 2 or "is not a values document (spec/values.schema.json): not JSON" not in r.stderr:
    fail(f"diff of a file that is not JSON: want 2 and why, got {r.returncode} {r.stderr!r}")
short = {"name": "t", "type": "f32", "shape": [2], "values": ["1"], "bits": [one]}
r = diff(json.dumps({"vx_values": 1, "bindings": [short]}), doc())
if r.returncode != 2 or "has not one value per element" not in r.stderr:
    fail(f"diff of a tensor with too few values: want 2, got {r.returncode} {r.stderr!r}")

print(f"{checked} corpus programs dumped, {regions} region launches; {len(failures)} failures")
sys.exit(1 if failures else 0)
