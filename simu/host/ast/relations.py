"""What clang's facts say about a launch whose values are not all known: its grid and block components and scalar
arguments as expressions of its *other* arguments, and the comparisons its asserts and guards require — in the
grammar of :mod:`simu.host.relations` (argument positions ``_a2_``, integers, ``+ - * / % << >>``, ``min``/``max``),
which :mod:`simu.host.contracts` names and the search evaluates.

Expressions are compared as the typed trees of :mod:`simu.host.ast.expr`, not as text: ``run(n)`` calling
``k<<<(n + Tiling::tile - 1) / Tiling::tile, Tiling::tile>>>(out, n)`` after ``assert(n % Tiling::tile == 0)`` in
its caller gives ``grid.x = (_a1_+256-1)/256`` and ``requires _a1_%256 == 0``.  A launch's parts and
conditions are first written in the terms of the outermost caller (:func:`simu.host.ast.values.lift`), so a value
computed in one function and passed down is the same tree as the argument that carries it."""

from __future__ import annotations

from dataclasses import dataclass

from simu.host.ast.contents import DRAW
from simu.host.ast.expr import (
    Call,
    Cast,
    Choice,
    Cond,
    Const,
    Element,
    Expr,
    Field,
    Items,
    Op,
    Param,
    Unknown,
    _children,
    dim_parts,
    loop_variable,
    names_variable,
    runtime_value,
    uncast,
)
from simu.host.ast.facts import FunctionFacts, LaunchFact
from simu.host.ast.values import Context, Program, call_args, lift, reads_member
from simu.host.relations import ARG, acyclic
from simu.launch.constraints import BLOCK_DIMS

MAX_INLINED = 3  # nested helper calls a relation is written through
_PRECEDENCE = {"*": 3, "/": 3, "%": 3, "+": 2, "-": 2, "<<": 1, ">>": 1}
_COMPARE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
# differ at each call (DRAW: a <random> distribution's d(gen))
_VOLATILE = {"rand", "random", "lrand48", "drand48", "rand_r", "clock", "time", "getchar", DRAW}
MAX_REQUIRES = 8

Sym = tuple[str | None, str | None, str | None]


@dataclass(frozen=True)
class Relations:
    grid: Sym | None = None
    block: Sym | None = None
    args: tuple[str | None, ...] = ()
    requires: tuple[str, ...] = ()
    shmem: str | None = None  # the dynamic shared bytes over the arguments and the block (``blockDim_x*4``)


def launch_relations(program: Program, fn: FunctionFacts, ctx: Context, bound: dict, x: LaunchFact,
                     known_args: list[bool]) -> Relations:
    """The relations of one launch variant (``known_args``: which arguments have one known value)."""
    args = [lift(a, ctx, bound) for a in x.args]
    names = arg_names(args, known_args, variables=True)  # two arguments passing one variable are one value
    render = Renderer(program, fn, names)
    with_block = Renderer(program, fn, {**_block_names(x.block, ctx, bound), **names})
    arg_rel: list[str | None] = []
    for i, a in enumerate(args):
        r = None if known_args[i] else with_block.text(a, exclude=f"_a{i}_")
        arg_rel.append(r if r is not None and ARG.search(r) else None)
    conditions = [(lift(c, ctx, bound), holds) for c, holds in x.conditions] + list(ctx.conds)
    requires: list[str] = []
    for c, holds in conditions:
        for r in render.requirement(c, holds):
            if ARG.search(r) and r not in requires:
                requires.append(r)
    shmem = with_block.text(lift(x.shmem, ctx, bound))
    grid = _dim(render, x.grid, ctx, bound)
    if grid is None or None in grid:  # ``(n + threads - 1) / threads`` with ``threads`` the block: over the block
        over_block = _dim(with_block, x.grid, ctx, bound)
        grid = tuple(g if g is not None else o for g, o in zip(grid or (None,) * 3, over_block or (None,) * 3,
                                                                  strict=True))
        grid = grid if any(grid) else None
    return Relations(grid, _dim(render, x.block, ctx, bound),
                     tuple(acyclic(arg_rel)) if any(arg_rel) else (), tuple(requires[:MAX_REQUIRES]),
                     shmem if shmem is not None and not shmem.lstrip("(-").rstrip(")").isdigit() else None)


RUNTIME_LENGTH = "?"  # a buffer's bytes the program computes at run time, not over the launch's arguments


