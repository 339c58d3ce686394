"""OpenCL C built-in functions, dispatched on their demangled base name and parameter types."""

from __future__ import annotations

import re

import numpy as np

from simu.errors import UnsupportedError
from simu.interp import arith, mathlib
from simu.interp.builtins import _lanes_attr, _math_op, _put
from simu.interp.compiler import Compiler, Wait, _where
from simu.interp.mangle import is_unsigned
from simu.interp.values import UNSIGNED, scalar_dtype
from simu.ir import Instr
from simu.ir.types import VectorType

WORK_ITEM = {"get_local_id": "tid", "get_group_id": "ctaid", "get_local_size": "ntid", "get_num_groups": "nctaid",
             "get_global_id": "gid", "get_global_size": "gsize", "get_enqueued_local_size": "ntid"}
CLK_LOCAL, CLK_GLOBAL = 1, 2


def _axis_getter(kind, axis_g, dt):
    fns = [_lanes_attr(kind, a, dt) for a in range(3)]

    def f(st, lanes, sel):
        ax = np.asarray(axis_g(st, sel))
        if ax.ndim == 0:
            a = int(ax)
            if 0 <= a < 3:
                return fns[a](st, lanes, sel)
            return np.full(len(lanes), 1 if kind in ("ntid", "nctaid", "gsize") else 0, dt)
        return fns[int(ax[0])](st, lanes, sel)
    return f


def compile_opencl(c: Compiler, ins: Instr, base: str, ptypes: tuple[str, ...], args, dst, proto):
    dt = scalar_dtype(ins.type) if dst is not None and not isinstance(proto, list) else None
    if base in WORK_ITEM:
        return _put(dst, proto, _axis_getter(WORK_ITEM[base], args[0], dt))
    if base == "get_work_dim":
        return _put(dst, proto, lambda st, lanes, sel: np.full(len(lanes), 3 if st.launch.grid[2] * st.launch.block[2] > 1
                                                               else 2 if st.launch.grid[1] * st.launch.block[1] > 1 else 1, dt))
    if base == "get_global_offset":
        return _put(dst, proto, lambda st, lanes, sel: np.zeros(len(lanes), dt))
    if base == "get_local_linear_id":
        return _put(dst, proto, lambda st, lanes, sel: st.local[sel].astype(dt))
    if base in ("barrier", "work_group_barrier"):
        flags = ins.ops[0]
        if flags.kind != "const":
            raise UnsupportedError("barrier with run-time fence flags", _where(ins))
        fl = int(flags.value)
        spaces = tuple(s for s, bit in ((0, CLK_GLOBAL), (1, CLK_LOCAL)) if fl & bit)
        iid = ins.id
        return lambda st, lanes, sel: Wait(iid, spaces)
    if base.startswith("sub_group_") or base.startswith("get_sub_group") or base in (
            "get_num_sub_groups", "get_max_sub_group_size", "get_enqueued_num_sub_groups"):
        op = _sub_group(ins, base, ptypes, args, dst, proto, dt)
        if op is not None:
            return op
    if base in ("mem_fence", "read_mem_fence", "write_mem_fence", "atomic_work_item_fence"):
        return lambda st, lanes, sel: None
    if base.startswith("atomic_") or base.startswith("atom_"):
        return _atomic(c, ins, base.split("_", 1)[1], ptypes, args, dst, proto)
    if re.fullmatch(r"vload(\d+)", base) or base in ("vload_half",) or re.fullmatch(r"vloada?_half\d*", base):
        return _vload(ins, base, args, dst, proto)
    if re.fullmatch(r"vstore(\d+)", base) or base.startswith("vstore_half") or base.startswith("vstorea_half"):
        return _vstore(ins, base, args)
    if base.startswith("convert_"):
        return _convert(ins, base, ptypes, args, dst, proto)
    if base.startswith("as_"):
        return None
    unsigned = bool(ptypes) and is_unsigned(ptypes[0])
    f = _INTEGER.get(base)
    if f is not None and dt is not None and dt.kind in "iub":
        gs = args
        return _put(dst, proto, lambda st, lanes, sel: f(unsigned, dt, *[np.asarray(g(st, sel)) for g in gs]))
    f = _COMMON.get(base)
    if f is not None:
        gs = args
        fdt = dt if dt is not None and dt.kind == "f" else (scalar_dtype(ins.ops[0].type) if ins.ops else None)
        return _put(dst, proto, lambda st, lanes, sel: f(fdt, dt, *[np.asarray(g(st, sel)) for g in gs]))
    if base == "mad" and dt is not None and dt.kind == "f":
        a, b, cc = args
        return _put(dst, proto, lambda st, lanes, sel: mathlib.mad(a(st, sel), b(st, sel), cc(st, sel), dt))
    if base in _POINTER_OUT:
        return _pointer_out(ins, base, args, dst, proto, dt)
    if base in ("ilogb",):
        a = args[0]
        return _put(dst, proto, lambda st, lanes, sel: np.where(np.asarray(a(st, sel)) == 0, np.iinfo(np.int32).min,
                                                               np.frexp(np.asarray(a(st, sel), np.float64))[1] - 1).astype(dt))
    if dt is not None and dt.kind == "f" and mathlib.lookup(base):
        return _math_op(base if not base.startswith(("native_", "half_")) else base.split("_", 1)[1], args, dt, dst, proto)
    if base in ("printf",):
        return lambda st, lanes, sel: None
    return None


