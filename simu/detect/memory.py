"""Memory errors: out-of-bounds and null accesses (recorded by the machine), uninitialised shared reads."""

from __future__ import annotations

import numpy as np

from simu.codes import MEMORY, severity_of
from simu.detect.check import Check
from simu.detect.context import Context
from simu.detect.finding import Finding
from simu.detect.pairs import dense_ids, dense_words, expand_words
from simu.interp.memory import SPACE_SHARED
from simu.interp.trace import READ


def check_memory(ctx: Context) -> list[Finding]:
    out = []
    for e in ctx.result.memory_errors:
        loc = ctx.location(e.instr)
        th = ctx.thread(e.lane, e.action)
        if e.kind == "out-of-bounds":
            msg = (f"out-of-bounds {e.action} of {e.size} bytes at byte offset {e.offset} of {e.space} "
                   f"'{e.alloc}' ({e.alloc_size} bytes) by {th}" + (f" ({e.detail})" if e.detail else ""))
        else:
            msg = f"{e.kind} {e.action} of {e.size} bytes by {th}"
        out.append(Finding(e.kind, severity_of(e.kind), ctx.kernel.display_name, msg, loc, None, e.space, e.alloc,
                           e.offset // max(e.size, 1), (th,), {"offset": e.offset, "size": e.size},
                           ctx.record))
    out += _uninitialised_shared(ctx)
    return out


def _uninitialised_shared(ctx: Context) -> list[Finding]:
    """Shared reads of words that no thread of the block had written before (in trace order).

    Shared addresses already differ per block (one instance each), so a word identifies the
    block too; the trace is chronological, so the first write of a word is its first index.
    Judged batch by batch (batches.py: a batch holds every access of its words)."""
    t = ctx.trace
    found: dict[int, list[int]] = {}  # instruction -> [first bad row, bad reads]
    for batch in ctx.batches:
        for iid, first, count in _unwritten_reads(t, batch, ctx.result.allocations):
            seen = found.setdefault(iid, [first, 0])
            seen[0] = min(seen[0], first)
            seen[1] += count
    out = []
    for iid, (r, count) in sorted(found.items()):
        space, var, elem = ctx.variable(int(t.addr[r]), int(t.size[r]), int(t.lane[r]))
        th = ctx.thread(int(t.lane[r]), "read")
        msg = f"read of shared {var}[{elem}] that no thread of the block wrote before, by {th}"
        out.append(Finding("uninitialized", severity_of("uninitialized"), ctx.kernel.display_name, msg,
                           ctx.location(iid), None, "shared", var, elem, (th,), {}, ctx.record, count))
    return out


def _unwritten_reads(t, batch: np.ndarray, allocations) -> list[tuple[int, int, int]]:
    """Per instruction of one batch's shared reads of words not written before: (instruction, its first such
    row, how many such word reads)."""
    keep = batch[t.space[batch] == SPACE_SHARED]
    if len(keep) == 0:
        return []
    rid, word, _ = expand_words(t.addr[keep], t.size[keep])
    row = keep[rid]
    is_w = t.action[row] != READ
    ids = dense_words(word, allocations)
    n = int(ids.max()) + 1 if ids is not None else 0
    if ids is None:
        ids, n = dense_ids(word)
    w_pos = np.flatnonzero(is_w)
    first_write = np.full(n, np.iinfo(np.int64).max)
    first_write[ids[w_pos[::-1]]] = w_pos[::-1]  # the last assignment wins: each word's first write
    r_pos = np.flatnonzero(~is_w)
    before = r_pos < first_write[ids[r_pos]]
    bad_rows = row[r_pos[before]]
    if len(bad_rows) == 0:
        return []
    instrs = t.instr[bad_rows]
    iids, first_at, counts = np.unique(instrs, return_index=True, return_counts=True)
    return list(zip(iids.tolist(), bad_rows[first_at].tolist(), counts.tolist(), strict=True))


class MemoryCheck(Check):
    """Out-of-bounds, null and invalid-pointer accesses, and reads of never-written shared memory."""

    name = MEMORY

    def on_launch(self, ctx: Context) -> list[Finding]:
        return check_memory(ctx)
