"""Translating decoded IR instructions into Python closures over lane arrays, once per kernel.

Each closure has the signature ``op(st, lanes, sel)``: ``st`` is the per-launch :class:`State`,
``lanes`` the sorted lane ids of the executing group and ``sel`` the selector for register
arrays (a slice when the lanes are contiguous).  An op returns ``None``, or a :class:`Wait`
when the group must stop at a barrier.  No string work or llvmlite calls happen at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from simu.errors import UnsupportedError
from simu.interp.values import constant, lane_shape, scalar_dtype
from simu.ir import Function, Instr, Kernel, Module, Operand
from simu.ir.constants import GlobalRef
from simu.ir.types import ArrayType, StructType, Type

Getter = Callable[[Any, Any], Any]


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
    kernel: Kernel
    blocks: list[CBlock]
    rpo_pos: list[int]  # block index -> position in reverse post-order
    by_pos: list[int]  # position -> block index
    nslots: int
    arg_slots: list[int]
    global_refs: list[GlobalRef]
    allocas: list[tuple[int, int, int]]  # (alloca ordinal, instr id, bytes per lane)
    phis: dict[tuple[int, int], list[tuple[int, Getter, Any]]]
    instrs: dict[int, Instr]
    uses_dynamic_shared: bool = False


def proto_of(t: Type):
    """What :meth:`State.put` needs to allocate a register of type ``t``."""
    if isinstance(t, StructType):
        return [proto_of(f) for f in t.fields]
    if isinstance(t, ArrayType):
        return [proto_of(t.elem) for _ in range(t.count)]
    return (scalar_dtype(t), lane_shape(t))


class Compiler:
    def __init__(self, module: Module, kernel: Kernel):
        self.module = module
        self.kernel = kernel
        self.fn: Function = kernel.function
        self.slots: dict[str, int] = {}
        self.global_slots: dict[GlobalRef, int] = {}
        self.global_refs: list[GlobalRef] = []  # per-launch address arrays live in State.g
        self.allocas: list[tuple[int, int, int]] = []
        self.value_fns: dict[str, Getter] = {}  # pure instructions' value functions
        self.fusible: set[str] = set()  # values whose one use follows in the same block
        self.fused: set[str] = set()  # values computed inside their consumer, never stored

    def slot(self, name: str) -> int:
        s = self.slots.get(name)
        if s is None:
            s = len(self.slots)
            self.slots[name] = s
        return s

    def getter(self, op: Operand, ins: Instr | None = None) -> Getter:
        if op.kind == "reg" and op.value in self.fused:
            return self.value_fns[op.value]
        if op.kind == "reg":
            s = self.slot(op.value)
            return lambda st, sel: st.r[s][sel] if not isinstance(st.r[s], list) else _sel_agg(st.r[s], sel)
        if op.kind == "const":
            v = op.value
            if isinstance(v, GlobalRef) or _has_ref(v):
                if not isinstance(v, GlobalRef):
                    raise UnsupportedError(f"constant with embedded global address in {ins.opcode if ins else '?'}",
                                           _where(ins))
                k = self.global_slots.get(v)
                if k is None:
                    k = len(self.global_refs)
                    self.global_slots[v] = k
                    self.global_refs.append(v)
                return lambda st, sel: st.g[k][sel]
            try:
                c = constant(op.type, v)
            except UnsupportedError as exc:
                raise UnsupportedError(exc.what, _where(ins)) from None
            return lambda st, sel: c
        if op.kind == "asm":
            raise UnsupportedError(f"inline assembly `{op.value}`", _where(ins))
        raise UnsupportedError(f"operand kind {op.kind}", _where(ins))

    def compile(self) -> Program:
        from simu.interp.instructions import compile_instr

        fn = self.fn
        index = {b.name: i for i, b in enumerate(fn.blocks)}
        for name, _ in fn.args:
            self.slot(name)
        arg_slots = [self.slots[name] for name, _ in fn.args]
        blocks: list[CBlock] = []
        instrs: dict[int, Instr] = {}
        phis: dict[tuple[int, int], list] = {}
        self.fusible = _fusible_values(fn)
        for bi, b in enumerate(fn.blocks):
            ops, ids, weights = [], [], []
            carry = 0  # fused instructions not yet counted
            for ins in b.instrs[:-1]:
                instrs[ins.id] = ins
                if ins.opcode == "phi":
                    dst = self.slot(ins.name)
                    for val, pred in zip(ins.ops, ins.attrs["incoming"], strict=False):
                        phis.setdefault((index[pred], bi), []).append((dst, self.getter(val, ins), proto_of(ins.type)))
                    continue
                op = compile_instr(self, ins)
                if ins.name in self.fusible and ins.name in self.value_fns:
                    self.fused.add(ins.name)  # its consumer computes it
                    carry += 1
                    continue
                if op is not None:
                    ops.append(op)
                    ids.append(ins.id)
                    weights.append(1 + carry)
                    carry = 0
            term_ins = b.instrs[-1]
            instrs[term_ins.id] = term_ins
            blocks.append(CBlock(b.name, ops, ids, self.terminator(term_ins, index), weights, 1 + carry))
        # Phi sources that read other phis of the same block must see the old values: the
        # machine evaluates all getters of an edge before writing any destination.
        rpo_pos = [0] * len(fn.blocks)
        for pos, name in enumerate(fn.rpo):
            rpo_pos[index[name]] = pos
        by_pos = [index[name] for name in fn.rpo]
        return Program(self.kernel, blocks, rpo_pos, by_pos, len(self.slots), arg_slots,
                       self.global_refs, self.allocas, phis, instrs)

    def terminator(self, ins: Instr, index: dict[str, int]) -> Terminator:
        op = ins.opcode
        if op == "br":
            if len(ins.ops) == 1:
                return Terminator("br", ins, [index[ins.ops[0].value]])
            return Terminator("cbr", ins, [index[ins.ops[2].value], index[ins.ops[1].value]],
                              self.getter(ins.ops[0], ins))
        if op == "switch":
            default = index[ins.ops[1].value]
            ctype = ins.ops[0].type
            cases = [(constant(ctype, v), index[dest]) for v, dest in ins.attrs["cases"]]
            targets = [default] + [t for _, t in cases]
            return Terminator("switch", ins, targets, self.getter(ins.ops[0], ins), cases)
        if op == "ret":
            return Terminator("ret", ins)
        if op == "unreachable":
            return Terminator("unreachable", ins)
        raise UnsupportedError(f"terminator '{op}'", _where(ins))


def _fusible_values(fn: Function) -> set[str]:
    """Values of pure instructions used exactly once, by a later non-phi instruction of the same block.

    Such a value can be computed inside its consumer instead of being stored in a register: SSA
    guarantees its operands do not change in between, so the result is the same.
    """
    from simu.interp.instructions import PURE_OPCODES

    uses: dict[str, int] = {}
    for b in fn.blocks:
        for ins in b.instrs:
            for o in ins.ops:
                if o.kind == "reg":
                    uses[o.value] = uses.get(o.value, 0) + 1
    out = set()
    for b in fn.blocks:
        defined_here: set[str] = set()
        for ins in b.instrs:
            if ins.opcode != "phi":
                for o in ins.ops:
                    if o.kind == "reg" and o.value in defined_here and uses.get(o.value) == 1:
                        out.add(o.value)
            if ins.name and ins.opcode in PURE_OPCODES:
                defined_here.add(ins.name)
    return out


def _sel_agg(v, sel):
    return [(_sel_agg(x, sel) if isinstance(x, list) else x[sel]) for x in v]


def _has_ref(v) -> bool:
    if isinstance(v, GlobalRef):
        return True
    if isinstance(v, list):
        return any(_has_ref(x) for x in v)
    return False


def _where(ins: Instr | None) -> str | None:
    if ins is None or ins.loc is None:
        return None
    return str(ins.loc)


def compile_kernel(module: Module, kernel: Kernel) -> Program:
    """Compile once; the program is cached on the kernel object."""
    prog = getattr(kernel, "_program", None)
    if prog is None:
        prog = Compiler(module, kernel).compile()
        kernel._program = prog  # type: ignore[attr-defined]
    return prog
