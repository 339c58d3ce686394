"""Spin-wait loops: loops that can only end when another thread changes memory.

A loop carries no value from one iteration to the next when its header has no phi (SROA keeps every local
in registers, so a counter or an accumulator is a phi there).  When it also stores nothing (atomics aside)
and waits at no barrier, each iteration reads the same memory and tests it: the loop exits at once or waits
for another thread — a flag another block sets (a decoupled look-back scan), a counter every block
increments (a grid barrier written by hand), a lock taken with a compare-and-swap.

The machine lets other groups run while one spins there, and records where lanes leave such a loop (an
*acquire*); the race check orders what other blocks did before an acquire with what the acquiring lane, and
its block past a barrier, do after it, and takes the loop's own reads as synchronization, not data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from simu.ir.cfg import loop_edges
from simu.ir.perlist import once_per_block_list

_BARRIER = re.compile(r"barrier|bar\.|syncthreads|grid_sync|syncwarp|bar_sync")
_READS = frozenset({"load", "atomicrmw", "cmpxchg"})
_ATOMIC_CALL = re.compile(r"atom|__simu_cas|__simu_exch")


@dataclass(frozen=True)
class SpinLoops:
    """A function's spin-wait loops, by block name."""

    back_edges: frozenset[tuple[str, str]] = frozenset()  # (tail, header)
    exits: frozenset[tuple[str, str]] = frozenset()  # (block in a loop, block outside it)
    reads: frozenset[int] = frozenset()  # instruction ids of the loops' loads and atomics
    headers: dict[str, Any] = field(default_factory=dict)  # header name -> source location (or None)

    def __bool__(self) -> bool:
        return bool(self.back_edges)


@once_per_block_list
def spin_loops(blocks: list[Any]) -> SpinLoops:
    """The spin-wait loops among ``blocks`` (a decoded function's, entry first)."""
    if not blocks:
        return SpinLoops()
    by_name = {b.name: b for b in blocks}
    back, exits, reads, headers = set(), set(), set(), {}
    for tail, head, body in loop_edges(blocks):
        instrs = [ins for name in body for ins in by_name[name].instrs]
        if any(ins.opcode == "phi" for ins in by_name[head].instrs):
            continue
        if any(ins.opcode == "store" or (ins.opcode == "call" and _BARRIER.search(ins.text)) for ins in instrs):
            continue
        loop_reads = [ins.id for ins in instrs if ins.opcode in _READS
                      or (ins.opcode == "call" and _ATOMIC_CALL.search(ins.attrs.get("callee") or ""))]
        if not loop_reads:
            continue  # reads nothing: an endless loop, not a wait
        back.add((tail, head))
        reads.update(loop_reads)
        exits.update((name, s) for name in body for s in by_name[name].succs if s not in body)
        # the test that decides whether to wait again is in the source's own code (what it reads may be inlined)
        placed = [ins for ins in by_name[head].instrs if ins.loc is not None]
        headers[head] = placed[-1].loc if placed else None
    return SpinLoops(frozenset(back), frozenset(exits), frozenset(reads), headers)


_ADDRESS = frozenset({"getelementptr", "bitcast", "addrspacecast"})


def spin_buffers(kernel: Any) -> set[str]:
    """The pointer parameters whose memory a spin-wait loop of ``kernel`` reads (its flags, counters, locks):
    a program clears them before the launch that waits on them."""
    fn = kernel.function
    spin = spin_loops(fn.blocks)
    if not spin:
        return set()
    params = {ir: p.name for (ir, _), p in zip(fn.args, kernel.params, strict=False) if p.is_pointer}
    made = {ins.name: ins for b in fn.blocks for ins in b.instrs if ins.name}
    out = set()
    for ins in (ins for b in fn.blocks for ins in b.instrs if ins.id in spin.reads and ins.opcode in _READS):
        name = parameter_behind(ins.ops[0], params, made) if ins.ops else None
        if name is not None:
            out.add(name)
    return out


def parameter_behind(op: Any, params: dict[str, str], made: dict[str, Any]) -> str | None:
    """The pointer parameter (of ``params``: IR value -> name) an address operand points into, followed back
    through its chain of offsets and casts (``made``: IR value -> the instruction defining it), or None."""
    for _ in range(16):
        if op is None or op.kind != "reg":
            return None
        if op.value in params:
            return params[op.value]
        src = made.get(op.value)
        op = src.ops[0] if src is not None and src.opcode in _ADDRESS and src.ops else None
    return None
