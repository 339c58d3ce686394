"""Launch-side view of OpenCL images, samplers and CUDA texture objects: which parameters they are,
and the default arrays that back them (the machine's model: simu/interp/opencl_images.py and
simu/interp/cuda_textures.py).

* An **OpenCL image** parameter (``target("spirv.Image", ...)``) takes a numpy array of shape
  ``(width, C)`` (1-D and ``image1d_buffer_t``), ``(height, width, C)`` (2-D), ``(depth, height,
  width, C)`` (3-D), with a leading layer axis for arrays (``(layers, width, C)``, ``(layers, height,
  width, C)``), C = 1 or 4 (1 for depth images), dtype float32, int32, uint32 or uint8.  Default
  (:func:`default_image_shape`): C = 4 channels (1 for depth images), every axis at least the
  launch's global size along it and at least the ``A``-th root of the thread count (``A`` axes; a 2-D
  image of a 1-D launch of 256 threads is 256 x 16), so every work-item has a pixel of its own whichever
  axis it indexes.  The default dtype of each image follows the built-ins called on that parameter
  (:func:`image_dtype`): int32 when it is only read/written with ``read_imagei``/``write_imagei``,
  uint32 for ``*_imageui`` only, otherwise float32.  As text: ``img=float32:HxWx4[:fill]`` (``WxC`` for
  1-D, ``DxHxWxC`` for 3-D, ``LxHxWxC`` for 2-D arrays).
* A **sampler** parameter (``sampler_t``) is an integer of CLK_* bits; default
  :data:`DEFAULT_SAMPLER` (unnormalised coordinates, CLAMP_TO_EDGE, NEAREST).
* A **CUDA texture or surface object** (``cudaTextureObject_t``, ``cudaSurfaceObject_t``) takes its
  backing array: spatial axes outermost first (layer, depth, height, width) and, for vector texels,
  a last axis of C components (``HxWx4`` for float4).  The default (:func:`default_texture_shape`)
  follows what the kernel's fetches say (:func:`texture_layout`, read off the shim's calls): as many
  axes as ``tex2D``/``tex3D``/``tex2DLayered``/``surf2Dwrite``... use, each covering the launch like
  an image's, the dtype and components of the fetch's ``T`` (float32 when the kernel does not say);
  a texture only read by ``tex1Dfetch`` is a flat buffer sized like a default buffer.  As text:
  ``tex=float32:N`` / ``HxW`` / ``HxWx4[:fill][:modes]``, where ``modes`` are the texture descriptor
  settings that differ from the defaults (:func:`texture_mode`): ``linear`` (filtering), ``norm``
  (normalised coordinates), ``wrap``/``mirror``/``border`` (addressing; default clamp).
* A **legacy texture reference** (a ``texture<T, dim, mode>`` global the kernel reads) is a
  texture-object pseudo-parameter of the launch (:func:`launch_params`), named like the global.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from simu.ir.types import TargetExtType

TEXTURE_TYPES = ("cudaTextureObject_t", "const cudaTextureObject_t", "cudaSurfaceObject_t", "const cudaSurfaceObject_t")
IMAGE_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.int32, np.uint32, np.uint8))
IMAGE_CHANNELS = (1, 4)
DEFAULT_CHANNELS = 4
# CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST
DEFAULT_SAMPLER = 0x12
_IMAGE_CALL = re.compile(r"_Z\d+(read|write)_image(f|i|ui)")
_FETCH, _EXTENT = "__simu_tex1Dfetch", "__simu_tex_extent"
TEXREF_HANDLE = "llvm.nvvm.texsurf.handle"  # a legacy texture reference's handle (clang)
# texture descriptor bits the shim reads (__simu_tex_mode): cudaTextureAddressMode in bits 0-1
TEX_LINEAR, TEX_NORMALIZED, TEX_ANY_SIZE = 4, 8, 1 << 16
ADDRESS_MODES = {"wrap": 0, "clamp": 1, "mirror": 2, "border": 3}
TEXTURE_MODES = ("point", "linear", "unnorm", "norm", *ADDRESS_MODES)
_TEXEL_DTYPES = {2: "float", 1: "int", 0: "uint"}


def is_image(param) -> bool:
    return isinstance(param.type, TargetExtType) and param.type.name == "spirv.Image"


def is_sampler(param) -> bool:
    return isinstance(param.type, TargetExtType) and param.type.name == "spirv.Sampler"


def is_texture(param) -> bool:
    return (param.c_type or "").strip() in TEXTURE_TYPES


def takes_array(param) -> bool:
    """A non-pointer parameter that the launch backs with an array (an image or a texture)."""
    return is_image(param) or is_texture(param)


def _layout(param) -> tuple[int, bool, bool] | None:
    return param.type.image_layout if isinstance(param.type, TargetExtType) else None


def image_dims(param) -> int:
    """The number of array axes before the channels: spatial dimensions, plus one for image arrays
    (0 for image types the machine does not model)."""
    layout = _layout(param)
    if layout is None:
        return 0
    return layout[0] + layout[1]


def image_channels(param) -> tuple[int, ...]:
    """The channel counts an image parameter may have: 1 for depth images, else 1 or 4."""
    layout = _layout(param)
    return (1,) if layout and layout[2] else IMAGE_CHANNELS


def default_image_shape(param, global_size: tuple[int, ...], threads: int,
                        channels: int | None = None) -> tuple[int, ...]:
    """The array shape of a default image for a launch (see the module docstring)."""
    dims = max(image_dims(param), 1)
    side = max(1, math.ceil(threads ** (1.0 / dims) - 1e-9))
    extent = [max(int(global_size[k]) if k < len(global_size) else 1, side) for k in range(dims)]
    if channels is None:
        channels = DEFAULT_CHANNELS if DEFAULT_CHANNELS in image_channels(param) else 1
    return tuple(extent[::-1]) + (channels,)  # (layers / depth,) height, width, channels


def _calls(kernel):
    for block in kernel.function.blocks:
        yield from block.instrs


def image_dtype(kernel, param=None) -> np.dtype:
    """The default element type of image ``param`` (of every image of the kernel when None), from the
    image built-ins called on it: int32 when only ``*_imagei``, uint32 when only ``*_imageui``, else float32."""
    reg = kernel.function.args[param.index][0] if param is not None else None
    kinds = set()
    for ins in _calls(kernel):
        if ins.opcode == "call":
            m = _IMAGE_CALL.match(ins.attrs.get("callee") or "")
            if m and (reg is None or (ins.ops and ins.ops[0].kind == "reg" and ins.ops[0].value == reg)):
                kinds.add(m.group(2))
    if kinds == {"i"}:
        return np.dtype(np.int32)
    if kinds == {"ui"}:
        return np.dtype(np.uint32)
    return np.dtype(np.float32)


def texture_mode(text: str) -> int:
    """The descriptor bits of a launch spec's texture modes (``"linear,wrap,norm"``; "" = defaults:
    clamp addressing, point filtering, unnormalised coordinates).  ValueError names a bad word."""
    bits = ADDRESS_MODES["clamp"]
    for word in (w.strip().lower() for w in text.split(",") if w.strip()):
        if word in ADDRESS_MODES:
            bits = (bits & ~3) | ADDRESS_MODES[word]
        elif word in ("linear", "point"):
            bits = bits | TEX_LINEAR if word == "linear" else bits & ~TEX_LINEAR
        elif word in ("norm", "unnorm"):
            bits = bits | TEX_NORMALIZED if word == "norm" else bits & ~TEX_NORMALIZED
        else:
            raise ValueError(f"unknown texture mode '{word}' (use {', '.join(TEXTURE_MODES)})")
    return bits


def is_texture_modes(text: str) -> bool:
    """Whether a spec part is a list of texture modes (rather than a fill)."""
    try:
        texture_mode(text)
    except ValueError:
        return False
    return bool(text.strip())


def texel_code_parts(code: int) -> tuple[int, int, int]:
    """(bytes of a component, kind 0 unsigned / 1 signed / 2 float / 3 other, components) of the code
    the shim passes for a fetch type T (``__simu_texel<T>::code``)."""
    return code & 0xFF, (code >> 8) & 0xF, max((code >> 12) & 0xF, 1)


def _texel_dtype(code: int) -> tuple[np.dtype, int]:
    size, kind, count = texel_code_parts(code)
    if kind in _TEXEL_DTYPES and size in (1, 2, 4, 8) and not (kind == 2 and size == 1):
        return np.dtype(f"{_TEXEL_DTYPES[kind]}{8 * size}"), count
    return np.dtype(np.uint8), size * count  # a struct texel: its bytes


def texref_name(symbol: str) -> str:
    """The launch's name of a texture reference global: its C++ name (``img::t`` for ``_ZN3img1tE``,
    ``counts`` for a static's ``_ZL6counts``), the symbol itself when it is no plain mangled name."""
    rest = symbol[2:] if symbol.startswith("_Z") else ""
    rest = rest[1:] if rest.startswith("L") else rest
    nested = rest.startswith("N")
    if nested:
        if not rest.endswith("E"):
            return symbol
        rest = rest[1:-1]
    parts = []
    while rest:
        n = re.match(r"[1-9]\d*", rest)
        if n is None or len(rest) < n.end() + int(n.group(0)):
            return symbol
        parts.append(rest[n.end():n.end() + int(n.group(0))])
        rest = rest[n.end() + int(n.group(0)):]
    return "::".join(parts) if parts and (nested or len(parts) == 1) else symbol


