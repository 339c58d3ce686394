"""Relations of a CUDA launch that survive when its values are not constant: a grid or block component, or a
scalar argument, written as an expression of the launch's *other* arguments.

``scale_bias<<<dim3((size-1)/BLOCK + 1, n, batch), BLOCK>>>(out, b, n, size)``: grid.y is whatever the kernel
receives as ``n`` and grid.x is ``(size-1)/512+1`` of its ``size``; ``softmax<<<g, B>>>(in, l.inputs/l.groups,
…, l.inputs/l.groups, …)``: the two arguments passed the same host expression are one value; ``int size = w*h*c;
k<<<…>>>(size, w, h, c)``: ``size`` is ``w*h*c`` of the others.

Expressions are over argument positions (``_a3_`` = the launch's fourth argument) and numbers, with ``+ - * / %
<< >>`` (C semantics: integer division truncates), ``min``/``max`` (``a < b ? a : b``) and parentheses: what
:func:`simu.launch.constraints.int_expression` evaluates once :mod:`simu.host.contracts` has renamed the positions
to the kernel's parameter names.  Matching is textual after trivial normalisation (spaces, outer parentheses,
casts): two host expressions are equal when they are written alike.
"""

from __future__ import annotations

import ast
import re

from simu.host.cscan import CSource, Function, inline_calls, split_args
from simu.host.cvalues import SIZEOF, Evaluator

ARG = re.compile(r"_a(\d+)_")
_TOKEN = re.compile(r"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*")
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Load, ast.Add, ast.Sub, ast.Mult,
          ast.Div, ast.Mod, ast.USub, ast.UAdd, ast.LShift, ast.RShift, ast.Call)
_CAST = re.compile(r"\(\s*(?:const\s+)?(?:(?:unsigned|signed|long|short)\s+)*(?:int|long|short|char|size_t|unsigned|"
                   r"u?int(?:8|16|32|64)_t)\s*\)\s*(?=[\w(])|\b(?:static_cast|reinterpret_cast)\s*<[^<>]*>\s*")
MAX_DEPTH = 4  # nested local definitions followed


def norm(text: str) -> str:
    """The text compared for equality: casts, spaces and outer parentheses dropped."""
    e = re.sub(r"\s+", "", _CAST.sub("", text))
    while e.startswith("(") and e.endswith(")") and split_args(e, 1)[1] == len(e):
        e = e[1:-1]
    return e


def _top(e: str, chars: str) -> int:
    """The offset of the first of ``chars`` outside brackets in ``e`` (-1: none)."""
    depth = 0
    for i, c in enumerate(e):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c in chars and depth == 0:
            return i
    return -1


def _minmax(e: str) -> str:
    """``(a < b) ? a : b`` -> ``min((a),(b))`` (and ``max``); other ternaries are left alone (and fail later)."""
    q = _top(e, "?")
    c = q + 1 + _top(e[q + 1:], ":") if q >= 0 else -1
    if q < 0 or c <= q:
        return e
    cond, x, y = norm(e[:q]), norm(e[q + 1:c]), norm(e[c + 1:])
    m = re.fullmatch(r"(.+?)(<=|>=|<|>)(.+)", cond)
    if not m:
        return e
    a, op, b = norm(m.group(1)), m.group(2), norm(m.group(3))
    if {a, b} != {x, y} or a == b:
        return e
    smaller = (x == a) == op.startswith("<")
    return f"{'min' if smaller else 'max'}(({a}),({b}))"


def symbolic(ev: Evaluator, text: str, pos: int, args: dict[str, int], depth: int = 0) -> str | None:
    """``text`` (host code at ``pos``) as an expression of the arguments ``args`` (normalised argument text ->
    position) and numbers, or ``None`` when some part is neither (memoised per source: locals nest, and every
    launch, condition and caller asks again)."""
    memo = ev.src.__dict__.setdefault("_symbolic", {})
    key = (text, pos, tuple(sorted(args.items())), depth, tuple(sorted(ev.types.items())))
    if key not in memo:
        memo[key] = _symbolic(ev, text, pos, args, depth)
    return memo[key]


