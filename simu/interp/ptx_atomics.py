"""Inline PTX atomics and memory-model loads/stores, as libcu++ (``cuda::atomic``,
``cuda::atomic_ref``, ``cuda::std::atomic``) emits them for every operation:

* ``atom[.sem][.scope][.space].<op>.<type> d, [a], b[, c]`` (the op may also come first:
  ``atom.add.acquire.gpu.s32``) with op ``add min max and or xor exch cas inc dec``, and
  ``red…`` (the same without a result): one atomic read-modify-write, recorded as atomic;
* ``ld.{relaxed,acquire}[.scope][.space].<type> d, [a]`` / ``st.{relaxed,release}…  [a], v``:
  atomic loads and stores (an exchange that keeps or replaces the value), recorded as atomic, so
  they never race with other atomics, as the PTX memory model says (``.mmio`` likewise);
* ``ld.volatile`` / ``st.volatile``: plain loads and stores.

The machine is sequentially consistent, so ``.sem`` and ``.scope`` change nothing else.
"""

from __future__ import annotations

import re

import numpy as np

from simu.interp.program import RMW, put
from simu.interp.values import scalar_dtype

_TYPES = {
    "u16": np.uint16, "s16": np.int16, "b16": np.uint16, "u32": np.uint32, "s32": np.int32, "b32": np.uint32,
    "u64": np.uint64, "s64": np.int64, "b64": np.uint64, "f32": np.float32, "f64": np.float64,
}
_QUALIFIERS = {"relaxed", "acquire", "release", "acq_rel", "sc", "cta", "cluster", "gpu", "sys", "global",
               "shared", "shared::cta", "shared::cluster", "mmio", "volatile", "weak"}
_OPS = {"add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec"}
_ADDRESS = re.compile(r"\[\s*(%\d+)\s*(?:\+\s*(-?\w+))?\s*\]")


def _rmw(op: str, dt: np.dtype):
    if op in ("min", "max") and dt.kind == "u":
        return RMW["u" + op]
    if op in ("min", "max") and dt.kind == "f":
        return RMW["f" + op]
    return {"exch": RMW["xchg"], "inc": RMW["uinc_wrap"], "dec": RMW["udec_wrap"]}.get(op) or RMW[op]


def translate_atomic(ins, head: list[str], operands: list[str], operand, nout: int, dst, proto):
    """The op for an atomic / memory-model PTX instruction, or None when ``head`` is not one."""
    kind = head[0]
    quals = head[1:-1]
    if kind not in ("atom", "red", "ld", "st") or head[-1] not in _TYPES:
        return None
    ops = [q for q in quals if q in _OPS]
    if any(q not in _QUALIFIERS and q not in _OPS for q in quals):
        return None
    if kind in ("ld", "st") and (ops or not ({"relaxed", "acquire", "release", "volatile", "mmio"} & set(quals))):
        return None
    if kind in ("atom", "red") and len(ops) != 1:
        return None
    pdt = np.dtype(_TYPES[head[-1]])
    returns = kind in ("atom", "ld")
    if returns != (dst is not None and nout == 1):
        return None
    addr_i = 1 if returns else 0
    if len(operands) <= addr_i:
        return None
    m = _ADDRESS.fullmatch(operands[addr_i])
    if not m:
        return None
    base = operand(m.group(1))
    off = int(m.group(2), 0) if m.group(2) else 0
    values = [operand(o) for o in operands[addr_i + 1:]]
    iid = ins.id
    rdt = scalar_dtype(ins.type) if dst is not None else pdt

    def addrs(st, lanes, sel):
        return np.broadcast_to(np.asarray(base(st, sel), np.int64) + off, lanes.shape)

    def arg(k, st, sel, n):
        v = np.broadcast_to(np.asarray(values[k](st, sel)), (n,))
        return np.ascontiguousarray(v).view(pdt) if v.dtype.itemsize == pdt.itemsize else v.astype(pdt)

    def result(v):
        return v if v.dtype == rdt else (v.view(rdt) if v.dtype.itemsize == rdt.itemsize else v.astype(rdt))

    if kind in ("ld", "st") and "volatile" in quals:
        if kind == "ld":
            return put(dst, proto, lambda st, lanes, sel: result(
                st.load(lanes, addrs(st, lanes, sel), pdt, 1, iid, sel)))

        def vstore(st, lanes, sel):
            st.store(lanes, addrs(st, lanes, sel), arg(0, st, sel, len(lanes)), pdt, 1, iid, sel)
        return vstore
    if kind == "ld":
        return put(dst, proto, lambda st, lanes, sel: result(
            st.atomic(lanes, addrs(st, lanes, sel), lambda o, v: o, np.zeros(len(lanes), pdt), pdt, iid)))
    if kind == "st":
        def astore(st, lanes, sel):
            st.atomic(lanes, addrs(st, lanes, sel), RMW["xchg"], arg(0, st, sel, len(lanes)), pdt, iid)
        return astore
    op = ops[0]
    if op == "cas":
        if len(values) != 2:
            return None

        def cas(st, lanes, sel):
            n = len(lanes)
            return result(st.atomic(lanes, addrs(st, lanes, sel), lambda o, v, c: np.where(o == c, v, o),
                                    arg(1, st, sel, n), pdt, iid, cmp=arg(0, st, sel, n)))
        return put(dst, proto, cas)
    if len(values) != 1:
        return None
    f = _rmw(op, pdt)
    if pdt.kind == "f" and op == "add":
        f = RMW["fadd"]

    def rmw(st, lanes, sel):
        with np.errstate(over="ignore"):
            return result(st.atomic(lanes, addrs(st, lanes, sel), f, arg(0, st, sel, len(lanes)), pdt, iid))
    if dst is None:
        def red(st, lanes, sel):
            rmw(st, lanes, sel)
        return red
    return put(dst, proto, rmw)

