"""Device pointers held in memory (:mod:`simu.launch.members`): the member buffers a launch gives behind a struct's
pointer members or an array of pointers are allocated, and each one's address is written into its slots.

A pointer the machine holds is the 64-bit value ``(allocation id << 40) + 2**39 + byte offset``
(:mod:`simu.interp.memory`); one stored in memory is those 8 bytes, little-endian, and a load of a pointer reads
them back as that value, which the next access resolves to its allocation.  So a slot holds exactly what a kernel
would store there from one of its pointer arguments.
"""

from __future__ import annotations

import numpy as np

from simu.errors import LaunchError
from simu.interp.memory import SPACE_GLOBAL


def place(st, launch, buffers: dict, variables: dict | None = None) -> None:
    """Allocate ``launch``'s member buffers (global memory, named as the launch names them) into ``buffers`` (name ->
    (allocation, dtype, shape), the run's outputs) and write their addresses into the holders' slots: a parameter's
    buffer, or the memory of a module variable (``variables``: display name -> allocation, a ``__constant__`` struct
    whose pointers the host sets)."""
    if not launch.pointers:
        return
    for runs in launch.pointers.values():
        for run in runs:
            name = run[3]
            if name in buffers:
                continue
            arr = launch.args.get(name)
            if not isinstance(arr, np.ndarray):
                raise LaunchError(f"no buffer for '{name}', which a pointer slot of the launch points to")
            arr = np.ascontiguousarray(arr)
            a = st.mem.allocate(name, SPACE_GLOBAL, arr.nbytes, 1, param=name, init=arr)
            buffers[name] = (a, arr.dtype, arr.shape)
    for holder, runs in launch.pointers.items():
        alloc = buffers[holder][0] if holder in buffers else (variables or {}).get(holder)
        if alloc is None:
            continue  # a null pointer argument: no memory to hold slots
        size = alloc.instance_size
        for offset, count, stride, target, target_offset, target_stride in runs:
            i = np.arange(int(count), dtype=np.int64)
            slots = int(offset) + i * int(stride)
            keep = (slots >= 0) & (slots + 8 <= size)
            values = buffers[target][0].base + int(target_offset) + i[keep] * int(target_stride)
            at = slots[keep][:, None] + np.arange(8)
            alloc.data[at] = values.astype("<i8").view(np.uint8).reshape(-1, 8)
