#!/usr/bin/env python3
"""No call in src/ that answers bad input with a C++ exception (issue 14: never a crash, never an
exception escaping). Fuzzing found a `boost::get` of a reference that threw bad_get from the
checker (`d.x.abs() = 3.0;`) and a `std::stoul` that threw on `t.x`; each ended the command
without a diagnostic. The checked forms name the broken invariant with its file and line
(support/internal_error.hpp, parse/ast.hpp) or cannot fail:

  boost::get<T>(x)          ast::must_get<T>(x), or boost::get<T>(&x) and a test of the pointer
  std::stoi, std::stoul, …  std::from_chars, whose result says whether it read a number
  m.at(k)                   must_find(m, k)
  std::get<T>(variant)      std::get_if<T>(&variant)

usage: throwing_calls_check.py REPO_ROOT
"""
import os
import re
import sys

FORBIDDEN = [
    (re.compile(r"\bboost::get<[^;]*?>\(\s*(?!&)"), "boost::get of a reference throws bad_get: use ast::must_get"),
    (re.compile(r"\bstd::sto(i|l|ul|ll|ull|f|d|ld)\s*\("), "std::sto* throws on bad text: use std::from_chars"),
    (re.compile(r"\.at\("), "at() throws out_of_range: use must_find"),
    (re.compile(r"\bstd::get<\s*[A-Za-z_]"), "std::get<T> of a variant throws: use std::get_if"),
]

# The patterns themselves, on lines they must and must not flag: a check that cannot fail is none.
MUST_FLAG = ["const auto& m = boost::get<ast::MethodSuffix>(s);", "idx = std::stoul(name);",
             "x = m.at(k);", "auto& v = std::get<Foo>(var);",
             "f(boost::get<ast::Path>(v.atom));", "n = std::stoi (t);"]
MUST_PASS = ["if (auto* p = boost::get<ast::Path>(&v.atom)) {", "std::get<0>(pair)",
             "const T* p = boost::get<T>(&v);", "d = at(d + 1, *fs);", "std::from_chars(a, b, n);"]


def flags(line):
    code = line.split("//", 1)[0]
    return [why for pattern, why in FORBIDDEN if pattern.search(code)]


def main():
    failures = []
    for line in MUST_FLAG:
        if not flags(line):
            failures.append("the check misses `%s`" % line)
    for line in MUST_PASS:
        if flags(line):
            failures.append("the check flags `%s`" % line)
    src = os.path.join(sys.argv[1], "src")
    files = 0
    for base, _, names in sorted(os.walk(src)):
        for name in sorted(names):
            if not name.endswith((".cpp", ".hpp", ".def")):
                continue
            files += 1
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    for why in flags(line):
                        failures.append("%s:%d: %s\n    %s" % (os.path.relpath(path, sys.argv[1]), number,
                                                           why, line.strip()))
    for f in failures:
        print("FAIL: " + f)
    print("throwing_calls: %d files, %d problems" % (files, len(failures)))
    sys.exit(1 if failures else 0)


main()
