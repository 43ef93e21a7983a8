#!/usr/bin/env python3
"""Every source file of src/ and web/engine/ may share one translation unit with others: the
sanitizer build (tools/test --sanitize), the OSS-Fuzz build (tests/fuzz/oss-fuzz/build.sh) and
the playground's engine (web/wasm.cmake) are unity builds (CMAKE_UNITY_BUILD), which compile
several files as one to save time. That is the same program only where no file's private names
meet another file's:

- A free function that is a source file's own (in an anonymous namespace or `static`; or declared
  in no header, which covers one that is internal without saying so because it takes a type of
  the anonymous namespace) has a name that no free function or using-declaration of another file
  has, in the same namespace or in one around it.
  Two with the same parameters stop the build; two with different ones quietly become overloads,
  and a call in one file may pick the other file's function.
- No using-directive (`using namespace`) at namespace scope: it would reach every file after it.
- Every macro a source file defines, the file (or the .def table it includes) undefines.

The reader follows braces, not C++: a statement at namespace scope whose head ends in a name and
a parameter list is a function. Checked against the compiler once (the closing note of stop 60):
every internal function GCC emits at -O0 for the 117 files of src/ is one this reader finds.

usage: unity_check.py REPO_ROOT
"""
import collections
import os
import re
import sys

FOLDERS = ("src", os.path.join("web", "engine"))
SOURCES = (".cpp", ".hpp", ".h", ".cuh")

LITERAL = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:[^"\\\n]|\\.)*"|'
                     r"'(?:[^'\\\n]|\\.)*'", re.S)
PREPROCESSOR = re.compile(r"^[ \t]*#.*(?:\\\n.*)*", re.M)
# `template <…>`, its parameters nested two deep (`template <template <class> class N>`).
TEMPLATE = r"(?:template\s*<(?:[^<>{};]|<(?:[^<>{};]|<[^<>{};]*>)*>)*>\s*)?"
NOT_FUNCTION = re.compile(TEMPLATE + r"(?:struct|class|union|enum|typedef|friend|namespace)\b")
FUNCTION = re.compile(TEMPLATE + r"(.*?)\b(\w+)\s*\((.*)\)\s*(?:const\s*)?(?:noexcept\s*)?"
                      r"(?:->\s*[^{;]*)?")
USING_DECLARATION = re.compile(r"using\s+((?:\w+::)+)(\w+)")
USING_DIRECTIVE = re.compile(r"using\s+namespace\b")


def blank(m):
    """A comment as spaces (its newlines kept), a string or character literal as `""`."""
    s = m.group(0)
    return re.sub(r"[^\n]", " ", s) if s.startswith(("//", "/*")) else '""'


def read_scopes(text):
    """The namespace-scope statements of C++ `text`: (kind, name, what, namespace, line), kind
    being "function" (a declaration or a definition; what: whether it is internal), "using" (a
    using-declaration; what: the name as it is written, `tir::Expr`) or "directive" (a
    using-directive; what: its text); namespace joined with `::`, without the anonymous one."""
    text = PREPROCESSOR.sub("", LITERAL.sub(blank, text))
    found = []
    scopes = []  # the enclosing namespaces' names, "" for an anonymous one
    start = parens = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == "(":
            parens += 1
        elif c == ")":
            parens -= 1
        elif parens == 0 and c in "{;}":
            head = " ".join(text[start:i].split())
            if c in "{;" and head:
                lead = len(text[start:i]) - len(text[start:i].lstrip())
                line = text.count("\n", 0, start + lead) + 1
                found += statement(head, "" in scopes, "::".join(n for n in scopes if n), line)
            if c == "{":
                m = re.fullmatch(r"(?:inline\s+)?namespace(?:\s+([\w:]+))?", head)
                if m:
                    scopes.append(m.group(1) or "")
                elif re.fullmatch(r'extern\s*""', head):
                    scopes.append(None)  # extern "C" { … }: the namespace around it
                else:  # a body: a function's, a class's, an initializer's
                    depth = 1
                    i += 1
                    while depth and i < len(text):
                        depth += {"{": 1, "}": -1}.get(text[i], 0)
                        i += 1
                    start = i
                    continue
            elif c == "}" and scopes:
                scopes.pop()
            start = i + 1
        i += 1
    return found


def statement(head, anonymous, namespace, line):
    """What the namespace-scope statement `head` (its text up to its `{` or `;`, on one line)
    declares, starting at `line`."""
    if USING_DIRECTIVE.match(head):
        return [("directive", head, head, namespace, line)]
    m = USING_DECLARATION.fullmatch(head)
    if m:
        return [("using", m.group(2), m.group(1) + m.group(2), namespace, line)]
    if NOT_FUNCTION.match(head) or head.startswith("using"):
        return []
    m = FUNCTION.fullmatch(head)
    # Not a variable's initializer (`= f(…)`), an operator, a qualified definition (`X::f`: a
    # member, or a function declared in its namespace) or a statement (`return f(…)`).
    if not m or not m.group(1).strip() or "=" in m.group(1) or "operator" in m.group(1) or \
            m.group(1).rstrip().endswith("::") or re.search(r"\breturn\b", m.group(1)):
        return []
    internal = anonymous or re.search(r"\bstatic\b", m.group(1))
    return [("function", m.group(2), bool(internal), namespace, line)]


def within(a, b):
    """Whether namespace `a` is `b` or inside it: a name of `a` newly seen there hides `b`'s
    from the code of `a` (unqualified lookup stops at the innermost namespace that has the name).
    A name of a namespace around `b` changes nothing for code in `b`, which finds `b`'s first."""
    return a == b or b == "" or a.startswith(b + "::")


