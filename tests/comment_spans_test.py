#!/usr/bin/python3
"""Comments never move a diagnostic (issue 35, the class of "a syntax error after a comment is
placed on the comment"): for every refused program of the corpus (`//~ ERROR`), a block comment
is inserted before each token of the line its first error points at, and of the line before it.
The first error must keep its code and its place: the same line, and the same column unless the
comment went in before it on that line (then the column moves by the comment's length).

Usage: comment_spans_test.py VX CORPUS_DIR
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

VX, CORPUS = sys.argv[1], sys.argv[2]
COMMENT = "/* c */ "


def first_error(path):
    p = subprocess.run([VX, "check", "--error-format=json", path], capture_output=True, text=True,
                       timeout=60)
    for line in p.stderr.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("level") == "error" and d.get("code"):
            span = next((s for s in d.get("spans", []) if s.get("is_primary")), None)
            if span:
                return d["code"], span["line_start"], span["column_start"]
    return None


def token_starts(line):
    """Columns (0-based) where a token starts after white space, outside strings, chars and
    comments: a comment there cannot split a token."""
    out, in_str, k = [], None, 0
    while k < len(line):
        c = line[k]
        if in_str:
            if c == "\\":
                k += 2
                continue
            if c == in_str:
                in_str = None
        elif line.startswith("//", k) or line.startswith("/*", k):
            break
        elif c in "\"'":
            if k == 0 or line[k - 1] in " \t":
                out.append(k)
            in_str = c if c == '"' else None  # a char literal is short: no scan needed
        elif c not in " \t" and (k == 0 or line[k - 1] in " \t"):
            out.append(k)
        k += 1
    return out


def check_one(job):
    out, code, line, want_col, where = job
    got = first_error(out)
    if got != (code, line, want_col):
        return "%s moves %s %d:%d to %s" % (where, code, line, want_col, got)
    return None


def main():
    failures, runs, programs, jobs = [], 0, 0, []
    files = []
    for root, _, names in os.walk(CORPUS):
        for n in sorted(names):
            if n.endswith(".vx"):
                files.append(os.path.join(root, n))
    with tempfile.TemporaryDirectory(prefix="vx_comments_") as tmp:
        for path in sorted(files):
            try:
                text = open(path, encoding="utf-8").read()
            except UnicodeDecodeError:  # a program about bad bytes: no columns to compare
                continue
            if "//~ ERROR" not in text or "run-flags" in text:
                continue
            base = first_error(path)
            if not base:
                continue
            programs += 1
            code, line, col = base
            lines = text.split("\n")
            for target in (line - 1, line - 2):  # 0-based: its line and the one before
                if target < 0 or target >= len(lines):
                    continue
                for start in token_starts(lines[target]):
                    changed = list(lines)
                    changed[target] = lines[target][:start] + COMMENT + lines[target][start:]
                    runs += 1
                    out = os.path.join(tmp, "%d_%s" % (runs, os.path.basename(path)))
                    with open(out, "w", encoding="utf-8") as f:
                        f.write("\n".join(changed))
                    want_col = col + (len(COMMENT) if target == line - 1 and start < col else 0)
                    jobs.append((out, code, line, want_col,
                                 "%s: a comment at %d:%d" % (path, target + 1, start + 1)))
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            failures = [f for f in pool.map(check_one, jobs) if f]
    for f in failures[:40]:
        print("FAIL", f)
    print("%d programs, %d insertions" % (programs, runs))
    print("%d passed, %d failed" % (runs - len(failures), len(failures)))
    return 1 if failures or programs < 100 else 0


if __name__ == "__main__":
    sys.exit(main())
