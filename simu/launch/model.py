"""The description of one kernel launch: dimensions, warp size and argument values."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Dim3 = tuple[int, int, int]

MAX_THREADS_PER_BLOCK = 1024


def as_dim3(value: int | tuple[int, ...] | list[int] | str) -> Dim3:
    """Accept 64, (8, 8), [4, 4, 4] or "8,8" and return a 3-tuple padded with 1s."""
    if isinstance(value, str):
        parts = [int(p) for p in value.replace("x", ",").split(",") if p.strip()]
    elif isinstance(value, (int, np.integer)):
        parts = [int(value)]
    else:
        parts = [int(v) for v in value]
    if not 1 <= len(parts) <= 3 or any(p < 1 for p in parts):
        raise ValueError(f"invalid dimensions {value!r}: expected 1 to 3 positive integers")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]


@dataclass(frozen=True)
class LocalBuffer:
    """An OpenCL ``__local`` pointer argument: per-group scratch memory of ``nbytes`` bytes."""

    nbytes: int


@dataclass
class Launch:
    """One launch of one kernel.

    ``grid`` counts blocks (work-groups) and ``block`` counts threads per block (the local
    size), CUDA-style, for both languages.  ``args`` maps each kernel parameter name to its
    value: a Python/numpy scalar for scalar parameters, a numpy array (initial contents, any
    dtype; its bytes are copied) for pointer parameters, or :class:`LocalBuffer` for OpenCL
    ``__local`` pointers.  ``buffer_specs`` optionally says how each array was generated.
    """

    grid: Dim3
    block: Dim3
    args: dict[str, Any] = field(default_factory=dict)
    warp_size: int = 32
    dynamic_shared: int = 0
    seed: int = 0
    # How each buffer argument was generated (see simu.launch.buffers.buffer_from_spec), by name:
    # lets a finding's launch be rebuilt exactly for replay.  Optional; may be incomplete.
    buffer_specs: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Where the launch comes from, for findings (see simu.launch.record.ORIGINS): given on the command line,
    # a `// launch:` comment, the host program, or the search (inside the kernel's inferred contract).
    origin: str = ""
    # The linear ids (x fastest) of the blocks that run, in increasing order; None: every block.  A launch
    # larger than simu runs at once runs a sample of its blocks (simu.launch.blocks): block ids, gridDim and the
    # buffers stay the whole launch's.
    blocks: tuple[int, ...] | None = None
    # The device pointers the buffers hold (simu.launch.members): holder buffer -> runs [offset, count, stride,
    # target, target_offset, target_stride]; the machine writes each target buffer's address into those slots.
    # The targets (member buffers such as ``g.nindex``) are arrays in ``args`` after the parameters.
    pointers: dict[str, list[list[Any]]] = field(default_factory=dict)
    # What the host copies into module variables before the launch (cudaMemcpyToSymbol): display name -> (byte
    # offset, values nested as the variable's type, None where not known); the machine writes them over the
    # variable's initialiser.
    symbols: dict[str, tuple[int, Any]] = field(default_factory=dict)
    # Whether the kernels the host launches before it have run on its buffers (simu.evolve.sequence): a variant of
    # it (a refutation's distinct contents) keeps what they left or what the variant put there, not a fresh run.
    sequenced: bool = False
    # The fill the search drew the buffers it chose with (simu.evolve.genome: "random", "zeros", ...; "" where no
    # search drew them): an earlier kernel's own buffers are drawn alike (simu.evolve.sequence).
    fill: str = ""

    def __post_init__(self) -> None:
        self.grid = as_dim3(self.grid)
        self.block = as_dim3(self.block)
        if self.blocks is not None:
            self.blocks = tuple(int(b) for b in self.blocks)

    @property
    def threads_per_block(self) -> int:
        return math.prod(int(x) for x in self.block)

    @property
    def num_blocks(self) -> int:
        return math.prod(int(x) for x in self.grid)

    @property
    def total_threads(self) -> int:
        return self.threads_per_block * self.num_blocks

    @property
    def run_blocks(self) -> int:
        """How many blocks the machine runs (all, or the sample's)."""
        return self.num_blocks if self.blocks is None else len(self.blocks)

    @property
    def run_threads(self) -> int:
        return self.threads_per_block * self.run_blocks

    def block_id(self, run_index: int) -> int:
        """The linear block id of the ``run_index``-th block the machine runs."""
        return int(run_index) if self.blocks is None else self.blocks[int(run_index)]

    @property
    def global_size(self) -> Dim3:
        return tuple(g * b for g, b in zip(self.grid, self.block, strict=False))  # type: ignore[return-value]


@dataclass(frozen=True)
class Schedule:
    """An execution order for the machine (schedule amplification), or ``None`` for the default.

    By default the machine runs every lane of the launch together, vectorised, and all blocks
    pass each barrier at the same time.  A schedule serialises that:

    * ``block_order`` lists the blocks in the order they run (``None``: 0, 1, 2, ...), by linear id, or by
      position in the sample of a launch that runs a sample of its blocks (``Launch.blocks``).
    * ``warp_order`` lists warp indices inside a block (the same permutation for every block):
      between two barriers the warps of a block run one after another in this order, each as
      far as it can go (to the next barrier or to its exit).  ``None`` keeps all warps of a
      block together (vectorised, as by default).
    * ``unit``: how many consecutive threads form one serialised "warp" (``None``: the launch's
      warp size).  ``unit=1`` runs every thread alone between barriers, as a CPU OpenCL device
      does; only legal for code without warp/sub-group operations (shuffles, ballots, votes),
      which would read lanes that have not run yet.
    * ``sequential``: each block runs to completion before the next one starts (one resident
      block, a legal schedule on any GPU).  ``False`` interleaves the blocks barrier phase by
      barrier phase, ordered by ``block_order`` inside each phase (all blocks resident).
    * ``seed`` only names the random draw that produced the schedule (for reports).

    Different schedules give the outputs that a race allows; a race-free kernel gives the same
    output under every schedule.
    """

    block_order: tuple[int, ...] | None = None
    warp_order: tuple[int, ...] | None = None
    sequential: bool = True
    seed: int | None = None
    unit: int | None = None

    @staticmethod
    def random(launch: "Launch", seed: int, *, warps: bool = True, sequential: bool = True,
               unit: int | None = None) -> "Schedule":
        """A random block order and (when ``warps``) warp order for ``launch``, from ``seed``.

        A trailing partial warp stays last, so that the same warp permutation can be applied to
        work-item ids on a device (see :mod:`simu.validate.amplify`).
        """
        rng = np.random.default_rng(seed)
        blocks = tuple(int(b) for b in rng.permutation(launch.run_blocks))
        order = None
        if warps:
            order = warp_permutation(launch.threads_per_block, unit or launch.warp_size, rng)
        return Schedule(blocks, order, sequential, seed, unit)

    @staticmethod
    def reverse(launch: "Launch", *, warps: bool = True, sequential: bool = True,
                unit: int | None = None) -> "Schedule":
        """Blocks and warps in reverse order (the trailing partial warp stays last)."""
        full, rest = divmod(launch.threads_per_block, unit or launch.warp_size)
        order = tuple(range(full - 1, -1, -1)) + ((full,) if rest else ()) if warps else None
        return Schedule(tuple(range(launch.run_blocks - 1, -1, -1)), order, sequential, None, unit)

    def describe(self) -> str:
        def short(t):
            if t is None:
                return "-"
            s = ",".join(str(x) for x in t[:8])
            return s + (",..." if len(t) > 8 else "")

        mode = "sequential" if self.sequential else "phased"
        unit = "" if self.unit is None else f" unit={self.unit}"
        return f"{mode} blocks[{short(self.block_order)}] warps[{short(self.warp_order)}]{unit}"


def warp_permutation(threads_per_block: int, warp_size: int, rng: np.random.Generator) -> tuple[int, ...]:
    """A random order of the full warps of a block; a trailing partial warp stays last."""
    full, rest = divmod(threads_per_block, warp_size)
    order = [int(w) for w in rng.permutation(full)]
    if rest:
        order.append(full)
    return tuple(order)
