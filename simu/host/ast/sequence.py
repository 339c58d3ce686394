"""Kernel sequences: the launches a function makes before a launch on some of the same variables (issue 29).

``scan<<<…>>>(d_flags, d_pos, n); scatter<<<…>>>(d_in, d_pos, d_out, n);`` — ``scatter`` reads the prefix sums
``scan`` leaves in ``d_pos``, not random bytes: random offsets collide where the program's never do, and a race
that needs the program's offsets is never seen.  For each launch this finds the latest earlier launch, in the same
function or in a function it calls before (one level: ``run(d_in, d_pos, n)`` whose body launches ``scan`` with its
parameters), that passes one of the same variables (a pointer the function allocated, or one of its parameters);
the search runs that kernel first at its own launch (:mod:`simu.evolve.sequence`).  A buffer copied whole into one
of the launch's on the device before it (``cudaMemcpy(d_cursor, d_start, …, cudaMemcpyDeviceToDevice)``) counts as
that one up to the copy.  Only launches whose grid and
block are constant run: the earlier kernel must run as the program runs it; another is kept as one not run
(``Prior.runs``), whose buffers hold data the program makes and the search does not have.
"""

from __future__ import annotations

from simu.host.ast.expr import Cast, Expr, Op, Param, dim_parts, names_variable
from simu.host.ast.facts import FunctionFacts, LaunchFact
from simu.host.ast.relations import over_arguments
from simu.host.ast.values import Context, lift
from simu.launch.constraints import Prior


def base_of(e: Expr) -> Expr:
    """The pointer an address is computed from (``out + i * n``: ``out``)."""
    while isinstance(e, (Cast, Op)):
        if isinstance(e, Cast):
            e = e.arg
        elif e.op in ("+", "-") and len(e.args) == 2:
            e = e.args[0]
        else:
            break
    return e


def _identity(e: Expr) -> Expr | None:
    """What names one variable across a function's statements: a parameter, or a local (clang's reader keeps a
    pointer the function allocated as the unknown it wrote, "d_pos written by cudaMalloc() at 23")."""
    e = base_of(e)
    if isinstance(e, Param) or names_variable(e):
        return e
    return None




def priors(program, fn: FunctionFacts, x: LaunchFact, values) -> tuple[Prior, ...]:
    """The earlier launches ``x`` depends on through a variable (see the module); ``values(g, y)`` gives the
    launch values (:class:`~simu.host.ast.launches.LaunchValues`) of launch ``y`` in function ``g``."""
    wanted = {ident: i for i, a in enumerate(x.args) if (ident := _identity(a)) is not None}
    if not wanted:
        return ()
    copied = _copied_from(fn, x, wanted)  # cudaMemcpy(d_cursor, d_start, …, DeviceToDevice): d_start until then
    found: dict[int, tuple[int, Prior]] = {}  # x's argument -> (line, the launch that last passed it)
    # (line, function, launch, shared arguments, what a call passes the function: None in fn itself)
    earlier: list[tuple[int, FunctionFacts, LaunchFact, dict[int, int], tuple[Expr, ...] | None]] = []
    for y in fn.launches:
        if y.line < x.line and y.kernel != x.kernel:
            shared = {j: wanted[ident] for j, a in enumerate(y.args) if (ident := _identity(a)) in wanted}
            shared.update({j: copied[ident][0] for j, a in enumerate(y.args)
                           if (ident := _identity(a)) in copied and y.line < copied[ident][1] and j not in shared})
            earlier.append((y.line, fn, y, shared, None))
    for c in fn.calls:
        if c.line >= x.line:
            continue
        callees = sorted(program.functions.get(c.callee, ()), key=lambda g: g.file != fn.file)  # its own file's first
        for g in callees[:1]:
            if len(g.params) != len(c.args):
                continue
            for y in g.launches:
                shared = {}
                for j, a in enumerate(y.args):
                    inner = _identity(a)
                    if isinstance(inner, Param) and inner.index < len(c.args):
                        outer = _identity(c.args[inner.index])
                        if outer in wanted:
                            shared[j] = wanted[outer]
                if y.kernel != x.kernel:
                    earlier.append((c.line, g, y, shared, c.args))
    for line, g, y, shared, passed in sorted(earlier, key=lambda e: e[0]):
        if not shared:
            continue
        prior = _prior(g, y, shared, values, grid_over(program, fn, x, y, passed)) or \
            Prior.unrun(y.kernel, f"{g.file}:{y.line}", tuple(sorted(shared.items())))
        for i in shared.values():
            found[i] = (line, prior)  # the latest launch given the variable (one simu cannot run: its data unknown)
    out: list[Prior] = []
    for _, p in sorted(found.values(), key=lambda v: v[0]):
        if p not in out:
            out.append(p)
    return tuple(out)


