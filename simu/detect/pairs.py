"""Vectorised helpers shared by the checks: word expansion, segments and pair generation."""

from __future__ import annotations

import numpy as np


def expand_words(addr: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split accesses into 4-byte words: (row index, word address, byte mask within the word)."""
    addr = addr.astype(np.int64, copy=False)
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
