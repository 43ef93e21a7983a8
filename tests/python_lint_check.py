#!/usr/bin/env python3
"""Every Python file of the repository is clean under pyflakes (Debian's python3-pyflakes, which
tools/setup installs): no import that nothing uses, no name used where it is not defined, no
variable assigned and never read, no f-string without a placeholder. The files are every `.py`
and every script whose first line runs a python3 (tools/fuzz, tools/smith/campaign, …) among
checks.repo_files: outside .git, build folders and web/node_modules. pyflakes reads `# noqa` as nothing: a probe that only
tests whether a module imports is written `importlib.import_module("distributed")`.

usage: python_lint_check.py REPO_ROOT
"""
import io
import os
import sys

try:
    from pyflakes import api, reporter
except ImportError:
    print("FAIL: pyflakes is missing: install Debian's python3-pyflakes (tools/setup does)")
    sys.exit(1)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import repo_files  # noqa: E402

ROOT = os.path.abspath(sys.argv[1])


def problems(text, name):
    """pyflakes's messages on `text`, one per line."""
    out = io.StringIO()
    api.check(text, name, reporter.Reporter(out, out))
    return [line for line in out.getvalue().splitlines() if line.strip()]


def python_files():
    for path, name in repo_files(ROOT):
        if name.endswith(".py"):
            yield path
        elif "." not in name and os.path.isfile(path):
            with open(path, "rb") as f:
                first = f.readline()
            if first.startswith(b"#!") and b"python3" in first:
                yield path


failures = []
# The check itself, on code it must and must not flag: a check that cannot fail is none.
if len(problems("import os\nimport re\nprint(os.sep, undefined_name)\n", "must_flag.py")) != 2:
    failures.append("pyflakes does not report an unused import and an undefined name")
if problems("import importlib\nimportlib.import_module('json')\n", "must_pass.py"):
    failures.append("pyflakes reports a clean file")
files = 0
for path in python_files():
    files += 1
    with open(path, encoding="utf-8") as f:
        text = f.read()
    failures += problems(text, os.path.relpath(path, ROOT))
for f in failures:
    print("FAIL: " + f)
print("python_lint: %d files, %d problems" % (files, len(failures)))
sys.exit(1 if failures else 0)
