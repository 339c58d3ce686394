"""The typed expressions host facts are written in: what a launch passes, in terms of constants, the parameters of
the function it sits in, struct fields and globals of the program, and the values loops and branches give.

Facts are read per file (:mod:`simu.host.ast.facts`) and cached as JSON (:func:`to_json` / :func:`from_json`); they
are evaluated over the whole program (:mod:`simu.host.ast.values`), where a parameter takes the values of its
call sites and a field the values of every assignment to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Any, Union

Number = Union[int, float]


@dataclass(frozen=True)
class Const:
    value: Number


@dataclass(frozen=True)
class Param:
    """Parameter ``index`` of the function the expression is read in."""

    index: int
    name: str


@dataclass(frozen=True)
class Field:
    """A struct or class member (``record`` ``::`` for a global variable): every value the program assigns it.
    ``owner``: the variable it is read of (``a`` of ``a.rows``), so that ``a.rows`` and ``c.rows`` are not one
    value in a launch's relations, though both take the values of every assignment to ``Matrix::rows``."""

    record: str
    name: str
    owner: str = ""
    index: int = field(default=-1, compare=False)  # its place among the record's fields (-1: not known)


@dataclass(frozen=True)
class Op:
    """``op`` over ``args`` with C semantics: ``kind`` is ``i`` (integer: ``/`` and ``%`` truncate), ``u`` (unsigned,
    ``bits`` wide) or ``f`` (floating)."""

    op: str
    args: tuple[Expr, ...]
    kind: str = "i"
    bits: int = 32


@dataclass(frozen=True)
class Cast:
    kind: str  # i | u | f | b (bool)
    bits: int
    arg: Expr


@dataclass(frozen=True)
class Cond:
    test: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class Choice:
    """One of ``options``: a variable assigned in branches, the values a program holds in several places."""

    options: tuple[Expr, ...]


@dataclass(frozen=True)
class Items:
    """An aggregate: an array initialiser, a ``dim3``'s x, y, z."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Element:
    base: Expr
    index: Expr


@dataclass(frozen=True)
class Loop:
    """A ``for`` counter: ``start``, then ``step`` (over :class:`Counter`) while ``test`` (over :class:`Counter`)."""

    start: Expr
    test: Expr
    step: Expr


@dataclass(frozen=True)
class Counter:
    """The loop counter inside a :class:`Loop`'s test and step."""


@dataclass(frozen=True)
class Call:
    """The result of a call to a program function (its ``return`` evaluated at these arguments)."""

    function: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Function:
    """A function named where a value is expected: a kernel held in a pointer or a table (``table[i]<<<…>>>``)."""

    name: str


@dataclass(frozen=True)
class Unknown:
    why: str


Expr = Union[Const, Param, Field, Op, Cast, Cond, Choice, Items, Element, Loop, Counter, Call, Function, Unknown]
_TYPES = {c.__name__: c for c in (Const, Param, Field, Op, Cast, Cond, Choice, Items, Element, Loop, Counter, Call,
                                  Function, Unknown)}
_EXPRS = tuple(_TYPES.values())


def to_json(e: Any) -> Any:
    """A JSON-able form of an expression (or of tuples and dicts holding expressions)."""
    if isinstance(e, _EXPRS):
        return {"~": type(e).__name__, **{n: to_json(getattr(e, n)) for n in field_names(e)}}
    if isinstance(e, (list, tuple)):
        return [to_json(x) for x in e]
    if isinstance(e, dict):
        return {k: to_json(v) for k, v in e.items()}
    return e


_FIELDS = {name: tuple(f.name for f in fields(c)) for name, c in _TYPES.items()}
_FIELDS_OF = {c: _FIELDS[name] for name, c in _TYPES.items()}


def field_names(e: Any) -> tuple[str, ...]:
    """The field names of an expression's type (``()`` for anything else): dataclasses.fields costs a walk of the
    class per call, on paths that visit every node of every launch's values."""
    names = _FIELDS_OF.get(type(e))
    if names is None:
        return tuple(f.name for f in fields(e)) if isinstance(e, _EXPRS) else ()
    return names


def from_json(d: Any) -> Any:
    """The expression (or tuples and dicts of them) :func:`to_json` made; lists come back as tuples.  On the path
    of every cached host file's facts: field names are read once per type, not per node."""
    if type(d) is dict:
        kind = d.get("~")
        if kind is None:
            return {k: from_json(v) for k, v in d.items()}
        return _TYPES[kind](**{n: from_json(d[n]) for n in _FIELDS[kind] if n in d})
    if type(d) is list:
        return tuple([from_json(x) for x in d])
    return d


