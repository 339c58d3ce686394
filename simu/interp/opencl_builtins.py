"""Translators for OpenCL C built-in functions, by demangled base name: OPENCL_BUILTINS, OPENCL_PATTERNS.

The compiler demangles a callee (mangle.py) and looks its base name up in OPENCL_BUILTINS, then in
OPENCL_PATTERNS (the first that matches), else it uses :func:`opencl_math`.  A translator gets
``(ins, base, ptypes, args, dst, proto, dt)``: ``ptypes`` are the parameter type codes and ``dt``
the result's lane dtype (None for void and aggregate results); it returns an op, or None.
"""

from __future__ import annotations

import re

import numpy as np

from simu.errors import UnsupportedError
from simu.interp import arith, mathlib
from simu.interp.mangle import is_unsigned
from simu.interp.opencl_async import ASYNC_BUILTINS
from simu.interp.opencl_images import IMAGE_BUILTINS
from simu.interp.opencl_math import COMMON, INTEGER, POINTER_OUT
from simu.interp.program import RMW, OpenCLTranslator, Wait, ballot, lanes_attr, math_op, put, table, where
from simu.interp.values import UNSIGNED, scalar_dtype
from simu.ir.types import VectorType

WORK_ITEM = {"get_local_id": "tid", "get_group_id": "ctaid", "get_local_size": "ntid", "get_num_groups": "nctaid",
             "get_global_id": "gid", "get_global_size": "gsize", "get_enqueued_local_size": "ntid"}
CLK_LOCAL, CLK_GLOBAL = 1, 2


# --- work-items and synchronisation ------------------------------------------------------------------

def _axis_getter(kind, axis_g, dt):
    fns = [lanes_attr(kind, a, dt) for a in range(3)]

    def f(st, lanes, sel):
        ax = np.asarray(axis_g(st, sel))
        if ax.ndim == 0:
            a = int(ax)
            if 0 <= a < 3:
                return fns[a](st, lanes, sel)
            return np.full(len(lanes), 1 if kind in ("ntid", "nctaid", "gsize") else 0, dt)
        return fns[int(ax[0])](st, lanes, sel)
    return f


def _work_item(ins, base, ptypes, args, dst, proto, dt):
    return put(dst, proto, _axis_getter(WORK_ITEM[base], args[0], dt))


def _work_dim(ins, base, ptypes, args, dst, proto, dt):
    def work_dim(st, lanes, sel):
        grid, block = st.launch.grid, st.launch.block
        return np.full(len(lanes), 3 if grid[2] * block[2] > 1 else 2 if grid[1] * block[1] > 1 else 1, dt)
    return put(dst, proto, work_dim)


def _global_offset(ins, base, ptypes, args, dst, proto, dt):
    return put(dst, proto, lambda st, lanes, sel: np.zeros(len(lanes), dt))


def _local_linear_id(ins, base, ptypes, args, dst, proto, dt):
    return put(dst, proto, lambda st, lanes, sel: st.local[sel].astype(dt))


def _barrier(ins, base, ptypes, args, dst, proto, dt):
    flags = ins.ops[0]
    if flags.kind != "const":
        raise UnsupportedError("barrier with run-time fence flags", where(ins))
    fl = int(flags.value)
    spaces = tuple(s for s, bit in ((0, CLK_GLOBAL), (1, CLK_LOCAL)) if fl & bit)
    iid = ins.id
    return lambda st, lanes, sel: Wait(iid, spaces)


def _noop(ins, base, ptypes, args, dst, proto, dt):
    return lambda st, lanes, sel: None


