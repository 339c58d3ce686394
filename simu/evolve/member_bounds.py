"""Integer members of a struct passed by value that index a fixed-size array: the kernel's contract bounds them.

``p.tex[p.mipLevelOut - 1]`` with ``const float *tex[16]`` a member of the same struct: a host that fills
``p`` sets ``mipLevelOut`` to 1 .. 16, never 58, yet the struct's bytes are the search's (a holder's integer words
are drawn below the thread count, :func:`~simu.launch.members.element_of`), and the index ran off the struct --
an error no program makes.  As :func:`~simu.evolve.dictionary.index_bounds` does for an integer parameter, such
a member is drawn inside the array (:func:`bound_members`, on every launch the search builds, whatever the fill):
``lo .. hi`` where ``member + c`` indexes an array of ``n`` elements for ``lo = -c``, ``hi = n - 1 - c``.

Members are read through the parameter's pointer, through constant offsets into it, and through a local copy
(``memcpy`` of the whole struct into an ``alloca``, as clang writes a by-value struct passed down to a device
function); a member's value is followed through casts and added constants.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simu.evolve.dictionary import array_indices, const_int, memcpy_of
from simu.ir.constants import gep_constant_offset
from simu.ir.types import IntType

Bound = tuple[int, int, int, int]  # (byte offset in the struct, bytes, lowest value, highest value)

_CASTS = ("sext", "zext", "trunc")
_POINTER_STEPS = ("getelementptr", "bitcast", "addrspacecast")


def by_value(p: Any) -> bool:
    """Whether parameter ``p`` is a struct passed by value (the IR passes a pointer to the struct itself)."""
    if not p.is_pointer or p.is_local or not p.pointee_size:
        return False
    if p.pointers is not None:
        return bool(p.pointers.by_value)
    return bool(p.c_type) and not any(c in p.c_type for c in "*&[")


def member_bounds(kernel: Any) -> dict[str, tuple[Bound, ...]]:
    """Per struct parameter passed by value, the integer members the kernel uses as an index into a fixed-size
    array, with the values that keep the index inside it (see the module)."""
    fn = kernel.function
    structs = {ir: p for (ir, _), p in zip(fn.args, kernel.params, strict=False) if by_value(p)}
    if not structs:
        return {}
    places: dict[str, tuple[str, int]] = {ir: (p.name, 0) for ir, p in structs.items()}  # pointer -> (param, offset)
    sizes = {p.name: p.pointee_size for p in structs.values()}
    values: dict[str, tuple[str, int, int, int]] = {}  # integer -> (param, member offset, member bytes, added)
    found: dict[tuple[str, int, int], tuple[int, int]] = {}
    instrs = [ins for b in fn.blocks for ins in b.instrs]
    changed, rounds = True, 0
    while changed and rounds < 4:  # phis and copies may name values defined later
        changed, rounds = False, rounds + 1
        for ins in instrs:
            if ins.name and ins.name not in places and ins.name not in values:
                new = step_place(ins, places) if ins.opcode in _POINTER_STEPS else _value(ins, places, values)
                if new is not None:
                    (values if len(new) == 4 else places)[ins.name] = new  # type: ignore[assignment]
                    changed = True
            elif ins.opcode == "call":
                changed |= copy_place(ins, places, sizes)
            if ins.opcode == "getelementptr":
                _index(ins, values, found)
    out: dict[str, list[Bound]] = {}
    for (name, offset, size), (lo, hi) in sorted(found.items()):
        if lo <= hi:
            out.setdefault(name, []).append((offset, size, lo, hi))
    return {name: tuple(bounds) for name, bounds in out.items()}


def step_place(ins, places: dict) -> tuple[str, int] | None:
    """The (parameter, constant byte offset) a pointer step's result points to, when its base is one."""
    ops = ins.ops
    if not ops or ops[0].kind != "reg" or ops[0].value not in places:
        return None
    name, base = places[ops[0].value]
    if ins.opcode != "getelementptr":
        return name, base
    indices = [const_int(o) for o in ops[1:]]
    if None in indices:
        return None
    try:
        return name, base + gep_constant_offset(ins.attrs.get("src"), indices)  # type: ignore[arg-type]
    except (IndexError, TypeError, ValueError, AttributeError):
        return None


def _value(ins, places: dict, values: dict) -> tuple[str, int, int, int] | None:
    """(parameter, member offset, member bytes, constant added) of an integer a member's load gives, cast or with
    a constant added or subtracted."""
    ops = ins.ops
    if not ops or ops[0].kind != "reg":
        return None
    if ins.opcode == "load" and isinstance(ins.type, IntType) and ins.type.bits in (32, 64) \
            and ops[0].value in places:
        name, offset = places[ops[0].value]
        return name, offset, ins.type.bits // 8, 0
    held = values.get(ops[0].value)
    if held is None:
        return None
    if ins.opcode in _CASTS:
        return held
    c = const_int(ops[1]) if len(ops) == 2 else None
    if c is None or ins.opcode not in ("add", "sub"):
        return None
    return held[:3] + (held[3] + (c if ins.opcode == "add" else -c),)


def copy_place(ins, places: dict, sizes: dict[str, int]) -> bool:
    """A ``memcpy`` of a whole struct parameter (or a copy of it) into a local: the local holds its members."""
    copy = memcpy_of(ins)
    if copy is None or copy[0] in places or places.get(copy[1], (None, 1))[1] != 0:
        return False
    dst, src, size = copy
    if size != sizes.get(places[src][0]):
        return False
    places[dst] = places[src]
    return True


def _index(ins, values: dict, found: dict) -> None:
    """Record the members that index a fixed-size array in ``ins`` (a ``getelementptr``), with their bounds."""
    for op, count in array_indices(ins):
        held = values.get(op.value) if op.kind == "reg" else None
        if held is not None:
            name, offset, size, add = held
            lo, hi = found.get((name, offset, size), (-add, count - 1 - add))
            found[(name, offset, size)] = (max(lo, -add), min(hi, count - 1 - add))


def bound_members(args: dict[str, Any], bounds: dict[str, tuple[Bound, ...]], specs: dict[str, Any]) -> None:
    """Bring each bounded member of the struct arguments in ``args`` inside its bounds (``lo + v mod (hi - lo +
    1)``: the drawn value still varies, a zero becomes ``lo``): the array is replaced by a bounded copy, and its
    spec (which regenerates the unbounded bytes) dropped from ``specs``, so that a record embeds the bytes."""
    for name, members in bounds.items():
        arr = args.get(name)
        if not isinstance(arr, np.ndarray) or not arr.nbytes:
            continue
        specs.pop(name, None)
        new = arr.copy()
        raw = new.reshape(-1).view(np.uint8)
        for offset, size, lo, hi in members:
            if offset + size <= raw.size:
                word = raw[offset:offset + size].view(np.int32 if size == 4 else np.int64)
                word[0] = lo + int(word[0]) % (hi - lo + 1)
        new.flags.writeable = arr.flags.writeable
        args[name] = new
