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

Nor one that reads bad text as a number without telling: `std::atoi("abc")` is 0, and
VX_OFFLOAD_THRESHOLD=abc put every region on the GPU at once (a usage error now). std::from_chars,
or strtol with its end pointer tested, says whether it read a number.

usage: throwing_calls_check.py REPO_ROOT
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import lint_sources  # noqa: E402

FORBIDDEN = [
    (re.compile(r"\bboost::get<[^;]*?>\(\s*(?!&)"), "boost::get of a reference throws bad_get: use ast::must_get"),
    (re.compile(r"\bstd::sto(i|l|ul|ll|ull|f|d|ld)\s*\("), "std::sto* throws on bad text: use std::from_chars"),
    (re.compile(r"\.at\("), "at() throws out_of_range: use must_find"),
    (re.compile(r"\bstd::get<\s*[A-Za-z_]"), "std::get<T> of a variant throws: use std::get_if"),
    (re.compile(r"\b(std::)?ato(i|l|ll|f)\s*\("), "ato* reads bad text as 0 without telling: use std::from_chars"),
]

# The patterns themselves, on lines they must and must not flag: a check that cannot fail is none.
MUST_FLAG = ["const auto& m = boost::get<ast::MethodSuffix>(s);", "idx = std::stoul(name);",
             "x = m.at(k);", "auto& v = std::get<Foo>(var);",
             "f(boost::get<ast::Path>(v.atom));", "n = std::stoi (t);",
             "options_.threshold = std::max(0, std::atoi(t));", "s.flip_at = atol(f);"]
MUST_PASS = ["if (auto* p = boost::get<ast::Path>(&v.atom)) {", "std::get<0>(pair)",
             "const T* p = boost::get<T>(&v);", "d = at(d + 1, *fs);", "std::from_chars(a, b, n);",
             "const long n = std::strtol(env, &end, 10);", "int format(int n);"]


def flags(line):
    code = line.split("//", 1)[0]
    return [why for pattern, why in FORBIDDEN if pattern.search(code)]


lint_sources("throwing_calls", sys.argv[1], flags, MUST_FLAG, MUST_PASS)
