"""What clang's values say about an OpenCL launch whose values are not all known: each scalar argument as an
expression of the kernel's *other* arguments, and the work-groups per axis as one of them — the OpenCL side of
:func:`simu.host.ast.relations.launch_relations`, in the same grammar (argument positions ``_a2_``).

``lda = ldb = ldc = N; …; clSetKernelArg(k, 1, sizeof(int), &lda); … &ldb); … &ldc); size_t g[2] = {N / 4, N / 4};
clEnqueueNDRangeKernel(q, k, 2, NULL, g, local, …)`` with ``N`` from the command line gives ``_a3_ = _a1_``,
``_a5_ = _a1_`` and ``_a1_/4/16`` work-groups along x: the search draws one size and the launch keeps the program's
shape, where drawing each alone makes a launch the program cannot (``ldc = 8`` for a 64-wide tile).  A
buffer argument made by ``clCreateBuffer(ctx, flags, N * N * sizeof(float), …)`` gets its bytes over the same
positions.  The arguments
are the values the frame's last ``clSetKernelArg`` of each index set before the launch, compared as lifted trees
(:func:`simu.host.ast.values.lift`)."""

from __future__ import annotations

from dataclasses import dataclass

from simu.host.ast.expr import Call, Expr, Unknown
from simu.host.ast.facts import FunctionFacts
from simu.host.ast.opencl import CREATE_BUFFER
from simu.host.ast.relations import Renderer, arg_names
from simu.host.ast.values import Program
from simu.host.relations import ARG, acyclic
from simu.launch.constraints import BLOCK_DIMS


@dataclass(frozen=True)
class CLRelations:
    args: tuple[str | None, ...] = ()  # per argument position, its value over the others' (``_a1_``)
    grid: tuple[str | None, ...] = ()  # per axis, work-groups over the arguments (``_a1_/4/16``)
    # per axis with a grid relation, the global size a non-zero multiple of the local size (OpenCL 1.x rejects
    # others)
    requires: tuple[tuple[str, ...], ...] = ()
    # per argument position, the bytes the clCreateBuffer it passes allocated, as a number or over the arguments
    lengths: tuple[str | None, ...] = ()


def opencl_relations(program: Program, fn: FunctionFacts, args: dict[int, tuple[Expr, bool]],
                     global_items: tuple[Expr, ...] | None, local_size: tuple[int | None, ...] | None) -> CLRelations:
    """The relations of one launch made in ``fn``: ``args`` maps each argument position to its lifted value and
    whether that value is known; ``global_items`` the global size's lifted components, ``local_size`` the local
    size's values."""
    if not args:
        return CLRelations()
    count = max(args) + 1
    exprs = [args[i][0] if i in args else Unknown("not set") for i in range(count)]
    known = [args[i][1] if i in args else True for i in range(count)]
    render = Renderer(program, fn, arg_names(exprs, known, variables=True))
    rel: list[str | None] = []
    for i, e in enumerate(exprs):
        r = None if known[i] else render.text(e, exclude=f"_a{i}_")
        rel.append(r if r is not None and ARG.search(r) else None)
    grid: list[str | None] = []
    requires: list[tuple[str, ...]] = []
    for d, g in enumerate(global_items or ()):
        size = local_size[d] if local_size and d < len(local_size) else None
        text = render.text(g)
        if text is not None and not size and (ARG.search(text) or text.isdigit()):
            grid.append(f"({text})/{BLOCK_DIMS[d]}")  # a local size the implementation picks: the search's block
            requires.append(())
            continue
        if text is None or not ARG.search(text) or not size:
            grid.append(None)
            requires.append(())
            continue
        grid.append(f"({text})/{size}")
        requires.append((f"({text})%{size} == 0", f"{text} >= {size}"))
    lengths: list[str | None] = []
    for e in exprs:
        size = e.args[2] if isinstance(e, Call) and e.function == CREATE_BUFFER and len(e.args) > 2 else None
        text = render.text(size) if size is not None else None
        lengths.append(text if text is not None and (ARG.search(text) or text.isdigit()) else None)
    return CLRelations(tuple(acyclic(rel)) if any(rel) else (), tuple(grid) if any(grid) else (), tuple(requires),
                       tuple(lengths) if any(lengths) else ())
