"""Where a kernel parameter holds device pointers, from the debug information: the pointer members of a struct
passed by value (``Graph g`` with ``int *nindex``), of the struct a pointer parameter points to (``Graph *g``), and
the elements of an array of pointers (``float **rows``), nested structs and arrays of pointers inside the struct
included (``o.in.p``, ``o.arr[1]``).  The launch gives each such slot a buffer of its own
(:mod:`simu.launch.members`); here only the layout is read.

A union's members are left out (which member is live is the program's business), and so are pointers behind
pointers (the member buffers' own pointer members: one level).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from simu.ir.debuginfo import POINTER_TAGS

MAX_FIELDS = 64  # pointer slots one element may list (an array of pointers inside a struct is written out)
MAX_ARRAY = 64  # elements of an array member written out


@dataclass(frozen=True)
class PointerField:
    """One pointer slot of an element: its byte ``offset`` in the element, the C ``path`` that names it after the
    holder (``.nindex``, ``.in.p``, ``.arr[1]``; empty for an element that is itself a pointer, ``float **rows``),
    and what it points to (the C type, its bytes and its float scalars, as :class:`~simu.ir.module.Param` says of a
    pointer parameter's element)."""

    offset: int
    path: str
    pointee: str | None
    pointee_size: int | None = None
    pointee_floats: tuple[tuple[int, int], ...] | None = None
    # a tensor accessor's data pointer (a record with ``sizes_[N]`` and ``strides_[N]`` beside it, PyTorch's packed
    # accessor): (byte offset of sizes_ in the element, of strides_, N, bytes of one size)
    shape: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class PointerLayout:
    """The pointer slots of a parameter's memory: ``fields`` in each element of ``stride`` bytes; ``by_value``: the
    parameter is one struct passed by value (one element), else a pointer to an array of elements."""

    fields: tuple[PointerField, ...]
    stride: int
    by_value: bool
    floats: tuple[tuple[int, int], ...] | None = None  # a struct passed by value: its float scalars (debug info)


_QUALIFIERS = ("DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_restrict_type",
               "DW_TAG_atomic_type")
_RECORDS = ("DW_TAG_structure_type", "DW_TAG_class_type")


def param_pointer_layouts(dbg: Any, sp_ref: str | None) -> list[PointerLayout | None]:
    """Per parameter of the subprogram ``sp_ref``, its :class:`PointerLayout`, or None when it holds no pointer
    the debug information shows (a scalar, a pointer to scalars, an unknown type)."""
    return [_layout(dbg, ref) for ref in dbg._param_type_refs(sp_ref)]


def global_pointer_layout(dbg: Any, type_ref: str | None) -> PointerLayout | None:
    """The pointer slots of a module variable of type ``type_ref`` (``__constant__ Params P`` with ``float *data``,
    ``__device__ int *table``): one element, the variable itself, or None when it holds no pointer."""
    if not type_ref:
        return None
    found: list[PointerField] = []
    size = dbg.type_size(type_ref)
    if not size or not _walk(dbg, type_ref, 0, "", found) or not found:
        return None
    return PointerLayout(tuple(found), size, True, _floats(dbg, type_ref))


def _layout(dbg: Any, ref: str) -> PointerLayout | None:
    n = dbg._strip(ref)
    if n is None:
        return None
    kind, f = n
    found: list[PointerField] = []
    if kind == "DIDerivedType" and f.get("tag") in POINTER_TAGS:
        base = f.get("baseType")
        inner = dbg._strip(base) if base else None
        if inner is None:
            return None
        stride = 8 if inner[0] == "DIDerivedType" and inner[1].get("tag") == "DW_TAG_pointer_type" \
            else dbg.type_size(base)
        if not stride or not _walk(dbg, base, 0, "", found):
            return None
        return PointerLayout(tuple(found), stride, False) if found else None
    if kind == "DICompositeType" and f.get("tag") in _RECORDS:
        size = dbg.type_size(ref)
        if not size or not _walk(dbg, ref, 0, "", found):
            return None
        return PointerLayout(tuple(found), size, True, _floats(dbg, ref)) if found else None
    return None


def _walk(dbg: Any, ref: str | None, base: int, path: str, found: list[PointerField], depth: int = 0) -> bool:
    """Add the pointer slots of type ``ref`` placed at byte ``base`` (named ``path``) to ``found``; False when the
    type holds more slots than :data:`MAX_FIELDS`."""
    n = dbg.node(ref) if ref else None
    if n is None or depth > 16:
        return True
    kind, f = n
    if kind == "DIDerivedType":
        tag = f.get("tag")
        if tag == "DW_TAG_pointer_type":
            if len(found) >= MAX_FIELDS:
                return False
            target = f.get("baseType")
            found.append(PointerField(base, path, dbg.type_name(target) if target else "void",
                                      dbg.type_size(target) if target else None, _floats(dbg, target)))
            return True
        if tag in ("DW_TAG_member", "DW_TAG_inheritance"):
            if "DIFlagStaticMember" in f.get("flags", ""):
                return True
            name = f.get("name", "").strip('"')
            sub = f"{path}.{name}" if tag == "DW_TAG_member" and name else path
            return _walk(dbg, f.get("baseType"), base + int(f.get("offset", "0")) // 8, sub, found, depth + 1)
        if tag in _QUALIFIERS:
            return _walk(dbg, f.get("baseType"), base, path, found, depth + 1)
        return True
    if kind != "DICompositeType":
        return True
    if f.get("tag") in _RECORDS:
        elements = dbg.node(f.get("elements")) if f.get("elements") else None
        if elements is None or elements[0] != "tuple":
            return True
        first = len(found)
        if not all(_walk(dbg, m, base, path, found, depth + 1) for m in elements[1]):
            return False
        shape = _tensor_shape(dbg, elements[1], base)
        if shape is not None and len(found) == first + 1:  # one data pointer beside the sizes and strides
            found[first] = replace(found[first], shape=shape)
        return True
    if f.get("tag") == "DW_TAG_array_type":
        return _array(dbg, f, base, path, found, depth)
    return True  # unions and enumerations hold no slot simu fills


def _tensor_shape(dbg: Any, members: list, base: int) -> tuple[int, int, int, int] | None:
    """A record's ``sizes_[N]`` and ``strides_[N]`` members of one integer type (a tensor accessor): (their byte
    offsets placed at ``base``, N, the integer's bytes), or None."""
    arrays: dict[str, tuple[int, int, int]] = {}
    for ref in members:
        n = dbg.node(ref)
        if n is None or n[0] != "DIDerivedType" or n[1].get("tag") != "DW_TAG_member":
            continue
        name = n[1].get("name", "").strip('"')
        if name not in ("sizes_", "strides_"):
            continue
        arr = dbg._strip(n[1].get("baseType", ""))
        if arr is None or arr[0] != "DICompositeType" or arr[1].get("tag") != "DW_TAG_array_type":
            return None
        subs = dbg.node(arr[1].get("elements"))
        sr = dbg.node(subs[1][0]) if subs is not None and subs[0] == "tuple" and len(subs[1]) == 1 else None
        item = dbg.type_size(arr[1].get("baseType"))
        try:
            count = int(sr[1].get("count", "")) if sr and sr[0] == "DISubrange" else 0
        except ValueError:
            return None
        if count < 1 or item not in (4, 8):
            return None
        arrays[name] = (base + int(n[1].get("offset", "0")) // 8, count, item)
    sizes, strides = arrays.get("sizes_"), arrays.get("strides_")
    if sizes is None or strides is None or sizes[1:] != strides[1:]:
        return None
    return sizes[0], strides[0], sizes[1], sizes[2]


def _array(dbg: Any, f: dict, base: int, path: str, found: list[PointerField], depth: int) -> bool:
    inner: list[PointerField] = []
    if not _walk(dbg, f.get("baseType"), 0, "", inner, depth + 1):
        return False
    if not inner:
        return True
    size = dbg.type_size(f.get("baseType")) or (8 if len(inner) == 1 and inner[0].offset == 0 else None)
    subs = dbg.node(f.get("elements"))
    if not size or subs is None or subs[0] != "tuple" or len(subs[1]) != 1:
        return True  # an array of pointers of unknown or several dimensions: left to the search's bytes
    sr = dbg.node(subs[1][0])
    try:
        count = int(sr[1].get("count", "")) if sr and sr[0] == "DISubrange" else 0
    except ValueError:
        return True
    for k in range(min(count, MAX_ARRAY)):
        for p in inner:
            if len(found) >= MAX_FIELDS:
                return False
            found.append(PointerField(base + k * size + p.offset, f"{path}[{k}]{p.path}", p.pointee,
                                      p.pointee_size, p.pointee_floats))
    return True


def _floats(dbg: Any, ref: str | None) -> tuple[tuple[int, int], ...] | None:
    if not ref:
        return None
    found: list[tuple[int, int]] = []
    return tuple(found) if dbg._floats(ref, 0, found) else None
