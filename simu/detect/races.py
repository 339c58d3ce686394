"""Data races (docs/architecture.md, detection rules), computed with sort-and-group on the trace arrays.

Two accesses conflict when they touch overlapping bytes, come from different threads, at least one
writes and they are not both atomic.  A conflict is a race unless ordered: same block and different
barrier epochs; or, within one warp, by the warp model (lockstep: the two threads ran together in
one group at some step between the accesses).  Different blocks are ordered only by a grid-wide
barrier between the accesses (cooperative groups' grid sync: different grid epochs).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from simu.codes import RACES, severity_of
from simu.detect.check import Check
from simu.detect.context import Context
from simu.detect.finding import Finding
from simu.detect.pairs import (
    any_per,
    dense_words,
    diversity_tier,
    expand_words,
    first_of,
    group_ids,
    group_ranks,
    modifying_pairs_within_segments,
    pairs_within_segments,
    rank_in_segment,
    segment_ids,
    segment_row_cap,
    segment_starts,
)
from simu.interp.grid_sync import grid_epochs
from simu.interp.memory import SPACE_GLOBAL, SPACE_SHARED
from simu.interp.spinwait import ordered_by_acquire
from simu.interp.trace import ATOMIC, READ, WRITE

ACTIONS = ("read", "write", "atomic")
# a word's byte mask (bit k: byte k) as the bits of those bytes in a value
_BYTE_MASKS = np.array([sum(0xFF << (8 * k) for k in range(4) if m >> k & 1) for m in range(16)], np.uint64)


class _Rows:
    """Columns of the candidate accesses of one batch (shared/global, expanded to 4-byte words).

    Only words that some thread writes (or updates atomically) and that two different threads
    touch can race; the batch is reduced to those words first, and a column is gathered only when a
    rule reads it, so that memory stays bounded on traces of tens of millions of accesses."""

    def __init__(self, ctx: Context, keep: np.ndarray):
        self._t = ctx.trace
        self._ctx = ctx
        self.keep = keep  # the rows judged (the batch, or the part of it that can race): the context's key
        self.row, self.word, self.mask = ctx.candidate_accesses(keep)

    def _col(self, name: str) -> np.ndarray:
        return getattr(self._t, name)[self.row]

    @cached_property
    def lane(self) -> np.ndarray:
        return self._col("lane").astype(np.int64)

    @cached_property
    def block(self) -> np.ndarray:
        return self.lane // self._ctx.launch.threads_per_block

    @cached_property
    def warp(self) -> np.ndarray:
        return self._ctx.warp_of(self.lane)

    @cached_property
    def lane_in_warp(self) -> np.ndarray:
        return self._ctx.lane_in_warp(self.lane)

    @cached_property
    def action(self) -> np.ndarray:
        return self._col("action")

    @cached_property
    def space(self) -> np.ndarray:
        return self._col("space")

    @cached_property
    def epoch(self) -> np.ndarray:
        return self._col("epoch")

    @cached_property
    def step(self) -> np.ndarray:
        return self._col("step")

    @cached_property
    def instr(self) -> np.ndarray:
        return self._col("instr")

    @cached_property
    def value(self) -> np.ndarray:
        """The bytes each row stored into its word, at their places in the word (0 for a read): two stores that
        overlap in part (a `vstore8` clamped to the array's end and its neighbour's) are compared on the bytes
        they share (:func:`same_bytes`)."""
        bits = self._t.values_at(self.row)
        offset = (self.word << 2) - self._col("addr").astype(np.int64)  # the word's first byte in the value
        right = np.clip(offset, 0, 7).astype(np.uint64) * np.uint64(8)
        left = np.maximum(-offset, 0).astype(np.uint64) * np.uint64(8)
        return ((bits >> right) << left) & _BYTE_MASKS[self.mask]

    @cached_property
    def proposes(self) -> np.ndarray | None:
        """Per row, whether it is a read that only proposes a value to a compare-and-swap of its word
        (:mod:`simu.ir.optimistic`); None when the kernel has none."""
        reads = self._t.validated_reads
        return np.isin(self.instr, np.fromiter(reads, np.int64)) if reads else None

    @cached_property
    def conv(self) -> np.ndarray:
        return self._col("conv_step")

    @cached_property
    def wepoch(self) -> np.ndarray:
        return self._col("warp_epoch")

    @cached_property
    def group(self) -> np.ndarray:
        return self._col("group")

    @cached_property
    def gepoch(self) -> np.ndarray | None:
        """Grid-wide barriers (grid_sync.py) passed by the access's block: they order different blocks.  None
        without a grid barrier: every access is in grid epoch 0 (no column, no sort key)."""
        t = self._t
        return grid_epochs(t.grid_releases, self.block, self.step) if len(t.grid_releases) else None


def _racy_rows(ctx: Context, keep: np.ndarray) -> np.ndarray:
    """Of a batch of shared accesses: those touching a (word, epoch) that a write, or an atomic and a read, of two
    lanes or more touches.  Only such segments hold pairs that can race, and no rule about a shared pair looks past
    its segment (a shared word is one block's), so the batch is judged on these rows alone."""
    t = ctx.trace
    rid, word, _ = expand_words(t.addr[keep], t.size[keep])
    rows = keep if len(rid) == len(keep) else keep[rid]  # one word per access: rid is the identity
    dense = dense_words(word, ctx.result.allocations)
    seg, nseg = group_ranks(word if dense is None else dense, t.epoch[rows])
    del word, dense
    counts = np.bincount(seg * 3 + t.action[rows], minlength=3 * nseg).reshape(nseg, 3)
    lane = t.lane[rows]
    lo, hi = np.full(nseg, np.iinfo(lane.dtype).max, lane.dtype), np.full(nseg, -1, lane.dtype)
    np.minimum.at(lo, seg, lane)
    np.maximum.at(hi, seg, lane)
    several = lo != hi
    interesting = ((counts[:, WRITE] > 0) | ((counts[:, ATOMIC] > 0) & (counts[:, READ] > 0))) & several
    hit = rid[interesting[seg]]
    return keep[hit[np.r_[True, hit[1:] != hit[:-1]]]] if len(hit) else keep[:0]


def _group_masks(ctx: Context, rows: _Rows, idx: np.ndarray) -> np.ndarray:
    """Bitmask of the lanes of each access's warp that were in its group at that step."""
    out = np.zeros(len(idx), np.uint64)
    if len(idx) == 0:
        return out
    groups = rows.group[idx]
    order = np.argsort(groups, kind="stable")
    sg = groups[order]
    starts = np.flatnonzero(np.r_[True, sg[1:] != sg[:-1]])
    ends = np.r_[starts[1:], len(sg)]
    for s0, e0 in zip(starts.tolist(), ends.tolist(), strict=False):
        lanes = ctx.trace.groups[int(sg[s0])]  # sorted lane ids: each warp's lanes are one run
        warp = ctx.warp_of(lanes)
        bits = np.left_shift(np.uint64(1), ctx.lane_in_warp(lanes).astype(np.uint64))
        first = np.flatnonzero(np.r_[True, warp[1:] != warp[:-1]])
        masks = np.bitwise_or.reduceat(bits, first)
        at = order[s0:e0]
        out[at] = masks[np.searchsorted(warp[first], rows.warp[idx[at]])]
    return out


def _conflicts(rows: _Rows, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    act_a, act_b = rows.action[a], rows.action[b]
    ok = ((rows.lane[a] != rows.lane[b]) & ((rows.mask[a] & rows.mask[b]) != 0)
          & ~((act_a == READ) & (act_b == READ)) & ~((act_a == ATOMIC) & (act_b == ATOMIC)))
    proposes = rows.proposes
    if proposes is not None:  # a compare-and-swap validates what such a read saw: no race with atomics
        ok &= ~((proposes[a] & (act_b == ATOMIC)) | (proposes[b] & (act_a == ATOMIC)))
    return ok


def _intra_block_pairs(ctx: Context, rows: _Rows):
    """Conflicting, unordered pairs inside one block and one epoch."""
    cap = ctx.options.pair_cap
    n = len(rows.word)
    if n == 0:
        e = np.zeros(0, np.int64)
        return e, e, e.astype(np.int8), e
    # segments (word, block, epoch), numbered in that order (without a sort where the ranges allow): only those
    # with a write (or an atomic and a read) by two lanes or more can hold a race
    key, nseg, _ = ctx.candidate_segments(rows.keep)
    act = rows.action
    lane = rows.lane
    writes, atom, reads, several = (any_per(key, nseg, flag) for flag in (
        act == WRITE, act == ATOMIC, act == READ, lane != first_of(key, lane, nseg)[key]))
    interesting = (writes | (atom & reads)) & several
    cand = np.flatnonzero(interesting[key])
    # within a segment writes first, then in trace order: the first pair_cap rows of each are examined (fewer where
    # that passes the pair budget: every thread hits a few words); a segment with more rows than that keeps each
    # instruction's first access of every warp, then of every lane, first (256 atomics on a word must not crowd
    # out the one plain read that races with them)
    prio = (act[cand] != WRITE).astype(np.int64)
    kc = key[cand]
    sizes = np.bincount(kc, minlength=nseg)
    cap = segment_row_cap(np.minimum(sizes, cap), cap)
    if len(sizes) and int(sizes.max()) > cap:  # a segment is cut: keep every instruction's rows in what is examined
        instr, action = rows.instr[cand], act[cand]
        prio += 2 * diversity_tier(kc, (instr, action, rows.warp[cand]), (instr, action, rows.lane[cand]))
    order = cand[np.argsort(kc * 8 + prio, kind="stable")]
    idx = order[rank_in_segment(segment_starts(key[order])) < cap]
    # back to chronological order inside each segment so that pair (i, j) has i before j
    idx = idx[np.argsort(key[idx] * n + idx)] if n < (1 << 62) // max(nseg, 1) else idx[np.lexsort((idx, key[idx]))]
    seg = segment_ids(segment_starts(key[idx]))
    i, j = modifying_pairs_within_segments(seg, rows.action[idx] != READ)
    a, c = idx[i], idx[j]
    ok = _conflicts(rows, a, c)
    a, c = a[ok], c[ok]
    same_warp = rows.warp[a] == rows.warp[c]
    kind = np.zeros(len(a), np.int8)  # 0 race, 1 warp-race (independent), -1 ordered
    scope = np.where(same_warp, 1, 2)  # 1 intra-warp, 2 inter-warp, 3 inter-block
    sw = np.flatnonzero(same_warp)
    if len(sw):
        x, y = a[sw], c[sw]
        same_step = rows.step[x] == rows.step[y]
        mx = _group_masks(ctx, rows, x)
        my = _group_masks(ctx, rows, y)
        bit_y = np.left_shift(np.uint64(1), rows.lane_in_warp[y].astype(np.uint64))
        bit_x = np.left_shift(np.uint64(1), rows.lane_in_warp[x].astype(np.uint64))
        together = ((mx & bit_y) != 0) | ((my & bit_x) != 0) | (rows.conv[y] >= rows.step[x])
        lockstep_ordered = together & ~same_step
        if ctx.trace.asynchronous:  # an async copy runs beside the work-items: lockstep does not order it
            asynchronous = np.fromiter(ctx.trace.asynchronous, np.int64)
            lockstep_ordered &= ~(np.isin(rows.instr[x], asynchronous) | np.isin(rows.instr[y], asynchronous))
        if ctx.options.warp_model == "independent":
            synced = rows.wepoch[y] > rows.wepoch[x]
            k = np.where(lockstep_ordered, np.where(synced, -1, 1), 0)
            if ctx.options.strict_warp:
                k = np.where(k == 1, 0, k)
        else:
            k = np.where(lockstep_ordered, -1, 0)
        kind[sw] = k
    live = kind >= 0
    return a[live], c[live], kind[live], scope[live]


def _inter_block_pairs(ctx: Context, rows: _Rows):
    """Conflicting pairs on global memory from different blocks, unordered unless a grid-wide
    barrier separates them (different grid epochs)."""
    g = np.flatnonzero(rows.space == SPACE_GLOBAL)
    if len(g) == 0 or ctx.launch.run_blocks < 2:
        e = np.zeros(0, np.int64)
        return e, e, e.astype(np.int8), e
    # one representative row per (word, grid epoch, block, instr, action)
    ge = rows.gepoch

    def by_epoch(idx: np.ndarray) -> tuple[np.ndarray, ...]:
        """The grid epoch as a key of word segments, when the launch has grid barriers."""
        return () if ge is None else (ge[idx],)

    key_order = np.lexsort((g, rows.action[g], rows.instr[g], rows.block[g], *by_epoch(g), rows.word[g]))
    gs = g[key_order]
    first = segment_starts(rows.word[gs], *by_epoch(gs), rows.block[gs], rows.instr[gs], rows.action[gs])
    reps = gs[first]
    # drop words (per grid epoch) touched by one block only or never written
    wstart = segment_starts(rows.word[reps], *by_epoch(reps))
    wid = segment_ids(wstart)
    nw = int(wid[-1]) + 1 if len(wid) else 0
    blk = rows.block[reps]
    blo = np.full(nw, np.iinfo(np.int64).max)
    bhi = np.full(nw, -1)
    np.minimum.at(blo, wid, blk)
    np.maximum.at(bhi, wid, blk)
    wr = np.bincount(wid, weights=(rows.action[reps] != READ), minlength=nw)
    keep = (blo != bhi)[wid] & (wr > 0)[wid] & (rank_in_segment(wstart) < ctx.options.pair_cap)
    reps = reps[keep]
    seg = segment_ids(segment_starts(rows.word[reps], *by_epoch(reps)))
    i, j = pairs_within_segments(seg)
    a, c = reps[i], reps[j]
    ok = _conflicts(rows, a, c) & (rows.block[a] != rows.block[c])
    a, c = a[ok], c[ok]
    # chronological order inside each pair
    swap = rows.step[a] > rows.step[c]
    a, c = np.where(swap, c, a), np.where(swap, a, c)
    t = ctx.trace
    if len(t.acquires[0]):  # a spin-wait between them (simu.interp.spinwait) orders them
        step = rows.step.astype(np.int64)
        epoch = rows.epoch.astype(np.int64)
        keep = ~ordered_by_acquire(t.acquires, ctx.releases, ctx.launch.threads_per_block, rows.lane[a], step[a],
                                   epoch[a], rows.lane[c], step[c], epoch[c])
        a, c = a[keep], c[keep]
    return a, c, np.zeros(len(a), np.int8), np.full(len(a), 3)


SCOPES = {1: "intra-warp", 2: "inter-warp", 3: "inter-block"}


def check_races(ctx: Context) -> list[Finding]:
    """Races of every batch of the trace (batches.py: they share no word), merged as one judgment of the whole
    trace would give them: per (kind, instruction pair) the counts add up, the representative is the widest
    scope's first pair in word order, and equal values are benign only where no batch has the writers race."""
    if len(ctx.trace) == 0:
        return []
    parts = [p for p in (_judge(ctx, rows) for rows in ctx.batches) if p is not None]
    if not parts:
        return []
    racy_writers = set().union(*(p.pop("racy_writers") for p in parts))
    m = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
    kind, lo, hi, scope = m["kind"], m["lo"], m["hi"], m["scope"]
    order = np.lexsort((m["word"], -scope, kind, hi, lo))
    key_start = segment_starts(kind[order], lo[order], hi[order])
    kid = segment_ids(key_start)
    nkeys = int(kid[-1]) + 1
    counts = np.bincount(kid, weights=m["count"][order], minlength=nkeys).astype(np.int64)
    all_benign = np.bincount(kid, weights=~m["all_benign"][order], minlength=nkeys) == 0
    any_ww = np.bincount(kid, weights=m["any_ww"][order], minlength=nkeys) > 0
    findings = []
    for k, pos in enumerate(np.flatnonzero(key_start)):
        p = int(order[pos])  # representative: widest scope first, then the first word
        benign = bool(all_benign[k]) and not ({int(lo[p]), int(hi[p])} & racy_writers)
        rep = {name: int(m[name][p]) for name in _REP}
        findings.append(_finding(ctx, rep, int(kind[p]), int(scope[p]), benign, bool(any_ww[k]), int(counts[k])))
    # a warp-synchronous race adds nothing where the same two lines already race outright
    racing = {_lines(f) for f in findings if f.kind == "race"}
    return [f for f in findings if not (f.kind == "warp-race" and _lines(f) in racing)]


_REP = ("row_x", "lane_x", "instr_x", "action_x", "lane_y", "instr_y", "action_y")


def _judge(ctx: Context, keep: np.ndarray) -> dict | None:
    """One batch's races per (kind, instruction pair): its representative pair (widest scope, then first in
    word order) and that pair's word, how many pairs, whether all of them are benign or any is write-write,
    and the instructions whose writes race with reads (``racy_writers``)."""
    if ctx.trace.sync_reads:  # a spin-wait's reads synchronize (simu.ir.spin): no data race of theirs
        keep = keep[~np.isin(ctx.trace.instr[keep], np.fromiter(ctx.trace.sync_reads, np.int64))]
    if (ctx.trace.space[keep] == SPACE_SHARED).all():
        keep = _racy_rows(ctx, keep)
        if len(keep) == 0:
            return None
    rows = _Rows(ctx, keep)
    parts = [_intra_block_pairs(ctx, rows), _inter_block_pairs(ctx, rows)]
    a = np.concatenate([p[0] for p in parts])
    c = np.concatenate([p[1] for p in parts])
    kind = np.concatenate([p[2] for p in parts])
    scope = np.concatenate([p[3] for p in parts])
    if len(a) == 0:
        return None
    ia, ic = rows.instr[a], rows.instr[c]
    lo, hi = np.minimum(ia, ic), np.maximum(ia, ic)
    ww = (rows.action[a] != READ) & (rows.action[c] != READ)
    same_val = ww & same_bytes(rows, a, c) & (rows.action[a] == WRITE) & (rows.action[c] == WRITE)
    # one group per (word, epoch, lane): when each lane first read and first stored each word in an epoch
    lane_word = group_ids(rows.lane, rows.epoch.astype(np.int64), rows.word) if same_val.any() or not ww.all() \
        else None
    if same_val.any():
        # equal values are not benign when the writers read the word first in the same epoch:
        # `x += 1` by two lanes in lockstep writes equal values and still loses an update
        same_val &= ~_writers_read_first(rows, lane_word, a, c)
    # a read of what the reader itself stored first, where every writer stores that same value (every thread
    # sets a shared pointer to one address, then uses it): whichever write it sees, it reads that value
    settled = ~ww & _read_after_equal_store(rows, lane_word, a, c)
    same_val |= settled
    order = np.lexsort((-scope, kind, hi, lo))
    key_start = segment_starts(kind[order], lo[order], hi[order])
    kid = segment_ids(key_start)
    nkeys = int(kid[-1]) + 1
    # Equal values make a write-write race benign only when no read of the same data races with
    # those writes (`x += 1` by many threads writes equal values in lockstep but loses updates).
    rw = ~ww & (kind == 0) & ~settled
    p = order[np.flatnonzero(key_start)]
    x, y = a[p], c[p]
    return {"kind": kind[p], "lo": lo[p], "hi": hi[p], "scope": scope[p], "word": rows.word[x],
            "count": np.bincount(kid, minlength=nkeys),
            "all_benign": np.bincount(kid, weights=~same_val[order], minlength=nkeys) == 0,
            "any_ww": np.bincount(kid, weights=ww[order], minlength=nkeys) > 0,
            "row_x": rows.row[x], "lane_x": rows.lane[x], "instr_x": rows.instr[x], "action_x": rows.action[x],
            "lane_y": rows.lane[y], "instr_y": rows.instr[y], "action_y": rows.action[y],
            "racy_writers": set(rows.instr[np.where(rows.action[a] != READ, a, c)[rw]].tolist())}


def same_bytes(rows: _Rows, a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Per pair: whether the two rows stored the same bytes where both stored into their word."""
    shared = _BYTE_MASKS[rows.mask[a] & rows.mask[c]]
    return ((rows.value[a] ^ rows.value[c]) & shared) == 0


def _first_step(rows: _Rows, gid: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per group of ``gid``: the earliest step of its rows in ``mask`` (the int64 maximum where none is)."""
    first = np.full(int(gid.max()) + 1 if len(gid) else 0, np.iinfo(np.int64).max)
    np.minimum.at(first, gid[mask], rows.step[mask].astype(np.int64))
    return first


def _read_after_equal_store(rows: _Rows, lane_word: np.ndarray | None, a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Per read-write pair: whether the reading lane stored to the word earlier in its epoch (``lane_word``: the
    rows' (word, epoch, lane) groups) and every store to the word stores one value (in the reader's block and epoch
    when the writer is in the same block, in the whole launch when it is in another): the read returns that value
    whichever store it sees.  An atomic update, or any store of another value, leaves the race as it is."""
    reader = np.where(rows.action[a] == READ, a, c)
    writer = np.where(rows.action[a] == READ, c, a)
    cand = (rows.action[reader] == READ) & (rows.action[writer] == WRITE)
    if lane_word is None or not cand.any():
        return cand & False
    store = rows.action != READ
    plain = rows.action == WRITE
    value = rows.value.astype(np.int64)

    def uniform(gid: np.ndarray) -> np.ndarray:
        """Per row: whether every store of its group is a plain store of one value."""
        n = int(gid.max()) + 1
        lo = np.full(n, np.iinfo(np.int64).max)
        hi = np.full(n, np.iinfo(np.int64).min)
        np.minimum.at(lo, gid[plain], value[plain])
        np.maximum.at(hi, gid[plain], value[plain])
        other = np.bincount(gid, weights=store & ~plain, minlength=n) > 0
        return (lo == hi)[gid] & ~other[gid]

    block = rows.block
    in_epoch = uniform(group_ids(rows.epoch.astype(np.int64), block, rows.word))
    in_launch = uniform(group_ids(rows.word))
    stored_first = _first_step(rows, lane_word, plain)[lane_word[reader]] < rows.step[reader]
    agreed = np.where(block[reader] == block[writer], in_epoch[reader], in_launch[reader])
    return cand & stored_first & agreed


def _writers_read_first(rows: _Rows, lane_word: np.ndarray, a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Per pair: whether either writer read the same word earlier in the same epoch (``x += 1``: a read, then the
    write; ``lane_word``: the rows' (word, epoch, lane) groups, found by sorting the rows, not the pairs: a launch
    where every thread races has far more pairs than rows).  A read after its own write (every thread sets a shared
    pointer, then uses it) is no update that can be lost."""
    first_read = _first_step(rows, lane_word, rows.action == READ)
    step = rows.step.astype(np.int64)
    return (first_read[lane_word[a]] < step[a]) | (first_read[lane_word[c]] < step[c])


def _lines(f: Finding) -> tuple:
    return tuple(sorted((l.file, l.line) for l in (f.first, f.second) if l is not None))


def _action(t, instr: int, action: int) -> str:
    """What an access did; an async copy's part is named as such (the machine records its writes as atomics)."""
    if instr in t.asynchronous:
        return "async copy " + ("read" if action == READ else "write")
    return ACTIONS[action]


def _finding(ctx: Context, rep: dict, kind: int, scope: int, benign: bool, ww: bool, count: int) -> Finding:
    t = ctx.trace
    row_x = rep["row_x"]
    space, var, elem = ctx.variable(int(t.addr[row_x]), int(t.size[row_x]), int(t.lane[row_x]))
    access = "write-write" if ww else "read-write"
    first, second = ctx.location(rep["instr_x"]), ctx.location(rep["instr_y"])
    tx = ctx.thread(rep["lane_x"], _action(t, rep["instr_x"], rep["action_x"]))
    ty = ctx.thread(rep["lane_y"], _action(t, rep["instr_y"], rep["action_y"]))
    scope_name = SCOPES[scope]
    if kind == 1:
        fkind = "warp-race"
        what = "warp-synchronous race (no __syncwarp between the accesses)"
    elif benign and ww:
        fkind = "benign-race"
        what = "benign write-write race (all writers store the same value)"
    elif benign:
        fkind = "benign-race"
        what = "benign read-write race (every writer stores the value the reader stored first)"
    else:
        fkind = "race"
        what = f"{access} race"
    elem_text = f"[{elem}]" if elem is not None else ""
    msg = (f"{what} on {space} {var}{elem_text} between {tx} ({tx.action}) and {ty} ({ty.action}), {scope_name}")
    return Finding(fkind, severity_of(fkind), ctx.kernel.display_name, msg, first, second, space, var, elem, (tx, ty),
                   {"access": access, "scope": scope_name, "warp_model": ctx.options.warp_model},
                   ctx.record, count)


class RaceCheck(Check):
    """Data races within each launch (sort and group the trace, never pair by pair)."""

    name = RACES

    def on_launch(self, ctx: Context) -> list[Finding]:
        return check_races(ctx)
