#!/usr/bin/python3
"""`vx repl --protocol=jsonl` (spec/cli.md §7.7), driven directly as the Jupyter kernel drives it.

One session answers, in order: a value (and the values before the last, in stdout), a tensor
value, inputs split over lines as at the prompt (a refused second line leaves the first one's
binding), a refused input whose span lies further down the code, E6032 in a kernel with its span
and rendered line, `:check`'s tables (a proved store's rows, a refused store's failed comparison
and collision), a runtime error (the session as before), a program printing bytes that JSON must
escape, malformed requests (not JSON, not an object, no code, an unknown op, a cursor past the
code), `is_complete`, `complete`, `:type`'s error placed in the code, region timing, SIGINT at idle
and during a run, and `:quit`. Every expected value is worked out here (arithmetic, brute force
over the loops, positions found in the code), not taken from vx.

usage: repl_protocol_test.py VX
"""
import json
import os
import signal
import subprocess
import sys
import time

VX = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

checks = Checks("repl_protocol")
fail, expect, finish = checks.fail, checks.expect, checks.finish

# INTEGRATOR: set True once the "repl" branch's SIGINT handling is merged: SIGINT stops the input
# running in Session::eval, which then calls SessionHooks::interrupted (session.hpp). Until then
# vx ignores SIGINT (the input runs to its end) and the check below says so on every run.
INTERRUPT_STOPS_INPUT = True


