"""The record of a run: every memory access as columns of numpy arrays, plus barrier events."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

READ, WRITE, ATOMIC = 0, 1, 2
ACTION_NAMES = ("read", "write", "atomic")


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
    """Columns, one entry per (lane, memory access).  Thread/block ids derive from ``lane``."""

    addr: np.ndarray  # int64 byte address (allocation id << 40 | offset)
    size: np.ndarray  # uint8 bytes accessed
    space: np.ndarray  # uint8 SPACE_*
    lane: np.ndarray  # int32 linear lane id in the launch
    epoch: np.ndarray  # int32 barrier epoch of the lane's block for that space
    warp_epoch: np.ndarray  # int32 count of __syncwarp the lane executed
    action: np.ndarray  # uint8 READ/WRITE/ATOMIC
    instr: np.ndarray  # int32 static instruction id
    step: np.ndarray  # int32 machine step
    group: np.ndarray  # int32 index into ``groups`` (lanes executing together at that step)
    conv_step: np.ndarray  # int32 last step (<= step) at which the lane ran with its whole live warp
    value: np.ndarray  # uint64 raw bits of the value written (0 for reads)
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

    def __len__(self) -> int:
        return int(self.addr.shape[0])

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, f).nbytes for f in ("addr", "size", "space", "lane", "epoch", "warp_epoch",
                                                    "action", "instr", "step", "group", "value", "conv_step"))


class TraceBuilder:
    """Collects one chunk per memory step; :meth:`finish` concatenates them once."""

    def __init__(self) -> None:
        self.chunks: list[tuple] = []
        self.groups: list[np.ndarray] = []
        self._group_ids: dict[int, int] = {}
        self.count = 0

    def group_id(self, lanes: np.ndarray) -> int:
        key = id(lanes)
        gid = self._group_ids.get(key)
        if gid is None or self.groups[gid] is not lanes:
            gid = len(self.groups)
            self.groups.append(lanes)
            self._group_ids[key] = gid
        return gid

    def add(self, lanes: np.ndarray, addr: np.ndarray, size: int, space: np.ndarray | int, epoch: np.ndarray,
            warp_epoch: np.ndarray, action: int, instr: int, step: int, value: np.ndarray | None,
            conv_step: np.ndarray | int = 0) -> None:
        self.chunks.append((lanes, addr, size, space, epoch, warp_epoch, action, instr, step,
                            self.group_id(lanes), value, conv_step))
        self.count += len(lanes)

    def finish(self) -> Trace:
        n = self.count
        if not self.chunks:
            e = np.zeros(0, np.int64)
            return Trace(e, e.astype(np.uint8), e.astype(np.uint8), e.astype(np.int32), e.astype(np.int32),
                         e.astype(np.int32), e.astype(np.uint8), e.astype(np.int32), e.astype(np.int32),
                         e.astype(np.int32), e.astype(np.uint64), e.astype(np.int32), self.groups)
        chunks = self.chunks
        lens = np.fromiter((len(c[0]) for c in chunks), np.int64, len(chunks))

        def rep(k: int, dtype) -> np.ndarray:
            per_chunk = np.fromiter((c[k] for c in chunks), dtype, len(chunks))
            if (per_chunk == per_chunk[0]).all():
                return np.full(n, per_chunk[0], dtype)
            return np.repeat(per_chunk, lens)

        def cat(k: int, dtype) -> np.ndarray:
            """Concatenate column ``k``; a chunk may give one scalar for all its lanes."""
            parts = [c[k] for c in chunks]
            scalar = [np.ndim(p) == 0 for p in parts]
            if all(scalar):
                return rep(k, dtype)
            if not any(scalar):
                return np.concatenate(parts, dtype=dtype, casting="unsafe")
            out = np.empty(n, dtype)
            start = 0
            for p, ln in zip(parts, lens.tolist(), strict=False):
                out[start:start + ln] = p
                start += ln
            return out

        values = np.zeros(n, np.uint64)  # reads leave 0
        ends = np.cumsum(lens)
        for c, end in zip(chunks, ends.tolist(), strict=False):
            if c[10] is not None:
                values[end - len(c[0]):end] = c[10]
        trace = Trace(
            addr=cat(1, np.int64), size=rep(2, np.uint8), space=rep(3, np.uint8), lane=cat(0, np.int32),
            epoch=cat(4, np.int32), warp_epoch=cat(5, np.int32), action=rep(6, np.uint8), instr=rep(7, np.int32),
            step=rep(8, np.int32), group=rep(9, np.int32), value=values, conv_step=cat(11, np.int32),
            groups=self.groups)
        assert len(trace) == n
        return trace
