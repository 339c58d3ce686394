"""Structured integer contents a program's own data has: CSR row offsets and the column indices they address.

A graph or sparse-matrix kernel reads ``row`` (offsets, non-decreasing from 0, the last at most the number of
edges) and ``col`` (each row's neighbours, sorted and distinct within the row, any vertex in range).  Drawn this
way, a kernel's own accesses stay valid and threads of different rows still meet on shared neighbours, as on any
real graph.  Both are replayable from their specs (:func:`simu.launch.buffers.buffer_from_spec`)::

    {"dtype": "int32", "length": 65, "fill": "offsets", "high": 256, "rng": {...}}
    {"dtype": "int32", "length": 256, "fill": "segments", "high": 64, "rows": {<the offsets' spec>}, "rng": {...}}
    {"dtype": "uint32", "length": 64, "fill": "counts", "high": 256, "rng": {...}}  # j < count[i]: x[start[i] + j]
    {"dtype": "int32", "length": 64, "fill": "starts", "counts": {<the counts' spec>}}  # where those segments start
    {"dtype": "int32", "length": 64, "fill": "buckets", "keys": {<the keys' spec>}}  # base[k] + atomicAdd(&cur[k], 1)

Everything is vectorised: no Python loop over rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_MEAN_DEGREE = 8
GRAPH_FILLS = ("offsets", "segments", "counts", "starts", "buckets")


def mean_degree(rows: int, high: int) -> int:
    """Edges per row on average: as many as fit ``high`` edges over ``rows`` rows, between 1 and 8."""
    return max(1, min(MAX_MEAN_DEGREE, high // max(rows, 1)))


def offsets(rng: np.random.Generator, length: int, high: int, dtype: np.dtype) -> np.ndarray:
    """``length`` CSR offsets: 0, then running sums of random degrees (0 to twice the mean), none above ``high``."""
    if length <= 0:
        return np.zeros(0, dtype)
    degrees = rng.integers(0, 2 * mean_degree(length - 1, high) + 1, max(length - 1, 0))
    out = np.concatenate(([0], np.cumsum(degrees)))
    return np.minimum(out, max(high, 0)).astype(dtype)


def segments(rng: np.random.Generator, length: int, high: int, rows: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``length`` column indices in [0, ``high``): row i's slots ``rows[i]..rows[i+1]`` hold sorted distinct
    values (repeated only where a row is longer than ``high``); slots no row covers hold random ones."""
    high = max(int(high), 1)
    out = rng.integers(0, high, length).astype(np.int64)
    starts = np.clip(rows[:-1].astype(np.int64), 0, length)
    ends = np.clip(rows[1:].astype(np.int64), 0, length)
    degree = np.maximum(ends - starts, 0)
    if degree.sum():
        row_of = np.repeat(np.arange(degree.size), degree)
        slot = _slots(starts, degree)
        rank = slot - starts[row_of]
        room = np.maximum(high - degree[row_of], 0)  # d sorted draws from [0, high - d], plus their rank: distinct
        draws = (rng.random(slot.size) * (room + 1)).astype(np.int64)
        order = np.lexsort((draws, row_of))
        out[slot] = np.minimum(draws[order] + rank, high - 1)
    return out.astype(dtype)


def _slots(starts: np.ndarray, degree: np.ndarray) -> np.ndarray:
    """Every slot ``starts[i] + k`` for k below ``degree[i]``, row after row, without a loop over rows."""
    total = int(degree.sum())
    first = np.repeat(starts - np.concatenate(([0], np.cumsum(degree)[:-1])), degree)
    return first + np.arange(total)


def counts(rng: np.random.Generator, length: int, high: int, dtype: np.dtype) -> np.ndarray:
    """``length`` segment lengths (0 to twice the mean) that fit one after another in ``high`` elements."""
    ends = np.minimum(np.cumsum(rng.integers(0, 2 * mean_degree(length, high) + 1, length)), max(high, 0))
    return np.diff(np.concatenate(([0], ends))).astype(dtype)


def starts(lengths: np.ndarray, length: int, dtype: np.dtype) -> np.ndarray:
    """Where segments of ``lengths`` start when laid out one after another (an exclusive prefix sum): disjoint."""
    out = np.concatenate(([0], np.cumsum(lengths.astype(np.int64))))[:length]
    return np.pad(out, (0, max(length - out.size, 0)), mode="edge").astype(dtype)


def buckets(keys: np.ndarray, length: int, dtype: np.dtype) -> np.ndarray:
    """Where each key's slots start when the slots are handed out key by key (:mod:`simu.ir.buckets`): the exclusive
    prefix sums of how often each key in [0, ``length``) occurs in ``keys`` (others own no slot)."""
    k = keys.astype(np.int64).ravel()
    k = k[(k >= 0) & (k < length)]
    occurs = np.bincount(k, minlength=length)[:length]
    return (np.cumsum(occurs) - occurs).astype(dtype)


def generate(spec: dict[str, Any], dtype: np.dtype, length: int, rng: np.random.Generator,
             rebuild) -> np.ndarray:
    """The array an "offsets" or "segments" spec describes (``rebuild`` turns the rows' spec into its array)."""
    if spec["fill"] == "offsets":
        return offsets(rng, length, int(spec["high"]), dtype)
    if spec["fill"] == "counts":
        return counts(rng, length, int(spec["high"]), dtype)
    if spec["fill"] == "starts":
        return starts(np.asarray(rebuild(spec["counts"])), length, dtype)
    if spec["fill"] == "buckets":
        return buckets(np.asarray(rebuild(spec["keys"])), length, dtype)
    return segments(rng, length, int(spec["high"]), np.asarray(rebuild(spec["rows"])), dtype)
