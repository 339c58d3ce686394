"""OpenCL C images and samplers (s6.12.14): image1d/2d/3d_t, image1d/2d_array_t, image1d_buffer_t,
image2d_depth_t and image2d_array_depth_t parameters; read_imagef/i/ui with integer or float
coordinates, with or without a sampler; write_imagef/i/ui; get_image_width/height/depth/dim/array_size
and get_image_channel_data_type/order.  Registered in opencl_builtins.OPENCL_BUILTINS; samplers made from
constants (a ``sampler_t`` constant at program or function scope becomes
``__translate_sampler_initializer(bits)``) in SAMPLER_INIT.

**Backing memory.**  An image parameter (``target("spirv.Image", ...)`` in the IR) is given a numpy
array by the launch: ``(width, C)`` for 1-D images and image buffers, ``(height, width, C)`` for 2-D,
``(depth, height, width, C)`` for 3-D images, a leading layer axis for arrays (``(layers, width, C)``,
``(layers, height, width, C)``); ``C`` 1 (CL_R; CL_DEPTH for depth images) or 4 (CL_RGBA); dtype
float32 (CL_FLOAT), int32 (CL_SIGNED_INT32), uint32 (CL_UNSIGNED_INT32) or uint8 (CL_UNORM_INT8,
read as ``x * (1.0f / 255)``, written as ``convert_uchar_sat_rte(v * 255.0f)``, PoCL's arithmetic).
:func:`bind` allocates it as a global buffer (its final contents come back like any buffer's) and the
handle is the buffer's address; the image's shape is kept by the machine state (``st.images``).

**Accesses.**  A read or write of pixel (x, y, z, layer) is a load or store of that pixel's bytes in
the backing buffer, recorded in the trace; a linear-filtered read loads each texel it blends (2, 4 or
8), so a read racing with another work-item's write of a neighbouring pixel is found as on any buffer.

**Samplers.**  A sampler is an integer of CLK_* bits (a ``sampler_t`` parameter gets its value from
the launch).  Float coordinates: normalised or not, CLK_ADDRESS_CLAMP_TO_EDGE / CLAMP / NONE / REPEAT
/ MIRRORED_REPEAT, CLK_FILTER_NEAREST / LINEAR (:mod:`simu.interp.image_sampling`).  Integer
coordinates: unnormalised, CLAMP_TO_EDGE / CLAMP / NONE (the filter is ignored); the other samplers
are undefined with integer coordinates and the read is unsupported.  Outside the image under CLAMP
the border colour is read ((0,0,0,0), (0,0,0,1) for CL_R), nothing is loaded; NONE is undefined
outside and clamped to the edge.  An array's layer is ``clamp(layer, 0, layers - 1)``,
``clamp(rint(layer), 0, layers - 1)`` for float coordinates (never normalised).  A read without a
sampler takes integer coordinates (as CLK_ADDRESS_NONE).  Writes outside the image are ignored
(undefined).  Unsupported (UnsupportedError naming the call): multisample images, half reads and writes
(``read_imageh``),
other channel formats, a sampler or image that differs between work-items.

Where PoCL 3.0 departs from the specification simu follows the specification (the differential
cases stay off these inputs): PoCL scales an array's layer coordinate by the layer count under a
normalised sampler and rounds it with ``floor(w + 0.5)`` (simu: ``rint(w)``, never normalised), and
its border colour for CL_R images under CLAMP is (0,0,0,0) (simu: (0,0,0,1)).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simu.errors import UnsupportedError
from simu.interp.image_sampling import (
    ADDRESS_MASK,
    CLAMP,
    CLAMP_TO_EDGE,
    FILTER_LINEAR,
    NORMALIZED,
    Tap,
    blend,
    layer_index,
    taps,
)
from simu.interp.program import put, where
from simu.ir.types import TargetExtType

ORDERS = {1: 0x10B0, 4: 0x10B5}  # CL_R, CL_RGBA
CL_DEPTH = 0x10BD
TYPES = {np.dtype(np.float32): 0x10DE, np.dtype(np.int32): 0x10D9, np.dtype(np.uint32): 0x10DC,
         np.dtype(np.uint8): 0x10D2}
_RESULT = {"f": np.float32, "i": np.int32, "ui": np.uint32}
_UNORM8 = np.float32(1.0) / np.float32(255)  # PoCL reads unorm8 as x * (1.0f / 255)
_SAMPLERLESS = CLAMP_TO_EDGE  # CLK_ADDRESS_NONE: undefined outside, clamped


@dataclass(frozen=True)
class Image:
    """The shape and format of an image bound to a backing buffer at address ``base``."""

    base: int
    dims: int  # spatial dimensions: 1, 2 or 3
    width: int
    height: int
    depth: int
    channels: int
    dtype: np.dtype
    layers: int = 0  # image arrays: the number of layers; 0 otherwise
    is_depth: bool = False

    @property
    def size(self) -> tuple[int, ...]:
        return (self.width, self.height, self.depth)[:self.dims]


def is_image(param) -> bool:
    return isinstance(param.type, TargetExtType) and param.type.name == "spirv.Image"


def image_dims(param) -> int:
    """The spatial dimensions (1, 2 or 3) of an image parameter; 0 when simu does not model its type."""
    layout = param.type.image_layout if isinstance(param.type, TargetExtType) else None
    return layout[0] if layout else 0


def first_image_call(program):
    """The first call of an image built-in in a compiled kernel (an IR instruction), or None."""
    calls = [ins for ins in program.instrs.values() if ins.opcode == "call"
             and re.match(r"_Z\d+(?:read_image|write_image|get_image_)", ins.attrs.get("callee") or "")]
    return min(calls, key=lambda ins: ins.id) if calls else None


def bind(st, program, param, value, allocate) -> np.ndarray | None:
    """The handle of image parameter ``param`` for every lane: the address of the backing buffer
    ``allocate(array)`` makes of ``value``.  None when ``value`` is no array and the kernel uses no
    image built-in (the handle is then an ordinary integer); unsupported when it uses one."""
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        first = first_image_call(program)
        if first is None:
            return None
        raise UnsupportedError(f"image parameter '{param.name}' ({param.c_type or param.type}): the launch gives no "
                               "backing array for the image", where(first))
    layout = param.type.image_layout
    multisampled = len(param.type.params) > 4 and param.type.params[4].strip() == "1"
    if layout is None or multisampled:
        raise UnsupportedError(f"image parameter '{param.name}' of type {param.c_type or param.type} "
                               "(multisample images are not modelled)",
                               where(first_image_call(program)))
    dims, arrayed, depth = layout
    arr = np.ascontiguousarray(value)
    axes = dims + arrayed
    if arr.ndim != axes + 1 or arr.shape[-1] not in ORDERS or arr.dtype not in TYPES or \
            (depth and (arr.shape[-1] != 1 or arr.dtype != np.float32)):
        raise UnsupportedError(f"image parameter '{param.name}': an array of shape {arr.shape} and dtype {arr.dtype}"
                               f" (a {param.c_type or 'image'} needs {axes + 1} axes, the last 1 or 4 channels, dtype "
                               "float32, int32, uint32 or uint8; a depth image 1 channel of float32)")
    base = allocate(arr)
    spatial = arr.shape[arrayed:-1][::-1]  # width, height, depth
    extent = tuple(spatial) + (1,) * (3 - dims)
    if not hasattr(st, "images"):
        st.images = {}
    st.images[int(base)] = Image(int(base), dims, *extent, arr.shape[-1], arr.dtype,
                                 int(arr.shape[0]) if arrayed else 0, depth)
    return np.full(st.T, base, np.int64)


def _image_of(st, handles, ins) -> Image:
    h = np.unique(np.asarray(handles))
    images = getattr(st, "images", {})
    if len(h) != 1 or int(h[0]) not in images:
        raise UnsupportedError(f"image built-in '{ins.attrs.get('callee')}': the launch gives no backing array for "
                               "the image (or the image handle differs between work-items)", where(ins))
    return images[int(h[0])]


def _columns(coord, n: int, ncomp: int, dtype) -> np.ndarray:
    """The coordinate of every lane as an (n, ncomp) array."""
    c = np.asarray(coord).astype(dtype)
    return np.broadcast_to(c, (n, ncomp) if ncomp > 1 else (n,)).reshape(n, ncomp)


def _ncomp(code: str) -> int:
    return int(code.lstrip("intfloa") or 1)  # int, int2, int4, float, float2, float4


def _pixel_addr(img: Image, coords: list[np.ndarray], layer: np.ndarray | None) -> np.ndarray:
    x, y, z = (list(coords) + [0, 0])[:3]
    slab = 0 if layer is None else layer * img.depth
    esize = img.dtype.itemsize * img.channels
    return img.base + (((slab + z) * img.height + y) * img.width + x) * esize


def _layer(img: Image, col: np.ndarray, floats: bool) -> np.ndarray | None:
    if not img.layers:
        return None
    if floats:
        return layer_index(col, img.layers)
    return np.clip(col.astype(np.int64), 0, img.layers - 1)


def _int_tap(ins, base, img: Image, coord: np.ndarray, bits: int) -> Tap:
    """The pixel a read with integer coordinates takes (an unnormalised, non-repeating sampler)."""
    mode = bits & ADDRESS_MASK
    if bits & NORMALIZED or mode not in (0, CLAMP_TO_EDGE, CLAMP):
        raise UnsupportedError(f"{base} with integer coordinates and sampler 0x{bits:02x}: only unnormalised "
                               "coordinates with CLAMP_TO_EDGE / CLAMP / NONE addressing are defined", where(ins))
    cols = [coord[:, k].astype(np.int64) for k in range(img.dims)]
    inside = np.ones(len(coord), bool)
    for c, m in zip(cols, img.size, strict=True):
        inside &= (c >= 0) & (c < m)
    clamped = [np.clip(c, 0, m - 1) for c, m in zip(cols, img.size, strict=True)]
    return Tap(None, clamped, inside if mode == CLAMP else np.ones(len(coord), bool))


def _as_float(img: Image, vals: np.ndarray) -> np.ndarray:
    if img.dtype == np.uint8:
        return (vals.astype(np.float32) * _UNORM8).astype(np.float32)
    return vals.astype(np.float32)


def _texel(img: Image, vals: np.ndarray, out_dtype: np.dtype, kind: str) -> np.ndarray:
    """Texels read from the image as the read's result type."""
    if kind == "f":
        return _as_float(img, vals)
    if vals.dtype.itemsize == out_dtype.itemsize:
        return vals.view(out_dtype)  # read_image{i,ui} of a 32-bit image: its bits
    return vals.astype(out_dtype)


