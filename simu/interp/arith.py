"""Integer/float arithmetic, comparisons and casts with LLVM semantics on numpy arrays."""

from __future__ import annotations

import numpy as np

from simu.interp.values import UNSIGNED


def unsigned(x):
    x = np.asarray(x)
    return x.view(UNSIGNED[x.dtype]) if x.dtype in UNSIGNED and x.dtype != np.bool_ else x


def normalize(x, bits: int):
    """Sign-extend the low ``bits`` of a container integer (for i2..i63 odd widths)."""
    x = np.asarray(x)
    if bits in (1, 8, 16, 32, 64) or x.dtype.kind not in "iu":
        return x
    c = x.dtype.itemsize * 8
    return (x << (c - bits)) >> (c - bits)


def _sdiv(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    bz = b == 0
    bb = np.where(bz, 1, b).astype(b.dtype)
    q = a // bb
    r = a - q * bb
    fix = (r != 0) & ((a < 0) != (bb < 0))
    q = q + fix.astype(q.dtype)
    return np.where(bz, 0, q).astype(a.dtype if a.ndim else np.result_type(a, b))


def _srem(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    q = _sdiv(a, b)
    return np.where(b == 0, 0, a - q * np.where(b == 0, 1, b)).astype(q.dtype)


def _udiv(a, b):
    ua, ub = unsigned(a), unsigned(b)
    bz = ub == 0
    q = ua // np.where(bz, 1, ub).astype(ub.dtype)
    q = np.where(bz, 0, q).astype(ua.dtype)
    return q.view(np.asarray(a).dtype) if q.ndim else np.asarray(q).astype(ua.dtype).view(np.asarray(a).dtype)


def _urem(a, b):
    ua, ub = unsigned(a), unsigned(b)
    bz = ub == 0
    r = ua % np.where(bz, 1, ub).astype(ub.dtype)
    r = np.where(bz, 0, r).astype(ua.dtype)
    return r.view(np.asarray(a).dtype)


def _shift_amount(b, bits):
    return (np.asarray(b) & (bits - 1)).astype(np.asarray(b).dtype)


def binary(op: str, bits: int):
    """Function (a, b) -> result for an integer binary opcode of width ``bits``."""
    if bits == 1:
        return {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor,
                "add": np.logical_xor, "sub": np.logical_xor, "mul": np.logical_and,
                "udiv": lambda a, b: np.asarray(a), "sdiv": lambda a, b: np.asarray(a),
                "urem": lambda a, b: np.zeros_like(np.asarray(a)), "srem": lambda a, b: np.zeros_like(np.asarray(a)),
                "shl": lambda a, b: np.asarray(a) & ~np.asarray(b), "lshr": lambda a, b: np.asarray(a) & ~np.asarray(b),
                "ashr": lambda a, b: np.asarray(a)}[op]
    table = {
        "add": np.add, "sub": np.subtract, "mul": np.multiply,
        "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
        "sdiv": _sdiv, "srem": _srem, "udiv": _udiv, "urem": _urem,
        "shl": lambda a, b: np.left_shift(a, _shift_amount(b, bits)),
        "ashr": lambda a, b: np.right_shift(a, _shift_amount(b, bits)),
        "lshr": lambda a, b: _lshr(a, b, bits),
    }
    f = table[op]
    if op == "lshr" and bits not in (8, 16, 32, 64):
        f = lambda a, b: _lshr_odd(a, b, bits)  # noqa: E731
    if op in ("shl", "lshr", "ashr"):
        f = _clamped(f, bits, op == "ashr")
    if bits in (8, 16, 32, 64):
        return f
    return lambda a, b: normalize(f(a, b), bits)


def _clamped(shift, bits: int, arithmetic: bool):
    """A shift as the GPU's ``shl``/``shr`` does it: an amount of the width or more gives 0 (``shr.s``: the sign in
    every bit), not the amount modulo the width (LLVM leaves it undefined; NVIDIA's PTX clamps it; clang's OpenCL
    masks amounts itself, so its shifts are always in range).  ``(i) >> LOG_NUM_BANKS + (i) >> 8``, a padding macro
    whose precedence is off, shifts by more than 32 and is 0 on the GPU."""
    def f(a, b):
        r = shift(a, b)
        if np.ndim(b) == 0 and 0 <= int(b) < bits:  # a constant amount in range: the common case
            return r
        over = unsigned(np.asarray(b)) >= bits
        if not np.any(over):
            return r
        a = np.asarray(a)
        fill = np.right_shift(a, bits - 1) if arithmetic else np.zeros_like(a)
        out = np.where(over, fill, r).astype(np.asarray(r).dtype)
        return out if out.ndim else out[()]
    return f


def _lshr(a, b, bits):
    a = np.asarray(a)
    ua = unsigned(a)
    r = np.right_shift(ua, _shift_amount(b, bits).astype(ua.dtype))
    return r.view(a.dtype) if isinstance(r, np.ndarray) else np.asarray(r).view(a.dtype)[()]


def _lshr_odd(a, b, bits):
    a = np.asarray(a)
    mask = (1 << bits) - 1
    ua = unsigned(a) & np.asarray(mask).astype(UNSIGNED[a.dtype])
    return np.right_shift(ua, (np.asarray(b) % bits).astype(ua.dtype)).view(a.dtype)


FLOAT_BINARY = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply, "fdiv": np.divide, "frem": np.fmod}


def icmp(pred: str):
    if pred in ("eq", "ne", "sgt", "sge", "slt", "sle"):
        return {"eq": np.equal, "ne": np.not_equal, "sgt": np.greater, "sge": np.greater_equal,
                "slt": np.less, "sle": np.less_equal}[pred]
    f = {"ugt": np.greater, "uge": np.greater_equal, "ult": np.less, "ule": np.less_equal}[pred]
    return lambda a, b: f(unsigned(a), unsigned(b))


def fcmp(pred: str):
    isn = np.isnan
    table = {
        "false": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
        "true": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
        "oeq": np.equal, "ogt": np.greater, "oge": np.greater_equal, "olt": np.less, "ole": np.less_equal,
        "one": lambda a, b: (a != b) & ~isn(a) & ~isn(b),
        "ord": lambda a, b: ~isn(a) & ~isn(b),
        "uno": lambda a, b: isn(a) | isn(b),
        "ueq": lambda a, b: (a == b) | isn(a) | isn(b),
        "une": np.not_equal,
        "ugt": lambda a, b: ~(a <= b), "uge": lambda a, b: ~(a < b),
        "ult": lambda a, b: ~(a >= b), "ule": lambda a, b: ~(a > b),
    }
    return table[pred]


def cast(op: str, src_dtype: np.dtype, dst_dtype: np.dtype, src_bits: int, dst_bits: int):
    """Function x -> converted value for an LLVM cast opcode."""
    if op == "trunc":
        if dst_bits == 1:
            return lambda x: (np.asarray(x) & 1).astype(bool)
        return lambda x: normalize(np.asarray(x).astype(dst_dtype), dst_bits)
    if op == "zext":
        if src_bits == 1:
            return lambda x: np.asarray(x).astype(dst_dtype)
        if src_bits in (8, 16, 32, 64):
            return lambda x: unsigned(x).astype(dst_dtype)
        mask = (1 << src_bits) - 1
        return lambda x: (np.asarray(x).astype(np.int64) & mask).astype(dst_dtype)
    if op == "sext":
        if src_bits == 1:
            return lambda x: -(np.asarray(x).astype(dst_dtype))
        return lambda x: np.asarray(x).astype(dst_dtype)
    if op in ("fptrunc", "fpext"):
        return lambda x: np.asarray(x).astype(dst_dtype)
    if op == "fptosi":
        if dst_bits == 1:
            return lambda x: np.asarray(x) != 0
        return lambda x: _float_to_int(x, dst_dtype)
    if op == "fptoui":
        if dst_bits == 1:
            return lambda x: np.asarray(x) != 0
        udt = UNSIGNED[dst_dtype]
        return lambda x: _float_to_int(x, udt).view(dst_dtype)
    if op == "sitofp":
        return lambda x: np.asarray(x).astype(dst_dtype)
    if op == "uitofp":
        if src_bits == 1:
            return lambda x: np.asarray(x).astype(dst_dtype)
        return lambda x: _uint_to_float(x, dst_dtype)
    if op in ("ptrtoint", "inttoptr"):
        if dst_bits == 64 or op == "inttoptr":
            return lambda x: np.asarray(x).astype(dst_dtype, copy=True)
        return lambda x: normalize(np.asarray(x).astype(dst_dtype), dst_bits)
    if op == "addrspacecast":
        return lambda x: np.array(x, copy=True)
    raise KeyError(op)


def _float_to_int(x, dt):
    x = np.asarray(x)
    info = np.iinfo(dt)
    with np.errstate(invalid="ignore"):
        y = np.where(np.isfinite(x), np.clip(np.trunc(x), info.min, info.max), 0)
    return y.astype(dt)


def _uint_to_float(x, dt):
    """Unsigned integer -> float: reinterpret the bits as unsigned, then one correctly rounded cast."""
    return unsigned(np.asarray(x)).astype(dt)
