"""Which thread axis indexes each dimension of a shared tile, and how many elements apart its threads are.

``__local float4 temp[32][16]; temp[get_local_id(0)][get_local_id(1) * 4 + k] = s;`` was written for blocks of 32
by 4: the first index is the x axis, the second the y axis four elements apart.  Reading the tile's dimensions in
declaration order (x the innermost) would give 16 by 32, a block whose rows overrun each other, a launch the program
never makes.  The index expressions are read off the IR: a thread index (``get_local_id``, ``threadIdx``) through
casts, vector lanes (an ``int2 tid``; an ``int3`` widened by a shuffle), constant offsets and constant multipliers.
"""

from __future__ import annotations

from simu.evolve.dictionary import CASTS, const_int
from simu.ir import Kernel
from simu.ir.types import ArrayType

_LOCAL_ID = "_Z12get_local_idj"
_TID = "llvm.nvvm.read.ptx.sreg.tid."
_MAX_DEPTH = 24

Axis = tuple[int, int]  # (thread axis 0..2, elements between neighbouring threads)


class _Axes:
    def __init__(self, kernel: Kernel):
        self.defs = {ins.name: ins for b in kernel.function.blocks for ins in b.instrs if ins.name}
        self.memo: dict[tuple[str, int | None], Axis | None] = {}

    def of(self, op, lane: int | None = None, depth: int = 0) -> Axis | None:
        """The axis and stride of the value ``op`` (of ``lane`` of it, for a vector), None when it is not one
        thread index scaled by a constant."""
        if op is None or op.kind != "reg" or depth > _MAX_DEPTH:
            return None
        key = (op.value, lane)
        if key not in self.memo:
            self.memo[key] = None  # a cycle through a phi is not an index
            self.memo[key] = self._of(self.defs.get(op.value), lane, depth + 1)
        return self.memo[key]

    def _of(self, ins, lane: int | None, depth: int) -> Axis | None:
        if ins is None:
            return None
        code, ops = ins.opcode, ins.ops
        if code == "call":
            callee = str(ins.attrs.get("callee") or "")
            if callee.startswith(_LOCAL_ID) and ops and const_int(ops[0]) in (0, 1, 2):
                return const_int(ops[0]), 1
            if callee.startswith(_TID) and callee[-1:] in "xyz":
                return "xyz".index(callee[-1]), 1
            return None
        if code in CASTS:
            return self.of(ops[0] if ops else None, lane, depth)
        if code == "extractelement" and len(ops) == 2 and const_int(ops[1]) is not None:
            return self.of(ops[0], const_int(ops[1]), depth)
        if code == "shufflevector" and lane is not None and len(ops) == 2 and ops[1].kind != "reg":
            mask = ins.attrs.get("mask") or ()  # the lanes of the first operand (the second is undef: int3 widened)
            return self.of(ops[0], mask[lane], depth) if lane < len(mask) and mask[lane] >= 0 else None
        if code == "insertelement" and len(ops) == 3 and lane is not None:
            at = const_int(ops[2])
            if at == lane:
                return self.of(ops[1], None, depth)
            return self.of(ops[0], lane, depth) if at is not None else None
        if len(ops) != 2:
            return None
        consts = [const_int(o) for o in ops]
        if code in ("mul", "shl"):
            if consts[1] is not None and consts[1] > 0:
                found, factor = self.of(ops[0], lane, depth), consts[1]
            elif code == "mul" and consts[0] is not None and consts[0] > 0:
                found, factor = self.of(ops[1], lane, depth), consts[0]
            else:
                return None
            if found is None:
                return None
            return found[0], found[1] * (1 << factor if code == "shl" else factor)
        if code in ("add", "or", "sub"):
            if consts[1] is not None:
                return self.of(ops[0], lane, depth)
            if consts[0] is not None and code != "sub":
                return self.of(ops[1], lane, depth)
        return None


def tile_axes(kernel: Kernel, tile: str) -> dict[int, set[Axis]]:
    """For each dimension of the shared array ``tile`` (0 the outermost), the axes and strides of the thread
    indices its stores index it with (its loads where no store says)."""
    axes = _Axes(kernel)
    chains: dict[str, tuple[int, list[tuple[int, Axis]]]] = {}  # pointer -> (its next dimension, indices so far)
    stored = {ins.ops[1].value for b in kernel.function.blocks for ins in b.instrs
              if ins.opcode == "store" and len(ins.ops) > 1 and ins.ops[1].kind == "reg"}
    found: dict[bool, dict[int, set[Axis]]] = {True: {}, False: {}}
    depth = 0  # the tile's array levels, from its own GEPs' element type
    for b in kernel.function.blocks:
        for ins in b.instrs:
            if ins.opcode != "getelementptr" or len(ins.ops) < 3 or not ins.name:
                continue
            base, levels = ins.ops[0], _array_levels(ins.attrs.get("src"))
            if getattr(base.value, "name", None) == tile or (base.kind == "global" and str(base.value) == tile):
                dim, chain = 0, []
                depth = depth or levels
            elif base.kind == "reg" and base.value in chains:
                dim, chain = chains[base.value]
                chain = list(chain)
                if depth and levels:  # `temp[z][0][x]` folds its row 0 away: the element type says which dimension
                    dim = depth - levels
            else:
                continue
            for op in ins.ops[2:]:
                axis = axes.of(op)
                if axis is not None:
                    chain.append((dim, axis))
                dim += 1
            chains[ins.name] = (dim, chain)
            for d, axis in chain:
                found[ins.name in stored].setdefault(d, set()).add(axis)
    return found[True] or found[False]


def _array_levels(t) -> int:
    n = 0
    while isinstance(t, ArrayType):
        n, t = n + 1, t.elem
    return n


def tile_block(kernel: Kernel, tile: str, dims: list[int]) -> tuple[int, int, int] | None:
    """The block a shared tile (``dims``: its lengths, outermost first) was written for, where each dimension a
    thread index indexes is indexed by one thread axis alone, x and y both (and z where a dimension is:
    ``temp[lid0][lid1][lid2]`` of ``temp[4][4][16]`` is 4 by 4 by 16), no axis twice: ``None`` otherwise (the
    caller's reading of the declaration stands)."""
    if len(dims) < 2:
        return None
    by_dim = {d: axes for d, axes in tile_axes(kernel, tile).items() if d < len(dims)}
    if any(len(seen) != 1 for seen in by_dim.values()):
        return None
    picked = {d: next(iter(seen)) for d, seen in by_dim.items()}
    axes = [axis for axis, _ in picked.values()]
    if len(set(axes)) != len(axes) or set(axes) not in ({0, 1}, {0, 1, 2}):
        return None
    extent = {axis: max(1, dims[d] // stride) for d, (axis, stride) in picked.items()}
    return extent[0], extent[1], extent.get(2, 1)
