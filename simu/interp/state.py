"""Per-launch machine state: lane geometry, registers, memory, epochs and the trace builder."""

from __future__ import annotations

import numpy as np

from simu.interp.memory import (
    OFFSET_BITS,
    OFFSET_MASK,
    POINTER_BIAS,
    SPACE_NAMES,
    SPACE_PRIVATE,
    SPACE_SHARED,
    Memory,
    PastDrawn,
)
from simu.interp.outcome import MemoryError_
from simu.interp.trace import ACTION_NAMES, ATOMIC, READ, WRITE, TraceBuilder
from simu.interp.values import to_bits
from simu.launch.model import Launch

STORED_BITS_BYTES = 8  # the bytes of a stored value one trace row keeps (a uint64)

FULL = slice(None)
MAX_MEMORY_ERRORS = 1000


class RuntimeFault(Exception):
    """A fault inside a run (trap, failed assert, unsupported at run time)."""

    def __init__(self, message: str, instr: int | None = None):
        super().__init__(message)
        self.instr = instr


class _Geometry:
    """Lane ids of one launch shape (grid, block, warp size): read-only, shared by every run."""

    def __init__(self, grid, block, ws: int, blocks: tuple[int, ...] | None = None):
        tpb = block[0] * block[1] * block[2]
        nblocks = grid[0] * grid[1] * grid[2] if blocks is None else len(blocks)
        T = tpb * nblocks
        lane = np.arange(T, dtype=np.int64)
        self.lane = lane
        self.block_of = lane // tpb
        local = lane % tpb
        self.local = local
        bx, by, _ = block
        gx, gy, _ = grid
        self.tid = [(local % bx).astype(np.int32), ((local // bx) % by).astype(np.int32),
                    (local // (bx * by)).astype(np.int32)]
        b = self.block_of if blocks is None else np.asarray(blocks, np.int64)[self.block_of]  # the real block ids
        self.ctaid = [(b % gx).astype(np.int32), ((b // gx) % gy).astype(np.int32), (b // (gx * gy)).astype(np.int32)]
        self.lane_in_warp = local % ws
        self.warps_per_block = -(-tpb // ws)
        self.warp_of = self.block_of * self.warps_per_block + local // ws
        self.warp_base = lane - self.lane_in_warp
        self.nwarps = nblocks * self.warps_per_block
        self.warp_size_of = np.bincount(self.warp_of, minlength=self.nwarps)
        self.smallest_warp = tpb - (self.warps_per_block - 1) * ws  # a block's last warp may have fewer lanes
        self.zeros = np.zeros(T, np.int32)  # what per-lane counters start as (replaced, never written in place)
        self.warp_first = np.flatnonzero(np.r_[True, self.warp_of[1:] != self.warp_of[:-1]])
        self.warp_end = np.r_[self.warp_first[1:], T]
        self.nbytes = 0
        for v in vars(self).values():
            for a in (v if isinstance(v, list) else [v]):
                if isinstance(a, np.ndarray):
                    a.flags.writeable = False
                    self.nbytes += a.nbytes


_GEOMETRY: dict[tuple, _Geometry] = {}  # least recently used first
_GEOMETRY_HELD = [0]  # the bytes the kept shapes hold
GEOMETRY_BYTES = 64 << 20  # what the kept launch shapes may hold (a search draws many small ones)


def _geometry(grid, block, ws: int, blocks: tuple[int, ...] | None = None) -> _Geometry:
    key = (tuple(grid), tuple(block), ws, blocks)
    geo = _GEOMETRY.pop(key, None)
    if geo is None:
        geo = _Geometry(grid, block, ws, blocks)
        _GEOMETRY_HELD[0] += geo.nbytes
        while _GEOMETRY and _GEOMETRY_HELD[0] > GEOMETRY_BYTES:
            _GEOMETRY_HELD[0] -= _GEOMETRY.pop(next(iter(_GEOMETRY))).nbytes
    _GEOMETRY[key] = geo
    return geo


class State:
    def __init__(self, launch: Launch, nslots: int):
        self.launch = launch
        self.tpb = launch.threads_per_block
        self.nblocks = launch.run_blocks  # the blocks that run: all, or a sample (block_of indexes them)
        self.T = self.tpb * self.nblocks
        self.ws = launch.warp_size
        T = self.T
        geo = _geometry(launch.grid, launch.block, self.ws, launch.blocks)
        self.lane = geo.lane
        self.block_of = geo.block_of
        self.local = geo.local
        self.tid = geo.tid
        self.ctaid = geo.ctaid
        self.lane_in_warp = geo.lane_in_warp
        self.warps_per_block = geo.warps_per_block
        self.warp_of = geo.warp_of
        self.warp_base = geo.warp_base
        self.nwarps = geo.nwarps
        self.live_per_warp = geo.warp_size_of  # replaced (never written in place) when lanes exit
        self.smallest_warp = geo.smallest_warp  # lanes of the smallest warp before any exits
        self.warp_first = geo.warp_first  # first lane of each warp
        self.warp_end = geo.warp_end  # one past its last lane
        self.any_exited = False
        self.r: list = [None] * nslots
        self.mem = Memory()
        self.epoch = np.zeros((2, self.nblocks), np.int32)  # [global, shared] per block
        # The per-lane arrays below are replaced, never written in place, once the trace may hold
        # views of them (see _record): a converged group's trace columns are then slices, not copies.
        self.lane_epoch = [geo.zeros, geo.zeros]  # epoch[space][block_of]
        self.warp_epoch = geo.zeros
        self.uniform_epoch: list[int | None] = [0, 0]  # per space, the epoch every block is at (None: they differ)
        self.any_syncwarp = False
        self.exited = np.zeros(T, bool)
        self.exit_step = np.full(T, np.iinfo(np.int64).max, np.int64)
        # last step each lane ran with its whole live warp (-1: never): made when the lanes first differ
        self.last_full: np.ndarray | None = None
        self.last_full_shared = False  # the trace holds a view of last_full: copy before writing
        self.all_full_at: int | None = -1  # the step in last_full for every lane, while it is one (else None)
        # the step at which the running group was scheduled, when every one of its lanes was then
        # with its whole live warp (so last_full is that step for all of them); else None
        self.group_full_step: int | None = None
        self._instance_base: dict[tuple[int, int], np.ndarray] = {}
        self.releases: list[tuple[np.ndarray, int, int, np.ndarray]] = []  # (blocks, space, barrier, epochs after)
        self.grid_epoch = np.zeros(self.nblocks, np.int32)  # grid-wide barriers each block passed (grid_sync.py)
        self.grid_releases: list[tuple[int, int]] = []  # (block, step) per grid-wide barrier release
        self.trace = TraceBuilder()
        self.step = 0
        self.thread_instructions = 0
        self.memory_errors: list[MemoryError_] = []
        self.record = True
        self.rank: np.ndarray | None = None  # per-lane schedule rank of a scheduled run (see Schedule)
        # id(array) -> (array, allocation, is a texture/image backing) of the launch's arrays (machine._setup)
        self.backing: dict[int, tuple] = {}

    # -- registers ------------------------------------------------------------------
    def put(self, slot: int, sel, val, proto) -> None:
        """Write ``val`` for the selected lanes; ``proto`` builds a fresh full register."""
        if isinstance(proto, list):
            cur = self.r[slot]
            if cur is None:
                cur = [None] * len(proto)
                self.r[slot] = cur
            for k, sub in enumerate(proto):
                _put_component(cur, k, sel, val[k], sub, self.T)
            return
        _put_component(self.r, slot, sel, val, proto, self.T)

    def bump_warp_epoch(self, lanes: np.ndarray) -> None:
        """One more ``__syncwarp`` for ``lanes`` (a new array: the trace may hold views of the old)."""
        we = self.warp_epoch.copy()
        we[lanes] += 1
        self.warp_epoch = we
        self.any_syncwarp = True

    def set_last_full(self, sel, step: int) -> None:
        if sel is FULL:
            self.all_full_at = step  # one number for every lane until a part of them moves on
            return
        if self.all_full_at is not None:
            self.last_full = np.full(self.T, self.all_full_at, np.int64)
            self.all_full_at = None
            self.last_full_shared = False
        elif self.last_full_shared:
            self.last_full = self.last_full.copy()
            self.last_full_shared = False
        self.last_full[sel] = step

    def epochs_moved(self, space: int) -> None:
        """After a release advanced ``epoch[space]`` of some blocks: the lanes' epochs, a new array (trace chunks may
        hold views of the old one), and one number for the trace while every block is at the same epoch."""
        e = self.epoch[space]
        self.lane_epoch[space] = e[self.block_of]
        self.uniform_epoch[space] = int(e[0]) if (e == e[0]).all() else None

    # -- memory -----------------------------------------------------------------------
    def _instance_base_of(self, alloc) -> np.ndarray | None:
        """Per lane, the byte offset of the lane's own instance of a per-block (shared) or per-lane
        (private) allocation; None for allocations with one instance."""
        if alloc.instances <= 1 or alloc.space not in (SPACE_SHARED, SPACE_PRIVATE):
            return None
        key = (alloc.space, alloc.instance_size)
        ib = self._instance_base.get(key)
        if ib is None:
            ib = (self.block_of if alloc.space == SPACE_SHARED else self.lane) * alloc.instance_size
            self._instance_base[key] = ib
        return ib

    def _fast_resolve(self, sel, addrs: np.ndarray, size: int):
        """(allocation, byte offsets) when every lane hits one allocation in bounds, else None.

        Two reductions (min and max of the pointers) settle both questions for global and constant
        memory; shared and private instances need the lane's own instance base.
        """
        lo = int(_MIN(addrs))
        hi = int(_MAX(addrs))
        a = lo >> OFFSET_BITS
        allocs = self.mem.allocs
        if a != hi >> OFFSET_BITS or not 0 < a < len(allocs):
            return None
        alloc = allocs[a]
        base = alloc.base
        inst = alloc.instance_size
        ib = self._instance_base_of(alloc)
        if ib is not None:
            off = addrs - base
            rel = off - ib[sel]
            if _MIN(rel) < 0 or _MAX(rel) + size > inst:
                return None
            return alloc, off
        if lo - base < 0 or hi - base + size > inst:
            return None
        return alloc, addrs - base

    def _resolve(self, lanes: np.ndarray, addrs: np.ndarray, size: int, instr: int, action: int):
        """Split addresses into (alloc, offsets, ok-mask); record faults for bad lanes."""
        addrs = np.asarray(addrs, np.int64)
        if addrs.ndim == 0:
            addrs = np.broadcast_to(addrs, lanes.shape)
        aid = addrs >> OFFSET_BITS
        off = (addrs & OFFSET_MASK) - POINTER_BIAS
        a0 = int(aid[0]) if len(aid) else 0
        if len(aid) and (aid == a0).all():
            groups = [(a0, None)]
        else:
            groups = [(int(a), aid == a) for a in np.unique(aid)]
        out = []
        for a, m in groups:
            alloc = self.mem.allocs[a] if 0 < a < len(self.mem.allocs) else None
            o = off if m is None else off[m]
            ln = lanes if m is None else lanes[m]
            if alloc is None:
                self._fault("null" if a == 0 else "invalid-pointer", instr, ln, o + POINTER_BIAS, size, None, action)
                continue
            inst = alloc.instance_size
            ib = self._instance_base_of(alloc)
            rel = o if ib is None else o - ib[ln]
            if len(rel) and rel.min() >= 0 and rel.max() + size <= inst:
                out.append((alloc, o, ln, m))  # all in bounds (the common case: two reductions)
                continue
            bad = (rel < 0) | (rel + size > inst)
            if bad.any() and alloc.declared:
                _past_drawn(alloc, rel, size)
            if bad.any():
                self._fault("out-of-bounds", instr, ln[bad], rel[bad], size, alloc, action)
                good = ~bad
                o, ln = o[good], ln[good]
                if m is None:
                    m = good
                else:
                    idx = np.flatnonzero(m)
                    m = np.zeros_like(m)
                    m[idx[good]] = True
            out.append((alloc, o, ln, m))
        return out

    def _fault(self, kind, instr, lanes, offs, size, alloc, action) -> None:
        for ln, o in zip(lanes[:4], offs[:4], strict=False):
            if len(self.memory_errors) >= MAX_MEMORY_ERRORS:
                return
            self.memory_errors.append(MemoryError_(
                kind, instr, int(ln), int(o), size, alloc.name if alloc else "",
                SPACE_NAMES[alloc.space] if alloc else "", int(o), alloc.instance_size if alloc else 0,
                ACTION_NAMES[action]))

    def _record(self, lanes, alloc, off, size, instr, action, values, sel=None) -> None:
        """Append one trace chunk.  ``sel`` (a slice for converged groups) makes the per-lane
        columns views instead of gathers; the arrays viewed are replaced, not mutated, later."""
        if not self.record:
            return
        space = alloc.space
        if space == SPACE_PRIVATE:
            return  # private memory cannot race
        idx = lanes if sel is None else sel
        k = 1 if space == SPACE_SHARED else 0
        ep = self.uniform_epoch[k]
        if ep is None:
            ep = self.lane_epoch[k][idx]
        we = self.warp_epoch[idx] if self.any_syncwarp else 0
        if sel is not None and self.group_full_step is not None:
            conv = self.group_full_step  # the whole group ran with full warps since it was scheduled
        elif self.all_full_at is not None:
            conv = self.all_full_at
        else:
            conv = self.last_full[idx]
            if not isinstance(idx, np.ndarray):
                self.last_full_shared = True  # a view (a slice of lanes), not a copy
        base = off + (alloc.id << OFFSET_BITS)
        if values is None or size <= STORED_BITS_BYTES:
            self.trace.add(lanes, base, size, space, ep, we, action, instr, self.step,
                           to_bits(values) if values is not None else None, conv)
            return
        # A store wider than the value column (a float8 `vstore8`) is recorded as pieces of 8 bytes, each with its
        # own bits, so that two stores overlapping in part are compared on the bytes they share.
        values = np.ascontiguousarray(values)
        raw = values.view(np.uint8).reshape(len(values), values.itemsize * int(np.prod(values.shape[1:])))
        for start in range(0, size, STORED_BITS_BYTES):
            piece = raw[:, start:start + STORED_BITS_BYTES]
            self.trace.add(lanes, base + start, piece.shape[1], space, ep, we, action, instr, self.step,
                           to_bits(piece), conv)

    def _locate(self, lanes, sel, addrs, size: int, instr: int, action: int):
        """[(allocation, offsets, lanes, mask or None, selector for the trace)], one per allocation hit."""
        addrs = np.asarray(addrs, np.int64)
        if addrs.ndim == 0:
            addrs = np.broadcast_to(addrs, lanes.shape)
        if len(lanes):
            fast = self._fast_resolve(lanes if sel is None else sel, addrs, size)
            if fast is not None:
                return [(fast[0], fast[1], lanes, None, sel)]
        return [(a, o, ln, m, None) for a, o, ln, m in self._resolve(lanes, addrs, size, instr, action)]

    def load(self, lanes, addrs, dtype: np.dtype, count: int, instr: int, sel=None):
        """Gather ``count`` elements of ``dtype`` per lane (count>1 for vectors).

        ``sel`` is the group's register selector (FULL, a slice or ``lanes``), when known."""
        esize = dtype.itemsize if dtype != np.bool_ else 1
        size = esize * count
        parts = self._locate(lanes, sel, addrs, size, instr, READ)
        if len(parts) == 1 and parts[0][3] is None:
            alloc, off, ln, _, rsel = parts[0]
            vals = _gather(alloc.data, off, dtype, esize, count)
            self._record(ln, alloc, off, size, instr, READ, None, rsel)
            return vals
        out = np.zeros((len(lanes),) if count == 1 else (len(lanes), count), dtype)
        for alloc, off, ln, m, rsel in parts:
            out[m] = _gather(alloc.data, off, dtype, esize, count)
            self._record(ln, alloc, off, size, instr, READ, None, rsel)
        return out

    def store(self, lanes, addrs, vals, dtype: np.dtype, count: int, instr: int, sel=None) -> None:
        esize = dtype.itemsize if dtype != np.bool_ else 1
        size = esize * count
        vals = np.asarray(vals, dtype)
        shape = (len(lanes),) if count == 1 else (len(lanes), count)
        if vals.shape != shape:
            vals = np.broadcast_to(vals, shape)
        for alloc, off, ln, m, rsel in self._locate(lanes, sel, addrs, size, instr, WRITE):
            v = vals if m is None else vals[m]
            _scatter(alloc.data, off, v, dtype, esize, count)
            self._record(ln, alloc, off, size, instr, WRITE, v, rsel)

    def atomic(self, lanes, addrs, fn, vals, dtype: np.dtype, instr: int, cmp=None):
        """Apply ``fn(old, val[, cmp]) -> new`` lane by lane in lane order; return old values."""
        esize = dtype.itemsize
        vals = _per_lane(vals, dtype, lanes.shape)
        if cmp is not None:
            cmp = _per_lane(cmp, dtype, lanes.shape)
        old_all = np.zeros(lanes.shape, dtype)
        for alloc, off, ln, m, _ in self._locate(lanes, None, addrs, esize, instr, ATOMIC):
            v = vals if m is None else vals[m]
            c = None if cmp is None else (cmp if m is None else cmp[m])
            old = _apply_in_lane_order(alloc.data, off, fn, v, c, dtype)
            if m is None:
                old_all = old
            else:
                old_all[m] = old
            self._record(ln, alloc, off, esize, instr, ATOMIC, v)
        return old_all


def _per_lane(v, dtype: np.dtype, shape: tuple) -> np.ndarray:
    """An operand as ``dtype``, one per lane (one value for all of them as a read-only view)."""
    v = np.asarray(v, dtype)
    return v if v.shape == shape else np.broadcast_to(v, shape)


def _apply_in_lane_order(data, off, fn, v, c, dtype):
    """Atomics of one step on one allocation: lanes hitting the same word go one after another
    in lane order (rounds of one lane per word); integer add/sub is one vectorised scan."""
    n = len(off)
    esize = dtype.itemsize
    order = _word_order(off)
    so = off[order]
    first = np.ones(n, bool)
    first[1:] = so[1:] != so[:-1]
    starts = np.flatnonzero(first)
    counts = np.empty(len(starts), np.int64)  # rows per word (np.diff's append costs more than the lanes)
    np.subtract(starts[1:], starts[:-1], out=counts[:-1])
    if n:
        counts[-1] = n - starts[-1]
    seg_start = np.repeat(starts, counts)
    old = np.zeros(n, dtype)
    if c is None and (fn is np.add or fn is np.subtract) and dtype.kind in "iu" and n:
        old[order] = _ordered_add(data, so, starts, counts, seg_start, v, order, fn, dtype)
        return old
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n) - seg_start
    for r in range(int(rank.max()) + 1 if n else 0):
        k = rank == r
        o = off[k]
        cur = _gather(data, o, dtype, esize, 1)
        old[k] = cur
        new = fn(cur, v[k]) if c is None else fn(cur, v[k], c[k])
        _scatter(data, o, np.asarray(new, dtype), dtype, esize, 1)
    return old


def _word_order(off: np.ndarray) -> np.ndarray:
    """The lanes sorted by offset, in lane order among the lanes of one offset: a radix sort where the offsets span
    less than 64 KiB (a block's shared counters), else one packed key that a fast unstable sort keeps in order."""
    n = len(off)
    if not n:
        return np.zeros(0, np.int64)
    lo = int(off.min())
    if int(off.max()) - lo < 1 << 16:
        return np.argsort((off - lo).astype(np.uint16), kind="stable")
    return np.argsort(off * (1 << 21) + np.arange(n)) if n < (1 << 21) else np.argsort(off, kind="stable")


def _ordered_add(data, so, starts, counts, seg_start, v, order, fn, dtype):
    """Integer atomic add/sub applied in lane order, vectorised: each lane's old value is the
    word's value plus the (wrapping) sum of the earlier lanes' operands at the same address.  One operand for
    every lane (an increment) needs no scan: a lane's sum is its rank at its address times the operand."""
    v = np.asarray(v, dtype)
    if v.ndim == 0 or v.strides == (0,):
        one = v.reshape(-1)[0] if v.ndim else v[()]
        excl = (np.arange(len(so)) - seg_start).astype(dtype) * one
        total = counts.astype(dtype) * one
    else:
        vs = v[order]
        excl = np.cumsum(vs, dtype=dtype) - vs
        excl = excl - excl[seg_start]  # exclusive prefix within each address
        total = np.add.reduceat(vs, starts, dtype=dtype)
    init = _gather(data, so, dtype, dtype.itemsize, 1)  # each row's word before the step
    old = fn(init, excl).astype(dtype, copy=False)
    _scatter(data, so[starts], fn(init[starts], total).astype(dtype, copy=False), dtype, dtype.itemsize, 1)
    return old


def _put_component(container, k, sel, val, proto, T) -> None:
    if isinstance(proto, list):
        cur = container[k]
        if cur is None:
            cur = [None] * len(proto)
            container[k] = cur
        for j, sub in enumerate(proto):
            _put_component(cur, j, sel, val[j], sub, T)
        return
    dtype, tail = proto
    if sel is FULL:
        v = np.asarray(val)
        if v.shape != (T,) + tail or v.dtype != dtype:
            v = np.broadcast_to(v.astype(dtype, copy=False), (T,) + tail).copy()
        elif v.base is not None:
            v = v.copy()  # a view of another register: never let two registers share memory
        container[k] = v
        return
    cur = container[k]
    if cur is None:
        cur = np.zeros((T,) + tail, dtype)
        container[k] = cur
    elif not cur.flags.writeable:
        cur = cur.copy()
        container[k] = cur
    cur[sel] = val


_MIN, _MAX, _OR = np.minimum.reduce, np.maximum.reduce, np.bitwise_or.reduce  # without ndarray.min's Python layer


def _aligned(off: np.ndarray, esize: int) -> bool:
    if esize == 1:
        return True
    return esize & (esize - 1) == 0 and not int(_OR(off)) & (esize - 1) if len(off) else True


def _gather(data: np.ndarray, off: np.ndarray, dtype: np.dtype, esize: int, count: int) -> np.ndarray:
    if _aligned(off, esize):
        n = (len(data) // esize) * esize
        view = data[:n].view(dtype)
        q = off >> (esize.bit_length() - 1)
        if count == 1:
            return view[q]
        return view[q[:, None] + np.arange(count)]
    idx = off[:, None] + np.arange(esize * count)
    raw = np.ascontiguousarray(data[idx])
    v = raw.view(dtype)
    return v.reshape(len(off)) if count == 1 else v.reshape(len(off), count)


def _scatter(data: np.ndarray, off: np.ndarray, vals: np.ndarray, dtype: np.dtype, esize: int, count: int) -> None:
    if _aligned(off, esize):
        n = (len(data) // esize) * esize
        view = data[:n].view(dtype)
        q = off >> (esize.bit_length() - 1)
        if count == 1:
            view[q] = vals
        else:
            view[q[:, None] + np.arange(count)] = vals
        return
    raw = np.ascontiguousarray(vals, dtype).view(np.uint8).reshape(len(off), esize * count)
    data[off[:, None] + np.arange(esize * count)] = raw


def _past_drawn(alloc, rel: np.ndarray, size: int) -> None:
    """Stop the run where an access falls past the drawn part of a buffer drawn in part, inside the program's length:
    the data there is the program's, not simu's (an access past the whole length is an out-of-bounds fault)."""
    past = rel[(rel >= 0) & (rel + size > alloc.instance_size) & (rel + size <= alloc.declared)]
    if len(past):
        raise PastDrawn(f"the launch reaches byte {int(past.min())} of '{alloc.name}', past the first "
                        f"{alloc.instance_size} bytes simu draws of its {alloc.declared} (a buffer drawn in part)")
