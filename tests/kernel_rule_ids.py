#!/usr/bin/env python3
"""The ids of the kernel rules (E6032, spec/kernel-rules.md; src/rules/kernel_rules.def).

Checks that spec/errors.md's E6032 section lists exactly the rules of kernel_rules.def, in its
order and with its sections; that `vx explain ID` prints each one's item; that every E6032 diagnostic that `vx check --error-format=json`
reports for the corpus (conformance/, every .vx and .uir with an E6032 marker, with the run-flags
of its header) carries a `"rule"` from that table; and that every rule is reported by at least one
corpus program. Fails (never skips) when a part is missing.

usage: kernel_rule_ids.py VX REPO_ROOT
"""
import json
import os
import re
import shlex
import subprocess
import sys

VX, ROOT = sys.argv[1], sys.argv[2]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


table = re.findall(r'^VX_KERNEL_RULE\(\w+, "([a-z0-9-]+)", "(§[0-9.]+)"\)',
                   open(os.path.join(ROOT, "src/rules/kernel_rules.def"), encoding="utf-8").read(),
                   re.M)
if len(table) < 20:
    fail("kernel_rules.def: %d rules read, expected at least 20" % len(table))
ids = [t[0] for t in table]

errors_md = open(os.path.join(ROOT, "spec/errors.md"), encoding="utf-8").read()
section = errors_md[errors_md.index("### E6032"):]
section = section[:section.index("\n### ", 1)]
listed = re.findall(r"^- `([a-z0-9-]+)` \((§[0-9.]+)\): ", section, re.M)
if listed != table:
    fail("spec/errors.md E6032 lists %s, kernel_rules.def has %s" % (listed, table))

# `vx explain ID` prints the rule's item (spec/cli.md §8).
for rule_id, sec in table:
    r = subprocess.run([VX, "explain", rule_id], capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.startswith("E6032, kernel rule `%s` (%s): " % (rule_id, sec)):
        fail("vx explain %s: exit %d, printed %r" % (rule_id, r.returncode, r.stdout[:120]))

seen = {}
programs = 0
for root, dirs, files in os.walk(os.path.join(ROOT, "conformance")):
    dirs.sort()
    for f in sorted(files):
        if not (f.endswith(".vx") or f.endswith(".uir")):
            continue
        path = os.path.join(root, f)
        text = open(path, encoding="utf-8", errors="replace").read()
        comment = "#" if f.endswith(".uir") else "//"
        if comment + "~ ERROR E6032" not in text and comment + "~^ ERROR E6032" not in text:
            continue
        programs += 1
        flags = []
        for line in text.split("\n"):
            if not line.startswith(comment) and line.strip():
                break
            m = re.match(re.escape(comment) + r"\s*run-flags:(.*)", line)
            if m:
                flags += shlex.split(m.group(1))
        r = subprocess.run([VX, "check", "--error-format=json"] + flags + [path],
                           capture_output=True, text=True, cwd=ROOT)
        got = [json.loads(l) for l in r.stderr.splitlines() if l.startswith("{")]
        kernel = [d for d in got if d.get("code") == "E6032"]
        if not kernel:
            fail("%s: no E6032 under --error-format=json (exit %d)" % (path, r.returncode))
        for d in kernel:
            rule = d.get("rule")
            if rule not in ids:
                fail("%s: E6032 `%s` has rule %r, not an id of kernel_rules.def"
                     % (path, d["message"], rule))
            else:
                seen.setdefault(rule, path)
        for d in got:
            if d.get("code") != "E6032" and "rule" in d:
                fail("%s: %s carries a rule" % (path, d.get("code")))

missing = [i for i in ids if i not in seen]
if missing:
    fail("no corpus program is refused by the rule(s) %s" % ", ".join(missing))
print("kernel rule ids: %d rules, %d corpus programs, %d rules reported" %
      (len(ids), programs, len(seen)))
sys.exit(1 if failures else 0)
