"""The trace's global and shared accesses in batches a check can judge one at a time (issue 31).

A shared word belongs to one block's instance, and a block's shared accesses can conflict, be ordered by its
barriers, read uninitialised words or collide in banks only among themselves; so shared accesses split by
ranges of blocks, and every per-word or per-warp rule judged batch by batch, then merged, gives what it gives on
the whole trace, within memory bounded by the batch.  Global accesses stay together (blocks race on them)."""

from __future__ import annotations

import numpy as np

from simu.interp.memory import SPACE_GLOBAL, SPACE_SHARED
from simu.interp.trace import Trace


def word_batches(trace: Trace, threads_per_block: int, batch_rows: int) -> list[np.ndarray]:
    """Rows of the global and shared accesses, each batch in trace order: one batch when they are at most
    ``batch_rows``; else all global accesses in one batch and the shared ones by ranges of whole blocks, each
    range at most ``batch_rows`` accesses (or one block)."""
    space = trace.space
    both = (space == SPACE_GLOBAL) | (space == SPACE_SHARED)
    total = int(np.count_nonzero(both))
    if total <= batch_rows:
        return [np.flatnonzero(both)] if total else []
    del both
    index = np.int32 if len(trace) < 1 << 31 else np.int64  # row numbers: half the bytes on any real trace
    out = []
    glob = np.flatnonzero(space == SPACE_GLOBAL).astype(index)
    if len(glob):
        out.append(glob)
    del glob
    shared = np.flatnonzero(space == SPACE_SHARED).astype(index)
    block = trace.lane[shared] // threads_per_block
    per_block = np.bincount(block)
    # greedy ranges of consecutive blocks, each closed before it would pass batch_rows
    batch_of = np.zeros(len(per_block), np.int64)
    b, filled = 0, 0
    for k, c in enumerate(per_block.tolist()):
        if filled and filled + c > batch_rows:
            b, filled = b + 1, 0
        batch_of[k] = b
        filled += c
    ids = batch_of.astype(np.uint16 if b < 1 << 16 else np.int64)[block]
    del block
    out += [shared[ids == k] for k in range(b + 1)]
    return [r for r in out if len(r)]
