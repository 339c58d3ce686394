"""Grid-wide barriers: ``cooperative_groups::this_grid().sync()`` (the shim calls ``__simu_grid_sync``).

A grid barrier returns a :class:`GridWait`.  The machine releases block barriers first; grid
waiters stay waiting until every other live lane of the grid waits too, at a grid barrier
(:func:`release`).  Then:

* every block's global and shared epochs advance (a grid barrier is also a block barrier);
* each block's *grid epoch* (``State.grid_epoch``) advances, and ``(block, step)`` is appended to
  ``State.grid_releases`` (kept on the trace as ``Trace.grid_releases``).  The race check derives
  an access's grid epoch from its step (:func:`grid_epochs`): accesses of different blocks in
  different grid epochs are ordered;
* a block whose lanes did not all meet at one grid barrier (some exited, or wait at another grid
  barrier), and a block that exited while others wait at a grid barrier it never reached, is
  recorded as :class:`~simu.interp.trace.BarrierDivergence`, like block-level divergence.

Grid barriers are left out of ``barrier_multiwarp``: the redundant-barrier check judges block
barriers only, and never calls a grid barrier redundant.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simu.interp.program import Wait
from simu.interp.trace import BarrierDivergence


@dataclass
class GridWait(Wait):
    """A group waiting at a grid-wide barrier."""


def split(waiting: dict) -> tuple[dict, dict]:
    """(block-barrier waits, grid-barrier waits) of the machine's waiting table."""
    block = {k: v for k, v in waiting.items() if not isinstance(v[1], GridWait)}
    if len(block) == len(waiting):
        return waiting, {}
    return block, {k: v for k, v in waiting.items() if isinstance(v[1], GridWait)}


def release(st, waiting: dict, pending: dict, resume) -> None:
    """Release every lane waiting at a grid barrier; ``resume(lanes, bi, k)`` puts a group back."""
    entries = list(waiting.items())
    nb, tpb = st.nblocks, st.tpb
    ids = np.concatenate([np.full(len(lanes), w.instr, np.int64) for (_, (lanes, w)) in entries])
    all_lanes = np.concatenate([lanes for _, (lanes, _) in entries])
    blk = st.block_of[all_lanes]
    count = np.bincount(blk, minlength=nb)
    lo = np.full(nb, np.iinfo(np.int64).max)
    hi = np.full(nb, -1)
    np.minimum.at(lo, blk, ids)
    np.maximum.at(hi, blk, ids)
    bad = (count > 0) & ((count != tpb) | (lo != hi))
    for b in np.flatnonzero(bad):
        in_b = blk == b
        waiting_at = {int(i): st.local[all_lanes[in_b & (ids == i)]].tolist() for i in np.unique(ids[in_b])}
        exited = st.local[np.flatnonzero(st.exited & (st.block_of == b))].tolist()
        st.divergences.append(BarrierDivergence(int(b), sorted(waiting_at), waiting_at, exited))
    # blocks that returned before reaching this grid barrier (fewer grid releases than the waiters;
    # under a sequential block schedule, blocks that ran earlier have already passed it)
    present = np.flatnonzero(count)
    level = int(st.grid_epoch[present].max())
    exited_blocks = np.bincount(st.block_of[st.exited], minlength=nb) == tpb
    absent = np.flatnonzero(exited_blocks & (count == 0) & (st.grid_epoch <= level))
    if len(absent):
        b0 = int(present[0])
        in_b = blk == b0
        waiting_at = {int(i): st.local[all_lanes[in_b & (ids == i)]].tolist() for i in np.unique(ids[in_b])}
        gone = np.flatnonzero(np.isin(st.block_of, absent) & st.exited)
        st.divergences.append(BarrierDivergence(b0, sorted(waiting_at), waiting_at, [],
                                                grid_absent=gone.tolist()))
    step = st.step
    for space in (0, 1):
        st.epoch[space][present] += 1
        st.releases.append((present, space, int(entries[0][1][1].instr), st.epoch[space][present]))
        st.epochs_moved(space)
    st.grid_epoch[present] += 1
    st.grid_releases.extend((int(b), step) for b in present)
    for (bi, k, iid), (lanes, _) in entries:
        st.barriers_reached[iid] = st.barriers_reached.get(iid, 0) + 1
        resume(lanes, bi, k)


def grid_epochs(grid_releases: np.ndarray, block: np.ndarray, step: np.ndarray) -> np.ndarray:
    """Per access (its block and step): how many grid barriers its block had passed."""
    if len(grid_releases) == 0:
        return np.zeros(len(block), np.int64)
    big = np.int64(1) << 32
    keys = np.sort(grid_releases[:, 0].astype(np.int64) * big + grid_releases[:, 1])
    q = block.astype(np.int64) * big
    return np.searchsorted(keys, q + step.astype(np.int64), side="right") - np.searchsorted(keys, q, side="left")
