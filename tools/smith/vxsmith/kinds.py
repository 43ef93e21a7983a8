"""Which kinds of the typed program a generated program has in device code, and where
(spec/smith.md §2.1).

The kinds are the enumerators of `enum class ExprKind` and `enum class StmtKind` of
src/check/tir.hpp. This module reads the program's text (a small parser of the Vx that smith
writes; nothing from src/ is used) and names, for every expression and statement, the kind the
checker makes of it and the context it stands in:

- `lane`: in a lane loop (the lane loop's own `for` stands in its block's code);
- `block`: in a block loop, outside its lane loops;
- `helper_lane`, `helper_block`: in a function called from a lane loop or from block code;
- `nested_helper`: in a function called from such a function (at any depth).

`features(text)` gives `{"kind:If@lane": count, …}`; tests/smith_kinds_test.py fails when the CI
seed range lacks a (kind, context) pair the language accepts.

Built-ins are named too: `builtin:NAME@ctx`, by the spelling of their row in builtins.def (an
atomic without its type).

How the checker types what it reads (as `vx check --dump=typed` prints it): a `match` is a
`Match` (a `Let` holds the scrutinee unless it is a variable; an arm's block is its own, and the
lowering step later makes the arms a chain of `If`s); `&m[i]` of a tensor of higher rank is a `Ref` of a
`View`; `x.f` of a struct and `t.0` of a tuple are `Var`s (their leaves' locals), a field of a
call's result (`tup1(x).0`, `mk2(x).a`: smith's helpers return tuples and structs of scalars) is
a `Field` of the call's value, and `&s` of a struct passes its fields (no `Ref`); `Tensor<…>::fill` / `uninit` / `fill_dims` are `TensorNew`;
every method (`x.abs()`, `t.len()`, `tok.wait()`), `lanes::` routine, atomic and fence is a
`Builtin`; an ordering or a scope (`AtomicOrdering::Relaxed`) is an i32 `Literal`, and so is a
negative literal; a `loop` with a value is a `BlockExpr` of a `Let`, the `Loop`, and an `Assign`
and a `Break` for each `break v`. Where the lowering adds nodes the source does not show (the
locals of a tuple's call), they are not counted: a kind is claimed only where it surely is.
"""

import re

CONTEXTS = ["lane", "block", "helper_lane", "helper_block", "nested_helper"]

_TOKEN = re.compile(r"""
 (?P<ws>\s+|//[^\n]*)
|(?P<str>"(?:[^"\\]|\\.)*")
|(?P<num>\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?(?:[iuf]\d+|bf16)?)
|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)
|(?P<label>'[A-Za-z_][A-Za-z0-9_]*)
|(?P<op><<=|>>=|\.\.=|::|->|=>|==|!=|<=|>=|&&|\|\||<<|>>|\+=|-=|\*=|/=|%=|&=|\|=|\^=|\.\.
   |[-+*/%&|^!<>=.,;:()\[\]{}?#])
""", re.X)
_FIELD = re.compile(r"\d+")  # after `.`: a tuple element's number, never a float

BINARY = {"||", "&&", "==", "!=", "<", ">", "<=", ">=", "|", "^", "&", "<<", ">>", "+", "-", "*", "/", "%"}
ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}
# What stands for a literal of the checker: orderings and scopes are i32 literals (tir.hpp).
LITERAL_PATHS = {"AtomicOrdering", "FenceScope"}


class ParseError(Exception):
    pass


def tokens(text):
    out = []
    pos = 0
    while pos < len(text):
        if out and out[-1] == ".":
            m = _FIELD.match(text, pos)
            if m:
                out.append(m.group())
                pos = m.end()
                continue
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError("cannot read %r" % text[pos:pos + 20])
        pos = m.end()
        if m.lastgroup != "ws":
            out.append(m.group())
    return out


