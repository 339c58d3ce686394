"""Calls: NVVM intrinsics, LLVM intrinsics, the math library and OpenCL built-ins.

Each supported callee is turned into an ``op(st, lanes, sel)`` closure at compile time; an
unknown callee is an :class:`UnsupportedError` naming the function and the source line.
"""

from __future__ import annotations

import re

import numpy as np

from simu.errors import UnsupportedError
from simu.interp import arith, mathlib
from simu.interp.compiler import Compiler, Wait, _where
from simu.interp.mangle import demangle_builtin
from simu.interp.state import RuntimeFault
from simu.interp.values import scalar_dtype
from simu.ir import Instr
from simu.ir.types import IntType, VectorType

NOOPS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias.scope.decl",
         "llvm.nvvm.membar", "llvm.nvvm.fence", "llvm.invariant.", "llvm.donothing", "llvm.sideeffect",
         "llvm.var.annotation", "llvm.ptr.annotation", "llvm.prefetch", "llvm.nvvm.prmt")

SREG = {"tid": "tid", "ntid": "ntid", "ctaid": "ctaid", "nctaid": "nctaid"}
AXES = {"x": 0, "y": 1, "z": 2}
BOTH_SPACES = (0, 1)


def compile_call(c: Compiler, ins: Instr, g, dst, proto):
    name = ins.attrs.get("callee")
    if name is None:
        if "asm" in ins.attrs:
            raise UnsupportedError(f"inline assembly `{ins.attrs['asm']}`", _where(ins))
        raise UnsupportedError("indirect call through a function pointer", _where(ins))
    args = g[:-1]
    if any(name.startswith(p) for p in NOOPS):
        return None
    fn = c.module.functions.get(name)
    if fn is not None and not fn.is_declaration:
        raise UnsupportedError(f"call to '{fn.display_name}' that could not be inlined (recursion?)", _where(ins))
    for handler in (_nvvm, _llvm_intrinsic, _runtime, _opencl, _libm):
        op = handler(c, ins, name, args, dst, proto)
        if op is not None:
            return op
    raise UnsupportedError(f"call to unsupported function '{name}'", _where(ins))


def _put(dst, proto, f):
    return lambda st, lanes, sel: st.put(dst, sel, f(st, lanes, sel), proto)


def _lanes_attr(kind: str, axis: int, dtype):
    if kind == "tid":
        return lambda st, lanes, sel: st.tid[axis][sel].astype(dtype, copy=False)
    if kind == "ctaid":
        return lambda st, lanes, sel: st.ctaid[axis][sel].astype(dtype, copy=False)
    if kind == "ntid":
        return lambda st, lanes, sel: np.full(len(lanes), st.launch.block[axis], dtype)
    if kind == "nctaid":
        return lambda st, lanes, sel: np.full(len(lanes), st.launch.grid[axis], dtype)
    if kind == "gid":
        return lambda st, lanes, sel: (st.ctaid[axis][sel].astype(np.int64) * st.launch.block[axis]
                                       + st.tid[axis][sel]).astype(dtype)
    if kind == "gsize":
        return lambda st, lanes, sel: np.full(len(lanes), st.launch.block[axis] * st.launch.grid[axis], dtype)
    raise KeyError(kind)


# --- NVVM --------------------------------------------------------------------------------------

def _nvvm(c, ins, name, args, dst, proto):
    if not name.startswith("llvm.nvvm."):
        return None
    m = re.match(r"llvm\.nvvm\.read\.ptx\.sreg\.(tid|ntid|ctaid|nctaid)\.([xyz])$", name)
    dt = scalar_dtype(ins.type) if ins.name else np.int32
    if m:
        return _put(dst, proto, _lanes_attr(m.group(1), AXES[m.group(2)], dt))
    if name == "llvm.nvvm.read.ptx.sreg.warpsize":
        return _put(dst, proto, lambda st, lanes, sel: np.full(len(lanes), st.ws, dt))
    if name == "llvm.nvvm.read.ptx.sreg.laneid":
        return _put(dst, proto, lambda st, lanes, sel: st.lane_in_warp[sel].astype(dt))
    if "barrier" in name or name.startswith("llvm.nvvm.bar."):
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
    if name.startswith("llvm.nvvm.shfl.sync."):
        mode = name.split(".")[4]
        return _shfl(mode, args, dst, proto)
    if name.startswith("llvm.nvvm.vote."):
        mode = name.split(".")[3]
        return _vote(mode, args[1], dst, proto)
    if name == "llvm.nvvm.activemask":
        return _put(dst, proto, lambda st, lanes, sel: (_ballot(st, lanes, np.ones(len(lanes), bool)) & 0xFFFFFFFF)
                    .astype(np.uint32).view(np.int32))
    return None


