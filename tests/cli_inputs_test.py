#!/usr/bin/env python3
"""Hostile input to the `vx` command (issue 14): what it reads, what it writes.

- reads: a source larger than 16 MiB (/dev/zero, a FIFO fed without end, a big regular file, a
  big .uir, a big machine file, the REPL's `:load`) is refused with E0003 at line 1, column 1
  after reading at most 16 MiB + 1 byte; a file of exactly 16 MiB is read;
- a 440 KB program on one line parses, and its AST dump's columns are the code points before
  each node (computed here), also after a non-ASCII string;
- a byte order mark at the start of standard input, a machine file and a REPL `:load` is
  dropped: columns on line 1 count from after it;
- machine files: every out-of-range, repeated, unknown or missing constant is E0600 at its line
  and column in the machine file, exit status 2, also as JSON;
- --error-format=json: runtime errors (.vx and .uir), unreadable files and command-line errors
  are JSON objects of the diagnostics' shape;
- --color: always, never, a pipe, a terminal with and without NO_COLOR or TERM=dumb; the
  explain footer;
- warnings: the two lane lints, `#![allow]` / `#[allow]` on the file and on an item, `-D
  warnings`, JSON;
- sizes and counts in the environment (VX_CACHE_MAX, VX_MEMORY_LIMIT, VX_OFFLOAD_THRESHOLD,
  VX_HOST_THREADS): a value that is not one is a usage error naming it;
- `vx conformance --format junit` is well-formed XML (python's expat parser) whatever the
  programs print: U+FFFE, U+FFFF, control characters, bytes that are not UTF-8.

usage: cli_inputs_test.py VX REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import on_terminal, scratch_dir  # noqa: E402

VX, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
LIMIT = 16 << 20
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def vx(*args, stdin=None, timeout=60):
    start = time.monotonic()
    try:
        r = subprocess.run([VX, *args], input=stdin, capture_output=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired as e:
        fail(f"vx {' '.join(args)[:200]}: still running after {timeout} s")
        r = subprocess.CompletedProcess(e.cmd, None, e.stdout or b"", e.stderr or b"")
    r.seconds = time.monotonic() - start
    r.err = r.stderr.decode("utf-8", "replace")
    r.out = r.stdout.decode("utf-8", "replace")
    return r


def located(stderr, code, path, line, col):
    """Whether stderr holds `error[CODE]` followed by ` --> PATH:LINE:COL`."""
    want = f"--> {path}:{line}:{col}"
    lines = stderr.split("\n")
    return any(l.startswith(f"error[{code}]") and i + 1 < len(lines) and lines[i + 1].strip() == want
               for i, l in enumerate(lines))


def json_lines(stderr):
    objs = []
    for line in stderr.splitlines():
        try:
            objs.append(json.loads(line))
        except ValueError:
            fail(f"not a JSON line on stderr: {line!r}")
    return objs


def expect_too_large(what, r, path, status=1):
    print(f"{what}: exit {r.returncode} in {r.seconds:.2f} s")
    if r.returncode != status or not located(r.err, "E0003", path, 1, 1):
        fail(f"{what}: expected E0003 at {path}:1:1 and exit {status}, got {r.returncode}: {r.err[:300]}")


tmp = scratch_dir(prefix="vx_cli_inputs_")
main_vx = os.path.join(tmp, "main.vx")
with open(main_vx, "w") as f:
    f.write("fn main() {}\n")

# --- reads ------------------------------------------------------------------------------------
expect_too_large("check /dev/zero", vx("check", "/dev/zero"), "/dev/zero")
expect_too_large("run /dev/zero", vx("run", "/dev/zero"), "/dev/zero")
expect_too_large("check --machine /dev/zero", vx("check", "--machine", "/dev/zero", main_vx),
                 "/dev/zero", status=2)
expect_too_large("check - (17 MiB on stdin)", vx("check", "-", stdin=b"\n" * (17 << 20)), "-")

fifo = os.path.join(tmp, "endless.vx")
os.mkfifo(fifo)
stop = threading.Event()


def feed():
    try:
        with open(fifo, "wb") as f:
            chunk = b"// " + b"x" * 1000 + b"\n"
            while not stop.is_set():
                f.write(chunk)
    except (BrokenPipeError, OSError):
        pass


writer = threading.Thread(target=feed, daemon=True)
writer.start()
expect_too_large("check FIFO fed without end", vx("check", fifo), fifo)
stop.set()

big = os.path.join(tmp, "big.vx")
with open(big, "wb") as f:
    f.write(b"fn main() {}\n" + b" " * (LIMIT + 1 - 13))
assert os.path.getsize(big) == LIMIT + 1
expect_too_large("check of 16 MiB + 1 byte", vx("check", big), big)
exact = os.path.join(tmp, "exact.vx")
with open(exact, "wb") as f:
    f.write(b"fn main() {}\n" + b" " * (LIMIT - 14) + b"\n")
assert os.path.getsize(exact) == LIMIT
r = vx("check", exact)
if r.returncode != 0:
    fail(f"a file of exactly 16 MiB should be read and accepted, got {r.returncode}: {r.err[:300]}")

big_uir = os.path.join(tmp, "big.uir")
with open(big_uir, "wb") as f:
    f.write(b"#" * (LIMIT + 1))
expect_too_large("check big .uir", vx("check", big_uir), big_uir)

r = vx("repl", stdin=b":load /dev/zero\n1 + 2\n:quit\n")
print(f"repl :load /dev/zero: exit {r.returncode} in {r.seconds:.2f} s")
if not located(r.err, "E0003", "/dev/zero", 1, 1) or "= 3 : i32" not in r.out:
    fail(f"repl :load /dev/zero: expected E0003 and a session that goes on: {r.out[:200]!r} {r.err[:300]!r}")

# --- one long line --------------------------------------------------------------------------
head = 'fn main() -> i32 { let s = "\u00e9\u00e8\u4e2d"; '
body = "let x = 1; " * 40000
text = head + body + "return 0; }\n"
long_vx = os.path.join(tmp, "long.vx")
with open(long_vx, "w", encoding="utf-8") as f:
    f.write(text)
r = vx("parse", long_vx, "--dump=ast")
print(f"parse --dump=ast of a {len(text.encode())}-byte line: {r.seconds:.2f} s")
ret_col = text.index("return") + 1  # str indices count code points
zero_col = text.index("0; }") + 1
last_let_col = text.rindex("let x") + 1
lines = r.out.splitlines()
if r.returncode != 0 or len(lines) < 3:
    fail(f"parse of the long line: exit {r.returncode}, {r.err[:200]}")
else:
    if not re.fullmatch(rf"\s*Return\s+@1:{ret_col}", lines[-2]) or \
            not re.fullmatch(rf"\s*IntLit 0\s+@1:{zero_col}", lines[-1]):
        fail(f"the last nodes should be at 1:{ret_col} and 1:{zero_col}: {lines[-2:]}")
    if not any(re.fullmatch(rf"\s*Let x\s+@1:{last_let_col}", l) for l in lines[-8:]):
        fail(f"the last `let x` should be at 1:{last_let_col}: {lines[-8:]}")

# --- a byte order mark at the start of a file is dropped (spec/grammar.md §1) ---------------------
BOM = b"\xef\xbb\xbf"
typo = "fn main() { let x: i32 = 1.5; }\n"
r = vx("check", "-", stdin=BOM + typo.encode())
if r.returncode != 1 or not located(r.err, "E0200", "-", 1, typo.index("1.5") + 1):
    fail(f"check - with a byte order mark: want E0200 at -:1:{typo.index('1.5') + 1}, got "
         f"{r.returncode}: {r.err[:300]}")
bom_machine = os.path.join(tmp, "machine_bom.vx")
with open(bom_machine, "wb") as f:
    f.write(BOM + b"const DEVICE: Device = Device::AMD;\n")
r = vx("check", "--machine", bom_machine, main_vx)
if r.returncode != 2 or not located(r.err, "E0600", bom_machine, 1, 24):
    fail(f"a machine file with a byte order mark: want E0600 at 1:24, got {r.returncode}: {r.err[:300]}")
bom_load = os.path.join(tmp, "bom_load.vx")
with open(bom_load, "wb") as f:
    f.write(BOM + b'fn main() { println!("{}", 6 * 7); }\n')
r = vx("repl", stdin=f":load {bom_load}\n:quit\n".encode())
if r.returncode != 0 or "42\n" not in r.out or "error" in r.err:
    fail(f"repl :load of a file with a byte order mark: want 42, got {r.returncode} {r.out!r} {r.err!r}")

# --- machine files ----------------------------------------------------------------------------
GOOD = ["const DEVICE: Device = Device::NVIDIA;", "const LANES_PER_BLOCK: i32 = 1024;",
        "const SMEM_PER_BLOCK: i32 = 232_448;"]
bad_machines = [
    # (replaced or added line, expected line, column of the value)
    ("const LANES_PER_BLOCK: i32 = -1;", 2, 30),
    ("const SMEM_PER_BLOCK: i32 = -4096;", 3, 29),
    ("const COMPUTE_CAPABILITY: i32 = 2147483647;", 4, 33),
    ("const COMPUTE_CAPABILITY: i32 = 9;", 4, 33),
    ("const LANES_PER_BLOCK: i32 = 1048577;", 2, 30),
    ("const MAX_BLOCKS_X: i64 = 2147483648;", 4, 27),
    ("const MAX_BLOCKS_Z: i32 = -1;", 4, 27),
    ("const MULTIPROCESSORS: i32 = -132;", 4, 30),
    ("const MEMORY_BYTES: i64 = -1;", 4, 27),
    ("const MEMORY_BYTES: i64 = 1152921504606846977;", 4, 27),
    ("const MEMORY_BANDWIDTH_GB_S: i32 = -3350;", 4, 36),
    ("const MEMORY_BYTES: i64 = 99999999999999999999;", 4, 27),
    ("const ATOMIC_F32: bool = 1;", 4, 26),
    ("const DEVICE: Device = Device::AMD;", 1, 24),
    ("const DEVICE: Device = Device::None;", 4, 24),  # set twice
    ("const WARP_SIZE: i32 = 32;", 4, 1),
]
for k, (line, want_line, want_col) in enumerate(bad_machines):
    lines = list(GOOD)
    name = line.split(":")[0].split()[1]
    index = next((i for i, l in enumerate(lines) if f" {name}:" in l), None)
    if index is not None and want_line <= 3:
        lines[index] = line
    else:
        lines.append(line)
    path = os.path.join(tmp, f"machine_{k}.vx")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = vx("check", "--machine", path, main_vx)
    if r.returncode != 2 or not located(r.err, "E0600", path, want_line, want_col):
        fail(f"machine `{line}`: expected E0600 at {want_line}:{want_col}, exit 2; got "
             f"{r.returncode}: {r.err[:400]}")
missing = os.path.join(tmp, "machine_missing.vx")
with open(missing, "w") as f:
    f.write(GOOD[0] + "\n" + GOOD[1] + "\n")
r = vx("check", "--machine", missing, main_vx)
if r.returncode != 2 or not located(r.err, "E0600", missing, 3, 1) or "SMEM_PER_BLOCK" not in r.err:
    fail(f"a machine file without SMEM_PER_BLOCK: {r.returncode}: {r.err[:300]}")
r = vx("check", "--error-format=json", "--machine", os.path.join(tmp, "machine_0.vx"), main_vx)
objs = json_lines(r.err)
if r.returncode != 2 or len(objs) != 1 or objs[0].get("code") != "E0600" or \
        objs[0]["spans"][0]["line_start"] != 2 or objs[0]["spans"][0]["column_start"] != 30:
    fail(f"machine error as JSON: {r.returncode}: {r.err[:300]}")
for fleet in sorted(os.listdir(os.path.join(ROOT, "fleet"))):
    r = vx("check", "--machine", os.path.join(ROOT, "fleet", fleet), main_vx)
    if r.returncode != 0:
        fail(f"fleet/{fleet} should be accepted: {r.err[:300]}")

# --- --error-format=json ------------------------------------------------------------------------
div = os.path.join(tmp, "div.vx")
with open(div, "w") as f:
    f.write("fn main() {\n    let a = 7;\n    let b = a - 7;\n    println!(\"{}\", a / b);\n}\n")
r = vx("run", "--error-format=json", div)
objs = json_lines(r.err)
if r.returncode != 101 or len(objs) != 1:
    fail(f"runtime error as JSON: exit {r.returncode}, {r.err[:300]}")
else:
    o = objs[0]
    span = o["spans"][0] if o.get("spans") else {}
    if o.get("level") != "error" or o.get("code") is not None or \
            not o.get("message", "").startswith("runtime error: ") or \
            span.get("file") != div or span.get("line_start") != 4:
        fail(f"runtime error as JSON has the wrong fields: {o}")

uir = os.path.join(tmp, "oob.uir")
with open(uir, "w") as f:
    f.write("buffer %x i32[4]\n%b = range 2\n%i = add %b 3\n%v = load %x %i\n%e = end %v %b\n")
r = vx("run", "--error-format=json", uir)
objs = json_lines(r.err)
if r.returncode != 101 or len(objs) != 1 or objs[0].get("code") is not None or \
        objs[0]["spans"][0]["line_start"] != 4:
    fail(f".uir runtime error as JSON: exit {r.returncode}, {r.err[:300]}")

for args, status in [(["check", "--error-format=json", os.path.join(tmp, "nonexistent.vx")], 2),
                     (["check", "--error-format=json", "--no-such-flag", main_vx], 2),
                     (["check", "--error-format", "json"], 2),
                     (["lower", "--to=uir", "--error-format=json", uir], 2)]:
    r = vx(*args)
    objs = json_lines(r.err)
    if r.returncode != status or len(objs) != 1 or objs[0].get("level") != "error" or \
            objs[0].get("code") is not None or objs[0].get("spans") != [] or not objs[0].get("message"):
        fail(f"vx {' '.join(args)}: expected one JSON error and exit {status}: {r.returncode} {r.err[:300]}")
r = vx("check", "--error-format=json", "/dev/zero")
objs = json_lines(r.err)
if r.returncode != 1 or len(objs) != 1 or objs[0].get("code") != "E0003":
    fail(f"check --error-format=json /dev/zero: {r.returncode} {r.err[:300]}")

# --- junit ----------------------------------------------------------------------------------------
corpus = os.path.join(tmp, "corpus")
os.mkdir(corpus)
nasty = "\ufffe\uffff\x01\x1b[31m"
for name in ["plain", "weird\ufffe\uffffname"]:
    with open(os.path.join(corpus, name + ".vx"), "w", encoding="utf-8") as f:
        f.write("fn main() {}\n")
    with open(os.path.join(corpus, name + ".stdout"), "w") as f:
        f.write("x\n")
impl = os.path.join(tmp, "nasty.sh")
with open(impl, "wb") as f:
    f.write(b"#!/bin/sh\nprintf '" + nasty.encode() +
            b" \\377 \\355\\240\\200 \\300\\200 <&>\"\\047 tab\\there\\n'\n")
for fmt in ["junit", "json"]:
    r = subprocess.run([VX, "conformance", "--format", fmt, "--impl", f"sh '{impl}' {{file}}", corpus],
                       capture_output=True, timeout=60)
    if r.returncode != 1:
        fail(f"conformance --format {fmt}: exit {r.returncode}: {r.stderr[:300]!r}")
    try:
        if fmt == "json":
            doc = json.loads(r.stdout.decode("utf-8"))
            reasons = [c["reason"] for c in doc["results"]]
        else:
            doc = ET.fromstring(r.stdout)
            reasons = [e.get("message") for e in doc.iter("failure")]
            texts = [e.text for e in doc.iter("failure")]
            # The text is the message, then the details (spec/cli.md §6.4), outputs included.
            if len(reasons) != len(texts) or \
                    any(not t.startswith(m + "\n\n") or "\nstdout:\n| " not in t
                        for m, t in zip(reasons, texts)):
                fail(f"junit: the failure text is not its message and details: {reasons} {texts}")
            names = [e.get("name") for e in doc.iter("testcase")]
            if "weird\ufffd\ufffdname.vx" not in names:
                fail(f"junit: the test named with U+FFFE U+FFFF should read with U+FFFD: {names}")
    except (ValueError, ET.ParseError) as e:
        fail(f"conformance --format {fmt} is not well-formed: {e}\n{r.stdout[:600]!r}")
        continue
    if len(reasons) != 2:
        fail(f"{fmt}: expected 2 failures, got {reasons}")
    for reason in reasons:
        # U+FFFE U+FFFF become U+FFFD (also in JSON: both are characters, but XML has none);
        # the runner's own quoting writes the control characters as \x01, \x1b.
        want_xml = "got `\ufffd\ufffd\\x01\\x1b[31m \ufffd \ufffd\ufffd\ufffd \ufffd\ufffd <&>\"' tab\\there`"
        want_json = "got `\ufffe\uffff\\x01\\x1b[31m \ufffd \ufffd\ufffd\ufffd \ufffd\ufffd <&>\"' tab\\there`"
        want = want_xml if fmt == "junit" else want_json
        if want not in reason:
            fail(f"{fmt}: the reason should end with {want!r}: {reason!r}")

# A misspelt sub-command names the likely one (issue 19); a program path names `vx run`; the
# exit status is 2, as for every command-line error; JSON keeps the diagnostics' shape.
for args, want in [
    (["runn", "x.vx"], "error: no such sub-command: `runn`; did you mean `run`?"),
    (["chek"], "error: no such sub-command: `chek`; did you mean `check`?"),
    (["frobnicate"], "error: no such sub-command: `frobnicate` (`vx --help` lists"),
    (["prog.vx"], "error: no such sub-command: `prog.vx`; did you mean `vx run prog.vx`?"),
]:
    r = vx(*args)
    if r.returncode != 2 or not r.err.startswith(want):
        fail(f"vx {' '.join(args)}: want exit 2 and {want!r}, got {r.returncode} {r.err!r}")
# `vx` alone: an error, then the sub-commands, each named with its line of help (spec/cli.md §1).
r = vx()
if r.returncode != 2 or not r.err.startswith("error: a sub-command is required\n") or \
        not all(re.search(rf"^\s+{name}\s+\S", r.err, re.M) for name in
                ["run", "check", "parse", "emit-cuda", "lower", "conformance", "repl", "explain"]):
    fail(f"vx alone: want exit 2, the error and the sub-commands, got {r.returncode} {r.err!r}")
r = vx("--error-format", "json")
lines = json_lines(r.err)
if r.returncode != 2 or len(lines) != 1 or lines[0].get("message") != "a sub-command is required":
    fail(f"vx --error-format json alone: want one JSON object, got {r.returncode} {r.err!r}")
r = vx("--bogus")
if r.returncode != 2 or \
        not r.err.startswith("error: unexpected argument `--bogus`: a sub-command is required\n"):
    fail(f"vx --bogus: want exit 2 naming the option, got {r.returncode} {r.err!r}")
r = vx("--error-format", "json", "rnu", "x.vx")
lines = json_lines(r.err)
if r.returncode != 2 or len(lines) != 1 or "did you mean `run`?" not in lines[0].get("message", ""):
    fail(f"--error-format json rnu: want one JSON object naming `run`, got {r.err!r}")
r = vx("repl", stdin=b":chek\n:quit\n")
if "error: unknown command `:chek`; did you mean `:check`?" not in r.err:
    fail(f"repl :chek: want a did-you-mean, got {r.err!r}")

# --color (spec/cli.md §5): always colours, never and a pipe do not, a terminal does unless
# NO_COLOR is set or TERM is dumb; JSON never does. The terminal is a pseudo-terminal on stderr.
bad = os.path.join(tmp, "bad.vx")
with open(bad, "w") as f:
    f.write("fn main() {\n    let x: i32 = true;\n}\n")
red = "\x1b[1;31merror[E0200]\x1b[0m"
for args, colored in [(["--color=always"], True), (["--color=never"], False), ([], False),
                      (["--color", "always", "--error-format=json"], False)]:
    r = vx("check", *args, bad)
    if r.returncode != 1 or (red in r.err) != colored or ("\x1b" in r.err) != colored:
        fail(f"check {args}: want exit 1 and colour {colored}, got {r.returncode} {r.err[:200]!r}")
r = vx("check", "--color=rainbow", bad)
if r.returncode != 2:
    fail(f"--color=rainbow: want a usage error (2), got {r.returncode}")


def on_a_terminal(env):
    status, out = on_terminal([VX, "check", bad], "stderr", env=dict(os.environ, **env), cwd=ROOT)
    return status, out.decode("utf-8", "replace")


plain = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
for env, colored in [({"TERM": "xterm"}, True), ({"TERM": "xterm", "NO_COLOR": "1"}, False),
                     ({"TERM": "xterm", "NO_COLOR": ""}, True), ({"TERM": "dumb"}, False)]:
    os.environ.clear()
    os.environ.update(plain)
    status, err = on_a_terminal(env)
    if status != 1 or (red in err) != colored:
        fail(f"check on a terminal with {env}: want colour {colored}, got {status} {err[:200]!r}")

# The footer names `vx explain` for the codes it explains (rustc's).
r = vx("check", bad)
if not r.err.endswith("error: aborting due to 1 previous error\n\n"
                      "For more information about this error, try `vx explain E0200`.\n"):
    fail(f"check: want the explain footer, got {r.err[-200:]!r}")

# Warnings (spec/errors.md, "Warnings"): printed, then the program goes on; `#![allow(…)]` and
# `#[allow(…)]` silence them in the file or the item; `-D warnings` refuses the program.
def kernel(lanes, passes, head="", fn_head=""):
    return (head + fn_head + "fn main() {\n"
            "    let mut out = transfer(Tensor<i32, [%d]>::fill(0), Memory::HBM);\n"
            "    spawn on(Topology::Device) {\n"
            "        for _b in 0..1 across blocks {\n"
            "            for l in 0..%d across lanes(%d) {\n"
            "                out[l] = 1;\n"
            "            }\n"
            "        }\n"
            "    }\n"
            "    let back = transfer(out, Memory::CPU_DRAM);\n"
            "    println!(\"{}\", back[%d]);\n"
            "}\n") % (passes, passes, lanes, passes - 1)


def program(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


idle = program("idle.vx", kernel(256, 100))
r = vx("run", "--offload=off", idle)
want = ("warning: this lane loop has 100 passes for 256 lanes: 156 lanes of each block have none\n"
        f" --> {idle}:5:13\n")
if r.returncode != 0 or r.out != "1\n" or not r.err.startswith(want) or \
        "= note: `#[warn(idle_lanes)]` on by default" not in r.err or \
        not r.err.endswith("warning: 1 warning emitted\n\n"):
    fail(f"run with idle lanes: want exit 0, `1` and the warning, got {r.returncode} {r.out!r} {r.err!r}")
r = vx("check", "-D", "warnings", idle)
if r.returncode != 1 or not r.err.startswith("error: this lane loop has 100 passes") or \
        "= note: `-D idle_lanes` implied by `-D warnings`" not in r.err:
    fail(f"check -D warnings: want exit 1 and an error, got {r.returncode} {r.err!r}")
r = vx("run", "-D", "warnings", idle)
if r.returncode != 1 or r.out != "":
    fail(f"run -D warnings: want exit 1 and no run, got {r.returncode} {r.out!r}")
r = vx("check", "-D", "nothing", idle)
if r.returncode != 2:
    fail(f"-D nothing: want a usage error (2), got {r.returncode}")
# The note that a lint is on by default goes with the first of its warnings that is shown, also
# when `#[allow]` took away the one before it; once a lint, as rustc says it.
allowed_first = program("allowed_first.vx",
                        "#[allow(unused_parens)]\n"
                        "fn f() -> i32 {\n    let a = (1);\n    a\n}\n"
                        "fn main() {\n    let b = (2);\n    let c = (3);\n"
                        "    println!(\"{} {} {}\", f(), b, c);\n}\n")
r = vx("check", allowed_first)
shown = [l for l in r.err.split("\n") if l.startswith(" --> ")]
if r.returncode != 0 or shown != [f" --> {allowed_first}:7:13", f" --> {allowed_first}:8:13"] or \
        r.err.count("= note: `#[warn(unused_parens)]` on by default") != 1 or \
        r.err.index("on by default") > r.err.index(":8:13"):
    fail(f"#[allow] on the first warning of a lint: want the note once, on the one at 7:13, "
         f"got {r.returncode} {r.err!r}")
# One idle lane, one lane short of the warp: singular (the lesson's check-4 said "1 lanes").
one = program("one_idle.vx", kernel(33, 32))
r = vx("check", one)
want_one = ["warning: this lane loop has 32 passes for 33 lanes: 1 lane of each block has none",
            "warning: 33 lanes are not a multiple of 32, the warp: the last warp of each block "
            "has 31 idle lanes"]
if r.returncode != 0 or [l for l in r.err.split("\n") if l.startswith("warning: ") and
                         "emitted" not in l] != want_one or "= 1 idle lane" not in r.err and \
        "^ 1 idle lane\n" not in r.err:
    fail(f"one idle lane: want the singular, got {r.returncode} {r.err!r}")
odd = program("odd.vx", kernel(100, 100))
r = vx("check", odd)
if r.returncode != 0 or not r.err.startswith(
        "warning: 100 lanes are not a multiple of 32, the warp: the last warp of each block has 28 "
        "idle lanes\n"):
    fail(f"lanes(100): want the warp warning, got {r.returncode} {r.err!r}")
for name, text, warned in [
        ("allow_file.vx", kernel(256, 100, head="#![allow(idle_lanes)]\n"), False),
        ("allow_all.vx", kernel(256, 100, head="#![allow(warnings)]\n"), False),
        ("allow_fn.vx", kernel(256, 100, fn_head="#[allow(unused, idle_lanes)]\n"), False),
        ("allow_other.vx", kernel(256, 100, fn_head="#[allow(lanes_not_warp_multiple)]\n"), True),
        ("allow_before.vx", "#[allow(idle_lanes)]\nfn other() {}\n" + kernel(256, 100), True),
        ("warp_multiple.vx", kernel(64, 64), False)]:
    r = vx("check", program(name, text))
    if r.returncode != 0 or ("warning:" in r.err) != warned:
        fail(f"{name}: want exit 0 and warned={warned}, got {r.returncode} {r.err!r}")
r = vx("check", "--error-format=json", idle)
lines = json_lines(r.err)
if r.returncode != 0 or len(lines) != 1 or lines[0].get("level") != "warning" or \
        lines[0].get("lint") != "idle_lanes" or lines[0].get("code") is not None:
    fail(f"a warning in JSON: want level warning and lint idle_lanes, got {r.err!r}")

# The checker's lints (spec/errors.md, "Warnings") under JSON: each with its name, in source order;
# `-D warnings` refuses with each of them; `#![allow(warnings)]` silences them all.
lints_text = ("fn f(x: i32) -> i32 {\n"
              "    return 1;\n"
              "    2\n"
              "}\n"
              "fn main() {\n"
              "    let mut m = 2;\n"
              "    f(m);\n"
              "}\n")
lints = program("lints.vx", lints_text)
r = vx("check", "--error-format=json", lints)
got = [(d.get("lint"), d["spans"][0]["line_start"]) for d in json_lines(r.err)]
want = [("unused_variables", 1), ("unreachable_code", 3), ("unused_mut", 6),
        ("unused_results", 7)]
if r.returncode != 0 or got != want:
    fail(f"the checker's lints in JSON: want {want}, got {r.returncode} {got}")
r = vx("run", "-D", "warnings", lints)
if r.returncode != 1 or r.err.count("error: ") != 5 or "implied by `-D warnings`" not in r.err:
    fail(f"-D warnings with the checker's lints: want exit 1 and 4 errors (and the summary), got {r.returncode} {r.err!r}")
r = vx("check", program("lints_allowed.vx", "#![allow(warnings)]\n" + lints_text))
if r.returncode != 0 or r.err != "":
    fail(f"#![allow(warnings)] with the checker's lints: want silence, got {r.returncode} {r.err!r}")

# `check --explain` prints the tables also when the kernel rules refuse the program (its error's
# help sends the user there), and none when the checker refused it first (spec/cli.md §2).
refused_kernel = program("refused_kernel.vx",
                         "fn main() {\n"
                         "    let mut h = transfer(Tensor<f32, [64, 300]>::fill(0.0), Memory::HBM);\n"
                         "    spawn on(Topology::Device) {\n"
                         "        for y in 0..64 across blocks {\n"
                         "            for x in 0..300 across lanes(256) { h[0][x] = 1.0; }\n"
                         "        }\n"
                         "    }\n"
                         "}\n")
r = vx("check", "--explain", refused_kernel)
want_lines = [f"{refused_kernel}:5:49: store `h[0][x]`",
              "  block loop `y` (line 4): not proved",
              "    x     |           1 |           299 |              299",
              "    FAILS the digits of `y` do not determine it",
              "    for example: block 0 lane 0 and block 1 lane 0 both write element [0][0]"]
if r.returncode != 1 or "error[E6032]" not in r.err or \
        any(line not in r.out.splitlines() for line in want_lines):
    fail(f"check --explain of a refused kernel: want exit 1 and its table, got {r.returncode} {r.out!r}")
r = vx("check", "--explain", program("refused_type.vx", "fn main() { let x: i32 = 1.5; }\n"))
if r.returncode != 1 or r.out != "" or "error[E0200]" not in r.err:
    fail(f"check --explain of a mistyped program: want exit 1, no table, got {r.returncode} {r.out!r}")

# Sizes from the environment (support/env_numbers.hpp): a value that is not a size is a usage error
# before anything runs, exit status 2, naming the variable; a suffix alone is not a size.
hello = program("hello_sizes.vx", "fn main() {\n    println!(\"ran\");\n}\n")
form = "is not a size (a number of bytes, with an optional K, M, G or T suffix)"
for var, value, status in [("VX_CACHE_MAX", "lots", 2), ("VX_CACHE_MAX", "K", 2),
                           ("VX_CACHE_MAX", "12Q", 2), ("VX_CACHE_MAX", "99999999999T", 2),
                           ("VX_MEMORY_LIMIT", "K", 2), ("VX_MEMORY_LIMIT", "-1", 2),
                           ("VX_CACHE_MAX", "0", 0), ("VX_CACHE_MAX", "64m", 0),
                           ("VX_MEMORY_LIMIT", "1g", 0),
                           ("VX_OFFLOAD_THRESHOLD", "abc", 2), ("VX_OFFLOAD_THRESHOLD", "-1", 2),
                           ("VX_OFFLOAD_THRESHOLD", "", 2), ("VX_OFFLOAD_THRESHOLD", "2147483648", 2),
                           ("VX_OFFLOAD_THRESHOLD", "0", 0), ("VX_OFFLOAD_THRESHOLD", "2147483647", 0),
                           ("VX_HOST_THREADS", "0", 2), ("VX_HOST_THREADS", "4097", 2),
                           ("VX_HOST_THREADS", "two", 2), ("VX_HOST_THREADS", "+2", 2),
                           ("VX_HOST_THREADS", "3", 0), ("VX_HOST_THREADS", "4096", 0)]:
    r = subprocess.run([VX, "run", hello], capture_output=True, text=True, cwd=ROOT, timeout=60,
                       env=dict(os.environ, **{var: value}))
    says = {"VX_OFFLOAD_THRESHOLD": "is not a number of launches (0 to 2147483647)",
            "VX_HOST_THREADS": "is not a number of threads (1 to 4096)"}.get(var, form)
    want_err = f"error: {var}={value} {says}\n" if status else ""
    want_out = "" if status else "ran\n"
    if (r.returncode, r.stdout, r.stderr) != (status, want_out, want_err):
        fail(f"run with {var}={value}: want {status} {want_out!r} {want_err!r}, "
             f"got {r.returncode} {r.stdout!r} {r.stderr!r}")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