class _Parser:
    """Records (kind, context) for every node of one function, and its calls (context, callee).
    The context is `body` (the function's own code, host or helper), `region`, `block` or `lane`."""

    def __init__(self, toks, structs, makers=()):
        self.t, self.i, self.structs = toks, 0, structs
        self.makers = makers  # the functions that return a struct
        self.struct_locals = set()  # `&s` of one passes its fields: no Ref
        self.ctx = "body"
        self.kinds = []  # (kind, ctx)
        self.calls = []  # (ctx, callee)
        self.builtins = []  # (spelling as builtins.def writes it, ctx)

    # ---- tokens
    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else ""

    def next(self):
        tok = self.peek()
        if not tok:
            raise ParseError("unexpected end")
        self.i += 1
        return tok

    def eat(self, tok):
        if self.peek() == tok:
            self.i += 1
            return True
        return False

    def want(self, tok):
        if not self.eat(tok):
            raise ParseError("expected %r, found %r at token %d" % (tok, self.peek(), self.i))

    def skip_balanced(self):
        """Skips a bracketed group `(…)`, `[…]`, `{…}` or `<…>` from its opening token."""
        pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
        close = pairs[self.next()]
        depth = 1
        while depth:
            tok = self.next()
            if close == ">" and tok == ">>":
                depth -= 2
            elif tok == close:
                depth -= 1
            elif pairs.get(tok) == close:
                depth += 1

    def skip_type(self):
        if self.eat("&"):
            self.eat("mut")
            return self.skip_type()
        if self.peek() in ("(", "["):
            return self.skip_balanced()
        self.next()
        while self.eat("::"):
            self.next()
        if self.peek() == "<":
            self.skip_balanced()

    def skip_pattern(self, stops):
        depth = 0
        while depth or self.peek() not in stops:
            tok = self.next()
            if tok in ("(", "[", "{"):
                depth += 1
            elif tok in (")", "]", "}"):
                depth -= 1

    def kind(self, k):
        self.kinds.append((k, self.ctx))

    # ---- items
    def function(self):
        """`fn name(params) [-> type] { body }` from `fn`."""
        self.want("fn")
        name = self.next()
        first = self.i
        self.skip_balanced()  # the parameters: only their types are read
        params = self.t[first:self.i]
        for k in range(len(params) - 2):
            if params[k + 1] == ":" and any(p in self.structs for p in params[k + 2:k + 5] if p not in ("&", "mut")):
                self.struct_locals.add(params[k])
        if self.eat("->"):
            self.skip_type()
        self.block(expr_kind=False)
        return name

    # ---- statements
    def block(self, expr_kind=True):
        """`{ stmt* tail? }`; a block in an expression is a BlockExpr, a body is not."""
        if expr_kind:
            self.kind("BlockExpr")
        self.want("{")
        while not self.eat("}"):
            self.statement()

    def statement(self):
        tok = self.peek()
        if tok == ";":
            self.next()
            return
        if tok == "let":
            self.next()
            self.kind("Let")
            name = None
            if self.peek() == "(":
                self.skip_balanced()
            else:
                self.eat("mut")
                name = self.next()
            if self.eat(":"):
                if self.peek() in self.structs:
                    self.struct_locals.add(name)
                self.skip_type()
            if self.eat("="):
                init = self.peek()
                if (init in self.makers and self.peek(1) == "(" or init in self.structs and self.peek(1) == "{" or
                        init in self.struct_locals and self.peek(1) == ";"):
                    self.struct_locals.add(name)
                self.expr()
            self.want(";")
            return
        if tok.startswith("'"):  # a label
            self.next()
            self.want(":")
            return self.statement()
        if tok == "for":
            return self.for_loop()
        if tok == "while":
            self.next()
            self.kind("While")
            self.expr()
            self.block(expr_kind=False)
            return
        if tok == "loop":
            self.next()
            self.kind("Loop")
            self.block(expr_kind=False)
            self.eat(";")
            return
        if tok == "spawn":
            self.next()
            self.kind("Spawn")
            self.want("on")
            self.skip_balanced()
            saved, self.ctx = self.ctx, "region"
            self.block(expr_kind=False)
            self.ctx = saved
            return
        if tok in ("return", "break", "continue"):
            self.jump()
            self.want(";")
            return
        block_like = tok in ("if", "match", "{", "unsafe")
        start, assigned = self.expr_or_assign()
        if assigned:
            self.want(";")
            return
        if self.eat(";") or (block_like and self.peek() != "}"):
            self.kinds.insert(start, ("Expr", self.ctx))
            return
        if self.peek() != "}":
            raise ParseError("expected `;` or `}`, found %r at token %d" % (self.peek(), self.i))
        # the block's tail: its value, no statement

    def expr_or_assign(self):
        """An expression, or an assignment `place op= value` (its kinds, Assign first; the place is
        a Var or an Index, never an expression read). Returns where its kinds start, and whether
        it was an assignment."""
        start = len(self.kinds)
        self.expr()
        if self.peek() not in ASSIGN:
            return start, False
        self.next()
        self.kinds.insert(start, ("Assign", self.ctx))
        self.expr()
        return start, True

    def jump(self):
        tok = self.next()
        self.kind({"return": "Return", "break": "Break", "continue": "Continue"}[tok])
        if tok != "return" and self.peek().startswith("'"):
            self.next()
        if tok != "continue" and self.peek() not in (";", "}", ","):
            if tok == "break":
                self.kind("Assign")  # `break v` gives the loop's local its value, then breaks
            self.expr()

    def for_loop(self):
        self.want("for")
        self.kind("For")
        self.next()  # the variable
        self.want("in")
        if self.eat("("):
            self.range_bounds()
            self.want(")")
            while self.eat("."):
                adapter = self.next()
                self.want("(")
                if adapter == "step_by":
                    self.expr()
                self.want(")")
        else:
            self.range_bounds()
        inner = self.ctx
        if self.eat("across"):
            level = self.next()
            if level == "lanes" and self.peek() == "(":
                self.skip_balanced()
            inner = "block" if level == "blocks" else "lane"
        saved, self.ctx = self.ctx, inner
        self.block(expr_kind=False)
        self.ctx = saved

    def range_bounds(self):
        self.expr()
        if not (self.eat("..") or self.eat("..=")):
            raise ParseError("expected a range at token %d" % self.i)
        self.expr()

    # ---- expressions
    def expr(self):
        self.unary()
        while self.peek() in BINARY:
            self.next()
            self.kind("Binary")
            self.unary()

    def unary(self):
        tok = self.peek()
        if tok == "-" and re.match(r"\d", self.peek(1)) and self.peek(2) in (")", ",", "]", ";", "}", "=>", ""):
            # a negative literal, folded into one Literal
            self.next()
            return self.postfix()
        if tok in ("-", "!"):
            self.next()
            self.kind("Unary")
            return self.unary()
        if tok == "&":
            self.next()
            self.eat("mut")
            if self.peek() in self.struct_locals and self.peek(1) in (")", ","):
                return self.postfix()  # a struct's fields, passed one by one
            self.kind("Ref")
            start = len(self.kinds)
            self.unary()
            # `&m[i]` names a sub-tensor: a View, not the element's Index
            if len(self.kinds) > start and self.kinds[start][0] == "Index" and self.t[self.i - 1] == "]":
                self.kinds[start] = ("View", self.ctx)
            return
        self.postfix()

    def postfix(self):
        start = len(self.kinds)
        self.primary()
        while True:
            tok = self.peek()
            if tok == "[":
                self.kinds.insert(start, ("Index", self.ctx))
                while self.peek() == "[":
                    self.next()
                    self.expr()
                    self.want("]")
            elif tok == "." and self.peek(2) == "(":
                self.next()
                self.builtins.append((self.next(), self.ctx))
                self.kinds.insert(start, ("Builtin", self.ctx))  # every method is a built-in
                self.want("(")
                self.args(")")
            elif tok == ".":
                self.next()
                self.next()  # a field of a struct or a tuple: the leaf's local
                if self.kinds[start:start + 1] == [("Call", self.ctx)]:
                    self.kinds.insert(start, ("Field", self.ctx))  # a scalar of a call's value
                if self.kinds[start:] != [("Var", self.ctx)]:
                    self.kinds.insert(start, ("Var", self.ctx))
            elif tok == "as":
                self.next()
                self.kinds.insert(start, ("Cast", self.ctx))
                self.skip_type()
            else:
                return

    def args(self, close):
        """The arguments up to `close`, its opening bracket already read."""
        while not self.eat(close):
            self.expr()
            self.eat(",")

    def primary(self):
        tok = self.next()
        if tok[0].isdigit() or tok in ("true", "false"):
            self.kind("Literal")
            return
        if tok.startswith('"'):
            self.kind("String")
            return
        if tok == "(":
            if self.eat(")"):
                self.kind("Unit")
                return
            self.expr()
            while self.eat(","):  # a tuple: its elements, each where it goes
                if self.peek() != ")":
                    self.expr()
            self.want(")")
            return
        if tok == "[":
            self.kind("ArrayLit")
            while not self.eat("]"):
                self.expr()
                if self.eat(";"):
                    self.expr()
                self.eat(",")
            return
        if tok == "{":
            self.i -= 1
            return self.block()
        if tok == "unsafe":
            return self.block()
        if tok == "if":
            self.kind("If")
            self.expr()
            self.block(expr_kind=False)
            if self.eat("else"):
                if self.peek() == "if":
                    self.primary()
                else:
                    self.block(expr_kind=False)
            return
        if tok == "match":
            return self.match()
        if tok == "loop":
            # a `loop` with a value: a block of the value's local, the Loop and its Breaks
            self.kind("BlockExpr")
            self.kind("Let")
            self.kind("Loop")
            return self.block(expr_kind=False)
        if tok in ("return", "break", "continue"):
            self.i -= 1
            return self.jump()
        if not re.match(r"[A-Za-z_]", tok):
            raise ParseError("unexpected %r at token %d" % (tok, self.i - 1))
        if self.peek() == "!":  # a macro
            self.next()
            self.kind("Assert" if tok.startswith("assert") else "Print")
            self.want("(")
            first = True
            while not self.eat(")"):
                if first and tok in ("println", "print") and self.peek().startswith('"'):
                    self.next()  # the format: pieces of the Print, no String
                else:
                    self.expr()
                first = False
                self.eat(",")
            return
        if tok == "Tensor":
            self.kind("TensorNew")
            self.skip_balanced()
            self.want("::")
            ctor = self.next()
            self.want("(")
            if ctor == "fill_dims":
                self.want("[")  # the sizes, one per dimension: no array
                self.args("]")
                self.eat(",")
            self.args(")")
            return
        path = [tok]
        while self.eat("::"):
            path.append(self.next())
        if path[0] in LITERAL_PATHS:
            self.kind("Literal")
            return
        if self.peek() == "(":
            name = "::".join(path)
            if name == "transfer":
                self.kind("Transfer")
                self.want("(")
                self.expr()
                self.want(",")
                self.skip_type()  # Memory::M
                self.want(")")
                return
            if name == "lanes::copy_async":
                # (&mut tile, &x, [i, j]): the start is one index per dimension, no array
                self.kind("Builtin")
                self.builtins.append((name, self.ctx))
                self.want("(")
                while not self.eat(")"):
                    if self.eat("["):
                        self.args("]")
                    else:
                        self.expr()
                    self.eat(",")
                return
            if name.startswith("lanes::") or name.startswith("atomic_") or name == "scoped_fence":
                self.kind("Builtin")
                # an atomic's spelling without its type: atomic_fetch_add_i32 is atomic_fetch_add
                self.builtins.append((re.sub(r"_(?:[iu](?:8|16|32|64)|f16|bf16|f32|f64)$", "", name)
                                      if name.startswith("atomic_") else name, self.ctx))
            else:
                self.kind("Call")
                self.calls.append((self.ctx, name))
            self.want("(")
            self.args(")")
            return
        if tok in self.structs and self.peek() == "{":
            # a struct literal: each field a local of its own
            self.next()
            while not self.eat("}"):
                self.next()  # the field's name
                if self.eat(":"):
                    self.expr()
                else:
                    self.kind("Var")  # the field init shorthand: the local of that name
                self.eat(",")
            return
        self.kind("Var")

    def match(self):
        """`match e { pat [if guard] => arm, … }`: a Match (its patterns test the scrutinee, which
        a Let holds unless it is a variable); an arm `x = e` is an Assign, and the arms after one
        that every value reaches are not counted (the lowering drops them)."""
        self.kind("Match")
        start = len(self.kinds)
        self.expr()
        if self.kinds[start:] != [("Var", self.ctx)]:
            self.kinds.insert(start, ("Let", self.ctx))
        self.want("{")
        done = False  # after an arm that every value reaches, the checker drops the rest
        while not self.eat("}"):
            first, kept = self.i, (len(self.kinds), len(self.calls), len(self.builtins))
            self.skip_pattern(("=>", "if"))
            # names, `_` and `..` match every value: the arms after such an arm are dropped
            always = all(t in ("(", ")", ",", "_", "..") or re.match(r"[a-z_]\w*$", t) and t not in ("true", "false")
                         for t in self.t[first:self.i]) and self.peek() != "if"
            if self.eat("if"):
                self.expr()
            self.want("=>")
            if self.peek() == "{":
                self.block(expr_kind=False)
            else:
                self.expr_or_assign()
            self.eat(",")
            if done:
                del self.kinds[kept[0]:], self.calls[kept[1]:], self.builtins[kept[2]:]
            done = done or always


