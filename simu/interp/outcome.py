"""What a run produced: final buffers, an Outcome and the Trace."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simu.interp.trace import Trace
from simu.ir import Instr
from simu.ir.debuginfo import Loc


@dataclass
class MemoryError_:
    """An out-of-bounds or null access (recorded, the access is dropped)."""

    kind: str  # out-of-bounds | null | uninitialised
    instr: int
    lane: int
    addr: int
    size: int
    alloc: str
    space: str
    offset: int
    alloc_size: int
    action: str
    detail: str = ""  # what the access was, when the address alone does not say (a surface coordinate)


@dataclass
class Outcome:
    status: str  # completed | incomplete | error
    reason: str = ""
    loc: Loc | None = None

    @property
    def completed(self) -> bool:
        return self.status == "completed"

    def __str__(self) -> str:
        where = f" at {self.loc}" if self.loc else ""
        return self.status + (f": {self.reason}{where}" if self.reason else "")


@dataclass
class RunResult:
    outcome: Outcome
    buffers: dict[str, np.ndarray]
    trace: Trace
    steps: int = 0
    thread_instructions: int = 0
    seconds: float = 0.0
    memory_errors: list[MemoryError_] = field(default_factory=list)
    shared: dict[str, np.ndarray] = field(default_factory=dict)
    allocations: list[Any] = field(default_factory=list)
    instructions: Mapping[int, Instr] = field(default_factory=dict)  # the kernel's, by id (for source locations)
