"""Buffer lengths through clang: the bytes a ``cudaMalloc`` gave the buffer a launch passes, followed through the
calls that hand the pointer down (``main`` allocates ``d_nl`` of ``sizeof(int) * n * MAX`` bytes and calls
``timing(d_nl, …)``, which launches with it).

clang's reader keeps a pointer an allocator wrote as the unknown it names ("d_nl written by cudaMalloc() at 39",
:func:`simu.host.ast.expr.written`); lifted into the outermost caller's terms
(:func:`simu.host.ast.values.lift`), a launch's pointer argument is that unknown, and the allocator's call at that
line holds the bytes.  The bytes are written like the launch's other relations (:mod:`simu.host.ast.relations`): a
number, or an expression of the launch's arguments whose values are not known (``4*_a4_*10``)."""

from __future__ import annotations

import re

from simu.host.ast.expr import Call, Expr, Param, _children, uncast, writer
from simu.host.ast.facts import CallFact, FunctionFacts
from simu.host.ast.values import Context, Program, lift

ALLOCATORS = frozenset({"cudaMalloc", "cudaMallocManaged", "cudaMallocAsync", "cuMemAlloc"})
_SITE = re.compile(r" at (\S+):\d+$")  # a trail's call: "main at app/main.cpp:12"


def allocated_bytes(program: Program, fn: FunctionFacts, ctx: Context, bound: dict, arg: Expr) -> Expr | None:
    """The bytes allocated for the buffer launch argument ``arg`` of ``fn`` points to (its start: no offset), in
    the outermost caller's terms; None when not an allocation this reader saw."""
    lifted = uncast(lift(arg, ctx, bound))
    if isinstance(lifted, Call):
        return _returned(program, lifted)
    wrote = writer(lifted)
    if wrote is None or wrote[0] not in ALLOCATORS:
        return None
    callee, line = wrote
    own = [c for c in fn.calls if _allocates(c, callee, line)]
    if own:  # allocated where it is launched: its bytes lift as the launch's arguments do
        return lift(own[0].args[1], ctx, bound)
    files = {m.group(1) for t in ctx.trail if (m := _SITE.search(t))}  # the callers on the way: whose unknown it is
    found = {c.args[1] for fs in program.functions.values() for g in fs if g is not fn and g.file in files
             for c in g.calls if _allocates(c, callee, line)}
    if len(found) != 1:
        return None  # none seen, or calls of that line in several files disagree
    size = found.pop()
    return None if _has_param(size) else size  # in a caller's own terms: only what needs none of its parameters


def _returned(program: Program, call: Call) -> Expr | None:
    """The bytes of the buffer a project helper allocates and returns (``d_row = upload(row, n + 1)`` whose body
    is ``cudaMalloc(&d, count * sizeof(int)); …; return d;``), in the terms of the call's arguments."""
    helpers = [g for g in program.functions.get(call.function, ()) if len(g.params) == len(call.args)]
    if len(helpers) != 1 or helpers[0].returns is None:
        return None
    g = helpers[0]
    wrote = writer(uncast(g.returns))
    own = [c for c in g.calls if wrote is not None and wrote[0] in ALLOCATORS and _allocates(c, *wrote)]
    if len(own) != 1:
        return None
    return lift(own[0].args[1], Context((None,) * len(call.args), exprs=call.args), {})


def _allocates(c: CallFact, callee: str, line: int) -> bool:
    return c.callee == callee and c.line == line and len(c.args) >= 2


def _has_param(e: Expr) -> bool:
    return isinstance(e, Param) or any(_has_param(c) for c in _children(e))
