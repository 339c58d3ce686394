"""The math library by base name, shared by LLVM intrinsics, CUDA libm calls and OpenCL built-ins.

Float32 functions are evaluated in float64 and rounded once, which is at least as accurate as
GPU libraries (and within the 2-ulp budget of the differential tests).
"""

from __future__ import annotations

import math

import numpy as np


def _rint(x):
    return np.rint(x)


def _round_half_away(x):
    return np.where(x >= 0, np.floor(x + 0.5), np.ceil(x - 0.5))


def _erf(x):
    from math import erf

    return np.vectorize(erf, otypes=[np.float64])(x) if np.size(x) else np.asarray(x, np.float64)


def _erfc(x):
    from math import erfc

    return np.vectorize(erfc, otypes=[np.float64])(x) if np.size(x) else np.asarray(x, np.float64)


def _lgamma(x):
    from math import lgamma

    return np.vectorize(lambda v: lgamma(v) if v not in (0.0,) and not (v < 0 and v == int(v)) else np.inf,
                        otypes=[np.float64])(x)


def _tgamma(x):
    from math import gamma

    def g(v):
        try:
            return gamma(v)
        except (ValueError, OverflowError):
            return np.nan if v < 0 else np.inf
    return np.vectorize(g, otypes=[np.float64])(x)


UNARY = {
    "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x), "cbrt": np.cbrt,
    "exp": np.exp, "exp2": np.exp2, "exp10": lambda x: np.power(10.0, x), "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
    "logb": lambda x: np.floor(np.log2(np.abs(x))),
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "sinpi": lambda x: np.sin(np.pi * x), "cospi": lambda x: np.cos(np.pi * x), "tanpi": lambda x: np.tan(np.pi * x),
    "asinpi": lambda x: np.arcsin(x) / np.pi, "acospi": lambda x: np.arccos(x) / np.pi,
    "atanpi": lambda x: np.arctan(x) / np.pi,
    "fabs": np.abs, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "round": _round_half_away,
    "rint": _rint, "nearbyint": _rint, "roundeven": _rint,
    "erf": _erf, "erfc": _erfc, "lgamma": _lgamma, "tgamma": _tgamma,
    "recip": lambda x: 1.0 / x, "canonicalize": lambda x: x,
}

def _ldexp(a, b):
    return np.ldexp(a, np.asarray(b, np.int32))


BINARY = {
    "pow": np.power, "powr": np.power, "atan2": np.arctan2, "hypot": np.hypot, "fmod": np.fmod,
    "copysign": np.copysign, "fmin": np.fmin, "fmax": np.fmax, "minnum": np.fmin, "maxnum": np.fmax,
    "minimum": np.minimum, "maximum": np.maximum, "minimumnum": np.fmin, "maximumnum": np.fmax,
    "fdim": lambda a, b: np.where(a > b, a - b, 0.0), "remainder": lambda a, b: a - b * np.rint(a / b),
    "nextafter": np.nextafter, "ldexp": _ldexp, "scalbn": _ldexp,  # scalbn: x * 2^n as ldexp (FLT_RADIX is 2)
    "pown": lambda a, b: np.power(a, np.asarray(b, np.float64)),
    "rootn": lambda a, b: np.where((a < 0) & (np.asarray(b) % 2 == 1), -np.power(-a, 1.0 / np.asarray(b, np.float64)),
                                   np.power(a, 1.0 / np.asarray(b, np.float64))),
    "divide": np.divide, "atan2pi": lambda a, b: np.arctan2(a, b) / np.pi,
}


def fma(a, b, c):
    """a*b+c with one rounding, for float64 arrays: error-free product and sum (Dekker, Knuth)."""
    a, b, c = (np.asarray(x, np.float64) for x in (a, b, c))
    p = a * b
    split = 134217729.0  # 2**27 + 1
    ah = a * split - (a * split - a)
    al = a - ah
    bh = b * split - (b * split - b)
    bl = b - bh
    ep = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # exact: a*b = p + ep
    s = p + c
    bb = s - p
    es = (p - (s - bb)) + (c - bb)  # exact: p + c = s + es
    r = s + (ep + es)
    return np.where(np.isfinite(r) & np.isfinite(p), r, a * b + c)


def fma32(a, b, c):
    """Single-precision a*b+c with one rounding.

    The float64 product of two floats is exact, so only the float64 sum is rounded before the final
    rounding to float32.  That double rounding can differ from one rounding only when the sum lands
    exactly on a float32 midpoint (or in the float32 subnormal range); those lanes are redone with
    the sum rounded to odd, which makes the second rounding correct (53 >= 24 + 2 bits).
    """
    scalar = all(np.ndim(x) == 0 for x in (a, b, c))
    a, b, c = (np.atleast_1d(np.asarray(x, np.float64)) for x in (a, b, c))
    p = a * b
    s = p + c
    suspect = ((s.view(np.int64) & 0x1FFFFFFF) == 0x10000000) | (np.abs(s) < 2.0 ** -125)
    if suspect.any():  # flat indices: vector operands are 2-D (lanes x components)
        idx = np.flatnonzero(suspect)
        pi = (p if p.shape == s.shape else np.broadcast_to(p, s.shape)).ravel()[idx]
        ci = (c if c.shape == s.shape else np.broadcast_to(c, s.shape)).ravel()[idx]
        s = np.array(s, copy=True).ravel()
        si = s[idx]
        bb = si - pi
        es = (pi - (si - bb)) + (ci - bb)  # p + c = s + es exactly
        inexact = (es != 0) & np.isfinite(si)
        away = inexact & ((es < 0) != (si < 0))  # s was rounded away from zero
        s[idx] = ((si.view(np.int64) - away) | inexact).view(np.float64)  # truncate, set the sticky bit
        s = s.reshape(suspect.shape)
    r = s.astype(np.float32)
    return r[0] if scalar else r


