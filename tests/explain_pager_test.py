#!/usr/bin/python3
"""`vx explain CODE` on a terminal and piped (spec/cli.md §8, issue 39), and the rule E6032's
human message names (spec/kernel-rules.md).

  - piped, the entry is spec/errors.md's Markdown as it is (its `### E6032` section);
  - on a terminal (a pseudo-terminal), the text goes through $PAGER (here a script that marks
    what it was given), laid out: no `**`, no fences, no `//~` markers, the fenced code indented
    by four columns, every line within the terminal's 80 columns, colour unless NO_COLOR;
  - with a $PAGER that cannot run (exit 127), the text is printed all the same;
  - `vx check` of a refused kernel says which rule of E6032 fired, the rule JSON names.

usage: explain_pager_test.py VX REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, on_terminal  # noqa: E402

VX, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("explain_pager")
fail, expect, finish = checks.fail, checks.expect, checks.finish

# The section as errors.md has it: from `### E6032` to the next heading of level 2 or 3.
errors_md = open(os.path.join(ROOT, "spec", "errors.md"), encoding="utf-8").read()
start = errors_md.index("### E6032")
end = min(i for i in (errors_md.find("\n### ", start + 1), errors_md.find("\n## ", start + 1))
          if i > 0)
section = errors_md[start + 4:end].rstrip("\n") + "\n"

r = subprocess.run([VX, "explain", "E6032"], capture_output=True, text=True)
expect("piped: the Markdown as it is", r.stdout, section)
expect("piped: exit status", r.returncode, 0)

with tempfile.TemporaryDirectory() as d:
    pager = os.path.join(d, "pager")
    with open(pager, "w") as f:
        f.write("#!/bin/sh\necho PAGER-START\ncat\necho PAGER-END\n")
    os.chmod(pager, 0o755)
    env = dict(os.environ, PAGER=pager, TERM="xterm")
    env.pop("NO_COLOR", None)
    for no_color in (True, False):
        if no_color:
            env["NO_COLOR"] = "1"
        else:
            env.pop("NO_COLOR", None)
        status, out = on_terminal([VX, "explain", "E6032"], "stdout", env=env)
        text = out.decode("utf-8", errors="replace").replace("\r\n", "\n")
        what = "on a terminal" + (" with NO_COLOR" if no_color else "")
        expect(f"{what}: exit status", status, 0)
        m = re.search(r"PAGER-START\n(.*)PAGER-END\n", text, re.S)
        if not m:
            fail(f"{what}: the text did not go through $PAGER: {text[:300]!r}")
            continue
        paged = m.group(1)
        plain = re.sub(r"\x1b\[[0-9;]*m", "", paged)
        expect(f"{what}: escapes", "\x1b[" in paged, not no_color)
        expect(f"{what}: the first line, the heading", plain.split("\n")[0],
               section.split("\n")[0])
        for raw in ("**", "```", "//~", "](", "### "):
            if raw in plain:
                fail(f"{what}: raw Markdown `{raw}` in the laid-out text")
        long = [l for l in plain.split("\n") if len(l) > 80]
        if long:
            fail(f"{what}: lines past 80 columns: {long[:2]}")
        # The first example's first line, indented by four columns.
        code = re.search(r"```vx\n(.*?)\n", section).group(1)
        expect(f"{what}: the code block indented", ("\n    " + code + "\n") in plain, True)
    # A pager that cannot run: the text is printed.
    env = dict(os.environ, PAGER=os.path.join(d, "no-such-pager"), TERM="xterm", NO_COLOR="1")
    status, out = on_terminal([VX, "explain", "E6032"], "stdout", env=env)
    text = out.decode("utf-8", errors="replace")
    expect("a pager that cannot run: the text printed", section.split("\n")[0] in text, True)

# The human E6032 names its rule: the same id as the JSON's "rule".
program = os.path.join(ROOT, "conformance", "kernel_rules", "lesson_coefficient_8.vx")
human = subprocess.run([VX, "check", program, "--color=never"], capture_output=True, text=True)
js = subprocess.run([VX, "check", program, "--error-format=json"], capture_output=True, text=True)
rules = [json.loads(l).get("rule") for l in js.stdout.splitlines() + js.stderr.splitlines()
         if l.startswith("{") and json.loads(l).get("code") == "E6032"]
expect("the JSON's rule", rules, ["mixed-radix"])
expect("the human message names the rule",
       "= note: the kernel rule broken: `mixed-radix` (`vx explain E6032` explains each rule)\n"
       in human.stderr, True)
finish()
