"""Inline PTX (``asm("...")`` in CUDA): the common one-instruction forms, modelled on the machine.

The compiler hands every call to an inline-assembly callee to :func:`translate`.  Modelled:

* ``mov.{u,s,b}{32,64} %0, %<sreg>;`` for the special registers ``%laneid``, ``%warpid`` (the
  warp's index in its block: local thread id // warp size), ``%nwarpid``, ``%smid`` (a fixed
  stand-in: the linear block id modulo :data:`builtins.NUM_SMS`), ``%nsmid`` (:data:`builtins.NUM_SMS`),
  ``%lanemask_{eq,lt,le,gt,ge}``, ``%tid/%ntid/%ctaid/%nctaid.{x,y,z}``, and the clocks
  ``%clock``, ``%clock64``, ``%globaltimer`` (``_lo``/``_hi``): the machine step, which never
  decreases within a run (``%globaltimer`` counts it in units of :data:`builtins.TIMER_NS` "nanoseconds");
* ``membar.{cta,gl,sys}``, every ``fence.*`` and ``nanosleep``: no-ops (the machine is sequentially
  consistent; ordering between threads comes from barriers and atomics, as in the detection rules);
* ``bar.sync 0`` / ``barrier.sync 0`` (``__syncthreads``), ``bar.warp.sync m`` (``__syncwarp``),
  ``activemask.b32 %0``;
* ``shfl.sync.{idx,up,down,bfly}.b32 d, a, b, c, mask;``: the warp shuffle of ``__shfl*_sync``
  (the PTX ``c`` operand is the same ``((32 - width) << 8) | clamp`` encoding the shim uses);
* ``ld.global[.nc|.ca|.cg|.cs|.lu|.cv][.L1::…|.L2::…].<type> d, [a(+imm)];`` a plain global load,
  recorded as a read; likewise ``st.global[…].<type> [a(+imm)], v;`` a plain store;
* register arithmetic with one result (:mod:`simu.interp.ptx_alu`): ``lop3``, ``shf``, ``prmt``,
  ``bfe``, ``bfi``, ``mul.hi/lo/wide``, ``mad.lo``, ``add/sub/and/or/xor/not/shl/shr/min/max``,
  ``popc``, ``clz``, ``brev``, ``rcp/sqrt/rsqrt/ex2/lg2/sin/cos.approx``, ``mov.b64 d, {lo, hi}``;
* atomics and memory-model loads/stores as libcu++ emits them (:mod:`simu.interp.ptx_atomics`);
* short straight-line blocks with named registers, as CUB's warp collectives write them
  (:mod:`simu.interp.ptx_sequences`).

Anything else raises :class:`UnsupportedError` naming the PTX text (``%N`` operands, as written in
the source) and the source line.
"""

from __future__ import annotations

import re

import numpy as np

from simu.errors import UnsupportedError
from simu.interp.builtins import BOTH_SPACES, _activemask, _shfl, special_register
from simu.interp.program import Wait, put, where
from simu.interp.ptx_alu import alu
from simu.interp.ptx_atomics import translate_atomic
from simu.interp.ptx_sequences import translate_sequence
from simu.interp.ptx_video import OPS as VIDEO_OPS
from simu.interp.ptx_video import video
from simu.interp.values import scalar_dtype
from simu.ir import Instr
from simu.ir.types import FloatType, IntType

_STRING = re.compile(r'"([^"]*)"')
_HEX = re.compile(r"\\([0-9A-Fa-f]{2})")
_OPERAND = re.compile(r"\$(\d+)")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)

_PTX_TYPES = {
    "u8": np.uint8, "s8": np.int8, "b8": np.uint8, "u16": np.uint16, "s16": np.int16, "b16": np.uint16,
    "u32": np.uint32, "s32": np.int32, "b32": np.uint32, "u64": np.uint64, "s64": np.int64, "b64": np.uint64,
    "f32": np.float32, "f64": np.float64,
}


def asm_text(ins: Instr) -> tuple[str, str]:
    """The PTX template (``%N`` operands, as in the CUDA source) and the constraint string."""
    parts = _STRING.findall(ins.attrs.get("asm", ""))
    template = parts[0] if parts else ins.attrs.get("asm", "")
    constraints = parts[1] if len(parts) > 1 else ""
    decode = lambda s: _HEX.sub(lambda m: chr(int(m.group(1), 16)), s)  # noqa: E731
    template = decode(template).replace("$$", "\x00")
    template = _OPERAND.sub(lambda m: "%" + m.group(1), template).replace("\x00", "$")
    return template, decode(constraints)


def _statements(template: str) -> list[str]:
    text = template.replace("{", " ").replace("}", " ")
    return [" ".join(s.split()) for s in re.split(r"[;\n]", text) if s.strip()]


def _unsupported(ins: Instr, text: str, why: str = "") -> UnsupportedError:
    return UnsupportedError(f"inline assembly (PTX) `{text}`" + (f" ({why})" if why else ""), where(ins))


