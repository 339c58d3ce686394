"""Launch-side view of OpenCL images, samplers and CUDA texture objects: which parameters they are,
and the default arrays that back them (the machine's model: simu/interp/opencl_images.py and
simu/interp/cuda_textures.py).

* An **OpenCL image** parameter (``target("spirv.Image", ...)``) takes a numpy array of shape
  ``(width, C)`` (1-D), ``(height, width, C)`` (2-D) or ``(depth, height, width, C)`` (3-D), C = 1 or 4,
  dtype float32, int32, uint32 or uint8.  Default (:func:`default_image_shape`): C = 4 channels,
  every axis at least the launch's global size along it and at least the ``D``-th root of the
  thread count (a 2-D image of a 1-D launch of 256 threads is 256 x 16), so every work-item has a
  pixel of its own whichever axis it indexes.  The default dtype follows the built-ins the kernel
  calls (:func:`image_dtype`): int32 when it only uses ``read_imagei``/``write_imagei``, uint32 for
  ``*_imageui`` only, otherwise float32.  As text: ``img=float32:HxWx4[:fill]`` (``WxC`` for 1-D,
  ``DxHxWxC`` for 3-D).
* A **sampler** parameter (``sampler_t``) is an integer of CLK_* bits; default
  :data:`DEFAULT_SAMPLER` (unnormalised coordinates, CLAMP_TO_EDGE, NEAREST).
* A **CUDA texture object** (``cudaTextureObject_t``) takes a 1-D array, its backing buffer, sized
  like a default buffer; its dtype follows what ``tex1Dfetch<T>`` loads (:func:`texture_dtype`),
  float32 when the kernel does not say.  As text: ``tex=float32:N[:fill]``.
"""

from __future__ import annotations

import math
import re

import numpy as np

from simu.ir.types import FloatType, IntType, TargetExtType

TEXTURE_TYPES = ("cudaTextureObject_t", "const cudaTextureObject_t")
IMAGE_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.int32, np.uint32, np.uint8))
IMAGE_CHANNELS = (1, 4)
DEFAULT_CHANNELS = 4
# CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST
DEFAULT_SAMPLER = 0x12
_IMAGE_CALL = re.compile(r"_Z\d+(read|write)_image(f|i|ui)")
_FETCH = "__simu_tex1Dfetch"


def is_image(param) -> bool:
    return isinstance(param.type, TargetExtType) and param.type.name == "spirv.Image"


def is_sampler(param) -> bool:
    return isinstance(param.type, TargetExtType) and param.type.name == "spirv.Sampler"


def is_texture(param) -> bool:
    return (param.c_type or "").strip() in TEXTURE_TYPES


def takes_array(param) -> bool:
    """A non-pointer parameter that the launch backs with an array (an image or a texture)."""
    return is_image(param) or is_texture(param)


def image_dims(param) -> int:
    """1, 2 or 3 (0 for image arrays and buffers, which the machine does not model)."""
    dim = int(param.type.params[1]) if len(param.type.params) > 1 else -1
    return {0: 1, 1: 2, 2: 3}.get(dim, 0)


def default_image_shape(param, global_size: tuple[int, ...], threads: int,
                        channels: int = DEFAULT_CHANNELS) -> tuple[int, ...]:
    """The array shape of a default image for a launch (see the module docstring)."""
    dims = max(image_dims(param), 1)
    side = max(1, math.ceil(threads ** (1.0 / dims) - 1e-9))
    extent = [max(int(global_size[k]) if k < len(global_size) else 1, side) for k in range(dims)]
    return tuple(extent[::-1]) + (channels,)  # (depth,) height, width, channels


def _calls(kernel):
    for block in kernel.function.blocks:
        yield from block.instrs


def image_dtype(kernel) -> np.dtype:
    """The default element type of the kernel's images, from the image built-ins it calls."""
    kinds = set()
    for ins in _calls(kernel):
        if ins.opcode == "call":
            m = _IMAGE_CALL.match(ins.attrs.get("callee") or "")
            if m:
                kinds.add(m.group(2))
    if kinds == {"i"}:
        return np.dtype(np.int32)
    if kinds == {"ui"}:
        return np.dtype(np.uint32)
    return np.dtype(np.float32)


def texture_dtype(kernel) -> np.dtype:
    """The element type ``tex1Dfetch<T>`` loads in the kernel (the first fetch's), float32 by default."""
    fetched = set()
    for ins in _calls(kernel):
        if ins.opcode == "call" and ins.attrs.get("callee") == _FETCH and ins.name:
            fetched.add(ins.name)
        elif ins.opcode == "load" and ins.ops and ins.ops[0].kind == "reg" and ins.ops[0].value in fetched:
            t = ins.type
            if isinstance(t, FloatType):
                return np.dtype({"half": np.float16, "double": np.float64}.get(t.kind, np.float32))
            if isinstance(t, IntType) and t.bits in (8, 16, 32, 64):
                return np.dtype(f"int{t.bits}")
            break
    return np.dtype(np.float32)


def check_image_array(param, shape: tuple[int, ...], dtype: np.dtype) -> str | None:
    """Why an array of ``shape`` and ``dtype`` cannot back image ``param`` (None when it can)."""
    dims = image_dims(param)
    if dims == 0:
        return f"parameter '{param.name}' ({param.c_type or param.type}) is an image array or buffer, not modelled"
    want = {1: "WxC", 2: "HxWxC", 3: "DxHxWxC"}[dims]
    if len(shape) != dims + 1 or shape[-1] not in IMAGE_CHANNELS or min(shape) < 1:
        return f"a {dims}-D image takes a shape {want} with C = 1 or 4, e.g. {'x'.join(['8'] * dims)}x4"
    if np.dtype(dtype) not in IMAGE_DTYPES:
        return "an image's dtype is float32, int32, uint32 or uint8"
    return None
