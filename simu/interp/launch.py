"""The description of one kernel launch: dimensions, warp size and argument values."""

from __future__ import annotations

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
    ``__local`` pointers.
    """

    grid: Dim3
    block: Dim3
    args: dict[str, Any] = field(default_factory=dict)
    warp_size: int = 32
    dynamic_shared: int = 0
    seed: int = 0

    def __post_init__(self) -> None:
        self.grid = as_dim3(self.grid)
        self.block = as_dim3(self.block)

    @property
    def threads_per_block(self) -> int:
        return int(np.prod(self.block))

    @property
    def num_blocks(self) -> int:
        return int(np.prod(self.grid))

    @property
    def total_threads(self) -> int:
        return self.threads_per_block * self.num_blocks

    @property
    def global_size(self) -> Dim3:
        return tuple(g * b for g, b in zip(self.grid, self.block))  # type: ignore[return-value]
