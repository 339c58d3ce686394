"""Argument values worth trying, read off the kernel's own comparisons (a fuzzer's dictionary).

A bug behind `if (mode == 5)`, `switch (op)`, `if (flags & 64)` or `if (shift < 0)` sits behind a
branch whose condition compares a scalar argument with a constant.  Random values rarely hit such
a constant; the IR says it outright.  For every comparison, switch and bit mask that involves an
integer argument (directly, through casts, or plus/minus a constant) the constant is collected,
with its neighbours for ordered comparisons; the search seeds and mutates argument genes with them.  An address
indexed by an argument minus a constant (``x + (n - 8)``) adds the values that put that index at -1 and 0.
"""

from __future__ import annotations

from simu.ir import Kernel, Operand
from simu.ir.perlist import once_per_kernel
from simu.ir.types import IntType

CASTS = {"sext", "zext", "trunc", "freeze", "bitcast"}
_MAX_VALUE = 1 << 20  # genes are clamped to this range anyway


def memcpy_of(ins) -> tuple[str, str, int | None] | None:
    """(destination, source, constant bytes or None) of an ``llvm.memcpy`` call between two registers, else None."""
    ops = ins.ops
    if ins.opcode != "call" or not str(ins.attrs.get("callee") or "").startswith("llvm.memcpy") or len(ops) < 3 \
            or ops[0].kind != "reg" or ops[1].kind != "reg":
        return None
    return ops[0].value, ops[1].value, const_int(ops[2])


def const_int(op) -> int | None:
    if op.kind != "const" or isinstance(op.value, (list, tuple)) or not isinstance(op.type, IntType):
        return None
    try:
        return int(op.value)
    except (TypeError, ValueError):
        return None


def argument_constants(kernel: Kernel) -> tuple[dict[str, list[int]], list[int]]:
    """(values per integer parameter, every integer constant compared anywhere in the kernel)."""
    fn = kernel.function
    origin: dict[str, tuple[str, int]] = {}  # SSA value -> (parameter, constant added to it)
    for (ir_name, _), p in zip(fn.args, kernel.params, strict=False):
        if isinstance(p.type, IntType) and p.type.bits > 1:
            origin[ir_name] = (p.name, 0)
    per: dict[str, set[int]] = {}
    pool: set[int] = set()

    def add(param_off, k: int, ordered: bool) -> None:
        pool.add(k)
        if param_off is None:
            return
        name, off = param_off
        base = k - off
        for v in ((base - 1, base, base + 1) if ordered else (base,)):
            if abs(v) <= _MAX_VALUE:
                per.setdefault(name, set()).add(v)

    for b in fn.blocks:
        for ins in b.instrs:
            ops = ins.ops
            src = origin.get(ops[0].value) if ops and ops[0].kind == "reg" else None
            if ins.opcode in CASTS and src is not None and ins.name:
                origin[ins.name] = src
            elif ins.opcode in ("add", "sub") and ins.name and len(ops) == 2:
                k = const_int(ops[1])
                if src is not None and k is not None:
                    origin[ins.name] = (src[0], src[1] + (k if ins.opcode == "add" else -k))
            elif ins.opcode in ("select", "phi") and ins.name:
                # `count < 8 ? 0 : count - 8`: the arm that carries an argument, the other a constant or a thread's
                arms = ops[1:] if ins.opcode == "select" else ops
                carried = [origin[o.value] for o in arms if o.kind == "reg" and o.value in origin]
                if len(carried) == 1:
                    origin[ins.name] = carried[0]
            elif ins.opcode == "getelementptr":
                # an address at `n - 8`: before the buffer's start when n < 8, so try n = 7 and 8
                for o in ops[1:]:
                    src_off = origin.get(o.value) if o.kind == "reg" else None
                    if src_off is not None and src_off[1] < 0:
                        name, off = src_off
                        per.setdefault(name, set()).update((-off - 1, -off))
            elif ins.opcode == "icmp" and len(ops) == 2:
                for a, c in ((ops[0], ops[1]), (ops[1], ops[0])):
                    k = const_int(c)
                    if k is not None:
                        pred = ins.attrs.get("pred", "eq")
                        add(origin.get(a.value) if a.kind == "reg" else None, k, pred not in ("eq", "ne"))
            elif ins.opcode == "switch":
                for v, _ in ins.attrs.get("cases", []):
                    add(src, int(v), False)
            elif ins.opcode in ("and", "or", "xor") and len(ops) == 2:
                for a, c in ((ops[0], ops[1]), (ops[1], ops[0])):
                    k = const_int(c)
                    if k is not None and a.kind == "reg" and a.value in origin and 0 < abs(k) <= _MAX_VALUE:
                        per.setdefault(origin[a.value][0], set()).add(k)
                        pool.add(k)
    pool = {v for v in pool if abs(v) <= _MAX_VALUE}
    return {k: sorted(v) for k, v in per.items()}, sorted(pool)


