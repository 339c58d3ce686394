"""Running spin-wait loops (:mod:`simu.ir.spin`): let others run while a group spins, record acquires.

The machine always runs the group first in reverse post-order, so lanes spinning on a flag that lanes
further down the kernel will set (another block's, past the loop) would spin forever.  After
:data:`SPIN_YIELD` iterations of a spin loop while other groups are runnable, the spinning group is
*parked*: the others run until they wait or finish, barriers of blocks with no parked lane are released,
and then the parked groups run again.  A kernel whose spin never ends still ends at the step or time limit,
and the reason names the loop.

Lanes leaving a spin loop record an *acquire* (lane, step, the block's global epoch): the race check orders
what other blocks did before that step with what the lane, and its block after a later barrier, do after it
(:func:`ordered_by_acquire`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from simu.interp.grid_sync import GridWait
from simu.interp.program import merge_lanes

SPIN_YIELD = 64  # iterations of a spin loop before the spinning group lets other groups run
LONE_SPINS = 2_000  # iterations of spin loops with nothing else able to run: a deadlock


class SpinDeadlock(Exception):
    """Every thread that can still run spins, waiting for a value none of them will write."""


def on_back_edge(st, pending: dict, key: tuple[int, int], header: int) -> None:
    """A group took a spin loop's back edge to ``key`` (``header``'s position): park it when it has spun
    :data:`SPIN_YIELD` times while other groups can run."""
    st.last_spin = (header, st.step)
    alone = len(pending) == 1 and not st.parked
    st.lone_spins = st.lone_spins + 1 if alone else 0
    if st.lone_spins > LONE_SPINS:
        raise SpinDeadlock(f"deadlock: threads wait in a spin loop{_at(st.spin_where.get(header))} for a value no "
                           f"thread that can still run writes (the others have finished or wait at a barrier)")
    n = st.spins.get(header, 0) + 1
    if n >= SPIN_YIELD and len(pending) > 1:
        lanes = pending.pop(key)
        prev = st.parked.get(key)
        st.parked[key] = lanes if prev is None else merge_lanes(prev, lanes)
        n = 0
    st.spins[header] = n


def on_exit(st, lanes: np.ndarray) -> None:
    """Lanes left a spin loop: they acquire what other blocks wrote before now."""
    # the branch that left the loop counted the step before this one: what the lanes do next is after it
    st.acquires.append((lanes.copy(), np.full(len(lanes), st.step - 1, np.int64), st.lane_epoch[0][lanes].copy()))


def unpark(st, waiting: dict, pending: dict, release) -> dict:
    """Nothing else can run: release the barriers of blocks with no parked lane (``release`` is the machine's
    barrier release), or, when there are none, let the parked groups run again.  Returns what still waits."""
    parked_lanes = np.concatenate(list(st.parked.values()))
    parked_blocks = np.unique(st.block_of[parked_lanes])
    free, kept = {}, {}
    for wkey, (lanes, w) in waiting.items():
        inside = np.isin(st.block_of[lanes], parked_blocks)
        if isinstance(w, GridWait) or inside.all():
            kept[wkey] = (lanes, w)
        elif not inside.any():
            free[wkey] = (lanes, w)
        else:
            kept[wkey] = (lanes[inside], _part(w, inside))
            free[wkey] = (lanes[~inside], _part(w, ~inside))
    if free:
        kept.update(release(st, free, pending))
        return kept
    for key, lanes in st.parked.items():
        prev = pending.get(key)
        pending[key] = lanes if prev is None else merge_lanes(prev, lanes)
    st.parked.clear()
    st.spins.clear()
    return waiting


def _part(w, mask: np.ndarray):
    if w.reduce is None:
        return w
    kind, dst, values = w.reduce
    return dataclasses.replace(w, reduce=(kind, dst, np.asarray(values)[mask]))


def spin_note(st, where: dict) -> str:
    """What a run stopped at its limit was doing, when it was spinning: the loop and its line."""
    last = getattr(st, "last_spin", None)
    if last is None or st.step - last[1] > 10_000:
        return ""
    return f"; threads wait in a spin loop{_at(where.get(last[0]))} for a value no other thread writes"


def _at(loc) -> str:
    return f" at {loc.file.rsplit('/', 1)[-1]}:{loc.line}" if loc is not None else ""


def acquire_table(acquires: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The run's acquires as arrays (lane, step, global epoch of the lane's block then)."""
    if not acquires:
        e = np.zeros(0, np.int64)
        return e, e, e
    return tuple(np.concatenate([a[i] for a in acquires]).astype(np.int64) for i in range(3))


def release_table(trace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The run's releases: stores and atomics of other instructions to an address a spin-wait read (setting the
    flag, adding to the counter, freeing the lock), as (lane, step, global epoch) arrays."""
    if not trace.sync_reads or len(trace) == 0:
        e = np.zeros(0, np.int64)
        return e, e, e
    sync = np.isin(trace.instr, np.fromiter(trace.sync_reads, np.int64))
    rows = np.flatnonzero(~sync & (trace.action != 0) & np.isin(trace.addr, np.unique(trace.addr[sync])))
    return trace.lane[rows].astype(np.int64), trace.step[rows].astype(np.int64), trace.epoch[rows].astype(np.int64)


_BIG = np.int64(1) << 32


def _nearest(table, tpb: int, lane, step, epoch, after: bool) -> np.ndarray:
    """Per access (``lane``, ``step``, ``epoch``): the step of the latest event of ``table`` before it (``after``
    False) or of the earliest after it (True) that orders with it — one of its own lane, or one of its block across
    a barrier (another global epoch); -1 (before) or the int64 maximum (after) where none does."""
    t_lane, t_step, t_epoch = table
    none = np.iinfo(np.int64).max if after else -1
    best = np.full(len(lane), none, np.int64)
    if len(t_lane) == 0 or len(lane) == 0:
        return best
    pick = np.minimum if after else np.maximum
    t_block, block = t_lane // tpb, lane // tpb
    # (sort key of the events, query key, the events' and the accesses' lane or block, searchsorted side)
    ways = ((t_lane * _BIG + t_step, lane * _BIG + step, t_lane, lane, "right" if after else "left"),
            (t_block * _BIG + t_epoch, block * _BIG + epoch + (1 if after else 0), t_block, block, "left"))
    for key_t, key_q, group_t, group_q, side in ways:
        order = np.lexsort((t_step, key_t))
        at = np.searchsorted(key_t[order], key_q, side=side) - (0 if after else 1)
        ok = (at >= 0) & (at < len(order))
        at = np.where(ok, at, 0)
        same = ok & (group_t[order][at] == group_q)
        best = pick(best, np.where(same, t_step[order][at], none))
    return best


def ordered_by_acquire(acquires, releases, tpb: int, lane_a, step_a, epoch_a, lane_c, step_c,
                       epoch_c) -> np.ndarray:
    """Per pair (``a`` before ``c``, in different blocks): whether a release after ``a`` in its block comes before
    an acquire before ``c`` in its block — each made by the access's own lane, or by a lane of its block across a
    barrier (a spin-wait's flag set after a ``__syncthreads()`` publishes what the whole block wrote before it)."""
    if len(acquires[0]) == 0 or len(releases[0]) == 0 or len(lane_a) == 0:
        return np.zeros(len(lane_a), bool)
    released = _nearest(releases, tpb, lane_a, step_a, epoch_a, after=True)
    acquired = _nearest(acquires, tpb, lane_c, step_c, epoch_c, after=False)
    return released < acquired
