#!/usr/bin/env python3
"""`vx repl` (spec/cli.md §7), driven two ways.

piped: a session on standard input (not a terminal): items defined and redefined, a kernel run,
  `:check` tables for a proved and for a refused store, errors that leave the session as it was
  (a refused input defines nothing, a runtime error undoes the input's writes), values and types
  of expressions, tensor summaries, `:type`, `:explain`, `:emit`, `:time`, `:load`, `:reset`,
  `:quit`. Standard output is compared line by line; diagnostics by code and position.
values: how values print (§7.1): a grid with mixed widths, a row, slices, elided 50×50 and 1-D,
  a wrapped row, `:show` of a row, a block and an element, `:show`'s errors, `:vars`, `:type` of a
  function, a did-you-mean for a mistyped command. Every expected text is worked out here (by
  hand, or built from the elements' values), not taken from vx.
pty: the same REPL on a pseudo-terminal: prompts, a multi-line input with the continuation
  prompt, TAB completion of `lanes::s` (the three built-ins listed) and of a defined name, Ctrl-C
  abandoning a line, and the history file under $XDG_STATE_HOME.

usage: repl_test.py piped|values|pty VX REPO_ROOT
"""
import os
import re
import select
import subprocess
import sys
import tempfile
import time

MODE, VX, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def finish():
    print(f"{MODE}: {len(failures)} failures")
    sys.exit(1 if failures else 0)


KERNEL = """spawn on(Topology::Device) {
    for y in 0..64 across blocks {
        for x in 0..300 across lanes(256) {
            grid[y][x] = grid[y][x] * 2.0 + (y as f32);
        }
    }
}"""

REFUSED = """spawn on(Topology::Device) {
    for y in 0..64 across blocks {
        for x in 0..300 across lanes(256) {
            h[0][x] = 1.0;
        }
    }
}"""

# The lane loop's check, the same for both stores.
LANE_LOOP_X = """
  lane loop `x` (line 3): proved
    digit         | coefficient | largest value | the most it adds
    --------------|-------------|---------------|-----------------
    x  (parallel) |           1 |           299 |              299
    (one digit: nothing to compare)
    ok    the digits of `x` determine it"""

PROVED_TABLE = """<repl>:4:13: store `grid[y][x]`
  offset: y * 300 + x
  block loop `y` (line 2): proved
    digit         | coefficient | largest value | the most it adds
    --------------|-------------|---------------|-----------------
    y  (parallel) |         300 |            63 |            18900
    x             |           1 |           299 |              299
    ok    300 > 299
    ok    the digits of `y` determine it""" + LANE_LOOP_X

REFUSED_TABLE = """<repl>:4:13: store `h[0][x]`
  offset: x
  block loop `y` (line 2): not proved
    digit | coefficient | largest value | the most it adds
    ------|-------------|---------------|-----------------
    x     |           1 |           299 |              299
    (one digit: nothing to compare)
    FAILS the digits of `y` do not determine it
    for example: block 0 lane 0 and block 1 lane 0 both write element [0][0]""" + LANE_LOOP_X


def elided_rows(first, last):
    """The HBM grid after the kernel: 64 rows of 300, row y all 2 + y. Past 1,000 elements three
    rows and columns stay at each end; every element is two wide."""
    def row(v):
        cells = [f"{v:>2}"] * 3
        return "[" + ", ".join(cells + ["..."] + cells) + "]"
    rows = [row(v) for v in first] + ["..."] + [row(v) for v in last]
    return ["= [" + rows[0] + ","] + ["   " + r + "," for r in rows[1:-1]] + ["   " + rows[-1] + "]"]


