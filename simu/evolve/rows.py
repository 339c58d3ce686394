"""Row lengths: the integer arguments a kernel linearises a thread index with.

``x = c * out_width + w`` with ``w = get_global_id(1)``, in an address or an image coordinate
(``write_imagef(out, (int2)(mad24(c, out_width, w), y), v)``), treats ``out_width`` as the length of a row of
threads.  A kernel that never compares ``w`` with it was written for launches whose NDRange is the data's extent
(the host launches exactly ``out_width`` work-items there); :mod:`simu.evolve.refute_rows` uses them.
"""

from __future__ import annotations

from simu.evolve.dictionary import CASTS, THREAD_ID_CALLS, int_params
from simu.ir import Kernel
from simu.ir.types import IntType, VectorType

_MULTIPLY_CALLS = ("_Z5mad24", "_Z5mul24", "_Z6mad_hi", "_Z3mad")  # the first two operands multiply
_IMAGE_CALLS = ("_Z12write_image", "_Z11read_image", "_Z12read_image")  # an image's coordinates
_CARRYING = CASTS | {"add", "sub", "mul", "shl", "or", "phi", "select", "sdiv", "udiv", "srem", "urem",
                     "insertelement", "extractelement", "shufflevector", "call"}


def row_length_arguments(kernel: Kernel) -> set[str]:
    """The integer parameters that multiply a thread index itself (a work-item id, not a value computed from one:
    ``row = i / width`` is a row the kernel chose to compute) inside an address or an image coordinate; an integer
    vector (``out_pos = c * output_shape.x + w``) when one of its components does."""
    params = {**int_params(kernel), **_int_vector_params(kernel)}
    instrs = [(ins.opcode, ins.name, [op.value if op.kind == "reg" else None for op in ins.ops],
               str(ins.attrs.get("callee") or "") if ins.opcode == "call" else "")
              for b in kernel.function.blocks for ins in b.instrs]
    thread: set[str] = set()
    raw: set[str] = set()  # a thread index itself (a work-item id, through casts), not a value computed from one
    rows: dict[str, set[str]] = {}  # value -> the parameters that multiply a thread-dependent value inside it
    found: set[str] = set()
    changed = True
    while changed:  # phis may name values defined later: iterate to a fixed point
        changed = False
        for opcode, name, regs, callee in instrs:
            if opcode == "getelementptr" or callee.startswith(_IMAGE_CALLS):
                for r in regs[1:] if opcode == "getelementptr" else regs:
                    found |= rows.get(r, set())
            if not name or (opcode == "call" and not callee.startswith((*THREAD_ID_CALLS, *_MULTIPLY_CALLS))):
                continue
            before = (name in thread, name in raw, name in params, len(rows.get(name, ())))
            if callee.startswith(THREAD_ID_CALLS) or (opcode in CASTS and regs and regs[0] in raw):
                raw.add(name)
            if name in raw or (opcode in _CARRYING and any(r in thread for r in regs)):
                thread.add(name)
            if (opcode in CASTS or opcode == "extractelement") and regs and regs[0] in params and name not in thread:
                params[name] = params[regs[0]]  # a component of an `int2` shape is its row length too
            if opcode in _CARRYING:
                carried = set().union(*(rows[r] for r in regs if r in rows))
                factors = regs[:2] if opcode == "mul" or callee.startswith(_MULTIPLY_CALLS) else []
                if len(factors) == 2:
                    a, b = factors
                    carried |= {params[p] for p, q in ((a, b), (b, a)) if p in params and q in raw}
                if carried:
                    rows.setdefault(name, set()).update(carried)
            if before != (name in thread, name in raw, name in params, len(rows.get(name, ()))):
                changed = True
    return found


def _int_vector_params(kernel: Kernel) -> dict[str, str]:
    """IR name -> name of each integer vector parameter (``int2``)."""
    return {ir_name: p.name for (ir_name, _), p in zip(kernel.function.args, kernel.params, strict=False)
            if isinstance(p.type, VectorType) and isinstance(p.type.elem, IntType) and not p.is_pointer}
