"""The reducer: shrink a program while a predicate (its failure's signature) still holds.

Hierarchical delta debugging (Misherghi and Su's HDD) over the program's blocks, with C-Reduce's
kind of passes. The program is a tree: a *node* is one line, or a line that opens a block
(`… {`) with everything up to its matching `}` (an `} else {` stays in its `if`). Rounds of
passes, until a round changes nothing or the budget is spent:

1. delete nodes, level by level from the top (whole items and sections first, then statements,
   then the statements inside blocks), each level from its last node to its first, so that a
   use goes before its definition and one sweep removes a chain of them;
2. unwrap a block: keep its body (or one branch of an `if … else`) in its place;
3. simplify expressions: a parenthesised `(a op b)` by `(a)` or `(b)`, an argument of
   `println!` by `0`.

Before the first round, comments and blank lines go. Every candidate is tried at most once (a
cache by text). The result depends only on the predicate's answers: deterministic, bounded by
`max_tries` predicate calls, and by `seconds` as a safety net (the stats say which bound ended
it).
"""

import re
import time

from . import ending


def _code(line):
    """The line without its `//` comment (outside string literals) and surrounding blanks."""
    quoted = False
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and quoted:
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i].strip()
        i += 1
    return line.strip()


def _tree(lines):
    """Top-level nodes: [start, end (exclusive), children]; a line's children is None."""
    root = []
    stack = []  # open blocks
    for i, ln in enumerate(lines):
        s = _code(ln)
        siblings = stack[-1][2] if stack else root
        if s.startswith("}") and stack:
            node = stack[-1]
            if s.endswith("{"):  # `} else {`: the same node goes on
                continue
            stack.pop()
            node[1] = i + 1
            continue
        if s.endswith("{"):
            node = [i, None, []]
            siblings.append(node)
            stack.append(node)
        else:
            siblings.append([i, i + 1, None])
    for node in stack:  # unbalanced: a block runs to the end
        node[1] = len(lines)
    return root


def _level(lines, depth):
    """The nodes at this depth, in source order."""
    nodes = _tree(lines)
    for _ in range(depth):
        nodes = [c for n in nodes if n[2] for c in n[2]]
    return nodes


def _is_item(line):
    s = _code(line)
    return s.startswith(("fn ", "pub fn ", "struct ", "pub struct "))


def _dedent(body):
    return [x[4:] if x.startswith("    ") else x for x in body]


def _branches(lines, node):
    """The bodies of an `if … { } else { }` node's branches (none for other blocks)."""
    a, b = node[0], node[1]
    cuts = [a]
    depth = 0
    for i in range(a, b):
        s = _code(lines[i])
        if s.startswith("}"):
            depth -= 1
            if depth == 0 and s.endswith("{"):
                cuts.append(i)
        if s.endswith("{"):
            depth += 1
    if len(cuts) == 1:
        return []
    cuts.append(b - 1)
    return [lines[cuts[k] + 1:cuts[k + 1]] for k in range(len(cuts) - 1)]


def _top_split(text, seps):
    """Split at the separators that stand outside brackets and string literals."""
    parts, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            for sep in seps:
                if text.startswith(sep, i):
                    parts.append(text[start:i])
                    start = i + len(sep)
                    i += len(sep) - 1
                    break
        i += 1
    parts.append(text[start:])
    return parts


_BINARY = [" + ", " - ", " * ", " / ", " % ", " & ", " | ", " ^ ", " << ", " >> ", " && ", " || ",
           " == ", " != ", " < ", " > ", " <= ", " >= "]


