"""Memory errors: out-of-bounds and null accesses (recorded by the machine), uninitialised shared reads."""

from __future__ import annotations

import numpy as np

from simu.detect.context import Context
from simu.detect.finding import Finding
from simu.detect.pairs import expand_words, segment_ids, segment_starts
from simu.interp.memory import SPACE_SHARED
from simu.interp.trace import READ


def check_memory(ctx: Context) -> list[Finding]:
    out = []
    for e in ctx.result.memory_errors:
        loc = ctx.location(e.instr)
        th = ctx.thread(e.lane, e.action)
        if e.kind == "out-of-bounds":
            msg = (f"out-of-bounds {e.action} of {e.size} bytes at byte offset {e.offset} of {e.space} "
                   f"'{e.alloc}' ({e.alloc_size} bytes) by {th}")
        else:
            msg = f"{e.kind} {e.action} of {e.size} bytes by {th}"
        out.append(Finding(e.kind, "error", ctx.kernel.display_name, msg, loc, None, e.space, e.alloc,
                           e.offset // max(e.size, 1), [th], {"offset": e.offset, "size": e.size},
                           ctx.launch_record()))
    out += _uninitialised_shared(ctx)
    return out


def _uninitialised_shared(ctx: Context) -> list[Finding]:
    t = ctx.trace
    keep = np.flatnonzero(t.space == SPACE_SHARED)
    if len(keep) == 0:
        return []
    rid, word, mask = expand_words(t.addr[keep], t.size[keep])
    row = keep[rid]
    block = t.lane[row].astype(np.int64) // ctx.launch.threads_per_block
    step = t.step[row]
    act = t.action[row]
    order = np.lexsort((step, block, word))
    w, b = word[order], block[order]
    start = segment_starts(w, b)
    sid = segment_ids(start)
    n = int(sid[-1]) + 1
    big = np.iinfo(np.int64).max
    first_write = np.full(n, big)
    is_w = act[order] != READ
    np.minimum.at(first_write, sid[is_w], step[order][is_w])
    bad = (act[order] == READ) & (step[order] < first_write[sid])
    if not bad.any():
        return []
    out = []
    rows = row[order][bad]
    instrs = t.instr[rows]
    for iid in np.unique(instrs):
        r = rows[instrs == iid][0]
        space, var, elem = ctx.variable(int(t.addr[r]), int(t.size[r]), int(t.lane[r]))
        th = ctx.thread(int(t.lane[r]), "read")
        count = int((instrs == iid).sum())
        msg = f"read of shared {var}[{elem}] that no thread of the block wrote before, by {th}"
        out.append(Finding("uninitialized", "warning", ctx.kernel.display_name, msg, ctx.location(iid), None,
                           "shared", var, elem, [th], {}, ctx.launch_record(), count))
    return out
