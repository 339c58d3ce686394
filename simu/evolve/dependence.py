"""Which buffers' values pick the addresses a kernel accesses, and which buffers it writes, read off its IR
(issue 29, kernel sequences).

``reorderData`` stores to ``outKeys[sOffsets[radix] + tid - sBlockOffsets[radix]]`` where the shared tiles were
loaded from its ``offsets`` and ``blockOffsets`` buffers, which the program's earlier kernels compute: a race there
is one of those kernels' data, not of the thread indices.  Values are followed from each load through arithmetic,
``phi`` and ``select``, through other loads (``col[row[v]]``'s value depends on ``row`` too) and through memory the
kernel stores them to (a shared tile, a private array, a buffer it wrote), to the pointer operand of every access.
"""

from __future__ import annotations

from typing import Any

from simu.evolve.roles import POINTER_STEPS
from simu.ir import Kernel
from simu.ir.perlist import once_per_kernel

ACCESSES = ("load", "store", "atomicrmw", "cmpxchg")
_COPIES = ("llvm.memcpy", "llvm.memmove")


def pointer_operand(ins):
    """The address operand of a memory access (``store``'s second operand, the first of the others)."""
    if ins.opcode == "store":
        return ins.ops[1] if len(ins.ops) > 1 else None
    return ins.ops[0] if ins.ops else None


def _object(op, roots: dict) -> str | None:
    """The memory object a pointer operand points into: a parameter's buffer, an ``alloca``, a global."""
    if op is None:
        return None
    if op.kind == "reg":
        return roots.get(op.value)
    if op.kind == "global":
        return str(op.value)
    name = getattr(op.value, "name", None)  # a constant expression over a global (``getelementptr @tile, …``)
    return str(name) if name else None


class KernelFlow:
    """The fixed point of the analysis: for each value the parameters whose loaded values it carries (one per
    search: :func:`kernel_flow`)."""

    def __init__(self, kernel: Kernel):
        fn = kernel.function
        params = {ir: p.name for (ir, _), p in zip(fn.args, kernel.params, strict=False)
                  if p.is_pointer and not p.is_local}
        self.buffers = frozenset(params.values())  # the pointer parameters' buffers
        self.instrs = [ins for b in fn.blocks for ins in b.instrs]
        self.roots: dict[str, str] = dict(params)  # pointer value -> the object it points into
        for ins in self.instrs:
            if ins.opcode == "alloca" and ins.name:
                self.roots[ins.name] = ins.name
        self.taint: dict[str, frozenset[str]] = {}
        self.memory: dict[str, frozenset[str]] = {}  # object -> parameters whose values were stored there
        self.written: set[str] = set()
        for _ in range(12):  # phis name values defined later
            if not self._round():
                break

    def of(self, op) -> frozenset[str]:
        return self.taint.get(op.value, frozenset()) if op is not None and op.kind == "reg" else frozenset()

    def _round(self) -> bool:
        changed = False
        for ins in self.instrs:
            op = ins.opcode
            if op in POINTER_STEPS and ins.name and ins.name not in self.roots:
                bases = {self.roots.get(o.value) for o in ins.ops if o.kind == "reg"} - {None}
                if op in ("getelementptr", "bitcast", "addrspacecast"):
                    base = _object(ins.ops[0], self.roots) if ins.ops else None
                    bases = {base} if base else set()
                if len(bases) == 1:
                    self.roots[ins.name] = bases.pop()
                    changed = True
            if op in ACCESSES:
                ptr = pointer_operand(ins)
                obj = _object(ptr, self.roots)
                carried = self.of(ptr)
                if op == "store" or op in ("atomicrmw", "cmpxchg"):
                    stored = frozenset().union(*(self.of(o) for o in ins.ops if o is not ptr))
                    if obj is not None:
                        if obj in self.buffers:
                            self.written.add(obj)
                        if not stored <= self.memory.get(obj, frozenset()):
                            self.memory[obj] = self.memory.get(obj, frozenset()) | stored
                            changed = True
                if op != "store" and ins.name:
                    value = carried | self.memory.get(obj, frozenset()) if obj is not None else carried
                    if obj in self.buffers:
                        value = value | {obj}
                    changed |= self._set(ins.name, value)
            elif op == "call":
                changed |= self._call(ins)
            elif ins.name:
                changed |= self._set(ins.name, frozenset().union(*(self.of(o) for o in ins.ops)))
        return changed

    def _call(self, ins) -> bool:
        callee = str(ins.attrs.get("callee") or "")
        args = [o for o in ins.ops if o.kind == "reg"]
        changed = False
        if callee.startswith(_COPIES) and len(ins.ops) >= 2:  # the destination takes the source's values
            dst, src = _object(ins.ops[0], self.roots), _object(ins.ops[1], self.roots)
            if dst in self.buffers:
                self.written.add(dst)
            moved = self.memory.get(src, frozenset()) | ({src} if src in self.buffers else set())
            if dst is not None and not moved <= self.memory.get(dst, frozenset()):
                self.memory[dst] = self.memory.get(dst, frozenset()) | moved
                changed = True
        elif not callee.startswith("llvm."):
            for o in args:  # a pointer handed to a function simu did not inline may be written there
                if self.roots.get(o.value) in self.buffers:
                    self.written.add(self.roots[o.value])
        if ins.name:
            value = frozenset().union(*(self.of(o) for o in args))
            if not callee.startswith("llvm."):  # a builtin reading memory (atomic_inc's old value, an image read)
                for o in args:
                    obj = self.roots.get(o.value)
                    if obj is not None:
                        value |= self.memory.get(obj, frozenset()) | ({obj} if obj in self.buffers else set())
            changed |= self._set(ins.name, value)
        return changed

    def _set(self, name: str, value: frozenset[str]) -> bool:
        old = self.taint.get(name, frozenset())
        if value <= old:
            return False
        self.taint[name] = old | value
        return True

    def written_params(self) -> frozenset[str]:
        """The pointer parameters whose buffers the kernel stores to (or hands to a call it did not inline)."""
        return frozenset(self.written)

    def values_decide(self) -> bool:
        """Whether the values of some buffer (or of memory they were stored to) decide a branch or the address of
        an access.  Where none do, every launch of the same dimensions and scalars runs the same threads over the
        same addresses whatever its buffers hold: only whether two writes store equal values can differ."""
        for ins in self.instrs:
            if ins.opcode in ("br", "switch") and len(ins.ops) >= (3 if ins.opcode == "br" else 1):
                if self.of(ins.ops[0]):
                    return True
            elif ins.opcode in ACCESSES and self.of(pointer_operand(ins)):
                return True
        return False

    def address_sources(self, positions) -> frozenset[str]:
        """The parameters whose values pick the address of an access the kernel makes at any of the source
        ``positions`` ((file, line, column), as findings name them; matched on line and column)."""
        from simu.detect.context import user_location

        wanted = {(line, column) for _, line, column in positions}
        out: frozenset[str] = frozenset()
        for ins in self.instrs:
            if ins.opcode in ACCESSES and ins.loc is not None:
                loc = user_location(ins.loc)
                if (loc.line, loc.col) in wanted:
                    out |= self.of(pointer_operand(ins))
        return out


@once_per_kernel
def flow_of(kernel: Kernel) -> KernelFlow:
    """A kernel's flow, built once per kernel (its search, the refutations and the launches run before others')."""
    return KernelFlow(kernel)


def kernel_flow(search: Any) -> KernelFlow:
    """The search's kernel's flow (:func:`flow_of`)."""
    return flow_of(search.kernel)