def _expression_edits(line):
    """Smaller versions of one line, most promising first."""
    out = []
    m = re.match(r'^(\s*println!\((".*?")),(.*)\);\s*$', line)
    if m:
        args = _top_split(m.group(3), [","])
        for k, arg in enumerate(args):
            if arg.strip() != "0":
                out.append("%s,%s);" % (m.group(1), ",".join(args[:k] + [" 0"] + args[k + 1:])))
    # the outermost groups first: replacing them removes the most
    stack, groups = [], []
    for i, c in enumerate(line):
        if c == "(":
            stack.append(i)
        elif c == ")" and stack:
            groups.append((stack.pop(), i, len(stack)))
    for a, b, _ in sorted(groups, key=lambda g: (g[2], g[0])):
        inner = line[a + 1:b]
        parts = _top_split(inner, _BINARY)
        if len(parts) < 2:
            continue
        for rep in (parts[0], parts[-1]):
            rep = rep.strip()
            if rep:
                out.append(line[:a + 1] + rep + line[b:])
    return out


class _Search:
    def __init__(self, keep, max_tries, seconds):
        self.keep = keep
        self.max_tries = max_tries
        self.deadline = time.time() + seconds if seconds else None
        self.tries = 0
        self.seen = {}
        self.stopped = None

    def spent(self):
        if self.tries >= self.max_tries:
            self.stopped = "tries"
        elif self.deadline is not None and time.time() > self.deadline:
            self.stopped = "time"
        elif ending.stopping():  # a pool's process whose smith or campaign is being ended
            self.stopped = "ended"
        return self.stopped is not None

    def ok(self, cand):
        text = "\n".join(cand) + "\n"
        if text not in self.seen:
            if self.spent():
                return False
            self.tries += 1
            self.seen[text] = bool(self.keep(text))
        return self.seen[text]


def _delete_nodes(s, lines):
    depth = 0
    while not s.spent():
        nodes = _level(lines, depth)
        if not nodes:
            break
        i = len(nodes) - 1
        while i >= 0 and not s.spent():
            a, b, _ = nodes[i]
            if not _code(lines[a]).startswith("fn main"):
                cand = lines[:a] + lines[b:]
                if cand and s.ok(cand):
                    lines = cand
            i -= 1
        depth += 1
    return lines


def _unwrap_blocks(s, lines):
    depth = 0
    while not s.spent():
        nodes = [n for n in _level(lines, depth) if n[2] is not None]
        if not nodes and not _level(lines, depth):
            break
        for k in range(len(nodes) - 1, -1, -1):
            a, b, _ = nodes[k]
            if _is_item(lines[a]):
                continue
            bodies = _branches(lines, nodes[k]) or [lines[a + 1:b - 1]]
            for body in bodies:
                cand = lines[:a] + _dedent(body) + lines[b:]
                if s.ok(cand):
                    lines = cand
                    break
            if s.spent():
                break
            # the nodes before k at this depth are where they were
        depth += 1
    return lines


def _simplify_expressions(s, lines):
    for i in range(len(lines) - 1, -1, -1):
        changed = True
        while changed and not s.spent():
            changed = False
            for edit in _expression_edits(lines[i]):
                cand = lines[:i] + [edit] + lines[i + 1:]
                if s.ok(cand):
                    lines = cand
                    changed = True
                    break
    return lines


def reduce(text, keep, max_tries=3000, seconds=None, log=None, stats=None):
    """The smallest program found for which keep(text) is true (keep(text) must be true).
    `stats`, a dict, gets the number of tries and which bound stopped the search (None: a round
    changed nothing, the program is as small as these passes make it)."""
    s = _Search(keep, max_tries, seconds)
    lines = text.splitlines()
    plain = [ln.rstrip() if _code(ln) else "" for ln in lines]
    plain = [ln[:len(ln) - len(ln.lstrip())] + _code(ln) for ln in plain if ln]
    if plain != lines and s.ok(plain):
        lines = plain
    while not s.spent():
        before = lines
        for step in (_delete_nodes, _unwrap_blocks, _simplify_expressions):
            lines = step(s, lines)
        if lines == before:
            break
    if stats is not None:
        stats.update({"tries": s.tries, "stopped": s.stopped})
    if log:
        log("reduced to %d lines in %d tries" % (len(lines), s.tries))
    return "\n".join(lines) + "\n"
