"""Searched launches outside the kernel's contract: what a launch shows that says the kernel was not written for
it (a shared tile indexed past its end or left partly unloaded, a thread's private array indexed by its thread
index, the kernel's own assertion).  Their findings are not the kernel's (:meth:`simu.evolve.search.Search._run`)."""

from __future__ import annotations

import numpy as np

from simu.detect.finding import Finding
from simu.pipeline import LaunchRun


def outside_contract(run: LaunchRun, findings: list[Finding], prior=None, tiles: frozenset[str] = frozenset()) -> bool:
    """A searched launch in which the kernel indexes its shared memory out of bounds was not written
    for (the kernel assumes other blocks or sizes); nor was a block smaller than the shared tile
    (``prior``) that leaves a tile (a static shared array) partly unloaded.  Such a launch is outside
    the kernel's contract: its findings are not reported (unless no launch is inside, see
    :meth:`~simu.evolve.search.Search.result`)."""
    if any(f.kind == "out-of-bounds" and f.space == "shared" for f in findings):
        return True
    launch = run.launch
    return prior is not None and any(b < p for b, p in zip(launch.block, prior, strict=False)) and (
        any(f.kind == "uninitialized" and f.space == "shared" for f in findings) or tile_unloaded(run, tiles))


def kernel_refuses(outcome) -> bool:
    """A searched launch the kernel's own check stops (``assert(blockDim.x <= 16)``, ``__trap()``): the kernel says
    it is not written for that launch, so the launch is invalid, not the kernel failed (other launches may pass)."""
    return outcome.reason.startswith(("assertion failed", "trap"))


def thread_indexed_private(f: Finding) -> bool:
    """An out-of-bounds access to a thread's own array at the element of its thread index (``int y[10]; …
    y[threadIdx.x]``): the kernel was written for blocks no larger than the array, so a searched block past it is
    outside the kernel's contract, as for a shared tile."""
    return f.kind == "out-of-bounds" and f.space == "private" and bool(f.threads) and f.element is not None \
        and f.element == f.threads[0].thread[0] > 0


def tile_unloaded(run: LaunchRun, tiles: frozenset[str]) -> bool:
    """Whether the first block left a byte of one of its static shared arrays (``tiles``) unwritten."""
    from simu.interp.memory import OFFSET_BITS, SPACE_SHARED
    from simu.interp.trace import READ

    allocs = [a for a in run.result.allocations
              if a is not None and a.space == SPACE_SHARED and a.name in tiles and a.instance_size > 0]
    t = run.result.trace
    if not allocs or t is None:
        return False
    rows = np.flatnonzero((t.space == SPACE_SHARED) & (t.action != READ) & (t.lane < run.launch.threads_per_block))
    ids = t.addr[rows] >> OFFSET_BITS
    offsets = t.addr[rows] & ((1 << OFFSET_BITS) - 1)
    sizes = t.size[rows]
    for a in allocs:
        sel = ids == a.id
        written = np.zeros(a.instance_size, bool)
        o, s = offsets[sel].astype(np.int64), sizes[sel].astype(np.int64)
        for k in range(int(s.max()) if len(s) else 0):
            m = (k < s) & (o + k < a.instance_size)
            written[o[m] + k] = True
        if not written.all():
            return True
    return False
