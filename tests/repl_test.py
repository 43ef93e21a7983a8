#!/usr/bin/env python3
"""`vx repl` (spec/cli.md §7), driven two ways.

piped: a session on standard input (not a terminal): items defined and redefined, a kernel run,
  `:check` tables for a proved and for a refused store, errors that leave the session as it was
  (a refused input defines nothing, a runtime error undoes the input's writes), values and types
  of expressions, tensor summaries, `:type`, `:explain`, `:emit`, `:time`, `:load`, `:reset`,
  `:quit`. Standard output is compared line by line; diagnostics by code and position.
values: how values print (§7.1): a grid with mixed widths, a row, slices, elided 50×50 and 1-D,
  a wrapped row, `:show` of a row, a block and an element, `:show`'s errors (an index past
  INT64_MAX too, which named no dimension), `:vars`, `:type` of a function (struct and tuple
  parameters as written, not as the checker's locals of their fields), a did-you-mean for a
  mistyped command. Every expected text is worked out here (by hand, or built from the
  elements' values), not taken from vx.
pty: the same REPL on a pseudo-terminal: prompts, a multi-line input with the continuation
  prompt, TAB completion of `lanes::s` (the three built-ins listed) and of a defined name, Ctrl-C
  abandoning a line, and the history file under $XDG_STATE_HOME.
interrupt: SIGINT sent to a piped `vx repl` (as a Jupyter kernel interrupts a cell): while idle it
  does nothing; it stops a host loop, an `across blocks` loop running on TBB threads, and a .uir
  range, each time with the report on standard error and every binding as before the input; TBB
  and the session work afterwards.
inputs: where an input ends (an operator at the end, `let x =`, a blank line, two blank lines);
  diagnostics placed in what the user typed (an earlier item, a binding's declaration, a move by
  an earlier input, `main()`, `return 5`); `:check` meaning the last kernel; `.uir` inputs through
  `:uir`, `:load FILE.uir` and `:save FILE.uir`; `:save` (and what `vx run` of the saved file
  prints), `:save!`, `:reload`; `:explain` rendered for a terminal; did-you-mean for commands.

usage: repl_test.py piped|values|pty|interrupt|inputs VX REPO_ROOT
"""
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

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
    tmp = scratch_dir()
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
        # an array binding is kept (a copy) and prints as `{:?}` does (spec/cli.md §7)
        ("let mut arr = [1.5, 2.0];\narr[1] += 1.0;", []),
        ("arr", ["= [1.5, 3.0] : [f64; 2]"]),
        ("arr == [1.5, 3.0]", ["= true : bool"]),
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
    # `help`, `quit` and `exit` alone (issue 39): the help and leaving, as in Python's REPL; a
    # binding of that name is an expression like any other. `exit` leaves before `7` runs.
    r = subprocess.run([VX, "repl"], input="let quit = 3;\nquit\nhelp\nexit\n7\n",
                       capture_output=True, text=True, timeout=60)
    want = ["= 3 : i32", "Type Vx statements and expressions; an expression's value is printed "
            "with its type."]
    if r.stdout.split("\n")[:2] != want or "= 7 : i32" in r.stdout or r.stderr or r.returncode:
        fail(f"quit as a binding, help, exit: exit {r.returncode}, stdout {r.stdout[:300]!r}, "
             f"stderr {r.stderr!r}")


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
    state = scratch_dir()
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
        (":show g[99999999999999999999]", []),
        (":show g[1][0..=99_999_999_999_999_999_999]", []),
        ("fn add(x: i32, y: i32) -> i32 { x + y }", ["defined fn add"]),
        ("fn fill_row(t: &mut Tensor<f32, [4, 6]>, row: i32) { t[row][0] = 1.0; }",
         ["defined fn fill_row"]),
        ("const LIMIT: i64 = 9;", ["defined const LIMIT"]),
        ("struct P { x: f32, n: i32 }", ["defined struct P"]),
        # Struct and tuple parameters as written, not the locals the checker makes of their
        # fields (`p.x: f32, p.n: i32`); a tuple returned, not `()`.
        ("fn shift(p: P, t: (i32, (bool, f32)), k: i32) -> (i32, f32) { (p.n + k, p.x) }",
         ["defined fn shift"]),
        ("fn bump(q: &mut P) { q.n = q.n + 1; }", ["defined fn bump"]),
        ("let x = add(40, 2);", []),
        (":type shift", ["shift : fn(p: P, t: (i32, (bool, f32)), k: i32) -> (i32, f32)"]),
        (":type bump", ["bump : fn(q: &mut P)"]),
        (":type add", ["add : fn(x: i32, y: i32) -> i32"]),
        (":type add(1, 2)", ["add(1, 2) : i32"]),
        (":vars", ["mut g : Tensor<f32, [4, 6]>", "mut v : Tensor<i32, [5]>",
                   "mut c : Tensor<i32, [2, 3, 4]>", "mut m : Tensor<i32, [50, 50]>",
                   "mut w : Tensor<i32, [2000]>", "mut r : Tensor<i32, [30]>", "x : i32",
                   "add : fn(x: i32, y: i32) -> i32",
                   "fill_row : fn(t: &mut Tensor<f32, [4, 6]>, row: i32)", "LIMIT : i64",
                   "shift : fn(p: P, t: (i32, (bool, f32)), k: i32) -> (i32, f32)",
                   "bump : fn(q: &mut P)"]),
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
        # An index past INT64_MAX names the dimension as any other that does not fit.
        "error: index 99999999999999999999 is out of range for dimension 0 of `g`, whose size is 4",
        "error: range 0..=99_999_999_999_999_999_999 goes past the end of dimension 1 of `g`, "
        "whose size is 6",
        "error: unknown command `:vras`; did you mean `:vars`? (:help lists the commands)",
        "error: `x` is not a tensor (its type is i32): it has no parts",
    ]
    if r.stderr.split("\n") != want_errors + [""]:
        fail(f"standard error: expected {want_errors}, got:\n{r.stderr}")


