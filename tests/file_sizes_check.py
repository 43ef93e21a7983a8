#!/usr/bin/env python3
"""No file of src/ is over 1,000 lines (STYLE.md: one pass or component per file, under about
1,000 lines; issue 36). A file that grows past it is split by job, as emit_cuda.cpp,
repl/session.cpp and check/checker.cpp were, rather than let grow.

usage: file_sizes_check.py REPO_ROOT
"""
import os
import sys

LIMIT = 1000

root = sys.argv[1]
failures, files = [], 0
for base, _, names in sorted(os.walk(os.path.join(root, "src"))):
    for name in sorted(names):
        path = os.path.join(base, name)
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = sum(1 for _ in f)
        files += 1
        if lines > LIMIT:
            failures.append("%s: %d lines, over %d: split it by job"
                            % (os.path.relpath(path, root), lines, LIMIT))
for f in failures:
    print("FAIL: " + f)
print("file_sizes: %d files, %d over %d lines" % (files, len(failures), LIMIT))
sys.exit(1 if failures else 0)
