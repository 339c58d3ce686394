"""Translators for calls to CUDA-side built-ins: NVVM intrinsics, LLVM intrinsics, the CUDA runtime, libm.

The compiler (compiler.py) looks a callee up, in this order, in BUILTINS (exact names), INTRINSICS
(``llvm.<base>.*`` by base name) and BUILTIN_PATTERNS (the first that matches); OpenCL built-ins
are in opencl_builtins.py and :func:`libm` is the last resort.  A translator returns an
``op(st, lanes, sel)`` closure, or None when it does not handle the call (the compiler then
reports the callee as unsupported, naming the function and the source line).
"""

from __future__ import annotations

import re

import numpy as np

from simu.errors import NotLaunchableError, UnsupportedError
from simu.interp import arith, cuda_textures, mathlib
from simu.interp.grid_sync import GridWait
from simu.interp.program import (
    CallTranslator,
    Wait,
    ballot,
    lanes_attr,
    math_op,
    pair_op,
    put,
    result_dtype,
    table,
    where,
)
from simu.interp.state import RuntimeFault
from simu.interp.values import scalar_dtype
from simu.ir.types import FloatType, IntType, VectorType

# callee prefixes that need no op
NOOPS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias.scope.decl",
         "llvm.nvvm.membar", "llvm.nvvm.fence", "llvm.invariant.", "llvm.donothing", "llvm.sideeffect",
         "llvm.var.annotation", "llvm.ptr.annotation", "llvm.prefetch", "llvm.nvvm.prmt")

BOTH_SPACES = (0, 1)
NUM_SMS = 8  # %smid = linear block id % NUM_SMS (a fixed stand-in for the scheduler); %nsmid = NUM_SMS
TIMER_NS = 32  # %globaltimer: the machine step (never decreasing in a run) times TIMER_NS


# --- NVVM ----------------------------------------------------------------------------------------
# NVVM translators get ``dt``, the result's lane dtype (int32 for a void call).

def _nvvm(translate) -> CallTranslator:
    def translator(ins, name, args, dst, proto):
        return translate(ins, name, args, dst, proto, scalar_dtype(ins.type) if ins.name else np.int32)
    return translator


def _sreg(kind: str, axis: int) -> CallTranslator:
    return _nvvm(lambda ins, name, args, dst, proto, dt: put(dst, proto, lanes_attr(kind, axis, dt)))


def _warpsize(ins, name, args, dst, proto, dt):
    return put(dst, proto, lambda st, lanes, sel: np.full(len(lanes), st.ws, dt))


def _laneid(ins, name, args, dst, proto, dt):
    return put(dst, proto, lambda st, lanes, sel: st.lane_in_warp[sel].astype(dt))


