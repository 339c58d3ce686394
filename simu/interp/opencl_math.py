"""OpenCL C integer, common, geometric and relational built-ins as numpy functions of lane arrays.

INTEGER functions are called as ``f(unsigned, dt, *args)``, COMMON ones as ``f(fdt, dt, *args)``
(``dt`` the result's lane dtype, ``fdt`` the floating-point dtype of the operation); POINTER_OUT
ones return (result, value stored through the last pointer argument).  opencl_builtins.py turns
them into ops.
"""

from __future__ import annotations

import numpy as np

from simu.interp import arith, mathlib
from simu.interp.values import UNSIGNED


def _fract(x):
    x = np.asarray(x, np.float64)
    fl = np.floor(x)
    return np.fmin(x - fl, 0.99999994039535522), fl  # 0x1.fffffep-1f: never rounds up to 1


# name -> (function returning (result, value stored through the last pointer argument), arity of inputs)
POINTER_OUT = {
    "sincos": (mathlib.sincos, 1),
    "frexp": (mathlib.frexp, 1),
    "modf": (mathlib.modf, 1),
    "fract": (_fract, 1),
    "remquo": (mathlib.remquo, 2),
    "lgamma_r": (lambda x: (mathlib.UNARY["lgamma"](x), np.where(np.asarray(x) < 0, -1, 1).astype(np.int32)), 1),
}


def _as_unsigned(x, unsigned):
    return arith.unsigned(x) if unsigned else x


def _int_minmax(op):
    def f(unsigned, dt, a, b):
        r = op(_as_unsigned(a, unsigned), _as_unsigned(b, unsigned))
        return np.asarray(r).astype(UNSIGNED.get(dt, dt)).view(dt) if unsigned else np.asarray(r).astype(dt)
    return f


def _clamp(unsigned, dt, x, lo, hi):
    x, lo, hi = (_as_unsigned(v, unsigned) for v in (x, lo, hi))
    r = np.minimum(np.maximum(x, lo), hi)
    return np.asarray(r).astype(UNSIGNED.get(dt, dt)).view(dt) if unsigned else np.asarray(r).astype(dt)


def _mul_hi(unsigned, dt, a, b):
    bits = dt.itemsize * 8
    if bits <= 32:
        wide = (_as_unsigned(a, unsigned).astype(np.uint64 if unsigned else np.int64)
                * _as_unsigned(b, unsigned).astype(np.uint64 if unsigned else np.int64))
        return (wide >> np.asarray(bits, wide.dtype)).astype(dt)
    ao = np.asarray(_as_unsigned(a, unsigned)).astype(object)
    bo = np.asarray(_as_unsigned(b, unsigned)).astype(object)
    r = np.vectorize(lambda x, y: (int(x) * int(y)) >> 64, otypes=[object])(ao, bo)
    return np.asarray([int(v) & (2**64 - 1) for v in np.ravel(r)], np.uint64).reshape(np.shape(r)).view(dt) \
        if unsigned else np.asarray([int(v) for v in np.ravel(r)], np.int64).reshape(np.shape(r))


def _sat(op):
    def f(unsigned, dt, a, b):
        info = np.iinfo(UNSIGNED[dt] if unsigned else dt)
        wa = _as_unsigned(a, unsigned).astype(object if dt.itemsize == 8 else np.int64)
        wb = _as_unsigned(b, unsigned).astype(object if dt.itemsize == 8 else np.int64)
        r = np.clip(op(wa, wb), info.min, info.max)
        return np.asarray(r).astype(UNSIGNED[dt] if unsigned else dt).view(dt)
    return f


def _rotate(unsigned, dt, v, s):
    bits = dt.itemsize * 8
    u = arith.unsigned(v).astype(np.uint64)
    k = (np.asarray(s).astype(np.int64) % bits).astype(np.uint64)
    mask = np.uint64((1 << bits) - 1) if bits < 64 else np.uint64(2**64 - 1)
    r = ((u << k) | (u >> ((np.uint64(bits) - k) % np.uint64(bits)))) & mask
    return r.astype(UNSIGNED[dt]).view(dt)