def texture_refs(kernel) -> list[str]:
    """The launch names (:func:`texref_name`) of the legacy texture references (``texture<T, dim,
    mode>`` globals) the kernel reads, in order."""
    names: list[str] = []
    for ins in _calls(kernel):
        if ins.opcode == "call" and (ins.attrs.get("callee") or "").startswith(TEXREF_HANDLE) and ins.ops:
            ref = ins.ops[0].value
            if ins.ops[0].kind == "const" and hasattr(ref, "name") and texref_name(ref.name) not in names:
                names.append(texref_name(ref.name))
    return names


def launch_params(kernel) -> list:
    """The kernel's parameters, then one texture-object pseudo-parameter per legacy texture reference
    it reads: the launch backs a reference with an array as it backs a ``cudaTextureObject_t``."""
    from simu.ir.module import Param
    from simu.ir.types import IntType

    return [*kernel.params, *(Param(-1, name, IntType(64), TEXTURE_TYPES[0]) for name in texture_refs(kernel))]


def _param_regs(kernel) -> dict[str, str]:
    """IR register of each parameter (and of each texture reference's handle) -> its name."""
    regs = {reg: p.name for (reg, _), p in zip(kernel.function.args, kernel.params, strict=False)}
    for ins in _calls(kernel):
        if ins.opcode == "call" and (ins.attrs.get("callee") or "").startswith(TEXREF_HANDLE) and ins.ops and ins.name:
            regs[ins.name] = texref_name(getattr(ins.ops[0].value, "name", ""))
    return regs


