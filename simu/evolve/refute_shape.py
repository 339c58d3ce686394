"""Errors only an unusual block size shows, where no host code gives the block (issues 28, 29: trust).

With no host launch, or one whose block the host computes at run time, the search draws the block too, and it tries
sizes such as 3, 65 or 194 threads.  Kernels are written for powers of two (a tree reduction halving
``blockDim.x``, a bitonic step ``tid ^ j``, a tile of ``16 x 16``), and an error that only such an odd size shows is
no launch their programs make: the OpenCL sort that collides only when the work-group is not a power of two,
launched at 256 by its host.  Each error whose every witness has a block dimension that is not a power of two is
re-run once with those dimensions raised to the next power of two on the witness's own buffers and values (every
thread it ran runs again on the same data); an error that re-run does not show is a warning that names both sizes.
A block the host or the user gives, or that the kernel requires or caps, is never changed, and a re-run the
allowance has no room for decides nothing: the error stands.
"""

from __future__ import annotations

import dataclasses
import math

from simu import codes
from simu.evolve.refute import affordable, most_shared, witnesses
from simu.evolve.refute_state import COST_FACTOR, collision
from simu.pipeline import beyond_contract


def usual(size: int) -> bool:
    """Whether a block dimension is one every kernel is written for: a power of two (a tree reduction or a bitonic
    sort over 96 threads is not what its author launches, though 96 is three whole warps)."""
    return size & (size - 1) == 0


def refute_by_block_shape(search) -> None:
    """Errors only blocks of unusual sizes show become warnings (see the module)."""
    layout = search.layout
    if layout.fixed_block or layout.shape.reqd_block or any(d.startswith("block") for d in layout.dims):
        return
    pending = {}
    for key, (f, _) in search.found.items():
        shown = witnesses(search, key) if f.severity == codes.ERROR else []
        if shown and all(not all(usual(b) for b in w[0].launch.block) for w in shown):
            pending[key] = affordable(search, shown)
    while pending:
        witness = most_shared(search, pending)
        judged = [key for key, shown in pending.items() if any(e is witness for e, _ in shown)]
        for key in judged:
            del pending[key]
        block = witness.launch.block
        raised = tuple(b if usual(b) else 1 << math.ceil(math.log2(b)) for b in block)
        cap = layout.shape.block_cap
        if cap and any(r > c for r, c in zip(raised, cap, strict=False)):
            continue  # the kernel is written for blocks no larger than the witness's: nothing to compare
        # the witness's own buffers and values: only the block grows, so every thread it ran runs again on them
        launch = dataclasses.replace(witness.launch, block=raised, args=dict(witness.launch.args),
                                     buffer_specs=dict(witness.launch.buffer_specs))
        ev = search.refute(launch=launch, like=witness, most=COST_FACTOR * max(witness.cost, 1))
        if ev is None:
            break  # no room, or the run taught nothing: the errors stand
        shown_there = {collision(f) for f in ev.findings}
        for key in judged:
            finding, genes = search.found[key]
            if collision(finding) not in shown_there:
                search.judge(key, beyond_contract(finding, (
                    f"only a block of {_dims(block)} threads shows it, not {_dims(raised)}: the block is the search's "
                    "(no host code or constraint gives it), and a kernel that halves or pairs its threads is launched "
                    "with powers of two"),
                    "block size: unusual"), genes)


def _dims(block) -> str:
    used = list(block)
    while len(used) > 1 and used[-1] == 1:
        used.pop()
    return " x ".join(str(b) for b in used)
