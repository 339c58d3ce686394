"""Translators for the non-terminator, non-phi, non-call LLVM instructions: the table INSTRUCTIONS.

Each translator ``(c, ins, g, dst, proto)`` gets the compiler ``c`` (see program.Translating), the
instruction, its operands' getters ``g``, the destination register ``dst`` and its ``proto``; it
returns an op, or None for an instruction that needs none.
"""

from __future__ import annotations

import numpy as np

from simu.errors import UnsupportedError
from simu.interp import arith
from simu.interp.program import RMW, InstrTranslator, Translating, table, where
from simu.interp.values import scalar_dtype
from simu.ir import Instr
from simu.ir.constants import RefDifference, Undef
from simu.ir.types import ArrayType, IntType, PtrType, StructType, VectorType, alloc_size

INT_BINOPS = {"add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "shl", "lshr", "ashr", "and", "or", "xor"}
CASTS = {"trunc", "zext", "sext", "fptrunc", "fpext", "fptosi", "fptoui", "sitofp", "uitofp",
         "ptrtoint", "inttoptr", "addrspacecast"}


def _bits(t) -> int:
    if isinstance(t, VectorType):
        t = t.elem
    if isinstance(t, IntType):
        return t.bits
    if isinstance(t, PtrType):
        return 64
    return t.size * 8


# Integer operations that cannot fault: their values may be computed where they are used.
PURE_INT_BINOPS = INT_BINOPS - {"sdiv", "udiv", "srem", "urem"}
# Opcodes whose single use in the same block may compute the value in place (Compiler.compile).
PURE_OPCODES = PURE_INT_BINOPS | set(arith.FLOAT_BINARY) | CASTS | {"fneg", "icmp", "fcmp", "select",
                                                                   "getelementptr", "alloca"}


def _pure(c: Translating, ins: Instr, dst, proto, val):
    """An op that only computes ``val``; the compiler may fuse it into its single consumer."""
    c.value_fns[ins.name] = val
    return lambda st, lanes, sel: st.put(dst, sel, val(st, sel), proto)


def _int_binop(c, ins, g, dst, proto):
    op = ins.opcode
    f = arith.binary(op, _bits(ins.type))
    a, b = g
    val = lambda st, sel: f(a(st, sel), b(st, sel))
    if op in PURE_INT_BINOPS:
        return _pure(c, ins, dst, proto, val)

    def binop(st, lanes, sel):
        st.put(dst, sel, val(st, sel), proto)
    return binop


def _float_binop(c, ins, g, dst, proto):
    f = arith.FLOAT_BINARY[ins.opcode]
    a, b = g
    return _pure(c, ins, dst, proto, lambda st, sel: f(a(st, sel), b(st, sel)))


def _fneg(c, ins, g, dst, proto):
    a = g[0]
    return _pure(c, ins, dst, proto, lambda st, sel: -a(st, sel))


def _icmp(c, ins, g, dst, proto):
    f = arith.icmp(ins.attrs["pred"])
    a, b = g
    return _pure(c, ins, dst, proto, lambda st, sel: f(a(st, sel), b(st, sel)))


def _fcmp(c, ins, g, dst, proto):
    f = arith.fcmp(ins.attrs["pred"])
    a, b = g
    return _pure(c, ins, dst, proto, lambda st, sel: f(a(st, sel), b(st, sel)))


def _cast(c, ins, g, dst, proto):
    src_t = ins.ops[0].type
    f = arith.cast(ins.opcode, scalar_dtype(src_t), scalar_dtype(ins.type), _bits(src_t), _bits(ins.type))
    a = g[0]
    return _pure(c, ins, dst, proto, lambda st, sel: f(a(st, sel)))


def _freeze(c, ins, g, dst, proto):
    a = g[0]
    return lambda st, lanes, sel: st.put(dst, sel, _copy(a(st, sel)), proto)


def _select(c, ins, g, dst, proto):
    cnd, a, b = g
    vec_cond = isinstance(ins.ops[0].type, VectorType)
    if isinstance(ins.type, (StructType, ArrayType)):
        return lambda st, lanes, sel: st.put(dst, sel, _select_agg(cnd(st, sel), a(st, sel), b(st, sel)), proto)
    if isinstance(ins.type, VectorType) and not vec_cond:
        return lambda st, lanes, sel: st.put(dst, sel, np.where(np.asarray(cnd(st, sel))[..., None]
                                                                if np.ndim(cnd(st, sel)) else cnd(st, sel),
                                                                a(st, sel), b(st, sel)), proto)
    return _pure(c, ins, dst, proto, lambda st, sel: np.where(cnd(st, sel), a(st, sel), b(st, sel)))


def _alloca(c, ins, g, dst, proto):
    count = ins.ops[0]
    if count.kind != "const":
        raise UnsupportedError("alloca with a run-time size (variable-length array)", where(ins))
    nbytes = alloc_size(ins.attrs["alloc_type"]) * max(_index(count.value), 1)
    nbytes = (nbytes + 15) // 16 * 16
    k = len(c.allocas)
    c.allocas.append((k, ins.id, nbytes))
    return _pure(c, ins, dst, proto, lambda st, sel: st.alloca_base[k][sel])


def _fence(c, ins, g, dst, proto):
    return None


def _extractvalue(c, ins, g, dst, proto):
    a = g[0]
    idx = ins.attrs["indices"]

    def extractvalue(st, lanes, sel):
        v = a(st, sel)
        for k in idx:
            v = v[k]
        st.put(dst, sel, _copy(v), proto)
    return extractvalue


def _insertvalue(c, ins, g, dst, proto):
    a, b = g
    idx = ins.attrs["indices"]

    def insertvalue(st, lanes, sel):
        v = _copy_structure(a(st, sel))
        node = v
        for k in idx[:-1]:
            node = node[k]
        node[idx[-1]] = b(st, sel)
        st.put(dst, sel, v, proto)
    return insertvalue


def _extractelement(c, ins, g, dst, proto):
    a, i = g

    def extractelement(st, lanes, sel):
        v = np.asarray(a(st, sel))
        k = np.asarray(i(st, sel))
        if v.ndim == 1:  # constant vector
            st.put(dst, sel, v[k], proto)
        elif k.ndim == 0:
            st.put(dst, sel, v[:, int(k)].copy(), proto)
        else:
            st.put(dst, sel, v[np.arange(v.shape[0]), k], proto)
    return extractelement


def _insertelement(c, ins, g, dst, proto):
    a, b, i = g
    n = ins.type.count

    def insertelement(st, lanes, sel):
        v = np.array(np.broadcast_to(a(st, sel), (len(lanes), n)))
        k = np.asarray(i(st, sel))
        if k.ndim == 0:
            v[:, int(k)] = b(st, sel)
        else:
            v[np.arange(len(lanes)), k] = b(st, sel)
        st.put(dst, sel, v, proto)
    return insertelement


def _shufflevector(c, ins, g, dst, proto):
    a, b = g
    mask = np.array([max(m, 0) for m in ins.attrs["mask"]])
    na = ins.ops[0].type.count

    def shufflevector(st, lanes, sel):
        va = np.broadcast_to(a(st, sel), (len(lanes), na))
        vb = np.broadcast_to(b(st, sel), (len(lanes), na))
        both = np.concatenate([va, vb], axis=1)
        st.put(dst, sel, both[:, mask], proto)
    return shufflevector


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return np.array(v, copy=True)


def _copy_structure(v):
    """Copy an aggregate's lists (not its lane arrays), so insertvalue leaves its operand intact."""
    if isinstance(v, list):
        return [_copy_structure(x) for x in v]
    return v


def _select_agg(c, a, b):
    if isinstance(a, list):
        return [_select_agg(c, x, y) for x, y in zip(a, b, strict=False)]
    return np.where(c, a, b)


def _bitcast(c, ins, g, dst, proto):
    a = g[0]
    src_t, dst_t = ins.ops[0].type, ins.type
    if isinstance(src_t, PtrType) and isinstance(dst_t, PtrType):
        return lambda st, lanes, sel: st.put(dst, sel, _copy(a(st, sel)), proto)
    sd, dd = scalar_dtype(src_t), scalar_dtype(dst_t)
    dn = dst_t.count if isinstance(dst_t, VectorType) else 1

    def bitcast(st, lanes, sel):
        v = np.ascontiguousarray(np.broadcast_to(a(st, sel), (len(lanes),)
                                                 + ((src_t.count,) if isinstance(src_t, VectorType) else ())))
        if sd == np.bool_ or dd == np.bool_:
            raise UnsupportedError(f"bitcast of i1 vectors (`{ins.text[:60]}`)", where(ins))
        out = v.view(np.uint8).reshape(len(lanes), -1).copy().view(dd)
        st.put(dst, sel, out.reshape(len(lanes)) if dn == 1 else out.reshape(len(lanes), dn), proto)
    return bitcast


def _index(v) -> int:
    """A constant index or count; ``undef``/``poison`` (an uninitialised index variable: ``long j; a[j]``
    gives ``getelementptr float, ptr %a, i64 undef`` at every level) is 0, as every undef value of the
    machine is zero bits (values.constant)."""
    return 0 if isinstance(v, Undef) else int(v)


def _gep(c: Translating, ins: Instr, g, dst, proto):
    src = ins.attrs["src"]
    base = g[0]
    const_off = 0
    dyn: list[tuple] = []  # (getter, scale)
    t = src
    for k, o in enumerate(ins.ops[1:]):
        if k == 0:
            scale = alloc_size(src)
        elif isinstance(t, StructType):
            fi = int(o.value)
            const_off += t.offsets[fi]
            t = t.fields[fi]
            continue
        elif isinstance(t, (ArrayType, VectorType)):
            t = t.elem
            scale = alloc_size(t)
        else:
            raise UnsupportedError(f"getelementptr into {t}", where(ins))
        if o.kind == "const" and not isinstance(o.value, (list, RefDifference)):  # a difference is per lane
            const_off += _index(o.value) * scale
        else:
            if isinstance(o.type, VectorType):
                raise UnsupportedError("vector getelementptr", where(ins))
            dyn.append((g[k + 1], scale))
    if isinstance(ins.type, VectorType):
        raise UnsupportedError("vector getelementptr", where(ins))
    off = np.int64(const_off)
    if not dyn:
        val = base if const_off == 0 else (lambda st, sel: base(st, sel) + off)
    elif len(dyn) == 1:
        (gi, sc), = dyn
        if sc == 1 and const_off == 0:
            val = lambda st, sel: base(st, sel) + np.asarray(gi(st, sel)).astype(np.int64, copy=False)
        elif sc & (sc - 1) == 0 and const_off == 0:
            sh = np.int64(sc.bit_length() - 1)
            val = lambda st, sel: base(st, sel) + (np.asarray(gi(st, sel)).astype(np.int64, copy=False) << sh)
        else:
            sc = np.int64(sc)
            val = lambda st, sel: base(st, sel) + off + np.asarray(gi(st, sel)).astype(np.int64, copy=False) * sc
    else:
        def val(st, sel):
            p = base(st, sel) + off
            for gi, sc in dyn:
                p = p + np.asarray(gi(st, sel)).astype(np.int64, copy=False) * np.int64(sc)
            return p
    return _pure(c, ins, dst, proto, val)


def _mem_layout(t):
    """(dtype, count) for a scalar/vector memory type, or None for aggregates."""
    if isinstance(t, VectorType):
        bool_elem = isinstance(t.elem, IntType) and t.elem.bits == 1
        return (np.dtype(np.uint8) if bool_elem else scalar_dtype(t.elem)), t.count
    if isinstance(t, IntType) and t.bits == 1:
        return np.dtype(np.uint8), 1
    if isinstance(t, (StructType, ArrayType)):
        return None
    return scalar_dtype(t), 1


def _fields(t, base=0):
    """Flatten an aggregate into (offset, leaf type, path) triples."""
    if isinstance(t, StructType):
        for off, f, k in zip(t.offsets, t.fields, range(len(t.fields)), strict=False):
            for o, lt, path in _fields(f, base + off):
                yield o, lt, (k,) + path
    elif isinstance(t, ArrayType):
        es = alloc_size(t.elem)
        for k in range(t.count):
            for o, lt, path in _fields(t.elem, base + k * es):
                yield o, lt, (k,) + path
    else:
        yield base, t, ()


def _load(c, ins, g, dst, proto):
    ptr = g[0]
    t = ins.type
    iid = ins.id
    offset = ins.attrs.get("component_offset", 0)  # one component of a vector (simu.interp.narrow)
    if offset:
        base = ptr
        ptr = lambda st, sel: np.asarray(base(st, sel), np.int64) + offset  # noqa: E731
    lay = _mem_layout(t)
    if lay is not None:
        dt, n = lay
        is_bool = isinstance(t, IntType) and t.bits == 1

        def load(st, lanes, sel):
            v = st.load(lanes, ptr(st, sel), dt, n, iid, sel)
            st.put(dst, sel, (v != 0) if is_bool else v, proto)
        return load
    leaves = list(_fields(t))

    def load_agg(st, lanes, sel):
        p = np.asarray(ptr(st, sel), np.int64)
        out = _empty_agg(t)
        for off, lt, path in leaves:
            dt, n = _mem_layout(lt)
            v = st.load(lanes, p + off, dt, n, iid)
            _set_path(out, path, v)
        st.put(dst, sel, out, proto)
    return load_agg


def _store(c, ins, g, dst, proto):
    val, ptr = g[0], g[1]
    t = ins.ops[0].type
    iid = ins.id
    offset = ins.attrs.get("component_offset", 0)  # one component of a vector (simu.interp.narrow)
    if offset:
        base = ptr
        ptr = lambda st, sel: np.asarray(base(st, sel), np.int64) + offset  # noqa: E731
    lay = _mem_layout(t)
    if lay is not None:
        dt, n = lay
        return lambda st, lanes, sel: st.store(lanes, ptr(st, sel), np.asarray(val(st, sel)).astype(dt, copy=False),
                                               dt, n, iid, sel)
    leaves = list(_fields(t))

    def store_agg(st, lanes, sel):
        p = np.asarray(ptr(st, sel), np.int64)
        v = val(st, sel)
        for off, lt, path in leaves:
            dt, n = _mem_layout(lt)
            x = v
            for k in path:
                x = x[k]
            st.store(lanes, p + off, np.asarray(x).astype(dt, copy=False), dt, n, iid)
    return store_agg


def _empty_agg(t):
    if isinstance(t, StructType):
        return [_empty_agg(f) for f in t.fields]
    if isinstance(t, ArrayType):
        return [_empty_agg(t.elem) for _ in range(t.count)]
    return None


def _set_path(out, path, v):
    for k in path[:-1]:
        out = out[k]
    out[path[-1]] = v


def _atomicrmw(c, ins, g, dst, proto):
    name = ins.attrs["op"]
    f = RMW.get(name)
    if f is None:
        raise UnsupportedError(f"atomicrmw {name}", where(ins))
    ptr, val = g
    dt = scalar_dtype(ins.type)
    iid = ins.id

    def atomicrmw(st, lanes, sel):
        old = st.atomic(lanes, ptr(st, sel), f, val(st, sel), dt, iid)
        st.put(dst, sel, old, proto)
    return atomicrmw


def _cmpxchg(c, ins, g, dst, proto):
    ptr, cmp, new = g
    dt = scalar_dtype(ins.ops[1].type)
    iid = ins.id

    def cas(o, n, c):
        return np.where(o == c, n, o)

    def cmpxchg(st, lanes, sel):
        c = cmp(st, sel)
        old = st.atomic(lanes, ptr(st, sel), cas, new(st, sel), dt, iid, cmp=c)
        st.put(dst, sel, [old, old == c], proto)
    return cmpxchg


# opcode -> translator; "call" is the compiler's (it dispatches on the callee: see compiler.py)
INSTRUCTIONS: dict[str, InstrTranslator] = table([
    (sorted(INT_BINOPS), _int_binop),
    (arith.FLOAT_BINARY, _float_binop),
    (sorted(CASTS), _cast),
    (["fneg"], _fneg),
    (["icmp"], _icmp),
    (["fcmp"], _fcmp),
    (["bitcast"], _bitcast),
    (["freeze"], _freeze),
    (["select"], _select),
    (["getelementptr"], _gep),
    (["alloca"], _alloca),
    (["load"], _load),
    (["store"], _store),
    (["atomicrmw"], _atomicrmw),
    (["cmpxchg"], _cmpxchg),
    (["fence"], _fence),
    (["extractvalue"], _extractvalue),
    (["insertvalue"], _insertvalue),
    (["extractelement"], _extractelement),
    (["insertelement"], _insertelement),
    (["shufflevector"], _shufflevector),
])
