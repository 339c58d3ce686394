"""Buffers behind the device pointers a parameter's memory holds (issue 29).

A struct passed by value with pointer members (``struct Graph { int nodes; int *nindex, *nlist; }``, ``Graph g``),
a pointer to such structs (``Graph *g``) and an array of device pointers (``float **rows``) hold addresses a
program fills in; the search's bytes there are no address.  Each pointer slot the debug information shows
(:mod:`simu.ir.pointers`) gets a *member buffer* of its own, named as C names it -- ``g.nindex``, ``g[0].nindex``
(an element of ``Graph *g``), ``rows[2]``, ``o.in.p``, ``o.arr[1]`` -- drawn like an invented buffer (the launch's
default length, its fill, element type from the debug information: ``int *`` holds int32), kept in
``Launch.args`` after the parameters, and the machine writes each member's address into its slot
(:mod:`simu.interp.members`) in its own pointer encoding.  The holder's other bytes (the struct's scalar members)
stay the search's: only the slots are overwritten, and the bytes a launch holds there are ignored.

Bounded: at most :data:`MAX_MEMBER_BUFFERS` elements' worth of member buffers per parameter (every pointer member of
one element when it has more); the elements beyond (``rows[8]`` on) do not reuse those buffers, which would make
two threads that use different rows collide on one address (a race no program has), but point into disjoint
regions of one *tail* buffer per pointer member, ``rows[8:]`` or ``g[4:].nindex``: region k is the member length,
shortened so that a tail holds at most :data:`TAIL_ELEMENTS` elements, and beyond as many regions the slots reuse
them in turn.  An access past a tail region's end lands in the next region (no out-of-bounds finding there).

A launch's :attr:`~simu.launch.model.Launch.pointers` says where each slot points: per holder, *runs*
``[offset, count, stride, target, target_offset, target_stride]`` -- for i < count, the 8 bytes at byte
``offset + i * stride`` of the holder hold the address of byte ``target_offset + i * target_stride`` of buffer
``target``.  A run may carry a seventh item, ``[sizes, strides, N, bytes]``, for a tensor accessor passed by value
(PyTorch's packed accessor: the data pointer beside ``sizes_[N]`` and ``strides_[N]``, :mod:`simu.ir.pointers`):
the machine then writes a contiguous shape of the target buffer's elements there (:mod:`simu.interp.members`), so
every launch of the kernel -- the search's, a refutation's refill, a replay -- indexes its tensor inside the buffer.
The launch record carries them in the holder's buffer spec (``"pointers"``), so a replay rebuilds the same launch.
One level only: the member buffers' own pointer members are not followed.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simu.ir.constants import GlobalRef
from simu.ir.module import Param
from simu.ir.types import PtrType
from simu.launch.buffers import draw_buffer, element_type, seal

MAX_MEMBER_BUFFERS = 8  # distinct member buffers per parameter (at least one per pointer member of one element)
TAIL_ELEMENTS = 1 << 20  # elements of one tail buffer (every element past the distinct ones, one pointer member)

Run = list  # [offset, count, stride, target, target_offset, target_stride(, [sizes, strides, N, bytes])]


def holds_pointers(p: Any) -> bool:
    """Whether parameter ``p`` is a buffer whose memory holds device pointers the launch fills in."""
    return bool(getattr(p, "pointers", None)) and p.is_pointer and not p.is_local


def element_of(p: Any) -> tuple[np.dtype, int]:
    """(dtype, components) a launch draws pointer parameter ``p``'s buffer with: :func:`element_type` of its pointee,
    except a struct passed by value that holds pointers, drawn as 4-byte integer words when its size allows (its int
    members -- ``g.nodes``, ``g.edges`` -- then take the fill's values, numbers below the thread count, where bytes
    drawn one by one made every int member some hundred million and a ``v < g.nodes`` loop ran away)."""
    layout = getattr(p, "pointers", None)
    if holds_pointers(p) and layout.by_value and layout.stride % 4 == 0:
        return np.dtype(np.int32), layout.stride // 4
    return element_type(p.pointee, p.pointee_size)


def distinct_elements(p: Any) -> int:
    """How many of the holder's elements get member buffers of their own (the others share the tails)."""
    layout = p.pointers
    return 1 if layout.by_value else max(1, MAX_MEMBER_BUFFERS // len(layout.fields))


def _element(p: Any, k: int | str) -> str:
    return p.name if p.pointers.by_value else f"{p.name}[{k}]"


def _member(p: Any, k: int | str, f: Any) -> str:
    """The member buffer's name: ``g.nindex``, ``rows[2]``; ``*P`` behind a variable that is itself one pointer
    (``__constant__ T *P``), which must not take the name of the variable holding it."""
    if not f.path and p.pointers.by_value:
        return f"*{p.name}"
    return _element(p, k) + f.path


def member_names(p: Any) -> list[str]:
    """Every name a member buffer of holder ``p`` may take (the tails' too)."""
    layout = p.pointers
    e = distinct_elements(p)
    names = [_member(p, k, f) for k in range(e) for f in layout.fields]
    if not layout.by_value:
        names += [_member(p, f"{e}:", f) for f in layout.fields]
    return names


def member_at(p: Any, offset: int) -> str | None:
    """The member buffer whose address the slot at byte ``offset`` of holder ``p`` holds, None for no slot."""
    layout = p.pointers
    k, o = divmod(int(offset), layout.stride)
    if k < 0 or (layout.by_value and k):
        return None
    f = next((f for f in layout.fields if f.offset == o), None)
    if f is None:
        return None
    e = distinct_elements(p)
    return _member(p, k if k < e else f"{e}:", f)


def member_fields(params: list) -> dict[str, Any]:
    """Member buffer name -> the :class:`~simu.ir.pointers.PointerField` it is behind, for every holder."""
    out = {}
    for p in params:
        if holds_pointers(p):
            e = distinct_elements(p)
            for f in p.pointers.fields:
                for k in range(e):
                    out[_member(p, k, f)] = f
                if not p.pointers.by_value:
                    out[_member(p, f"{e}:", f)] = f
    return out


def slot_mask(p: Any, nbytes: int) -> np.ndarray:
    """Per byte of a holder of ``nbytes`` bytes, whether it belongs to a pointer slot."""
    mask = np.zeros(nbytes, bool)
    layout = p.pointers
    elements = 1 if layout.by_value else nbytes // layout.stride
    for f in layout.fields:
        starts = f.offset + layout.stride * np.arange(elements)
        starts = starts[starts + 8 <= nbytes]
        mask[(starts[:, None] + np.arange(8)).reshape(-1)] = True
    return mask


def draw_members(params: list, args: dict[str, Any], specs: dict[str, dict[str, Any]], fill: str,
                 rng: np.random.Generator, length: int, *, seed: int | None = None, threads: int | None = None,
                 length_of: Callable[[str, int], int] | None = None) -> dict[str, list[Run]]:
    """Draw the member buffers of every holder among ``params`` into ``args`` (and their ``specs``), in parameter
    order, with ``fill`` and ``length`` elements each (``length_of(name, element bytes)`` when given), and return
    the launch's :attr:`~simu.launch.model.Launch.pointers`."""
    pointers: dict[str, list[Run]] = {}
    for p in params:
        holder = args.get(p.name)
        symbol = p.index < 0  # a module variable (symbol_holders): its memory is the machine's, one element
        if not holds_pointers(p) or not symbol and (not isinstance(holder, np.ndarray) or not holder.nbytes):
            continue
        layout = p.pointers
        n = 1 if layout.by_value else holder.nbytes // layout.stride
        e = min(distinct_elements(p), n)
        runs: list[Run] = []
        for k in range(e):
            for f in layout.fields:
                name = _member(p, k, f)
                _draw(name, f, 1, args, specs, fill, rng, length, seed, threads, length_of)
                run = [k * layout.stride + f.offset, 1, layout.stride, name, 0, 0]
                if f.shape is not None and layout.by_value:  # a tensor accessor: the machine writes its shape
                    sizes, strides, dims, item = f.shape
                    run.append([sizes, strides, dims, item])
                runs.append(run)
        if n > e:
            for f in layout.fields:
                name = _member(p, f"{e}:", f)
                region, regions = _draw(name, f, n - e, args, specs, fill, rng, length, seed, threads, length_of)
                for first in range(e, n, regions):
                    runs.append([first * layout.stride + f.offset, min(regions, n - first), layout.stride, name, 0,
                                 region])
        pointers[p.name] = runs
    return pointers


def _draw(name: str, f: Any, count: int, args: dict, specs: dict, fill: str, rng: np.random.Generator, length: int,
          seed: int | None, threads: int | None, length_of: Callable[[str, int], int] | None) -> tuple[int, int]:
    """Draw member buffer ``name`` for ``count`` holder elements; (bytes of one element's region, regions)."""
    dt, comps = element_type(f.pointee, f.pointee_size)
    unit = dt.itemsize * comps
    n = max(1, int(length_of(name, unit) if length_of is not None else length))
    regions = 1
    if count > 1:
        n = max(1, min(n, TAIL_ELEMENTS // count))
        regions = min(count, max(1, TAIL_ELEMENTS // n))
    arr, spec = draw_buffer(dt, n * regions * comps, fill, rng, seed=seed, threads=threads)
    args[name], specs[name] = seal(arr, spec), spec
    return n * unit, regions


def members_of(launch: Any) -> list[str]:
    """The member buffers ``launch`` gives, in order."""
    return list(dict.fromkeys(run[3] for runs in launch.pointers.values() for run in runs))


def without_pointers(spec: dict[str, Any]) -> dict[str, Any]:
    """A buffer spec without the holder's ``"pointers"`` (what regenerates the bytes)."""
    return {k: v for k, v in spec.items() if k != "pointers"} if "pointers" in spec else spec


def symbol_holders(module: Any, names: set[str]) -> list[Any]:
    """The module variables among ``names`` (``__constant__``/``__device__``, by IR name) whose memory holds device
    pointers (:attr:`~simu.ir.module.GlobalVar.pointers`), as holders of one element named as C names them: the
    host sets such a variable (``cudaMemcpyToSymbol(P, &p, …)`` with ``p.data`` a ``cudaMalloc``'d buffer), so
    each slot gets a member buffer (``P.data``) where the module's initialiser leaves a null pointer."""
    out = []
    for g in module.globals.values():
        if g.name in names and g.pointers is not None and not g.external and g.addrspace != 3 \
                and not _refers(g.init):  # a table the module initialises with its own addresses stays
            out.append(Param(-1, g.display_name, PtrType(), None, 0, g.size, None, g.pointers))
    return out


def _refers(init: Any) -> bool:
    """Whether a variable's initialiser holds the address of another (a pointer table the module fills in)."""
    if isinstance(init, GlobalRef):
        return True
    return isinstance(init, list) and any(_refers(x) for x in init)
