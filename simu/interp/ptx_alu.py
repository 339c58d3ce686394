"""Inline PTX register arithmetic with one result: the forms hashing, mining and math code writes by
hand (``lop3.b32``, ``shf.l.wrap.b32``, ``prmt.b32``, ``mul.hi.u32``, ``bfind.u32``, ``rcp.approx.f32``,
``cvt.rni.sat.s32.f32``, ``slct``, ...).

Every operation works on whole lane arrays.  Integer operands are taken as the PTX type's width
(``.u32``/``.s32``/``.b32``/``.u64``/...), results are converted to the asm call's result type; the
``.approx`` float forms are computed exactly (a GPU's approximation differs in the last bits, which
no synchronisation check looks at).  :func:`alu` returns ``None`` for anything else.
"""

from __future__ import annotations

import numpy as np

from simu.interp.program import put
from simu.interp.values import scalar_dtype

_INT = {"u8": np.uint8, "s8": np.int8, "b8": np.uint8, "u16": np.uint16, "s16": np.int16, "b16": np.uint16,
        "u32": np.uint32, "s32": np.int32, "b32": np.uint32, "u64": np.uint64, "s64": np.int64, "b64": np.uint64}
_FLOAT = {"f32": np.float32, "f64": np.float64}
_APPROX = {"rcp": lambda x: 1 / x, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "ex2": np.exp2,
           "lg2": np.log2, "sin": np.sin, "cos": np.cos}
_BINARY = {"add": np.add, "sub": np.subtract, "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
           "min": np.minimum, "max": np.maximum}


def _as(v, dtype) -> np.ndarray:
    """A lane array reinterpreted (same width) or converted to ``dtype``."""
    a = np.asarray(v)
    dtype = np.dtype(dtype)
    if a.dtype.itemsize == dtype.itemsize and a.dtype.kind in "iub" and dtype.kind in "iu":
        return a.view(dtype)
    if a.dtype.kind == "f" and dtype.kind in "iu" and a.dtype.itemsize == dtype.itemsize:
        return a.view(dtype)
    if a.dtype.kind in "iu" and dtype.kind == "f" and a.dtype.itemsize == dtype.itemsize:
        return a.view(dtype)
    return a.astype(dtype)


def _lop3(a, b, c, lut: int):
    out = np.zeros_like(a)
    for idx in range(8):
        if (lut >> idx) & 1:
            x = a if idx & 4 else ~a
            y = b if idx & 2 else ~b
            z = c if idx & 1 else ~c
            out |= x & y & z
    return out


def _prmt(a, b, sel):
    """Byte permute (default mode): each result byte is byte ``sel`` nibble of the 8-byte {b, a}."""
    both = (b.astype(np.uint64) << np.uint64(32)) | a.astype(np.uint64)
    out = np.zeros(a.shape, np.uint64)
    for k in range(4):
        nib = (sel.astype(np.uint64) >> np.uint64(4 * k)) & np.uint64(0xF)
        byte = (both >> ((nib & np.uint64(7)) * np.uint64(8))) & np.uint64(0xFF)
        sign = (byte >> np.uint64(7)) & np.uint64(1)
        byte = np.where((nib & np.uint64(8)) != 0, sign * np.uint64(0xFF), byte)
        out |= byte << np.uint64(8 * k)
    return out.astype(np.uint32)


def _funnel(a, b, n, left: bool, wrap: bool, bits: int):
    """``shf.{l,r}.{wrap,clamp}.b32 d, a, b, n``: shift the 64-bit {b:a} and keep the high (l) or low (r) word."""
    n = n.astype(np.uint64) & np.uint64(bits - 1) if wrap else np.minimum(n.astype(np.uint64), np.uint64(bits))
    both = (b.astype(np.uint64) << np.uint64(32)) | a.astype(np.uint64)
    if left:
        return ((both << n) >> np.uint64(32)).astype(np.uint32)
    return (both >> n).astype(np.uint32)


