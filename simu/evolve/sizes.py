"""Buffer lengths a kernel's own sizes allow (what a host plausibly allocates for a buffer the search sized), and
how many blocks of a host's grid a launch runs (:func:`fit_sample`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simu.launch.model import Launch

# A buffer whose length the search chose (no host allocation, constraint or launch comment gives it) is
# drawn as long as the thread count and every integer argument (often a size n: `i < n` guards an index
# into n elements), one row of n per block, or width x height for 2-D kernels.  Hosts allocate more than
# that as a matter of course: several elements per thread or per size unit (RGBA pixels, float4s, 4x4
# matrices: up to PLAUSIBLE_FACTOR) or a tensor of the kernel's sizes (batch x channels x height x width:
# the product of its integer arguments).  Those are the *plausible* lengths; an out-of-bounds access that
# a plausible length keeps in bounds only breaks the search's guess.
PLAUSIBLE_FACTOR = 16
PLAUSIBLE_MAX_BYTES = 1 << 24  # per buffer: the refutation launch stays small enough to draw and run
# A host buffer longer than this (``N = 100000000`` doubles) is drawn in part: its first DRAWN_MAX_BYTES, the rest
# declared (simu.interp.memory.Allocation.declared), and its launch runs leading blocks only (simu.launch.blocks).
DRAWN_MAX_BYTES = 1 << 24


def drawn_part(length: int, unit: int) -> tuple[int, int]:
    """``(elements drawn, elements declared beyond the drawn ones: 0 for none)`` of a host buffer of ``length``
    elements of ``unit`` bytes: past :data:`DRAWN_MAX_BYTES` only a prefix is drawn; a run that reaches past it
    stops as incomplete, saying so, instead of drawing hundreds of megabytes per evaluation."""
    if length * unit <= DRAWN_MAX_BYTES:
        return length, 0
    return DRAWN_MAX_BYTES // max(1, unit), length


def plausible_length(length: int, ints: list[int], element_bytes: int, host_factor: int = 1,
                     per_threads: int = 0) -> int:
    """The longest length the kernel's own sizes allow for a buffer the search drew with ``length``
    elements, given the launch's integer arguments ``ints`` (absolute values) and the element's size;
    ``host_factor``: the constant factor of the host's allocation (``RF_SIZE * n``), whose length is that
    factor times a count the search cannot see; ``per_threads``: the elements of one record per thread when the
    kernel lays its threads' data out at a constant stride (:func:`~simu.evolve.dictionary.thread_stride_bytes`),
    times the thread count."""
    cap = PLAUSIBLE_MAX_BYTES // max(1, element_bytes)
    return max(length, min(kernel_sizes(length, ints, host_factor, cap, per_threads), cap))


def size_values(values) -> list[int]:
    """The magnitudes of a launch's integer arguments that may be sizes (at most 2**22), in ascending order."""
    return sorted(abs(int(v)) for v in values
                  if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and abs(int(v)) <= 1 << 22)


def kernel_sizes(length: int, ints: list[int], host_factor: int = 1, cap: int | None = None,
                 per_threads: int = 0) -> int:
    """The longest length the kernel's own sizes allow, before :func:`plausible_length` caps it at what a
    refutation launch may draw (counting stops at ``cap`` when given)."""
    tensor = 1
    for v in ints:
        if v >= 2:
            tensor = tensor * v if cap is None else min(tensor * v, cap)
    return max(PLAUSIBLE_FACTOR * length, host_factor * length, tensor if tensor > 1 else 0, per_threads)


def fit_sample(layout: Any, launch: Launch, accesses: int, target: int) -> bool:
    """Size the samples of ``layout``'s later launches of a host's grid so that they record about ``target`` accesses,
    from what the sampled ``launch`` recorded (at least two blocks, at most the thread budget); True when the
    sample shrank.  Counted, not timed: the same kernel samples the same blocks on any machine.  A launch of a
    grid the search draws is never resized: what makes it heavy is the search's values, not the grid."""
    if launch.blocks is None and not (layout.grid_given and launch.run_blocks > 2):
        return False
    per_thread = max(accesses, 1) / launch.run_threads
    fit = max(2 * launch.threads_per_block, min(layout.max_total_threads, int(target / per_thread)))
    shrank = fit < launch.run_threads and fit < layout.sample_threads
    layout.sample_threads = fit
    return shrank
