"""The replayable record of a launch: what a finding carries so that anyone can run it again."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simu.launch.buffers import buffer_specs
from simu.launch.model import Launch, LocalBuffer

# Where a finding's launch comes from: a user's own launch, or a searched one and what bounded the search.
ORIGIN_GIVEN = "given on the command line"
ORIGIN_SEARCHED = "searched: no host launch found; inside the kernel's inferred contract"
ORIGIN_CONSTRAINED = "searched within the configured constraints"


def origin_of_comment(path: str) -> str:
    return f"a `// launch:` comment of {path}"


@dataclass(frozen=True)
class LaunchRecord:
    """Everything needed to replay the launch that showed a finding."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    scalars: dict[str, Any] = field(default_factory=dict)
    buffers: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {dtype, length, fill?}
    seed: int = 0
    warp_size: int = 32
    dynamic_shared: int = 0
    origin: str = ""  # where the launch comes from (ORIGIN_* texts; empty: not recorded)
    blocks: tuple[int, ...] | None = None  # the blocks simu ran of a launch too large to run whole (Launch.blocks)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> LaunchRecord:
        blocks = d.get("blocks")
        return LaunchRecord(**{**d, "grid": tuple(d["grid"]), "block": tuple(d["block"]),
                               "blocks": tuple(blocks) if blocks is not None else None})


def record_of(launch: Launch) -> LaunchRecord:
    """The record of ``launch``: scalar values plus a spec that rebuilds each buffer exactly (its fill
    and generator state, or its bytes)."""
    scalars: dict[str, Any] = {}
    for name, v in launch.args.items():
        if isinstance(v, LocalBuffer) or (isinstance(v, np.ndarray) and v.ndim > 0):
            continue
        scalars[name] = v.item() if isinstance(v, np.generic) else (v.tolist() if isinstance(v, np.ndarray) else v)
    return LaunchRecord(tuple(launch.grid), tuple(launch.block), scalars, buffer_specs(launch), launch.seed,
                        launch.warp_size, launch.dynamic_shared, launch.origin, launch.blocks)
