"""Short straight-line inline PTX: the multi-instruction forms CUB's warp collectives use.

CUB's ``WarpReduce``/``WarpScan`` (shfl specialisations) write one ``asm`` block per step:
``{ .reg .f32 r0; .reg .pred p; shfl.sync.down.b32 r0|p, %1, %2, %3, %5; @p add.f32 r0, r0, %4;
mov.f32 %0, r0; }``, and for 64-bit values split into ``{lo, hi}`` halves around two shuffles.
:func:`translate_sequence` runs such a block on lane vectors: named registers, ``.reg``
declarations, guards ``@p`` / ``@!p``, and the instructions

* ``shfl.sync.{idx,up,down,bfly}.b32 d[|p], a, b, c, mask`` (``p``: the source lane was in range),
* ``mov.<t> d, s``, ``mov.b64 {lo, hi}, s`` and ``mov.b64 d, {lo, hi}``,
* ``add/sub/min/max.<t> d, a, b`` and ``bfe.{u,s}{32,64} d, a, pos, len``,
* any other integer instruction :mod:`simu.interp.ptx_alu` models (``lop3``, ``shl``/``shr``, ``prmt``, ...).

Anything else is not recognised (None), and :mod:`simu.interp.ptx` reports it as unsupported.
"""

from __future__ import annotations

import re

import numpy as np

from simu.interp.builtins import shfl_lanes
from simu.interp.program import put
from simu.interp.ptx_alu import integer_op
from simu.interp.values import scalar_dtype

_TYPES = {
    "u16": np.uint16, "s16": np.int16, "b16": np.uint16, "u32": np.uint32, "s32": np.int32, "b32": np.uint32,
    "u64": np.uint64, "s64": np.int64, "b64": np.uint64, "f32": np.float32, "f64": np.float64,
}
_INT_TYPES = {k: v for k, v in _TYPES.items() if k[0] in "usb"}
_ARITH = {"add": np.add, "sub": np.subtract, "min": np.minimum, "max": np.maximum}
_OPERAND = re.compile(r"%\d+|[A-Za-z_]\w*|-?(0[xX][0-9a-fA-F]+|\d+)")


def _as(v: np.ndarray, dt: np.dtype) -> np.ndarray:
    """The PTX view of a register: same width reinterprets the bits, otherwise converts."""
    v, dt = np.asarray(v), np.dtype(dt)
    if v.dtype == dt:
        return v
    if v.dtype.itemsize == dt.itemsize:
        return np.ascontiguousarray(v).view(dt)
    if v.dtype.kind == "f" or dt.kind == "f":
        return v.astype(dt)
    return v.astype(np.uint64).astype(dt) if dt.kind == "u" else v.astype(dt)


def _parse(stmts: list[str]):
    """[(guard, negated, opcode parts, operands)], or None when a statement is not modelled."""
    prog = []
    for s in stmts:
        if s.startswith(".reg "):
            continue
        guard, neg = None, False
        m = re.match(r"@(!?)(\w+)\s+(.*)", s)
        if m:
            neg, guard, s = m.group(1) == "!", m.group(2), m.group(3)
        opcode, _, rest = s.partition(" ")
        ops = [o.strip() for o in re.split(r",(?![^{]*\})", rest)] if rest else []
        head = opcode.split(".")
        if head[0] == "shfl" and len(head) == 4 and head[1] == "sync" and len(ops) == 5:
            pass
        elif head[0] == "mov" and len(head) == 2 and head[1] in _TYPES and len(ops) == 2:
            pass
        elif head[0] in _ARITH and len(head) == 2 and head[1] in _TYPES and len(ops) == 3:
            pass
        elif head[0] == "bfe" and len(head) == 2 and head[1] in ("u32", "s32", "u64", "s64") and len(ops) == 4:
            pass
        elif head[-1] in _INT_TYPES and len(ops) >= 2 and integer_op(
                head[0], head, _INT_TYPES[head[-1]], [np.zeros(1, np.uint32)] * (len(ops) - 1)) is not None:
            head = ["alu", *head]
        else:
            return None
        if not all(_OPERAND.fullmatch(t.strip()) for o in ops for t in re.split(r"[{},|]", o) if t.strip()):
            return None  # special registers (%laneid, ...) and addresses are ptx.py's
        prog.append((guard, neg, head, ops))
    return prog


def _split(template: str) -> list[str]:
    """Statements of a PTX block: the block's own braces go, ``{lo, hi}`` operand lists stay."""
    out = []
    for raw in re.split(r"[;\n]", template):
        s = raw.strip()
        while s.startswith("{"):
            s = s[1:].strip()
        while s.endswith("}") and s.count("}") > s.count("{"):
            s = s[:-1].strip()
        if s:
            out.append(" ".join(s.split()))
    return out