def _frexp(x):
    m, e = np.frexp(np.asarray(x, np.float64))
    return m, e.astype(np.int32)


def _fract(x):
    x = np.asarray(x, np.float64)
    fl = np.floor(x)
    return np.fmin(x - fl, 0.99999994039535522), fl  # 0x1.fffffep-1f: never rounds up to 1


def _remquo(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    q = np.rint(x / y)
    return x - q * y, (np.asarray(q, np.int64) & 0x7F * np.sign(q).astype(np.int64)).astype(np.int32)


# name -> (function returning (result, value stored through the last pointer argument), arity of inputs)
_POINTER_OUT = {
    "sincos": (lambda x: (np.sin(np.asarray(x, np.float64)), np.cos(np.asarray(x, np.float64))), 1),
    "frexp": (_frexp, 1),
    "modf": (lambda x: (np.modf(np.asarray(x, np.float64))[0], np.modf(np.asarray(x, np.float64))[1]), 1),
    "fract": (_fract, 1),
    "remquo": (_remquo, 2),
    "lgamma_r": (lambda x: (mathlib.UNARY["lgamma"](x), np.where(np.asarray(x) < 0, -1, 1).astype(np.int32)), 1),
}


def _pointer_out(ins, base, args, dst, proto, dt):
    fn, arity = _POINTER_OUT[base]
    ins_args, ptr = args[:arity], args[arity]
    out_t = ins.ops[arity].type
    iid = ins.id
    stored_is_int = base in ("frexp", "remquo", "lgamma_r")
    count = ins.type.count if isinstance(ins.type, VectorType) else 1

    def op(st, lanes, sel):
        with np.errstate(all="ignore"):
            res, aux = fn(*[np.asarray(g(st, sel)) for g in ins_args])
        sdt = np.dtype(np.int32) if stored_is_int else dt
        st.store(lanes, ptr(st, sel), np.asarray(aux).astype(sdt), sdt, count, iid)
        return np.asarray(res).astype(dt)
    return _put(dst, proto, op)


def _sub_group(ins, base, ptypes, args, dst, proto, dt):
    """OpenCL sub-groups are the machine's warps (consecutive local ids of warp-size lanes)."""
    if base == "get_sub_group_size" or base == "get_max_sub_group_size":
        return _put(dst, proto, lambda st, lanes, sel: np.minimum(st.ws, st.tpb - (st.local[lanes] - st.lane_in_warp[lanes])).astype(dt))
    if base == "get_sub_group_local_id":
        return _put(dst, proto, lambda st, lanes, sel: st.lane_in_warp[lanes].astype(dt))
    if base == "get_sub_group_id":
        return _put(dst, proto, lambda st, lanes, sel: (st.local[lanes] // st.ws).astype(dt))
    if base in ("get_num_sub_groups", "get_enqueued_num_sub_groups"):
        return _put(dst, proto, lambda st, lanes, sel: np.full(len(lanes), st.warps_per_block, dt))
    if base == "sub_group_barrier":
        def sub_group_barrier(st, lanes, sel):
            st.bump_warp_epoch(lanes)
        return sub_group_barrier
    unsigned = bool(ptypes) and is_unsigned(ptypes[0])
    m = re.fullmatch(r"sub_group_(reduce|scan_inclusive|scan_exclusive)_(add|min|max)", base)
    if m:
        mode, op = m.groups()
        val = args[0]

        def collective(st, lanes, sel):
            v = np.broadcast_to(np.asarray(val(st, sel)), lanes.shape)
            work = arith.unsigned(v) if unsigned and v.dtype.kind == "i" else v
            warp = st.warp_of[lanes]
            out = np.empty(len(lanes), work.dtype)
            for w in np.unique(warp):  # one step per warp present in the group
                k = warp == w
                x = work[k]
                if mode == "reduce":
                    r = {"add": np.sum, "min": np.min, "max": np.max}[op](x)
                    out[k] = r
                else:
                    acc = {"add": np.cumsum, "min": np.minimum.accumulate, "max": np.maximum.accumulate}[op](x)
                    if mode == "scan_exclusive":
                        ident = 0 if op == "add" else (np.iinfo(x.dtype).max if op == "min" and x.dtype.kind in "iu"
                                                       else np.iinfo(x.dtype).min if x.dtype.kind in "iu"
                                                       else (np.inf if op == "min" else -np.inf))
                        acc = np.concatenate([[ident], acc[:-1]])
                    out[k] = acc
            return out.astype(work.dtype).view(dt) if out.dtype.itemsize == dt.itemsize else out.astype(dt)
        return _put(dst, proto, collective)
    if base in ("sub_group_broadcast",):
        val, idx = args

        def broadcast(st, lanes, sel):
            v = np.broadcast_to(np.asarray(val(st, sel)), lanes.shape)
            j = np.broadcast_to(np.asarray(idx(st, sel)).astype(np.int64), lanes.shape)
            full = np.zeros(st.T, v.dtype)
            full[lanes] = v
            src = np.clip(st.warp_base[lanes] + j, 0, st.T - 1)
            return full[src]
        return _put(dst, proto, broadcast)
    if base in ("sub_group_any", "sub_group_all"):
        from simu.interp.builtins import _ballot

        pred = args[0]

        def vote(st, lanes, sel):
            p = np.broadcast_to(np.asarray(pred(st, sel)) != 0, lanes.shape)
            bal = _ballot(st, lanes, p)
            act = _ballot(st, lanes, np.ones(len(lanes), bool))
            return ((bal != 0) if base == "sub_group_any" else (bal == act)).astype(dt)
        return _put(dst, proto, vote)
    return None


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


def _hadd(rounding):
    def f(unsigned, dt, a, b):
        wa = _as_unsigned(a, unsigned).astype(object if dt.itemsize == 8 else np.int64)
        wb = _as_unsigned(b, unsigned).astype(object if dt.itemsize == 8 else np.int64)
        r = (wa + wb + rounding) >> 1
        return np.asarray(r).astype(UNSIGNED[dt] if unsigned else dt)
    return f


_INTEGER = {
    "min": _int_minmax(np.minimum), "max": _int_minmax(np.maximum), "clamp": _clamp,
    "mul_hi": _mul_hi, "add_sat": _sat(lambda a, b: a + b), "sub_sat": _sat(lambda a, b: a - b),
    "rotate": _rotate, "clz": _clz, "popcount": _popcount, "abs": _abs,
    "abs_diff": lambda u, dt, a, b: np.asarray(np.abs(_as_unsigned(a, u).astype(np.int64) - _as_unsigned(b, u).astype(np.int64))).astype(UNSIGNED[dt]).view(dt),
    "hadd": _hadd(0), "rhadd": _hadd(1),
    "mad24": lambda u, dt, a, b, c: (a * b + c).astype(dt), "mul24": lambda u, dt, a, b: (a * b).astype(dt),
    "mad_hi": lambda u, dt, a, b, c: (_mul_hi(u, dt, a, b) + c).astype(dt),
    "mad_sat": lambda u, dt, a, b, c: _sat(lambda x, y: x + y)(u, dt, (a.astype(np.int64) * b).astype(np.int64), c),
    "upsample": lambda u, dt, hi, lo: ((hi.astype(dt) << (dt.itemsize * 4)) | arith.unsigned(lo).astype(dt)),
    "select": lambda u, dt, a, b, c: np.where(_select_condition(a, c), b, a).astype(dt),
    "bitselect": lambda u, dt, a, b, c: ((a & ~c) | (b & c)).astype(dt),
}


def _f(fdt, x):
    return np.asarray(x, np.float64)


def _select_condition(a, c):
    """OpenCL select: vectors test the most significant bit of c, scalars test c != 0."""
    return (c < 0) if (np.ndim(a) >= 2 and c.dtype.kind in "iu") else (c != 0)


def _select_float(fdt, dt, a, b, c):
    return np.where(_select_condition(a, c), b, a).astype(dt)


def _rel(op, vector_true=-1):
    def f(fdt, dt, *xs):
        r = op(*xs)
        if np.ndim(xs[0]) >= 2:
            return np.where(r, vector_true, 0).astype(dt)
        return np.asarray(r).astype(dt)
    return f


def _smoothstep(fdt, dt, e0, e1, x):
    t = np.clip((x.astype(np.float64) - e0) / (np.asarray(e1, np.float64) - e0), 0, 1)
    return (t * t * (3 - 2 * t)).astype(dt)


_COMMON = {
    "mix": lambda fdt, dt, x, y, a: (x + (y - x) * a).astype(dt),
    "step": lambda fdt, dt, e, x: np.where(x < e, 0.0, 1.0).astype(dt),
    "smoothstep": _smoothstep,
    "sign": lambda fdt, dt, x: np.where(np.isnan(x), 0.0, np.sign(x)).astype(dt),
    "degrees": lambda fdt, dt, x: (x.astype(np.float64) * (180.0 / np.pi)).astype(dt),
    "radians": lambda fdt, dt, x: (x.astype(np.float64) * (np.pi / 180.0)).astype(dt),
    "clamp": lambda fdt, dt, x, lo, hi: np.fmin(np.fmax(x, lo), hi).astype(dt),
    "max": lambda fdt, dt, a, b: np.fmax(a, b).astype(dt), "min": lambda fdt, dt, a, b: np.fmin(a, b).astype(dt),
    "dot": lambda fdt, dt, a, b: (a * b).sum(axis=-1).astype(dt) if np.ndim(a) >= 2 else (a * b).astype(dt),
    "length": lambda fdt, dt, a: np.sqrt((a.astype(np.float64) ** 2).sum(axis=-1) if np.ndim(a) >= 2 else a.astype(np.float64) ** 2).astype(dt),
    "fast_length": lambda fdt, dt, a: np.sqrt((a.astype(np.float64) ** 2).sum(axis=-1) if np.ndim(a) >= 2 else a.astype(np.float64) ** 2).astype(dt),
    "distance": lambda fdt, dt, a, b: np.sqrt(((a.astype(np.float64) - b) ** 2).sum(axis=-1) if np.ndim(a) >= 2 else (a.astype(np.float64) - b) ** 2).astype(dt),
    "normalize": lambda fdt, dt, a: (a / np.sqrt((a.astype(np.float64) ** 2).sum(axis=-1, keepdims=True) if np.ndim(a) >= 2 else a.astype(np.float64) ** 2)).astype(dt),
    "cross": lambda fdt, dt, a, b: _cross(a, b).astype(dt),
    "isnan": _rel(np.isnan), "isinf": _rel(np.isinf), "isfinite": _rel(np.isfinite),
    "isnormal": _rel(lambda x: np.isfinite(x) & (np.abs(x) >= np.finfo(x.dtype).tiny)),
    "signbit": _rel(np.signbit),
    "isequal": _rel(lambda a, b: a == b), "isnotequal": _rel(lambda a, b: a != b),
    "isgreater": _rel(lambda a, b: a > b), "isgreaterequal": _rel(lambda a, b: a >= b),
    "isless": _rel(lambda a, b: a < b), "islessequal": _rel(lambda a, b: a <= b),
    "islessgreater": _rel(lambda a, b: (a < b) | (a > b)),
    "isordered": _rel(lambda a, b: ~np.isnan(a) & ~np.isnan(b)), "isunordered": _rel(lambda a, b: np.isnan(a) | np.isnan(b)),
    "any": lambda fdt, dt, x: np.asarray((x < 0).any(axis=-1) if np.ndim(x) >= 2 else x < 0).astype(dt),
    "all": lambda fdt, dt, x: np.asarray((x < 0).all(axis=-1) if np.ndim(x) >= 2 else x < 0).astype(dt),
    "select": _select_float,
    "bitselect": lambda fdt, dt, a, b, c: _bitselect_float(a, b, c).astype(dt),
    "maxmag": lambda fdt, dt, a, b: np.where(np.abs(a) > np.abs(b), a, np.where(np.abs(b) > np.abs(a), b, np.fmax(a, b))).astype(dt),
    "minmag": lambda fdt, dt, a, b: np.where(np.abs(a) < np.abs(b), a, np.where(np.abs(b) < np.abs(a), b, np.fmin(a, b))).astype(dt),
}


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


def _atomic(c, ins, op, ptypes, args, dst, proto):
    from simu.interp.instructions import RMW

    dt = scalar_dtype(ins.type) if dst is not None else scalar_dtype(ins.ops[1].type)
    unsigned = bool(ptypes) and is_unsigned(ptypes[0].rstrip("*"))
    iid = ins.id
    ptr = args[0]
    names = {"add": "add", "sub": "sub", "xchg": "xchg", "and": "and", "or": "or", "xor": "xor",
             "min": "umin" if unsigned else "min", "max": "umax" if unsigned else "max"}
    if op in ("inc", "dec"):
        one = np.asarray(1, dt)
        f = RMW["add" if op == "inc" else "sub"]
        body = lambda st, lanes, sel: st.atomic(lanes, ptr(st, sel), f, one, dt, iid)
    elif op == "cmpxchg":
        cmp_g, new_g = args[1], args[2]
        body = lambda st, lanes, sel: st.atomic(lanes, ptr(st, sel), lambda o, n, cc: np.where(o == cc, n, o),
                                                new_g(st, sel), dt, iid, cmp=cmp_g(st, sel))
    elif op in names:
        f = RMW[names[op]]
        if dt.kind == "f" and op == "xchg":
            f = RMW["xchg"]
        val = args[1]
        body = lambda st, lanes, sel: st.atomic(lanes, ptr(st, sel), f, val(st, sel), dt, iid)
    elif op in ("load", "store", "init", "fetch_add", "fetch_sub", "fetch_or", "fetch_and", "fetch_xor",
                "fetch_min", "fetch_max", "exchange"):
        return _c11_atomic(ins, op, unsigned, args, dst, proto, dt)
    else:
        return None
    if dst is None:
        return lambda st, lanes, sel: (body(st, lanes, sel), None)[1]
    return _put(dst, proto, body)


def _c11_atomic(ins, op, unsigned, args, dst, proto, dt):
    from simu.interp.instructions import RMW

    iid = ins.id
    ptr = args[0]
    if op == "load":
        return _put(dst, proto, lambda st, lanes, sel: st.atomic(lanes, ptr(st, sel), lambda o, v: o, np.asarray(0, dt), dt, iid))
    if op in ("store", "init"):
        val = args[1]
        return lambda st, lanes, sel: (st.atomic(lanes, ptr(st, sel), RMW["xchg"], val(st, sel), dt, iid), None)[1]
    name = {"fetch_add": "add", "fetch_sub": "sub", "fetch_or": "or", "fetch_and": "and", "fetch_xor": "xor",
            "fetch_min": "umin" if unsigned else "min", "fetch_max": "umax" if unsigned else "max",
            "exchange": "xchg"}[op]
    val = args[1]
    body = lambda st, lanes, sel: st.atomic(lanes, ptr(st, sel), RMW[name], val(st, sel), dt, iid)
    if dst is None:
        return lambda st, lanes, sel: (body(st, lanes, sel), None)[1]
    return _put(dst, proto, body)


def _vload(ins, base, args, dst, proto):
    iid = ins.id
    off_g, ptr_g = args[0], args[1]
    if "half" in base:
        n = int(re.sub(r"\D", "", base) or 1)
        aligned = base.startswith("vloada")
        step = (4 if n == 3 else n) if aligned else n

        def vload_half(st, lanes, sel):
            off = np.asarray(off_g(st, sel)).astype(np.int64)
            p = np.asarray(ptr_g(st, sel), np.int64) + off * step * 2
            v = st.load(lanes, p, np.dtype(np.float16), n, iid)
            return v.astype(np.float32)
        return _put(dst, proto, vload_half)
    n = int(base[5:])
    edt = scalar_dtype(ins.type)
    esize = edt.itemsize

    def vload(st, lanes, sel):
        off = np.asarray(off_g(st, sel)).astype(np.int64)
        p = np.asarray(ptr_g(st, sel), np.int64) + off * (n * esize)
        return st.load(lanes, p, edt, n, iid)
    return _put(dst, proto, vload)


def _vstore(ins, base, args):
    iid = ins.id
    val_g, off_g, ptr_g = args[0], args[1], args[2]
    vt = ins.ops[0].type
    n = vt.count if isinstance(vt, VectorType) else 1
    if "half" in base:
        aligned = base.startswith("vstorea")
        step = (4 if n == 3 else n) if aligned else n
        mode = base.split("_")[-1] if base.split("_")[-1] in ("rte", "rtz", "rtp", "rtn") else "rte"

        def vstore_half(st, lanes, sel):
            off = np.asarray(off_g(st, sel)).astype(np.int64)
            p = np.asarray(ptr_g(st, sel), np.int64) + off * step * 2
            v = np.asarray(val_g(st, sel)).astype(np.float16)  # round to nearest even
            st.store(lanes, p, v, np.dtype(np.float16), n, iid)
        return vstore_half
    edt = scalar_dtype(vt)
    esize = edt.itemsize

    def vstore(st, lanes, sel):
        off = np.asarray(off_g(st, sel)).astype(np.int64)
        p = np.asarray(ptr_g(st, sel), np.int64) + off * (n * esize)
        st.store(lanes, p, np.asarray(val_g(st, sel)), edt, n, iid)
    return vstore


def _convert(ins, base, ptypes, args, dst, proto):
    m = re.fullmatch(r"convert_([a-z]+?)(\d*)(_sat)?(_rte|_rtz|_rtp|_rtn)?", base)
    if not m:
        return None
    sat, rnd = bool(m.group(3)), (m.group(4) or "")[1:]
    src_t = ins.ops[0].type
    sdt = scalar_dtype(src_t)
    ddt = scalar_dtype(ins.type)
    src_unsigned = bool(ptypes) and is_unsigned(ptypes[0])
    dst_unsigned = m.group(1) in ("uchar", "ushort", "uint", "ulong")
    a = args[0]

    def convert(st, lanes, sel):
        x = np.asarray(a(st, sel))
        if src_unsigned and sdt.kind in "iu":
            x = arith.unsigned(x)
        if ddt.kind == "f":
            f = x.astype(ddt)
            if rnd in ("rtz", "rtp", "rtn") and sdt.kind in "iu":
                f = _directed_int_to_float(x, f, rnd)
            return f
        tgt = UNSIGNED[ddt] if dst_unsigned else ddt
        if sdt.kind == "f":
            xf = x.astype(np.float64)
            xf = {"rte": np.rint, "rtp": np.ceil, "rtn": np.floor}.get(rnd, np.trunc)(xf)
            info = np.iinfo(tgt)
            if sat:
                xf = np.where(np.isnan(xf), 0, np.clip(xf, info.min, info.max))
                return _exact_float_to_int(xf, tgt).view(ddt)
            with np.errstate(invalid="ignore"):
                return np.where(np.isfinite(xf), np.clip(xf, info.min, info.max), 0).astype(tgt).view(ddt)
        if sat:
            info = np.iinfo(tgt)
            xi = x.astype(object) if x.dtype.itemsize == 8 else x.astype(np.int64)
            if x.dtype == np.uint64 or x.dtype.itemsize == 8:
                xo = np.asarray([min(max(int(v), info.min), info.max) for v in np.ravel(x)], dtype=object).reshape(x.shape)
                return xo.astype(tgt).view(ddt)
            return np.clip(xi, info.min, info.max).astype(tgt).view(ddt)
        return x.astype(tgt).view(ddt)
    return _put(dst, proto, convert)


def _directed_int_to_float(x, f, rnd):
    """Correct a round-to-nearest int->float conversion to round toward zero / +inf / -inf."""
    lim = np.float64(2.0 ** 63)
    back = np.where(np.abs(f.astype(np.float64)) < lim, f.astype(np.float64), 0).astype(np.int64) if x.dtype != np.uint64 \
        else f.astype(np.float64).astype(np.uint64)
    xi = x.astype(np.int64) if x.dtype != np.uint64 else x
    too_big = back > xi
    too_small = back < xi
    if rnd == "rtz":
        down = too_big & (xi >= 0)
        up = too_small & (xi < 0)
    elif rnd == "rtp":
        down, up = np.zeros_like(too_big), too_small
    else:
        down, up = too_big, np.zeros_like(too_small)
    f = np.where(down, np.nextafter(f, np.array(-np.inf, f.dtype)), f)
    return np.where(up, np.nextafter(f, np.array(np.inf, f.dtype)), f).astype(f.dtype)


def _exact_float_to_int(xf, tgt):
    info = np.iinfo(tgt)
    if info.bits == 64:
        # float64 cannot hold 2**63-1: saturate explicitly at the ends
        hi = xf >= 2.0 ** (63 if info.min < 0 else 64)
        out = np.where(hi, 0, xf).astype(tgt)
        out[hi] = info.max
        return out
    return xf.astype(tgt)
