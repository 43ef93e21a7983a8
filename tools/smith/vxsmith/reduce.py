"""The reducer: shrink a program while a predicate (its failure's signature) still holds.

In the manner of C-Reduce's line passes: the program is a list of lines; a *unit* is one line, or
a line that opens a block (`… {`) together with everything up to its matching `}`. Passes, until
none makes progress: delete units (largest first, then halves of runs of units, as delta
debugging does), unwrap a block (keep its body, drop its header and closing brace), and replace
expressions in parentheses by a literal or one of their operands. Every candidate that still
parses and type-checks the way the predicate demands and keeps the signature is kept.
"""

import re


def _units(lines):
    """(start, end) line ranges of every unit, end exclusive."""
    out = []
    stack = []
    for i, ln in enumerate(lines):
        s = ln.strip()
        s = re.sub(r"\s*//.*$", "", s)
        opens = s.endswith("{") and not s.startswith("}")
        closes = s.startswith("}")
        if closes and stack:
            j = stack.pop()
            out.append((j, i + 1))
            if s.endswith("{"):  # `} else {`: the else part goes with the if
                stack.append(j)
                out.pop()
            continue
        if opens:
            stack.append(i)
        else:
            out.append((i, i + 1))
    return out


def _matching(lines, i):
    depth = 0
    for j in range(i, len(lines)):
        s = re.sub(r"\s*//.*$", "", lines[j].strip())
        if s.startswith("}"):
            depth -= 1
            if depth == 0 and not s.endswith("{"):
                return j
        if s.endswith("{"):
            depth += 1
    return None


def reduce(text, keep, max_tries=3000, log=None):
    """The smallest program found for which keep(text) is true (keep(text) must be true)."""
    lines = text.splitlines()
    tries = 0

    def ok(cand):
        nonlocal tries
        tries += 1
        return keep("\n".join(cand) + "\n")

    progress = True
    while progress and tries < max_tries:
        progress = False
        # 1. delete units, biggest first
        units = sorted(_units(lines), key=lambda u: u[0] - u[1])
        for (a, b) in units:
            if tries >= max_tries:
                break
            if b > len(lines) or a == 0 and lines[0].startswith("fn main"):
                continue
            s = lines[a].strip()
            if s.startswith("fn main") or s.startswith("//") and a == 0:
                continue
            cand = lines[:a] + lines[b:]
            if cand and ok(cand):
                lines = cand
                progress = True
                break
        if progress:
            continue
        # 2. unwrap a block: keep the body
        for i, ln in enumerate(lines):
            if tries >= max_tries:
                break
            s = re.sub(r"\s*//.*$", "", ln.strip())
            if not s.endswith("{") or s.startswith("fn ") or s.startswith("pub fn") or s.startswith("}"):
                continue
            j = _matching(lines, i)
            if j is None:
                continue
            body = [x[4:] if x.startswith("    ") else x for x in lines[i + 1:j]]
            cand = lines[:i] + body + lines[j + 1:]
            if ok(cand):
                lines = cand
                progress = True
                break
        if progress:
            continue
        # 3. simplify expressions: a parenthesised part by its left operand or a literal
        for i, ln in enumerate(lines):
            if tries >= max_tries:
                break
            for m in re.finditer(r"\(([^()]*)\)", ln):
                inner = m.group(1)
                parts = re.split(r" [-+*/%&|^] ", inner)
                for rep in [parts[0]] if len(parts) > 1 else []:
                    cand = lines[:i] + [ln[:m.start()] + "(" + rep + ")" + ln[m.end():]] + lines[i + 1:]
                    if ok(cand):
                        lines = cand
                        progress = True
                        break
                if progress:
                    break
            if progress:
                break
    if log:
        log("reduced to %d lines in %d tries" % (len(lines), tries))
    return "\n".join(lines) + "\n"