def _copied_from(fn: FunctionFacts, x: LaunchFact, wanted: dict) -> dict:
    """The device buffers copied whole into one of ``x``'s before it (``cudaMemcpy(dst, src, n,
    cudaMemcpyDeviceToDevice)``): src's identity -> (``x``'s argument, the copy's line); a kernel that wrote src
    before the copy wrote what ``x`` reads there."""
    out = {}
    for c in fn.calls:
        if c.callee in ("cudaMemcpy", "cudaMemcpyAsync") and c.line < x.line and len(c.args) >= 4 \
                and "DeviceToDevice" in str(c.args[3]) and (dst := _identity(c.args[0])) in wanted \
                and (src := _identity(c.args[1])) is not None and src not in wanted:
            out[src] = (wanted[dst], c.line)
    return out


def _prior(g: FunctionFacts, y: LaunchFact, shared: dict[int, int], values,
           grid_sym: tuple[str | None, ...] | None = None) -> Prior | None:
    """The prior ``y`` is: one constant launch; or, with ``grid_sym`` (its grid over the later launch's arguments,
    :func:`grid_over`), a constant block and a grid the later launch's values give."""
    made = [v for v in values(g, y) if v.block and None not in v.block and (
        grid_sym or v.grid and None not in v.grid)]
    if not made or any((v.grid, v.block) != (made[0].grid, made[0].block) for v in made):
        return None  # no constant launch, or several: not the one the program runs
    v = made[0]
    args = tuple((j, a) for j, a in enumerate(v.args) if a is not None and j not in shared)
    grid = tuple(v.grid) if v.grid and None not in v.grid else (1, 1, 1)
    return Prior(y.kernel, f"{v.file}:{v.line}", grid, tuple(v.block), args,  # type: ignore[arg-type]
                 tuple(sorted(shared.items())), v.shmem or 0,
                 grid_sym if grid_sym and not (v.grid and None not in v.grid) else ())


def grid_over(program, fn: FunctionFacts, x: LaunchFact, y: LaunchFact,
              passed: tuple[Expr, ...] | None = None) -> tuple[str | None, ...] | None:
    """The grid of ``y``, an earlier launch of ``x``'s function or of a function it calls with ``passed``, over
    ``x``'s arguments (``_a4_`` positions): ``radixSort<<<n / 4 / 128, 128>>>(…); find<<<n / 2 / 256, 256>>>(…, n)``
    gives ``(_a4_/4)/128``, and so does ``scan(d, n / 4)`` whose body launches ``<<<m / 128, 128>>>``; None when an
    axis is neither constant nor written over them."""
    parts = dim_parts(y.grid)
    if passed is not None:  # the callee's parameters as the call passes them, in fn's terms
        ctx = Context((None,) * len(passed), exprs=passed)
        parts = [lift(c, ctx) for c in parts]
    out = [over_arguments(program, fn, x.args, c) for c in parts]
    return tuple(out) if all(o is not None for o in out) else None