def piped():
    tmp = tempfile.mkdtemp()
    load_me = os.path.join(tmp, "load_me.vx")
    with open(load_me, "w") as f:
        f.write("fn triple(v: i32) -> i32 { v * 3 }\n"
                "fn main() {\n    println!(\"main of load_me: {}\", triple(14));\n}\n")
    # (input, the lines it prints on standard output; a line starting with `re:` is a regex)
    steps = [
        ("fn scale(v: f32) -> f32 { v * 2.0 }", ["defined fn scale"]),
        ("scale(32.5)", ["= 65 : f32"]),
        ('println!("printed once");', ["printed once"]),
        ("let mut grid = transfer(Tensor<f32, [64, 300]>::fill(1.0), Memory::HBM);", []),
        (KERNEL, []),
        (":check", PROVED_TABLE.split("\n")),
        ("grid", elided_rows([2, 3, 4], [63, 64, 65]) +
         [": Tensor<f32, [64, 300], Memory::HBM> (19200 elements in HBM)"]),
        (":show grid[63][297..300]", ["= [65, 65, 65] : Tensor<f32, [3], Memory::HBM> "
                                      "(3 of the 19200 elements of `grid`, in HBM)"]),
        ("let back = transfer(grid, Memory::CPU_DRAM);", []),
        ("back[63][299]", ["= 65 : f32"]),
        ("grid", []),  # moved: E0301, as in a file
        ("let mut h = transfer(Tensor<f32, [64, 300]>::fill(0.0), Memory::HBM);", []),
        (REFUSED, []),  # E6032
        (":check", REFUSED_TABLE.split("\n")),
        ("let k = 5; let j = k + true;", []),  # E0200: nothing of it is defined
        ("k", []),  # E0100
        ("let mut c = Tensor<i32, [3]>::fill(7);", []),
        ("c[0] = 1; let q = 10 / (c[0] - 1);", []),  # runtime error: the write is undone
        ("c", ["= [7, 7, 7] : Tensor<i32, [3]> (3 elements in CPU_DRAM)"]),
        ("let mut n = 40;\nn += 2;\nn", ["= 42 : i32"]),
        ("n * 2", ["= 84 : i32"]),
        ("fn scale(v: f32) -> f32 { v * 3.0 }", ["redefined fn scale"]),
        ("scale(2.0)", ["= 6 : f32"]),
        (":type back[0][0] * 2.0", ["back[0][0] * 2.0 : f32"]),
        (":explain E0300", ["re:^E0300 — assignment to an immutable binding$", "re:.*"]),
        (":time on", ["timing on"]),
        ("spawn on(Topology::Device) { for y in 0..64 across blocks { "
         "for x in 0..300 across lanes(256) { h[y][x] = 2.0; } } }",
         [r"re:^time: the region at <repl>:1:1 ran on the host in \d+\.\d{3} ms$"]),
        (":time off", ["timing off"]),
        (":emit", ["re:^// the region at <repl>:1:1 \\(vx_region_\\d+_L\\d+\\)$", "re:.*"]),
        (f":load {load_me}", ["main of load_me: 42", "defined fn triple"]),
        ("triple(2)", ["= 6 : i32"]),
        (":reset", ["session reset"]),
        ("scale(1.0)", []),  # E0101 after :reset
        (":quit", []),
        ("1 + 1", []),  # never read
    ]
    script = "\n".join(s for s, _ in steps) + "\n"
    r = subprocess.run([VX, "repl", "--offload=off"], input=script, capture_output=True,
                       text=True, timeout=120)
    if r.returncode != 0:
        fail(f"exit status {r.returncode}")
    out = r.stdout.split("\n")
    pos = 0
    for text, want in steps:
        for w in want:
            got = out[pos] if pos < len(out) else "<end of output>"
            if w == "re:.*":  # the rest of a long block: skip to the next expected line
                nxt = next((x for _, ws in steps[steps.index((text, want)) + 1:] for x in ws), None)
                while pos < len(out) and out[pos] != nxt and not (nxt and nxt.startswith("re:")
                                                                  and re.match(nxt[3:], out[pos])):
                    pos += 1
                continue
            ok = re.match(w[3:], got) if w.startswith("re:") else got == w
            if not ok:
                fail(f"after {text.splitlines()[0]!r}: expected {w!r}, got {got!r}")
                return
            pos += 1
    if out[pos:] != [""]:
        fail(f"unexpected output at the end: {out[pos:]!r}")
    # The emitted kernel is the last region's, with its block size baked in.
    if "__launch_bounds__(256)" not in r.stdout or r.stdout.count("printed once") != 1:
        fail("the :emit text or the single `printed once` is missing")

    # Diagnostics: code and position in the text typed, in order.
    want_errors = [
        ("E0301", "<repl>:1:1"),  # grid after the move
        ("E6032", "<repl>:4:13"),  # the refused store
        ("E6032", "<repl>:4:13"),  # again under :check
        ("E0200", "<repl>:1:22"),
        ("E0100", "<repl>:1:1"),  # k was never defined
        ("runtime", "<repl>:1:19"),
        ("E0101", "<repl>:1:1"),  # scale after :reset
    ]
    got_errors = []
    lines = r.stderr.split("\n")
    for i, line in enumerate(lines[:-1]):
        m = re.match(r"error(?:\[(E\d{4})\]|: runtime error)", line)
        loc = re.match(r" --> (\S+)$", lines[i + 1])
        if m and loc:
            got_errors.append((m.group(1) or "runtime", loc.group(1)))
    if got_errors != want_errors:
        fail(f"diagnostics: expected {want_errors}, got {got_errors}\n{r.stderr}")
    if "attempt to divide by zero" not in r.stderr:
        fail("the runtime error's message is missing")


