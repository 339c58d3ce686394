"""Performance findings after GKLEE: shared-memory bank conflicts, uncoalesced global accesses,
warp-divergent branches.  Each is reported per source instruction with how often it happened."""

from __future__ import annotations

import numpy as np

from simu.codes import PERF, severity_of
from simu.detect.check import Check
from simu.detect.context import Context
from simu.detect.finding import Finding
from simu.detect.pairs import segment_ids, segment_starts
from simu.interp.memory import OFFSET_MASK, SPACE_GLOBAL, SPACE_SHARED

BANKS = 32
SECTOR = 32
UNCOALESCED_RATIO = 2.0  # report when warps touch more than twice the minimum number of sectors


def check_bank_conflicts(ctx: Context) -> list[Finding]:
    """Per instruction: the degree of each warp access to shared memory (distinct words in its busiest bank).
    Judged batch by batch (a warp's accesses are its block's, so a batch holds them whole), then merged."""
    t = ctx.trace
    stats: dict[int, list[int]] = {}  # instruction -> [worst degree, conflicting, accesses, sum of degrees]
    for batch in ctx.batches:
        instr, degree = _warp_degrees(ctx, batch[t.space[batch] == SPACE_SHARED])
        if len(instr) == 0:
            continue
        order = np.argsort(instr, kind="stable")
        si, sd = instr[order], degree[order]
        starts = np.flatnonzero(segment_starts(si))
        worst = np.maximum.reduceat(sd, starts)
        conflicting = np.add.reduceat((sd > 1).astype(np.int64), starts)
        total = np.add.reduceat(sd, starts)
        sizes = np.diff(np.r_[starts, len(si)])
        for iid, w, c, n, s in zip(si[starts].tolist(), worst.tolist(), conflicting.tolist(), sizes.tolist(),
                                   total.tolist(), strict=True):
            acc = stats.setdefault(iid, [0, 0, 0, 0])
            acc[0], acc[1], acc[2], acc[3] = max(acc[0], w), acc[1] + c, acc[2] + n, acc[3] + s
    out = []
    for iid, (worst, n, accesses, total) in sorted(stats.items()):
        if worst <= 1:
            continue
        msg = (f"{worst}-way shared-memory bank conflict ({n} of {accesses} warp accesses conflict, "
               f"mean degree {total / accesses:.1f})")
        out.append(Finding("bank-conflict", severity_of("bank-conflict"), ctx.kernel.display_name, msg,
                           ctx.location(iid), None,
                           "shared", "", None, (), {"degree": worst, "conflicting": n, "accesses": accesses},
                           ctx.record, n))
    return out


