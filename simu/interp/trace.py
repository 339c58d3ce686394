"""The record of a run: every memory access as columns of numpy arrays, plus barrier events.

The columns are compact (issue 31): a column that is one value over the whole trace is a broadcast view
(no memory), counters take the narrowest integer type their range allows, and values are kept only for the
accesses that store one (``value_rows``/``written``).  The machine bounds a trace by the bytes it will hold
(:data:`ACCESS_BYTES` per access, :data:`VALUE_BYTES` per stored value), not by an access count."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

READ, WRITE, ATOMIC = 0, 1, 2
ACTION_NAMES = ("read", "write", "atomic")
ACCESS_BYTES = 24  # what the compact trace holds per access, at most (address, lane, step, convergence, epochs)
VALUE_BYTES = 16  # per access that stores a value: the value and its row
COLUMNS = ("addr", "size", "space", "lane", "epoch", "warp_epoch", "action", "instr", "step", "group", "conv_step")


@dataclass
class BarrierDivergence:
    """Lanes of one block that did not all meet at one barrier."""

    block: int
    barriers: list[int]  # static instruction ids the block's lanes waited at
    waiting: dict[int, list[int]]  # instruction id -> local thread ids waiting there
    exited: list[int]  # local thread ids that had already returned
    # grid-wide barrier only: global lane ids of other blocks' threads that returned without reaching it
    grid_absent: list[int] = field(default_factory=list)


@dataclass
class Trace:
    """Columns, one entry per (lane, memory access).  Thread/block ids derive from ``lane``.  Integer columns
    may be narrower than the types named here, and read-only (a constant column is a broadcast view)."""

    addr: np.ndarray  # int64 byte address (allocation id << 40 | offset)
    size: np.ndarray  # uint8 bytes accessed
    space: np.ndarray  # uint8 SPACE_*
    lane: np.ndarray  # int32 linear lane id in the launch
    epoch: np.ndarray  # uint barrier epoch of the lane's block for that space
    warp_epoch: np.ndarray  # uint count of __syncwarp the lane executed
    action: np.ndarray  # uint8 READ/WRITE/ATOMIC
    instr: np.ndarray  # int static instruction id
    step: np.ndarray  # uint machine step
    group: np.ndarray  # int index into ``groups`` (lanes executing together at that step)
    conv_step: np.ndarray  # int last step (<= step) at which the lane ran with its whole live warp (-1: never)
    value_rows: np.ndarray  # int64 ascending rows of the accesses that store a value (writes, atomics)
    written: np.ndarray  # uint64 raw bits of the value each of those rows stores
    groups: list[np.ndarray] = field(default_factory=list)
    divergences: list[BarrierDivergence] = field(default_factory=list)
    barriers_reached: dict[int, int] = field(default_factory=dict)  # instr id -> times released
    barrier_multiwarp: dict[int, bool] = field(default_factory=dict)
    barrier_reduce: set[int] = field(default_factory=set)  # barriers that also reduce a value (_count/_and/_or)
    # instructions whose accesses happen asynchronously to the work-item (async work-group copies): warp
    # lockstep never orders them, only a barrier or wait_group_events does
    asynchronous: set[int] = field(default_factory=set)
    divergent_branches: dict[int, int] = field(default_factory=dict)  # branch instr -> warps split
    edges: set[tuple[int, int]] = field(default_factory=set)  # (terminator id, successor index)
    exit_step: np.ndarray | None = None  # per lane, step at which it returned
    # one row per barrier release and block: (block, space, epoch after, barrier instr id)
    releases: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.int64))
    # one row per grid-wide barrier release and block: (block, step of the release); see grid_sync.py
    grid_releases: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    # lanes leaving a spin-wait loop (simu.interp.spinwait): (lane, step, global epoch) arrays; the loops' reads
    acquires: tuple = field(default_factory=lambda: (np.zeros(0, np.int64),) * 3)
    sync_reads: frozenset[int] = frozenset()
    validated_reads: frozenset[int] = frozenset()  # reads a compare-and-swap validates (simu.ir.optimistic)

    def __len__(self) -> int:
        return int(self.addr.shape[0])

    def values_at(self, rows: np.ndarray) -> np.ndarray:
        """uint64 value bits stored by each of ``rows`` (0 for a read)."""
        rows = np.asarray(rows, np.int64)
        out = np.zeros(len(rows), np.uint64)
        if len(self.value_rows) and len(rows):
            k = np.minimum(np.searchsorted(self.value_rows, rows), len(self.value_rows) - 1)
            hit = self.value_rows[k] == rows
            out[hit] = self.written[k[hit]]
        return out

    @property
    def value(self) -> np.ndarray:
        """Every row's value bits (0 for reads), built on demand: the trace keeps only the stored ones."""
        out = np.zeros(len(self), np.uint64)
        out[self.value_rows] = self.written
        return out

    @property
    def nbytes(self) -> int:
        """Bytes the trace's columns hold (a broadcast column holds one value)."""
        cols = [getattr(self, f) for f in COLUMNS] + [self.value_rows, self.written]
        return sum(c.itemsize if c.ndim and c.strides[0] == 0 else c.nbytes for c in cols)