def distinct_texts(texts: list[str], values: tuple[Expr, ...]) -> tuple[str, ...]:
    """Argument texts, those one text writes for other values (a parameter pack's ``args...``, expanded: each
    ``args``) told apart as ``args#i``, so that no later reader takes them for one variable."""
    return tuple(f"{t}#{i}" if any(u == t and w != v for u, w in zip(texts, values, strict=True)) else t
                 for i, (t, v) in enumerate(zip(texts, values, strict=True)))


def functions_in(e: Expr) -> list[str]:
    """The functions a pointer expression may hold: each of a table's (one where the index is a constant), each
    arm of a choice."""
    if isinstance(e, Function):
        return [e.name]
    if isinstance(e, Element) and isinstance(e.base, Items) and isinstance(e.index, Const):
        i = int(e.index.value)
        return functions_in(e.base.items[i]) if 0 <= i < len(e.base.items) else []
    if isinstance(e, Element):
        return functions_in(e.base)
    if isinstance(e, (Items, Choice, Cond)):
        return list(dict.fromkeys(n for c in _children(e) if not isinstance(e, Cond) or c is not e.test
                                  for n in functions_in(c)))
    return []


def extent(e: Expr, memo: dict[int, tuple[Expr, int, int]]) -> tuple[int, int]:
    """``(depth, nodes)`` of an expression written out as a tree, each node computed once (``memo`` by node, the
    node kept with its numbers): expressions share subtrees (``x = x + x``), so a tree can be exponentially larger
    than what was built, and every later walk (values, JSON, relations) is over the tree."""
    got = memo.get(id(e))
    if got is not None and got[0] is e:
        return got[1], got[2]
    depth, nodes = 1, 1
    for c in _children(e):
        d, n = extent(c, memo)
        depth, nodes = max(depth, d + 1), nodes + n
    memo[id(e)] = (e, depth, nodes)
    return depth, nodes


def unknown_in(e: Expr) -> bool:
    """Whether the expression holds anything :class:`Unknown`."""
    if isinstance(e, Unknown):
        return True
    return any(unknown_in(x) for x in _children(e))


def constant(e: Expr) -> bool:
    """Whether ``e`` is made of constants only (literals and macros, operators, casts, choices between them)."""
    if isinstance(e, Const):
        return True
    return isinstance(e, (Op, Cast, Choice)) and all(constant(x) for x in _children(e) if is_expr(x))


def written(source: str, callee: str, line: int) -> Unknown:
    """What a call left in a variable it was given the address of (``cudaMalloc(&d, n)``): an unknown that names the
    variable, so that two buffers two calls allocate are two values."""
    return Unknown(f"{source} written by {callee}() at {line}")


def unset(name: str) -> Unknown:
    """A local declared without a value (``float *d;`` before ``cudaMalloc((void **)&d, n)``)."""
    return Unknown(f"'{name}' has no initial value")


def changed_in_loop(name: str, line: int) -> Unknown:
    """A variable after a loop that updates it: no one value, but one value wherever a launch reads it."""
    return Unknown(f"'{name}' changed in the loop at line {line}")


def read_at(what: str, file: str, at: str) -> Unknown:
    """The value one expression of the source computes where simu cannot (``op.getOptionInt("size")``, a call
    through a pointer): unknown, but one value wherever a statement copies it (``lda = ldb = ldc = N``), so two
    arguments that pass it are one value; another expression of the same text elsewhere is another value."""
    return Unknown(f"{what} at {file}@{at}")


_CHANGED = re.compile(r"'[\w.]+' changed in the loop at line \d+")
_WRITTEN = re.compile(r"(?P<source>.+) written by (?P<callee>\w+)\(\) at (?P<line>\d+)")
_UNSET = re.compile(r"'\w+' has no initial value")
_READ_AT = re.compile(r".+ at [^@]*@[\d.]+")


def writer(e: Expr) -> tuple[str, int] | None:
    """``(callee, line)`` of the call that wrote the variable :func:`written` names, else None."""
    m = _WRITTEN.fullmatch(e.why) if isinstance(e, Unknown) else None
    return (m.group("callee"), int(m.group("line"))) if m else None


def runtime_value(e: Expr) -> bool:
    """Whether ``e`` holds a value the program only has at run time: what a call wrote into a variable
    (``load(path, n)``, ``scanf("%d", &n)``).  A constant some other reader of the text finds for it (``int n = 0;``
    before the call) is not its value.  (An expression simu cannot compute, ``op.getOptionInt("size")``, is not one:
    the lexical reader may know its default; nor is a variable a loop changes: a retry loop's first value,
    ``while (cudaMalloc(&p, size) fails) size >>= 1``, is the program's.)"""
    if isinstance(e, Unknown):
        return _WRITTEN.fullmatch(e.why) is not None
    return any(runtime_value(x) for x in _children(e))


