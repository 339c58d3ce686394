"""Optimistic reads a compare-and-swap validates.

An atomic operation the hardware lacks is written as a loop of compare-and-swaps (``atomicMax`` on floats,
``atomicAdd`` on doubles before sm_60, OpenCL's float atomics):

    old = *addr;                      // a plain read of a word other threads update atomically
    do { assumed = old; old = atomicCAS(addr, assumed, f(assumed, v)); } while (assumed != old);

often behind an early exit (``if (*addr >= v) return;``).  The plain read races with the other threads'
compare-and-swaps, but what it reads only proposes a value: the compare-and-swap stores nothing unless the word
still holds it, and a stale read only costs another iteration.  A load is such a read when it reads the word a
compare-and-swap of the same function updates (the same address) and its value, through arithmetic, casts,
phis and pure calls, reaches only that compare-and-swap's operands and branch conditions: no store, no address,
no other call.  The race check does not pair such a read with an atomic access (a plain store still races).
"""

from __future__ import annotations

import re
from typing import Any

from simu.ir.perlist import once_per_block_list
from simu.ir.types import PtrType

_CASTS = frozenset({"bitcast", "addrspacecast"})
_CAS_CALL = re.compile(r"atomic_cmpxchg|atom_cmpxchg|__simu_cas|atomicCAS")
_MEMORY_CALL = re.compile(r"atom|store|write|printf|barrier|sync|fence|vstore|memcpy|memset")
_PASS = frozenset({"bitcast", "zext", "sext", "trunc", "fpext", "fptrunc", "fptosi", "fptoui", "sitofp",
                   "uitofp", "add", "sub", "mul", "fadd", "fsub", "fmul", "fdiv", "and", "or", "xor", "shl",
                   "lshr", "ashr", "phi", "select", "freeze", "extractvalue", "insertvalue", "fneg",
                   "extractelement", "insertelement", "icmp", "fcmp"})


@once_per_block_list
def validated_reads(blocks: list[Any]) -> frozenset[int]:
    """Instruction ids of the loads among ``blocks`` (a decoded function's) that only propose a value to a
    compare-and-swap of the same word."""
    instrs = [ins for b in blocks for ins in b.instrs]
    made = {ins.name: ins for ins in instrs if ins.name}
    swapped = {}  # address key -> ids of the compare-and-swaps of that word
    for ins in instrs:
        ptr = _swapped_pointer(ins)
        if ptr is not None:
            swapped.setdefault(_address(ptr, made), set()).add(ins.id)
    if not swapped:
        return frozenset()
    users: dict[str, list[Any]] = {}
    for ins in instrs:
        for op in ins.ops:
            if op.kind == "reg":
                users.setdefault(op.value, []).append(ins)
    found = set()
    for ins in instrs:
        if ins.opcode != "load" or not ins.ops or not ins.name:
            continue
        cas = swapped.get(_address(ins.ops[0], made))
        if cas and _only_proposes(ins.name, cas, users):
            found.add(ins.id)
    return frozenset(found)


def _swapped_pointer(ins: Any) -> Any:
    """The address operand of a compare-and-swap (the instruction or a builtin call), else None."""
    if ins.opcode == "cmpxchg" and ins.ops:
        return ins.ops[0]
    if ins.opcode == "call" and _CAS_CALL.search(ins.attrs.get("callee") or "") and ins.ops:
        return ins.ops[0]
    return None


def _address(op: Any, made: dict[str, Any], depth: int = 0) -> Any:
    """A key equal for two address operands that compute the same address from the same values (casts
    stripped, an offset by its base and indices)."""
    if op is None or op.kind != "reg" or depth > 16:
        return (getattr(op, "kind", None), str(getattr(op, "value", None)))
    src = made.get(op.value)
    if src is not None and src.opcode in _CASTS and src.ops:
        return _address(src.ops[0], made, depth + 1)
    if src is not None and src.opcode == "getelementptr" and src.ops:
        return ("gep", _address(src.ops[0], made, depth + 1), tuple((o.kind, str(o.value)) for o in src.ops[1:]))
    return ("reg", op.value)


def _only_proposes(name: str, cas: set[int], users: dict[str, list[Any]]) -> bool:
    """Whether the value ``name`` reaches only the operands of the compare-and-swaps ``cas`` and branch
    conditions (through pure instructions and comparisons)."""
    seen, todo = {name}, [name]
    while todo:
        for use in users.get(todo.pop(), ()):
            if use.id in cas or use.opcode == "br":
                continue  # proposed to the compare-and-swap, or a test of whether to try (again)
            if use.opcode in _PASS or (use.opcode == "call" and _pure_call(use)):
                if use.name and use.name not in seen:
                    seen.add(use.name)
                    todo.append(use.name)
                continue
            return False
    return True


def _pure_call(ins: Any) -> bool:
    callee = ins.attrs.get("callee") or ""
    return bool(callee) and not _MEMORY_CALL.search(callee) and not any(
        isinstance(o.type, PtrType) for o in ins.ops if o.kind != "func")
