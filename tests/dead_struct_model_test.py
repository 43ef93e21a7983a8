#!/usr/bin/env python3
"""dead_code of structs and fields (spec/errors.md, "Warnings") against a model.

Each program declares a few structs (`pub` now and then, fields of `i32` and `[i32; 2]`, `pub`
now and then) and uses them at random: a struct literal in `main` or in a `pub fn` that returns
it, a `pub fn` that takes one, or nothing; then on a constructed one, reads of fields, `=` and
`op=` assignments, assignments of an element of an array field, reads of an element, and `{:?}`
prints of the whole. The model keeps, from what it wrote, which structs were constructed and
which fields were read (an assignment of a field does not read it; an element's does; a print
and a `pub fn` read all). vx check must report exactly: "struct `S` is never constructed" at
the struct's line for each one not `pub` and not constructed, and for each other one not `pub`,
its fields not `pub` that were not read, listed as rustc lists them, at the first one's line.

usage: dead_struct_model_test.py VX [--programs N] [--seed S]
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, int_option, json_diagnostics, run, scratch_dir  # noqa: E402

VX = os.path.abspath(sys.argv[1])
PROGRAMS = int_option("--programs", 150)
SEED = int_option("--seed", 1)
checks = Checks("dead_struct_model")
tmp = scratch_dir(prefix="vx_dead_struct_")


def listed(names):
    quoted = [f"`{n}`" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + ", and " + quoted[-1]


def literal(name, fields):
    return name + " { " + ", ".join(f"{f}: {'[1, 2]' if t == 'arr' else '3'}" for f, t, _ in fields) + " }"


def program(r):
    """The text, and the dead_code warnings the model expects as {line: message}."""
    lines, expected = [], {}
    structs = []
    for k in range(r.randint(1, 4)):
        name = f"S{k}"
        fields = [(f"f{j}", r.choice(["int", "int", "arr"]), r.random() < 0.1)
                  for j in range(r.randint(1, 4))]
        structs.append({"name": name, "pub": r.random() < 0.1, "fields": fields, "line": {},
                        "made": False, "read": set()})
    for s in structs:
        s["decl"] = len(lines) + 1
        lines.append(("pub " if s["pub"] else "") + f"struct {s['name']} {{")
        for f, t, pub in s["fields"]:
            s["line"][f] = len(lines) + 1
            lines.append(f"    {'pub ' if pub else ''}{f}: {'[i32; 2]' if t == 'arr' else 'i32'},")
        lines.append("}")
    body = []
    for s in structs:
        name, fields = s["name"], s["fields"]
        how = r.choices(["main", "make", "take", "none"], [6, 1, 1, 2])[0]
        if how == "take":  # the caller makes it and reads it
            lines.append(f"pub fn take_{name}(_v: {name}) -> i32 {{ 0 }}")
            s["made"] = True
            s["read"] |= {f for f, _, _ in fields}
            continue
        if how == "none":
            continue
        var = "v" + name
        if how == "make":
            lines.append(f"pub fn make_{name}() -> {name} {{ {literal(name, fields)} }}")
            s["read"] |= {f for f, _, _ in fields}  # the caller reads what it returns
            body.append(f"    let mut {var} = make_{name}();")
        else:
            body.append(f"    let mut {var} = {literal(name, fields)};")
        s["made"] = True
        for _ in range(r.randint(0, 5)):
            f, t, _ = r.choice(fields)
            op = r.choice(["read", "assign", "compound", "element", "element_read", "print"])
            if op == "read":
                body.append(f"    println!(\"{{:?}}\", {var}.{f});")
                s["read"].add(f)
            elif op == "assign":
                body.append(f"    {var}.{f} = {'[5, 6]' if t == 'arr' else '5'};")
            elif op == "compound" and t == "int":
                body.append(f"    {var}.{f} += 2;")
            elif op == "element" and t == "arr":
                body.append(f"    {var}.{f}[1] = 9;")
                s["read"].add(f)
            elif op == "element_read" and t == "arr":
                body.append(f"    println!(\"{{}}\", {var}.{f}[0] + 1);")
                s["read"].add(f)
            elif op == "print":
                body.append(f"    println!(\"{{:?}}\", {var});")
                s["read"] |= {f for f, _, _ in fields}
    lines.append("fn main() {")
    lines += body
    lines.append("}")
    for s in structs:
        if s["pub"]:
            continue
        if not s["made"]:
            expected[s["decl"]] = f"struct `{s['name']}` is never constructed"
            continue
        unread = [f for f, _, pub in s["fields"] if not pub and f not in s["read"]]
        if unread:
            many = len(unread) > 1
            expected[s["line"][unread[0]]] = (f"field{'s' if many else ''} {listed(unread)} "
                                              f"{'are' if many else 'is'} never read")
    return "\n".join(lines) + "\n", expected


counts = {"constructed": 0, "read": 0, "clean": 0}
for i in range(PROGRAMS):
    seed = SEED * 1_000_003 + i
    text, expected = program(random.Random(seed))
    path = os.path.join(tmp, f"structs{seed}.vx")
    with open(path, "w") as f:
        f.write(text)
    p = run([VX, "check", "--error-format=json", path])
    got = {}
    for d, s in json_diagnostics(p.stderr):
        if d["level"] == "error":
            checks.fail(f"{path}: refused: {d['message']}\n{text}")
        if d.get("lint") == "dead_code":
            got[s["line_start"]] = d["message"]
    if got != expected:
        checks.fail(f"seed {seed}: vx {got}, model {expected}\n{text}")
    for message in expected.values():
        counts["constructed" if "constructed" in message else "read"] += 1
    counts["clean"] += not expected
print(f"dead_struct_model: {PROGRAMS} programs: {counts['constructed']} never constructed, "
      f"{counts['read']} with fields never read, {counts['clean']} without either")
for what, n in counts.items():
    if n < PROGRAMS // 10:
        checks.fail(f"only {n} programs {what}: the draw tests less than it says")
checks.finish()