def _shfl(mode, args, dst, proto):
    """CUDA __shfl*_sync: the shim encodes the width as ((32 - width) << 8) | clamp in operand c."""
    _, val, lane_arg, cval = args

    def shfl(st, lanes, sel):
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
        return v[p]
    if dst is None:
        return None
    return _put(dst, proto, shfl)


def _ballot(st, lanes, pred):
    """Per-lane ballot of its warp (bit i = lane i of the warp voted), as int64 (up to 64 lanes)."""
    warp = st.warp_of[lanes]
    bits = np.where(pred, np.left_shift(np.uint64(1), st.lane_in_warp[lanes].astype(np.uint64)), np.uint64(0))
    acc = np.zeros(st.nwarps, np.uint64)
    np.bitwise_or.at(acc, warp, bits.astype(np.uint64))
    return acc[warp].view(np.int64)


def _vote(mode, pred, dst, proto):
    def vote(st, lanes, sel):
        p = np.broadcast_to(np.asarray(pred(st, sel)) != 0, (len(lanes),))
        bal = _ballot(st, lanes, p)
        act = _ballot(st, lanes, np.ones(len(lanes), bool))
        if mode == "ballot":
            return (bal & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
        if mode == "any":
            return bal != 0
        if mode == "all":
            return bal == act
        return (bal == act) | (bal == 0)
    return _put(dst, proto, vote)


# --- LLVM intrinsics -------------------------------------------------------------------------------

def _llvm_intrinsic(c, ins, name, args, dst, proto):
    if not name.startswith("llvm."):
        return None
    parts = name.split(".")
    base = parts[1]
    dt = scalar_dtype(ins.type) if ins.name and not isinstance(proto, list) else None
    if base in ("memcpy", "memmove", "memset") or name.startswith("llvm.memcpy") or name.startswith("llvm.memset"):
        return _memop(base, ins, args)
    if base in ("smin", "smax", "umin", "umax"):
        f = {"smin": np.minimum, "smax": np.maximum}.get(base)
        if f is None:
            g = np.minimum if base == "umin" else np.maximum
            f = lambda a, b: g(arith.unsigned(a), arith.unsigned(b)).view(np.asarray(a).dtype)
        a, b = args
        return _put(dst, proto, lambda st, lanes, sel: f(a(st, sel), b(st, sel)))
    if base == "abs":
        a = args[0]
        return _put(dst, proto, lambda st, lanes, sel: np.abs(a(st, sel)))
    if base in ("fma", "fmuladd"):
        a, b, cc = args
        if dt == np.float32:
            return _put(dst, proto, lambda st, lanes, sel: mathlib.fma32(a(st, sel), b(st, sel), cc(st, sel)))
        return _put(dst, proto, lambda st, lanes, sel: mathlib.evaluate(mathlib.fma, (a(st, sel), b(st, sel), cc(st, sel)), dt))
    if base in ("ctpop", "ctlz", "cttz", "bswap", "bitreverse"):
        return _bitop(base, ins, args, dst, proto)
    if base in ("fshl", "fshr"):
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
        return _put(dst, proto, fsh)
    if base.endswith("with") or name.endswith(".with.overflow") or ".with.overflow." in name:
        return _overflow(name, ins, args, dst, proto)
    if base in ("sadd", "uadd", "ssub", "usub", "smul", "umul") and "sat" in name:
        return None
    if base == "is" and parts[2] == "fpclass":
        return None
    if base in ("trap", "ubsantrap", "debugtrap"):
        iid = ins.id

        def trap(st, lanes, sel):
            raise RuntimeFault("trap (__trap / __builtin_trap) executed", iid)
        return trap
    if base in ("stacksave", "stackrestore"):
        return _put(dst, proto, lambda st, lanes, sel: np.zeros(len(lanes), np.int64)) if dst is not None else None
    if base == "expect":
        a = args[0]
        return _put(dst, proto, lambda st, lanes, sel: a(st, sel))
    if base == "powi":
        a, b = args
        return _put(dst, proto, lambda st, lanes, sel: mathlib.evaluate(np.power, (a(st, sel), b(st, sel)), dt))
    if base in ("lround", "llround", "lrint", "llrint"):
        a = args[0]
        f = mathlib.UNARY["round"] if "round" in base else np.rint
        return _put(dst, proto, lambda st, lanes, sel: f(np.asarray(a(st, sel), np.float64)).astype(dt))
    if base in ("sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "sqrt", "pow", "floor",
                "ceil", "trunc", "round", "rint", "nearbyint", "roundeven", "fabs", "copysign", "minnum",
                "maxnum", "minimum", "maximum", "minimumnum", "maximumnum", "canonicalize", "asin", "acos",
                "atan", "atan2", "sinh", "cosh", "tanh", "ldexp"):
        return _math_op(base, args, dt, dst, proto)
    if name.startswith("llvm.nvvm."):
        return None
    return None


def _math_op(base, args, dt, dst, proto):
    found = mathlib.lookup(base)
    if found is None:
        return None
    arity, f = found
    if base in mathlib.NATIVE:
        # exact in any precision: stay in the value's own dtype
        gs = args[:arity]
        return _put(dst, proto, lambda st, lanes, sel: np.asarray(f(*[g(st, sel) for g in gs])).astype(dt))
    gs = args[:arity]
    return _put(dst, proto, lambda st, lanes, sel: mathlib.evaluate(f, [g(st, sel) for g in gs], dt))


def _bitop(base, ins, args, dst, proto):
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
        u = arith.unsigned(np.asarray(a(st, sel))).astype(np.uint64) & np.uint64((1 << bits) - 1 if bits < 64 else 2**64 - 1)
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
    return _put(dst, proto, op)


def _overflow(name, ins, args, dst, proto):
    kind = name.split(".")[1]  # sadd / uadd / ssub / usub / smul / umul
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
    return _put(dst, proto, ovf)


def _memop(base, ins, args):
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

def _runtime(c, ins, name, args, dst, proto):
    if name == "vprintf" or name == "printf":
        return _put(dst, proto, lambda st, lanes, sel: np.zeros(len(lanes), np.int32)) if dst is not None else (lambda st, lanes, sel: None)
    if name in ("__assertfail", "__assert_fail", "__simu_assert_fail"):
        iid = ins.id

        def assertfail(st, lanes, sel):
            raise RuntimeFault(f"assertion failed in {len(lanes)} thread(s)", iid)
        return assertfail
    if name in ("malloc", "free"):
        raise UnsupportedError(f"device-side {name}", _where(ins))
    return None


def _libm(c, ins, name, args, dst, proto):
    """Plain C math names (CUDA shims): sinf/sin, expf/exp, ..."""
    if dst is None:
        return None
    dt = scalar_dtype(ins.type)
    base = name
    if dt == np.float32 and name.endswith("f") and mathlib.lookup(name[:-1]):
        base = name[:-1]
    found = mathlib.lookup(base)
    if found is None:
        return None
    return _math_op(base, args, dt, dst, proto)


# --- OpenCL built-ins -------------------------------------------------------------------------------

def _opencl(c, ins, name, args, dst, proto):
    from simu.interp.opencl_builtins import compile_opencl

    d = demangle_builtin(name)
    if d is None:
        return None
    return compile_opencl(c, ins, d[0], d[1], args, dst, proto)
