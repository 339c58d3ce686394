"""Fitness of a launch from its trace: Simulee's collision ratio and address range, plus simu's
conflict-aware score and branch/barrier coverage."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simu.interp.memory import SPACE_GLOBAL, SPACE_SHARED
from simu.interp.trace import Trace


@dataclass
class Score:
    primary: float = 1.0  # distinct addresses / sum of threads per address (lower = more sharing)
    secondary: float = 0.0  # accessed address range in bytes (lower is better)
    conflicts: int = 0  # unordered conflicting access pairs the detectors reported
    coverage: int = 0  # new branch edges and barriers this launch reached
    edges: set = field(default_factory=set)


def collision_ratio(trace: Trace) -> tuple[float, float]:
    """Simulee's primary and secondary fitness on shared/global accesses."""
    keep = (trace.space == SPACE_GLOBAL) | (trace.space == SPACE_SHARED)
    if not keep.any():
        return 1.0, 0.0
    word = trace.addr[keep] >> 2
    lane = trace.lane[keep].astype(np.int64)
    pairs = np.unique(np.stack([word, lane]), axis=1) if len(word) < 200_000 else _unique_pairs(word, lane)
    distinct_words = len(np.unique(pairs[0]))
    primary = distinct_words / pairs.shape[1]
    secondary = float(trace.addr[keep].max() - trace.addr[keep].min())
    return primary, secondary


def _unique_pairs(word: np.ndarray, lane: np.ndarray) -> np.ndarray:
    key = word * (int(lane.max()) + 1) + lane
    u = np.unique(key)
    return np.stack([u // (int(lane.max()) + 1), u % (int(lane.max()) + 1)])


def coverage_of(trace: Trace) -> set:
    return set(trace.edges) | {("barrier", b) for b in trace.barriers_reached}