def _clz(unsigned, dt, x):
    bits = dt.itemsize * 8
    u = arith.unsigned(x).astype(np.uint64)
    r = np.full(u.shape, bits, np.int64)
    for k in range(bits):
        hit = (u >> np.uint64(bits - 1 - k)) & np.uint64(1)
        r = np.where((hit == 1) & (r == bits), k, r)
    return r.astype(dt)


def _popcount(unsigned, dt, x):
    u = arith.unsigned(x).astype(np.uint64)
    return np.bitwise_count(u).astype(dt)


def _abs(unsigned, dt, x):
    if unsigned:
        return x
    return np.abs(x.astype(np.int64)).astype(UNSIGNED[dt]).view(dt) if dt.itemsize < 8 else np.abs(x)


def _abs_diff(unsigned, dt, a, b):
    d = np.abs(_as_unsigned(a, unsigned).astype(np.int64) - _as_unsigned(b, unsigned).astype(np.int64))
    return np.asarray(d).astype(UNSIGNED[dt]).view(dt)


def _hadd(rounding):
    def f(unsigned, dt, a, b):
        wa = _as_unsigned(a, unsigned).astype(object if dt.itemsize == 8 else np.int64)
        wb = _as_unsigned(b, unsigned).astype(object if dt.itemsize == 8 else np.int64)
        r = (wa + wb + rounding) >> 1
        return np.asarray(r).astype(UNSIGNED[dt] if unsigned else dt)
    return f


INTEGER = {
    "min": _int_minmax(np.minimum), "max": _int_minmax(np.maximum), "clamp": _clamp,
    "mul_hi": _mul_hi, "add_sat": _sat(lambda a, b: a + b), "sub_sat": _sat(lambda a, b: a - b),
    "rotate": _rotate, "clz": _clz, "popcount": _popcount, "abs": _abs,
    "abs_diff": _abs_diff,
    "hadd": _hadd(0), "rhadd": _hadd(1),
    "mad24": lambda u, dt, a, b, c: (a * b + c).astype(dt), "mul24": lambda u, dt, a, b: (a * b).astype(dt),
    "mad_hi": lambda u, dt, a, b, c: (_mul_hi(u, dt, a, b) + c).astype(dt),
    "mad_sat": lambda u, dt, a, b, c: _sat(lambda x, y: x + y)(u, dt, (a.astype(np.int64) * b).astype(np.int64), c),
    "upsample": lambda u, dt, hi, lo: ((hi.astype(dt) << (dt.itemsize * 4)) | arith.unsigned(lo).astype(dt)),
    "select": lambda u, dt, a, b, c: np.where(_select_condition(a, c), b, a).astype(dt),
    "bitselect": lambda u, dt, a, b, c: ((a & ~c) | (b & c)).astype(dt),
}


def _select_condition(a, c):
    """OpenCL select: vectors test the most significant bit of c, scalars test c != 0."""
    return (c < 0) if (np.ndim(a) >= 2 and c.dtype.kind in "iu") else (c != 0)


def _select_float(fdt, dt, a, b, c):
    return np.where(_select_condition(a, c), b, a).astype(dt)


def _vector(*xs) -> bool:
    """Whether the operands are vectors: lanes × components for a register, components alone for a constant (a
    splat ``(float4)(1.0f)``), so one register operand says it."""
    return any(np.ndim(x) >= 2 for x in xs)


def _rel(op, vector_true=-1):
    def f(fdt, dt, *xs):
        r = op(*xs)
        if _vector(*xs):
            return np.where(r, vector_true, 0).astype(dt)
        return np.asarray(r).astype(dt)
    return f


def _smoothstep(fdt, dt, e0, e1, x):
    t = np.clip((x.astype(np.float64) - e0) / (np.asarray(e1, np.float64) - e0), 0, 1)
    return (t * t * (3 - 2 * t)).astype(dt)