def loop_variable(e: Expr) -> bool:
    """Whether ``e`` is what :func:`changed_in_loop` made."""
    return isinstance(e, Unknown) and _CHANGED.fullmatch(e.why) is not None


def names_variable(e: Expr) -> bool:
    """Whether ``e`` is an unknown that names one variable (:func:`written`, :func:`unset`) or one expression's
    value (:func:`read_at`): one value wherever the function reads it before it changes."""
    return isinstance(e, Unknown) and (writer(e) is not None or _UNSET.fullmatch(e.why) is not None
                                       or _READ_AT.fullmatch(e.why) is not None)


def dim_parts(e: Expr) -> list[Expr]:
    """A grid's or block's x, y and z (``dim3(n)`` or an integer: ``n, 1, 1``)."""
    return (list(e.items) + [Const(1)] * 3)[:3] if isinstance(e, Items) else [e, Const(1), Const(1)]


# library functions as operators: the C library's math, and integer round-up division (PyTorch's, CCCL's)
MATH_CALLS = {"min": "min", "max": "max", "fmin": "min", "fmax": "max", "ceil": "ceil", "floor": "floor",
              "sqrt": "sqrt", "log2": "log2", "abs": "abs", "fabs": "abs", "ceilf": "ceil", "floorf": "floor",
              "sqrtf": "sqrt", "lround": "round", "round": "round", "pow": "pow", "powf": "pow"}
CEIL_DIVISIONS = {"ATenCeilDiv", "ceil_div"}


def ceil_division(a: Expr, b: Expr) -> Expr:
    """``(a + b - 1) / b`` over integers: what :data:`CEIL_DIVISIONS` compute."""
    return Op("/", (Op("+", (a, Op("-", (b, Const(1))))), b))


def uncast(e: Expr) -> Expr:
    """``e`` without the conversions around it (``(float)rand()``, a ``dim3``'s unsigned member)."""
    while isinstance(e, Cast):
        e = e.arg
    return e


def is_expr(v: Any) -> bool:
    return isinstance(v, _EXPRS)


def _children(e: Any) -> list[Any]:
    out: list[Any] = []
    for n in field_names(e):
        v = getattr(e, n)
        if isinstance(v, tuple):
            out += [x for x in v if isinstance(x, _EXPRS)]
        elif isinstance(v, _EXPRS):
            out.append(v)
    return out


def substituted(e: Any, known: dict[Expr, Expr]) -> Any:
    """``e`` with each sub-expression that ``known`` holds replaced by its value there."""
    if isinstance(e, tuple):
        items = tuple(substituted(x, known) for x in e)
        return items if any(a is not b for a, b in zip(items, e, strict=True)) else e
    if not isinstance(e, _EXPRS):
        return e
    if e in known:
        return known[e]
    changed = {n: v for n in field_names(e) if (v := substituted(getattr(e, n), known)) is not getattr(e, n)}
    return replace(e, **changed) if changed else e


def equalities(conditions: tuple[tuple[Expr, bool], ...]) -> dict[Expr, Expr]:
    """What the conditions that hold on the way fix: ``tile == 16`` (an ``if``, or ``case 16:`` of ``switch
    (tile)``) makes ``tile`` 16 there (``k<16><<<g, dim3(tile, tile)>>>``)."""
    out: dict[Expr, Expr] = {}
    for cond, holds in conditions:
        if holds and isinstance(cond, Op) and cond.op == "==" and len(cond.args) == 2:
            for a, b in (cond.args, cond.args[::-1]):
                if isinstance(uncast(b), Const) and not isinstance(uncast(a), Const):
                    out[uncast(a)] = uncast(b)
    return out


def returned(returns: list[tuple[Expr, tuple[tuple[Expr, bool], ...]]]) -> Expr | None:
    """What a function returns, from each ``return``'s value and the conditions that hold there, in order:
    ``if (m % 32 == 0) return 32; return 8;`` is ``m % 32 == 0 ? 32 : 8``, so a call with known arguments gives
    one value, not every value some ``return`` has."""
    if not returns:
        return None
    out = returns[-1][0]
    for value, conditions in reversed(returns[:-1]):
        tests = [c if holds else Op("!", (c,), "b", 1) for c, holds in conditions]
        if not tests:
            return Choice(tuple(dict.fromkeys(v for v, _ in returns)))  # an unconditional return before others
        test = tests[0] if len(tests) == 1 else Op("&&", tuple(tests), "b", 1)
        out = out if value == out else Cond(test, value, out)
    return out