def _const(op) -> int | None:
    return int(op.value) if op is not None and op.kind == "const" and isinstance(op.value, (int, np.integer)) \
        else None


@dataclass(frozen=True)
class TextureLayout:
    """What a kernel's fetches say about one texture's backing array."""

    axes: int  # spatial axes (0: only tex1Dfetch, a flat buffer)
    dtype: np.dtype
    components: int  # the last axis when > 1


def texture_layout(kernel, param_name: str | None = None) -> TextureLayout:
    """The backing-array layout the kernel's texture/surface calls imply for ``param_name`` (calls
    whose handle is another parameter are ignored; calls on a handle not traced to a parameter
    count for every one).  float32, flat, when nothing says otherwise."""
    regs = _param_regs(kernel)
    axes, code = 0, None
    for ins in _calls(kernel):
        callee = ins.attrs.get("callee") if ins.opcode == "call" else None
        if callee not in (_FETCH, _EXTENT) or not ins.ops:
            continue
        h = ins.ops[0]
        owner = regs.get(h.value) if h.kind == "reg" else None
        if param_name is not None and owner is not None and owner != param_name:
            continue
        if callee == _EXTENT:
            a, c = _const(ins.ops[1] if len(ins.ops) > 1 else None), _const(ins.ops[3] if len(ins.ops) > 3 else None)
            axes = max(axes, a or 0)
        else:
            c = _const(ins.ops[2] if len(ins.ops) > 2 else None)
        if c is not None and (code is None or (code & TEX_ANY_SIZE and not c & TEX_ANY_SIZE)):
            code = c
    if code is None:
        return TextureLayout(axes, np.dtype(np.float32), 1)
    dtype, comps = _texel_dtype(code)
    return TextureLayout(axes, dtype, comps)