def _sampler_bits(ins, base, smp_g, st, sel) -> int:
    s = np.unique(np.asarray(smp_g(st, sel)).astype(np.int64))
    if len(s) != 1:
        raise UnsupportedError(f"{base} with a sampler that differs between work-items", where(ins))
    return int(s[0])


def _read(ins, base, ptypes, args, dst, proto, dt):
    kind = base[len("read_image"):]
    if kind not in _RESULT or len(ptypes) < 2:
        return None
    sampled = len(ptypes) == 3 and ptypes[1] == "ocl_sampler"
    ctype = ptypes[-1]
    floats = ctype.startswith("float")
    if not floats and not ctype.startswith("int"):
        raise UnsupportedError(f"{base} with {ctype} coordinates", where(ins))
    if floats and not sampled:
        return None
    img_g, coord_g = args[0], args[-1]
    smp_g = args[1] if sampled else None
    iid = ins.id
    rdt = np.dtype(_RESULT[kind])
    ncomp = _ncomp(ctype)

    def read(st, lanes, sel):
        n = len(lanes)
        img = _image_of(st, img_g(st, sel), ins)
        bits = _sampler_bits(ins, base, smp_g, st, sel) if smp_g is not None else _SAMPLERLESS
        coord = _columns(coord_g(st, sel), n, ncomp, np.float32 if floats else np.int64)
        layer = _layer(img, coord[:, img.dims], floats) if img.layers and ncomp > img.dims else \
            (np.zeros(n, np.int64) if img.layers else None)
        tap_list = taps(coord, img.size, bits) if floats else [_int_tap(ins, base, img, coord, bits)]
        border = np.zeros(4, np.float32 if kind == "f" else rdt)
        if img.channels == 1 and not img.is_depth:
            border[3] = 1
        linear = floats and bool(bits & FILTER_LINEAR)
        fetched = []
        for tap in tap_list:
            vals = np.empty((n, 4), np.float32 if linear else border.dtype)
            vals[:] = border
            take = tap.inside
            if take.any():
                got = st.load(lanes[take], _pixel_addr(img, [c[take] for c in tap.coords],
                                                       None if layer is None else layer[take]),
                              img.dtype, img.channels, iid)
                got = np.asarray(got).reshape(int(take.sum()), img.channels)
                vals[take, :img.channels] = _as_float(img, got) if linear else _texel(img, got, vals.dtype, kind)
            fetched.append((tap, vals))
        if linear:
            nonzero_border = bool(border.any())
            out = blend([(t.weight, v, t.inside | nonzero_border) for t, v in fetched], n)
            if kind != "f":
                out = out.astype(rdt)  # PoCL: convert_{u}int4 of the float sum (undefined in OpenCL)
        else:
            out = fetched[0][1]
        if img.is_depth and proto is not None and not proto[1]:
            out = out[:, 0]
        return out.astype(dt) if dt is not None else out
    return put(dst, proto, read)