def special_register(ins, reg: str, dst, proto):
    """The op reading PTX special register ``reg`` (``laneid``, ``smid``, ``clock64``, ...); None if unknown."""
    dt = scalar_dtype(ins.type) if isinstance(ins.type, IntType) else None
    if dt is None:
        return None
    m = re.fullmatch(r"(tid|ntid|ctaid|nctaid)\.([xyz])", reg)
    if m:
        return put(dst, proto, lanes_attr(m.group(1), "xyz".index(m.group(2)), dt))
    bits = ins.type.bits

    def wrap(v):
        return np.asarray(v, np.int64).astype(np.uint64).astype(dt) if bits == 64 else \
            (np.asarray(v, np.int64) & ((1 << bits) - 1)).astype(np.uint64).astype(np.uint32).view(np.int32).astype(dt)

    if reg == "laneid":
        return put(dst, proto, lambda st, lanes, sel: st.lane_in_warp[lanes].astype(dt))
    if reg == "warpid":
        return put(dst, proto, lambda st, lanes, sel: (st.local[lanes] // st.ws).astype(dt))
    if reg == "nwarpid":
        return put(dst, proto, lambda st, lanes, sel: np.full(len(lanes), st.warps_per_block, dt))
    if reg == "smid":
        return put(dst, proto, lambda st, lanes, sel: (st.block_of[lanes] % NUM_SMS).astype(dt))
    if reg == "nsmid":
        return put(dst, proto, lambda st, lanes, sel: np.full(len(lanes), NUM_SMS, dt))
    if reg in ("clock", "clock64"):
        return put(dst, proto, lambda st, lanes, sel: wrap(np.full(len(lanes), st.step, np.int64)))
    if reg in ("globaltimer", "globaltimer_lo"):
        return put(dst, proto, lambda st, lanes, sel: wrap(np.full(len(lanes), st.step * TIMER_NS, np.int64)))
    if reg == "globaltimer_hi":
        return put(dst, proto, lambda st, lanes, sel: wrap(np.full(len(lanes), (st.step * TIMER_NS) >> 32, np.int64)))
    if reg.startswith("lanemask_"):
        rel = reg[len("lanemask_"):]
        if rel not in ("eq", "lt", "le", "gt", "ge"):
            return None

        def lanemask(st, lanes, sel):
            lw = st.lane_in_warp[lanes].astype(np.int64)
            eq = np.left_shift(np.int64(1), lw)
            full = np.int64(0xFFFFFFFF)
            m = {"eq": eq, "lt": eq - 1, "le": (eq << 1) - 1, "gt": full & ~((eq << 1) - 1), "ge": full & ~(eq - 1)}
            return wrap(m[rel])
        return put(dst, proto, lanemask)
    return None


def _sreg_by_name(reg: str) -> CallTranslator:
    return lambda ins, name, args, dst, proto: special_register(ins, reg, dst, proto) if dst is not None else None


def _grid_sync(ins, name, args, dst, proto):
    """cooperative_groups grid_group::sync(): a barrier of every thread of the grid (see grid_sync.py)."""
    iid = ins.id
    return lambda st, lanes, sel: GridWait(iid, BOTH_SPACES)


def _activemask(ins, name, args, dst, proto, dt):
    return put(dst, proto, lambda st, lanes, sel: (ballot(st, lanes, np.ones(len(lanes), bool)) & 0xFFFFFFFF)
               .astype(np.uint32).view(np.int32))


def _barrier(ins, name, args, dst, proto, dt):
    if "warp.sync" in name:
        def syncwarp(st, lanes, sel):
            st.bump_warp_epoch(lanes)
        return syncwarp
    red = next((r for r in ("popc", "and", "or") if f".{r}" in name), None)
    iid = ins.id
    if red:
        pred = args[-1]
        return lambda st, lanes, sel: Wait(iid, BOTH_SPACES, (red, dst, np.asarray(pred(st, sel)) != 0))
    return lambda st, lanes, sel: Wait(iid, BOTH_SPACES)


def _shfl_sync(ins, name, args, dst, proto, dt):
    return _shfl(name.split(".")[4], args, dst, proto)


def _vote_sync(ins, name, args, dst, proto, dt):
    return _vote(name.split(".")[3], args[1], dst, proto)


def _match_sync(ins, name, args, dst, proto):
    """``__match_any_sync(mask, v)``: per lane, the lanes of ``mask`` in its warp (active ones) holding the same
    value; ``__match_all_sync(mask, v, &pred)``: ``mask`` and true when all of them hold one value, else 0 and
    false (the intrinsic returns both, as a struct)."""
    mask_arg, value = args[0], args[1]
    every = ".all." in name

    def match(st, lanes, sel):
        n = len(lanes)
        mask = np.broadcast_to(np.asarray(mask_arg(st, sel)).astype(np.int64) & 0xFFFFFFFF, (n,))
        v = np.broadcast_to(np.asarray(value(st, sel)), (n,)).astype(np.int64, copy=False)
        warp = st.warp_of[lanes]
        bit = np.left_shift(np.int64(1), st.lane_in_warp[lanes].astype(np.int64))
        _, group = np.unique(np.stack([warp.astype(np.int64), v]), axis=1, return_inverse=True)
        group = group.ravel()
        same = np.zeros(group.max() + 1 if n else 0, np.int64)
        np.bitwise_or.at(same, group, bit)
        got = same[group] & mask
        if not every:
            return got.astype(np.uint32).view(np.int32)
        active = ballot(st, lanes, np.ones(n, bool)) & mask  # the mask's lanes that hold a value
        ok = got == active
        return [np.where(ok, mask, 0).astype(np.uint32).view(np.int32), ok]
    return put(dst, proto, match)


def _shfl(mode, args, dst, proto):
    """CUDA __shfl*_sync: the shim encodes the width as ((32 - width) << 8) | clamp in operand c."""
    _, val, lane_arg, cval = args

    def shfl(st, lanes, sel):
        return shfl_lanes(mode, st, lanes, sel, val, lane_arg, cval)[0]
    if dst is None:
        return None
    return put(dst, proto, shfl)


def shfl_lanes(mode, st, lanes, sel, val, lane_arg, cval):
    """A warp shuffle's values and PTX predicate (the source lane is in range) for ``lanes``."""
    v = np.asarray(val(st, sel))
    v = np.broadcast_to(v, (len(lanes),) + v.shape[1:]) if v.ndim else np.broadcast_to(v, (len(lanes),))
    b = np.asarray(lane_arg(st, sel)).astype(np.int64)
    cc = np.asarray(cval(st, sel)).astype(np.int64)
    width = np.minimum(32 - (cc >> 8), st.ws)  # arithmetic shift: width 64 encodes as -32
    width = np.maximum(width, 1)
    lw = st.lane_in_warp[lanes]
    seg = lw - lw % width
    if mode == "idx":
        j = seg + b % width
        ok = np.ones(len(lanes), bool)
    elif mode == "up":
        j = lw - b
        ok = j >= seg
    elif mode == "down":
        j = lw + b
        ok = j < seg + width
    else:  # bfly
        j = lw ^ b
        ok = (j >= seg) & (j < seg + width)
    src = st.warp_base[lanes] + np.where(ok, j, lw)
    src_local = st.local[lanes] - lw + np.where(ok, j, lw)
    ok &= (src_local < st.tpb) & (src < st.T)
    src = np.where(ok, src, lanes)
    pos = np.full(st.T, -1, np.int64)
    pos[lanes] = np.arange(len(lanes))
    p = pos[src]
    p = np.where(p >= 0, p, np.arange(len(lanes)))  # inactive source: keep the own value
    return v[p], ok


def _vote(mode, pred, dst, proto):
    def vote(st, lanes, sel):
        p = np.broadcast_to(np.asarray(pred(st, sel)) != 0, (len(lanes),))
        bal = ballot(st, lanes, p)
        act = ballot(st, lanes, np.ones(len(lanes), bool))
        if mode == "ballot":
            return (bal & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
        if mode == "any":
            return bal != 0
        if mode == "all":
            return bal == act
        return (bal == act) | (bal == 0)
    return put(dst, proto, vote)


# --- LLVM intrinsics -------------------------------------------------------------------------------
# Intrinsic translators get the base name (``llvm.<base>.…``) and ``dt``, the result's lane dtype
# (None for void and aggregate results).

def _intrinsic(translate) -> CallTranslator:
    def translator(ins, name, args, dst, proto):
        return translate(ins, name.split(".")[1], args, dst, proto, result_dtype(ins, dst, proto))
    return translator


def _minmax(ins, base, args, dst, proto, dt):
    f = {"smin": np.minimum, "smax": np.maximum}.get(base)
    if f is None:
        g = np.minimum if base == "umin" else np.maximum
        f = lambda a, b: g(arith.unsigned(a), arith.unsigned(b)).view(np.asarray(a).dtype)
    a, b = args
    return put(dst, proto, lambda st, lanes, sel: f(a(st, sel), b(st, sel)))


def _saturating(ins, base, args, dst, proto, dt):
    """``llvm.{u,s}{add,sub}.sat``: the wrapped result, clamped where it overflowed (as -O1 emits for
    ``x > 0 ? x - 1 : 0``)."""
    a, b = args
    signed, op = base[0] == "s", base[1:4]

    def sat(st, lanes, sel):
        x, y = np.asarray(a(st, sel)), np.asarray(b(st, sel))
        dtype = x.dtype
        ux, uy = arith.unsigned(x), arith.unsigned(y)
        r = ux + uy if op == "add" else ux - uy  # wraps
        if not signed:
            limit = np.iinfo(ux.dtype).max if op == "add" else 0
            over = (r < ux) if op == "add" else (ux < uy)
            return np.where(over, ux.dtype.type(limit), r).view(dtype)
        sx, sy, sr = x < 0, y < 0, r.view(dtype) < 0
        over = (sx == sy) & (sr != sx) if op == "add" else (sx != sy) & (sr != sx)
        info = np.iinfo(dtype)
        return np.where(over, np.where(sx, dtype.type(info.min), dtype.type(info.max)), r.view(dtype))
    return put(dst, proto, sat)


def _abs(ins, base, args, dst, proto, dt):
    a = args[0]
    return put(dst, proto, lambda st, lanes, sel: np.abs(a(st, sel)))


def _fma(ins, base, args, dst, proto, dt):
    a, b, cc = args
    if dt == np.float32:
        return put(dst, proto, lambda st, lanes, sel: mathlib.fma32(a(st, sel), b(st, sel), cc(st, sel)))
    return put(dst, proto, lambda st, lanes, sel: mathlib.evaluate(mathlib.fma, (a(st, sel), b(st, sel),
                                                                                 cc(st, sel)), dt))


def _funnel_shift(ins, base, args, dst, proto, dt):
    bits = ins.type.bits if isinstance(ins.type, IntType) else ins.type.elem.bits
    a, b, s = args

    def fsh(st, lanes, sel):
        x = arith.unsigned(a(st, sel)).astype(np.uint64) & np.uint64((1 << bits) - 1)
        y = arith.unsigned(b(st, sel)).astype(np.uint64) & np.uint64((1 << bits) - 1)
        k = (np.asarray(s(st, sel)).astype(np.int64) % bits).astype(np.uint64)
        wide = (x << np.uint64(bits)) | y if bits < 64 else None
        if bits == 64:
            raise RuntimeFault("64-bit funnel shift", ins.id)
        r = (wide << k) >> np.uint64(bits) if base == "fshl" else (wide >> k)
        r = r & np.uint64((1 << bits) - 1)
        return arith.normalize(r.astype(np.int64).astype(dt), bits)
    return put(dst, proto, fsh)


def _trap(ins, base, args, dst, proto, dt):
    iid = ins.id

    def trap(st, lanes, sel):
        raise RuntimeFault("trap (__trap / __builtin_trap) executed", iid)
    return trap


def _stack(ins, base, args, dst, proto, dt):
    return put(dst, proto, lambda st, lanes, sel: np.zeros(len(lanes), np.int64)) if dst is not None else None


def _expect(ins, base, args, dst, proto, dt):
    a = args[0]
    return put(dst, proto, lambda st, lanes, sel: a(st, sel))


def _powi(ins, base, args, dst, proto, dt):
    a, b = args
    return put(dst, proto, lambda st, lanes, sel: mathlib.evaluate(np.power, (a(st, sel), b(st, sel)), dt))


def _round_to_int(ins, base, args, dst, proto, dt):
    a = args[0]
    f = mathlib.UNARY["round"] if "round" in base else np.rint
    return put(dst, proto, lambda st, lanes, sel: f(np.asarray(a(st, sel), np.float64)).astype(dt))


def _math(ins, base, args, dst, proto, dt):
    return math_op(base, args, dt, dst, proto)


def _math_pair(ins, base, args, dst, proto, dt):
    """``llvm.frexp``/``llvm.modf``/``llvm.sincos``/``llvm.sincospi``: both results as a two-field struct."""
    return pair_op(ins, base, args, dst, proto) if dst is not None else None


def _bitop(ins, base, args, dst, proto, dt):
    t = ins.type.elem if isinstance(ins.type, VectorType) else ins.type
    bits = t.bits
    dt = scalar_dtype(ins.type)
    a = args[0]

    def popcount(u):
        u = u.astype(np.uint64)
        n = np.zeros(u.shape, np.int64)
        for k in range(bits):
            n += ((u >> np.uint64(k)) & np.uint64(1)).astype(np.int64)
        return n

    def op(st, lanes, sel):
        u = arith.unsigned(np.asarray(a(st, sel))).astype(np.uint64) & np.uint64((1 << bits) - 1 if bits < 64
                                                                                 else 2**64 - 1)
        if base == "ctpop":
            r = np.bitwise_count(u).astype(np.int64) if hasattr(np, "bitwise_count") else popcount(u)
        elif base == "ctlz":
            r = np.full(u.shape, bits, np.int64)
            for k in range(bits):
                hit = (u >> np.uint64(bits - 1 - k)) & np.uint64(1)
                r = np.where((hit == 1) & (r == bits), k, r)
        elif base == "cttz":
            r = np.full(u.shape, bits, np.int64)
            for k in range(bits - 1, -1, -1):
                hit = (u >> np.uint64(k)) & np.uint64(1)
                r = np.where(hit == 1, k, r)
        elif base == "bswap":
            nb = bits // 8
            r = np.zeros(u.shape, np.uint64)
            for k in range(nb):
                byte = (u >> np.uint64(8 * k)) & np.uint64(0xFF)
                r |= byte << np.uint64(8 * (nb - 1 - k))
        else:  # bitreverse
            r = np.zeros(u.shape, np.uint64)
            for k in range(bits):
                r |= ((u >> np.uint64(k)) & np.uint64(1)) << np.uint64(bits - 1 - k)
        if base in ("ctpop", "ctlz", "cttz"):
            return np.asarray(r).astype(dt)
        r = np.asarray(r, np.uint64)
        if bits == 64:
            return r.view(np.int64)
        return arith.normalize(r.astype(np.int64).astype(dt), bits)
    return put(dst, proto, op)


def _overflow(ins, base, args, dst, proto, dt):
    kind = base  # sadd / uadd / ssub / usub / smul / umul
    a, b = args
    t = ins.type.fields[0]
    bits = t.bits
    dt = scalar_dtype(t)
    signed = kind[0] == "s"
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    op = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}[kind[1:]]

    def ovf(st, lanes, sel):
        x = np.asarray(a(st, sel))
        y = np.asarray(b(st, sel))
        if signed:
            xs, ys = x.astype(object), y.astype(object)
        else:
            xs, ys = arith.unsigned(x).astype(object), arith.unsigned(y).astype(object)
        exact = op(xs, ys)
        flag = np.asarray((exact < lo) | (exact > hi), bool)
        wrapped = arith.binary(kind[1:], bits)(x.astype(dt), y.astype(dt))
        return [np.asarray(wrapped).astype(dt), np.broadcast_to(flag, np.shape(wrapped)).copy()]
    return put(dst, proto, ovf)


def _memop(ins, base, args, dst, proto, dt):
    iid = ins.id
    if base == "memset":
        p, v, n = args[:3]

        def memset(st, lanes, sel):
            length = np.broadcast_to(np.asarray(n(st, sel)).astype(np.int64), lanes.shape)
            byte = np.broadcast_to(np.asarray(v(st, sel)).astype(np.uint8), lanes.shape)
            ptr = np.broadcast_to(np.asarray(p(st, sel), np.int64), lanes.shape)
            for k in range(int(length.max()) if len(length) else 0):
                m = length > k
                st.store(lanes[m], ptr[m] + k, byte[m], np.dtype(np.uint8), 1, iid)
        return memset
    d, s, n = args[:3]

    def memcpy(st, lanes, sel):
        length = np.broadcast_to(np.asarray(n(st, sel)).astype(np.int64), lanes.shape)
        dp = np.broadcast_to(np.asarray(d(st, sel), np.int64), lanes.shape)
        sp = np.broadcast_to(np.asarray(s(st, sel), np.int64), lanes.shape)
        top = int(length.max()) if len(length) else 0
        # copy in the widest aligned words the length allows, byte tail last
        k = 0
        for w, dt in ((8, np.dtype(np.int64)), (4, np.dtype(np.int32)), (1, np.dtype(np.uint8))):
            while k + w <= top:
                m = length >= k + w
                if not m.any():
                    break
                vals = st.load(lanes[m], sp[m] + k, dt, 1, iid)
                st.store(lanes[m], dp[m] + k, vals, dt, 1, iid)
                k += w
        return None
    return memcpy


# --- CUDA runtime pieces ----------------------------------------------------------------------------

def _printf(ins, name, args, dst, proto):
    if dst is not None:
        return put(dst, proto, lambda st, lanes, sel: np.zeros(len(lanes), np.int32))
    return lambda st, lanes, sel: None


def _assertfail(ins, name, args, dst, proto):
    iid = ins.id

    def assertfail(st, lanes, sel):
        raise RuntimeFault(f"assertion failed in {len(lanes)} thread(s)", iid)
    return assertfail


def _requires(ins, name, args, dst, proto):
    """GPUVerify's ``__requires(e)`` / ``__assume(e)`` (simu/include/cuda/__simu_gpuverify.h): a launch in which a
    thread finds ``e`` false is not one the kernel is written for, so it is rejected like a launch no GPU makes."""
    a = args[0]
    at = where(ins)

    def requires(st, lanes, sel):
        if not np.all(np.asarray(a(st, sel)) != 0):
            line = f" (line {at.line})" if at is not None else ""
            exc = NotLaunchableError(f"the launch breaks the kernel's __requires/__assume{line}")
            exc.where = at
            raise exc
    return requires


def _device_heap(ins, name, args, dst, proto):
    raise UnsupportedError(f"device-side {name}", where(ins))


def libm(ins, name, args, dst, proto):
    """Plain C math names (CUDA shims): sinf/sin, expf/exp, ...; the last resort for any callee.  The
    functions with two results (``remquof(x, y, &q)``, ``sincosf(x, &s, &c)``, libdevice's ``__nv_frexpf``)
    store the second through a pointer (program.pair_op); a callee returning an aggregate is none of these."""
    first = ins.ops[0].type if ins.ops else None
    pair = mathlib.lookup_pair(name, first.dtype if isinstance(first, FloatType) else None)
    if pair is not None:
        op = pair_op(ins, pair[0], args, dst, proto)
        if op is not None:
            return op
    if dst is None or isinstance(proto, list):
        return None
    dt = scalar_dtype(ins.type)
    base = name
    if dt == np.float32 and name.endswith("f") and mathlib.lookup(name[:-1]):
        base = name[:-1]
    found = mathlib.lookup(base)
    if found is None:
        return None
    return math_op(base, args, dt, dst, proto)


# --- the tables ------------------------------------------------------------------------------------

# callee -> translator
BUILTINS: dict[str, CallTranslator] = table([
    *((["llvm.nvvm.read.ptx.sreg." + kind + "." + axis], _sreg(kind, a))
      for kind in ("tid", "ntid", "ctaid", "nctaid") for a, axis in enumerate("xyz")),
    (["llvm.nvvm.read.ptx.sreg.warpsize"], _nvvm(_warpsize)),
    (["llvm.nvvm.read.ptx.sreg.laneid"], _nvvm(_laneid)),
    *((["llvm.nvvm.read.ptx.sreg." + reg], _sreg_by_name(reg.replace(".", "_")))
      for reg in ("warpid", "nwarpid", "smid", "nsmid", "clock", "clock64", "globaltimer", "lanemask.eq",
                  "lanemask.lt", "lanemask.le", "lanemask.gt", "lanemask.ge")),
    (["__simu_grid_sync"], _grid_sync),
    *cuda_textures.TRANSLATORS,
    (["llvm.nvvm.activemask"], _nvvm(_activemask)),
    (["vprintf", "printf"], _printf),
    (["__assertfail", "__assert_fail", "__simu_assert_fail"], _assertfail),
    (["__simu_requires"], _requires),
    (["malloc", "free"], _device_heap),
])

# base of ``llvm.<base>.…`` -> translator
INTRINSICS: dict[str, CallTranslator] = table([
    (["memcpy", "memmove", "memset"], _intrinsic(_memop)),
    (["smin", "smax", "umin", "umax"], _intrinsic(_minmax)),
    (["abs"], _intrinsic(_abs)),
    (["fma", "fmuladd"], _intrinsic(_fma)),
    (["ctpop", "ctlz", "cttz", "bswap", "bitreverse"], _intrinsic(_bitop)),
    (["fshl", "fshr"], _intrinsic(_funnel_shift)),
    (["trap", "ubsantrap", "debugtrap"], _intrinsic(_trap)),
    (["stacksave", "stackrestore"], _intrinsic(_stack)),
    (["expect"], _intrinsic(_expect)),
    (["powi"], _intrinsic(_powi)),
    (["lround", "llround", "lrint", "llrint"], _intrinsic(_round_to_int)),
    (["sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "sqrt", "pow", "floor", "ceil",
      "trunc", "round", "rint", "nearbyint", "roundeven", "fabs", "copysign", "minnum", "maxnum", "minimum",
      "maximum", "minimumnum", "maximumnum", "canonicalize", "asin", "acos", "atan", "atan2", "sinh", "cosh",
      "tanh", "ldexp"], _intrinsic(_math)),
    (["frexp", "modf", "sincos", "sincospi"], _intrinsic(_math_pair)),
])

# (pattern matched at the start of the callee, translator), for callees in neither table; first match wins
BUILTIN_PATTERNS: list[tuple[re.Pattern, CallTranslator]] = [
    (re.compile(r"llvm\.nvvm\.(?:bar\.|.*barrier)"), _nvvm(_barrier)),
    (re.compile(r"llvm\.nvvm\.shfl\.sync\."), _nvvm(_shfl_sync)),
    (re.compile(r"llvm\.nvvm\.vote\."), _nvvm(_vote_sync)),
    (re.compile(r"llvm\.nvvm\.match\.(?:any|all)\.sync\."), _match_sync),  # all: a struct, no lane dtype
    (re.compile(r"llvm\.mem(?:cpy|set)"), _intrinsic(_memop)),
    (re.compile(r"llvm\.[su](?:add|sub)\.sat\."), _intrinsic(_saturating)),
    # {s,u}{add,sub,mul}.with.overflow
    (re.compile(r"llvm\.(?:[^.]*with(?:\.|\Z)|.*\.with\.overflow(?:\.|\Z))"), _intrinsic(_overflow)),
]
