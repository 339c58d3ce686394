"""The compiled form of a kernel, and what every translator of IR into ops shares.

An *op* is a closure ``op(st, lanes, sel)``: ``st`` is the per-launch :class:`State`, ``lanes``
the sorted lane ids of the executing group and ``sel`` the selector for register arrays (a slice
when the lanes are contiguous).  It returns ``None``, or a :class:`Wait` when the group must stop
at a barrier.  A *getter* ``get(st, sel)`` reads an operand.

This module sits below the compiler and the translator tables (instructions, builtins,
opencl_builtins): it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

import numpy as np

from simu.errors import SourcePoint
from simu.interp import arith, mathlib
from simu.interp.values import lane_shape, scalar_dtype
from simu.ir import Instr
from simu.ir.constants import GlobalRef
from simu.ir.types import ArrayType, StructType, Type

Getter = Callable[[Any, Any], Any]  # (st, sel) -> value
Op = Callable[[Any, Any, Any], Any]  # (st, lanes, sel) -> None | Wait


class Translating(Protocol):
    """What an instruction translator may use of the compiler that calls it."""

    value_fns: dict[str, Getter]  # pure instructions' value functions (for fusion into their consumer)
    allocas: list[tuple[int, int, int]]  # (alloca ordinal, instr id, bytes per lane)


# Translators, looked up by the compiler in the tables of instructions / builtins / opencl_builtins.
# Each returns an op, or None (an instruction without an op; a callee it does not handle).
InstrTranslator = Callable[[Translating, Instr, list, int | None, Any], Op | None]  # (c, ins, g, dst, proto)
CallTranslator = Callable[[Instr, str, list, int | None, Any], Op | None]  # (ins, callee, args, dst, proto)
# (ins, base name, parameter type codes, args, dst, proto, result dtype or None)
OpenCLTranslator = Callable[[Instr, str, tuple, list, int | None, Any, Any], Op | None]


@dataclass
class Wait:
    """Returned by a barrier op: the group waits; ``spaces`` are the fenced epochs (0 global, 1 shared)."""

    instr: int
    spaces: tuple[int, ...]
    reduce: tuple[str, int, Any] | None = None  # (popc|and|or, dst slot, predicate values)


@dataclass
class Terminator:
    kind: str  # br | cbr | switch | ret | unreachable
    instr: Instr
    targets: list[int] = field(default_factory=list)
    cond: Getter | None = None
    cases: list[tuple[Any, int]] = field(default_factory=list)


@dataclass
class CBlock:
    name: str
    ops: list[Callable]
    instr_ids: list[int]
    term: Terminator
    weights: list[int] = field(default_factory=list)  # IR instructions each op stands for (fusion)
    term_weight: int = 1


@dataclass
class Program:
    """A compiled kernel.  It holds no reference to the IR kernel (see compiler.compile_kernel)."""

    blocks: list[CBlock]
    rpo_pos: list[int]  # block index -> position in reverse post-order
    by_pos: list[int]  # position -> block index
    nslots: int
    arg_slots: list[int]
    global_refs: list[GlobalRef]
    allocas: list[tuple[int, int, int]]  # (alloca ordinal, instr id, bytes per lane)
    phis: dict[tuple[int, int], list[tuple[int, Getter, Any]]]
    instrs: dict[int, Instr]
    # spin-wait loops (simu.ir.spin), by block index: back edges, exit edges, their reads, where each loop is
    spin_back: frozenset[tuple[int, int]] = frozenset()
    spin_exits: frozenset[tuple[int, int]] = frozenset()
    spin_reads: frozenset[int] = frozenset()
    spin_where: dict[int, Any] = field(default_factory=dict)
    validated_reads: frozenset[int] = frozenset()  # loads a compare-and-swap validates (simu.ir.optimistic)
    # what every launch of the program derives from it alone, computed on the first (simu.interp.machine)
    memo: dict[str, Any] = field(default_factory=dict)


def merge_lanes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two groups' lanes (each ascending, no lane in both) as one ascending array: a stable sort merges the two
    runs in one pass, where the default sort starts over."""
    return np.sort(np.concatenate([a, b]), kind="stable")


def proto_of(t: Type):
    """What :meth:`State.put` needs to allocate a register of type ``t``."""
    if isinstance(t, StructType):
        return [proto_of(f) for f in t.fields]
    if isinstance(t, ArrayType):
        return [proto_of(t.elem) for _ in range(t.count)]
    return (scalar_dtype(t), lane_shape(t))


def where(ins: Instr | None) -> SourcePoint | None:
    """The source position of an instruction, carried by the errors it raises."""
    if ins is None or ins.loc is None:
        return None
    return SourcePoint(ins.loc.file, ins.loc.line, ins.loc.col)


def result_dtype(ins: Instr, dst, proto):
    """Lane dtype of a call's scalar or vector result; None for void and aggregate results."""
    return scalar_dtype(ins.type) if dst is not None and not isinstance(proto, list) else None


