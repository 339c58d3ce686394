"""OpenCL kernel sequences (issue 29, item 4, for the raw OpenCL API): ``clEnqueueNDRangeKernel(q, slots, …)`` then
``clEnqueueNDRangeKernel(q, pack, …)`` in one function, ``pos`` set as an argument of both, makes ``slots`` a prior
of ``pack`` (:class:`~simu.launch.constraints.Prior`), as :mod:`simu.host.ast.sequence` does for ``<<<>>>``: the
search runs ``slots`` first and ``pack`` reads what it leaves.

A buffer is one variable across the two launches when both pass the buffer one ``clCreateBuffer`` call made (its
site rides in the call's tree) or the same parameter of the function.  The earlier launch's local size must be
constant; its work-groups are constant too, or written over the later launch's arguments (a global size of ``n``
passed to both).  For each shared argument the latest earlier launch that passes it is the one that counts."""

from __future__ import annotations

from dataclasses import dataclass

from simu.host.ast.expr import Call, Expr, Param, Unknown, names_variable, uncast
from simu.host.ast.facts import FunctionFacts
from simu.host.ast.opencl import CREATE_BUFFER
from simu.host.ast.relations import over_arguments
from simu.host.ast.values import Program
from simu.launch.constraints import Prior


@dataclass(frozen=True)
class Earlier:
    """One earlier launch of the function, as one frame gives it."""

    kernel: str  # the kernel's name, as clCreateKernel gave it
    site: str  # "file:line"
    raw: dict[int, Expr]  # its arguments by position, in the function's terms
    known: dict[int, int | float]  # the arguments whose one value is known
    global_items: tuple[Expr, ...] | None  # its global size's components, in the function's terms
    global_size: tuple[int | None, ...] | None
    local_size: tuple[int | None, ...] | None


def opencl_priors(program: Program, fn: FunctionFacts, raw: dict[int, Expr], earlier: list[Earlier]
                  ) -> tuple[Prior, ...]:
    """The priors of a launch whose arguments are ``raw`` (by position, in ``fn``'s terms), from the launches
    ``earlier`` in the order the function makes them."""
    wanted = {i: ident for i, e in raw.items() if (ident := identity(e)) is not None}
    latest: dict[int, Prior] = {}  # this launch's argument -> the prior that last passed it
    for t in earlier:
        shared = {j: i for j, e in t.raw.items() for i, ident in wanted.items() if identity(e) == ident}
        if not shared:
            continue
        prior = _prior(program, fn, raw, t, shared) or Prior.unrun(t.kernel, t.site, tuple(sorted(shared.items())))
        for i in shared.values():
            latest[i] = prior  # the latest launch given the buffer (one simu cannot run: its data unknown)
    out: list[Prior] = []
    for p in latest.values():
        if p not in out:
            out.append(p)
    return tuple(out)


def identity(e: Expr | None) -> Expr | None:
    """What names one buffer across a function's launches: the ``clCreateBuffer`` call that made it, a parameter,
    or a variable a call wrote."""
    if e is None:
        return None
    e = uncast(e)
    if isinstance(e, Call) and e.function == CREATE_BUFFER and e.args:
        return e.args[-1]
    return e if isinstance(e, Param) or names_variable(e) else None


def _prior(program: Program, fn: FunctionFacts, raw: dict[int, Expr], t: Earlier, shared: dict[int, int]
           ) -> Prior | None:
    local = t.local_size
    if not local or None in local or any(v <= 0 for v in local):  # type: ignore[operator]
        return None
    dims = len(local)
    block = tuple(list(local) + [1] * (3 - dims))[:3]
    grid: list[int] = [1, 1, 1]
    grid_sym: list[str | None] = [None, None, None]
    args = tuple(raw.get(i, Unknown("not set")) for i in range(max(raw, default=-1) + 1))
    for d in range(dims):
        g = t.global_size[d] if t.global_size and d < len(t.global_size) else None
        if g is not None and g % local[d] == 0:  # type: ignore[operator]
            grid[d] = g // local[d]  # type: ignore[operator]
            continue
        item = t.global_items[d] if t.global_items and d < len(t.global_items) else None
        text = over_arguments(program, fn, args, item) if item is not None else None
        if text is None:
            return None  # a grid the program computes from what this launch is not given
        grid_sym[d] = f"({text})/{local[d]}"
    constants = tuple((j, v) for j, v in sorted(t.known.items()) if j not in shared)
    return Prior(t.kernel, t.site, tuple(grid), block, constants,  # type: ignore[arg-type]
                 tuple(sorted(shared.items())), 0, tuple(grid_sym) if any(grid_sym) else ())
