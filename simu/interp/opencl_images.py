"""OpenCL C images and samplers (s6.12.14): image1d_t / image2d_t / image3d_t parameters,
read_imagef/i/ui and write_imagef/i/ui with integer coordinates, get_image_width/height/depth/dim,
get_image_channel_data_type/order.  Registered in opencl_builtins.OPENCL_BUILTINS; samplers made
from constants (``__translate_sampler_initializer``) in SAMPLER_INIT.

**Backing memory.**  An image parameter (``target("spirv.Image", ...)`` in the IR) is given a
numpy array by the launch: shape ``(width, channels)`` for 1-D, ``(height, width, channels)`` for
2-D, ``(depth, height, width, channels)`` for 3-D images, ``channels`` 1 (CL_R) or 4 (CL_RGBA);
dtype float32 (CL_FLOAT), int32 (CL_SIGNED_INT32), uint32 (CL_UNSIGNED_INT32) or uint8
(CL_UNORM_INT8, read as float / 255).  :func:`bind` allocates it as a global buffer (its final
contents come back like any buffer's) and the handle is the buffer's address; the image's shape
is kept by the machine state (``st.images``: handle -> :class:`Image`).

**Accesses.**  A read or write of pixel (x, y, z) is a load or store of that pixel's bytes in the
backing buffer, recorded in the trace, so a read racing with another work-item's write of the
same pixel (a read_write image, or two images bound to one buffer) is found as on any buffer.

**Samplers.**  A sampler is an integer of CLK_* bits (a ``sampler_t`` parameter gets its value from
the launch).  Modelled: unnormalised coordinates, CLK_FILTER_NEAREST, CLK_ADDRESS_CLAMP_TO_EDGE
(coordinates clamped into the image), CLK_ADDRESS_CLAMP (outside: the border colour, (0,0,0,0)
for CL_RGBA and (0,0,0,1) for CL_R; nothing is read) and CLK_ADDRESS_NONE (undefined outside the
image: simu clamps to the edge).  A read without a sampler takes integer coordinates inside the
image (as CLK_ADDRESS_NONE).  Unsupported (UnsupportedError naming the call): float coordinates,
normalised coordinates, linear filtering, repeat addressing, image arrays, buffers and depth images,
other channel formats.  Writes outside the image are ignored (the specification: undefined).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simu.errors import UnsupportedError
from simu.interp.program import put, where
from simu.ir.types import TargetExtType

NORMALIZED, ADDRESS_MASK, CLAMP_TO_EDGE, CLAMP, FILTER_LINEAR = 0x01, 0x0E, 0x02, 0x04, 0x20
ORDERS = {1: 0x10B0, 4: 0x10B5}  # CL_R, CL_RGBA
TYPES = {np.dtype(np.float32): 0x10DE, np.dtype(np.int32): 0x10D9, np.dtype(np.uint32): 0x10DC,
         np.dtype(np.uint8): 0x10D2}
_RESULT = {"f": np.float32, "i": np.int32, "ui": np.uint32}


@dataclass(frozen=True)
class Image:
    """The shape and format of an image bound to a backing buffer at address ``base``."""

    base: int
    dims: int
    width: int
    height: int
    depth: int
    channels: int
    dtype: np.dtype


def is_image(param) -> bool:
    return isinstance(param.type, TargetExtType) and param.type.name == "spirv.Image"


def image_dims(param) -> int:
    """1, 2 or 3 from the type's dimensionality parameter (0 = 1D, 1 = 2D, 2 = 3D; 5 = buffer)."""
    dim = int(param.type.params[1]) if len(param.type.params) > 1 else -1
    return {0: 1, 1: 2, 2: 3}.get(dim, 0)


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
    dims = image_dims(param)
    arr = np.ascontiguousarray(value)
    if dims == 0:
        raise UnsupportedError(f"image parameter '{param.name}' of type {param.type} (arrays, buffers)")
    if arr.ndim != dims + 1 or arr.shape[-1] not in ORDERS or arr.dtype not in TYPES:
        raise UnsupportedError(f"image parameter '{param.name}': an array of shape {arr.shape} and dtype {arr.dtype}"
                               f" (a {dims}-D image needs {dims + 1} axes, the last 1 or 4 channels, dtype float32,"
                               " int32, uint32 or uint8)")
    base = allocate(arr)
    extent = arr.shape[:-1][::-1] + (1,) * (3 - dims)  # width, height, depth
    if not hasattr(st, "images"):
        st.images = {}
    st.images[int(base)] = Image(int(base), dims, *extent, arr.shape[-1], arr.dtype)
    return np.full(st.T, base, np.int64)


def _image_of(st, handles, ins) -> Image:
    h = np.unique(np.asarray(handles))
    images = getattr(st, "images", {})
    if len(h) != 1 or int(h[0]) not in images:
        raise UnsupportedError(f"image built-in '{ins.attrs.get('callee')}': the launch gives no backing array for "
                               "the image (or the image handle differs between work-items)", where(ins))
    return images[int(h[0])]


def _coords(coord, n: int, ncomp: int) -> list[np.ndarray]:
    """x, y, z per lane from an int / int2 / int4 coordinate (missing ones 0)."""
    c = np.asarray(coord).astype(np.int64)
    c = np.broadcast_to(c, (n, ncomp) if ncomp > 1 else (n,))
    cols = [c] if ncomp == 1 else [c[:, k] for k in range(ncomp)]
    return (cols + [np.zeros(n, np.int64)] * 3)[:3]


