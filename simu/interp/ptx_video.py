"""Inline PTX scalar video instructions: ``vadd``, ``vsub``, ``vabsdiff``, ``vmin``, ``vmax`` and ``vmad`` on 32-bit
registers, with byte and half-word operand selectors (``vadd.s32.s32.s32 %0, %1.h0, %2.h1``), saturation, a
secondary operation with a third operand (``.add``, ``.min``, ``.max``) and the destination merge
(``vadd.u32.u32.u32 %0.b0, %1, %2, %3``: the result's low byte into a copy of the third operand), as the PTX ISA
defines them: each source field is sign- or zero-extended as its type says, the operation is exact (64-bit), and
the result is clamped (``.sat``) to the destination's type, or to the merged field's width.  Hand-tuned rasterisers
and hashing code write them.  :func:`video` returns None for a form it does not model (negated operands,
``vmad.po``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from simu.interp.program import put

OPS = ("vadd", "vsub", "vabsdiff", "vmin", "vmax", "vmad")
_TYPES = {"s32": True, "u32": False}  # type -> signed
_FIELDS = {"b0": (0, 8), "b1": (8, 8), "b2": (16, 8), "b3": (24, 8), "h0": (0, 16), "h1": (16, 16)}
_OPERAND = re.compile(r"(%\d+|-?\d+|0x[0-9a-fA-F]+)(?:\.(b[0-3]|h[01]))?")
_BINARY: dict[str, Callable] = {"vadd": np.add, "vsub": np.subtract, "vabsdiff": lambda a, b: np.abs(a - b),
                                "vmin": np.minimum, "vmax": np.maximum}
_SECOND: dict[str, Callable] = {"add": np.add, "min": np.minimum, "max": np.maximum}


def video(head: list[str], operands: list[str], operand, dst, proto, rdt):
    """The op for a video instruction (``head``: the opcode split at dots; ``operand``: a getter for ``%N`` or an
    immediate), or None when the form is not modelled."""
    name, types, mods = head[0], head[1:4], head[4:]
    if name not in OPS or len(types) != 3 or any(t not in _TYPES for t in types) or len(operands) not in (3, 4):
        return None
    parts = [_OPERAND.fullmatch(o) for o in operands]
    if any(p is None for p in parts) or parts[0].group(1) != "%0":  # type: ignore[union-attr]
        return None
    dsel = parts[0].group(2)  # type: ignore[union-attr]
    sat = "sat" in mods
    second = next((m for m in mods if m in _SECOND), None)
    scale = {"shr7": 7, "shr15": 15}.get(next((m for m in mods if m.startswith("shr")), ""), 0)
    if any(m not in ("sat", "shr7", "shr15", *_SECOND) for m in mods):
        return None
    if name == "vmad":
        if len(operands) != 4 or dsel or second:
            return None
    elif scale or (len(operands) == 4) != bool(dsel or second) or (dsel and second):
        return None
    signed_d, signed_a, signed_b = (_TYPES[t] for t in types)
    a_get, b_get = operand(parts[1].group(1)), operand(parts[2].group(1))  # type: ignore[union-attr]
    asel, bsel = parts[1].group(2), parts[2].group(2)  # type: ignore[union-attr]
    c_get = operand(parts[3].group(1)) if len(parts) == 4 else None  # type: ignore[union-attr]

    def run(st, lanes, sel):
        def value(get):
            return np.broadcast_to(np.asarray(get(st, sel)), lanes.shape).astype(np.int64) & 0xFFFFFFFF

        a = _field(value(a_get), asel, signed_a)
        b = _field(value(b_get), bsel, signed_b)
        with np.errstate(all="ignore"):
            if name == "vmad":
                signed = signed_a or signed_b
                c = value(c_get)
                c = np.where(c >= 1 << 31, c - (1 << 32), c) if signed else c
                tmp = (a * b + c) >> scale
                out = _saturate(tmp, signed, 32) if sat else tmp
            else:
                tmp = _BINARY[name](a, b)
                if dsel:
                    shift, width = _FIELDS[dsel]
                    tmp = _saturate(tmp, signed_d, width) if sat else tmp
                    mask = ((1 << width) - 1) << shift
                    out = (value(c_get) & ~mask) | ((tmp << shift) & mask)
                else:
                    tmp = _saturate(tmp, signed_d, 32) if sat else tmp
                    out = _SECOND[second](tmp, _field(value(c_get), None, signed_d)) if second else tmp
        return (out & 0xFFFFFFFF).astype(np.uint32).view(np.int32 if signed_d else np.uint32).astype(rdt)
    return put(dst, proto, run)


def _field(v: np.ndarray, sel: str | None, signed: bool) -> np.ndarray:
    """The selected field of 32-bit words ``v`` (held in int64), sign- or zero-extended."""
    shift, width = _FIELDS[sel] if sel else (0, 32)
    f = (v >> shift) & ((1 << width) - 1)
    return np.where(f >= 1 << (width - 1), f - (1 << width), f) if signed else f


def _saturate(v: np.ndarray, signed: bool, width: int) -> np.ndarray:
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    return np.clip(v, lo, hi)