def _symbolic(ev: Evaluator, text: str, pos: int, args: dict[str, int], depth: int) -> str | None:
    e = norm(text)
    if not e:
        return None
    if e in args:
        return f"_a{args[e]}_"
    v = ev.int_value(text, pos)
    if v is not None:
        return str(v)
    if depth > MAX_DEPTH:
        return None
    if "(" in e and ev.src.int_functions:
        e = norm(inline_calls(e, ev.src.int_functions))  # GET_BLOCKS(n) -> ((n)+511)/512
    e = re.sub(r"\bsizeof\(([\w\s]+)\)", lambda m: str(SIZEOF.get(m.group(1), "sizeof")), e)
    for key in sorted(args, key=len, reverse=True):  # a parenthesised argument inside (a wrapper's substitution)
        if not _TOKEN.fullmatch(key):
            e = e.replace(f"({key})", f"_a{args[key]}_")
    if "?" in e:
        e = _minmax(e)
        if "?" in e:
            return None
    failed = False

    def one(m: re.Match[str]) -> str:
        nonlocal failed
        tok = m.group(0)
        if failed:
            return tok  # the whole is no relation already: follow no more locals
        if ARG.fullmatch(tok) or tok in ("min", "max") and e[m.end():m.end() + 1] == "(":
            return tok
        if tok in args:
            return f"_a{args[tok]}_"
        v = ev.int_value(tok, pos)
        if v is not None:
            return str(v)
        init = definition(ev, tok, pos) if re.fullmatch(r"[A-Za-z_]\w*", tok) else None
        sub = symbolic(ev, init, pos, args, depth + 1) if init and not init.startswith(("{", '"')) else None
        if sub is None:
            failed = True
            return tok
        return f"({sub})"

    e = _TOKEN.sub(one, e)
    e = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", e)
    e = re.sub(r"\((_a\d+_|\d+)\)", r"\1", e)
    return None if failed or not valid(e) else e


def definition(ev: Evaluator, name: str, pos: int) -> str | None:
    """:meth:`Evaluator.definition`, and a variable clamped after its definition (``int stride = w1/w2; if (stride
    < 1) stride = 1;``) as ``max((w1/w2),(1))`` (``min`` for ``>``)."""
    init = ev.definition(name, pos)
    if init is not None:
        return init
    fn = ev.src.enclosing(pos)
    if fn is None:
        return None
    body = ev.src.code[fn.start:pos]
    sets = list(re.finditer(rf"(?<![\w.>]){re.escape(name)}\s*=(?!=)\s*([^;]+);", body))
    if len(sets) < 2 or not re.search(r"[\w*&]\s+$", body[:sets[0].start()]):
        return None  # the first must declare it: int stride = ...
    out = sets[0].group(1).strip()
    for m in sets[1:]:
        c = re.search(rf"\bif\s*\(\s*{re.escape(name)}\s*(<=?|>=?)\s*([^()]+?)\s*\)\s*$", body[:m.start()])
        if not c or norm(c.group(2)) != norm(m.group(1)):
            return None
        out = f"{'max' if c.group(1).startswith('<') else 'min'}(({out}),({m.group(1).strip()}))"
    return out


