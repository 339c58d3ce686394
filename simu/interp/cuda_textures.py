"""CUDA texture and surface objects (shim: simu/include/cuda/__simu_texture.h).

``cudaTextureObject_t`` and ``cudaSurfaceObject_t`` are ``unsigned long long`` parameters.  When
the launch gives an array for one, the machine allocates it as a global buffer, the *backing
buffer*, and the handle's value is the buffer's address (:func:`bind`); the array's shape (layer,
depth, height, width, then an optional axis of components) and the descriptor bits the launch
spec gives (``linear``, ``wrap``, ``norm``...: :func:`simu.launch.images.texture_mode`) are kept
per handle in ``st.textures``.

The fetches themselves are C in the shim: coordinates, addressing and filtering are computed by
the kernel's own code, and every texel is read by an ordinary load of the backing buffer, recorded
in the trace (races with writes through an aliasing pointer or a surface are found as usual).  The
machine only answers the shim's queries:

* ``__simu_tex_extent(h, axes, axis, code)``: the extent of an axis of the array read as ``axes``
  spatial axes (axis -1: bytes of one texel), checking that ``sizeof(T)`` (in ``code``) is the
  texel's size;
* ``__simu_tex_mode(h)``: the descriptor bits;
* ``__simu_tex_texel(h, offset)`` / ``__simu_tex1Dfetch(h, offset, code)``: an address in the buffer;
* ``__simu_surf_trap(...)``: a surface access outside the surface under ``cudaBoundaryModeTrap``,
  recorded as an out-of-bounds memory error (the access does not happen);
* ``__simu_tex_unfilterable(h)``: linear filtering of a non-float texel, unsupported.

Without an array for a texture parameter, a kernel that uses one is unsupported, naming the call
and its source line; so are cubemaps (``texCubemap``, ``surfCubemapread``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simu.errors import SourcePoint, UnsupportedError
from simu.interp.memory import OFFSET_BITS, OFFSET_MASK, POINTER_BIAS
from simu.interp.outcome import MemoryError_
from simu.interp.program import put
from simu.interp.state import MAX_MEMORY_ERRORS
from simu.interp.trace import ACTION_NAMES, READ, WRITE
from simu.launch.images import (
    TEX_ANY_SIZE,
    TEX_LINEAR,
    TEXREF_HANDLE,
    TEXTURE_TYPES,
    texel_code_parts,
    texref_name,
    texture_mode,
)

FETCH = "__simu_tex1Dfetch"
TEXEL, EXTENT, MODE, TRAP, UNFILTERABLE = ("__simu_tex_texel", "__simu_tex_extent", "__simu_tex_mode",
                                           "__simu_surf_trap", "__simu_tex_unfilterable")
USES = (FETCH, TEXEL, EXTENT, MODE, TRAP, UNFILTERABLE)  # a kernel calling one needs its textures backed
UNMODELLED = ("texCubemap", "surfCubemap", "texref_normalized_float")
_SHIM = str(Path(__file__).resolve().parents[1] / "include")  # simu's shim headers
MAX_TRAPS = 4  # memory errors recorded per trap executed by a group, as the machine's own faults


@dataclass(frozen=True)
class Texture:
    """The backing array of a texture or surface handle."""

    name: str
    base: int
    shape: tuple[int, ...]
    dtype: np.dtype
    mode: int


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


def first_use(program):
    """The first call of a texture built-in in a compiled kernel (an IR instruction), or None (once per program:
    every launch of a kernel with a scalar texture parameter asks)."""
    if "texture_first_use" not in program.memo:
        calls = [ins for ins in program.instrs.values() if ins.opcode == "call" and ins.attrs.get("callee") in USES]
        program.memo["texture_first_use"] = min(calls, key=lambda ins: ins.id) if calls else None
    return program.memo["texture_first_use"]


def _owners(program, kernel) -> dict[str, str]:
    """Handle register -> the parameter or texture reference it is, where the IR says."""
    owners = {reg: p.name for (reg, _), p in zip(kernel.function.args, kernel.params, strict=False)} \
        if kernel is not None else {}
    for ins in program.instrs.values():
        if ins.opcode == "call" and (ins.attrs.get("callee") or "").startswith(TEXREF_HANDLE) and ins.name:
            owners[ins.name] = texref_name(getattr(ins.ops[0].value, "name", "")) if ins.ops else ""
    return owners


def _calls_on(program, callee: str, name: str, owners: dict[str, str]):
    """The calls of ``callee`` whose handle is ``name``'s, or not known to be another's."""
    for ins in sorted(program.instrs.values(), key=lambda i: i.id):
        if ins.opcode == "call" and ins.attrs.get("callee") == callee and ins.ops:
            h = ins.ops[0]
            if h.kind != "reg" or owners.get(h.value, name) == name:
                yield ins


def _const(op) -> int | None:
    return int(op.value) if op.kind == "const" and isinstance(op.value, (int, np.integer)) else None


def validate(program, tex: Texture, kernel=None) -> None:
    """Check the kernel's fetches through ``tex`` against its backing array before the run, so that
    a mismatch is the kernel's ``unsupported`` status naming the fetch (the same checks run again
    during the run for handles the IR does not trace to a parameter)."""
    owners = _owners(program, kernel)
    for ins in _calls_on(program, EXTENT, tex.name, owners):
        axes, code = (_const(ins.ops[k]) if len(ins.ops) > k else None for k in (1, 3))
        if axes is not None and code is not None:
            geometry(tex, axes, code, ins)
    if tex.mode & TEX_LINEAR:
        for ins in _calls_on(program, UNFILTERABLE, tex.name, owners):
            _unfilterable_error([tex.name], ins)


def _register(st, program, kernel, name: str, arr: np.ndarray, base: int) -> None:
    spec = (getattr(st.launch, "buffer_specs", None) or {}).get(name) or {}
    try:
        mode = texture_mode(spec.get("texture", ""))
    except ValueError as exc:
        raise UnsupportedError(f"texture '{name}': {exc}") from None
    if not hasattr(st, "textures"):
        st.textures = {}
    st.textures[base] = tex = Texture(name, base, tuple(int(d) for d in arr.shape), arr.dtype, mode)
    validate(program, tex, kernel)


def bind_references(st, program, kernel, global_address, allocate) -> None:
    """Back the legacy texture references (``texture<T, dim, mode>`` globals) the kernel reads with
    the launch's arrays of their names: the reference's 64-bit handle (the global's value, which
    llvm.nvvm.texsurf.handle.internal reads) becomes the backing buffer's address."""
    for ins, symbol in _reference_reads(program):
        name = texref_name(symbol)
        value = st.launch.args.get(name)
        if not isinstance(value, np.ndarray) or value.ndim == 0:
            raise UnsupportedError(f"texture reference '{name}': the launch gives no backing buffer for it "
                                   f"(--buffer {name}=float32:N)", where(ins))
        arr = np.ascontiguousarray(value)
        base = int(allocate(name, arr))
        _register(st, program, kernel, name, arr, base)
        addr = int(global_address(symbol))
        alloc = st.mem.allocs[addr >> OFFSET_BITS]
        alloc.data[:8] = np.frombuffer(np.int64(base).tobytes(), np.uint8)


