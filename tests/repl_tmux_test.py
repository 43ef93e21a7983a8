#!/usr/bin/env python3
"""The lesson's session typed into `vx repl` on a terminal, driven through tmux (issue 16).

A detached tmux session of a fixed size runs `vx repl`; each step types into it with `send-keys`
and reads the screen with `capture-pane`, then checks what the step should have printed:

  1. a long loop stopped by Ctrl-C mid-run: the report says so, and the binding the loop was
     changing is printed afterwards with its value from before the input;
  2. the 4×6 grid of spec/cli.md §7.1, line for line;
  3. `:map` of the lesson's `b + 4t` kernel, its cells worked out here;
  4. an input that ends in an operator goes on at the `... ` prompt;
  5. seed 001's 3x + 1 kernel typed in `:uir` mode as 4 blocks of 16 threads, its `print` checked
     against the values Python computes, then `:check` of that kernel (both loops proved);
  6. `:save` of the Vx inputs and of the .uir inputs, each file then run with `vx run` and its
     output compared with what Python expects; `:save` refusing a file that exists;
  7. a loop typed over three lines, brought back whole by Up (one history entry) and run again;
  8. `help` and `quit` typed alone (issue 39); step 3 also checks `:map svg` with and without a
     file.

Every expected text is worked out here. tmux is required (tools/setup installs it): without it
the test fails.

usage: repl_tmux_test.py VX REPO_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
WIDTH, HEIGHT = 120, 50
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def finish():
    print(f"repl_tmux: {len(failures)} failures")
    sys.exit(1 if failures else 0)


TMUX = shutil.which("tmux")
if not TMUX:
    fail("tmux is not installed (tools/setup installs it); this test needs it")
    finish()

tmp = scratch_dir()
socket = os.path.join(tmp, "tmux.sock")


def tmux(*args, check=True):
    r = subprocess.run([TMUX, "-S", socket, "-f", "/dev/null", *args], capture_output=True,
                       text=True, timeout=30)
    if check and r.returncode != 0:
        fail(f"tmux {' '.join(args)}: {r.stderr.strip()}")
    return r


class Screen:
    """The pane's text, history included, wrapped lines joined; `expect` looks only at what came
    after the text the previous `expect` matched."""

    def __init__(self):
        self.seen = 0

    def text(self):
        r = tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "repl", check=False)
        return r.stdout

    def expect(self, pattern, what, timeout=30):
        end = time.time() + timeout
        while True:
            text = self.text()
            m = re.compile(pattern, re.S | re.M).search(text, min(self.seen, len(text)))
            if m:
                self.seen = m.end()
                return m
            if time.time() > end:
                fail(f"{what}: timed out waiting for {pattern!r}; the screen shows:\n"
                     + "\n".join(text[self.seen:].split("\n")[-40:]))
                return None
            time.sleep(0.1)

    def type(self, line):
        """Types a line and Enter."""
        if line:
            # tmux takes a `;` that ends an argument for its command separator: escape it.
            tmux("send-keys", "-t", "repl", "-l", line[:-1] + "\\;" if line.endswith(";") else line)
        tmux("send-keys", "-t", "repl", "Enter")


env = dict(os.environ, XDG_STATE_HOME=tmp, HOME=tmp, NO_COLOR="1", TERM="xterm")
tmux("new-session", "-d", "-s", "repl", "-x", str(WIDTH), "-y", str(HEIGHT),
     f"env XDG_STATE_HOME={tmp} HOME={tmp} NO_COLOR=1 {VX} repl --offload=off; "
     "echo VX-EXITED $?; sleep 30")
tmux("set-option", "-t", "repl", "history-limit", "20000", check=False)
screen = Screen()
PROMPT = r"^vx> "


def warp_warning(lanes, idle):
    """The end of a kernel input whose lane loop (line 3) has `lanes` lanes, not a multiple of the
    warp: its lanes_not_warp_multiple warning, as `vx run` gives it, then the prompt."""
    return (r"^\.\.\. }\nwarning: %d lanes are not a multiple of 32, the warp: the last warp of "
            r"each block has %d idle lanes\n --> <repl>:3:1\n(?:.*\n)*?" % (lanes, idle)) + PROMPT


def wait_ready(what, timeout=30):
    """Waits until the REPL waits for a line: the pane's last line is a bare prompt. A line typed
    while the REPL is still busy is echoed by the terminal and again by the line editor, which
    the patterns do not expect (it failed so, now and then, on a loaded machine)."""
    end = time.time() + timeout
    while not re.search(r"^(vx>|uir>|\.\.\.)\s*$", screen.text().rstrip("\n").split("\n")[-1]):
        if time.time() > end:
            fail(f"{what}: no prompt to type the next line at")
            return
        time.sleep(0.05)


def step(lines, pattern, what, timeout=30):
    for k, line in enumerate(lines):
        if k:
            wait_ready(what, timeout)
        screen.type(line)
    return screen.expect(pattern, what, timeout)


try:
    screen.expect(r"vx repl: .*\n" + PROMPT, "the banner and the first prompt")

    # 1. Ctrl-C mid-loop: the loop changes `n` a trillion times; stopped after a second and a
    # half, the input changes nothing, so `n` is still 7.
    step(["let mut n = 7;"], PROMPT, "a binding")
    screen.type("for i in 0..1000000 { for j in 0..1000000 { n = (n + i + j) % 1000; } }")
    time.sleep(1.5)
    if re.search(r"^vx> \s*$", screen.text()[screen.seen:].rstrip("\n").split("\n")[-1]):
        fail("the loop ended before Ctrl-C: it should run for many seconds")
    tmux("send-keys", "-t", "repl", "C-c")
    screen.expect(r"^error: interrupted.*\n.*--> <repl>:1:\d+", "the interrupt's report")
    screen.expect(r"every binding and item is as it was before it\n", "the interrupt's note")
    screen.expect(PROMPT, "a prompt after the interrupt")
    step(["n"], r"^= 7 : i32\n" + PROMPT, "`n` after the interrupt")
    # A second Ctrl-C, at the empty prompt, says how to leave.
    tmux("send-keys", "-t", "repl", "C-c")
    screen.expect(r"\^C\n\(to leave, type :quit or press Ctrl-D\)\n" + PROMPT,
                  "Ctrl-C at an empty prompt")

    # 2. The 4×6 grid of spec/cli.md §7.1.
    grid = ["= [[   0.5,    -12,    0.5,    0.5,    0.5,    0.5],",
            "   [   0.5,    0.5,    0.5, 100.25,    0.5,    0.5],",
            "   [-0.125,    0.5,    0.5,    0.5,    0.5,    0.5],",
            "   [   0.5,    0.5,    0.5,    0.5,    0.5,      7]]",
            ": Tensor<f32, [4, 6]> (24 elements in CPU_DRAM)"]
    step(["let mut t = Tensor<f32, [4, 6]>::fill(0.5);",
          "t[0][1] = -12.0; t[1][3] = 100.25; t[2][0] = -0.125; t[3][5] = 7.0;", "t"],
         "^" + re.escape("\n".join(grid)) + "\n" + PROMPT, "the 4×6 grid")

    # 3. :map (spec/cli.md §3.3): the lesson's `b + 4t` with b in 0..4 and t in 0..8 writes
    # element e from block e mod 4, lane e div 4; 16 cells a row; no collision.
    store = "for t in 0..8 across lanes(8) { out[b + 4 * t] = t; }"
    step(["let mut out = transfer(Tensor<i32, [32]>::fill(0), Memory::HBM);",
          "spawn on(Topology::Device) {", "for b in 0..4 across blocks {", store, "}", "}"],
         warp_warning(8, 24), "the lesson's b + 4t kernel")
    rows = ["%4d | " % r + " ".join("%d:%d" % (e % 4, e // 4) for e in range(r, r + 16))
            for r in (0, 16)]
    want = ["<repl>:3:%d: who writes `out[b + 4 * t]` of `out` [32]" % (store.index("out[") + 1),
            "  each element shows `b:t`, the pass that writes it; `b:t!`: another pass writes it "
            "too"] + \
        rows + ["  no two passes write the same element"]
    step([":map"], "^" + re.escape("\n".join(want)) + "\n" + PROMPT, ":map of the kernel")
    # On a terminal `:map svg` asks for a file rather than print XML; `:map svg FILE` writes it.
    step([":map svg"], r"^error: `:map svg` needs a file on a terminal: `:map svg FILE\.svg`.*\n"
         + PROMPT, ":map svg without a file")
    svg_file = os.path.join(tmp, "map.svg")
    step([f":map svg {svg_file}"], r"^wrote `.*map\.svg`\n" + PROMPT, ":map svg FILE")
    svg_text = open(svg_file).read() if os.path.exists(svg_file) else ""
    if not svg_text.startswith("<svg ") or svg_text.count('<rect class="cell') != 32:
        fail(f":map svg FILE wrote {svg_text[:200]!r}, not an <svg> of 32 cells")

    # 4. An input that ends in an operator goes on; the next line ends it.
    step(["let y = n +"], r"^\.\.\. ", "the continuation prompt after `+`")
    step(["3;", "y * 2"], r"^= 20 : i32\n" + PROMPT, "a value over two lines")

    # A function, a kernel in Vx (the lesson's 3x + 1 as 4 blocks of 16 lanes, which warns that
    # 16 lanes are not a warp, as `vx run` does) and a print, for :save below.
    step(["fn scale(v: f32) -> f32 { v * 2.0 }"], r"^defined fn scale\n" + PROMPT, "a function")
    step(["let mut g = transfer(Tensor<i32, [4, 16]>::fill(0), Memory::HBM);",
          "spawn on(Topology::Device) {",
          "for b in 0..4 across blocks {",
          "for l in 0..16 across lanes(16) { g[b][l] = (b * 16 + l) * 3 + 1; }",
          "}", "}"], warp_warning(16, 16), "a kernel")
    step(["let back = transfer(g, Memory::CPU_DRAM);",
          'println!("{} {} {} {}", n, scale(t[1][3]), back[0][0], back[3][15]);'],
         r"^7 200\.5 1 190\n" + PROMPT, "a print")

    # 5. The lesson's kernel in .uir: 4 blocks of 16 threads, y = 3x + 1.
    step([":uir"], r"uir mode: .*\n^uir> ", ":uir")
    step(["buffer %x i32[64] iota", "buffer %y i32[64]"], r"^uir> .*\n^uir> ", "two buffers")
    kernel = ["%b = range 4 axis=global", "%t = range 16 axis=local", "%m = mul %b 16",
              "%i = add %m %t", "%v = load %x %i", "%w = mul %v 3", "%z = add %w 1",
              "%s = store %y %i %z", "%et = end %s %t"]
    step(kernel, r"(^\.\.\. .*\n){8}^\.\.\. ", "the continuation prompt while a range is open")
    step(["%eb = end %et %b"], r"^uir> ", "the kernel's end")
    expected = " ".join(str(3 * x + 1) for x in range(64))
    step(["print %y"], "^" + re.escape(expected) + r"\n^uir> ", "the kernel's output")
    step([":check"], re.escape("<repl>:8:6: store `store %y %i %z`") + r"\n"
         r"  offset: %b \* 16 \+ %t\n"
         r"  global loop `%b` \(line 1\): proved\n(.*\n){4}"
         r"    ok    16 > 15\n"
         r"    ok    the digits of `%b` determine it\n"
         r"  local loop `%t` \(line 2\): proved\n(.*\n){4}"
         r"    ok    the digits of `%t` determine it\n^uir> ", ":check of the .uir kernel")

    # 6. :save, then vx run of what it wrote.
    uir_file = os.path.join(tmp, "lesson.uir")
    step([f":save {uir_file}"], r"^saved the \.uir inputs to .*\n^uir> ", ":save FILE.uir")
    step([":vx"], r"^vx mode\n" + PROMPT, ":vx")
    vx_file = os.path.join(tmp, "lesson.vx")
    with open(vx_file, "w") as f:
        f.write("// a file that is there already\n")
    step([f":save {vx_file}"], r"^error: `.*lesson\.vx` exists; `:save! .*` overwrites it\n"
         + PROMPT, ":save refusing a file that exists")
    step([f":save! {vx_file}"], r"^saved \d+ inputs and 1 item to .*\n" + PROMPT, ":save!")

    # 7. A multi-line input is one history entry: Up twice brings back the whole loop (not its
    # last line `}`), and Enter runs it again: 0 + 1 + 2, twice.
    step(["let mut acc = 0;", "for i in 0..3 {", "acc = acc + i;", "}"], r"^\.\.\. }\n" + PROMPT,
         "a loop over three lines")
    step(["acc"], r"^= 3 : i32\n" + PROMPT, "the loop's sum")
    tmux("send-keys", "-t", "repl", "Up")
    tmux("send-keys", "-t", "repl", "Up")
    screen.type("")
    screen.expect(PROMPT, "the recalled loop ran")
    step(["acc"], r"^= 6 : i32\n" + PROMPT, "the loop's sum after it ran again from the history")
    # 8. `help` and `quit` alone, as one types them to Python: the help, and leaving.
    step(["help"], r"^Type Vx statements and expressions.*:quit +leave.*\n" + PROMPT, "help")
    step(["quit"], r"VX-EXITED 0", "quit")
finally:
    tmux("kill-server", check=False)

for path, want in [(os.path.join(tmp, "lesson.vx"), "7 200.5 1 190\n"),
                   (os.path.join(tmp, "lesson.uir"), expected + "\n")]:
    r = subprocess.run([VX, "run", path], capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or r.stdout != want:
        text = open(path).read() if os.path.exists(path) else "(no file)"
        fail(f"vx run {path}: exit {r.returncode}, printed {r.stdout!r}, expected {want!r}\n"
             f"{r.stderr}\nthe file:\n{text}")
finish()