def _write(ins, base, ptypes, args, dst, proto, dt):
    kind = base[len("write_image"):]
    if kind not in _RESULT or len(ptypes) != 3 or not ptypes[1].startswith("int"):
        return None
    img_g, coord_g, val_g = args
    iid = ins.id
    ncomp = _ncomp(ptypes[1])

    def write(st, lanes, sel):
        n = len(lanes)
        img = _image_of(st, img_g(st, sel), ins)
        coord = _columns(coord_g(st, sel), n, ncomp, np.int64)
        cols = [coord[:, k] for k in range(img.dims)]
        ok = np.ones(n, bool)
        for c, m in zip(cols, img.size, strict=True):
            ok &= (c >= 0) & (c < m)
        layer = None
        if img.layers:
            layer = coord[:, img.dims] if ncomp > img.dims else np.zeros(n, np.int64)
            ok &= (layer >= 0) & (layer < img.layers)
        if not ok.any():
            return
        raw = np.asarray(val_g(st, sel))
        v = np.broadcast_to(raw, (n,)).reshape(n, 1) if img.is_depth else np.broadcast_to(raw, (n, 4))
        v = v[ok, :img.channels]
        if img.dtype == np.uint8:
            f = (v.astype(np.float32) * np.float32(255)).astype(np.float32)
            v = np.clip(np.nan_to_num(np.rint(f), nan=0.0), 0, 255)
        v = v.astype(img.dtype) if kind == "f" or img.dtype == np.uint8 or v.dtype.itemsize != img.dtype.itemsize \
            else v.view(img.dtype)
        st.store(lanes[ok], _pixel_addr(img, [c[ok] for c in cols], None if layer is None else layer[ok]),
                 v.reshape(int(ok.sum()), img.channels) if img.channels > 1 else v.reshape(-1),
                 img.dtype, img.channels, iid)
    return write


