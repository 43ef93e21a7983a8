#!/usr/bin/env python3
"""dead_code of structs, fields and consts (spec/errors.md, "Warnings") against a model.

Each program declares a few structs (`pub` now and then, fields of `i32` and `[i32; 2]`, `pub`
now and then) and uses them at random: a struct literal in a function or in a `pub fn` that
returns it, a `pub fn` that takes one, or nothing; then on a constructed one, reads of fields,
`=` and `op=` assignments, assignments of an element of an array field, reads of an element, and
`{:?}` prints of the whole. It declares a few consts (`pub` now and then), each made of a literal
or of an earlier const, and prints some of them. Each use lies in one of five functions: `main`,
`live1` that `main` calls, `live2` that `live1` calls, `dead1` that nothing calls and `dead2`
that only `dead1` calls. The model keeps, from what it wrote, which structs were constructed,
which fields were read (an assignment of a field does not read it; an element's does; a print
and a `pub fn` read all) and which consts were named, in the functions that `main` reaches only,
and the consts those name (a `pub` const counts as named). vx check must report exactly: "function
`dead1` is never used" and the same of `dead2`, "constant `C` is never used" for each const not
named, "struct `S` is never constructed" at the struct's line for each one not `pub` and not
constructed, and for each other one not `pub`, its fields not `pub` that were not read, listed as
rustc lists them, at the first one's line.

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


HOMES = ["main", "live1", "live2", "dead1", "dead2"]
WEIGHTS = [5, 2, 2, 1, 1]  # of a use's function
LIVE = {"main", "live1", "live2"}


def program(r):
    """The text, and the dead_code warnings the model expects as {line: message}."""
    lines, expected = [], {}
    structs, consts = [], []
    for k in range(r.randint(1, 4)):
        name = f"S{k}"
        fields = [(f"f{j}", r.choice(["int", "int", "arr"]), r.random() < 0.1)
                  for j in range(r.randint(1, 4))]
        structs.append({"name": name, "pub": r.random() < 0.1, "fields": fields, "line": {},
                        "made": False, "read": set()})
    for k in range(r.randint(0, 3)):
        # A const's value names an earlier const now and then: it is named when this one is.
        names = [c["name"] for c in consts] if consts and r.random() < 0.4 else []
        consts.append({"name": f"C{k}", "pub": r.random() < 0.1, "line": len(lines) + 1,
                       "names": names[-1:]})
        value = f"{names[-1]} + 1" if names else str(k + 10)
        lines.append(("pub " if consts[-1]["pub"] else "") + f"const C{k}: i32 = {value};")
    for s in structs:
        s["decl"] = len(lines) + 1
        lines.append(("pub " if s["pub"] else "") + f"struct {s['name']} {{")
        for f, t, pub in s["fields"]:
            s["line"][f] = len(lines) + 1
            lines.append(f"    {'pub ' if pub else ''}{f}: {'[i32; 2]' if t == 'arr' else 'i32'},")
        lines.append("}")
    body = {h: [] for h in HOMES}
    named = set()  # the consts that a live function names
    for c in consts:
        if r.random() < 0.8:
            home = r.choices(HOMES, WEIGHTS)[0]
            body[home].append(f"    println!(\"{{}}\", {c['name']});")
            if home in LIVE:
                named.add(c["name"])
    for s in structs:
        name, fields = s["name"], s["fields"]
        how = r.choices(["here", "make", "take", "none"], [6, 1, 1, 2])[0]
        if how == "take":  # the caller makes it and reads it
            lines.append(f"pub fn take_{name}(_v: {name}) -> i32 {{ 0 }}")
            s["made"] = True
            s["read"] |= {f for f, _, _ in fields}
            continue
        if how == "none":
            continue
        home = r.choices(HOMES, WEIGHTS)[0]
        live = home in LIVE
        out = body[home]
        var = "v" + name
        if how == "make":
            lines.append(f"pub fn make_{name}() -> {name} {{ {literal(name, fields)} }}")
            s["read"] |= {f for f, _, _ in fields}  # the caller reads what it returns
            s["made"] = True  # in a `pub fn`, which the code that calls the program reaches
            out.append(f"    let mut {var} = make_{name}();")
        else:
            out.append(f"    let mut {var} = {literal(name, fields)};")
            s["made"] = s["made"] or live
        for _ in range(r.randint(0, 5)):
            f, t, _ = r.choice(fields)
            op = r.choice(["read", "assign", "compound", "element", "element_read", "print"])
            reads = set()
            if op == "read":
                out.append(f"    println!(\"{{:?}}\", {var}.{f});")
                reads = {f}
            elif op == "assign":
                out.append(f"    {var}.{f} = {'[5, 6]' if t == 'arr' else '5'};")
            elif op == "compound" and t == "int":
                out.append(f"    {var}.{f} += 2;")
            elif op == "element" and t == "arr":
                out.append(f"    {var}.{f}[1] = 9;")
                reads = {f}
            elif op == "element_read" and t == "arr":
                out.append(f"    println!(\"{{}}\", {var}.{f}[0] + 1);")
                reads = {f}
            elif op == "print":
                out.append(f"    println!(\"{{:?}}\", {var});")
                reads = {f for f, _, _ in fields}
            if live:
                s["read"] |= reads
    calls = {"main": "live1", "live1": "live2", "dead1": "dead2"}
    for home in reversed(HOMES):
        if home in calls:
            body[home].append(f"    {calls[home]}();")
        if home.startswith("dead"):
            expected[len(lines) + 1] = f"function `{home}` is never used"
        lines.append(f"fn {home}() {{")
        lines += body[home]
        lines.append("}")
    todo = list(named) + [c["name"] for c in consts if c["pub"]]
    by_name = {c["name"]: c for c in consts}
    while todo:  # a const that a named one names is named
        n = todo.pop()
        todo += [m for m in by_name[n]["names"] if m not in named]
        named.add(n)
    for c in consts:
        if c["name"] not in named:
            expected[c["line"]] = f"constant `{c['name']}` is never used"
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


counts = {"constructed": 0, "read": 0, "const": 0, "clean": 0}
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
    kinds = {"constructed" if "constructed" in m else "const" if "constant" in m else "read"
             for m in expected.values() if "function" not in m}
    for kind in kinds:
        counts[kind] += 1
    counts["clean"] += not kinds
print(f"dead_struct_model: {PROGRAMS} programs: {counts['constructed']} with a struct never "
      f"constructed, {counts['read']} with fields never read, {counts['const']} with a const "
      f"never used, {counts['clean']} with none")
for what, n in counts.items():
    if n < PROGRAMS // 10:
        checks.fail(f"only {n} programs {what}: the draw tests less than it says")
checks.finish()
