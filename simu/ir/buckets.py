"""Bucket scatters: ``slot = base[k] + atomicAdd(&cursor[k], 1)`` with ``k = keys[i]`` (issue 29).

A counting sort, a CSR build from an edge list and particle binning all give each key ``k`` the slots from
``base[k]`` on, handed out one at a time by ``cursor[k]``.  A program computes ``base`` as the exclusive prefix
sums of how often each key occurs and clears ``cursor``, so the slots are a permutation; random ``base`` or
``cursor`` contents hand out colliding slots that no program makes.  Found by what the kernel does, never by
names: the sum of a value loaded from one pointer parameter and the old value of a counting atomic on another, both
at the same index, which is a value loaded from a third parameter.  :mod:`simu.evolve.roles` draws such ``base``
and ``cursor`` buffers from the keys (:func:`simu.launch.graphs.buckets`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simu.ir.cursors import counting
from simu.ir.spin import parameter_behind

_CASTS = frozenset({"sext", "zext", "trunc", "freeze"})


@dataclass(frozen=True)
class Bucket:
    """``base[k] + atomicAdd(&cursor[k], 1)`` with ``k`` read from ``keys``: parameter names."""

    base: str
    cursor: str
    keys: str


def bucket_scatters(kernel: Any) -> tuple[Bucket, ...]:
    """The bucket scatters of ``kernel`` (see the module), one per base buffer."""
    fn = kernel.function
    instrs = [ins for b in fn.blocks for ins in b.instrs]
    params = {ir: p.name for (ir, _), p in zip(fn.args, kernel.params, strict=False) if p.is_pointer}
    made = {ins.name: ins for ins in instrs if ins.name}
    out: dict[str, Bucket] = {}
    for ins in instrs:
        if ins.opcode != "add" or len(ins.ops) != 2 or any(o.kind != "reg" for o in ins.ops):
            continue
        a, b = (made.get(_uncast(o.value, made)) for o in ins.ops)
        if a is None or b is None:
            continue
        load, atomic = (a, b) if a.opcode == "load" else (b, a)
        if load.opcode != "load" or not counting(atomic) or not load.ops or not atomic.ops:
            continue
        base, at = _element(load.ops[0], params, made)
        cursor, at2 = _element(atomic.ops[0], params, made)
        keys, k1 = _loaded(at, params, made)
        if None in (base, cursor, keys) or base == cursor or keys in (base, cursor) or base in out:
            continue
        if at == at2 or (keys, k1) == _loaded(at2, params, made):  # ``src[e]`` loaded once, or twice alike
            out[base] = Bucket(base, cursor, keys)  # type: ignore[arg-type]
    return tuple(out.values())


def _uncast(value: str, made: dict[str, Any]) -> str:
    """The value an integer cast chain starts from."""
    for _ in range(8):
        ins = made.get(value)
        if ins is None or ins.opcode not in _CASTS or not ins.ops or ins.ops[0].kind != "reg":
            break
        value = ins.ops[0].value
    return value


def _loaded(value: str | None, params: dict[str, str], made: dict[str, Any]) -> tuple[str | None, str | None]:
    """(the parameter, the index) of the element ``value`` was loaded from; (None, None) for other values."""
    ins = made.get(value) if value is not None else None
    if ins is None or ins.opcode != "load" or not ins.ops:
        return None, None
    return _element(ins.ops[0], params, made)


def _element(op: Any, params: dict[str, str], made: dict[str, Any]) -> tuple[str | None, str | None]:
    """(the parameter, the index value with its casts stripped) of an address ``p + i`` one ``getelementptr``
    over a pointer parameter makes; (None, None) for other addresses."""
    gep = made.get(op.value) if op.kind == "reg" else None
    if gep is None or gep.opcode != "getelementptr" or len(gep.ops) != 2 or gep.ops[1].kind != "reg":
        return None, None
    return parameter_behind(gep.ops[0], params, made), _uncast(gep.ops[1].value, made)
