"""Append cursors: counters whose atomic increment hands each thread a slot of another buffer.

``i = atomic_inc(count); out[i] = pair;`` (a pair list, a worklist, a stream compaction) takes slots from
where ``count`` starts, and programs clear such counters before the launch (``cudaMemset``, a write of 0,
a kernel that resets them): from random contents the slots start anywhere, before the buffer included, which
no program does.  The search therefore starts these counters cleared, as it does a spin-wait's flags, unless
the host says what they hold.  Found by what the kernel does, never by names: the value an ``atomicrmw`` add
or sub (or OpenCL's ``atomic_inc``/``atomic_add`` built-ins) returns on a pointer parameter's memory reaches,
through integer arithmetic, an index of an address into another buffer.
"""

from __future__ import annotations

import re
from typing import Any

from simu.ir.spin import parameter_behind

_CARRY = frozenset({"sext", "zext", "trunc", "freeze", "add", "sub", "mul", "shl", "or", "and", "phi", "select",
                    "urem", "srem"})
_COUNTING = frozenset({"add", "sub", "uinc_wrap"})
# OpenCL's counting atomics, called as built-ins (``atomic_inc(p)``, ``atom_add(p, n)``, ``atomic_fetch_add(p, n)``)
_COUNTING_CALL = re.compile(r"_Z\d+(?:atomic|atom)_(?:inc|add|sub|fetch_add|fetch_add_explicit|fetch_sub)[A-Z]")


def counting(ins: Any) -> bool:
    """Whether ``ins`` returns the old value of a counting atomic (its pointer first)."""
    if ins.opcode == "atomicrmw":
        return str(ins.attrs.get("op", "")) in _COUNTING
    return ins.opcode == "call" and bool(_COUNTING_CALL.match(str(ins.attrs.get("callee") or "")))


def cursor_buffers(kernel: Any) -> set[str]:
    """The pointer parameters ``kernel`` uses as append cursors (see the module)."""
    fn = kernel.function
    instrs = [ins for b in fn.blocks for ins in b.instrs]
    atomics = [ins for ins in instrs if ins.name and counting(ins)]
    if not atomics:
        return set()
    params = {ir: p.name for (ir, _), p in zip(fn.args, kernel.params, strict=False) if p.is_pointer}
    made = {ins.name: ins for ins in instrs if ins.name}

    carried: dict[str, str] = {}  # value -> the counter parameter whose old value it carries
    for ins in atomics:
        counter = parameter_behind(ins.ops[0], params, made) if ins.ops else None
        if counter is not None:
            carried[ins.name] = counter
    changed, rounds = True, 0
    while changed and rounds < 8:  # phis may name values defined later
        changed, rounds = False, rounds + 1
        for ins in instrs:
            if ins.name and ins.name not in carried and ins.opcode in _CARRY:
                src = next((carried[o.value] for o in ins.ops if o.kind == "reg" and o.value in carried), None)
                if src is not None:
                    carried[ins.name] = src
                    changed = True
    out = set()
    for ins in instrs:
        if ins.opcode != "getelementptr" or len(ins.ops) < 2 or ins.ops[0].kind != "reg":
            continue
        into = parameter_behind(ins.ops[0], params, made)
        for o in ins.ops[1:]:
            counter = carried.get(o.value) if o.kind == "reg" else None
            if counter is not None and into is not None and into != counter:
                out.add(counter)
    return out
