"""Device pointers held in memory (:mod:`simu.launch.members`): the member buffers a launch gives behind a struct's
pointer members or an array of pointers are allocated, and each one's address is written into its slots.

A pointer the machine holds is the 64-bit value ``(allocation id << 40) + 2**39 + byte offset``
(:mod:`simu.interp.memory`); one stored in memory is those 8 bytes, little-endian, and a load of a pointer reads
them back as that value, which the next access resolves to its allocation.  So a slot holds exactly what a kernel
would store there from one of its pointer arguments.  A tensor accessor's slot also gets the shape of its buffer:
``sizes_`` as even as the buffer's elements allow, ``strides_`` contiguous (:func:`tensor_shape`).
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
        for run in runs:
            offset, count, stride, target, target_offset, target_stride = run[:6]
            i = np.arange(int(count), dtype=np.int64)
            slots = int(offset) + i * int(stride)
            keep = (slots >= 0) & (slots + 8 <= size)
            values = buffers[target][0].base + int(target_offset) + i[keep] * int(target_stride)
            at = slots[keep][:, None] + np.arange(8)
            alloc.data[at] = values.astype("<i8").view(np.uint8).reshape(-1, 8)
            if len(run) > 6 and run[6]:
                _write_shape(alloc, size, run[6], int(np.prod(buffers[target][2])))
        if alloc.instances > 1:  # a struct passed by value: every thread's copy holds the same pointers
            alloc.data[size:size * alloc.instances] = np.tile(alloc.data[:size], alloc.instances - 1)


def tensor_shape(elements: int, dims: int) -> list[int]:
    """A shape of ``dims`` dimensions over at most ``elements`` elements, as even as it can be (4,096 elements in
    three dimensions: 16 x 16 x 16), the last dimension taking what the others leave."""
    if dims <= 1:
        return [max(int(elements), 1)]
    side = max(1, int(round(max(elements, 1) ** (1.0 / dims))))
    while side > 1 and side ** (dims - 1) > elements:
        side -= 1
    return [side] * (dims - 1) + [max(1, int(elements) // side ** (dims - 1))]


def _write_shape(alloc, size: int, shape: list, elements: int) -> None:
    """Write a contiguous shape of ``elements`` elements into a tensor accessor's ``sizes_`` and ``strides_``."""
    sizes_at, strides_at, dims, item = (int(x) for x in shape)
    if max(sizes_at, strides_at) + dims * item > size:
        return
    sizes = tensor_shape(elements, dims)
    strides = [int(np.prod(sizes[d + 1:])) for d in range(dims)]
    dtype = "<i8" if item == 8 else "<i4"
    alloc.data[sizes_at:sizes_at + dims * item] = np.array(sizes, dtype).view(np.uint8)
    alloc.data[strides_at:strides_at + dims * item] = np.array(strides, dtype).view(np.uint8)