_BLOCK_ID_CALLS = ("llvm.nvvm.read.ptx.sreg.ctaid.", "_Z12get_group_idj", "_Z13get_global_idj")
_DERIVING = CASTS | {"add", "sub", "mul", "shl", "or", "and", "xor", "lshr", "ashr"}


def grid_relative_arguments(kernel: Kernel) -> set[str]:
    """Integer parameters a block id is divided by or reduced modulo (``acc[blockIdx.x % k]``,
    ``blockIdx.x / per_group``): what such a kernel does changes once the grid outgrows the argument,
    so the search tries small values with grids larger than them."""
    fn = kernel.function
    params = int_params(kernel)
    block_ids: set[str] = set()
    found: set[str] = set()
    for b in fn.blocks:
        for ins in b.instrs:
            if not ins.name:
                continue
            regs = [op.value for op in ins.ops if op.kind == "reg"]
            if ins.opcode == "call" and str(ins.attrs.get("callee") or "").startswith(_BLOCK_ID_CALLS):
                block_ids.add(ins.name)
            elif ins.opcode in CASTS and regs and regs[0] in params:
                params[ins.name] = params[regs[0]]
            elif ins.opcode in ("urem", "srem", "udiv", "sdiv") and len(ins.ops) == 2:
                dividend, divisor = ins.ops
                if dividend.kind == "reg" and dividend.value in block_ids and divisor.kind == "reg" \
                        and divisor.value in params:
                    found.add(params[divisor.value])
                if dividend.kind == "reg" and dividend.value in block_ids:
                    block_ids.add(ins.name)
            elif ins.opcode in _DERIVING and any(r in block_ids for r in regs):
                block_ids.add(ins.name)
    return found


THREAD_ID_CALLS = ("llvm.nvvm.read.ptx.sreg.tid.", "llvm.nvvm.read.ptx.sreg.ctaid.", "_Z13get_global_idj",
                    "_Z12get_local_idj", "_Z12get_group_idj")
_CARRYING = CASTS | {"add", "sub", "mul", "shl", "or", "phi", "select", "sdiv", "udiv", "srem", "urem"}


def stride_arguments(kernel: Kernel) -> set[str]:
    """Integer parameters that multiply a thread-dependent index in an address (``X[i * INCX]``,
    ``X[OFFX + i * INCX]``): a stride or increment.  At 0 every thread uses one element, a launch real
    programs do not make unless the kernel handles it (``if (INCX == 0)``, see :func:`argument_constants`)."""
    params = int_params(kernel)
    instrs = register_instrs(kernel)
    thread = _thread_values(instrs)
    strided: dict[str, set[str]] = {}  # value -> the parameters that multiply a thread index inside it
    found: set[str] = set()
    changed = True
    while changed:  # phis may name values defined later: iterate to a fixed point
        changed = False
        for opcode, name, regs, reads_thread in instrs:
            if opcode == "getelementptr":
                for r in regs[1:]:
                    if r in strided:
                        found |= strided[r]
            if not name:
                continue
            before = (name in params, len(strided.get(name, ())))
            if not reads_thread and opcode in CASTS and regs and regs[0] in params:
                params[name] = params[regs[0]]
            if opcode in _CARRYING or opcode in _DERIVING:
                carried = set().union(*(strided[r] for r in regs if r in strided))
                if opcode == "mul" and len(regs) == 2:
                    a, b = regs
                    if a in thread and b in params:
                        carried.add(params[b])
                    if b in thread and a in params:
                        carried.add(params[a])
                if carried:
                    strided.setdefault(name, set()).update(carried)
            if before != (name in params, len(strided.get(name, ()))):
                changed = True
    return found


def bound_arguments(kernel: Kernel) -> set[str]:
    """Integer parameters a thread-dependent value is compared with (``if (index < n)``): a count of work items,
    which programs pass as the product of the sizes the kernel splits the index into."""
    instrs = register_instrs(kernel)
    thread = _thread_values(instrs)
    params = through_casts(instrs, int_params(kernel), skip=thread)
    return {params[r] for opcode, _, regs, _ in instrs if opcode == "icmp" and len(regs) == 2
            and any(x in thread for x in regs) for r in regs if r in params}


