#!/usr/bin/env python3
"""A new kind of node left out of a pass is a compile error, never a silent fall-through (issue
36): every pass of src/ that picks what to do by the kind of a node names every kind.

  - A `switch` over tir::StmtKind or tir::ExprKind has no `default:`: it names every enumerator
    (the ones it does nothing for in one stack of `case`s), so -Werror=switch stops the build
    when the typed program gains a kind that the switch does not name.
  - An AST variant (parse/ast.hpp: Stmt, Primary, Suffix, Type, Item, PatAtom, LetPattern) is
    dispatched with ast::visit, one lambda per alternative, and not with a chain of
    `if (auto* x = boost::get<T>(&v))` tests: a chain testing three or more alternatives of one
    variant, or testing one and then taking another with ast::must_get (the last case of a
    chain), is flagged. A test of one or two kinds that does not dispatch (`is it a path?`)
    stays.

The known exceptions are listed in KNOWN with the reason each stands.

usage: dispatch_check.py REPO_ROOT
"""
import os
import re
import sys

# A switch that keeps its `default:` for now, found by the text just before it: the reason.
KNOWN = {}

SWITCH = re.compile(r"\bswitch\s*\(")
KIND_CASE = re.compile(r"\bcase\s+(?:[\w:]*::)?(StmtKind|ExprKind)::\w+\s*:")
GET = re.compile(r"\bboost::get<\s*([\w:<>\s]+?)\s*>\(\s*&\s*([^;]*?)\)\s*(?:[;)!=&|?]|$)", re.M)
MUST_GET = re.compile(r"\bast::must_get<\s*([\w:<>\s]+?)\s*>\(\s*([^;]*?)\)", re.M)
WINDOW = 40  # lines: how far apart the tests of one chain may stand


def strip_comments(text):
    """The text with // comments and string literals blanked (lengths and lines kept)."""
    out = re.sub(r'"(?:\\.|[^"\\\n])*"', lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', text)
    return re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), out)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def default_switches(text):
    """(line, text before it) of every switch over StmtKind or ExprKind with its own `default:`."""
    found = []
    for m in SWITCH.finditer(text):
        i = text.find("{", m.end())
        if i < 0:
            continue
        depth, j, has_default, kinds = 0, i, False, False
        while j < len(text):
            c = text[j]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 1 and text.startswith("default", j) and not re.match(r"\w", text[j - 1]) \
                    and re.match(r"default\s*:", text[j:]):
                has_default = True
            elif depth == 1 and text.startswith("case", j) and not re.match(r"\w", text[j - 1]) \
                    and KIND_CASE.match(text, j):
                kinds = True
            j += 1
        if kinds and has_default:
            before = text[max(0, text.rfind("\n", 0, max(0, m.start() - 400))):m.start()]
            found.append((line_of(text, m.start()), before))
    return found


def get_chains(text):
    """(line, why) of every chain of boost::get tests that dispatches on a variant's kind."""
    by_operand = {}
    for m in GET.finditer(text):
        operand = re.sub(r"\s+", "", m.group(2))
        by_operand.setdefault(operand, []).append((line_of(text, m.start()), m.group(1).strip()))
    found = []
    for operand, tests in by_operand.items():
        for k, (line, _) in enumerate(tests):
            near = {alt for l2, alt in tests[k:] if l2 - line <= WINDOW}
            if len(near) >= 3:
                found.append((line, "a chain of boost::get tests of `%s` (%s): use ast::visit"
                              % (operand, ", ".join(sorted(near)))))
                break
    for m in MUST_GET.finditer(text):
        operand = re.sub(r"\s+", "", m.group(2))
        line = line_of(text, m.start())
        taken = m.group(1).strip()
        for l2, alt in by_operand.get(operand, []):
            if alt != taken and 0 <= line - l2 <= WINDOW:
                found.append((line, "boost::get<%s> of `%s`, then must_get<%s>: the last case of "
                              "a chain; use ast::visit" % (alt, operand, taken)))
                break
    return found


def problems(text):
    text = strip_comments(text)
    out = []
    for line, before in default_switches(text):
        if not any(key in before for key in KNOWN):
            out.append((line, "`default:` in a switch over StmtKind/ExprKind: name every kind"))
    out += get_chains(text)
    return sorted(out)


# The check itself, on code it must and must not flag: a check that cannot fail is none.
MUST_FLAG = [
    """switch (s->kind) {
      case StmtKind::Return: return true;
      default: return false;
    }""",
    """switch (e.kind) {
      case tir::ExprKind::Var: { return 1; }
      default:
        return 0;
    }""",
    """if (auto* l = boost::get<ast::LetStmt>(&s)) return let(*l);
    if (auto* r = boost::get<ast::ReturnStmt>(&s)) return ret(*r);
    if (auto* w = boost::get<ast::WhileStmt>(&s)) return loop(*w);""",
    """if (auto* ix = boost::get<ast::IndexSuffix>(&s)) {
      index(*ix);
    } else {
      method(ast::must_get<ast::MethodSuffix>(s));
    }""",
]
MUST_PASS = [
    """switch (s->kind) {
      case StmtKind::Return: return true;
      case StmtKind::Let: case StmtKind::Expr: return false;
    }""",
    """switch (op) {
      case BinOp::Add: return 1;
      default: return 0;
    }""",
    """switch (s->kind) {
      case StmtKind::For:
        switch (op) { case BinOp::Add: break; default: break; }
        return true;
      case StmtKind::Let: return false;
    }""",
    """if (auto* il = boost::get<ast::IntLit>(&u.operand.base)) return neg(*il);
    if (auto* fl = boost::get<ast::FloatLit>(&u.operand.base)) return neg(*fl);""",
    """for (const auto& sfx : p.suffixes) idx.push_back(&ast::must_get<ast::IndexSuffix>(sfx));""",
    """// if (auto* a = boost::get<A>(&v)) … boost::get<B>(&v) … boost::get<C>(&v): in a comment""",
]


def main():
    failures = []
    for sample in MUST_FLAG:
        if not problems(sample):
            failures.append("the check misses:\n" + sample)
    for sample in MUST_PASS:
        if problems(sample):
            failures.append("the check flags:\n" + sample)
    root = sys.argv[1]
    files = 0
    for base, _, names in sorted(os.walk(os.path.join(root, "src"))):
        for name in sorted(names):
            if not name.endswith((".cpp", ".hpp")):
                continue
            files += 1
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for line, why in problems(text):
                failures.append("%s:%d: %s" % (os.path.relpath(path, root), line, why))
    for f in failures:
        print("FAIL: " + f)
    print("dispatch: %d files, %d problems" % (files, len(failures)))
    sys.exit(1 if failures else 0)


main()
