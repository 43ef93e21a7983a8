#!/usr/bin/env python3
"""No function of src/ that nothing calls (issue 36: remove the functions nothing calls). A
function declared in a header of src/ and defined in a source file, whose name appears nowhere
else in the repository's C++, Python bindings or playground code, is dead: a refactor left it
behind (request_interrupt, UirSession::has_kernel, device_kind_name and copy_engine_name had been).
The check counts the name's whole-word occurrences, so it misses a dead overload of a name that
is used, never the other way round.

usage: unused_functions_check.py REPO_ROOT
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import repo_files  # noqa: E402

SOURCES = (".cpp", ".hpp", ".cc", ".h", ".cuh", ".inc", ".def", ".js", ".mjs", ".ts", ".py")
# A declaration without a body, at the start of a statement: its return type, its name, its
# parameters (one level of parentheses inside), and `;` after the qualifiers. A call statement
# (`f(x);`, `return f(x);`) has no type before the name.
DECLARATION = re.compile(
    r"(?:^|(?<=[;{}])|(?<=public:)|(?<=private:)|(?<=protected:))\s*"
    r"((?:\[\[\w+\]\]\s*)?\w[\w:]*(?:<[^;{}()]*>)?(?:[\s*&]+[\w:]+(?:<[^;{}()]*>)?)*[\s*&]+)"
    r"(\w+)\s*\(((?:[^;{}()]|\([^;{}()]*\))*)\)"
    r"\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:=\s*0\s*)?;", re.M)
NOT_TYPES = {"return", "else", "case", "throw", "new", "delete", "goto", "co_return", "using",
             "typedef", "friend", "namespace"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def declared(header_text):
    """The names of the functions that `header_text` declares without a body."""
    names = set()
    for m in DECLARATION.finditer(strip_comments(header_text)):
        if set(re.findall(r"\w+", m.group(1))) & NOT_TYPES:
            continue
        names.add(m.group(2))
    return names


def unused(headers, everything):
    """The declared names of `headers` ({path: text}) that occur at most twice in `everything`
    (their declaration and their definition). A whole-word occurrence of a name is a maximal run
    of word characters equal to it, so one count of every run serves all the names."""
    words = collections.Counter(re.findall(r"\w+", everything))
    names = set().union(*(declared(t) for t in headers.values())) if headers else set()
    return sorted(n for n in names if words[n] <= 2)


# The check on a header and sources of its own, so that a check that cannot fail fails.
SELF_HEADER = """// says `int ignored(int);` in a comment
int used(int a, const std::vector<int>& v);
inline int calls() { used(1, {}); return called(2); }
inline int pick(bool c) { return c ? 1
                                   : picked(2); }
void dead(Foo (*f)(int), int b);
struct S { bool has_thing() const; virtual void hook() = 0; };
inline int inline_one(int a) { return a + 1; }
"""
SELF_SOURCE = """int used(int a, const std::vector<int>& v) { return a; }
void dead(Foo (*f)(int), int b) {}
bool S::has_thing() const { return true; }
void S::hook() {}
int main() { return used(inline_one(1), {}); }
"""


def main():
    root = sys.argv[1]
    failures = []
    got = unused({"self.hpp": SELF_HEADER}, strip_comments(SELF_HEADER) + SELF_SOURCE)
    if got != ["dead", "has_thing", "hook"]:
        failures.append("the check on its own example finds %s, not dead, has_thing and hook" % got)
    headers, texts = {}, []
    for path, name in repo_files(root):
        if not name.endswith(SOURCES):
            continue
        rel = os.path.relpath(path, root)
        if rel == os.path.join("tests", "unused_functions_check.py"):
            continue  # its own text names the functions it found
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if rel.startswith("src" + os.sep) and name.endswith(".hpp"):
            headers[rel] = text
        texts.append(strip_comments(text) if name.endswith(SOURCES[:7]) else text)
    names = set().union(*(declared(t) for t in headers.values()))
    for name in unused(headers, "\n".join(texts)):
        where = sorted(p for p, t in headers.items() if name in declared(t))
        failures.append("%s: `%s` is declared and defined, and nothing calls it" %
                        (", ".join(where), name))
    for f in failures:
        print("FAIL: " + f)
    print("unused_functions: %d functions declared in %d headers, %d problems" %
          (len(names), len(headers), len(failures)))
    sys.exit(1 if failures else 0)


main()
