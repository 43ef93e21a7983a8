#!/usr/bin/env python3
"""Deep and wide JSON on every surface that reads JSON (issue 35 items 3 and 4; spec/cli.md §2.1,
§7.7): support/json_input.cpp refuses arrays and objects nested deeper than 512 before
nlohmann::json builds them, whose recursive copy overflowed the stack (SIGSEGV) at 100,000.

- `vx diff A.json B.json`: a binding's `value` nested 100,000 deep (a 200 KB file), and so deep
  that the document nests 511, 512 and 513 levels: exit status 2 with a message that names the
  limit past it, 0 (the documents agree) up to it; never a signal. Brackets inside a string, and
  after an escaped quote in it, do not nest. A wide document (a tensor of 300,000 elements,
  20,000 bindings) is read.
- `vx repl --protocol=jsonl`: a request whose `id`, or `op`, nests 100,000 deep, and an `id` at
  the limit and one past it: the reply is an error with a null id and one diagnostic that names
  the limit; an `id` at the limit is echoed whole; an `op` of 9 MB, which the reply quotes twice,
  is an unknown op; the session answers the next request and exits with 0 at the end of its input.

The documents and requests are written here; what vx must answer is worked out from the limit,
not taken from vx.

usage: json_depth_test.py VX
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
LIMIT = 512  # kMaxJsonDepth (src/support/json_input.hpp), stated in spec/cli.md §2.1 and §7.7
failures = []
tmp = scratch_dir(prefix="vx_json_depth_")


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def nested(depth, inner="1"):
    """`inner` inside `depth` arrays, as text (json.dumps would recurse that deep itself)."""
    return "[" * depth + inner + "]" * depth


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def diff(a, b):
    return subprocess.run([VX, "diff", a, b], capture_output=True, text=True, timeout=60)


# A document of one i32 binding whose `value` nests `depth` arrays: the document itself adds 3
# levels (the object, `bindings`, the binding's object).
def deep_doc(depth):
    return ('{"vx_values": 1, "file": "x.vx", "bindings": [{"name": "n", "type": "i32", '
            '"value": ' + nested(depth, '"1"') + '}]}')


TOO_DEEP = f"nested deeper than {LIMIT} arrays and objects"
for total in (100_000, LIMIT - 1, LIMIT, LIMIT + 1):
    path = write(f"deep_{total}.json", deep_doc(total - 3))
    r = diff(path, path)
    where = f"vx diff of a document nested {total} deep"
    if r.returncode < 0:
        fail(f"{where}: killed by signal {-r.returncode}")
    elif total > LIMIT:
        want = f"`{path}` is not a values document (spec/values.schema.json): {TOO_DEEP}"
        if r.returncode != 2 or want not in r.stderr or r.stdout:
            fail(f"{where}: want exit 2 and {want!r}, got {r.returncode} {r.stderr[:300]!r}")
    elif r.returncode != 0 or r.stdout or r.stderr:
        fail(f"{where}: want exit 0 and nothing (it agrees with itself), got {r.returncode} "
             f"{r.stdout[:200]!r} {r.stderr[:300]!r}")
if os.path.getsize(os.path.join(tmp, "deep_100000.json")) < 200_000:
    fail("the deep document is not the 200 KB of the report")

# The same deep value in one file only: the other file is named, the deep one refused first.
shallow = write("shallow.json", deep_doc(1))
r = diff(shallow, os.path.join(tmp, "deep_100000.json"))
if r.returncode != 2 or TOO_DEEP not in r.stderr:
    fail(f"vx diff of a shallow and a deep document: want 2 and the limit, got {r.returncode} "
         f"{r.stderr[:300]!r}")

# Brackets in strings do not nest, escaped quotes included: 100,000 `[` in a name, and a name
# `\"[[[…` whose quote is escaped.
for name, text in (("brackets", "[" * 100_000), ("escaped", '\\"' + "[" * 100_000 + '\\\\')):
    doc = ('{"vx_values": 1, "file": "x.vx", "bindings": [{"name": "' + text +
           '", "type": "i32", "value": "1"}]}')
    path = write(f"string_{name}.json", doc)
    r = diff(path, path)
    if r.returncode != 0:
        fail(f"vx diff of a document with {name} in a string: want 0, got {r.returncode} "
             f"{r.stderr[:300]!r}")

# Wide: a tensor of 300,000 elements and 20,000 scalar bindings, one element apart.
n = 300_000
tensor = {"name": "t", "type": "i32", "shape": [n], "memory": "CPU_DRAM",
          "values": [str(i % 97) for i in range(n)]}
scalars = [{"name": f"s{i}", "type": "u8", "value": str(i % 256)} for i in range(20_000)]
a = write("wide_a.json", json.dumps({"vx_values": 1, "bindings": [tensor] + scalars}))
tensor["values"][n - 1] = "-1"
b = write("wide_b.json", json.dumps({"vx_values": 1, "bindings": [tensor] + scalars}))
r = diff(a, b)
want = (f"`t`[{n - 1}]: {(n - 1) % 97} in {a}, -1 in {b}\n"
        f"`t`: 1 of {n} elements differ\n")
if r.returncode != 1 or r.stdout != want:
    fail(f"vx diff of wide documents: want 1 {want!r}, got {r.returncode} {r.stdout[:300]!r} "
         f"{r.stderr[:300]!r}")


# ---- vx repl --protocol=jsonl ---------------------------------------------------------------------

def session(lines):
    r = subprocess.run([VX, "repl", "--protocol=jsonl", "--offload=off"],
                       input="".join(line + "\n" for line in lines), capture_output=True,
                       text=True, timeout=120)
    replies = []
    for line in r.stdout.splitlines():
        try:
            replies.append(json.loads(line))
        except ValueError:
            fail(f"a reply that is not JSON: {line[:200]!r}")
    return r, replies


# A request object holding an `id` (or `op`) of `depth` arrays nests depth + 1.
requests = [
    ('{"id": ' + nested(100_000) + ', "code": "1"}', "an id nested 100,000 deep", False),
    ('{"op": ' + nested(100_000, '"execute"') + ', "code": "1"}', "an op nested 100,000 deep",
     False),
    ('{"id": ' + nested(LIMIT) + ', "code": "1"}', f"an id nesting the request {LIMIT + 1} deep",
     False),
    ('{"id": ' + nested(LIMIT - 1) + ', "code": "1"}', f"an id nesting the request {LIMIT} deep",
     True),
]
# Wide: an `op` of 9 MB, which the reply quotes twice (in the message and in its rendering), past
# the 16 MiB of a request: once an internal error.
requests.append(('{"op": "' + "x" * 9_000_000 + '", "code": "1"}', "an op of 9 MB", False))
r, replies = session([text for text, _, _ in requests] + ['{"id": "last", "code": "40 + 2"}'])
if r.returncode != 0:
    fail(f"the jsonl session: want exit 0, got {r.returncode} (signal {-r.returncode}) "
         f"{r.stderr[-300:]!r}")
if len(replies) != len(requests) + 1:
    fail(f"the jsonl session: want {len(requests) + 1} replies, got {len(replies)}")
else:
    for (text, what, served), reply in zip(requests, replies):
        if served:
            if reply.get("status") != "ok" or reply.get("value") != "1" or \
                    json.dumps(reply.get("id")) != json.dumps(json.loads(text)["id"]):
                fail(f"{what}: want it served and its id echoed whole, got "
                     f"{json.dumps(reply)[:300]}")
            continue
        diags = reply.get("diagnostics", [])
        why = "unknown \"op\" \"xxx" if what == "an op of 9 MB" else "the request is " + TOO_DEEP
        if reply.get("status") != "error" or reply.get("id") is not None or len(diags) != 1 or \
                not diags[0].get("message", "").startswith(why) or \
                diags[0].get("code") is not None or diags[0].get("spans") != []:
            fail(f"{what}: want an error reply, id null, one diagnostic naming the limit; got "
                 f"{json.dumps(reply)[:400]}")
    last = replies[-1]
    if last.get("id") != "last" or last.get("value") != "42":
        fail(f"the request after the deep ones: want id \"last\" and 42, got {json.dumps(last)}")

print(f"json_depth: {len(failures)} failures")
sys.exit(1 if failures else 0)
