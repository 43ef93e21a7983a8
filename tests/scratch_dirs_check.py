#!/usr/bin/env python3
"""No Python test leaves its temporary files behind. Twenty-two tests called tempfile.mkdtemp and
never removed the folder, so each run of the suite left as many folders in /tmp (the notebook's
held a whole Jupyter profile). checks.scratch_dir makes a folder that is removed when the test
exits; a temporary file that outlives its `with` (delete=False) goes in such a folder.

usage: scratch_dirs_check.py REPO_ROOT
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import lint_sources  # noqa: E402

FORBIDDEN = [
    (re.compile(r"\b(tempfile\.)?mkdtemp\s*\("), "mkdtemp leaves the folder: use checks.scratch_dir"),
    (re.compile(r"\bmkstemp\s*\("), "mkstemp leaves the file: make it in a checks.scratch_dir"),
    (re.compile(r"NamedTemporaryFile\((?![^)]*\bdir=)[^)]*delete\s*=\s*False"),
     "a temporary file kept after its `with`: make it with dir= a checks.scratch_dir"),
]

# The patterns themselves, on lines they must and must not flag: a check that cannot fail is none.
MUST_FLAG = ['tmp = tempfile.mkdtemp(prefix="vx_call_")', "state = tempfile.mkdtemp()",
             "fd, path = tempfile.mkstemp(suffix='.vx')",
             'with tempfile.NamedTemporaryFile("w", suffix=".vx", delete=False) as f:']
MUST_PASS = ['tmp = scratch_dir(prefix="vx_call_")', "with tempfile.TemporaryDirectory() as d:",
             'with tempfile.NamedTemporaryFile("w", suffix=".vx", dir=TMP, delete=False) as f:',
             "with tempfile.NamedTemporaryFile('w') as f:"]


def flags(line):
    code = line.split("#", 1)[0]
    return [why for pattern, why in FORBIDDEN if pattern.search(code)]


lint_sources("scratch_dirs", sys.argv[1], flags, MUST_FLAG, MUST_PASS,
             allowed=("tests/checks.py", "tests/scratch_dirs_check.py"), folder="tests", suffixes=(".py",))
