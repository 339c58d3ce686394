"""A vector component store as the GPU compiler emits it: one component, not the whole vector.

Clang writes ``v.x = e`` on an OpenCL vector in memory (``__local int4 idx; idx.x = …``) as a load of the whole
vector, an ``insertelement`` and a store of the whole vector.  A GPU compiler stores the one component.  Run as
written, every thread of a block that sets ``idx.x`` to the value they all compute would read and rewrite all four
components -- a lost update between any two of them, and a race simu would report where the program has none (Parboil's
cutcp ``myBinIndex``).  :func:`component_stores` finds the pattern -- the load, the insertion of one constant
component and the store back, in one block, to the same pointer, each value used once, with no store, atomic, fence
or call other than a work-item query in between -- and gives the store that writes only the component (its value the
inserted scalar, ``attrs["component_offset"]`` its byte offset); the load and the insertion are then not run.  A
vector loaded only for one component (``e = v.x``: a load and one ``extractelement``) is likewise a load of that
component: the others, which no thread may have written, are not read."""

from __future__ import annotations

import re
from dataclasses import replace

from simu.ir.module import Function, Instr
from simu.ir.types import IntType, VectorType

_WRITES = frozenset({"store", "atomicrmw", "cmpxchg", "fence"})
# calls that neither read nor write memory: work-item and size queries (OpenCL's mangled names, CUDA's registers)
_QUERY = re.compile(r"^(?:_Z\d+get_\w+j|llvm\.nvvm\.read\.ptx\.sreg\.\w+|__simu_\w+_id\w*)$")


def component_stores(fn: Function, uses: dict[str, int]) -> tuple[dict[int, Instr], set[int]]:
    """(store or load id -> its access of one component, ids of the instructions those replace); ``uses``: how
    many operands read each register (:func:`~simu.ir.module.register_uses`)."""
    stores: dict[int, Instr] = {}
    dropped: set[int] = set()
    for b in fn.blocks:
        at = {ins.name: k for k, ins in enumerate(b.instrs) if ins.name}
        for k, s in enumerate(b.instrs):
            if s.opcode != "store" or len(s.ops) < 2 or s.ops[0].kind != "reg":
                continue
            i = at.get(s.ops[0].value)
            ins = b.instrs[i] if i is not None else None
            if ins is None or ins.opcode != "insertelement" or len(ins.ops) != 3 or ins.ops[0].kind != "reg" \
                    or ins.ops[2].kind != "const" or uses.get(ins.name) != 1:
                continue
            j = at.get(ins.ops[0].value)
            load = b.instrs[j] if j is not None else None
            if load is None or load.opcode != "load" or not isinstance(load.type, VectorType) \
                    or getattr(load.type.elem, "bits", 8) == 1 \
                    or uses.get(load.name) != 1 or not load.ops or _key(load.ops[0]) != _key(s.ops[1]) \
                    or load.attrs.get("volatile") or s.attrs.get("volatile"):
                continue
            if any(_touches_memory(x) for x in b.instrs[j + 1:k] if x is not ins):
                continue
            component = int(ins.ops[2].value)
            stores[s.id] = replace(s, ops=[ins.ops[1], s.ops[1]],
                                   attrs={**s.attrs, "component_offset": component * load.type.elem.size})
            dropped.update((load.id, ins.id))
        for x in b.instrs:  # ``e = v.x``: a vector loaded for one component is that component's load
            if x.opcode != "extractelement" or len(x.ops) != 2 or x.ops[0].kind != "reg" or x.ops[1].kind != "const" \
                    or uses.get(x.ops[0].value) != 1:
                continue
            j = at.get(x.ops[0].value)
            load = b.instrs[j] if j is not None else None
            if load is None or load.opcode != "load" or load.id in dropped or not isinstance(load.type, VectorType) \
                    or getattr(load.type.elem, "bits", 8) == 1 or load.attrs.get("volatile"):
                continue
            stores[load.id] = replace(load, name=x.name, type=load.type.elem,
                                      attrs={**load.attrs, "component_offset": int(x.ops[1].value) *
                                             load.type.elem.size})
            dropped.add(x.id)
    return stores, dropped


def _key(op) -> tuple:
    return op.kind, str(op.value)


def _touches_memory(ins: Instr) -> bool:
    if ins.opcode in _WRITES:
        return True
    if ins.opcode == "call":
        callee = next((str(o.value) for o in ins.ops if o.kind == "func"), "")
        return not _QUERY.match(callee)
    return False


_LOW_BITS = frozenset({"add", "sub", "mul", "shl", "and", "or", "xor"})  # the low 64 bits need only theirs
I64 = IntType(64)


def wide_integers(fn: Function) -> dict[int, Instr]:
    """Integer arithmetic wider than 64 bits whose every result is cut back to 64 bits or fewer, done in 64 bits
    (instruction id -> its 64-bit form): ``trunc (mul (zext i64 %x to i128), 3) to i64`` is ``mul i64 %x, 3``.
    Addition, subtraction, multiplication, left shifts and bitwise operations give the same low bits whatever the
    high bits are; a division, a right shift or a comparison needs them and keeps the instruction (unsupported)."""
    instrs = {ins.name: ins for b in fn.blocks for ins in b.instrs if ins.name}
    if not any(_wide(ins.type) for ins in instrs.values()):
        return {}  # the usual kernel: nothing wider than 64 bits
    users: dict[str, list[Instr]] = {}
    for b in fn.blocks:
        for ins in b.instrs:
            for o in ins.ops:
                if o.kind == "reg":
                    users.setdefault(o.value, []).append(ins)
    wide = {name for name, ins in instrs.items() if _wide(ins.type)}
    # a wide value can be narrowed when it is made by an extension or a low-bits operation of narrowable operands,
    # and only read by low-bits operations and truncations: shrink the set until it holds
    ok = {n for n in wide if instrs[n].opcode in _LOW_BITS | {"zext", "sext"}}
    changed = True
    while changed:
        changed = False
        for n in sorted(ok):
            ins = instrs[n]
            reads_ok = all(u.name in ok or (u.opcode == "trunc" and not _wide(u.type)) for u in users.get(n, []))
            ops_ok = ins.opcode in ("zext", "sext") or all(
                o.kind == "const" or (o.kind == "reg" and o.value in ok) for o in ins.ops)
            if not (reads_ok and ops_ok):
                ok.discard(n)
                changed = True
    out: dict[int, Instr] = {}
    for n in ok:
        ins = instrs[n]
        ops = [replace(o, type=I64, value=_low(o.value)) if o.kind == "const" else replace(o, type=I64)
               if o.kind == "reg" and o.value in ok else o for o in ins.ops]
        if ins.opcode in ("zext", "sext") and getattr(ins.ops[0].type, "bits", 0) == 64:
            out[ins.id] = replace(ins, opcode="freeze", type=I64, ops=ops)  # the same 64 bits
        else:
            out[ins.id] = replace(ins, type=I64, ops=ops)
        for u in users.get(n, []):
            if u.opcode == "trunc" and u.id not in out:
                new_ops = [replace(o, type=I64) if o.kind == "reg" and o.value == n else o for o in u.ops]
                out[u.id] = replace(u, ops=new_ops, opcode="freeze" if getattr(u.type, "bits", 0) == 64 else "trunc")
    return out


def _wide(t) -> bool:
    return isinstance(t, IntType) and t.bits > 64


def _low(v):
    return int(v) & ((1 << 64) - 1) if isinstance(v, int) else v