def _reference_reads(program) -> list:
    """(first instruction reading it, symbol) per texture reference the program reads, once per program."""
    reads = program.memo.get("texture_references")
    if reads is None:
        reads, seen = [], set()
        for ins in sorted(program.instrs.values(), key=lambda i: i.id):
            if ins.opcode != "call" or not (ins.attrs.get("callee") or "").startswith(TEXREF_HANDLE) or not ins.ops:
                continue
            symbol = getattr(ins.ops[0].value, "name", None)
            if symbol is not None and symbol not in seen:
                seen.add(symbol)
                reads.append((ins, symbol))
        program.memo["texture_references"] = reads
    return reads


def _texref_handle(ins, name, args, dst, proto):
    """``llvm.nvvm.texsurf.handle.internal(@ref)``: the handle stored in the reference's global."""
    ref = args[0]

    def handle(st, lanes, sel):
        addr = int(np.asarray(ref(st, sel)).flat[0])
        alloc = st.mem.allocs[addr >> OFFSET_BITS]
        off = (addr & OFFSET_MASK) - POINTER_BIAS
        return np.full(len(lanes), int(alloc.data[off:off + 8].view(np.int64)[0]), np.int64)
    return put(dst, proto, handle)


def bind(st, program, param, value, allocate, kernel=None) -> np.ndarray | None:
    """The handle values of texture/surface parameter ``param`` for every lane: the address of the
    backing buffer that ``allocate(array)`` makes of an array ``value``.  None when ``value`` is a
    scalar and the kernel uses no texture built-in (the handle is then an ordinary integer).  A
    scalar handle of a kernel that fetches is unsupported."""
    if isinstance(value, np.ndarray) and value.ndim > 0:
        arr = np.ascontiguousarray(value)
        base = int(allocate(arr))
        _register(st, program, kernel, param.name, arr, base)
        return np.full(st.T, base, np.int64)
    use = first_use(program)
    if use is None:
        return None
    what = "texture fetch tex1Dfetch" if use.attrs.get("callee") == FETCH else "texture/surface access"
    raise UnsupportedError(f"{what} through parameter '{param.name}' ({param.c_type}): "
                           "the launch gives no backing buffer for the texture", where(use))