# ---- the pseudo-terminal ------------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x07|\r")


class Terminal:
    def __init__(self, argv, env):
        import pty
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.raw = b""
        self.seen = 0  # how much of the text the last expect consumed

    def text(self):
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def send(self, data):
        os.write(self.fd, data.encode())

    def expect(self, pattern, timeout=20):
        """Waits until `pattern` (a regex) appears after what the last expect consumed."""
        end = time.time() + timeout
        while True:
            m = re.compile(pattern, re.S).search(self.text(), self.seen)
            if m:
                self.seen = m.end()
                return m
            left = end - time.time()
            if left <= 0:
                fail(f"timed out waiting for {pattern!r}; the terminal shows:\n{self.text()[-2000:]}")
                return None
            r, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    fail(f"vx ended while waiting for {pattern!r}:\n{self.text()[-2000:]}")
                    return None
                self.raw += data

    def close(self, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                select.select([self.fd], [], [], 0.1)
                os.read(self.fd, 65536)
            except OSError:
                pass
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        fail("vx did not exit after :quit")
        return None


def on_pty():
    state = tempfile.mkdtemp()
    env = dict(os.environ, TERM="xterm", XDG_STATE_HOME=state, HOME=state)
    try:
        t = Terminal([VX, "repl", "--offload=off"], env)
    except OSError as e:  # no pseudo-terminals here: say so, and let ctest count it as skipped
        print(f"SKIP: cannot open a pseudo-terminal: {e}")
        sys.exit(77)
    steps = [
        (None, r"vx> "),
        ("fn scale(v: f32) -> f32 { v * 2.0 }\r", r"defined fn scale\n.*?vx> "),
        ("scale(4.0)\r", r"= 8 : f32\n.*?vx> "),
        ("let mut t = Tensor<f32, [4]>::fill(1.5);\r", r"vx> "),
        ("for i in 0..4 {\r", r"\.\.\. "),  # an open brace: the continuation prompt
        ("t[i] = t[i] * (i as f32);\r", r"\.\.\. "),
        ("}\r", r"vx> "),
        ("t\r", r"= \[  0, 1\.5,   3, 4\.5\] : Tensor<f32, \[4\]> \(4 elements in CPU_DRAM\)\n.*?vx> "),
        ("lanes::s\t", r"lanes::sort +lanes::sum +lanes::sum_unordered *\n"),  # listed
        ("\x03", r"\^C\n.*?vx> "),  # Ctrl-C abandons the line
        ("sca\t", r"scale"),  # one candidate: completed in place
        ("(1.0)\r", r"= 2 : f32\n.*?vx> "),
        ("atomic_fetch_add_\t", r"atomic_fetch_add_f32 +atomic_fetch_add_i32 +atomic_fetch_add_i64"),
        ("\x03", r"vx> "),
        (":quit\r", None),
    ]
    for send, want in steps:
        if send is not None:
            t.send(send)
        if want is not None and t.expect(want) is None:
            break
    status = t.close()
    if status not in (0, None):
        fail(f"exit status {status}")
    hist = os.path.join(state, "vx", "history")
    try:
        with open(hist, encoding="utf-8", errors="replace") as f:
            h = f.read()
        for entry in [r"scale(4.0)", r"for\040i\040in\0400..4\040{", r":quit"]:
            if entry not in h:
                fail(f"history file lacks {entry!r}:\n{h}")
        if "lanes::s" in h:
            fail("an abandoned line (Ctrl-C) went into the history")
    except OSError as e:
        fail(f"no history file at {hist}: {e}")


def values():
    # The 4×6 grid, worked out by hand: the widest elements (`100.25`, `-0.125`) are six wide.
    grid = ["= [[   0.5,    -12,    0.5,    0.5,    0.5,    0.5],",
            "   [   0.5,    0.5,    0.5, 100.25,    0.5,    0.5],",
            "   [-0.125,    0.5,    0.5,    0.5,    0.5,    0.5],",
            "   [   0.5,    0.5,    0.5,    0.5,    0.5,      7]]",
            ": Tensor<f32, [4, 6]> (24 elements in CPU_DRAM)"]
    slices = ["= [[[  0,   1,   2,   3],",
              "    [ 10,  11,  12,  13],",
              "    [ 20,  21,  22,  23]],",
              "",
              "   [[100, 101, 102, 103],",
              "    [110, 111, 112, 113],",
              "    [120, 121, 122, 123]]]",
              ": Tensor<i32, [2, 3, 4]> (24 elements in CPU_DRAM)"]

    # 50×50 of i * 50 + j: 2,500 elements, so rows and columns 0–2 and 47–49; four wide (2499).
    def big_row(i):
        cells = [f"{i * 50 + j:>4}" for j in (0, 1, 2)] + ["..."] + \
                [f"{i * 50 + j:>4}" for j in (47, 48, 49)]
        return "[" + ", ".join(cells) + "]"
    rows = [big_row(i) for i in (0, 1, 2)] + ["..."] + [big_row(i) for i in (47, 48, 49)]
    big = (["= [" + rows[0] + ","] + ["   " + r + "," for r in rows[1:-1]] +
           ["   " + rows[-1] + "]", ": Tensor<i32, [50, 50]> (2500 elements in CPU_DRAM)"])
    # 2,000 of i * 7: the first and last three, five wide (13993).
    long_row = ("= [" + ", ".join([f"{i * 7:>5}" for i in (0, 1, 2)] + ["..."] +
                                  [f"{i * 7:>5}" for i in (1997, 1998, 1999)]) +
                "] : Tensor<i32, [2000]> (2000 elements in CPU_DRAM)")
    # 30 of i * 4, three wide: `= [` and fifteen elements with their `, ` reach column 78, and a
    # sixteenth would end past column 79 (80 less the `,` or `]` after it): it wraps.
    first = ", ".join(f"{i * 4:>3}" for i in range(15))
    rest = ", ".join(f"{i * 4:>3}" for i in range(15, 30))
    wrapped = ["= [" + first + ",", "   " + rest + "]",
               ": Tensor<i32, [30]> (30 elements in CPU_DRAM)"]
    steps = [
        ("let mut g = Tensor<f32, [4, 6]>::fill(0.5);\n"
         "g[0][1] = -12.0; g[1][3] = 100.25; g[2][0] = -0.125; g[3][5] = 7.0;", []),
        ("g", grid),
        ("let mut v = Tensor<i32, [5]>::fill(3); v[2] = -40; v",
         ["= [  3,   3, -40,   3,   3] : Tensor<i32, [5]> (5 elements in CPU_DRAM)"]),
        ("let mut c = Tensor<i32, [2, 3, 4]>::fill(0);\n"
         "for i in 0..2 { for j in 0..3 { for k in 0..4 { c[i][j][k] = i * 100 + j * 10 + k; } } }",
         []),
        ("c", slices),
        ("let mut m = Tensor<i32, [50, 50]>::fill(0);\n"
         "for i in 0..50 { for j in 0..50 { m[i][j] = i * 50 + j; } }\nm", big),
        ("let mut w = Tensor<i32, [2000]>::fill(0); for i in 0..2000 { w[i] = i * 7; } w",
         [long_row]),
        ("let mut r = Tensor<i32, [30]>::fill(0); for i in 0..30 { r[i] = i * 4; } r", wrapped),
        (":show g[1]", ["= [   0.5,    0.5,    0.5, 100.25,    0.5,    0.5] : Tensor<f32, [6]> "
                        "(6 of the 24 elements of `g`, in CPU_DRAM)"]),
        (":show g[0..2][1..4]", ["= [[   -12,    0.5,    0.5],",
                                 "   [   0.5,    0.5, 100.25]]",
                                 ": Tensor<f32, [2, 3]> (6 of the 24 elements of `g`, in CPU_DRAM)"]),
        (":show g[1..=2][..1]", ["= [[   0.5],", "   [-0.125]]",
                                 ": Tensor<f32, [2, 1]> (2 of the 24 elements of `g`, in CPU_DRAM)"]),
        (":show g[2][0]", ["= -0.125 : f32"]),
        (":show c[1][2]", ["= [120, 121, 122, 123] : Tensor<i32, [4]> "
                           "(4 of the 24 elements of `c`, in CPU_DRAM)"]),
        (":show g", grid),
        (":show g[4]", []),
        (":show g[1][2..9]", []),
        (":show g[3..1]", []),
        (":show g[0][0][0]", []),
        (":show gg", []),
        (":show g(1)", []),
        ("fn add(x: i32, y: i32) -> i32 { x + y }", ["defined fn add"]),
        ("fn fill_row(t: &mut Tensor<f32, [4, 6]>, row: i32) { t[row][0] = 1.0; }",
         ["defined fn fill_row"]),
        ("const LIMIT: i64 = 9;", ["defined const LIMIT"]),
        ("let x = add(40, 2);", []),
        (":type add", ["add : fn(x: i32, y: i32) -> i32"]),
        (":type add(1, 2)", ["add(1, 2) : i32"]),
        (":vars", ["mut g : Tensor<f32, [4, 6]>", "mut v : Tensor<i32, [5]>",
                   "mut c : Tensor<i32, [2, 3, 4]>", "mut m : Tensor<i32, [50, 50]>",
                   "mut w : Tensor<i32, [2000]>", "mut r : Tensor<i32, [30]>", "x : i32",
                   "add : fn(x: i32, y: i32) -> i32",
                   "fill_row : fn(t: &mut Tensor<f32, [4, 6]>, row: i32)", "LIMIT : i64"]),
        (":vras", []),
        (":show x", ["= 42 : i32"]),
        (":show x[0]", []),
        (":reset", ["session reset"]),
        (":vars", ["no bindings or items yet"]),
    ]
    script = "\n".join(s for s, _ in steps) + "\n"
    r = subprocess.run([VX, "repl", "--offload=off"], input=script, capture_output=True,
                       text=True, timeout=120)
    if r.returncode != 0:
        fail(f"exit status {r.returncode}")
    want = [w for _, ws in steps for w in ws] + [""]
    got = r.stdout.split("\n")
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            fail(f"line {i + 1}: expected {w!r}, got {g!r}")
            break
    if len(got) != len(want):
        fail(f"{len(got)} lines printed, {len(want)} expected:\n{r.stdout}")
    want_errors = [
        "error: index 4 is out of range for dimension 0 of `g`, whose size is 4",
        "error: range 2..9 goes past the end of dimension 1 of `g`, whose size is 6",
        "error: range 3..1 starts after its end, in dimension 0 of `g`, whose size is 4",
        "error: `g` has 2 dimensions, and 3 indices or ranges were given",
        "error: no binding `gg` in the session; did you mean `g`?",
        "error: `:show` takes a binding, then indices or ranges: `t`, `t[1]`, `t[0..4][2..6]`",
        "error: unknown command `:vras`; did you mean `:vars`? (:help lists the commands)",
        "error: `x` is not a tensor (its type is i32): it has no parts",
    ]
    if r.stderr.split("\n") != want_errors + [""]:
        fail(f"standard error: expected {want_errors}, got:\n{r.stderr}")


if MODE == "piped":
    piped()
elif MODE == "values":
    values()
elif MODE == "pty":
    on_pty()
else:
    fail(f"unknown mode {MODE}")
finish()
