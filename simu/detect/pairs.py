"""Vectorised helpers shared by the checks: word expansion, segments and pair generation."""

from __future__ import annotations

import math

import numpy as np

from simu.interp.trace import ATOMIC, READ


def expand_words(addr: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split accesses into 4-byte words: (row index, word address, byte mask within the word)."""
    addr = addr.astype(np.int64, copy=False)
    if len(size) and int(size.min()) == 4 == int(size.max()) and not np.bitwise_or.reduce(addr & 3):
        return np.arange(len(addr), dtype=np.int64), addr >> 2, np.full(len(addr), 15, np.uint8)  # whole words
    size = size.astype(np.int64, copy=False)
    first = addr >> 2
    last = (addr + size - 1) >> 2
    nw = last - first + 1
    rows = np.arange(len(addr), dtype=np.int64)
    if (nw == 1).all():
        lo = addr & 3
        mask = ((1 << size) - 1) << lo
        return rows, first, mask.astype(np.uint8)
    rid = np.repeat(rows, nw)
    start = np.repeat(np.cumsum(nw) - nw, nw)
    k = np.arange(len(rid)) - start
    word = first[rid] + k
    wbyte = word << 2
    lo = np.maximum(addr[rid], wbyte) - wbyte
    hi = np.minimum(addr[rid] + size[rid], wbyte + 4) - wbyte
    mask = ((1 << (hi - lo)) - 1) << lo
    return rid, word, mask.astype(np.uint8)


def segment_starts(*keys: np.ndarray) -> np.ndarray:
    """For arrays already sorted by ``keys``: a boolean array, True where a new segment starts."""
    n = len(keys[0])
    start = np.zeros(n, bool)
    if n:
        start[0] = True
        for k in keys:
            start[1:] |= k[1:] != k[:-1]
    return start


def segment_ids(start: np.ndarray) -> np.ndarray:
    return np.cumsum(start) - 1


def rank_in_segment(start: np.ndarray) -> np.ndarray:
    idx = np.arange(len(start))
    first = np.maximum.accumulate(np.where(start, idx, 0))
    return idx - first


def pairs_within_segments(seg: np.ndarray, limit: int = 20_000_000) -> tuple[np.ndarray, np.ndarray]:
    """All index pairs (i, j), i < j, of equal ``seg`` (rows sorted by seg). Truncated at ``limit``."""
    n = len(seg)
    if n < 2:
        e = np.zeros(0, np.int64)
        return e, e
    start = segment_starts(seg)
    sid = segment_ids(start)
    sizes = np.bincount(sid)
    pos = rank_in_segment(start)
    counts = sizes[sid] - pos - 1
    total = int(counts.sum())
    if total > limit:
        # keep the earliest rows of every segment: trim counts until under the limit
        scale = limit / total
        counts = np.minimum(counts, np.maximum((counts * scale).astype(np.int64), 1))
        total = int(counts.sum())
    left = np.repeat(np.arange(n, dtype=np.int64), counts)
    offs = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    right = left + 1 + offs
    return left, right


def dense_ids(key: np.ndarray) -> tuple[np.ndarray, int]:
    """Per row: the rank of its ``key`` among the distinct keys (ascending), and how many there are.  Without a
    sort when the keys' range is small (a table over the range), else by sorting."""
    n = len(key)
    if n == 0:
        return np.zeros(0, np.int64), 0
    lo, hi = int(key.min()), int(key.max())
    if hi - lo < 4 * n + (1 << 20):
        at = key - lo if lo else key
        present = np.zeros(hi - lo + 1, bool)
        present[at] = True
        rank = np.cumsum(present, dtype=np.int64) - 1
        return rank[at], int(rank[-1]) + 1
    uniq, ids = np.unique(key, return_inverse=True)
    return ids.reshape(-1), len(uniq)


def first_of(ids: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Per id: the value of its first row (rows in order); ids with no row get -1."""
    out = np.full(n, -1, np.int64 if values.dtype.kind in "ub" else values.dtype)
    out[ids[::-1]] = values[::-1]  # the last assignment wins: the first row's value
    return out


def group_ranks(*cols: np.ndarray) -> tuple[np.ndarray, int]:
    """Per row: the rank of its tuple of column values among the distinct tuples (ordered as the columns are,
    the first most significant), and how many there are; column by column, each a table when ranges allow."""
    rows = len(cols[0])
    if len(cols) > 1 and rows:
        lows, spans = _ranges(cols)
        if math.prod(spans) < 4 * rows + (1 << 20):  # one key for all the columns: one table, not one a column
            return dense_ids(_combined(cols, lows, spans))
    ids, n = dense_ids(cols[0])
    for c in cols[1:]:
        lo = int(c.min()) if len(c) else 0
        span = int(c.max()) - lo + 1 if len(c) else 1
        if n * span >= 1 << 62:  # the rows sorted by every column
            ids = group_ids(*cols)
            return ids, int(ids.max()) + 1 if len(ids) else 0
        ids, n = dense_ids(ids * span + (c.astype(np.int64) - lo))
    return ids, n


def dense_words(word: np.ndarray, allocations) -> np.ndarray | None:
    """Word addresses numbered densely from the allocation table (in address order), or None when the table is
    far larger than the rows (a sort is then cheaper)."""
    from simu.interp.memory import OFFSET_BITS

    sizes = np.array([0 if a is None else (len(a.data) + 3) // 4 for a in allocations], np.int64)
    if sizes.sum() > max(4 * len(word), 1 << 20):
        return None
    base = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    aid = word >> (OFFSET_BITS - 2)
    return base[aid] + (word & ((1 << (OFFSET_BITS - 2)) - 1))


def modifying_pairs_within_segments(seg: np.ndarray, modifies: np.ndarray,
                                    limit: int = 20_000_000) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of :func:`pairs_within_segments` of which at least one row ``modifies`` (two reads never
    conflict), in the same (i, j) order: a word a whole block reads and one thread writes gives a pair per
    reader, not one per two readers.  Past ``limit`` each row keeps its earliest pairs, as there."""
    n = len(seg)
    e = np.zeros(0, np.int64)
    if n < 2:
        return e, e
    start = segment_starts(seg)
    sid = segment_ids(start)
    sizes = np.bincount(sid)
    pos = rank_in_segment(start)
    # a modifying row with every later row of its segment
    later = np.where(modifies, sizes[sid] - pos - 1, 0)
    # a reading row with every later modifying row of its segment: those are consecutive among the modifying rows
    mods = np.flatnonzero(modifies)
    seen = np.cumsum(modifies)  # modifying rows up to and including each row
    seg_end = np.flatnonzero(np.r_[start[1:], True])  # each segment's last row
    mods_to_end = seen[seg_end][sid]
    later_mods = np.where(modifies, 0, mods_to_end - seen)
    counts = later + later_mods
    total = int(counts.sum())
    if total > limit:
        scale = limit / total
        keep = np.minimum(counts, np.maximum((counts * scale).astype(np.int64), 1))
        later, later_mods = np.where(modifies, keep, 0), np.where(modifies, 0, keep)
    rows = np.arange(n, dtype=np.int64)
    left_a = np.repeat(rows, later)
    right_a = left_a + 1 + (np.arange(len(left_a)) - np.repeat(np.cumsum(later) - later, later))
    left_b = np.repeat(rows, later_mods)
    first_mod = np.repeat(seen, later_mods)  # index in ``mods`` of the first modifying row after the reader
    right_b = mods[first_mod + (np.arange(len(left_b)) - np.repeat(np.cumsum(later_mods) - later_mods, later_mods))]
    left, right = np.concatenate([left_a, left_b]), np.concatenate([right_a, right_b])
    order = np.argsort(left * n + right) if n < 1 << 31 else np.lexsort((right, left))
    return left[order], right[order]


PAIR_BUDGET = 1_000_000  # pairs examined per batch before dense segments are sampled (each costs ~0.5 µs)
MIN_SEGMENT_ROWS = 16  # rows of a segment examined however dense the trace


def segment_row_cap(sizes: np.ndarray, cap: int, budget: int | None = None) -> int:
    """Rows per segment to examine pair by pair: ``cap``, or less when the segments' pairs (``sizes``: candidate
    rows per segment) would pass ``budget`` (:data:`PAIR_BUDGET`) — the largest cap under it, never below
    :data:`MIN_SEGMENT_ROWS`."""
    budget = PAIR_BUDGET if budget is None else budget
    def pairs(k: int) -> int:
        m = np.minimum(sizes, k).astype(np.int64)
        return int((m * (m - 1) // 2).sum())

    if pairs(cap) <= budget:
        return cap
    lo, hi = MIN_SEGMENT_ROWS, cap
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if pairs(mid) <= budget else (lo, mid - 1)
    return lo


def combined_key(*cols: np.ndarray) -> np.ndarray | None:
    """One int64 per row that is equal exactly where every column is and ordered as the rows' tuples are (each
    column's offset from its minimum, the first most significant), or None when the columns' ranges together pass
    62 bits."""
    lows, spans = _ranges(cols)
    return _combined(cols, lows, spans) if math.prod(spans) < 1 << 62 else None


def _ranges(cols: tuple[np.ndarray, ...]) -> tuple[list[int], list[int]]:
    """Each column's minimum and the count of values from it to its maximum."""
    lows = [int(c.min()) for c in cols]
    return lows, [int(c.max()) - lo + 1 for c, lo in zip(cols, lows, strict=True)]


def _combined(cols: tuple[np.ndarray, ...], lows: list[int], spans: list[int]) -> np.ndarray:
    key = cols[0].astype(np.int64) - lows[0]
    for c, lo, span in zip(cols[1:], lows[1:], spans[1:], strict=True):
        key = key * span + (c.astype(np.int64) - lo)
    return key


def sorted_groups(*cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows in an order that puts equal tuples of ``cols`` together (one sort of a combined key where the
    ranges allow: several times cheaper than a sort per column), and where each group starts in that order."""
    key = combined_key(*cols)
    if key is None:
        order = np.lexsort(tuple(reversed(cols)))
        return order, segment_starts(*(c[order] for c in cols))
    order = np.argsort(key)
    return order, segment_starts(key[order])


def group_ids(*cols: np.ndarray) -> np.ndarray:
    """Per row: the id of its group of rows equal in every column of ``cols``: the group's rank among the tuples
    (the first column most significant)."""
    if len(cols[0]) == 0:
        return np.zeros(0, np.int64)
    order, start = sorted_groups(*cols)
    gid = np.empty(len(order), np.int64)
    gid[order] = segment_ids(start)
    return gid


def diversity_tier(key: np.ndarray, *kinds: tuple[np.ndarray, ...]) -> np.ndarray:
    """Per row (rows in trace order): 0 for the first row of its (``key``, ``kinds[0]``…) group, 1 for the first of
    its (``key``, ``kinds[1]``…) group, …, ``len(kinds)`` for the rest: a sample of a dense segment that keeps one
    row of every instruction and warp, then of every lane, before repeats."""
    tier = np.full(len(key), len(kinds), np.int64)
    if len(key) == 0:
        return tier
    for t in range(len(kinds) - 1, -1, -1):
        order, start = sorted_groups(key, *kinds[t])
        tier[np.minimum.reduceat(order, np.flatnonzero(start))] = t  # each group's first row
    return tier


def word_segments(trace, row: np.ndarray, word: np.ndarray, allocations,
                  threads_per_block: int) -> tuple[np.ndarray, int, bool]:
    """Per access (trace ``row``, 4-byte ``word``): its (word, block, epoch) segment, numbered in that order; how
    many; whether every access is in shared memory (a shared word is one block's: (word, epoch) numbers the same
    segments then)."""
    from simu.interp.memory import SPACE_SHARED

    dense = dense_words(word, allocations)
    words = word if dense is None else dense
    epoch = trace.epoch[row]
    shared_only = bool((trace.space[row] == SPACE_SHARED).all())
    if shared_only:
        sid, n = group_ranks(words, epoch)
    else:
        sid, n = group_ranks(words, trace.lane[row].astype(np.int64) // threads_per_block, epoch)
    return sid, n, shared_only


def candidate_words(word: np.ndarray, lane: np.ndarray, action: np.ndarray, allocations) -> np.ndarray:
    """Indices of accesses to words that are modified, touched by at least two lanes and not by atomics alone: the
    only words where two threads' accesses can conflict (a race, or a barrier that orders them).

    Words are numbered densely from the allocation table, so this is a few linear scatters and
    gathers instead of a sort (it runs on the whole trace)."""
    widx = dense_words(word, allocations)
    if widx is None:  # address space too sparse for a dense table: sort instead
        _, widx = np.unique(word, return_inverse=True)
    nw = int(widx.max()) + 1 if len(widx) else 0
    first_lane = np.full(nw, -1, np.int64)
    first_lane[widx[::-1]] = lane[::-1]  # the last assignment wins: the first access's lane
    # modified, touched by a second lane, and by a plain access (atomics never conflict with each other)
    good = any_per(widx, nw, action != READ) & any_per(widx, nw, lane != first_lane[widx]) & \
        any_per(widx, nw, action != ATOMIC)
    return np.flatnonzero(good[widx])


def any_per(key: np.ndarray, n: int, flag: np.ndarray) -> np.ndarray:
    """Per group of ``key`` (numbered 0..n-1): whether ``flag`` holds for one of its rows."""
    out = np.zeros(n, bool)
    out[key[flag]] = True
    return out