def integer_op(name: str, head: list[str], dt, vals):
    """The numpy result of an integer PTX op, or None."""
    if name == "lop3" and len(vals) == 4:
        return _lop3(*(_as(v, dt) for v in vals[:3]), int(np.asarray(vals[3]).ravel()[0]))
    if name == "prmt" and len(vals) == 3 and head[-1] == "b32":
        return _prmt(*(_as(v, np.uint32) for v in vals))
    if name == "shf" and len(vals) == 3 and head[-1] == "b32" and head[1] in ("l", "r"):
        a, b, n = (_as(v, np.uint32) for v in vals)
        return _funnel(a, b, n, head[1] == "l", "wrap" in head, 32)
    if name == "bfe" and len(vals) == 3:
        a = _as(vals[0], dt)
        pos, length = (_as(v, np.uint32).astype(np.uint64) for v in vals[1:])
        bits = np.dtype(dt).itemsize * 8
        u = _as(a, np.dtype(dt).str.replace("i", "u")).astype(np.uint64)
        length = np.minimum(length, np.uint64(bits))
        field = (u >> np.minimum(pos, np.uint64(63))) & ((np.uint64(1) << length) - np.uint64(1))
        if np.dtype(dt).kind == "i":  # sign-extend from the field's top bit
            shift = np.uint64(64) - np.maximum(length, np.uint64(1))
            field = np.where(length > 0, ((field << shift).view(np.int64) >> shift.astype(np.int64)), 0)
        return field.astype(dt)
    if name == "bfi" and len(vals) == 4:
        a, b = _as(vals[0], dt), _as(vals[1], dt)
        pos, length = (_as(v, np.uint32).astype(np.uint64) for v in vals[2:])
        mask = (((np.uint64(1) << np.minimum(length, np.uint64(63))) - np.uint64(1)) << pos).astype(dt)
        return (b & ~mask) | ((a << pos.astype(dt)) & mask)
    if name == "mul" and len(vals) == 2 and head[1] in ("hi", "lo", "wide"):
        a, b = (_as(v, dt).astype(np.int64 if np.dtype(dt).kind == "i" else np.uint64) for v in vals)
        bits = np.dtype(dt).itemsize * 8
        if bits > 32:
            return None  # 128-bit products are not modelled
        prod = a * b
        if head[1] == "wide":
            return prod
        return (prod >> (bits if head[1] == "hi" else 0)).astype(dt) if head[1] == "hi" else prod.astype(dt)
    if name == "mad" and len(vals) == 3 and head[1] == "lo":
        a, b, c = (_as(v, dt) for v in vals)
        return a * b + c
    if name in _BINARY and len(vals) == 2:
        a, b = (_as(v, dt) for v in vals)
        return _BINARY[name](a, b)
    if name in ("shl", "shr") and len(vals) == 2:  # a shift by the width or more: zeros (signed shr: the sign)
        a = _as(vals[0], dt)
        raw = _as(vals[1], np.uint32)
        n = np.minimum(raw, np.dtype(dt).itemsize * 8 - 1).astype(dt)
        out = a << n if name == "shl" else a >> n
        wide = raw >= np.dtype(dt).itemsize * 8
        if not wide.any() or name == "shr" and np.dtype(dt).kind == "i":
            return out
        return np.where(wide, 0, out).astype(dt)
    if name == "not" and len(vals) == 1:
        return ~_as(vals[0], dt)
    if name in ("popc", "clz", "brev") and len(vals) == 1:
        bits = np.dtype(dt).itemsize * 8
        u = _as(vals[0], dt).astype(np.uint64)
        if name == "popc":
            return np.bitwise_count(u).astype(np.uint32)
        if name == "clz":
            out = np.full(u.shape, bits, np.uint32)
            for k in range(bits):
                out = np.where((out == bits) & ((u >> np.uint64(bits - 1 - k)) & np.uint64(1) != 0), k, out)
            return out.astype(np.uint32)
        rev = np.zeros_like(u)
        for k in range(bits):
            rev |= ((u >> np.uint64(k)) & np.uint64(1)) << np.uint64(bits - 1 - k)
        return rev.astype(dt)
    if name == "bfind" and len(vals) == 1:  # the most significant non-sign bit's position, all ones when none
        bits = np.dtype(dt).itemsize * 8
        a = _as(vals[0], dt)
        u = (~a if np.dtype(dt).kind == "i" else a).astype(np.int64 if bits == 32 else np.uint64)
        u = np.where(a < 0, u, a.astype(u.dtype)) if np.dtype(dt).kind == "i" else u
        u = u.astype(np.uint64) & np.uint64((1 << bits) - 1)
        pos = np.full(u.shape, -1, np.int64)
        for k in range(bits):
            pos = np.where((u >> np.uint64(k)) & np.uint64(1) != 0, k, pos)
        if "shiftamt" in head:
            pos = np.where(pos >= 0, bits - 1 - pos, -1)
        return pos.astype(np.int64).astype(np.uint32)
    if name == "mov" and head[-1] == "b64" and len(vals) == 2:  # mov.b64 d, {lo, hi}: pack two words
        lo, hi = (_as(v, np.uint32).astype(np.uint64) for v in vals)
        return (hi << np.uint64(32)) | lo
    return None