TERNARY = {"fma": fma, "fmuladd": fma}


# --- functions with two results -----------------------------------------------------------------
# C returns the first and stores the second through its last pointer argument (sincos stores both);
# LLVM's intrinsics (llvm.frexp, llvm.modf, llvm.sincos) return both as a two-field struct.

def frexp(x):
    """(mantissa in [0.5, 1), exponent as int32); inf and nan keep their value with exponent 0."""
    m, e = np.frexp(np.asarray(x, np.float64))
    return m, e.astype(np.int32)


def modf(x):
    """(fractional part, integral part), both with the sign of ``x``; inf gives (+-0, inf)."""
    f, i = np.modf(np.asarray(x, np.float64))
    return f, i


def sincos(x):
    x = np.asarray(x, np.float64)
    return np.sin(x), np.cos(x)


def sincospi(x):
    x = np.asarray(x, np.float64)
    return np.sin(np.pi * x), np.cos(np.pi * x)


def _remainder(a: float, b: float) -> float:
    try:
        return math.remainder(a, b)
    except ValueError:  # an infinite x or a zero y
        return math.nan


def remquo(x, y):
    """(IEEE remainder of x/y, the quotient's low 7 bits with the sign of x/y, as int32).

    The remainder is exact (``math.remainder``); C and OpenCL ask of the quotient only its sign and at
    least its 3 lowest bits, and GPU libraries give 7 (``remquof(-5, 1)`` stores -5, ``remquof(7, -2)``
    -4: 7 / -2 = -3.5 rounds to the even -4)."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    r = np.array([_remainder(a, b) for a, b in zip(x.ravel().tolist(), y.ravel().tolist(), strict=True)],
                 np.float64).reshape(x.shape)
    with np.errstate(all="ignore"):
        n = np.abs(np.rint((x - r) / y))
        low = np.fmod(n, 128.0)
    low = np.where(np.isfinite(low), low, 0.0)
    sign = np.where(np.signbit(x) != np.signbit(y), -1.0, 1.0)
    return r, (sign * low).astype(np.int32)


# name -> (number of inputs, function returning both results, whether the second result is an int32)
PAIRS = {
    "frexp": (1, frexp, True),
    "modf": (1, modf, False),
    "sincos": (1, sincos, False),
    "sincospi": (1, sincospi, False),
    "remquo": (2, remquo, True),
}


def lookup_pair(name: str, dtype=None):
    """``(base, (arity, function, int second))`` of a two-result function by C or libdevice name
    (``frexpf``, ``__nv_remquof``, ``sincos``), or None.  ``dtype``, the floating-point type of the
    call, decides whether a trailing ``f`` is the float suffix."""
    for prefix in ("__nv_", "__"):
        if name.startswith(prefix) and (name[len(prefix):] in PAIRS or name[len(prefix):-1] in PAIRS):
            name = name[len(prefix):]
            break
    if name not in PAIRS and name.endswith("f") and name[:-1] in PAIRS and dtype in (None, np.float32):
        name = name[:-1]
    found = PAIRS.get(name)
    return (name, found) if found is not None else None

# exact in any precision (or defined on the value's own format): evaluated in the value's dtype
NATIVE = {"fabs", "copysign", "floor", "ceil", "trunc", "rint", "nearbyint", "roundeven", "minnum", "maxnum",
          "minimum", "maximum", "minimumnum", "maximumnum", "canonicalize", "nextafter", "fmin", "fmax", "fdim"}

# OpenCL native_/half_ prefixes, CUDA fast forms and libdevice's __nv_/__nv_fast_ names (what the
# --cuda-path prelude calls) map onto the same functions.
ALIASES = {"native_": "", "half_": "", "__nv_fast_": "", "__nv_": "", "__": ""}


def lookup(name: str):
    """Return (arity, float64 function) for a math base name, or None."""
    for prefix in ALIASES:
        if name.startswith(prefix) and name[len(prefix):] in {**UNARY, **BINARY, **TERNARY}:
            name = name[len(prefix):]
            break
    if name in UNARY:
        return 1, UNARY[name]
    if name in BINARY:
        return 2, BINARY[name]
    if name in TERNARY:
        return 3, TERNARY[name]
    return None


def evaluate(fn, args, dtype):
    """Apply a float64 ``fn`` and round the result to ``dtype`` once."""
    with np.errstate(all="ignore"):
        r = fn(*[np.asarray(a, np.float64) for a in args])
    return np.asarray(r).astype(dtype)


def mad(a, b, c, dtype):
    """OpenCL mad / CUDA __fmaf_rn-free multiply-add: two roundings in the value's own precision."""
    with np.errstate(all="ignore"):
        return (np.asarray(a, dtype) * np.asarray(b, dtype)).astype(dtype) + np.asarray(c, dtype)