def _query(ins, base, ptypes, args, dst, proto, dt):
    img_g = args[0]
    field = base[len("get_image_"):]
    if field not in ("width", "height", "depth", "channel_data_type", "channel_order", "dim", "array_size"):
        return None

    def query(st, lanes, sel):
        img = _image_of(st, img_g(st, sel), ins)
        if field == "dim":
            return np.broadcast_to(np.array([img.width, img.height] + ([img.depth, 0] if dt is not None and
                                                                      proto[1] == (4,) else []), dt),
                                   (len(lanes),) + proto[1])
        v = {"width": img.width, "height": img.height, "depth": img.depth, "array_size": img.layers,
             "channel_data_type": TYPES[img.dtype],
             "channel_order": CL_DEPTH if img.is_depth else ORDERS[img.channels]}[field]
        return np.full(len(lanes), v, dt)
    return put(dst, proto, query)


def _sampler_init(ins, name, args, dst, proto):
    """``__translate_sampler_initializer(i32 bits)``: the sampler is its bits."""
    bits = args[0]
    return put(dst, proto, lambda st, lanes, sel: np.broadcast_to(np.asarray(bits(st, sel)).astype(np.int64),
                                                                  (len(lanes),)).copy())


# (base names, translator) pairs for opencl_builtins.OPENCL_BUILTINS
IMAGE_BUILTINS = [
    (["read_imagef", "read_imagei", "read_imageui"], _read),
    (["write_imagef", "write_imagei", "write_imageui"], _write),
    (["get_image_width", "get_image_height", "get_image_depth", "get_image_dim", "get_image_channel_data_type",
      "get_image_channel_order", "get_image_array_size"], _query),
]
# unmangled callee -> translator (ins, name, args, dst, proto), looked up by the compiler
SAMPLER_INIT = {"__translate_sampler_initializer": _sampler_init}
