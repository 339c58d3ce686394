"""Row lengths: the integer arguments a kernel linearises a thread index with.

``x = c * out_width + w`` with ``w = get_global_id(1)``, in an address or an image coordinate
(``write_imagef(out, (int2)(mad24(c, out_width, w), y), v)``), treats ``out_width`` as the length of a row of
threads.  A kernel that never compares ``w`` with it was written for launches whose NDRange is the data's extent
(the host launches exactly ``out_width`` work-items there); :mod:`simu.evolve.refute_rows` uses them.
"""

from __future__ import annotations

from simu.evolve.dictionary import CASTS, THREAD_ID_CALLS, const_int, int_params
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
    return set(row_lengths(kernel))


def row_lengths(kernel: Kernel) -> dict[str, int]:
    """:func:`row_length_arguments`, each with how many columns one work-item spans along its row (the most of its
    uses): a thread index scaled by a constant (``out_w = get_global_id(1) * 2``, a work-item writing two columns) is a
    column of the row still, and the row is that many times as long as the work-items along it."""
    params = {**int_params(kernel), **_int_vector_params(kernel)}
    instrs = [(ins.opcode, ins.name, [op.value if op.kind == "reg" else None for op in ins.ops],
               [const_int(op) for op in ins.ops],
               str(ins.attrs.get("callee") or "") if ins.opcode == "call" else "")
              for b in kernel.function.blocks for ins in b.instrs]
    thread: set[str] = set()
    raw: dict[str, int] = {}  # a thread index itself (through casts, times or plus a constant) -> its scale
    rows: dict[str, dict[str, int]] = {}  # value -> the parameters that multiply a thread index inside it (scale)
    computed: dict[str, dict[str, int]] = {}  # value -> parameters multiplying a row computed from a thread index
    found: dict[str, int] = {}
    changed = True
    while changed:  # phis may name values defined later: iterate to a fixed point
        changed = False
        for opcode, name, regs, consts, callee in instrs:
            if opcode == "getelementptr" or callee.startswith(_IMAGE_CALLS):
                for r in regs[1:] if opcode == "getelementptr" else regs:
                    _merge(found, rows.get(r, {}))
            if not name or (opcode == "call" and not callee.startswith((*THREAD_ID_CALLS, *_MULTIPLY_CALLS))):
                continue
            before = (name in thread, raw.get(name), name in params, dict(rows.get(name, {})),
                      dict(computed.get(name, {})))
            scale = _scaled_index(opcode, regs, consts, callee, raw)
            if scale is not None:
                raw[name] = max(raw.get(name, 0), scale)
            if name in raw or (opcode in _CARRYING and any(r in thread for r in regs)):
                thread.add(name)
            if (opcode in CASTS or opcode == "extractelement") and regs and regs[0] in params and name not in thread:
                params[name] = params[regs[0]]  # a component of an `int2` shape is its row length too
            if opcode in _CARRYING:
                carried: dict[str, int] = {}
                for r in regs:
                    _merge(carried, rows.get(r, {}))
                factors = regs[:2] if opcode == "mul" or callee.startswith(_MULTIPLY_CALLS) else []
                if len(factors) == 2:
                    a, b = factors
                    _merge(carried, {params[p]: 1 for p, q in ((a, b), (b, a)) if p in params and q in raw})
                # the column added to a row's start: the columns one work-item spans (`out_w = gid * 2`)
                added = [raw[r] for r in (regs[2:3] if factors and opcode == "call" else regs if opcode in
                                          ("add", "or") else []) if r in raw]
                if added and carried:
                    carried = {p: max(k, *added) for p, k in carried.items()}
                if carried:
                    _merge(rows.setdefault(name, {}), carried)
                _computed_rows(opcode, name, regs, factors, added, params, raw, thread, rows, computed)
            if before != (name in thread, raw.get(name), name in params, rows.get(name, {}), computed.get(name, {})):
                changed = True
    return found


def _computed_rows(opcode: str, name: str, regs: list, factors: list, added: list[int], params: dict,
                   raw: dict[str, int], thread: set[str], rows: dict, computed: dict) -> None:
    """A parameter multiplying a row the kernel computed from a thread index (``out_h = gid(2) % height``) is a row
    length once a thread index itself is added to the product as its column (``out_h * width + gid(1)``): that
    column never compared with ``width`` runs into the next row as surely as with ``c * width + w``."""
    mine: dict[str, int] = {}
    if opcode in _PASSING:
        for r in regs[2:3] if opcode == "call" else regs:
            _merge(mine, computed.get(r, {}))
    if len(factors) == 2:
        a, b = factors
        _merge(mine, {params[p]: 1 for p, q in ((a, b), (b, a)) if p in params and q in thread and q not in raw})
    if not mine:
        return
    if added:
        _merge(rows.setdefault(name, {}), {p: max(k, *added) for p, k in mine.items()})
    else:
        _merge(computed.setdefault(name, {}), mine)


_PASSING = CASTS | {"add", "or", "phi", "call"}  # what carries a product into a sum of it (mad24's addend)
_MAX_SCALE = 64  # columns one work-item spans: more is a value computed from the index, not a column of it


def _scaled_index(opcode: str, regs: list, consts: list, callee: str, raw: dict[str, int]) -> int | None:
    """The scale of a thread index ``opcode`` makes: a work-item id (1), a cast of one, one times or shifted by a
    constant, one plus a constant; ``None`` for anything else."""
    if callee.startswith(THREAD_ID_CALLS):
        return 1
    if opcode in CASTS and regs and regs[0] in raw:
        return raw[regs[0]]
    if opcode in ("mul", "shl", "add", "or") and len(regs) == 2:
        for i in (0, 1) if opcode != "shl" else (0,):
            x, k = regs[i], consts[1 - i]
            if x in raw and k is not None and 0 <= k:
                step = k if opcode == "mul" else (1 << k if k < 7 else 0) if opcode == "shl" else 1
                scale = raw[x] * step
                return scale if 0 < scale <= _MAX_SCALE else None
    return None


def _merge(into: dict[str, int], more: dict[str, int]) -> None:
    for p, k in more.items():
        into[p] = max(into.get(p, 0), k)


def _int_vector_params(kernel: Kernel) -> dict[str, str]:
    """IR name -> name of each integer vector parameter (``int2``)."""
    return {ir_name: p.name for (ir_name, _), p in zip(kernel.function.args, kernel.params, strict=False)
            if isinstance(p.type, VectorType) and isinstance(p.type.elem, IntType) and not p.is_pointer}