def same_entity(a, b):
    """Whether two names (a using-declaration's as written, or a function's with its namespace)
    are one: `tir::Expr` and `vx::tir::Expr`."""
    return a == b or a.endswith("::" + b) or b.endswith("::" + a)


def problems(files, tables):
    """What keeps `files` ({path: text}) from sharing a translation unit; `tables` holds the
    texts of the .def files they include ({path from the root: text})."""
    out = []
    # name -> [(path, line, private to its file, namespace, the entity)]
    names = collections.defaultdict(list)
    functions = []
    for path, text in sorted(files.items()):
        header = not path.endswith(".cpp")  # what every file that includes it sees
        for kind, name, what, namespace, line in read_scopes(text):
            if kind == "directive" and not header:
                out.append("%s:%d: `%s` at namespace scope reaches the files after it in a unity "
                           "build; name what it brings in, or put it in a function" %
                           (path, line, what))
            elif kind == "using":
                names[name].append((path, line, not header, namespace, what))
            elif kind == "function":
                full = (namespace + "::" if namespace else "") + name
                functions.append((path, name, what and not header, namespace, full, line))
        if path.endswith(".cpp"):
            for macro in re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", text, re.M):
                included = re.findall(r'#include "([\w/]+\.def)"', text)
                undefined = "#undef " + macro
                if not re.search(r"^[ \t]*#[ \t]*undef[ \t]+%s\b" % macro, text, re.M) and \
                        not any(undefined in tables.get(os.path.join("src", t), "") for t in included):
                    out.append("%s: `#define %s` is not undefined in the file" % (path, macro))
    # A function a source file defines and no header declares is the file's own as well, and may
    # be internal without saying so (one that takes a type of the anonymous namespace is).
    declared = {f[4] for f in functions if not f[0].endswith(".cpp")}
    for path, name, internal, namespace, full, line in functions:
        private = internal or (path.endswith(".cpp") and full not in declared)
        # A private function is no other file's; any other is its full name.
        names[name].append((path, line, private, namespace, (path + ":" if private else "") + full))
    for name, where in sorted(names.items()):
        for a in where:
            clash = [b for b in where if b[0] != a[0] and within(a[3], b[3]) and
                     not same_entity(a[4], b[4])]
            if a[2] and clash:
                others = ", ".join("%s:%d" % (b[0], b[1]) for b in clash)
                out.append("%s:%d: `%s` (the file's own, in %s) meets the `%s` of %s" %
                           (a[0], a[1], name, a[3] or "the global namespace", name, others))
    return out


# The check on files of its own, so that a check that cannot fail fails.
SELF = {
    "src/a/one.cpp": """namespace vx::a {
namespace {
// `int hidden(long)` in a comment, and "int quoted(int)" in a string
std::string trim(std::string_view s) { return std::string(s); }
template <typename T>
T twice(T x) { return x + x; }
int kept(int) { return 1; }
}  // namespace
static int counted(int n) { return n; }
using namespace std;
}  // namespace vx::a
#define ONE 1
#define TWO 2
#undef TWO
""",
    "src/a/two.cpp": """namespace vx {
namespace a::deep {
namespace {
int trim(const char* s, int n) { return n; }
}  // namespace
}  // namespace a::deep
struct S { int kept(int) const; void twice(); };
int S::kept(int) const { return 0; }
namespace b {
int counted(long n);
namespace {
int twice(int x) { auto f = [](int y) { return y; }; return f(x); }
}  // namespace
}  // namespace b
using std::swap;
namespace a {
int counted(long n) { return 0; }  // declared in no header: the file's own
}  // namespace a
}  // namespace vx
""",
    "src/a/three.hpp": """namespace vx {
namespace a {
int kept(int x, int y);
}  // namespace a
}  // namespace vx
""",
}
SELF_WANT = [
    "src/a/one.cpp:7: `kept` (the file's own, in vx::a) meets the `kept` of src/a/three.hpp:3",
    "src/a/one.cpp:10: `using namespace std` at namespace scope reaches the files after it in a "
    "unity build; name what it brings in, or put it in a function",
    "src/a/one.cpp: `#define ONE` is not undefined in the file",
    "src/a/two.cpp:4: `trim` (the file's own, in vx::a::deep) meets the `trim` of src/a/one.cpp:4",
    "src/a/one.cpp:9: `counted` (the file's own, in vx::a) meets the `counted` of src/a/two.cpp:17",
    "src/a/two.cpp:17: `counted` (the file's own, in vx::a) meets the `counted` of src/a/one.cpp:9",
]


def main():
    root = sys.argv[1]
    failures = []
    got = problems(SELF, {})
    if sorted(got) != sorted(SELF_WANT):
        failures.append("the check on its own example finds:\n  " + "\n  ".join(got))
    files = {}
    for folder in FOLDERS:
        for base, dirs, names in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(SOURCES) or name.endswith(".def"):
                    path = os.path.join(base, name)
                    with open(path, encoding="utf-8") as f:
                        files[os.path.relpath(path, root)] = f.read()
    sources = {p: t for p, t in files.items() if not p.endswith(".def")}
    failures += problems(sources, {p: t for p, t in files.items() if p.endswith(".def")})
    internal = sum(1 for p, t in sources.items() if p.endswith(".cpp")
                   for k, _, i, _, _ in read_scopes(t) if k == "function" and i)
    for f in failures:
        print("FAIL: " + f)
    print("unity: %d internal functions in %d files, %d problems" %
          (internal, len(sources), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
