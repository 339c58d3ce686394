"""Mapping LLVM types and constants onto numpy lane arrays."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from simu.ir.constants import GlobalRef, Undef
from simu.ir.types import ArrayType, FloatType, IntType, PtrType, StructType, Type, VectorType

UNSIGNED = {np.dtype(np.int8): np.dtype(np.uint8), np.dtype(np.int16): np.dtype(np.uint16),
            np.dtype(np.int32): np.dtype(np.uint32), np.dtype(np.int64): np.dtype(np.uint64),
            np.dtype(np.bool_): np.dtype(np.bool_)}


def scalar_dtype(t: Type) -> np.dtype:
    if isinstance(t, IntType):
        if t.bits > 64:
            from simu.errors import UnsupportedError

            raise UnsupportedError(f"integer type i{t.bits} (wider than 64 bits)")
        return t.dtype
    if isinstance(t, FloatType):
        return t.dtype
    if isinstance(t, PtrType):
        return np.dtype(np.int64)
    if isinstance(t, VectorType):
        return scalar_dtype(t.elem)
    raise TypeError(f"no lane dtype for {t}")


def lane_shape(t: Type) -> tuple[int, ...]:
    return (t.count,) if isinstance(t, VectorType) else ()


def constant(t: Type, v: Any) -> Any:
    """A Python constant as a numpy scalar/row of the type (broadcastable over lanes)."""
    if isinstance(v, GlobalRef):
        raise TypeError("global references are resolved per launch")
    if isinstance(t, StructType):
        vals = v if isinstance(v, list) else [None] * len(t.fields)
        return [constant(f, x if not isinstance(v, Undef) else 0) for f, x in zip(t.fields, vals, strict=False)]
    if isinstance(t, ArrayType):
        vals = v if isinstance(v, list) else [0] * t.count
        return [constant(t.elem, x) for x in vals]
    dt = scalar_dtype(t)
    if isinstance(t, VectorType):
        vals = v if isinstance(v, list) else [0] * t.count
        return np.array([_scalar(dt, x) for x in vals], dtype=dt)
    return np.array(_scalar(dt, v), dtype=dt)[()]


def _scalar(dt: np.dtype, x: Any):
    if isinstance(x, (Undef, type(None))):
        return 0
    if isinstance(x, GlobalRef):
        raise TypeError("global reference inside a vector constant")
    if dt.kind == "b":
        return bool(x)
    if dt.kind in "iu":
        bits = dt.itemsize * 8
        x = int(x) & ((1 << bits) - 1)
        if x >= 1 << (bits - 1):
            x -= 1 << bits
        return x
    return float(x)


def flatten_constant(t: Type, v: Any) -> bytes:
    """Bytes of a constant initialiser in memory layout (GlobalRefs as 0; see ``global_refs``)."""
    out = bytearray(_alloc_size(t))
    _write_const(out, 0, t, v)
    return bytes(out)


def global_refs(t: Type, v: Any, base: int = 0) -> list[tuple[int, GlobalRef]]:
    """(byte offset, GlobalRef) pairs inside an initialiser (pointer tables in constant memory)."""
    if isinstance(v, GlobalRef):
        return [(base, v)]
    out: list[tuple[int, GlobalRef]] = []
    if isinstance(t, StructType) and isinstance(v, list):
        for off, f, x in zip(t.offsets, t.fields, v, strict=False):
            out += global_refs(f, x, base + off)
    elif isinstance(t, (ArrayType, VectorType)) and isinstance(v, list):
        es = _alloc_size(t.elem)
        for i, x in enumerate(v):
            out += global_refs(t.elem, x, base + i * es)
    return out


def _alloc_size(t: Type) -> int:
    from simu.ir.types import alloc_size

    return alloc_size(t)


def _write_const(out: bytearray, off: int, t: Type, v: Any) -> None:
    if isinstance(v, (Undef, GlobalRef)) or v is None:
        return
    if isinstance(t, StructType):
        for fo, f, x in zip(t.offsets, t.fields, v, strict=False):
            _write_const(out, off + fo, f, x)
    elif isinstance(t, (ArrayType, VectorType)):
        es = _alloc_size(t.elem)
        for i, x in enumerate(v):
            _write_const(out, off + i * es, t.elem, x)
    else:
        dt = scalar_dtype(t)
        raw = np.array(_scalar(dt, v), dtype=dt).tobytes()
        out[off:off + len(raw)] = raw


def with_copied(t: Type, init: bytes | None, offset: int, values: Any) -> bytes:
    """A variable's bytes (``init``, or zeros) with what the host copies into it from byte ``offset`` on
    (``cudaMemcpyToSymbol``): ``values``' numbers, nested as the host's aggregate, fill the type's scalars in
    memory order from there (C lays out an initialiser's leaves that way, braces elided or not); ``None`` and
    pointer slots keep their bytes (a device pointer is a member buffer's address: :mod:`simu.interp.members`)."""
    out = bytearray(init if init is not None else bytes(_alloc_size(t)))
    leaves = ((o, lt) for o, lt in _leaves(t, 0) if o >= offset)  # lazily: as many as the host copies
    for (o, lt), v in zip(leaves, _flat(values), strict=False):
        if v is not None and not isinstance(lt, PtrType) and o + _alloc_size(lt) <= len(out):
            _write_const(out, o, lt, v)
    return bytes(out)


def _leaves(t: Type, base: int) -> Iterator[tuple[int, Type]]:
    """The scalar parts of a type in memory order: (byte offset, type)."""
    if isinstance(t, StructType):
        for off, f in zip(t.offsets, t.fields, strict=False):
            yield from _leaves(f, base + off)
    elif isinstance(t, (ArrayType, VectorType)):
        es = _alloc_size(t.elem)
        for i in range(t.count):
            yield from _leaves(t.elem, base + i * es)
    else:
        yield base, t


def _flat(values: Any) -> list[Any]:
    return [x for v in values for x in _flat(v)] if isinstance(values, (tuple, list)) else [values]


def to_bits(vals: np.ndarray) -> np.ndarray:
    """Raw bits of the values as uint64 (for recording what a store wrote)."""
    v = np.asarray(vals)
    if v.ndim > 1:
        row = v.dtype.itemsize * int(np.prod(v.shape[1:]))  # explicit: a store by no lane has shape (0, n)
        v = np.ascontiguousarray(v).view(np.uint8).reshape(v.shape[0], row)
        v = v[:, :8]
        pad = np.zeros((v.shape[0], 8), np.uint8)
        pad[:, :v.shape[1]] = v
        return pad.view(np.uint64).reshape(-1)
    isz = v.dtype.itemsize
    if v.dtype == np.bool_:
        return v.astype(np.uint64)
    u = np.ascontiguousarray(v).view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[isz])
    return u.astype(np.uint64)