def int_params(kernel: Kernel) -> dict[str, str]:
    """IR name -> name of each integer (not bool) parameter."""
    fn = kernel.function
    return {ir_name: p.name for (ir_name, _), p in zip(fn.args, kernel.params, strict=False)
            if isinstance(p.type, IntType) and p.type.bits > 1}


@once_per_kernel
def register_instrs(kernel: Kernel) -> list[tuple[str, str | None, list[str], bool]]:
    """(opcode, name, register operands, whether it reads a thread index) of each instruction, read once per kernel:
    the fixed-point loops over them may pass over a large kernel several times, and several analyses ask."""
    return [(ins.opcode, ins.name, [op.value for op in ins.ops if op.kind == "reg"],
             ins.opcode == "call" and str(ins.attrs.get("callee") or "").startswith(THREAD_ID_CALLS))
            for b in kernel.function.blocks for ins in b.instrs]


def _thread_values(instrs: list[tuple[str, str | None, list[str], bool]]) -> set[str]:
    """The values that differ between threads: thread indices and what is computed from them."""
    thread: set[str] = set()
    changed = True
    while changed:  # phis may name values defined later: iterate to a fixed point
        changed = False
        for opcode, name, regs, reads_thread in instrs:
            if name and name not in thread and (reads_thread or (
                    (opcode in _CARRYING or opcode in _DERIVING) and any(r in thread for r in regs))):
                thread.add(name)
                changed = True
    return thread


def through_casts(instrs: list[tuple[str, str | None, list[str], bool]], params: dict[str, str],
                   skip: set[str] | frozenset = frozenset()) -> dict[str, str]:
    """``params`` (IR name -> parameter) with the values cast from them (``sext i32 %nk``), ``skip`` left out."""
    changed = True
    while changed:
        changed = False
        for opcode, name, regs, _ in instrs:
            if name and name not in params and name not in skip and opcode in CASTS and regs and regs[0] in params:
                params[name] = params[regs[0]]
                changed = True
    return params


MAX_RECORD_BYTES = 1 << 16  # the largest per-thread record thread_stride_bytes counts


def thread_stride_bytes(kernel: Kernel) -> int:
    """The largest constant number of bytes between two consecutive threads' elements in an address
    (``in[gid * 256 + k]`` over 8-byte elements: 2048; a thread index into an array of 48-byte structs: 48).  A
    host that lays one such record out per thread allocates threads x that many bytes: a plausible length the
    kernel's integer arguments alone do not give (:func:`simu.evolve.sizes.kernel_sizes`).  Strides over
    :data:`MAX_RECORD_BYTES` are not counted: such an address is a wild one more often than a record."""
    from simu.ir.types import alloc_size

    scale: dict[str, int] = {}  # thread-dependent value -> the constant it is a multiple of (1: the index itself)
    best = 0
    instrs = [ins for b in kernel.function.blocks for ins in b.instrs]
    changed = True
    while changed:  # phis may name values defined later: iterate to a fixed point
        changed = False
        for ins in instrs:
            regs = [op.value for op in ins.ops if op.kind == "reg"]
            if ins.opcode == "getelementptr" and len(ins.ops) > 1 and ins.ops[1].kind == "reg" \
                    and ins.ops[1].value in scale:
                try:
                    stride = scale[ins.ops[1].value] * alloc_size(ins.attrs["src"])
                except (KeyError, TypeError, ValueError):
                    stride = 0
                if stride <= MAX_RECORD_BYTES:
                    best = max(best, stride)
            if not ins.name:
                continue
            old = scale.get(ins.name)
            new = old
            if ins.opcode == "call" and str(ins.attrs.get("callee") or "").startswith(THREAD_ID_CALLS):
                new = max(old or 0, 1)
            elif ins.opcode in ("mul", "shl") and len(ins.ops) == 2:
                a, b = ins.ops
                for x, c in ((a, b), (b, a)) if ins.opcode == "mul" else ((a, b),):
                    if x.kind == "reg" and x.value in scale and c.kind == "const" and isinstance(c.value, int) \
                            and 1 < c.value <= 1 << 20:
                        k = c.value if ins.opcode == "mul" else (1 << c.value if c.value < 21 else 0)
                        new = max(new or 0, scale[x.value] * k)
            elif ins.opcode in CASTS or ins.opcode in ("add", "sub", "or", "phi", "select"):
                carried = [scale[r] for r in regs if r in scale]
                if carried:
                    new = max(new or 0, min(carried) if ins.opcode in ("phi", "select") else max(carried))
            if new is not None and new != old and new <= 1 << 24:
                scale[ins.name] = new
                changed = True
    return best