def valid(expr: str) -> bool:
    """Arithmetic over argument positions, numbers, ``min``/``max``."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if not isinstance(node, _NODES) or isinstance(node, ast.Constant) and not isinstance(node.value, int):
            return False
        if isinstance(node, ast.Name) and not ARG.fullmatch(node.id) and node.id not in ("min", "max"):
            return False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in ("min", "max")
                                               and len(node.args) == 2 and not node.keywords):
            return False
    return True


def launch_relations(ev: Evaluator, pos: int, dims: list[list[str] | None], args: list[str], constant: list[bool],
                     asserted: list[str] = ()  # type: ignore[assignment]
                     ) -> tuple[list[tuple[str | None, ...] | None], tuple[str | None, ...], tuple[str, ...]]:
    """(per grid/block: its three components as expressions of the arguments, or ``None``; per argument: an
    expression of the other arguments, or ``None``; the ``asserted`` conditions that are comparisons of
    expressions of the arguments).  ``dims``: the component texts of the grid and the block (``None``: not a
    dim3 the text shows); ``constant``: the arguments whose value is a constant (never a base of a relation:
    their value is known); ``asserted``: the texts of the ``assert`` calls before the launch, locals written out
    (:func:`asserts`)."""
    keys: dict[str, int] = {}
    for i, a in enumerate(args):
        k = norm(a)
        if k and not constant[i] and not k.startswith("&"):
            keys.setdefault(k, i)
    out_dims: list[tuple[str | None, ...] | None] = []
    for items in dims:
        if items is None:
            out_dims.append(None)
            continue
        syms = tuple(symbolic(ev, t, pos, keys) for t in items)
        if len(syms) < 3 and syms[0] is None:
            out_dims.append(None)  # not a dim3 the text shows, nor arithmetic: maybe a dim3 from elsewhere
            continue
        syms += ("1",) * (3 - len(syms))
        out_dims.append(syms if any(s is not None for s in syms) else None)
    rel: list[str | None] = [None] * len(args)
    for i, a in enumerate(args):
        k = norm(a)
        if constant[i] or not k:
            continue
        if keys.get(k, i) != i:
            rel[i] = f"_a{keys[k]}_"  # passed the same host expression as an earlier argument
            continue
        others = {t: j for t, j in keys.items() if j != i}
        s = symbolic(ev, a, pos, others)
        if s is not None and ARG.search(s):
            rel[i] = s
    return out_dims, tuple(acyclic(rel)), required(ev, asserted, pos, keys)


def required(ev: Evaluator, conditions, pos: int, args: dict[str, int]) -> tuple[str, ...]:
    """The ``conditions`` (:func:`conditions`) that are comparisons of expressions of the arguments ``args``
    (normalised host text -> argument position), as :func:`requirement`s; the others are dropped."""
    return tuple(r for r in (requirement(ev, t, pos, args) for t in conditions) if r is not None)


def conditions(src: CSource, ev: Evaluator, fn: Function | None, pos: int, expand: bool = True) -> list[str]:
    """What holds whenever ``pos`` runs: the :func:`asserts` before it and the :func:`guards` around it.
    ``expand``: locals written out (a wrapper's text, read again at its call sites); a launch read where it is
    keeps the names as written (:func:`symbolic` follows a local that is not an argument itself)."""
    if fn is None:
        return []
    return asserts(src, ev, fn, pos, expand) + guards(src, ev, fn, pos, expand)


_COMPARE = re.compile(r"==|!=|<=|>=|(?<![<>-])[<>](?![<>=])")  # not a shift, nor a member access ``p->n``


def requirement(ev: Evaluator, text: str, pos: int, args: dict[str, int]) -> str | None:
    """An asserted comparison ``a == b`` as ``lhs == rhs`` over the arguments (both sides :func:`symbolic`), or
    ``None``."""
    e = norm(text)
    found = _comparisons(e)
    at = found[0] if found else None
    if at is None or "&&" in e or "||" in e:
        return None
    lhs = symbolic(ev, e[:at.start()], pos, args)
    rhs = symbolic(ev, e[at.end():], pos, args)
    if lhs is None or rhs is None or not ARG.search(lhs + rhs):
        return None
    return f"{lhs} {at.group(0)} {rhs}"


_ASSERT = re.compile(r"(?<![\w.>])assert\s*\(")


def asserts(src: CSource, ev: Evaluator, fn: Function, pos: int, expand: bool = True) -> list[str]:
    """The conditions of the ``assert(...)`` statements of ``fn`` before ``pos``, locals written out as they are
    at the assert (:func:`expand_locals`; ``expand`` false: as written): a launch after them is one where they
    hold."""
    out = []
    for m in _ASSERT.finditer(src.code, fn.start, pos):
        items, _ = split_args(src.code, m.end())
        if items and len(items) == 1:
            out.append(expand_locals(src, ev, fn, m.start(), items[0]) if expand else items[0])
    return out


_IF = re.compile(r"(?<![\w.>])if\s*\(")
_NEGATED = {"==": "!=", "!=": "==", "<=": ">", ">=": "<", "<": ">=", ">": "<="}


def guards(src: CSource, ev: Evaluator, fn: Function, pos: int, expand: bool = True) -> list[str]:
    """The conditions of the ``if`` statements of ``fn`` whose branch holds ``pos``, locals written out as
    :func:`asserts` does: ``if (len <= 128) k<<<…>>>(…, len)`` launches only with ``len <= 128``; in an ``else``
    branch a single comparison holds negated (``else if (len <= 256)`` after it: ``len > 128``, ``len <= 256``), and
    so it does after an ``if`` whose branch leaves the function (``if (n < 2) return;`` before the launch, in its
    block or an enclosing one: ``n >= 2``).  A condition that is no single comparison is left out
    (:func:`requirement` reads only those)."""
    code, out = src.code, []

    def written(at: int, cond: str) -> str:
        return expand_locals(src, ev, fn, at, cond) if expand else cond

    for m in _IF.finditer(code, fn.start, pos):
        cond, close = split_args(code, m.end())
        if not cond or len(cond) != 1:
            continue
        then_end = _statement_end(code, close, fn.end)
        if close <= pos < then_end:
            out.append(written(m.start(), cond[0]))
            continue
        rest = re.match(r"\s*else\b", code[then_end:fn.end])
        if rest is not None and then_end + rest.end() <= pos < _statement_end(code, then_end + rest.end(), fn.end):
            negated = _negate(cond[0])
            if negated is not None:
                out.append(written(m.start(), negated))
        elif rest is None and then_end <= pos and _leaves(code[close:then_end]) \
                and _encloses(code, then_end, pos):  # if (n < 2) return; … k<<<…>>>(n): n >= 2 from here on
            negated = _negate(cond[0])
            if negated is not None:
                out.append(written(m.start(), negated))
    return out


_LEAVE = re.compile(r"\b(?:return|throw|exit|abort)\b[^;{}]*;\s*$")


def _leaves(branch: str) -> bool:
    """Whether a branch's statement ends by leaving the function: ``return …;`` itself, or a block whose last
    statement, at its own level, is one (``{ p[0] = 0; return; }``, not ``{ if (x) return; }``)."""
    b = branch.strip()
    if not b.startswith("{"):
        return _LEAVE.match(b) is not None
    if not b.endswith("}"):
        return False
    inner = b[1:-1]
    m = _LEAVE.search(inner)
    if m is None:
        return False
    depth = 0
    for c in inner[:m.start()]:
        depth += c in "({" and 1 or c in ")}" and -1 or 0
    return depth == 0 and (m.start() == 0 or inner[:m.start()].rstrip()[-1:] in (";", "}", ""))


def _encloses(code: str, start: int, pos: int) -> bool:
    """Whether ``pos`` is in the block that holds ``start`` or in one nested in it (no block closes between)."""
    depth = 0
    for c in code[start:pos]:
        depth += c == "{" and 1 or c == "}" and -1 or 0
        if depth < 0:
            return False
    return True


def _negate(cond: str) -> str | None:
    """``a <= b`` -> ``a > b``; ``None`` for anything but one comparison."""
    e = cond.strip()
    found = _comparisons(e)
    if "&&" in e or "||" in e or len(found) != 1:
        return None
    at = found[0]
    return f"{e[:at.start()]} {_NEGATED[at.group(0)]} {e[at.end():]}"


def _comparisons(e: str) -> list[re.Match[str]]:
    """The comparison operators of ``e`` outside parentheses and brackets, in order."""
    depth, out = 0, []
    for i, c in enumerate(e):
        depth += c in "([" and 1 or c in ")]" and -1 or 0
        if depth == 0 and (m := _COMPARE.match(e, i)):
            out.append(m)
    return out


def _statement_end(code: str, start: int, limit: int) -> int:
    """Where the statement starting at ``start`` ends: a ``{}`` block, an ``if`` with its ``else`` chain, or
    the next ``;`` outside parentheses."""
    i = start
    while i < limit and code[i].isspace():
        i += 1
    if code.startswith("{", i):
        depth = 0
        for j in range(i, limit):
            depth += code[j] == "{" and 1 or code[j] == "}" and -1 or 0
            if depth == 0:
                return j + 1
        return limit
    if (m := _IF.match(code, i)) is not None:
        _, close = split_args(code, m.end())
        end = _statement_end(code, close, limit)
        rest = re.match(r"\s*else\b", code[end:limit])
        return _statement_end(code, end + rest.end(), limit) if rest else end
    depth = 0
    for j in range(i, limit):
        depth += code[j] in "([" and 1 or code[j] in ")]" and -1 or 0
        if code[j] == ";" and depth == 0:
            return j + 1
    return limit


def acyclic(rel: list[str | None]) -> list[str | None]:
    """Relations kept in argument order as long as they make no cycle (``a = b`` and ``b = a``: the first)."""
    kept: list[str | None] = [None] * len(rel)

    def reaches(j: int, target: int, seen: set[int]) -> bool:
        if j == target:
            return True
        if j in seen or kept[j] is None:
            return False
        seen.add(j)
        return any(reaches(int(m), target, seen) for m in ARG.findall(kept[j] or ""))

    for i, r in enumerate(rel):
        if r is not None and not any(reaches(int(j), i, set()) for j in ARG.findall(r)):
            kept[i] = r
    return kept


def expand_locals(src: CSource, ev: Evaluator, fn: Function, pos: int, text: str) -> str:
    """A wrapper's launch text with what its own body defines written out, so that it can be evaluated at a call
    site in another function or file: constants (macros, ``const``s) become numbers, locals their definitions
    (``dim3 g(a, b)`` -> ``dim3(a, b)``), a local with no single definition an unresolvable name; parameters
    stay (the caller substitutes them)."""
    body = src.code[fn.start:fn.end]

    def expand(s: str, depth: int) -> str:
        def one(m: re.Match[str]) -> str:
            name = m.group(0)
            if name in fn.params or m.start() and s[m.start() - 1] in ".>" or re.match(r"\s*\(", s[m.end():]) \
                    or name in ("NULL", "nullptr"):
                return name  # a parameter, a member, a function, the null pointer (``int *d = NULL``: no local)
            v = ev.int_value(name, pos)
            if v is not None:
                return str(v)
            if not re.search(rf"(?<![\w.>]){re.escape(name)}\s*(?:=(?!=)|\(|\{{|\[|;|,)", body):
                return name  # not a local of the wrapper (a global the caller may know too)
            init = definition(ev, name, pos)
            if init is None or init.startswith(("{", '"')) or depth >= MAX_DEPTH:
                return f"__local_{name}"
            if re.search(rf"\bdim3\s+{re.escape(name)}\b", body):
                return expand(init, depth + 1) if init.startswith("dim3") else f"dim3({expand(init, depth + 1)})"
            return f"({expand(init, depth + 1)})"

        return re.sub(r"(?<![\w.>])[A-Za-z_]\w*", one, s)

    return expand(text, 0)