COMMON = {
    "mix": lambda fdt, dt, x, y, a: (x + (y - x) * a).astype(dt),
    "step": lambda fdt, dt, e, x: np.where(x < e, 0.0, 1.0).astype(dt),
    "smoothstep": _smoothstep,
    "sign": lambda fdt, dt, x: np.where(np.isnan(x), 0.0, np.sign(x)).astype(dt),
    "degrees": lambda fdt, dt, x: (x.astype(np.float64) * (180.0 / np.pi)).astype(dt),
    "radians": lambda fdt, dt, x: (x.astype(np.float64) * (np.pi / 180.0)).astype(dt),
    "clamp": lambda fdt, dt, x, lo, hi: np.fmin(np.fmax(x, lo), hi).astype(dt),
    "max": lambda fdt, dt, a, b: np.fmax(a, b).astype(dt), "min": lambda fdt, dt, a, b: np.fmin(a, b).astype(dt),
    "dot": lambda fdt, dt, a, b: (a * b).sum(axis=-1).astype(dt) if _vector(a, b) else (a * b).astype(dt),
    "length": lambda fdt, dt, a: np.sqrt((a.astype(np.float64) ** 2).sum(axis=-1) if np.ndim(a) >= 2
                                         else a.astype(np.float64) ** 2).astype(dt),
    "fast_length": lambda fdt, dt, a: np.sqrt((a.astype(np.float64) ** 2).sum(axis=-1) if np.ndim(a) >= 2
                                              else a.astype(np.float64) ** 2).astype(dt),
    "distance": lambda fdt, dt, a, b: np.sqrt(((a.astype(np.float64) - b) ** 2).sum(axis=-1) if _vector(a, b)
                                              else (a.astype(np.float64) - b) ** 2).astype(dt),
    "normalize": lambda fdt, dt, a: (a / np.sqrt((a.astype(np.float64) ** 2).sum(axis=-1, keepdims=True)
                                                 if np.ndim(a) >= 2 else a.astype(np.float64) ** 2)).astype(dt),
    "cross": lambda fdt, dt, a, b: _cross(a, b).astype(dt),
    "isnan": _rel(np.isnan), "isinf": _rel(np.isinf), "isfinite": _rel(np.isfinite),
    "isnormal": _rel(lambda x: np.isfinite(x) & (np.abs(x) >= np.finfo(x.dtype).tiny)),
    "signbit": _rel(np.signbit),
    "isequal": _rel(lambda a, b: a == b), "isnotequal": _rel(lambda a, b: a != b),
    "isgreater": _rel(lambda a, b: a > b), "isgreaterequal": _rel(lambda a, b: a >= b),
    "isless": _rel(lambda a, b: a < b), "islessequal": _rel(lambda a, b: a <= b),
    "islessgreater": _rel(lambda a, b: (a < b) | (a > b)),
    "isordered": _rel(lambda a, b: ~np.isnan(a) & ~np.isnan(b)),
    "isunordered": _rel(lambda a, b: np.isnan(a) | np.isnan(b)),
    "any": lambda fdt, dt, x: np.asarray((x < 0).any(axis=-1) if np.ndim(x) >= 2 else x < 0).astype(dt),
    "all": lambda fdt, dt, x: np.asarray((x < 0).all(axis=-1) if np.ndim(x) >= 2 else x < 0).astype(dt),
    "select": _select_float,
    "bitselect": lambda fdt, dt, a, b, c: _bitselect_float(a, b, c).astype(dt),
    "maxmag": lambda fdt, dt, a, b: np.where(np.abs(a) > np.abs(b), a,
                                             np.where(np.abs(b) > np.abs(a), b, np.fmax(a, b))).astype(dt),
    "minmag": lambda fdt, dt, a, b: np.where(np.abs(a) < np.abs(b), a,
                                             np.where(np.abs(b) < np.abs(a), b, np.fmin(a, b))).astype(dt),
}
# the fast_ geometric functions are allowed less precision; computing them exactly is within it
COMMON["fast_distance"] = COMMON["distance"]
COMMON["fast_normalize"] = COMMON["normalize"]


def _cross(a, b):
    out = np.zeros(np.broadcast(a, b).shape, np.result_type(a, b))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _bitselect_float(a, b, c):
    it = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    ai, bi, ci = (np.ascontiguousarray(x).view(it) for x in (a, b, c))
    return ((ai & ~ci) | (bi & ci)).view(a.dtype)

