"""A sample of the blocks of a launch too large to run whole.

A host program's launch may have thousands of blocks; running them all costs more than the search's budget,
and the checks rarely need them: intra-block bugs show in any block, and inter-block conflicts mostly
between neighbours (halos, off-by-one tiles) or at the edges of the grid (the last, partial block).  Such a
launch runs the blocks at the start, the middle and the end of each grid axis -- each with its neighbour --
within the thread budget; block ids, ``gridDim`` and the buffers stay the whole launch's, so every access
a sampled block makes is the one it makes in the real launch.  What it cannot show is a conflict between two
blocks of which one did not run, or an inter-block protocol that waits for a block outside the sample (a
grid barrier: kernels with one are never sampled).
"""

from __future__ import annotations

import math

from simu.launch.model import Dim3, Launch


def _axis_order(n: int, most: int, leading: bool = False) -> list[int]:
    """At most ``most`` coordinates of one grid axis of ``n`` blocks, by priority: both ends and their
    neighbours, the middle pair, then ones spread evenly (halving steps); ``leading``: the first ones."""
    if leading:
        return list(range(min(n, most)))
    out: dict[int, None] = {}
    for c in (0, n - 1, 1, n - 2, n // 2 - 1, n // 2):
        if 0 <= c < n:
            out.setdefault(c)
    step = n
    while step > 1 and len(out) < min(n, most):
        step //= 2
        for c in range(step, n, step):
            out.setdefault(c)
            if len(out) >= most:
                break
    return list(out)[:most]


def sample_blocks(grid: Dim3, block: Dim3, max_threads: int, size: int | None = None,
                  leading: bool = False) -> tuple[int, ...] | None:
    """The linear ids of the blocks to run when the launch has more than ``max_threads`` threads -- about
    ``size`` threads of them (default ``max_threads``), at least two blocks --, or None when it runs whole;
    ``leading``: the first blocks of each axis only (buffers drawn in part: :func:`simu.evolve.sizes.drawn_part`)."""
    per_block = math.prod(block)
    total = math.prod(grid)
    if total * per_block <= max_threads or total < 2:
        return None
    room = max(2, (size or max_threads) // max(per_block, 1))
    orders = [_axis_order(g, room, leading) for g in grid]
    take = [1, 1, 1]
    while True:  # widen the axes in turn (x first) while the product of coordinates fits the room
        grown = False
        for d in range(3):
            if take[d] < len(orders[d]) and math.prod(take) // take[d] * (take[d] + 1) <= room:
                take[d] += 1
                grown = True
        if not grown:
            break
    if math.prod(take) < 2:  # one block alone fills the room: still two, for inter-block conflicts
        d = next(d for d in range(3) if grid[d] > 1)
        take[d] = 2
    gx, gy, _ = grid
    ids = {x + gx * (y + gy * z) for x in orders[0][:take[0]] for y in orders[1][:take[1]]
           for z in orders[2][:take[2]]}
    return tuple(sorted(ids))


def with_sample(launch: Launch, max_threads: int, size: int | None = None, leading: bool = False) -> Launch:
    """``launch`` running a sample of about ``size`` threads of its blocks when it is larger than
    ``max_threads`` (its first blocks when ``leading``); its origin says so."""
    blocks = sample_blocks(launch.grid, launch.block, max_threads, size, leading)
    if blocks is None:
        return launch
    launch.blocks = blocks
    part = [f"{n} ({spec['length']:,} of {spec['declared']:,} elements)" for n, spec in launch.buffer_specs.items()
            if "declared" in spec] if leading else []
    why = f"; the first ones, as buffers are drawn in part: {', '.join(part)}" if part else ""
    launch.origin += f" ({describe(launch)}{why})"
    return launch


def describe(launch: Launch) -> str:
    """``8 of 4096 blocks run: (0,0,0), (1,0,0), …``: what a sampled launch ran."""
    if launch.blocks is None:
        return ""
    gx, gy, _ = launch.grid
    coords = [(b % gx, b // gx % gy, b // (gx * gy)) for b in launch.blocks]
    dims = 3 if launch.grid[2] > 1 else 2 if launch.grid[1] > 1 else 1
    text = ", ".join(str(c[0]) if dims == 1 else "(" + ",".join(str(v) for v in c[:dims]) + ")"
                     for c in coords[:12])
    more = ", ..." if len(coords) > 12 else ""
    return f"{len(launch.blocks)} of {launch.num_blocks} blocks run: {text}{more}"


def sample_note(launches) -> str:
    """What an analysed kernel's report says when it ran a sample of a launch's blocks (empty: none did)."""
    launches = list(launches)
    whole = {launch.grid for launch in launches if launch.blocks is None}  # grids that also ran whole
    sampled = [launch for launch in launches if launch.blocks is not None and launch.grid not in whole]
    if not sampled:
        return ""
    big = max(sampled, key=lambda launch: (launch.num_blocks, -launch.run_blocks))  # the fewest blocks it ran
    return f"sampled: {big.run_blocks} of {big.num_blocks} blocks run"
