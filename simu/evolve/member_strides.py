"""Findings whose address an integer member of a struct passed by value picks: at most warnings.

A matrix view passed by value (``struct MatrixView { T *data; uint32_t stride_i, stride_j; }``, ``data[i * stride_i +
j * stride_j]``) carries its layout in its integer members, which its host sets from a matrix simu does not read
(``output->view()``).  The holder's bytes are the search's (:func:`~simu.launch.members.element_of`): small numbers,
zeros, equal strides, with which two threads' elements share one address or run off the buffer -- a layout no
program builds.  As for a tensor accessor's shape (:mod:`simu.evolve.tensors`), such a finding says which struct's
members it needs and stays a warning.  Members are followed from their loads (through the parameter's pointer,
constant offsets into it and a local copy of the whole struct, as :mod:`simu.evolve.member_bounds` reads them)
through integer arithmetic to the index of an address; a pointer member's slot is no such member.
"""

from __future__ import annotations

from typing import Any

from simu import codes
from simu.detect.context import user_location
from simu.detect.finding import Finding
from simu.evolve.dependence import ACCESSES, pointer_operand
from simu.evolve.member_bounds import by_value, copy_place, step_place
from simu.ir.perlist import once_per_kernel
from simu.ir.types import IntType
from simu.pipeline import beyond_contract

_CARRY = {"add", "sub", "mul", "shl", "or", "and", "lshr", "ashr", "udiv", "sdiv", "urem", "srem", "phi", "select",
          "sext", "zext", "trunc", "freeze", "getelementptr", "bitcast", "addrspacecast"}


@once_per_kernel
def member_addressed(kernel: Any) -> dict[tuple[int, int], str]:
    """(line, column) of each access whose address an integer member of a by-value struct picks -> the struct's
    parameter name."""
    fn = kernel.function
    structs = {ir: p for (ir, _), p in zip(fn.args, kernel.params, strict=False) if by_value(p)}
    if not structs:
        return {}
    slots = {p.name: {f.offset for f in p.pointers.fields} if p.pointers is not None else set()
             for p in structs.values()}
    sizes = {p.name: p.pointee_size for p in structs.values()}
    places: dict[str, tuple[str, int]] = {ir: (p.name, 0) for ir, p in structs.items()}
    tainted: dict[str, str] = {}  # value -> the struct parameter whose integer member it is computed from
    instrs = [ins for b in fn.blocks for ins in b.instrs]
    for _ in range(6):  # phis and copies may name values defined later
        changed = False
        for ins in instrs:
            if ins.opcode == "call":
                changed |= copy_place(ins, places, sizes)
                continue
            if not ins.name or ins.name in tainted:
                continue
            if ins.name not in places and ins.opcode in ("getelementptr", "bitcast", "addrspacecast"):
                place = step_place(ins, places)
                if place is not None:
                    places[ins.name] = place
                    changed = True
                    continue
            ops = [o.value for o in ins.ops if o.kind == "reg"]
            if ins.opcode == "load" and isinstance(ins.type, IntType) and ops and ops[0] in places:
                name, offset = places[ops[0]]
                if offset not in slots[name]:
                    tainted[ins.name] = name
                    changed = True
            elif ins.opcode in _CARRY:
                source = next((tainted[o] for o in ops if o in tainted), None)
                if source is not None:
                    tainted[ins.name] = source
                    changed = True
        if not changed:
            break
    out: dict[tuple[int, int], str] = {}
    for ins in instrs:
        if ins.opcode in ACCESSES and ins.loc is not None:
            ptr = pointer_operand(ins)
            if ptr is not None and ptr.kind == "reg" and ptr.value in tainted:
                loc = user_location(ins.loc)
                out.setdefault((loc.line, loc.col), tainted[ptr.value])
    return out


def on_search_layouts(findings: list[Finding], kernel: Any, chosen: set[str]) -> list[Finding]:
    """``findings`` with those whose access an integer member of a by-value struct addresses at most warnings, for
    the structs whose bytes the search chose (``chosen``: not the user's nor a launch record's)."""
    sites = {k: v for k, v in member_addressed(kernel).items() if v in chosen}
    if not sites:
        return findings
    out = []
    for f in findings:
        structs = {sites[(loc.line, loc.column)] for loc in f.locations if (loc.line, loc.column) in sites}
        if structs and codes.SEVERITY_RANK.get(f.severity, 0) > codes.SEVERITY_RANK[codes.WARNING]:
            names = ", ".join(f"'{n}'" for n in sorted(structs))
            f = beyond_contract(f, f"its address comes from the integer members of {names}, a struct passed by "
                                   "value whose members the search chose (its strides or sizes: the program's are "
                                   "what its host sets, which simu does not read)", "struct members")
        out.append(f)
    return out
