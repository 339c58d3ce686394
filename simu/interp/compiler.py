"""Translating decoded IR instructions into ops (closures over lane arrays), once per kernel.

The compiler walks the kernel's blocks and looks up a translator for each instruction in the
tables of instructions.py (by opcode) and, for calls, builtins.py and opencl_builtins.py (by
callee); program.py holds what it produces.  No string work or llvmlite calls happen at run time.
"""

from __future__ import annotations

import weakref

from simu.errors import UnsupportedError
from simu.interp import ptx
from simu.interp.builtins import BUILTIN_PATTERNS, BUILTINS, INTRINSICS, NOOPS, libm
from simu.interp.instructions import INSTRUCTIONS, PURE_OPCODES
from simu.interp.mangle import demangle_builtin
from simu.interp.narrow import component_stores, wide_integers
from simu.interp.opencl_builtins import OPENCL_BUILTINS, OPENCL_PATTERNS, opencl_math
from simu.interp.opencl_images import SAMPLER_INIT
from simu.interp.program import CBlock, Getter, Program, Terminator, proto_of, result_dtype, where
from simu.interp.values import constant
from simu.ir import Function, Instr, Kernel, Module, Operand
from simu.ir.constants import GlobalRef, RefDifference
from simu.ir.module import register_uses
from simu.ir.optimistic import validated_reads
from simu.ir.spin import spin_loops
from simu.ir.types import FloatType, IntType, PtrType, VectorType


