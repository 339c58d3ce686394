"""The typed expressions host facts are written in: what a launch passes, in terms of constants, the parameters of
the function it sits in, struct fields and globals of the program, and the values loops and branches give.

Facts are read per file (:mod:`simu.host.ast.facts`) and cached as JSON (:func:`to_json` / :func:`from_json`); they
are evaluated over the whole program (:mod:`simu.host.ast.values`), where a parameter takes the values of its
call sites and a field the values of every assignment to it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
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
    """A struct or class member (``record`` ``::`` for a global variable): every value the program assigns it."""

    record: str
    name: str


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
        return {"~": type(e).__name__, **{f.name: to_json(getattr(e, f.name)) for f in fields(e)}}
    if isinstance(e, (list, tuple)):
        return [to_json(x) for x in e]
    if isinstance(e, dict):
        return {k: to_json(v) for k, v in e.items()}
    return e


def from_json(d: Any) -> Any:
    if isinstance(d, dict) and "~" in d:
        cls = _TYPES[d["~"]]
        return cls(**{f.name: _tuple(from_json(d[f.name])) for f in fields(cls)})
    if isinstance(d, list):
        return tuple(from_json(x) for x in d)
    if isinstance(d, dict):
        return {k: from_json(v) for k, v in d.items()}
    return d


def _tuple(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


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


def uncast(e: Expr) -> Expr:
    """``e`` without the conversions around it (``(float)rand()``, a ``dim3``'s unsigned member)."""
    while isinstance(e, Cast):
        e = e.arg
    return e


def is_expr(v: Any) -> bool:
    return isinstance(v, _EXPRS)


def _children(e: Any) -> list[Any]:
    out: list[Any] = []
    for f in fields(e) if isinstance(e, _EXPRS) else ():
        v = getattr(e, f.name)
        if isinstance(v, tuple):
            out += [x for x in v if isinstance(x, _EXPRS)]
        elif isinstance(v, _EXPRS):
            out.append(v)
    return out