# --- helpers shared by the translators -------------------------------------------------------

def table(entries) -> dict:
    """A dispatch table from (names, translator) pairs; each name may appear once."""
    out: dict = {}
    for names, translator in entries:
        for name in names:
            assert name not in out, name
            out[name] = translator
    return out


def put(dst, proto, f):
    """The op that writes ``f(st, lanes, sel)`` to register ``dst``."""
    return lambda st, lanes, sel: st.put(dst, sel, f(st, lanes, sel), proto)


def lanes_attr(kind: str, axis: int, dtype):
    """A value function for a lane's thread/block index or a launch dimension along ``axis``."""
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


def ballot(st, lanes, pred):
    """Per-lane ballot of its warp (bit i = lane i of the warp voted), as int64 (up to 64 lanes)."""
    warp = st.warp_of[lanes]
    bits = np.where(pred, np.left_shift(np.uint64(1), st.lane_in_warp[lanes].astype(np.uint64)), np.uint64(0))
    acc = np.zeros(st.nwarps, np.uint64)
    np.bitwise_or.at(acc, warp, bits.astype(np.uint64))
    return acc[warp].view(np.int64)


def math_op(base, args, dt, dst, proto):
    """The op for a math-library function by base name (see mathlib), or None when unknown."""
    found = mathlib.lookup(base)
    if found is None:
        return None
    arity, f = found
    if base in mathlib.NATIVE:
        # exact in any precision: stay in the value's own dtype
        gs = args[:arity]
        return put(dst, proto, lambda st, lanes, sel: np.asarray(f(*[g(st, sel) for g in gs])).astype(dt))
    gs = args[:arity]
    return put(dst, proto, lambda st, lanes, sel: mathlib.evaluate(f, [g(st, sel) for g in gs], dt))


def pair_op(ins: Instr, base: str, args, dst, proto):
    """The op of a two-result math function (``mathlib.PAIRS``), or None for a form it does not know.

    Two forms: LLVM's intrinsic returns both results as a two-field struct (``llvm.frexp`` gives
    ``{ float, i32 }``, ``llvm.modf``/``llvm.sincos`` ``{ float, float }``, vectors too), a register
    holding one lane array per field; C's function (``remquof(x, y, &q)``, ``__nv_frexpf``) returns the
    first and stores the second through its last argument, or returns nothing and stores both
    (``sincosf(x, &s, &c)``).  Each store is a recorded access of the calling thread."""
    arity, f, int_second = mathlib.PAIRS[base]
    gs, ptrs = args[:arity], args[arity:]

    def both(st, sel):
        with np.errstate(all="ignore"):
            return f(*[g(st, sel) for g in gs])

    if isinstance(proto, list):
        if len(proto) != 2 or ptrs or any(isinstance(p, list) for p in proto):
            return None
        dts = [p[0] for p in proto]
        return put(dst, proto, lambda st, lanes, sel: [np.asarray(v).astype(d)
                                                       for v, d in zip(both(st, sel), dts, strict=True)])
    if not ins.ops or len(ptrs) != (1 if dst is not None else 2):
        return None
    dt = scalar_dtype(ins.ops[0].type)
    if dt.kind != "f":
        return None
    second = np.dtype(np.int32) if int_second else dt
    iid = ins.id
    if dst is None:
        def stores_both(st, lanes, sel):
            first, other = both(st, sel)
            st.store(lanes, ptrs[0](st, sel), np.asarray(first).astype(dt), dt, 1, iid)
            st.store(lanes, ptrs[1](st, sel), np.asarray(other).astype(second), second, 1, iid)
        return stores_both

    def returns_first(st, lanes, sel):
        first, other = both(st, sel)
        st.store(lanes, ptrs[0](st, sel), np.asarray(other).astype(second), second, 1, iid)
        st.put(dst, sel, np.asarray(first).astype(proto[0]), proto)
    return returns_first


# read-modify-write functions (old, value) -> new, by LLVM atomicrmw operation
RMW = {
    "xchg": lambda o, v: v, "add": np.add, "sub": np.subtract, "and": np.bitwise_and, "or": np.bitwise_or,
    "xor": np.bitwise_xor, "nand": lambda o, v: ~(o & v), "max": np.maximum, "min": np.minimum,
    "umax": lambda o, v: np.maximum(arith.unsigned(o), arith.unsigned(v)).view(o.dtype),
    "umin": lambda o, v: np.minimum(arith.unsigned(o), arith.unsigned(v)).view(o.dtype),
    "fadd": np.add, "fsub": np.subtract, "fmax": np.fmax, "fmin": np.fmin,
    "uinc_wrap": lambda o, v: np.where(arith.unsigned(o) >= arith.unsigned(v), 0, o + 1).astype(o.dtype),
    "udec_wrap": lambda o, v: np.where((o == 0) | (arith.unsigned(o) > arith.unsigned(v)), v, o - 1).astype(o.dtype),
}
