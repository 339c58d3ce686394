"""Memory of the machine: allocations as numpy byte arrays, pointers as 64-bit integers.

A pointer is ``(allocation id << 40) + 2**39 + byte offset``; id 0 is the null allocation.  The
bias keeps a pointer that strays a little below its allocation (``a[i - 1]`` at ``i = 0``) inside
that allocation's id, so the fault names the right buffer with a negative offset.  Trace
addresses are canonical: ``(id << 40) | offset`` with the offset in bounds.  Shared memory
has one instance per block and private memory one per lane, laid out contiguously in one array,
so that each lane's pointer already points into its own instance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

OFFSET_BITS = 40
OFFSET_MASK = (1 << OFFSET_BITS) - 1
POINTER_BIAS = 1 << (OFFSET_BITS - 1)

SPACE_GLOBAL, SPACE_SHARED, SPACE_CONSTANT, SPACE_PRIVATE = 0, 1, 2, 3
SPACE_NAMES = ("global", "shared", "constant", "private")


@dataclass
class Allocation:
    id: int
    name: str  # parameter or variable name, for reports
    space: int
    instance_size: int  # bytes of one instance (per block for shared, per lane for private)
    instances: int
    data: np.ndarray  # uint8, instance_size * instances (+ slack for alignment)
    param: str | None = None
    declared: int = 0  # bytes the program's buffer has, where only the first instance_size were drawn (else 0)

    @property
    def base(self) -> int:
        """Pointer value of byte 0 of the first instance."""
        return (self.id << OFFSET_BITS) + POINTER_BIAS


class PastDrawn(Exception):
    """An access past the drawn part of a buffer drawn in part (:attr:`Allocation.declared`): the run cannot go on
    with data it does not have."""


def _bytes_of(init: bytes | np.ndarray) -> np.ndarray:
    """The bytes of an initial value as a uint8 array, a view where the value's memory allows."""
    if isinstance(init, np.ndarray):
        return np.ascontiguousarray(init).reshape(-1).view(np.uint8)
    return np.frombuffer(bytes(init), np.uint8)


class Memory:
    def __init__(self) -> None:
        self.allocs: list[Allocation | None] = [None]  # id 0 = null

    def allocate(self, name: str, space: int, instance_size: int, instances: int = 1,
                 param: str | None = None, init: bytes | np.ndarray | None = None) -> Allocation:
        size = max(instance_size, 0) * instances
        if init is None:
            data = np.zeros(size + 8, dtype=np.uint8)  # slack so aligned views never fall short
        else:  # the initial bytes copied once (no zero fill under them, no bytes object between)
            raw = _bytes_of(init)
            data = np.empty(size + 8, dtype=np.uint8)
            data[:len(raw)] = raw
            data[len(raw):] = 0
        a = Allocation(len(self.allocs), name, space, instance_size, instances, data, param)
        self.allocs.append(a)
        return a

    def contents(self, alloc: Allocation) -> np.ndarray:
        return alloc.data[:alloc.instance_size * alloc.instances]