def _sub_group(ins, base, ptypes, args, dst, proto, dt):
    """OpenCL sub-groups are the machine's warps (consecutive local ids of warp-size lanes)."""
    if base == "get_sub_group_size" or base == "get_max_sub_group_size":
        def size(st, lanes, sel):
            return np.minimum(st.ws, st.tpb - (st.local[lanes] - st.lane_in_warp[lanes])).astype(dt)
        return put(dst, proto, size)
    if base == "get_sub_group_local_id":
        return put(dst, proto, lambda st, lanes, sel: st.lane_in_warp[lanes].astype(dt))
    if base == "get_sub_group_id":
        return put(dst, proto, lambda st, lanes, sel: (st.local[lanes] // st.ws).astype(dt))
    if base in ("get_num_sub_groups", "get_enqueued_num_sub_groups"):
        return put(dst, proto, lambda st, lanes, sel: np.full(len(lanes), st.warps_per_block, dt))
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
        return put(dst, proto, collective)
    if base in ("sub_group_broadcast",):
        val, idx = args

        def broadcast(st, lanes, sel):
            v = np.broadcast_to(np.asarray(val(st, sel)), lanes.shape)
            j = np.broadcast_to(np.asarray(idx(st, sel)).astype(np.int64), lanes.shape)
            full = np.zeros(st.T, v.dtype)
            full[lanes] = v
            src = np.clip(st.warp_base[lanes] + j, 0, st.T - 1)
            return full[src]
        return put(dst, proto, broadcast)
    if base in ("sub_group_any", "sub_group_all"):
        pred = args[0]

        def vote(st, lanes, sel):
            p = np.broadcast_to(np.asarray(pred(st, sel)) != 0, lanes.shape)
            bal = ballot(st, lanes, p)
            act = ballot(st, lanes, np.ones(len(lanes), bool))
            return ((bal != 0) if base == "sub_group_any" else (bal == act)).astype(dt)
        return put(dst, proto, vote)
    return None

# --- element-wise functions ------------------------------------------------------------------------

def _elementwise(ins, base, ptypes, args, dst, proto, dt):
    """INTEGER functions for integer results, else COMMON ones (opencl_math.py)."""
    unsigned = bool(ptypes) and is_unsigned(ptypes[0])
    f = INTEGER.get(base)
    if f is not None and dt is not None and dt.kind in "iub":
        gs = args
        return put(dst, proto, lambda st, lanes, sel: f(unsigned, dt, *[np.asarray(g(st, sel)) for g in gs]))
    f = COMMON.get(base)
    if f is not None:
        gs = args
        fdt = dt if dt is not None and dt.kind == "f" else (scalar_dtype(ins.ops[0].type) if ins.ops else None)
        return put(dst, proto, lambda st, lanes, sel: f(fdt, dt, *[np.asarray(g(st, sel)) for g in gs]))
    return None


def _mad(ins, base, ptypes, args, dst, proto, dt):
    if dt is not None and dt.kind == "f":
        a, b, cc = args
        return put(dst, proto, lambda st, lanes, sel: mathlib.mad(a(st, sel), b(st, sel), cc(st, sel), dt))
    return None


def _ilogb(ins, base, ptypes, args, dst, proto, dt):
    a = args[0]
    return put(dst, proto, lambda st, lanes, sel: np.where(np.asarray(a(st, sel)) == 0, np.iinfo(np.int32).min,
                                                           np.frexp(np.asarray(a(st, sel), np.float64))[1] - 1)
               .astype(dt))


def opencl_math(ins, base, ptypes, args, dst, proto, dt):
    """The math library (mathlib.py, with its native_/half_ forms) for any other floating-point built-in."""
    if dt is not None and dt.kind == "f" and mathlib.lookup(base):
        return math_op(base if not base.startswith(("native_", "half_")) else base.split("_", 1)[1], args, dt, dst,
                       proto)
    return None


def _pointer_out(ins, base, ptypes, args, dst, proto, dt):
    fn, arity = POINTER_OUT[base]
    ins_args, ptr = args[:arity], args[arity]
    iid = ins.id
    stored_is_int = base in ("frexp", "remquo", "lgamma_r")
    count = ins.type.count if isinstance(ins.type, VectorType) else 1

    def op(st, lanes, sel):
        with np.errstate(all="ignore"):
            res, aux = fn(*[np.asarray(g(st, sel)) for g in ins_args])
        sdt = np.dtype(np.int32) if stored_is_int else dt
        st.store(lanes, ptr(st, sel), np.asarray(aux).astype(sdt), sdt, count, iid)
        return np.asarray(res).astype(dt)
    return put(dst, proto, op)


# --- atomics, vector loads and stores, conversions ---------------------------------------------------

def _atomic(ins, base, ptypes, args, dst, proto, dt):
    op = base.split("_", 1)[1]
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
    return put(dst, proto, body)


def _c11_atomic(ins, op, unsigned, args, dst, proto, dt):
    iid = ins.id
    ptr = args[0]
    if op == "load":
        return put(dst, proto, lambda st, lanes, sel: st.atomic(lanes, ptr(st, sel), lambda o, v: o, np.asarray(0, dt),
                                                                 dt, iid))
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
    return put(dst, proto, body)


def _vload(ins, base, ptypes, args, dst, proto, dt):
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
        return put(dst, proto, vload_half)
    n = int(base[5:])
    edt = scalar_dtype(ins.type)
    esize = edt.itemsize

    def vload(st, lanes, sel):
        off = np.asarray(off_g(st, sel)).astype(np.int64)
        p = np.asarray(ptr_g(st, sel), np.int64) + off * (n * esize)
        return st.load(lanes, p, edt, n, iid)
    return put(dst, proto, vload)


def _vstore(ins, base, ptypes, args, dst, proto, dt):
    iid = ins.id
    val_g, off_g, ptr_g = args[0], args[1], args[2]
    vt = ins.ops[0].type
    n = vt.count if isinstance(vt, VectorType) else 1
    if "half" in base:
        aligned = base.startswith("vstorea")
        step = (4 if n == 3 else n) if aligned else n

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


def _convert(ins, base, ptypes, args, dst, proto, dt):
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
                xo = np.asarray([min(max(int(v), info.min), info.max) for v in np.ravel(x)],
                                dtype=object).reshape(x.shape)
                return xo.astype(tgt).view(ddt)
            return np.clip(xi, info.min, info.max).astype(tgt).view(ddt)
        return x.astype(tgt).view(ddt)
    return put(dst, proto, convert)


def _directed_int_to_float(x, f, rnd):
    """Correct a round-to-nearest int->float conversion to round toward zero / +inf / -inf."""
    lim = np.float64(2.0 ** 63)
    if x.dtype != np.uint64:
        back = np.where(np.abs(f.astype(np.float64)) < lim, f.astype(np.float64), 0).astype(np.int64)
    else:
        back = f.astype(np.float64).astype(np.uint64)
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


def _unsupported(ins, base, ptypes, args, dst, proto, dt):
    """as_<type> reinterpretations are bitcasts in the IR: a call to one is unsupported."""
    return None


# --- the tables ------------------------------------------------------------------------------------

# base name -> translator
OPENCL_BUILTINS: dict[str, OpenCLTranslator] = table([
    (WORK_ITEM, _work_item),
    (["get_work_dim"], _work_dim),
    (["get_global_offset"], _global_offset),
    (["get_local_linear_id"], _local_linear_id),
    (["barrier", "work_group_barrier"], _barrier),
    (["get_num_sub_groups", "get_max_sub_group_size", "get_enqueued_num_sub_groups"], _sub_group),
    (["mem_fence", "read_mem_fence", "write_mem_fence", "atomic_work_item_fence", "printf"], _noop),
    (sorted(INTEGER.keys() | COMMON.keys()), _elementwise),
    (["mad"], _mad),
    (POINTER_OUT, _pointer_out),
    (["ilogb"], _ilogb),
    *ASYNC_BUILTINS,
    *IMAGE_BUILTINS,
])

# (pattern matched against the whole base name, translator) for base names not in OPENCL_BUILTINS;
# the first match wins
OPENCL_PATTERNS: list[tuple[re.Pattern, OpenCLTranslator]] = [
    (re.compile(r"(?:sub_group_|get_sub_group).*"), _sub_group),
    (re.compile(r"(?:atomic|atom)_.*"), _atomic),
    (re.compile(r"vload\d+|vloada?_half\d*"), _vload),
    (re.compile(r"vstore\d+|vstorea?_half.*"), _vstore),
    (re.compile(r"convert_.*"), _convert),
    (re.compile(r"as_.*"), _unsupported),
]
