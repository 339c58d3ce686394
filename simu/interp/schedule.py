"""Scheduled runs (:class:`~simu.launch.model.Schedule`): the lanes' ranks, and pending positions offset by rank so
that groups of different ranks never merge and the lowest rank runs first."""

from __future__ import annotations

import numpy as np

from simu.errors import LaunchError


class RankedPositions:
    """``by_pos`` for scheduled runs: a pending position is ``rank * npos + rpo position``."""

    __slots__ = ("by_pos", "npos")

    def __init__(self, by_pos: list[int], npos: int):
        self.by_pos = by_pos
        self.npos = npos

    def __getitem__(self, pos: int) -> int:
        return self.by_pos[pos % self.npos]


def schedule_ranks(order, n: int, what: str) -> np.ndarray:
    """rank[i] = position of i in ``order`` (identity when None); ``order`` must be a permutation."""
    if order is None:
        return np.arange(n, dtype=np.int64)
    arr = np.asarray(order, np.int64).reshape(-1)
    if len(arr) != n or not np.array_equal(np.sort(arr), np.arange(n)):
        raise LaunchError(f"schedule {what} must be a permutation of 0..{n - 1}, got {tuple(arr.tolist())[:16]}")
    rank = np.empty(n, np.int64)
    rank[arr] = np.arange(n)
    return rank


def split_by_rank(lanes: np.ndarray, rank: np.ndarray, pos: int, npos: int, k: int = 0) -> dict:
    """Pending groups for ``lanes`` at block position ``pos``, instruction ``k``: one per rank."""
    r = rank[lanes]
    out = {}
    for u in np.unique(r):
        out[(pos + int(u) * npos, k)] = lanes[r == u]
    return out