def translate_sequence(ins, template: str, args: list, nout: int, dst, proto):
    """The op for a modelled PTX block with its ``%0`` … outputs (several: the call returns them as a struct), or
    None."""
    fields = getattr(ins.type, "fields", None)
    if dst is None or nout < 1 or nout > 1 and (fields is None or len(fields) != nout):
        return None
    prog = _parse(_split(template))
    if not prog:
        return None
    try:
        out_dts = [scalar_dtype(t) for t in fields] if nout > 1 else [scalar_dtype(ins.type)]
    except (TypeError, ValueError, AttributeError):
        return None

    def run(st, lanes, sel):
        n = len(lanes)
        regs: dict[str, np.ndarray] = {}

        def get(text: str) -> np.ndarray:
            if text in regs:
                return regs[text]
            m = re.fullmatch(r"%(\d+)", text)
            if m and 0 <= int(m.group(1)) - nout < len(args):
                return np.broadcast_to(np.asarray(args[int(m.group(1)) - nout](st, sel)), (n,))
            return np.full(n, int(text, 0), np.int64)

        def set_(name: str, value: np.ndarray, guard, neg) -> None:
            if guard is not None:
                p = regs[guard] if not neg else ~regs[guard]
                old = regs.get(name, np.zeros(n, value.dtype))
                value = np.where(p, value, _as(old, value.dtype))
            regs[name] = np.asarray(value)

        for guard, neg, head, ops in prog:
            op = head[0]
            if op == "shfl":
                d, _, p = ops[0].partition("|")
                a, b, c, _mask = ops[1:]
                vals, ok = shfl_lanes(head[2], st, lanes, sel, lambda s_, q, a=a: _as(get(a), np.uint32),
                                      lambda s_, q, b=b: get(b), lambda s_, q, c=c: get(c))
                set_(d, np.asarray(vals), guard, neg)
                if p:
                    set_(p, np.asarray(ok), guard, neg)
            elif op == "mov":
                dt = np.dtype(_TYPES[head[1]])
                if ops[0].startswith("{"):
                    lo, hi = (x.strip() for x in ops[0].strip("{}").split(","))
                    v = _as(get(ops[1]), np.uint64)
                    set_(lo, (v & 0xFFFFFFFF).astype(np.uint32), guard, neg)
                    set_(hi, (v >> np.uint64(32)).astype(np.uint32), guard, neg)
                elif ops[1].startswith("{"):
                    lo, hi = (get(x.strip()) for x in ops[1].strip("{}").split(","))
                    v = _as(lo, np.uint32).astype(np.uint64) | (_as(hi, np.uint32).astype(np.uint64) << np.uint64(32))
                    set_(ops[0], v, guard, neg)
                else:
                    set_(ops[0], _as(get(ops[1]), dt), guard, neg)
            elif op == "bfe":
                dt = np.dtype(_TYPES[head[1]])
                bits = dt.itemsize * 8
                a = _as(get(ops[1]), dt)
                pos = np.asarray(get(ops[2])).astype(np.int64) & 0xFF
                ln = np.asarray(get(ops[3])).astype(np.int64) & 0xFF
                ln = np.minimum(ln, bits)
                ua = a.view(np.uint32 if bits == 32 else np.uint64).astype(np.uint64)
                shifted = np.where(pos < bits, ua >> np.minimum(pos, bits - 1).astype(np.uint64), 0)
                mask = np.where(ln >= 64, np.uint64(2**64 - 1), (np.uint64(1) << ln.astype(np.uint64)) - np.uint64(1))
                v = shifted & mask
                if dt.kind == "i":  # sign-extend from bit len-1 (or the source's sign when pos is past it)
                    sbit = np.where(ln == 0, 0, (v >> np.maximum(ln - 1, 0).astype(np.uint64)) & np.uint64(1))
                    v = np.where((sbit == 1) & (ln < 64), v | ~mask, v)
                set_(ops[0], v.astype(np.uint64).astype(dt.str.replace("i", "u")).view(dt), guard, neg)
            elif op == "alu":
                with np.errstate(all="ignore"):
                    v = integer_op(head[1], head[1:], _INT_TYPES[head[-1]], [get(o) for o in ops[1:]])
                set_(ops[0], np.asarray(v), guard, neg)
            else:
                dt = np.dtype(_TYPES[head[1]])
                with np.errstate(over="ignore"):
                    v = _ARITH[op](_as(get(ops[1]), dt), _as(get(ops[2]), dt)).astype(dt)
                set_(ops[0], v, guard, neg)
        outs = [_as(regs[f"%{k}"], dt) for k, dt in enumerate(out_dts)]
        return outs if nout > 1 else outs[0]

    return put(dst, proto, run)