def translate(ins: Instr, args: list, dst, proto):
    """The op for an inline-asm call (None for a no-op fence); UnsupportedError for other PTX."""
    template, constraints = asm_text(ins)
    template = _COMMENT.sub(" ", template)  # a comment-only block is a no-op
    stmts = _statements(template)
    shown = " ".join(s + ";" for s in stmts) or template
    if not stmts or all(_is_fence(s) for s in stmts):
        if dst is not None:
            raise _unsupported(ins, shown, "a fence with a result")
        return None
    cons = [c for c in constraints.split(",") if c and not c.startswith("~")]
    nout = sum(1 for c in cons if c.startswith("="))
    seq = translate_sequence(ins, template, args, nout, dst, proto) if len(stmts) > 1 or nout > 1 else None
    if seq is not None:
        return seq
    if len(stmts) != 1:
        raise _unsupported(ins, shown, "only single-instruction inline PTX is modelled")
    stmt = stmts[0]
    if nout > 1 or (nout == 1 and dst is None):
        raise _unsupported(ins, shown, "more than one output operand")
    opcode, _, rest = stmt.partition(" ")
    operands = [o.strip() for o in rest.split(",")] if rest else []

    def operand(text: str):
        """A getter for an input operand: %N (an argument of the call) or an integer immediate."""
        m = re.fullmatch(r"%(\d+)", text)
        if m:
            k = int(m.group(1)) - nout
            if 0 <= k < len(args):
                return args[k]
            raise _unsupported(ins, shown, f"operand {text} is not an input")
        try:
            c = np.int64(int(text, 0))
        except ValueError:
            raise _unsupported(ins, shown, f"operand `{text}`") from None
        return lambda st, sel: c

    def output_ok(k: int = 0) -> bool:
        return len(operands) > k and operands[k] == "%0" and nout == 1

    head = opcode.split(".")
    if head[0] == "mov" and len(operands) == 2 and output_ok() and operands[1].startswith("%") \
            and not operands[1][1:].isdigit():
        op = special_register(ins, operands[1][1:], dst, proto)
        if op is not None:
            return op
        raise _unsupported(ins, shown, f"special register {operands[1]}")
    if head[:2] == ["shfl", "sync"] and len(head) >= 3 and head[2] in ("idx", "up", "down", "bfly") \
            and len(operands) == 5 and output_ok():
        a, b, c, mask = (operand(o) for o in operands[1:])
        return _shfl(head[2], [mask, a, b, c], dst, proto)
    atomic = translate_atomic(ins, head, operands, operand, nout, dst, proto)
    if atomic is not None:
        return atomic
    if head[0] in ("ld", "st") and "global" in head and not any(h.startswith("v") and h[1:].isdigit()
                                                                for h in head):
        return _memory(ins, shown, head, operands, operand, output_ok, dst, proto)
    if opcode in ("bar.sync", "barrier.sync", "bar.sync.aligned", "barrier.sync.aligned") and operands == ["0"] \
            and dst is None:
        iid = ins.id
        return lambda st, lanes, sel: Wait(iid, BOTH_SPACES)  # __syncthreads()
    if opcode == "bar.warp.sync" and len(operands) == 1 and dst is None:
        def syncwarp(st, lanes, sel):
            st.bump_warp_epoch(lanes)
        return syncwarp
    if opcode == "activemask.b32" and output_ok() and len(operands) == 1:
        return _activemask(ins, "activemask", args, dst, proto, scalar_dtype(ins.type))
    if head[0] in VIDEO_OPS and nout == 1 and isinstance(ins.type, IntType):
        op = video(head, operands, operand, dst, proto, scalar_dtype(ins.type))
        if op is not None:
            return op
    if output_ok() and isinstance(ins.type, (IntType, FloatType)):
        op = alu(ins, shown, head, [operand(o) for o in operands[1:]], dst, proto)
        if op is not None:
            return op
    raise _unsupported(ins, shown)


def _is_fence(stmt: str) -> bool:
    op = stmt.split(" ")[0]
    return op in ("membar.cta", "membar.gl", "membar.sys", "nanosleep.u32") or op.startswith("fence.")


def _memory(ins: Instr, shown: str, head: list[str], operands: list[str], operand, output_ok, dst, proto):
    """ld.global / st.global of one scalar: a plain load or store, recorded in the trace."""
    ptx_type = head[-1]
    if ptx_type not in _PTX_TYPES:
        raise _unsupported(ins, shown, "unknown data type")
    known = {"global", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "weak", "relaxed", "volatile"}
    if any(h not in known and not h.startswith(("L1::", "L2::")) for h in head[1:-1]):
        raise _unsupported(ins, shown, "qualifier not modelled")
    pdt = np.dtype(_PTX_TYPES[ptx_type])
    iid = ins.id
    is_load = head[0] == "ld"
    addr_text = operands[1] if is_load and len(operands) == 2 else operands[0] if len(operands) == 2 else ""
    m = re.fullmatch(r"\[\s*(%\d+)\s*(?:\+\s*(-?\w+))?\s*\]", addr_text)
    if not m:
        raise _unsupported(ins, shown, "address operand")
    base = operand(m.group(1))
    off = int(m.group(2), 0) if m.group(2) else 0

    def addrs(st, lanes, sel):
        return np.broadcast_to(np.asarray(base(st, sel), np.int64) + off, lanes.shape)

    if is_load:
        if not output_ok() or not isinstance(ins.type, (IntType, FloatType)):
            raise _unsupported(ins, shown, "destination operand")
        rdt = scalar_dtype(ins.type)
        # same width: the register takes the bits; narrower: extend as the PTX type says
        ldt = rdt if rdt.itemsize == pdt.itemsize else pdt

        def load(st, lanes, sel):
            v = st.load(lanes, addrs(st, lanes, sel), ldt, 1, iid, sel)
            return v if ldt == rdt else v.astype(rdt)
        return put(dst, proto, load)
    if dst is not None or len(operands) != 2:
        raise _unsupported(ins, shown, "store operands")
    val = operand(operands[1])

    def store(st, lanes, sel):
        v = np.broadcast_to(np.asarray(val(st, sel)), lanes.shape)
        v = v.view(pdt) if v.dtype.itemsize == pdt.itemsize and v.dtype.kind != pdt.kind and v.dtype.kind == "f" \
            else v.astype(pdt)
        st.store(lanes, addrs(st, lanes, sel), v, pdt, 1, iid, sel)
        return None
    return store