def length_relations(program: Program, fn: FunctionFacts, ctx: Context, bound: dict, x: LaunchFact,
                     known_args: list[bool], sizes: list[Expr | None]) -> tuple[str | None, ...]:
    """Per argument, the bytes its buffer was allocated with (``sizes``, in the outermost caller's terms:
    :mod:`simu.host.ast.allocations`) as a number or an expression of the launch's arguments whose values are not
    known (``4*_a4_*10``); ``()`` when none is."""
    render = Renderer(program, fn, arg_names([lift(a, ctx, bound) for a in x.args], known_args, variables=True))
    out = []
    for size in sizes:
        t = render.text(size) if size is not None else None
        if t is not None and (ARG.search(t) or t.isdigit()):
            out.append(t)
        else:  # a size the program computes at run time and the kernel is not given: no number stands for it
            out.append(RUNTIME_LENGTH if size is not None and runtime_value(size) else None)
    return tuple(out) if any(out) else ()


def over_arguments(program: Program, fn: FunctionFacts, args: tuple[Expr, ...], e: Expr) -> str | None:
    """``e`` (in ``fn``'s own terms) as a number or an expression of the launch arguments ``args`` (also in ``fn``'s
    terms) it is computed from; None when it needs anything else."""
    # a variable read at run time is one value at both launches of one function
    text = Renderer(program, fn, arg_names(list(args), [False] * len(args), variables=True)).text(e)
    return text if text is not None and (ARG.search(text) or text.isdigit()) else None


def arg_names(args: list[Expr], known_args: list[bool], variables: bool = False) -> dict[Expr, str]:
    """The launch's arguments (lifted) whose values are not known, each named by its position (``_a2_``);
    ``variables``: an unknown that names a variable too (:func:`~simu.host.ast.expr.names_variable`)."""
    names: dict[Expr, str] = {}
    for i, a in enumerate(args):
        if not known_args[i] and (_comparable(a) or variables and names_variable(a)) and a not in names:
            names[a] = f"_a{i}_"
    return names


def _dim(render: Renderer, e: Expr, ctx: Context, bound: dict) -> Sym | None:
    out = []
    for c in dim_parts(e):
        r = render.text(lift(c, ctx, bound))
        out.append(r if r is not None and ARG.search(r) else None)
    return tuple(out) if any(out) else None  # type: ignore[return-value]


def _block_names(block: Expr, ctx: Context, bound: dict) -> dict[Expr, str]:
    """The block's components that are not constant, named as the search's block (``dim3 b(sizes[k]); k<<<g, b>>>(
    …, off - sizes[k])``: the argument is ``off - blockDim_x``, which :mod:`simu.evolve.genome` evaluates with the
    block it draws)."""
    comps = list(block.items) if isinstance(block, Items) else [block]
    out: dict[Expr, str] = {}
    for d, c in enumerate(comps[:3]):
        lifted = uncast(lift(c, ctx, bound))  # dim3's unsigned members: the value an argument computes with
        if _comparable(lifted) and lifted not in out:
            out[lifted] = BLOCK_DIMS[d]
    return out


def _comparable(e: Expr) -> bool:
    """Whether two occurrences of ``e`` in one launch are one value (not an unknown of some other origin, nor a
    call that returns something new each time): a variable a loop changed is one (at one launch, one value however
    often read: :func:`~simu.host.ast.expr.loop_variable`)."""
    if isinstance(e, Const) or isinstance(e, Unknown) and not loop_variable(e):
        return False
    return _stable(e)


def _stable(e: Expr) -> bool:
    """Whether every read of ``e`` in one launch is one value: no call that returns something new each time, and
    no unknown but one naming a variable or one expression's value, or the size of a template's type."""
    if isinstance(e, Unknown):
        return loop_variable(e) or names_variable(e) or e.why.startswith("sizeof(")
    if isinstance(e, Call) and e.function in _VOLATILE:
        return False
    return all(_stable(c) for c in _children(e))


def _clamp(e: Expr, constant) -> tuple[str, Expr, int] | None:
    """``x > a ? x : a + 1`` (and ``x >= a ? x : a``) as ``("max", x, bound)``, ``x < a ? x : a - 1`` (``x <= a``)
    as ``("min", …)``: an integer clamped at a constant."""
    if not (isinstance(e, Cond) and isinstance(e.test, Op) and len(e.test.args) == 2):
        return None
    x, a = e.test.args
    lo, other = constant(a), constant(e.other)
    if uncast(x) != uncast(e.then) or lo is None or other is None:
        return None
    step = {">": 1, ">=": 0, "<": -1, "<=": 0}.get(e.test.op)
    if step is None or other != lo + step:
        return None
    return ("max" if e.test.op in (">", ">=") else "min"), e.then, int(other)