def _ncomp(code: str) -> int:
    return int(code[3:] or 1)  # int, int2, int4


def _pixel_addr(img: Image, x, y, z) -> np.ndarray:
    esize = img.dtype.itemsize * img.channels
    return img.base + ((z * img.height + y) * img.width + x) * esize


def _read(ins, base, ptypes, args, dst, proto, dt):
    kind = base[len("read_image"):]
    if kind not in _RESULT or len(ptypes) < 2:
        return None
    sampled = len(ptypes) == 3 and ptypes[1] == "ocl_sampler"
    if not ptypes[-1].startswith("int"):
        raise UnsupportedError(f"{base} with {ptypes[-1]} coordinates: only integer coordinates are modelled",
                               where(ins))
    img_g, coord_g = args[0], args[-1]
    smp_g = args[1] if sampled else None
    iid = ins.id
    rdt = np.dtype(_RESULT[kind])
    ncomp = _ncomp(ptypes[-1])

    def read(st, lanes, sel):
        n = len(lanes)
        img = _image_of(st, img_g(st, sel), ins)
        mode = CLAMP_TO_EDGE
        if smp_g is not None:
            s = np.unique(np.asarray(smp_g(st, sel)).astype(np.int64))
            if len(s) != 1:
                raise UnsupportedError(f"{base} with a sampler that differs between work-items", where(ins))
            bits = int(s[0])
            if bits & NORMALIZED or bits & FILTER_LINEAR or (bits & ADDRESS_MASK) not in (0, CLAMP_TO_EDGE, CLAMP):
                raise UnsupportedError(f"{base} with sampler 0x{bits:02x}: only unnormalised coordinates, nearest "
                                       "filtering and CLAMP_TO_EDGE / CLAMP / NONE addressing are modelled", where(ins))
            mode = CLAMP if bits & ADDRESS_MASK == CLAMP else CLAMP_TO_EDGE
        x, y, z = _coords(coord_g(st, sel), n, ncomp)
        size = (img.width, img.height, img.depth)
        inside = np.ones(n, bool)
        for c, m in zip((x, y, z), size, strict=False):
            inside &= (c >= 0) & (c < m)
        x, y, z = (np.clip(c, 0, m - 1) for c, m in zip((x, y, z), size, strict=False))
        out = np.zeros((n, 4), np.float32 if kind == "f" else rdt)
        if img.channels == 1:
            out[:, 3] = 1
        take = inside if mode == CLAMP else np.ones(n, bool)
        if take.any():
            vals = st.load(lanes[take], _pixel_addr(img, x[take], y[take], z[take]), img.dtype, img.channels, iid)
            vals = np.asarray(vals).reshape(int(take.sum()), img.channels)
            if kind == "f" and img.dtype == np.uint8:
                vals = vals.astype(np.float32) / np.float32(255)
            out[take, :img.channels] = vals.astype(out.dtype) if kind == "f" else vals.view(rdt) \
                if vals.dtype.itemsize == rdt.itemsize else vals.astype(rdt)
        return out.astype(dt) if dt is not None else out
    return put(dst, proto, read)


def _write(ins, base, ptypes, args, dst, proto, dt):
    kind = base[len("write_image"):]
    if kind not in _RESULT or len(ptypes) != 3:
        return None
    if not ptypes[1].startswith("int"):
        return None
    img_g, coord_g, val_g = args
    iid = ins.id
    ncomp = _ncomp(ptypes[1])

    def write(st, lanes, sel):
        n = len(lanes)
        img = _image_of(st, img_g(st, sel), ins)
        x, y, z = _coords(coord_g(st, sel), n, ncomp)
        ok = np.ones(n, bool)
        for c, m in zip((x, y, z), (img.width, img.height, img.depth), strict=False):
            ok &= (c >= 0) & (c < m)
        if not ok.any():
            return
        v = np.broadcast_to(np.asarray(val_g(st, sel)), (n, 4))[ok, :img.channels]
        if img.dtype == np.uint8:
            v = np.clip(np.rint(v.astype(np.float64) * 255), 0, 255)
        v = v.astype(img.dtype) if kind == "f" or img.dtype == np.uint8 or v.dtype.itemsize != img.dtype.itemsize \
            else v.view(img.dtype)
        st.store(lanes[ok], _pixel_addr(img, x[ok], y[ok], z[ok]), v.reshape(int(ok.sum()), img.channels)
                 if img.channels > 1 else v.reshape(-1), img.dtype, img.channels, iid)
    return write


def _query(ins, base, ptypes, args, dst, proto, dt):
    img_g = args[0]
    field = base[len("get_image_"):]
    if field not in ("width", "height", "depth", "channel_data_type", "channel_order", "dim"):
        return None

    def query(st, lanes, sel):
        img = _image_of(st, img_g(st, sel), ins)
        if field == "dim":
            return np.broadcast_to(np.array([img.width, img.height] + ([img.depth, 0] if dt is not None and
                                                                      proto[1] == (4,) else []), dt),
                                   (len(lanes),) + proto[1])
        v = {"width": img.width, "height": img.height, "depth": img.depth,
             "channel_data_type": TYPES[img.dtype], "channel_order": ORDERS[img.channels]}[field]
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
      "get_image_channel_order"], _query),
]
# unmangled callee -> translator (ins, name, args, dst, proto), looked up by the compiler
SAMPLER_INIT = {"__translate_sampler_initializer": _sampler_init}