def parse(text):
    """{function name: (kinds [(kind, ctx)], calls [(ctx, callee)], built-ins [(spelling, ctx)])}"""
    toks = tokens(text)
    structs = {toks[k + 1] for k, t in enumerate(toks) if t == "struct"}
    # `fn name(…) -> S`: the functions that make a struct
    makers = set()
    for k, t in enumerate(toks):
        if t == "->" and toks[k + 1] in structs:
            j = k
            depth = 0
            while j > 0 and not (toks[j] == "(" and depth == 1):
                depth += {")": 1, "(": -1}.get(toks[j], 0)
                j -= 1
            if j > 1 and toks[j - 2] == "fn":
                makers.add(toks[j - 1])
    fns = {}
    p = _Parser(toks, structs)
    while p.peek():
        if p.peek() == "struct":
            p.next()
            p.next()
            p.skip_balanced()
            continue
        p.eat("pub")
        q = _Parser(toks, structs, makers)
        q.i = p.i
        name = q.function()
        fns[name] = (q.kinds, q.calls, q.builtins)
        p.i = q.i
    return fns


def contexts(fns):
    """{function: set of helper contexts} of the functions device code calls."""
    ctx = {f: set() for f in fns}
    for f, (_, calls, _) in fns.items():
        for where, callee in calls:
            if callee in ctx and where in ("lane", "block"):
                ctx[callee].add("helper_" + where)
    changed = True
    while changed:
        changed = False
        for f, (_, calls, _) in fns.items():
            if not ctx[f]:
                continue
            for where, callee in calls:
                if callee in ctx and where == "body" and "nested_helper" not in ctx[callee]:
                    ctx[callee].add("nested_helper")
                    changed = True
    return ctx


def features(text):
    """{"kind:K@ctx": count, "builtin:NAME@ctx": count} over the device code of a program."""
    fns = parse(text)
    helper = contexts(fns)
    out = {}
    for f, (kinds, _, builtins) in fns.items():
        for prefix, found in (("kind", kinds), ("builtin", builtins)):
            for k, where in found:
                places = [where] if where in ("lane", "block") else sorted(helper[f]) if where == "body" else []
                for c in places:
                    key = "%s:%s@%s" % (prefix, k, c)
                    out[key] = out.get(key, 0) + 1
    return out