def _warp_degrees(ctx: Context, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per warp access (one step of one warp) among ``rows``: its instruction and its degree (distinct words in
    its busiest bank; the same word is a broadcast).  A table of one row per access where the rows of each access
    are already together (the trace's order), else a sort by the four columns."""
    t = ctx.trace
    if len(rows) == 0:
        e = np.zeros(0, np.int64)
        return e, e
    lane = t.lane[rows].astype(np.int64)
    warp = ctx.warp_of(lane)
    word = (t.addr[rows] & OFFSET_MASK) >> 2
    step = t.step[rows]
    acc_key = step.astype(np.int64) * (int(warp.max()) + 1) + warp
    del lane
    span = int(word.max()) - int(word.min()) + 1 if len(word) else 1
    together = bool((acc_key[1:] >= acc_key[:-1]).all())
    if together:
        acc_start = segment_starts(acc_key)
        starts = np.flatnonzero(acc_start)
        sizes = np.diff(np.r_[starts, len(rows)])
        width = int(sizes.max())
        if width <= 64 and BANKS * span < 1 << 62:
            return t.instr[rows[starts]].astype(np.int64), _degrees(word, span, starts, sizes, width)
    bank = word % BANKS
    order = np.lexsort((word, bank, warp, step))
    s_step, s_warp, s_bank, s_word = step[order], warp[order], bank[order], word[order]
    new_word = segment_starts(s_step, s_warp, s_bank, s_word)
    bank_seg = segment_ids(segment_starts(s_step, s_warp, s_bank))
    distinct = np.bincount(bank_seg, weights=new_word).astype(np.int64)
    first_of_bank = segment_starts(s_step, s_warp, s_bank)
    access_seg = segment_ids(segment_starts(s_step[first_of_bank], s_warp[first_of_bank]))
    degree = np.zeros(int(access_seg[-1]) + 1, np.int64)
    np.maximum.at(degree, access_seg, distinct)
    instr_of_access = t.instr[rows][order][segment_starts(s_step, s_warp)]
    return instr_of_access.astype(np.int64), degree


def _degrees(word: np.ndarray, span: int, starts: np.ndarray, sizes: np.ndarray, width: int) -> np.ndarray:
    """Degree of each access whose rows are ``word[starts[k]:starts[k] + sizes[k]]``: one row of a table per
    access (padded), each sorted by (bank, word); distinct words counted along each bank's run."""
    nacc = len(starts)
    value = (word % BANKS) * span + (word - int(word.min()))
    if (sizes == width).all():
        table = value.reshape(nacc, width)
    else:
        table = np.full((nacc, width), np.iinfo(np.int64).max)
        acc = np.repeat(np.arange(nacc), sizes)
        table[acc, np.arange(len(word)) - np.repeat(starts, sizes)] = value
    table = np.sort(table, axis=1)
    valid = table != np.iinfo(np.int64).max
    new_word = valid.copy()
    new_word[:, 1:] &= table[:, 1:] != table[:, :-1]
    bank = table // span
    new_bank = np.ones_like(valid)
    new_bank[:, 1:] = bank[:, 1:] != bank[:, :-1]
    seen = np.cumsum(new_word, axis=1)
    before = np.maximum.accumulate(np.where(new_bank, seen - new_word, 0), axis=1)  # words seen before the run
    return (seen - before).max(axis=1).astype(np.int64)


def check_uncoalesced(ctx: Context) -> list[Finding]:
    t = ctx.trace
    rows = np.flatnonzero(t.space == SPACE_GLOBAL)
    if len(rows) == 0:
        return []
    lane = t.lane[rows].astype(np.int64)
    warp = ctx.warp_of(lane)
    step = t.step[rows]
    sector = t.addr[rows] // SECTOR
    order = np.lexsort((sector, warp, step))
    s_step, s_warp, s_sector = step[order], warp[order], sector[order]
    acc_start = segment_starts(s_step, s_warp)
    acc = segment_ids(acc_start)
    sectors = np.bincount(acc, weights=segment_starts(s_step, s_warp, s_sector)).astype(np.int64)
    nbytes = np.bincount(acc, weights=t.size[rows][order].astype(np.float64))
    minimum = np.maximum(np.ceil(nbytes / SECTOR), 1)
    ratio = sectors / minimum
    instr = t.instr[rows][order][acc_start]
    out = []
    for iid in np.unique(instr):
        k = instr == iid
        r = ratio[k]
        if r.mean() <= UNCOALESCED_RATIO:
            continue
        msg = (f"uncoalesced global access: {sectors[k].mean():.1f} sectors of 32 bytes per warp access on "
               f"average, {minimum[k].mean():.1f} needed ({r.mean():.1f}x)")
        out.append(Finding("uncoalesced", severity_of("uncoalesced"), ctx.kernel.display_name, msg,
                           ctx.location(iid), None,
                           "global", "", None, (), {"ratio": round(float(r.mean()), 2)}, ctx.record,
                           int(k.sum())))
    return out


def check_divergent_branches(ctx: Context) -> list[Finding]:
    out = []
    for iid, n in sorted(ctx.trace.divergent_branches.items()):
        msg = f"warp-divergent branch: {n} warp execution(s) split between both sides"
        out.append(Finding("divergent-branch", severity_of("divergent-branch"), ctx.kernel.display_name, msg,
                           ctx.location(iid), None, "", "", None, (), {"warps": n}, ctx.record, n))
    return out


def check_perf(ctx: Context) -> list[Finding]:
    return check_bank_conflicts(ctx) + check_uncoalesced(ctx) + check_divergent_branches(ctx)


class PerfCheck(Check):
    """GKLEE's performance findings: bank conflicts, uncoalesced accesses, divergent branches."""

    name = PERF

    def on_launch(self, ctx: Context) -> list[Finding]:
        return check_perf(ctx)