# --- the shim's queries ----------------------------------------------------------------------------

def _lanes(v, n: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(v).astype(np.int64), (n,))


def _uniform(v, ins) -> int:
    u = np.unique(np.asarray(v))
    if len(u) != 1:
        raise UnsupportedError(f"{ins.attrs.get('callee')} with arguments that differ between threads", where(ins))
    return int(u[0])


def _textures(st, handles: np.ndarray, ins):
    """(texture, lane mask or None) for each distinct handle of the executing lanes."""
    known = getattr(st, "textures", {})
    h0 = int(handles[0]) if len(handles) else 0
    groups = [(h0, None)] if (handles == h0).all() else [(int(h), handles == h) for h in np.unique(handles)]
    for h, m in groups:
        tex = known.get(h)
        if tex is None:
            raise UnsupportedError("texture fetch through a handle that is no texture parameter with a backing "
                                   "buffer (a handle made in the kernel, or a texture the launch did not back)",
                                   where(ins))
        yield tex, m


def geometry(tex: Texture, axes: int, code: int, ins) -> tuple[tuple[int, ...], int]:
    """(spatial extents outermost first, bytes of one texel) of ``tex`` read with ``axes`` axes."""
    shape = tex.shape
    if len(shape) == axes:
        spatial, texel = shape, tex.dtype.itemsize
    elif len(shape) == axes + 1:
        spatial, texel = shape[:-1], tex.dtype.itemsize * shape[-1]
    else:
        want = {1: "W", 2: "HxW", 3: "DxHxW"}.get(axes, "?")
        raise UnsupportedError(f"texture '{tex.name}' is read with {axes} axes but its backing array has shape "
                               f"{'x'.join(map(str, shape))}: give it as --buffer {tex.name}={tex.dtype}:{want}"
                               "[xC]", where(ins))
    size, kind, count = texel_code_parts(code)
    if not code & TEX_ANY_SIZE and size * count != texel:
        raise UnsupportedError(f"texture '{tex.name}' is fetched as {size * count}-byte texels but its backing "
                               f"array ({'x'.join(map(str, shape))} {tex.dtype}) has {texel}-byte texels: give "
                               f"the array a last axis of components (e.g. {tex.dtype}:...x{count}) or the "
                               "fetch's element type", where(ins))
    return spatial, texel


def _extent(ins, name, args, dst, proto):
    h_g, axes_g, axis_g, code_g = args[:4]

    def extent(st, lanes, sel):
        n = len(lanes)
        axes, axis, code = (_uniform(g(st, sel), ins) for g in (axes_g, axis_g, code_g))
        out = np.zeros(n, np.int32)
        for tex, m in _textures(st, _lanes(h_g(st, sel), n), ins):
            spatial, texel = geometry(tex, axes, code, ins)
            v = texel if axis < 0 else spatial[len(spatial) - 1 - axis] if axis < len(spatial) else 1
            if m is None:
                out[:] = v
            else:
                out[m] = v
        return out
    return put(dst, proto, extent)