class Renderer:
    """Expressions written over argument positions; a part with no parameter in it is folded to its value."""

    def __init__(self, program: Program, fn: FunctionFacts, names: dict[Expr, str]):
        self.program, self.fn, self.names = program, fn, names
        self._depth = 0  # helpers being inlined

    def text(self, e: Expr, exclude: str = "") -> str | None:
        made = self._text(e, exclude)
        return made[0] if made is not None else None

    def _text(self, e: Expr, exclude: str) -> tuple[str, int] | None:
        """The text and its precedence (an atom is 9), parenthesised only where C needs it."""
        name = self.names.get(e)
        if name is not None and name != exclude:
            return name, 9
        v = self._constant(e)
        if v is not None:
            return (str(v), 9) if v >= 0 else (f"({v})", 9)
        if isinstance(e, Cast) and e.kind in "iu":
            return self._text(e.arg, exclude)
        if isinstance(e, (Call, Field)):
            # a helper of one return, its parameters the call's arguments (``divUp(n, 256)``); a member every write
            # gives one expression of the object's other members (``x_stride_ = x_h_ * x_w_`` in another method)
            body = self._inlined(e) if isinstance(e, Call) else self._assigned(e)
            if body is None:
                return None
            self._depth += 1
            try:
                return self._text(body, exclude)
            finally:
                self._depth -= 1
        if isinstance(e, Element) and isinstance(e.base, Items) and isinstance(e.index, Const) \
                and 0 <= int(e.index.value) < len(e.base.items):  # ``t.x`` of ``dim3 t(…)``: that member
            return self._text(e.base.items[int(e.index.value)], exclude)
        bounded = _clamp(e, self._constant)
        if bounded is not None:  # ``count > 0 ? count : 1``: max(count, 1)
            inner = self._text(bounded[1], exclude)
            return None if inner is None else (f"{bounded[0]}({inner[0]}, {bounded[2]})", 9)
        rounded = _rounded_quotient(e, self._constant) or _divided_up(e)
        if rounded is not None:  # (int)ceil((double)n / b): the integer round-up, over counts and sizes
            parts = [self._text(a, exclude) for a in rounded[1:]]
            if any(p is None for p in parts):
                return None
            (a, pa), (b, pb) = parts  # type: ignore[misc]
            b = b if pb == 9 else f"({b})"
            return (f"({a}+{b}-1)/{b}" if rounded[0] == "ceil" else f"{a if pa >= 3 else f'({a})'}/{b}"), 3
        if not (isinstance(e, Op) and e.kind in "iu"):
            return None
        parts = [self._text(a, exclude) for a in e.args]
        if any(p is None for p in parts):
            return None
        if e.op in _PRECEDENCE and len(parts) == 2:
            (a, pa), (b, pb) = parts  # type: ignore[misc]
            prec = _PRECEDENCE[e.op]
            a = a if pa >= prec else f"({a})"
            b = b if pb > prec else f"({b})"
            return f"{a}{e.op}{b}", prec  # written as the text reader normalises (simu.host.relations.norm)
        if e.op in ("min", "max") and len(parts) == 2:
            return f"{e.op}({parts[0][0]}, {parts[1][0]})", 9  # type: ignore[index]
        if e.op == "neg" and len(parts) == 1:
            return f"-({parts[0][0]})", 9  # type: ignore[index]
        return None

    def _inlined(self, e: Call) -> Expr | None:
        """The one ``return`` expression of the project function ``e`` calls, over the call's arguments; None for a
        function with several returns, another number of parameters, an overload, or past a few nested calls."""
        targets = [f for f in self.program.functions.get(e.function, ()) if f.returns is not None
                   and call_args(e, f) is not None]
        if len(targets) != 1 or isinstance(targets[0].returns, Choice) or self._depth >= MAX_INLINED:
            return None
        args = call_args(e, targets[0]) or ()
        return lift(targets[0].returns, Context(tuple(None for _ in args), exprs=tuple(args)), {})

    def _assigned(self, e: Field) -> Expr | None:
        """The one expression every write in the program gives a member ``e``, when it is made of the same object's
        other members alone (no parameter, call or unknown: one value at the launch's object); None otherwise, past
        a few nested substitutions, and for a global."""
        writes = self.program.writes.get((e.record, e.name), [])
        values = {v for _, v in writes}
        if e.record == "::" or len(values) != 1 or self._depth >= MAX_INLINED:
            return None
        value = next(iter(values))
        return value if _members_of(value, e.record) else None

    def requirement(self, c: Expr, holds: bool) -> list[str]:
        """``c`` (holding or not) as comparisons over the arguments; ``a && b`` holding is two."""
        if isinstance(c, Op) and c.op == "!" and len(c.args) == 1:
            return self.requirement(c.args[0], not holds)
        if isinstance(c, Op) and (c.op, holds) in (("&&", True), ("||", False)):
            return [r for a in c.args for r in self.requirement(a, holds)]
        if isinstance(c, Op) and c.op in _COMPARE and len(c.args) == 2:
            a, b = self.text(c.args[0]), self.text(c.args[1])
            if a is not None and b is not None:
                return [f"{a} {c.op if holds else _COMPARE[c.op]} {b}"]
        return []

    def _named(self, e: Expr) -> bool:
        """Whether ``e`` reads a launch argument the search draws (``a.rows % 32`` is not folded to the 0 every
        value the program assigns ``rows`` gives: the argument is free, the requirement keeps it)."""
        return e in self.names or any(self._named(c) for c in _children(e))

    def _constant(self, e: Expr) -> int | None:
        if isinstance(e, Const):
            return int(e.value) if float(e.value).is_integer() else None
        if not isinstance(e, (Op, Cast, Field, Call, Element)) or _free(e) or self._named(e):
            return None
        vals = self.program.values(e, self.fn, Context(()))
        if vals is None or len(vals) != 1 or not float(vals[0]).is_integer():
            return None
        return int(vals[0])


