"""Barrier divergence (recorded by the machine) and redundant barriers (judged on the trace)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simu.codes import BARRIERS, severity_of
from simu.detect.check import Check
from simu.detect.context import Context
from simu.detect.finding import Finding, SourceLocation
from simu.detect.pairs import expand_words, first_of, group_ranks, segment_ids, segment_starts, word_segments
from simu.interp.memory import SPACE_GLOBAL, SPACE_SHARED
from simu.interp.trace import ATOMIC, READ, WRITE
from simu.launch.record import LaunchRecord


def check_divergence(ctx: Context) -> list[Finding]:
    out = []
    tpb = ctx.launch.threads_per_block
    for d in ctx.trace.divergences:
        first_barrier = d.barriers[0]
        waiting = d.waiting[first_barrier]
        t1 = ctx.thread(d.block * tpb + waiting[0], "waits")
        second = None
        if len(d.barriers) > 1:
            other = d.waiting[d.barriers[1]]
            t2 = ctx.thread(d.block * tpb + other[0], "waits")
            second = ctx.location(d.barriers[1])
            why = f"{t2} waits at another barrier ({second})"
        elif d.grid_absent:  # grid-wide barrier: whole blocks returned without reaching it
            t2 = ctx.thread(d.grid_absent[0], "exited")
            why = f"{len(d.grid_absent)} thread(s) of other blocks such as {t2} had already exited"
        elif d.exited:
            t2 = ctx.thread(d.block * tpb + d.exited[0], "exited")
            why = f"{len(d.exited)} thread(s) such as {t2} had already exited"
        else:
            missing = sorted(set(range(tpb)) - set(waiting))
            t2 = ctx.thread(d.block * tpb + (missing[0] if missing else 0), "absent")
            why = f"{t2} never reached it"
        loc = ctx.location(first_barrier)
        block = "(" + ",".join(str(x) for x in t1.block) + ")"
        msg = (f"barrier divergence: {len(waiting)} thread(s) of block {block} such as thread "
               f"{'(' + ','.join(str(x) for x in t1.thread) + ')'} wait here "
               f"while {why}")
        out.append(Finding("barrier-divergence", severity_of("barrier-divergence"), ctx.kernel.display_name, msg,
                           loc, second, "", "", None, (t1, t2), {"waiting": len(waiting), "exited": len(d.exited)},
                           ctx.record))
    return out


@dataclass
class BarrierUse:
    """What one launch says about each static barrier (merged over launches by the search)."""

    executed: dict[int, bool] = field(default_factory=dict)  # barrier instr -> ran with >1 warp per block
    needed: dict[int, str] = field(default_factory=dict)  # barrier instr -> "inter-warp" | "intra-warp"

    def merge(self, other: "BarrierUse") -> None:
        for b, mw in other.executed.items():
            self.executed[b] = self.executed.get(b, False) or mw
        for b, how in other.needed.items():
            if self.needed.get(b) != "inter-warp":
                self.needed[b] = how


def barrier_use(ctx: Context) -> BarrierUse:
    """For every barrier instance: did it separate conflicting accesses in adjacent epochs?"""
    t = ctx.trace
    use = BarrierUse(dict(t.barrier_multiwarp), {})
    # a barrier that also reduces a value (__syncthreads_count/_and/_or) communicates: always needed
    for b in t.barrier_reduce:
        use.needed[b] = "inter-warp"
    # a divergent barrier is reported as divergence, not as redundant
    for d in t.divergences:
        for b in d.barriers:
            use.needed[b] = "inter-warp"
    rel = t.releases
    if len(rel) == 0 or len(t) == 0:
        return use
    for b in _publishing(ctx, rel):
        use.needed[b] = "inter-warp"
    parts = [p for p in (_conflict_spans(ctx, rows) for rows in ctx.batches) if p is not None]
    if not parts:
        return use
    blk, sp, e0, e1, iw, w, b, e = (np.concatenate([p[k] for p in parts]) for k in range(8))
    # the spans in the order one judgment of the whole trace meets them: by (word, block, epoch) of the later
    # access; each span once, inter-warp when any of its conflicts is
    at = np.lexsort((e, b, w))
    blk, sp, e0, e1, iw = blk[at], sp[at], e0[at], e1[at], iw[at]
    order = np.lexsort((e1, e0, sp, blk))
    first = segment_starts(blk[order], sp[order], e0[order], e1[order])
    sid = segment_ids(first)
    any_iw = np.bincount(sid, weights=iw[order]) > 0
    heads = np.sort(order[first])  # each span's first occurrence, in the order met
    head_sid = np.empty(len(order), np.int64)
    head_sid[order] = sid
    spans = {(int(blk[h]), int(sp[h]), int(e0[h]), int(e1[h])): bool(any_iw[head_sid[h]]) for h in heads.tolist()}
    # barrier that made each epoch of a (block, space)
    made = {(b_, sp_, e_): iid for b_, sp_, e_, iid in np.asarray(rel).tolist()}
    # a conflict between epochs e and e' needs one of the barriers that made e+1..e'; adjacent
    # epochs name it exactly; for longer spans prefer a barrier already needed, else the last
    how_of = lambda iw: "inter-warp" if iw or ctx.options.warp_model == "independent" else "intra-warp"
    for (blk_, sp_, e0_, e1_), iw_ in sorted(spans.items(), key=lambda kv: kv[0][3] - kv[0][2]):
        between = [made.get((blk_, sp_, e_)) for e_ in range(e0_ + 1, e1_ + 1)]
        between = [b_ for b_ in between if b_ is not None]
        if not between:
            continue
        if len(between) > 1 and any(use.needed.get(b_) == "inter-warp" or (use.needed.get(b_) and not iw_)
                                    for b_ in between):
            continue
        bid = between[-1]
        if how_of(iw_) == "inter-warp":
            use.needed[bid] = "inter-warp"
        elif bid not in use.needed:
            use.needed[bid] = "intra-warp"
    return use


def _conflict_spans(ctx: Context, keep: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """One batch's conflicts across epochs of one (word, block): per conflict (block, space, earlier epoch, later
    epoch, inter-warp) and where it sits (word, block, epoch of the later access); None when there is none."""
    t = ctx.trace
    tpb = ctx.launch.threads_per_block
    if len(ctx.batches) == 1:
        # only a word some thread modifies and two threads touch can hold a conflict: the race check's candidates,
        # and their segments, made once for both checks
        row, word, _ = ctx.candidate_accesses(keep)
        if len(row) == 0:
            return None
        sid, n, shared_only = ctx.candidate_segments(keep)
    else:  # nothing is kept between the checks: filtering first would cost more than it saves
        row, word, sid, n, shared_only = _batch_segments(ctx, keep)
    lane = t.lane[row].astype(np.int64)
    epoch = t.epoch[row]
    action = t.action[row]
    # summary per (word, block, epoch), numbered in that order: kinds of access, lane range, warp range
    counts = np.bincount(sid * 3 + action, minlength=3 * n).reshape(n, 3)
    has_r, has_w, has_a = counts[:, READ] > 0, counts[:, WRITE] > 0, counts[:, ATOMIC] > 0
    lmin, lmax = np.full(n, np.iinfo(np.int64).max), np.full(n, -1)
    np.minimum.at(lmin, sid, lane)
    np.maximum.at(lmax, sid, lane)
    wmin, wmax = ctx.warp_of(lmin), ctx.warp_of(lmax)  # a lane's warp grows with the lane
    sw, se = first_of(sid, word, n), first_of(sid, epoch, n).astype(np.int64)
    sb = lmin // tpb  # a segment's lanes are one block's
    sspace = np.full(n, SPACE_SHARED) if shared_only else first_of(sid, t.space[row].astype(np.int64), n)
    # neighbouring summaries of the same (word, block): the accesses of epoch e and the next epoch
    # that touches the word; the last barrier before the later access is the one that orders them
    # (with two barriers in a row, the second is needed and the first reported redundant)
    nxt = np.flatnonzero((sw[1:] == sw[:-1]) & (sb[1:] == sb[:-1]) & (se[1:] > se[:-1]))
    p, q = nxt, nxt + 1
    # atomics conflict with plain accesses but not with each other
    mod_p, mod_q = has_w[p] | has_a[p], has_w[q] | has_a[q]
    conflict = (mod_p & (has_r[q] | has_w[q])) | (has_r[p] & mod_q) | (has_w[p] & has_a[q])
    # different threads on the two sides (a thread ordering its own accesses needs no barrier)
    distinct = ~((lmin[p] == lmax[p]) & (lmin[q] == lmax[q]) & (lmin[p] == lmin[q]))
    hit = np.flatnonzero(conflict & distinct)
    if len(hit) == 0:
        return None
    p, q = p[hit], q[hit]
    inter_warp = ~((wmin[p] == wmax[p]) & (wmin[q] == wmax[q]) & (wmin[p] == wmin[q]))
    # each span once: where it first occurs (hits are in (word, block, epoch) order), inter-warp if any is
    span, nspan = group_ranks(sb[q], sspace[q], se[p], se[q])
    at = np.full(nspan, len(q))
    np.minimum.at(at, span, np.arange(len(q)))
    any_iw = np.zeros(nspan, bool)
    any_iw[span[inter_warp]] = True
    p, q = p[at], q[at]
    return sb[q], sspace[q], se[p], se[q], any_iw, sw[q], sb[q], se[q]


def _batch_segments(ctx: Context, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, bool]:
    """Every access of a batch split into 4-byte words: (trace rows, words, and their :func:`word_segments`)."""
    t = ctx.trace
    rid, word, _ = expand_words(t.addr[keep], t.size[keep])
    row = keep if len(rid) == len(keep) else keep[rid]  # one word per access: rid is the identity
    return (row, word, *word_segments(t, row, word, ctx.result.allocations, ctx.launch.threads_per_block))


@dataclass(frozen=True)
class BarrierObservation:
    """What the kernel phase keeps of one launch: barrier use, where each barrier is, the launch."""

    kernel: str
    use: BarrierUse
    locations: dict[int, SourceLocation | None]
    record: LaunchRecord


class BarrierCheck(Check):
    """Barrier divergence per launch; redundant barriers once per kernel, over every launch."""

    name = BARRIERS

    def on_launch(self, ctx: Context) -> list[Finding]:
        return check_divergence(ctx)

    def observe(self, ctx: Context) -> BarrierObservation:
        use = barrier_use(ctx)
        return BarrierObservation(ctx.kernel.display_name, use, {b: ctx.location(b) for b in use.executed}, ctx.record)

    def on_kernel_end(self, observations: list[BarrierObservation]) -> list[Finding]:
        if not observations:
            return []
        use, locations = _merged(observations)
        last = observations[-1]
        return redundant_findings(last.kernel, use, locations, last.record)

    def unsettled(self, observations: list[BarrierObservation]) -> bool:
        use, _ = _merged(observations)
        return any(mw and use.needed.get(b) != "inter-warp" for b, mw in use.executed.items())


def _merged(observations: list[BarrierObservation]) -> tuple[BarrierUse, dict[int, SourceLocation | None]]:
    use = BarrierUse()
    locations: dict[int, SourceLocation | None] = {}
    for o in observations:
        use.merge(o.use)
        locations.update(o.locations)
    return use, locations


def redundant_findings(kernel: str, use: BarrierUse, locations: dict[int, SourceLocation | None],
                       record: LaunchRecord) -> list[Finding]:
    """Barriers that ran with several warps per block and never separated a conflict.

    Judged per source location: an unrolled loop has several static copies of one barrier, and
    the barrier is only redundant when no copy was needed."""
    by_loc: dict[tuple, list[int]] = {}
    for bid in use.executed:
        loc = locations.get(bid)
        by_loc.setdefault((loc.file, loc.line, loc.column) if loc else ("?", bid, 0), []).append(bid)
    out = []
    for _, bids in sorted(by_loc.items(), key=lambda kv: str(kv[0])):
        if not any(use.executed[b] for b in bids):
            continue
        hows = {use.needed.get(b) for b in bids}
        how = "inter-warp" if "inter-warp" in hows else ("intra-warp" if "intra-warp" in hows else None)
        if how == "inter-warp":
            continue
        loc = locations.get(min(bids))
        if how == "intra-warp":
            msg = ("barrier only orders accesses within single warps; under the lockstep warp model "
                   "it could be __syncwarp()")
            detail = {"could_be": "__syncwarp"}
        else:
            msg = "redundant barrier: no execution needed it to order conflicting accesses"
            detail = {}
        out.append(Finding("redundant-barrier", severity_of("redundant-barrier"), kernel, msg, loc, None, "", "",
                           None, (), detail, record))
    return out


def _publishing(ctx: Context, rel: np.ndarray) -> set[int]:
    """Barriers that carry a spin-wait's synchronization to the rest of a block (:mod:`simu.interp.spinwait`):
    the one before a lane sets the flag, counter or lock, when other lanes of its block wrote global memory
    before it (it publishes their writes), and the one after a lane's wait ends, when other lanes of its block
    access global memory after it (they see what the wait acquired) — a grid barrier written by hand."""
    t = ctx.trace
    tpb = ctx.launch.threads_per_block
    made = {(int(b_), int(e_)): int(iid) for b_, sp_, e_, iid in rel if sp_ == SPACE_GLOBAL}
    glob = t.space == SPACE_GLOBAL
    out = set()
    for (e_lane, _, e_epoch), rows, later in ((ctx.releases, np.flatnonzero(glob & (t.action != READ)), False),
                                              (t.acquires, np.flatnonzero(glob), True)):
        if len(e_lane) == 0:
            continue
        lane = t.lane[rows].astype(np.int64)
        order = np.argsort(lane // tpb, kind="stable")  # the rows by block: each event looks at its block's only
        lane, epoch = lane[order], t.epoch[rows].astype(np.int64)[order]
        block = lane // tpb
        for x, e in sorted(set(zip(e_lane.tolist(), e_epoch.tolist(), strict=True))):
            barrier = made.get((x // tpb, e + 1 if later else e))
            if barrier is None or barrier in out:
                continue
            lo, hi = np.searchsorted(block, [x // tpb, x // tpb + 1])
            when = epoch[lo:hi] > e if later else epoch[lo:hi] < e
            if np.any((lane[lo:hi] != x) & when):
                out.add(barrier)
    return out