_NARROW = {unsigned: [(np.dtype(t), int(np.iinfo(t).min), int(np.iinfo(t).max)) for t in kinds]
           for unsigned, kinds in ((True, (np.uint8, np.uint16, np.uint32)), (False, (np.int8, np.int16, np.int32)))}


def column_dtype(lo: int, hi: int) -> np.dtype:
    """The narrowest integer type holding [lo, hi] (unsigned when lo >= 0)."""
    for t, tmin, tmax in _NARROW[lo >= 0]:
        if tmin <= lo and hi <= tmax:
            return t
    return np.dtype(np.int64)


class TraceBuilder:
    """Collects one chunk per memory step; :meth:`finish` concatenates them once.  ``nbytes`` is what the
    finished trace will hold at most (the machine's trace budget counts it)."""

    def __init__(self) -> None:
        self.chunks: list[tuple] = []
        self.groups: list[np.ndarray] = []
        self._group_ids: dict[int, int] = {}
        self.count = 0
        self.nbytes = 0  # what the finished trace holds at most: ACCESS_BYTES per access, VALUE_BYTES per value

    def group_id(self, lanes: np.ndarray) -> int:
        key = id(lanes)
        gid = self._group_ids.get(key)
        if gid is None or self.groups[gid] is not lanes:
            gid = len(self.groups)
            self.groups.append(lanes)
            self._group_ids[key] = gid
        return gid

    def add(self, lanes: np.ndarray, addr: np.ndarray, size: int, space: int, epoch: np.ndarray,
            warp_epoch: np.ndarray, action: int, instr: int, step: int, value: np.ndarray | None,
            conv_step: np.ndarray | int = 0) -> None:
        self.chunks.append((lanes, addr, size, space, epoch, warp_epoch, action, instr, step,
                            self.group_id(lanes), value, conv_step))
        n = len(lanes)
        self.count += n
        self.nbytes += n * (ACCESS_BYTES if value is None else ACCESS_BYTES + VALUE_BYTES)

    def finish(self) -> Trace:
        """The trace's columns; each column's chunk parts are released once it is built, so the peak stays near
        the result."""
        n = self.count
        parts = list(zip(*self.chunks, strict=True)) if self.chunks else [()] * 12
        self.chunks = []
        lens = np.fromiter((len(p) for p in parts[0]), np.int64, len(parts[0]))
        stored = np.fromiter((v is not None for v in parts[10]), bool, len(lens))
        value_rows = _rows_of(lens, stored)
        written = np.concatenate([_rows(v, ln) for v, ln in zip(parts[10], lens.tolist(), strict=True)
                                  if v is not None], dtype=np.uint64) if stored.any() else np.zeros(0, np.uint64)
        parts[10] = None
        cols = {}
        for name, k, dtype in (("addr", 1, np.int64), ("lane", 0, np.int32), ("conv_step", 11, None),
                               ("epoch", 4, None), ("warp_epoch", 5, None)):
            cols[name] = _column(parts[k], lens, n, dtype)
            parts[k] = None  # drop the per-lane arrays of that column as soon as they are copied
        for name, k, dtype in (("size", 2, np.uint8), ("space", 3, np.uint8), ("action", 6, np.uint8),
                               ("instr", 7, None), ("step", 8, None), ("group", 9, None)):
            cols[name] = _chunk_column(parts[k], lens, n, dtype)
        trace = Trace(**cols, value_rows=value_rows, written=written, groups=self.groups)
        assert len(trace) == n
        return trace