class Session:
    def __init__(self, *args):
        self.p = subprocess.Popen([VX, "repl", "--protocol=jsonl", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)
        self.next_id = 0

    def raw(self, line):
        """Sends one line; returns the reply line (bytes) and the reply."""
        self.p.stdin.write(line + b"\n")
        self.p.stdin.flush()
        out = self.p.stdout.readline()
        if not out:
            fail(f"no reply to {line[:80]!r}; vx exited with {self.p.wait()}")
            finish()
        return out, json.loads(out)

    def ask(self, code, **extra):
        self.next_id += 1
        request = {"id": self.next_id, "code": code, **extra}
        _, reply = self.raw(json.dumps(request).encode())
        expect(f"id of the reply to {code!r}", reply["id"], self.next_id)
        return reply


EXECUTE_KEYS = {"id", "status", "stdout", "stderr", "value", "type", "text", "diagnostics",
                "tables", "svg", "timing", "elapsed_ms"}


def line_col(code, offset):
    """1-based line and column (in code points) of a byte offset of `code`."""
    before = code.encode()[:offset].decode()
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def byte_at(code, text):
    return len(code[:code.index(text)].encode())


s = Session("--offload=off")

# A value: the last input's value and type, the REPL's line for both.
r = s.ask("let x = 20;\nx * 2 + 25")
expect("keys of an execute reply", set(r), EXECUTE_KEYS)
expect("status", r["status"], "ok")
expect("value", r["value"], str(20 * 2 + 25))
expect("type", r["type"], "i32")
expect("text", r["text"], f"= {20 * 2 + 25} : i32\n")
expect("stdout", r["stdout"], "")
expect("diagnostics", r["diagnostics"], [])

# Two inputs with values: the first stays in stdout where the REPL prints it.
r = s.ask("x - 1\nprintln!(\"between\");\nx + 1")
expect("earlier value in stdout", r["stdout"], f"= {20 - 1} : i32\nbetween\n")
expect("last value", (r["value"], r["type"]), (str(20 + 1), "i32"))

# A tensor value: its elements and its type with the size note.
r = s.ask("let t = Tensor<i32, [3]>::fill(7);\nt")
expect("tensor value", r["value"], "[7, 7, 7]")
expect("tensor type", r["type"], "Tensor<i32, [3]> (3 elements in CPU_DRAM)")

# Lines are inputs as at the prompt: line 1 runs, line 2 is refused (an unknown name), so `a`
# stays and `b` does not. The span is in the code's terms: line 2, the column of `nope`.
code = "let a = 4;\nlet b = a + nope;"
r = s.ask(code)
expect("status of a refused input", r["status"], "error")
errors = [d for d in r["diagnostics"] if d["level"] == "error"]
expect("errors of the refused input", [d["code"] for d in errors], ["E0100"])
if errors:
    span = errors[0]["spans"][0]
    at = byte_at(code, "nope")
    expect("span of `nope`", (span["file"], span["byte_start"], span["byte_end"],
                              span["line_start"], span["column_start"]),
           ("<repl>", at, at + 4, *line_col(code, at)))
    expect("rendered line", " --> <repl>:2:13" in errors[0]["rendered"]
           and "let b = a + nope;" in errors[0]["rendered"], True)
expect("a kept", s.ask("a")["value"], "4")
r = s.ask("b")
expect("b not defined", [d["code"] for d in r["diagnostics"]], ["E0100"])

# An input that starts on line 3 of the code and is refused by the kernel rules (E6032): the
# block loop's passes y = 0 and y = 1 both store h[0][x].
kernel = """let w = 5;

let mut h = transfer(Tensor<f32, [64, 300]>::fill(0.0), Memory::HBM);
spawn on(Topology::Device) {
    for y in 0..64 across blocks {
        for x in 0..300 across lanes(256) {
            h[0][x] = 1.0;
        }
    }
}"""
r = s.ask(kernel)
errors = [d for d in r["diagnostics"] if d["level"] == "error"]
expect("E6032 reported", [d["code"] for d in errors], ["E6032"])
if errors:
    span = errors[0]["spans"][0]
    want_line = kernel.split("\n").index("            h[0][x] = 1.0;") + 1
    expect("E6032's line in the code", span["line_start"], want_line)
    expect("E6032 renders its line", f"{want_line} |             h[0][x] = 1.0;"
           in errors[0]["rendered"], True)
# :check on that input (the last one): the tables, with the block loop's failure and a collision.
r = s.ask(":check")
expect(":check status (a refused store)", r["status"], "error")
expect(":check stores", [(t["store"], t["line"]) for t in r["tables"]],
       [("h[0][x]", want_line)])
if r["tables"]:
    loops = r["tables"][0]["loops"]
    expect("loops around h[0][x]", [(l["level"], l["var"], l["proved"]) for l in loops],
           [("block", "y", False), ("lane", "x", True)])
    expect("lane loop rows", loops[1]["rows"], [["x", 1, 299, 299]])
    expect("lane loop line", loops[1]["line"], want_line - 1)
    expect("table columns", loops[0]["columns"],
           ["digit", "coefficient", "largest value", "the most it adds"])
    # The first two passes of `y` that write one element, by brute force over (y, x).
    first = {}
    for y in range(64):
        for x in range(300):
            first.setdefault((0, x), []).append((y, x))
    (y0, x0), (y1, x1) = first[(0, 0)][:2]
    expect("the block loop's collision", loops[0].get("collision"),
           f"block {y0} lane {x0} and block {y1} lane {x1} both write element [0][0]")
expect("w defined by line 1 of the kernel's code", s.ask("w")["value"], "5")

# A kernel the rules accept, and its tables: 4 blocks of 16 threads, element 16b + t.
grid = """let mut g = transfer(Tensor<i32, [64]>::fill(0), Memory::HBM);
spawn on(Topology::Device) {
    for b in 0..4 across blocks {
        for t in 0..16 across lanes(16) {
            g[16 * b + t] = 3 * (16 * b + t) + 1;
        }
    }
}
:check"""
r = s.ask(grid)
expect("accepted kernel status", r["status"], "ok")
expect("one region timed", [(t["line"], t["column"], t["on"]) for t in r["timing"]],
       [(2, 1, "host")])
if len(r["tables"]) == 1:
    table = r["tables"][0]
    expect("store line", table["line"], 5)
    block, lane = table["loops"]
    # Digits by hand: b in 0..4 (largest 3) with coefficient 16, t in 0..16 (largest 15).
    want_block = sorted([["b", 16, 3, 3 * 16], ["t", 1, 15, 15]], key=lambda row: -row[1])
    expect("block loop rows", sorted(block["rows"], key=lambda row: -row[1]), want_block)
    expect("block loop proved", block["proved"], True)
    expect("lane loop rows", lane["rows"], [["t", 1, 15, 15]])
    expect("the comparison", [(c["holds"], c["coefficient"], c["smaller"])
                              for c in block["proof"]["comparisons"]], [(True, 16, 15)])
else:
    fail(f"tables of the accepted kernel: {r['tables']!r}")
r = s.ask("let back = transfer(g, Memory::CPU_DRAM);\nlet mut sum = 0;\n"
          "for i in 0..64 { sum += back[i]; }\nsum")
expect("3i+1 summed", r["value"], str(sum(3 * i + 1 for i in range(64))))

# A runtime error: reported with code null and its span; the input's binding is not kept.
code = "let d = 0;\nlet q = 10 / d;"
r = s.ask(code)
expect("runtime error status", r["status"], "error")
expect("runtime error", [(d["code"], d["message"].startswith("runtime error"))
                         for d in r["diagnostics"]], [(None, True)])
if r["diagnostics"] and r["diagnostics"][0]["spans"]:
    expect("runtime error line", r["diagnostics"][0]["spans"][0]["line_start"], 2)
expect("q not kept", [d["code"] for d in s.ask("q")["diagnostics"]], ["E0100"])

# Bytes JSON must escape: the reply is one line of valid JSON and gives them back exactly.
raw, r = s.raw(json.dumps({"id": "esc", "code": r'println!("tab\tq\"b\\z\0bell\u{7}é✓\r");'})
               .encode())
expect("escaped stdout", r["stdout"], "tab\tq\"b\\z\x00bell\x07é✓\r\n")
expect("one line, control bytes escaped", [b for b in raw[:-1] if b < 0x20], [])
expect("id as a string", r["id"], "esc")

# Malformed requests: an error reply each, and the session goes on.
for line, want_id, why in [
    (b"{nope", None, "the request is not JSON"),
    (b"[1, 2]", None, "a request is a JSON object"),
    (b'{"id": 5}', 5, "the request has no \"code\" string"),
    (b'{"id": 6, "op": "dance", "code": ""}', 6, "unknown \"op\""),
    (b'{"id": 7, "op": "complete", "code": "ab", "cursor": 3}', 7, "\"cursor\" is a byte offset"),
    (b'{"id": 8, "code": "\xff\xfe"}', None, "the request is not JSON"),
]:
    _, r = s.raw(line)
    expect(f"keys of the reply to {line!r}", set(r), EXECUTE_KEYS)
    expect(f"reply to {line!r}", (r["id"], r["status"], len(r["diagnostics"])),
           (want_id, "error", 1))
    if r["diagnostics"]:
        d = r["diagnostics"][0]
        expect(f"diagnostic for {line!r}", (d["code"], d["spans"], d["message"].startswith(why)),
               (None, [], True))
expect("x after malformed requests", s.ask("x")["value"], "20")

# is_complete and complete.
expect("open brace", s.ask("fn f() {\n  1", op="is_complete")["complete"], False)
expect("closed", s.ask("fn f() {\n  1\n}", op="is_complete")["complete"], True)
r = s.ask("let v = lanes::s", op="complete")
expect("lanes::s completions", (r["matches"], r["cursor_start"], r["cursor_end"]),
       (["lanes::sort", "lanes::sum", "lanes::sum_unordered"], 8, 16))
s.ask("let grid_size = 3;")
r = s.ask("grid_s + 1", op="complete", cursor=6)
expect("a binding completed", (r["matches"], r["cursor_start"], r["cursor_end"]),
       (["grid_size"], 0, 6))

# :type's error is placed in the code: line 2, the column of `nope` on the command's line.
code = "let k = 1;\n:type k + nope"
r = s.ask(code)
spans = [d["spans"][0] for d in r["diagnostics"] if d["spans"]]
at = byte_at(code, "nope")
expect(":type error span", [(sp["line_start"], sp["column_start"], sp["byte_start"])
                            for sp in spans], [(*line_col(code, at), at)])

# SIGINT between requests changes nothing.
s.p.send_signal(signal.SIGINT)
time.sleep(0.2)
expect("after SIGINT at idle", s.ask("x")["value"], "20")

# .uir inputs (:uir mode, spec/cli.md §7.4) reply as Vx inputs do: a refusal is a diagnostic
# placed in the request's code (line 3, `%zz`), not text on stderr; :check's tables are tables.
code = ":uir\nbuffer %u i32[8]\nprint %zz"
r = s.ask(code)
at = byte_at(code, "%zz")
expect(".uir refusal", (r["status"], r["stderr"], [d["code"] for d in r["diagnostics"]]),
       ("error", "", ["E0100"]))
if r["diagnostics"]:
    span = r["diagnostics"][0]["spans"][0]
    expect(".uir refusal's span", (span["file"], span["byte_start"], span["line_start"],
                                   span["column_start"]), ("<repl>", at, *line_col(code, at)))
r = s.ask("%b = range 2 axis=global\n%t = range 4 axis=local\n%m = mul %b 4\n%i = add %m %t\n"
          "%s = store %u %i %t\n%et = end %s %t\n%eb = end %et %b\n:check\n:vx")
# Element 4b + t: b in 0..2 (largest 1) with coefficient 4, t in 0..4 (largest 3), by hand.
expect(".uir :check tables",
       [(t["store"], t["line"], [(l["level"], l["var"], l["proved"], l["rows"]) for l in t["loops"]])
        for t in r["tables"]],
       [("store %u %i %t", 5, [("global", "%b", True, [["%b", 4, 1, 4], ["%t", 1, 3, 3]]),
                               ("local", "%t", True, [["%t", 1, 3, 3]])])])

# SIGINT during a run.
if INTERRUPT_STOPS_INPUT:
    s.ask("let mut n = 0;")
    s.p.stdin.write(json.dumps({"id": "long", "code": "while n >= 0 { n = (n + 1) % 1000; }"})
                    .encode() + b"\n")
    s.p.stdin.flush()
    time.sleep(1.0)
    s.p.send_signal(signal.SIGINT)
    r = json.loads(s.p.stdout.readline())
    expect("interrupted run", (r["id"], r["status"]), ("long", "interrupted"))
    expect("n as before the interrupted input", s.ask("n")["value"], "0")
    expect("x still", s.ask("x")["value"], "20")
else:
    print("NOT CHECKED: a SIGINT stops the running input with status \"interrupted\" "
          "(INTERRUPT_STOPS_INPUT is False until the repl branch's SIGINT work is merged)")
    # What holds now: a SIGINT during a run does not end vx; the input runs to its end.
    s.p.stdin.write(json.dumps({"id": "run", "code": "let mut m = 0;\n"
                                "for i in 0..3000000 { m = (m + i) % 7; }\nm"}).encode() + b"\n")
    s.p.stdin.flush()
    time.sleep(0.3)
    s.p.send_signal(signal.SIGINT)
    r = json.loads(s.p.stdout.readline())
    m = 0
    for i in range(3000000):
        m = (m + i) % 7
    expect("run under SIGINT", (r["id"], r["status"], r["value"]), ("run", "ok", str(m)))

# :quit: its reply, then the end, exit status 0.
r = s.ask(":quit")
expect(":quit status", r["status"], "ok")
expect("exit status after :quit", s.p.wait(timeout=10), 0)
expect("nothing after the last reply", s.p.stdout.read(), b"")

# A machine file that cannot be read: no reply, the reason on stderr, status 2.
p = subprocess.run([VX, "repl", "--protocol=jsonl", "--machine", "/nonexistent/m.vx"],
                   input=b'{"id": 1, "code": "1"}\n', capture_output=True, timeout=60)
expect("bad machine: status, stdout", (p.returncode, p.stdout), (2, b""))
expect("bad machine: says why", b"machine" in p.stderr, True)

finish()
