"""OpenCL images and samplers as kernel arguments on a real device (the replay side of
:mod:`simu.interp.opencl_images`).

An image argument is a numpy array shaped like the machine's: ``(width, C)`` for 1-D images and
``image1d_buffer_t`` (made from a buffer), ``(height, width, C)`` for 2-D, ``(depth, height, width, C)``
for 3-D, a leading layer axis for arrays, with C = 1 (CL_R; CL_DEPTH for depth images) or 4 (CL_RGBA)
channels of float32, int32, uint32 or uint8 (CL_UNORM_INT8).  A sampler argument is the integer of its
CLK_* bits, as in a ``sampler_t`` constant of the source.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simu.errors import LaunchError

_CHANNEL_TYPES = {"float32": "FLOAT", "int32": "SIGNED_INT32", "uint32": "UNSIGNED_INT32", "uint8": "UNORM_INT8"}
_ADDRESSING = {0: "NONE", 2: "CLAMP_TO_EDGE", 4: "CLAMP", 6: "REPEAT", 8: "MIRRORED_REPEAT"}


def is_image(base_type: str) -> bool:
    return base_type.startswith("image") and base_type.endswith("_t")


def is_sampler(base_type: str) -> bool:
    return base_type == "sampler_t"


def image_dims(base_type: str) -> int:
    """Spatial dimensions of an image type."""
    return 3 if base_type.startswith("image3d") else 2 if base_type.startswith("image2d") else 1


def image_axes(base_type: str) -> int:
    """The array axes before the channels: spatial dimensions, plus one for image arrays."""
    return image_dims(base_type) + ("_array" in base_type)


_SHAPES = {1: "(width, C)", 2: "(height, width, C)", 3: "(depth, height, width, C)"}


def make_image(cl: Any, context: Any, value: Any, base_type: str, where: str) -> tuple[Any, np.ndarray, tuple]:
    """A device image holding ``value``; returns it, the host copy to read back into, and its region."""
    axes, arrayed = image_axes(base_type), "_array" in base_type
    depth = "_depth" in base_type
    channels = (1,) if depth else (1, 4)
    if not isinstance(value, np.ndarray) or value.ndim != axes + 1 or value.shape[-1] not in channels:
        want = ("(layers, " + _SHAPES[axes - 1][1:]) if arrayed else _SHAPES[axes]
        raise LaunchError(f"{where}: a {base_type} argument needs an array shaped {want}, "
                          f"C = {'1' if depth else '1 or 4'}")
    kind = _CHANNEL_TYPES.get(value.dtype.name)
    if kind is None:
        raise LaunchError(f"{where}: image element type {value.dtype} (allowed: {', '.join(_CHANNEL_TYPES)})")
    order = 0x10BD if depth else cl.channel_order.R if value.shape[-1] == 1 else cl.channel_order.RGBA
    fmt = cl.ImageFormat(order, getattr(cl.channel_type, kind))
    host = np.ascontiguousarray(value).copy()
    region = tuple(reversed(value.shape[:-1]))  # OpenCL counts (width, height, depth / layers)
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    if base_type.startswith("image1d_buffer"):
        backing = cl.Buffer(context, flags, hostbuf=host)
        image = cl.create_image(context, cl.mem_flags.READ_WRITE, fmt, shape=region, buffer=backing)
    elif arrayed and axes == 2:
        # pyopencl's shape setter leaves a 1-D array's array_size at 1: describe it in full
        desc = cl.ImageDescriptor()
        desc.image_type = cl.mem_object_type.IMAGE1D_ARRAY
        desc.shape = region
        desc.array_size = region[1]
        desc.pitches = (0, 0)
        desc.num_mip_levels = desc.num_samples = 0
        desc.buffer = None
        image = cl.Image(context, flags, fmt, desc=desc, hostbuf=host)
    else:
        image = cl.create_image(context, flags, fmt, shape=region, hostbuf=host, is_array=arrayed)
    return image, host, region


def read_image(cl: Any, queue: Any, image: Any, host: np.ndarray, region: tuple) -> None:
    # enqueue_copy refuses 1-D images as a source; the read itself handles every dimensionality
    cl._enqueue_read_image(queue, image, (0,) * len(region), region, host, is_blocking=True)


def make_sampler(cl: Any, context: Any, bits: int, where: str) -> Any:
    addressing = _ADDRESSING.get(int(bits) & 0xE)
    if addressing is None:
        raise LaunchError(f"{where}: sampler bits {int(bits):#x} name no addressing mode")
    filtering = cl.filter_mode.LINEAR if int(bits) & 0x20 else cl.filter_mode.NEAREST
    return cl.Sampler(context, bool(int(bits) & 1), getattr(cl.addressing_mode, addressing), filtering)