def release_rows(releases: list[tuple[np.ndarray, int, int, np.ndarray]]) -> np.ndarray:
    """:attr:`Trace.releases` from the machine's releases in order, each (blocks released, space, barrier id, the
    blocks' epochs of that space after it)."""
    blocks = np.concatenate([r[0] for r in releases])
    lens = [len(r[0]) for r in releases]
    return np.stack([blocks, np.repeat([r[1] for r in releases], lens),
                     np.concatenate([r[3] for r in releases]), np.repeat([r[2] for r in releases], lens)],
                    axis=1).astype(np.int64)


def _rows(v, n: int) -> np.ndarray:
    """A chunk's stored values, one per row (a value the whole chunk stores repeated, as a view)."""
    v = np.asarray(v)
    return v if v.shape == (n,) else np.broadcast_to(v, (n,))


def _rows_of(lens: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """The trace rows of the ``chosen`` chunks (chunk k holds ``lens[k]`` rows), ascending."""
    if not chosen.any():
        return np.zeros(0, np.int64)
    kept = lens[chosen]
    before = np.cumsum(kept) - kept  # where each chosen chunk's rows start among the chosen rows
    first = (np.cumsum(lens) - lens)[chosen]  # and in the trace
    return np.arange(int(kept.sum()), dtype=np.int64) + np.repeat(first - before, kept)


def _chunk_column(values: tuple, lens: np.ndarray, n: int, dtype) -> np.ndarray:
    """A column of one integer per chunk (size, space, instruction, step, group): a broadcast view when it holds one
    value, else each chunk's value repeated, in ``dtype`` (None: the narrowest its range allows)."""
    if not values:
        return np.zeros(0, dtype or np.uint8)
    lo, hi = int(min(values)), int(max(values))
    dtype = dtype or column_dtype(lo, hi)
    if lo == hi:
        return np.broadcast_to(np.array([lo], dtype), (n,))
    return np.repeat(np.array(values, dtype), lens)


def _column(parts: tuple, lens: np.ndarray, n: int, dtype) -> np.ndarray:
    """One column from its chunks' parts (an array per lane, or one scalar for all the chunk's lanes): a
    broadcast view when it holds one value, else an array of ``dtype`` (None: the narrowest its range allows)."""
    if not parts:
        return np.zeros(0, dtype or np.uint8)
    scalar = [not isinstance(p, np.ndarray) or p.ndim == 0 for p in parts]  # np.ndim costs a call per chunk
    if all(scalar):
        return _chunk_column(parts, lens, n, dtype)
    wide = dtype or np.int32  # counters fit 32 bits; narrowed below once their range is known
    if not any(scalar):
        out = np.concatenate(parts, dtype=wide, casting="unsafe")
    else:
        out = np.empty(n, wide)
        start = 0
        for p, ln in zip(parts, lens.tolist(), strict=True):
            out[start:start + ln] = p
            start += ln
    if dtype is None and n:
        narrow = column_dtype(int(out.min()), int(out.max()))
        if narrow.itemsize < out.itemsize:
            out = out.astype(narrow)
    return out
