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
from simu.ir.types import VectorType

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
