"""Buffer lengths a kernel's own constants require: ``for (b = t; b < NBINS; b += n) hist[b] = …`` indexes ``hist``
up to ``NBINS - 1`` whatever the launch, so a host allocates at least ``NBINS`` elements (issue 29).

A buffer whose length the search chooses is drawn at least that long; otherwise tiny launches draw a 3-element
``hist`` and every launch reports the loop's own bound as an out-of-bounds warning the program never shows.
Only an index compared with a constant (``<``, ``<=``; through casts) and used directly as a buffer's first index
counts, and at most :data:`MAX_FLOOR` elements.
"""

from __future__ import annotations

from simu.evolve.dictionary import const_int
from simu.ir import Kernel

MAX_FLOOR = 1 << 16
_CASTS = {"sext", "zext", "trunc", "freeze"}
_BELOW = {"slt": 0, "ult": 0, "sle": 1, "ule": 1}  # x < C: C elements; x <= C: C + 1
_ABOVE = {"sgt": 0, "ugt": 0, "sge": 1, "uge": 1}  # C > x: C elements; C >= x: C + 1



def length_floors(kernel: Kernel) -> dict[str, int]:
    """Per pointer parameter, the elements its constant-bounded indices reach (see the module)."""
    fn = kernel.function
    params = {ir: p for (ir, _), p in zip(fn.args, kernel.params, strict=False) if p.is_pointer and not p.is_local}
    if not params:
        return {}
    bound: dict[str, int] = {}  # value -> elements an index below the constant it is compared with needs
    instrs = [ins for b in fn.blocks for ins in b.instrs]
    for ins in instrs:  # comparisons first: a loop's condition may follow the access in block order
        if ins.opcode != "icmp" or len(ins.ops) != 2:
            continue
        pred = ins.attrs.get("pred", "")
        a, b = ins.ops
        for x, c, table in ((a, b, _BELOW), (b, a, _ABOVE)):
            k = const_int(c)
            if x.kind == "reg" and k is not None and pred in table and 0 < k + table[pred] <= MAX_FLOOR:
                bound[x.value] = max(bound.get(x.value, 0), k + table[pred])
    floors: dict[str, int] = {}
    for _ in range(2):  # casts may come after their uses in block order
        for ins in instrs:
            regs = [o.value for o in ins.ops if o.kind == "reg"]
            if ins.opcode in _CASTS and ins.name and regs and regs[0] in bound:
                bound[ins.name] = max(bound.get(ins.name, 0), bound[regs[0]])
            elif ins.opcode == "getelementptr" and len(ins.ops) == 2 and ins.ops[0].kind == "reg" \
                    and ins.ops[0].value in params and ins.ops[1].kind == "reg" and ins.ops[1].value in bound:
                name = params[ins.ops[0].value].name
                floors[name] = max(floors.get(name, 0), bound[ins.ops[1].value])
    return floors