class Piped:
    """`vx repl` with standard input a pipe, written to step by step; standard output and error
    are read on threads."""

    def __init__(self):
        self.p = subprocess.Popen([VX, "repl", "--offload=off"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.out, self.err = [""], [""]
        self.seen_out = self.seen_err = 0
        self.readers = [threading.Thread(target=self._read, args=(stream, buf), daemon=True)
                        for stream, buf in ((self.p.stdout, self.out), (self.p.stderr, self.err))]
        for t in self.readers:
            t.start()

    @staticmethod
    def _read(stream, buf):
        for chunk in iter(lambda: stream.read(1), ""):
            buf[0] += chunk

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def expect(self, which, pattern, what, timeout=60):
        buf = self.out if which == "out" else self.err
        end = time.time() + timeout
        while time.time() < end:
            seen = self.seen_out if which == "out" else self.seen_err
            m = re.compile(pattern, re.S | re.M).search(buf[0], seen)
            if m:
                if which == "out":
                    self.seen_out = m.end()
                else:
                    self.seen_err = m.end()
                return m
            if self.p.poll() is not None and not re.search(pattern, buf[0][seen:], re.S | re.M):
                break
            time.sleep(0.05)
        fail(f"{what}: no {pattern!r} on standard {which}put; it holds:\n{buf[0][-3000:]}")
        return None

    def interrupt_after(self, seconds, pattern, what):
        """Ctrl-C `seconds` into the running input; standard error then shows `pattern`."""
        time.sleep(seconds)
        self.p.send_signal(signal.SIGINT)
        self.expect("err", pattern, what)

    def close(self):
        """The exit status, once the readers have everything the REPL wrote: a process that has
        ended may still have output in its pipes that a reader has not taken yet."""
        self.p.stdin.close()
        try:
            status = self.p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.p.kill()
            fail("vx repl did not end at the end of its input")
            status = None
        for t in self.readers:
            t.join(timeout=60)
        return status


INTERRUPTED = (r"error: interrupted.*?\n --> <repl>:\d+:\d+\n.*?= note: the input changed "
               r"nothing: every binding and item is as it was before it\n")


def interrupt():
    r = Piped()
    r.send('println!("ready");')
    r.expect("out", r"^ready\n", "the first input")
    r.p.send_signal(signal.SIGINT)  # idle: nothing happens
    time.sleep(0.3)
    r.send('println!("still here");')
    r.expect("out", r"^still here\n", "SIGINT while idle")

    # A host loop that never ends, stopped: `n` keeps its value from before the input.
    r.send("let mut n = 7;")
    r.send('println!("loop 1"); loop { n = (n + 1) % 1000; }')
    r.expect("out", r"^loop 1\n", "the first loop starting")
    r.interrupt_after(0.5, INTERRUPTED, "the host loop's interrupt")
    r.send("n")
    r.expect("out", r"^= 7 : i32\n", "`n` after the interrupt")

    # An across-blocks loop whose blocks run on TBB tasks.
    r.send("let mut h = transfer(Tensor<i32, [1000]>::fill(5), Memory::HBM);")
    r.send('println!("loop 2"); spawn on(Topology::Device) { for b in 0..1000 across blocks { '
           "for k in 0..100000000 { h[b] = (h[b] + k) % 7; } } }")
    r.expect("out", r"^loop 2\n", "the block loop starting")
    r.interrupt_after(0.5, r"error: interrupted in block \d+ \(`b` = \d+\)"
                      + INTERRUPTED[len("error: interrupted"):], "the block loop's interrupt")
    r.send(":show h[995..1000]")
    r.expect("out", re.escape("= [5, 5, 5, 5, 5] : Tensor<i32, [5], Memory::HBM>"),
             "`h` after the interrupt")
    # TBB runs the next kernel as before.
    r.send("spawn on(Topology::Device) { for b in 0..1000 across blocks { h[b] = b * 2; } }")
    r.send(":show h[997..1000]")
    r.expect("out", re.escape("= [1994, 1996, 1998] : Tensor<i32, [3], Memory::HBM>"),
             "a kernel after the interrupt")

    # A .uir range.
    r.send(":uir")
    r.send("buffer %a i32[1]")
    r.send("%i = range 2000000000\n%j = range 2000000000\n%s = store %a 0 %j\n"
           "%e = end %s %j\nend %e %i")
    r.interrupt_after(1.0, INTERRUPTED, "the .uir range's interrupt")
    r.send("print %a")
    r.expect("out", r"^0\n", "the buffer after the interrupt")
    r.send(":vx")
    r.send("n + 1")
    r.expect("out", r"^= 8 : i32\n", "an input after all that")
    status = r.close()
    if status != 0:
        fail(f"exit status {status}")
    if "internal" in r.err[0]:
        fail(f"an internal error:\n{r.err[0]}")


def diagnostics(stderr):
    """(code or `runtime`/`interrupted`/`plain`, `FILE:L:C` or None, the lines up to the next
    diagnostic) for each diagnostic, in order."""
    out = []
    lines = stderr.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"(?:error|warning)(?:\[(E\d{4})\])?: (.*)$", line)
        if not m:
            continue
        kind = m.group(1) or ("runtime" if m.group(2).startswith("runtime error") else "plain")
        loc = re.match(r" *--> (\S+)$", lines[i + 1]) if i + 1 < len(lines) else None
        body = []
        for rest in lines[i + 1:]:
            if re.match(r"(?:error|warning|note)(?:\[E\d{4}\])?: ", rest):
                break
            body.append(rest)
        out.append((kind, loc.group(1) if loc else None, "\n".join(body)))
    return out


def inputs():
    tmp = scratch_dir()
    lesson_uir = os.path.join(ROOT, "conformance", "uir", "lesson_3x_plus_1.uir")
    reload_me = os.path.join(tmp, "reload_me.vx")
    with open(reload_me, "w") as f:
        f.write("const K: i32 = 3;\nfn main() {\n    println!(\"hello {}\", K);\n}\n")
    taken = os.path.join(tmp, "taken.vx")
    with open(taken, "w") as f:
        f.write("// the student's own file\n")
    saved_vx = os.path.join(tmp, "saved.vx")
    saved_uir = os.path.join(tmp, "saved.uir")
    values_3x = " ".join(str(3 * x + 1) for x in range(64))
    r = Piped()
    r.send(":check")
    r.expect("out", r"^no kernel entered yet: ", ":check before any kernel")

    # An accepted input's warnings show, as in a file, but those of a binding or function no
    # input uses yet: a later one may.
    r.send("while true { break; }")
    r.send("fn spin(n: i32) -> i32 { spin(n) }")
    r.expect("out", r"^defined fn spin\n", "a function with a warning is defined")
    r.send("let mut unused_yet = 1;")
    r.send("fn not_called_yet() {}")
    r.expect("out", r"^defined fn not_called_yet\n", "a function no input calls yet")
    r.send("let pp = (5);")
    r.send("let qq = (6);")  # a lint's note that it is on by default: once a session
    r.send("(40 + pp)")  # the value shown: the session's binding of it is not the user's
    r.expect("out", r"^= 45 : i32\n", "a value in parentheses")

    # Where an input ends.
    r.send("let y = 3 +")  # an operator at the end: it goes on
    r.send("4;")
    r.send("y")
    r.expect("out", r"^= 7 : i32\n", "an input ending in `+`")
    r.send("let x =")
    r.send("5;")
    r.send("if x > 3")
    r.send('{ println!("big"); }')
    r.expect("out", r"^big\n", "`let x =` and `if x > 3` going on")
    r.send("let z = 1 +")
    r.send("")  # a blank line ends it: the parser says what is missing
    r.send("let w = (1 +")
    r.send("")
    r.send("")  # two blank lines end an open one
    r.send("let v = 3")  # only its `;` is missing: refused at once
    r.send("x + 1")
    r.expect("out", r"^= 6 : i32\n", "an input after the blank lines")

    # The wrapping never shows.
    r.send("fn a() -> i32 { 1 }")
    r.send("fn b() -> i32 { a() }")
    r.send("fn a() -> f32 { 1.0 }")  # breaks `b`
    r.send("let y2 = 2;")
    r.send("y2 = 3;")
    r.send("let a1 = Tensor<f32, [4]>::fill(1.0);")
    r.send("let b1 = a1;")
    r.send("let c1 = a1;")
    r.send("main()")
    r.send("return 5;")
    r.send("return;")
    r.send("a() + 1")
    r.expect("out", r"^= 2 : i32\n", "`a` unchanged after the refused redefinition")

    # :check means the last kernel.
    r.send("let mut grid = transfer(Tensor<f32, [64, 300]>::fill(1.0), Memory::HBM);")
    r.send(KERNEL)
    r.send("1 + 1")
    r.expect("out", r"^= 2 : i32\n", "an input after the kernel")
    r.send(":check")
    r.expect("out", "^" + re.escape(PROVED_TABLE) + "\n", ":check after a later input")

    # .uir: a file, a typed kernel with a runtime error, :check, :save FILE.uir.
    r.send(f":load {lesson_uir}")
    r.expect("out", "^" + re.escape(values_3x) + "\n", ":load FILE.uir")
    r.send(":check")
    r.expect("out", re.escape(f"{lesson_uir}:13:6: store `store %y %i %z`") +
             r"\n.*global loop `%b` \(line 6\): proved", ":check of a loaded .uir kernel")
    r.send(":uir")
    r.expect("out", r"^uir mode: ", ":uir")
    r.send("buffer %q i32[8]")
    r.send("%j = range 9")
    r.send("%s2 = store %q %j 1")
    r.send("end %s2 %j")  # runtime error: offset 8
    r.send("print %q")
    r.expect("out", r"^0 0 0 0 0 0 0 0\n", "a buffer after a refused .uir input")
    r.send(f":save {saved_uir}")
    r.expect("out", r"^saved the \.uir inputs to ", ":save FILE.uir")
    r.send(":vx")

    # :save, :save!, :reload, main().
    r.send('println!("{} {}", x, y * 2);')
    r.expect("out", r"^5 14\n", "a print")
    r.send(f":save {taken}")
    r.send(f":save! {taken}")
    r.expect("out", r"^saved \d+ inputs and \d+ items to ", ":save!")
    r.send(f":save {saved_vx}")
    r.send(f":save {saved_vx}")  # written by this session: saved again
    r.expect("out", r"^saved .*\n^saved ", ":save twice")
    r.send(f":load {reload_me}")
    r.expect("out", r"^hello 3\ndefined const K\n", ":load of a program")
    with open(reload_me, "w") as f:
        f.write("const K: i32 = 4;\nfn main() {\n    println!(\"hello {}\", K);\n}\n")
    r.send(":reload")
    r.expect("out", r"^hello 4\nredefined const K\n", ":reload")
    r.send("main()")  # E0101, with :reload named

    # :explain for a terminal; did-you-mean.
    r.send(":explain E0300")
    r.expect("out", r"^E0300 — assignment to an immutable binding\n\nAn assignment or compound "
             r"assignment to a binding without `mut`, to an element\nof a tensor held by such a "
             r"binding, .*?\n\n    fn main\(\) \{\n        let x = 1;\n        x = 2; "
             r"// error\[E0300\]\n    \}\n", ":explain E0300")
    r.send(":explain E0001")
    r.expect("out", r"^E0001 — .*?\n(?=\S*\n?E\d{4}|\Z)", ":explain E0001", timeout=10)
    r.send(":sve x")
    status = r.close()
    if status != 0:
        fail(f"exit status {status}")
    out, err = r.out[0], r.err[0]
    text_1 = out[out.find("E0001 — "):]
    for bad in ("](", "```", "//~"):
        if bad in out[out.find("E0300 — "):]:
            fail(f":explain printed raw Markdown ({bad!r}):\n{text_1[:2000]}")
    if "grammar.md §7" not in text_1:
        fail(f":explain E0001 lost a link's text:\n{text_1[:2000]}")
    if any(len(line) > 80 for line in text_1.split("\n") if not line.startswith("    ")):
        fail(f":explain E0001 has lines past 80 columns:\n{text_1[:3000]}")

    notes = re.findall(r"= note: `#\[warn\((\w+)\)\]` on by default", err)
    if sorted(notes) != ["unconditional_recursion", "unused_parens", "while_true"]:
        fail(f"each lint's `on by default` note once a session: got {notes}\n{err}")
    if "<session>" in err:
        fail(f"a diagnostic points into the wrapping (<session>):\n{err}")
    got = [(k, loc) for k, loc, _ in diagnostics(err)]
    want = [
        ("plain", "<repl>:1:1"),   # while_true
        ("plain", "<repl>:1:1"),   # unconditional_recursion
        ("plain", "<repl>:1:10"),  # unused_parens of `let pp = (5);`
        ("plain", "<repl>:1:10"),  # and of `let qq = (6);`
        ("E0001", "<repl>:1:11"),  # let z = 1 + <blank line>: at the `+`, as in a file
        ("E0002", "<repl>:1:9"),   # let w = (1 +: the `(` is never closed
        ("E0001", "<repl>:1:10"),  # let v = 3
        ("E0200", "<repl>:1:17"),  # in `fn b`, entered earlier
        ("E0300", "<repl>:1:1"),   # y2 = 3
        ("E0301", "<repl>:1:10"),  # a1, moved by an earlier input
        ("E0101", "<repl>:1:1"),   # main()
        ("E0200", "<repl>:1:8"),   # return 5
        ("runtime", "<repl>:2:16"),  # the .uir store past the end of %q
        ("plain", None),           # :save of a file that exists
        ("E0101", "<repl>:1:1"),   # main() after :load
        ("plain", None),           # :sve
    ]
    if got != want:
        fail(f"diagnostics: expected\n{want}\ngot\n{got}\n{err}")
    body = {(k, loc): b for k, loc, b in diagnostics(err)}
    for key, text in [(("E0200", "<repl>:1:17"), "= note: in `fn b`, entered earlier"),
                      (("E0200", "<repl>:1:17"), "1 | fn b() -> i32 { a() }"),
                      (("E0300", "<repl>:1:1"), "= note: `y2` comes from an earlier input"),
                      (("E0301", "<repl>:1:10"), "= note: `a1` was moved by an earlier input"),
                      (("E0002", "<repl>:1:9"), "the input ends before the `)` that closes it"),
                      (("E0101", "<repl>:1:1"), "is not kept")]:
        if text not in body.get(key, ""):
            fail(f"{key}: {text!r} is missing from:\n{body.get(key)}")
    for text in ["warning: denote infinite loops with `loop { ... }`\n --> <repl>:1:1\n",
                 "warning: function cannot return without recursing\n --> <repl>:1:1\n",
                 "warning: unnecessary parentheses around assigned value\n --> <repl>:1:10\n",
                 "note: `return` ended the input early: its bindings are not kept",
                 # not the `}` of the wrapper (issue 39)
                 "error[E0001]: expected `;`, found the end of the input\n --> <repl>:1:10\n",
                 f"`:reload` reads `{reload_me}` again",
                 f"error: `{taken}` exists; `:save! {taken}` overwrites it",
                 "error: unknown command `:sve`; did you mean `:save`?"]:
        if text not in err:
            fail(f"standard error lacks {text!r}:\n{err}")

    # What :save wrote runs, and prints what the session's programs printed.
    for path, want_out in [(saved_vx, "big\n5 14\n"), (saved_uir, values_3x + "\n0 0 0 0 0 0 0 0\n")]:
        run = subprocess.run([VX, "run", path], capture_output=True, text=True, timeout=60)
        if run.returncode != 0 or run.stdout != want_out:
            fail(f"vx run {path}: exit {run.returncode}, printed {run.stdout!r}, expected "
                 f"{want_out!r}\n{run.stderr}\n{open(path).read()}")


if MODE == "piped":
    piped()
elif MODE == "inputs":
    inputs()
elif MODE == "interrupt":
    interrupt()
elif MODE == "values":
    values()
elif MODE == "pty":
    on_pty()
else:
    fail(f"unknown mode {MODE}")
finish()
