"""Contents the host writes into an OpenCL buffer before a launch (issue 29, item 2, for the raw OpenCL API):
``for (i…) h[i] = rand() % n; cl_mem d = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes, h, &e);`` or
``clEnqueueWriteBuffer(q, d, CL_TRUE, 0, bytes, h, …)``, then ``clSetKernelArg(k, 0, sizeof(cl_mem), &d)``: the
kernel's buffer holds what the host wrote (:mod:`simu.host.ast.contents` classifies it, as for ``cudaMemcpy``).

A buffer is known by the ``clCreateBuffer`` call that made it (its site, :func:`simu.host.ast.expr.read_at`, rides
in the call's tree), in the function that sets the argument; a launch enqueued on the way from the copy to this one
may have written it, and then the search keeps choosing its contents."""

from __future__ import annotations

from simu.host.ast.contents import HELPER, helper_fill
from simu.host.ast.expr import Call, Const, Expr
from simu.host.ast.facts import FunctionFacts
from simu.host.ast.opencl import CREATE_BUFFER, ENQUEUE
from simu.host.ast.values import Context, Program

Fill = tuple[int, str, int | float | None, int | None]  # (argument, kind, value, the argument that value is)


def opencl_fills(program: Program, fn: FunctionFacts, line: int, raw: dict[int, Expr]) -> tuple[Fill, ...]:
    """For each argument position whose value (``raw``: as ``fn`` sets it) is a buffer ``fn`` made, the fill the
    host copied into it last before the launch at ``line``."""
    out: list[Fill] = []
    for i, tree in sorted(raw.items()):
        site = _site(tree)
        copies = [c for c in fn.copies if c[0] < line and site is not None and _site(c[1]) == site]
        if not copies:
            continue
        at, _, kind, value = max(copies, key=lambda c: c[0])
        if any(c.callee == ENQUEUE and at < c.line < line for c in fn.calls):
            continue  # a kernel enqueued in between may have written it
        if kind == HELPER:
            found = helper_fill(program.functions, value, fn.calls)
            if found is None:
                continue
            kind, value = found
        values = program.values(value, fn, Context((None,) * len(fn.params)))
        number = values[0] if values and len(values) == 1 else None
        same = next((j for j, t in raw.items() if t == value and not isinstance(t, Const)), None)
        out.append((i, kind, number, same))
    return tuple(out)


def _site(e: Expr) -> Expr | None:
    """The site of the ``clCreateBuffer`` call that made a buffer (its last argument), None for anything else."""
    return e.args[-1] if isinstance(e, Call) and e.function == CREATE_BUFFER and e.args else None