def _mode(ins, name, args, dst, proto):
    h_g = args[0]

    def mode(st, lanes, sel):
        out = np.zeros(len(lanes), np.int32)
        for tex, m in _textures(st, _lanes(h_g(st, sel), len(lanes)), ins):
            out[slice(None) if m is None else m] = tex.mode
        return out
    return put(dst, proto, mode)


def _address(ins, name, args, dst, proto):
    """tex1Dfetch / a texel: the address ``handle + byte offset`` in the backing buffer (the shim loads it)."""
    handle, offset = args[:2]
    return put(dst, proto, lambda st, lanes, sel: (np.asarray(handle(st, sel)).astype(np.int64)
                                                   + np.asarray(offset(st, sel)).astype(np.int64)))


def _trap(ins, name, args, dst, proto):
    """An out-of-bounds surface access under cudaBoundaryModeTrap: a memory error per lane (up to
    MAX_TRAPS per group), with the coordinates and the surface's extent."""
    h_g, axes_g, x_g, y_g, z_g, size_g, write_g = args[:7]
    iid = ins.id

    def trap(st, lanes, sel):
        n = len(lanes)
        axes, size, write = (_uniform(g(st, sel), ins) for g in (axes_g, size_g, write_g))
        x, y, z = (_lanes(g(st, sel), n) for g in (x_g, y_g, z_g))
        action = ACTION_NAMES[WRITE if write else READ]
        for tex, m in _textures(st, _lanes(h_g(st, sel), n), ins):
            spatial, texel = geometry(tex, axes, size | TEX_ANY_SIZE, ins)
            ext = list(spatial[::-1]) + [1, 1]
            row = ext[0] * texel
            alloc = st.mem.allocs[tex.base >> OFFSET_BITS]
            idx = np.arange(n) if m is None else np.flatnonzero(m)
            coords = "x, y, z"[:3 * axes - 2]
            units = zip(ext[1:axes], ("rows", "slices"), strict=False)
            extent = f"{row} bytes" + "".join(f" x {e} {unit}" for e, unit in units)
            for k in idx[:MAX_TRAPS]:
                if len(st.memory_errors) >= MAX_MEMORY_ERRORS:
                    return
                where_ = ", ".join(str(int(c[k])) for c in (x, y, z)[:axes])
                off = (int(z[k]) * ext[1] + int(y[k])) * row + int(x[k])
                st.memory_errors.append(MemoryError_(
                    "out-of-bounds", iid, int(lanes[k]), tex.base + off, size, tex.name, "global", off,
                    alloc.instance_size, action,
                    f"surface access at ({coords}) = ({where_}) outside the surface of {extent}, "
                    "cudaBoundaryModeTrap"))
    return trap


def _unfilterable(ins, name, args, dst, proto):
    h_g = args[0]

    def unfilterable(st, lanes, sel):
        _unfilterable_error(sorted({tex.name for tex, _ in _textures(st, _lanes(h_g(st, sel), len(lanes)), ins)}),
                            ins)
    return unfilterable


def _unfilterable_error(names: list[str], ins):
    raise UnsupportedError(f"linear filtering of texture '{', '.join(names)}' whose fetch type is not float: CUDA "
                           "filters only float results (cudaReadModeNormalizedFloat is not modelled)", where(ins))


def _unmodelled(ins, name, args, dst, proto):
    what = name[len("__simu_"):]
    if what == "texref_normalized_float":
        raise UnsupportedError("a fetch through a texture reference declared with cudaReadModeNormalizedFloat is not "
                               "modelled (integer texels read as normalised floats)", where(ins))
    raise UnsupportedError(f"{what} (cubemap textures and surfaces) is not modelled", where(ins))


TRANSLATORS = [([FETCH, TEXEL], _address), ([TEXREF_HANDLE + ".internal.p1", TEXREF_HANDLE + ".internal.p0"],
                                            _texref_handle), ([EXTENT], _extent), ([MODE], _mode), ([TRAP], _trap),
               ([UNFILTERABLE], _unfilterable), (["__simu_" + n for n in UNMODELLED], _unmodelled)]
