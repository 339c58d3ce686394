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
    t = ctx.trace
    rows = np.flatnonzero(t.space == SPACE_SHARED)
    if len(rows) == 0:
        return []
    lane = t.lane[rows].astype(np.int64)
    warp = ctx.warp_of(lane)
    word = (t.addr[rows] & OFFSET_MASK) >> 2
    bank = word % BANKS
    step = t.step[rows]
    # distinct words per (step, warp, bank); the same word is a broadcast
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
    out = []
    for iid in np.unique(instr_of_access[degree > 1]):
        d = degree[instr_of_access == iid]
        worst = int(d.max())
        n = int((d > 1).sum())
        msg = (f"{worst}-way shared-memory bank conflict ({n} of {len(d)} warp accesses conflict, "
               f"mean degree {d.mean():.1f})")
        out.append(Finding("bank-conflict", severity_of("bank-conflict"), ctx.kernel.display_name, msg,
                           ctx.location(iid), None,
                           "shared", "", None, (), {"degree": worst, "conflicting": n, "accesses": len(d)},
                           ctx.record, n))
    return out


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
