"""Fitness of a launch from its trace: Simulee's collision ratio and address range, plus simu's
conflict-aware score and branch/barrier coverage."""

from __future__ import annotations

import numpy as np

from simu.interp.memory import SPACE_GLOBAL, SPACE_SHARED
from simu.interp.trace import Trace


def collision_ratio(trace: Trace, max_rows: int = 1_000_000) -> tuple[float, float]:
    """Simulee's primary and secondary fitness on shared/global accesses.

    Past ``max_rows`` accesses the ratio is taken over an evenly strided sample: a fitness only
    has to rank launches, and an exact count over tens of millions of rows costs seconds."""
    keep = np.flatnonzero((trace.space == SPACE_GLOBAL) | (trace.space == SPACE_SHARED))
    if len(keep) == 0:
        return 1.0, 0.0
    addr = trace.addr[keep]
    secondary = float(addr.max() - addr.min())
    if len(keep) > max_rows:
        pick = np.arange(0, len(keep), -(-len(keep) // max_rows))
        keep, addr = keep[pick], addr[pick]
    word = addr >> 2
    lane = trace.lane[keep].astype(np.int64)
    span = int(lane.max()) + 1
    keys = np.sort(word * span + lane)  # (word, lane); word < 2**38, lane < 2**21; sorted, as np.unique's hashing
    pairs = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]  # of millions of keys costs a hundred times more
    distinct_words = int(np.count_nonzero(np.diff(pairs // span))) + 1
    primary = distinct_words / len(pairs)
    return primary, secondary


def coverage_of(trace: Trace) -> set:
    return set(trace.edges) | {("barrier", b) for b in trace.barriers_reached}


CONFLICTS_ENOUGH = 64  # conflicting pairs beyond which a launch is no fitter

Fitness = tuple[float, float, float, float]  # conflicts (max), coverage (max), collision ratio (min), range (min)


def simu_fitness(trace: Trace, findings: list) -> Fitness:
    """Conflicts count up to a point (past it, bigger launches only cost more to judge), then the
    branch edges and barriers the launch reaches: a launch that enters more of the kernel's code is
    a better parent (a count "new at evaluation time" would favour whichever launch happened to run
    first, for ever), then Simulee's collision ratio and address range."""
    primary, secondary = collision_ratio(trace)
    conflicts = sum(f.count for f in findings if f.severity in ("error", "warning"))
    return float(min(conflicts, CONFLICTS_ENOUGH)), float(len(coverage_of(trace))), primary, secondary


def simulee_fitness(trace: Trace, findings: list) -> Fitness:
    """Simulee's: the collision ratio and address range alone."""
    primary, secondary = collision_ratio(trace)
    return 0.0, 0.0, primary, secondary


def no_fitness(trace: Trace, findings: list) -> Fitness:
    """Random search ranks nothing."""
    return 0.0, 0.0, 0.0, 0.0