class Compiler:
    def __init__(self, module: Module, kernel: Kernel):
        self.module = module
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
            if isinstance(op.type, (IntType, FloatType, PtrType, VectorType)):  # one array per register, never a list
                return lambda st, sel: st.r[s][sel]
            return lambda st, sel: st.r[s][sel] if not isinstance(st.r[s], list) else _sel_agg(st.r[s], sel)
        if op.kind == "const":
            v = op.value
            if isinstance(v, RefDifference):  # per lane: where each global lies for that lane
                plus, minus = (self.getter(Operand("const", op.type, r), ins) for r in (v.plus, v.minus))
                return lambda st, sel: plus(st, sel) - minus(st, sel)
            if isinstance(v, GlobalRef) or _has_ref(v):
                if not isinstance(v, GlobalRef):
                    raise UnsupportedError(f"constant with embedded global address in {ins.opcode if ins else '?'}",
                                           where(ins))
                k = self.global_slots.get(v)
                if k is None:
                    k = len(self.global_refs)
                    self.global_slots[v] = k
                    self.global_refs.append(v)
                return lambda st, sel: st.g[k][sel]
            try:
                c = constant(op.type, v)
            except UnsupportedError as exc:
                raise UnsupportedError(exc.what, where(ins)) from None
            return lambda st, sel: c
        if op.kind == "asm":
            raise UnsupportedError(f"inline assembly `{op.value}`", where(ins))
        raise UnsupportedError(f"operand kind {op.kind}", where(ins))

    def compile(self) -> Program:
        fn = self.fn
        index = {b.name: i for i, b in enumerate(fn.blocks)}
        for name, _ in fn.args:
            self.slot(name)
        arg_slots = [self.slots[name] for name, _ in fn.args]
        blocks: list[CBlock] = []
        instrs: dict[int, Instr] = {}
        phis: dict[tuple[int, int], list] = {}
        uses = register_uses(fn)
        self.fusible = _fusible_values(fn, uses)
        narrowed, dropped = component_stores(fn, uses)  # v.x = e: the component, not the vector (simu.interp.narrow)
        narrowed.update(wide_integers(fn))  # i128 arithmetic cut back to 64 bits: done in 64 bits
        for bi, b in enumerate(fn.blocks):
            ops, ids, weights = [], [], []
            carry = 0  # fused instructions not yet counted
            for ins in b.instrs[:-1]:
                instrs[ins.id] = ins
                if ins.id in dropped:
                    continue
                ins = narrowed.get(ins.id, ins)
                if ins.opcode == "phi":
                    dst = self.slot(ins.name)
                    for val, pred in zip(ins.ops, ins.attrs["incoming"], strict=False):
                        phis.setdefault((index[pred], bi), []).append((dst, self.getter(val, ins), proto_of(ins.type)))
                    continue
                op = self.translated(ins)
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
        spin = spin_loops(fn.blocks)
        return Program(blocks, rpo_pos, by_pos, len(self.slots), arg_slots, self.global_refs, self.allocas, phis,
                       instrs, frozenset((index[a], index[b]) for a, b in spin.back_edges),
                       frozenset((index[a], index[b]) for a, b in spin.exits), spin.reads,
                       {index[h]: loc for h, loc in spin.headers.items()}, validated_reads(fn.blocks))

    def translated(self, ins: Instr):
        """:meth:`instruction`, with a translator's failure on a form it was not written for (a type it has
        no lane dtype for, an operand it cannot read) reported as that instruction, unsupported, at its
        source line: the kernel is then *unsupported* there, not a crash of the analysis."""
        try:
            return self.instruction(ins)
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            text = ins.text.split(", !dbg")[0].strip()
            raise UnsupportedError(f"`{text[:120]}` ({type(exc).__name__}: {exc})", where(ins)) from exc

    def instruction(self, ins: Instr):
        """The op of a non-terminator, non-phi instruction (None when it needs none)."""
        op = ins.opcode
        dst = self.slot(ins.name) if ins.name else None
        proto = proto_of(ins.type) if ins.name else None
        g = [self.getter(o, ins) if o.kind in ("reg", "const") else None for o in ins.ops]
        if op == "call":
            return self.call(ins, g, dst, proto)
        translate = INSTRUCTIONS.get(op)
        if translate is None:
            raise UnsupportedError(f"instruction '{op}' (`{ins.text.split(', !dbg')[0]}`)", where(ins))
        return translate(self, ins, g, dst, proto)

    def call(self, ins: Instr, g, dst, proto):
        """The op of a call: a built-in looked up by callee (builtins.py, opencl_builtins.py), else the math library."""
        name = ins.attrs.get("callee")
        if name is None:
            if "asm" in ins.attrs:
                return ptx.translate(ins, g[:-1], dst, proto)  # inline PTX: modelled forms or unsupported
            raise UnsupportedError("indirect call through a function pointer", where(ins))
        args = g[:-1]
        if name.startswith(NOOPS):
            return None
        fn = self.module.functions.get(name)
        if fn is not None and not fn.is_declaration:
            raise UnsupportedError(f"call to '{fn.display_name}' that could not be inlined (recursion?)", where(ins))
        translate = BUILTINS.get(name) or SAMPLER_INIT.get(name)
        if translate is None and name.startswith("llvm."):
            translate = INTRINSICS.get(name.split(".")[1])
        if translate is None:
            translate = next((t for pattern, t in BUILTIN_PATTERNS if pattern.match(name)), None)
        op = translate(ins, name, args, dst, proto) if translate is not None else None
        if op is None:
            demangled = demangle_builtin(name)
            if demangled is not None:
                base, ptypes = demangled
                translate = OPENCL_BUILTINS.get(base)
                if translate is None:
                    translate = next((t for pattern, t in OPENCL_PATTERNS if pattern.fullmatch(base)), opencl_math)
                op = translate(ins, base, ptypes, args, dst, proto, result_dtype(ins, dst, proto))
        if op is None:
            op = libm(ins, name, args, dst, proto)
        if op is None:
            demangled = demangle_builtin(name) if fn is not None else None
            if demangled is not None:  # a C++ function declared here and defined elsewhere (separate compilation)
                raise UnsupportedError(f"call to '{demangled[0]}' ({name}): declared but not defined in this file, "
                                       f"and no built-in of that name", where(ins))
            raise UnsupportedError(f"call to unsupported function '{name}'", where(ins))
        return op

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
        raise UnsupportedError(f"terminator '{op}'", where(ins))


def _fusible_values(fn: Function, uses: dict[str, int]) -> set[str]:
    """Values of pure instructions used exactly once, by a later non-phi instruction of the same block.

    Such a value can be computed inside its consumer instead of being stored in a register: SSA
    guarantees its operands do not change in between, so the result is the same.
    """
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


# id(kernel) -> (weak reference to the kernel, its program).  IR kernels are unhashable dataclasses,
# so the cache is keyed by identity; the entry goes when the kernel does (the Program holds no
# reference to the kernel, so caching it does not keep the kernel alive).
_PROGRAMS: dict[int, tuple[weakref.ref, Program]] = {}


def compile_kernel(module: Module, kernel: Kernel) -> Program:
    """Compile once: the same Kernel object reuses its program."""
    key = id(kernel)
    hit = _PROGRAMS.get(key)
    if hit is not None and hit[0]() is kernel:
        return hit[1]
    prog = Compiler(module, kernel).compile()
    _PROGRAMS[key] = (weakref.ref(kernel, lambda ref, key=key: _forget(key, ref)), prog)
    return prog


def _forget(key: int, ref: weakref.ref) -> None:
    hit = _PROGRAMS.get(key)
    if hit is not None and hit[0] is ref:
        del _PROGRAMS[key]