def index_bounds(kernel: Kernel) -> dict[str, int]:
    """Integer parameters a kernel uses as an index into a fixed-size array (``aabb.m_maxElems[axis]`` of a
    ``float[4]`` field, ``const float w[3]; w[k]``), each with the smallest such array's length: the values the
    kernel's contract admits are ``0 .. length - 1`` (a host computing ``axis`` passes 0..2, never 4), so the
    search draws them there.  A parameter that bounds a loop whose counter indexes such an array (``for (k = 0; k
    < nk; k++) det->keypoints[k * 3 + 2]`` into a ``float[51]`` field) admits the counts that keep the last index
    inside it (``0 .. 17``), given as that many plus one."""
    fn = kernel.function
    params = int_params(kernel)
    instrs = [ins for b in fn.blocks for ins in b.instrs]
    counters = _counters(instrs, through_casts(register_instrs(kernel), dict(params)))
    bounds: dict[str, int] = {}
    for ins in instrs:
        if ins.opcode in CASTS and ins.name and ins.ops and ins.ops[0].kind == "reg" and ins.ops[0].value in params:
            params[ins.name] = params[ins.ops[0].value]
        if ins.opcode != "getelementptr":
            continue
        for op, count in array_indices(ins):
            if op.kind == "reg" and op.value in params:
                name = params[op.value]
                bounds[name] = min(bounds.get(name, count), count)
            elif op.kind == "reg" and op.value in counters:
                name, scale, add = counters[op.value]
                if 0 <= add < count:  # counts k < n reach index scale * (n - 1) + add
                    most = (count - 1 - add) // scale + 1
                    bounds[name] = min(bounds.get(name, most + 1), most + 1)
    return bounds


def array_indices(ins) -> list[tuple[Operand, int]]:
    """The index operands of a ``getelementptr`` that pick an element of a fixed-size array (or vector) of the
    indexed type, each with that array's length (``ops[0]`` is the pointer, ``ops[1]`` steps over whole elements;
    struct fields are followed through their constant indices)."""
    from simu.ir.types import ArrayType, StructType, VectorType

    out, t = [], ins.attrs.get("src")
    for op in ins.ops[2:]:
        if isinstance(t, (ArrayType, VectorType)):
            if t.count > 0:
                out.append((op, t.count))
            t = t.elem
        elif isinstance(t, StructType) and op.kind == "const" and isinstance(op.value, int) \
                and 0 <= op.value < len(t.fields):
            t = t.fields[op.value]
        else:
            break
    return out


def _counters(instrs, names: dict[str, str]) -> dict[str, tuple[str, int, int]]:
    """Values that are a loop counter below a parameter (``names``: IR name -> parameter, casts included), scaled and
    offset by constants: value -> (parameter, scale, constant added), for ``k < n`` (``icmp slt``/``ult`` of the
    counter and the parameter) and ``k * 3 + 2``."""
    found: dict[str, tuple[str, int, int]] = {}
    for ins in instrs:
        ops = ins.ops
        if ins.opcode == "icmp" and ins.attrs.get("pred") in ("slt", "ult") and len(ops) == 2 \
                and ops[0].kind == "reg" and ops[1].kind == "reg" and ops[1].value in names:
            found.setdefault(ops[0].value, (names[ops[1].value], 1, 0))
    changed = True
    while changed:  # the counter's casts, products and sums, defined before or after the compare
        changed = False
        for ins in instrs:
            ops = ins.ops
            if not ins.name or ins.name in found or not ops or ops[0].kind != "reg" or ops[0].value not in found:
                continue
            name, scale, add = found[ops[0].value]
            c = const_int(ops[1]) if len(ops) == 2 else None
            if ins.opcode in ("sext", "zext"):
                found[ins.name] = (name, scale, add)
            elif ins.opcode in ("mul", "shl") and c is not None and c > 0:
                factor = c if ins.opcode == "mul" else 1 << min(c, 16)
                found[ins.name] = (name, scale * factor, add * factor)
            elif ins.opcode == "add" and c is not None and c >= 0:
                found[ins.name] = (name, scale, add + c)
            else:
                continue
            changed = True
    return found