_ROUND = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil, "rn": np.rint, "rz": np.trunc,
          "rm": np.floor, "rp": np.ceil}
_TYPES = {**_INT, **_FLOAT}


def convert(head: list[str], value) -> np.ndarray | None:
    """``cvt[.rnd][.sat].<dst>.<src> d, a``: rounded as the mode says, an integer result saturated to its range
    (NaN to 0, as ``.sat`` does; PTX leaves an unsaturated overflow undefined), None for another form."""
    if len(head) < 3 or head[-1] not in _TYPES or head[-2] not in _TYPES:
        return None
    dst, src = np.dtype(_TYPES[head[-2]]), np.dtype(_TYPES[head[-1]])
    mode = next((_ROUND[h] for h in head[1:-2] if h in _ROUND), np.trunc)
    a = _as(value, src)
    if src.kind == "f" and dst.kind in "iu":
        info = np.iinfo(dst)
        with np.errstate(all="ignore"):
            r = np.nan_to_num(mode(a.astype(np.float64)), nan=0.0)
        return np.clip(r, info.min, info.max).astype(dst)
    if dst.kind == "f":
        return a.astype(np.float64).astype(dst) if src.kind == "f" else a.astype(dst)
    return a.astype(dst)  # integer to integer: truncated or extended as the source type says


def alu(ins, shown: str, head: list[str], inputs: list, dst, proto):
    """The op for ``head`` (the opcode split at dots) over the input getters, or None if not modelled."""
    name, ptx_type = head[0], head[-1]
    rdt = scalar_dtype(ins.type)
    if name == "cvt" and len(inputs) == 1 and convert(head, np.zeros(1, np.uint32)) is not None:
        return put(dst, proto, lambda st, lanes, sel: _as(convert(head, np.broadcast_to(
            np.asarray(inputs[0](st, sel)), lanes.shape)), rdt))
    if name == "slct" and len(head) == 3 and head[1] in _TYPES and head[2] in ("s32", "f32") and len(inputs) == 3:
        def select(st, lanes, sel):  # d = c >= 0 ? a : b
            a, b, c = (np.broadcast_to(np.asarray(g(st, sel)), lanes.shape) for g in inputs)
            return _as(np.where(_as(c, _TYPES[head[2]]) >= 0, _as(a, _TYPES[head[1]]), _as(b, _TYPES[head[1]])), rdt)
        return put(dst, proto, select)
    if ptx_type in _FLOAT and name in _APPROX and len(inputs) == 1 and "approx" in head:
        fdt, f = _FLOAT[ptx_type], _APPROX[name]

        def approx(st, lanes, sel):
            with np.errstate(all="ignore"):
                return _as(f(_as(inputs[0](st, sel), fdt)).astype(fdt), rdt)
        return put(dst, proto, approx)
    if ptx_type not in _INT:
        return None
    dt = _INT[ptx_type]
    probe = integer_op(name, head, dt, [np.zeros(1, np.uint32)] * len(inputs))
    if probe is None:
        return None

    def op(st, lanes, sel):
        vals = [np.broadcast_to(np.asarray(g(st, sel)), lanes.shape) for g in inputs]
        with np.errstate(all="ignore"):
            return _as(integer_op(name, head, dt, vals), rdt)
    return put(dst, proto, op)