def texture_dtype(kernel) -> np.dtype:
    """The element type the kernel's fetches read (the first one's), float32 by default."""
    return texture_layout(kernel).dtype


def default_texture_shape(layout: TextureLayout, global_size: tuple[int, ...], threads: int,
                          length: int) -> tuple[int, ...]:
    """The default backing array's shape: ``length`` texels for a flat (tex1Dfetch) texture, else
    every axis covering the launch as an image's (:func:`default_image_shape`)."""
    comps = (layout.components,) if layout.components > 1 else ()
    if layout.axes == 0:
        return (length,) + comps
    side = max(1, math.ceil(threads ** (1.0 / layout.axes) - 1e-9))
    extent = [max(int(global_size[k]) if k < len(global_size) else 1, side) for k in range(layout.axes)]
    return tuple(extent[::-1]) + comps


def check_texture_array(layout: TextureLayout, shape: tuple[int, ...]) -> str | None:
    """Why an array of ``shape`` cannot back a texture the kernel reads with ``layout`` (None when it can)."""
    if min(shape) < 1:
        return "every axis needs at least one texel"
    if layout.axes and len(shape) not in (layout.axes, layout.axes + 1):
        names = {1: "W", 2: "HxW (or LxW, layered)", 3: "DxHxW (or LxHxW, layered)"}.get(layout.axes, "")
        return f"the kernel reads it as a {layout.axes}-axis texture: give a shape {names}[xC]"
    return None


def check_image_array(param, shape: tuple[int, ...], dtype: np.dtype) -> str | None:
    """Why an array of ``shape`` and ``dtype`` cannot back image ``param`` (None when it can)."""
    dims = image_dims(param)
    if dims == 0:
        return f"parameter '{param.name}' ({param.c_type or param.type}) is an image type simu does not model"
    arrayed = bool(_layout(param)[1])
    want = ({1: "LxWxC", 2: "LxHxWxC"} if arrayed else {1: "WxC", 2: "HxWxC", 3: "DxHxWxC"})[dims - arrayed]
    channels = image_channels(param)
    if len(shape) != dims + 1 or shape[-1] not in channels or min(shape) < 1:
        return (f"a {param.c_type or 'image'} takes a shape {want} with C = {' or '.join(map(str, channels))}, "
                f"e.g. {'x'.join(['8'] * dims)}x{channels[-1]}")
    if np.dtype(dtype) not in IMAGE_DTYPES or (channels == (1,) and np.dtype(dtype) != np.float32):
        return "an image's dtype is float32, int32, uint32 or uint8 (a depth image's float32)"
    return None