def _members_of(e: Expr, record: str) -> bool:
    """Whether ``e`` is integer arithmetic over constants and members of ``record`` (at least one)."""
    def plain(x: Expr) -> bool:
        if isinstance(x, Field):
            return x.record == record
        if isinstance(x, (Const, Cast)) or isinstance(x, Op) and x.kind in "iu":
            return all(plain(c) for c in _children(x))
        return False
    return plain(e) and reads_member(e)


def _rounded_quotient(e: Expr, constant) -> tuple[str, Expr, Expr] | None:
    """``ceil((double)a / (double)b)`` or ``floor(…)`` of two integers as ``("ceil", a, b)`` (C's float quotient of
    counts, rounded as an integer expression would be; ``constant`` folds an operand the program fixes, ``4.f *
    BLOCK``); None for anything else."""
    if not (isinstance(e, Op) and e.op in ("ceil", "floor") and len(e.args) == 1):
        return None
    q = e.args[0]
    if not (isinstance(q, Op) and q.op == "/" and q.kind == "f" and len(q.args) == 2):
        return None
    ints = []
    for a in q.args:
        inner = a
        while isinstance(inner, Cast) and inner.kind == "f":
            inner = inner.arg
        folded = constant(inner)
        if isinstance(inner, Const) and float(inner.value).is_integer():
            ints.append(Const(int(inner.value)))
        elif folded is not None:
            ints.append(Const(folded))
        elif inner is not a and (not isinstance(inner, (Op, Cast, Const)) or inner.kind in "iu"):
            ints.append(inner)
        else:
            return None
    return e.op, ints[0], ints[1]


def _divided_up(e: Expr) -> tuple[str, Expr, Expr] | None:
    """``a / b + (a % b > 0)`` (or ``!= 0``: a ``DIVUP`` macro) of two integers as ``("ceil", a, b)``, which it is
    for the counts and sizes a launch divides; None for anything else."""
    if not (isinstance(e, Op) and e.op == "+" and e.kind in "iu" and len(e.args) == 2):
        return None
    for q, r in (e.args, e.args[::-1]):
        q, r = uncast(q), uncast(r)
        if not (isinstance(q, Op) and q.op == "/" and len(q.args) == 2 and isinstance(r, Op) and r.op in (">", "!=")
                and len(r.args) == 2 and isinstance(r.args[1], Const) and r.args[1].value == 0):
            continue
        rem = uncast(r.args[0])
        if isinstance(rem, Op) and rem.op == "%" and [uncast(a) for a in rem.args] == [uncast(a) for a in q.args]:
            return "ceil", q.args[0], q.args[1]
    return None


def _free(e: Expr) -> bool:
    """Whether the value depends on what is not fixed here: a parameter (of the outermost caller), a loop or a
    branch not bound."""
    if isinstance(e, Param) or not isinstance(e, (Op, Cast, Field, Call, Const, Element, Items)):
        return True
    return any(_free(c) for c in _children(e))

