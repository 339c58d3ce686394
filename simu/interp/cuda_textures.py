"""CUDA texture objects (shim: simu/include/cuda/__simu_texture.h).

``cudaTextureObject_t`` is an ``unsigned long long`` parameter.  When the launch gives an array
for it, the machine allocates it as a read-only global buffer, the *backing buffer*, and the
handle's value is the buffer's address (:func:`bind`).  ``tex1Dfetch<T>(tex, i)`` is then
``*(const T *)__simu_tex1Dfetch(tex, i * sizeof(T))``: a plain global read of element ``i``,
recorded in the trace (races with writes through an aliasing pointer are found as usual; an index
past the buffer is a memory error, where a GPU would return 0 or clamp).

Without an array for a texture parameter, a kernel that fetches through one is unsupported,
naming the fetch and its source line.  Fetches with float coordinates (``tex1D``, ``tex2D``,
``tex3D``, the Lod/Layered/gather forms) and surface reads/writes are unsupported: they need the
texture's extent, addressing and filter modes, which the launch does not describe.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simu.errors import SourcePoint, UnsupportedError
from simu.interp.program import put

TEXTURE_TYPES = ("cudaTextureObject_t", "const cudaTextureObject_t")
FETCH = "__simu_tex1Dfetch"
_SHIM = str(Path(__file__).resolve().parents[1] / "include")  # simu's shim headers
UNMODELLED = ("tex1D", "tex2D", "tex3D", "tex1DLod", "tex2DLod", "tex1DLayered", "tex2DLayered", "tex2Dgather",
              "surf1Dread", "surf2Dread", "surf1Dwrite", "surf2Dwrite")


def where(ins) -> SourcePoint | None:
    """The user's source position of a call made inside the shim (the innermost caller outside
    simu/include), so that the error names the line with tex2D / tex1Dfetch."""
    loc = ins.loc if ins is not None else None
    first = loc
    while loc is not None and str(Path(loc.file).resolve()).startswith(_SHIM):
        loc = loc.inlined_at
    loc = loc or first
    return SourcePoint(loc.file, loc.line, loc.col) if loc is not None else None


def is_texture(param) -> bool:
    return (param.c_type or "").strip() in TEXTURE_TYPES


def _fetch(ins, name, args, dst, proto):
    """tex1Dfetch: the address ``handle + byte offset`` in the backing buffer (the shim loads it)."""
    handle, offset = args[:2]
    return put(dst, proto, lambda st, lanes, sel: (np.asarray(handle(st, sel)).astype(np.int64)
                                                   + np.asarray(offset(st, sel)).astype(np.int64)))


def _unmodelled(ins, name, args, dst, proto):
    what = name[len("__simu_"):]
    raise UnsupportedError(f"texture/surface fetch {what}<T>(...): only tex1Dfetch is modelled ({what} needs the "
                           "texture's extent, addressing and filter modes)", where(ins))


TRANSLATORS = [([FETCH], _fetch), (["__simu_" + n for n in UNMODELLED], _unmodelled)]


def first_fetch(program):
    """The first tex1Dfetch of a compiled kernel (an IR instruction), or None."""
    calls = [ins for ins in program.instrs.values() if ins.opcode == "call" and ins.attrs.get("callee") == FETCH]
    return min(calls, key=lambda ins: ins.id) if calls else None


def bind(st, program, param, value, allocate) -> np.ndarray | None:
    """The handle values of texture parameter ``param`` for every lane: the address of the backing
    buffer that ``allocate(array)`` makes of an array ``value``.  None when ``value`` is a scalar
    and the kernel never fetches (the handle is then an ordinary integer).  A scalar handle of a
    kernel that fetches is unsupported."""
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return np.full(st.T, allocate(np.ascontiguousarray(value)), np.int64)
    fetch = first_fetch(program)
    if fetch is None:
        return None
    raise UnsupportedError(f"texture fetch tex1Dfetch through parameter '{param.name}' (cudaTextureObject_t): "
                           "the launch gives no backing buffer for the texture", where(fetch))
