"""What a kernel uses each buffer's values for, read off its IR: the contents a program can give it (issue 29).

Irregular kernels read indices from their buffers: ``u = col[e]; score[u]`` (an *index* into ``score``),
``for (e = row[v]; e < row[v + 1]; e++) col[e]`` (CSR *offsets* into ``col``: two of ``row``'s values bound a
loop whose counter indexes another buffer), ``v = worklist[i]; row[v]`` (a worklist of ids).  Random bytes
there send the kernel out of bounds or into loops no program runs, and a race that any ordinary graph shows is
refuted as "the host's data decides".  From the roles found here the search draws contents that keep the
program's own accesses valid (:mod:`simu.launch.graphs`): indices inside the buffers they index, offsets
non-decreasing from 0 and at most the indexed buffer's length, and the indices a CSR row addresses sorted and
distinct within each row (column indices of a graph or a sparse matrix), shared between rows so threads meet.

The analysis follows integer values loaded from a pointer parameter through arithmetic, casts, ``phi``,
``select`` and ``min``/``max`` (never through another load: ``col[row[v]]``'s value is ``col``'s, not
``row``'s), to the first index of a ``getelementptr`` into another parameter's buffer and to comparisons.  A pointer
loaded from a constant offset of a parameter that holds device pointers (``g.nindex`` of a struct passed by value,
``g->nindex``, ``rows[2]``: :mod:`simu.launch.members`) points into that slot's member buffer, which has a role of
its own under its name (the member buffers are listed as parameters after the kernel's own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from simu.evolve.dictionary import const_int, int_params, memcpy_of, register_instrs, through_casts
from simu.ir import Kernel, Param
from simu.ir.buckets import bucket_scatters
from simu.ir.constants import gep_constant_offset
from simu.ir.perlist import once_per_kernel
from simu.ir.types import ArrayType, IntType, PtrType, alloc_size
from simu.launch import graphs
from simu.launch.buffers import data_spec, element_type, is_record, rng_state, seal
from simu.launch.members import holds_pointers, member_at, member_fields

INFERRED = "inferred"  # the fill gene's choice that draws these contents (Layout.fill_choices)
_CASTS = {"sext", "zext", "trunc", "freeze"}
_CARRY = {"add", "sub", "or", "phi", "select"}  # the result keeps its operands' index range (give or take)
_MINMAX = ("llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin")
POINTER_STEPS = {"getelementptr", "bitcast", "addrspacecast", "phi", "select"}


@dataclass(frozen=True)
class Target:
    """A buffer a role's values index: values v address ``v * unit`` bytes plus up to ``add`` units into it."""

    name: str
    unit: int  # bytes one step of the value moves the address (element size times a constant factor)
    add: int  # the largest constant added to the value before it indexes (``row[v + 1]``: 1)
    size: int = 0  # bytes of a fixed-size array (``__shared__ int hist[100]``); 0: the buffer's length
    by: tuple[str, ...] = ()  # scalar parameters that multiply the value too (``x[ptr[b] * dim + d]``: dim)


@dataclass(frozen=True)
class Role:
    """How a kernel uses one integer buffer's values: ``offsets`` (CSR row offsets into ``targets``), ``index`` (indices
    into ``targets``), a segment's ``starts`` and ``counts`` (``for (j < count[i]) x[start[i] + j]``: ``partner`` names
    the other buffer; counts with no partner are summed by the kernel itself into where a segment starts: ragged
    batches, ``for (k < b) start += count[k]``), or a bucket scatter's ``buckets`` and ``cursor`` (``base[k] +
    atomicAdd(&cursor[k], 1)``, :mod:`simu.ir.buckets`: ``partner`` names the keys); ``rows`` names the offsets buffer
    whose rows address this one (its values are then a CSR row's column indices: sorted and distinct within each row);
    ``keys``: values a compare-and-swap stores (a hash table's keys, which repeat in a program's data)."""

    kind: str
    targets: tuple[Target, ...]
    rows: str | None = None
    partner: str | None = None


def split(fill: str) -> tuple[bool, str]:
    """(whether the roles' buffers are drawn as the kernel uses them, the fill of the others) of a fill choice."""
    inferred = fill.startswith(INFERRED + "+")
    return inferred, fill[len(INFERRED) + 1:] if inferred else fill



def buffer_roles(kernel: Kernel) -> dict[str, Role]:
    """The role of each integer pointer parameter whose loaded values index another buffer (see the module)."""
    return dict(_roles_of(kernel))


@once_per_kernel
def _roles_of(kernel: Kernel) -> dict[str, Role]:
    kernel = _with_members(kernel)
    fn = kernel.function
    names = {ir: p.name for (ir, _), p in zip(fn.args, kernel.params, strict=False) if p.is_pointer and not p.is_local}
    if not names:
        return {}
    roots = dict(names)  # pointer value -> the parameter (or member buffer) it points into
    offsets: dict[str, int | None] = {ir: 0 for ir in names}  # pointer value -> its constant byte offset there
    holders = {p.name: p for p in kernel.params if holds_pointers(p)}
    taint: dict[str, dict[str, tuple[int, int]]] = {}  # integer value -> {parameter: (scale, constant added)}
    uses: dict[str, dict[str, Target]] = {}  # parameter -> buffers its values index
    addressed: dict[str, set[str]] = {}  # parameter -> parameters whose values index it
    compared: set[str] = set()  # parameters whose values are compared with their own values
    ends: dict[str, set[str]] = {}  # such a parameter -> those whose values are added on one side (its counts)
    bounded: dict[str, set[str]] = {}  # value -> parameters whose loaded values it is compared with (a loop bound)
    starts: dict[str, set[tuple[str, str]]] = {}  # value or pointer -> (start buffer, count buffer) it carries
    # scalar parameters that multiply a loop counter (``input[j * stride]``), and a segment's start on a pointer
    # (``&input[offset[g] * stride]``): a segment is one only where the counter's are among the start's
    strides: dict[str, frozenset[str]] = {}  # counter value -> its scalars
    start_scales: dict[str, frozenset[str]] = {}  # pointer offset by a start -> the start's scalars
    segments: dict[tuple[str, str], set[str]] = {}  # (start buffer, count buffer) -> buffers such sums index
    keys: set[str] = set()  # parameters whose values a compare-and-swap stores (hash-table keys: they repeat)
    summed: set[str] = set()  # parameters whose values are added to each other (``start += count[k]``)
    instrs = [ins for b in fn.blocks for ins in b.instrs]
    scalars = through_casts(register_instrs(kernel), int_params(kernel))  # integer scalars (and casts): value -> name
    scaled: dict[str, set[str]] = {}  # value -> scalar parameters that multiply the loaded values it carries
    changed, rounds = True, 0
    while changed and rounds < 8:  # phis may name values defined later: iterate to a fixed point
        changed, rounds = False, rounds + 1
        for ins in instrs:
            op, name, ops = ins.opcode, ins.name, ins.ops
            if op in POINTER_STEPS and name and name not in roots:
                root = _root(ins, roots)
                if root is not None:
                    roots[name] = root
                    offsets[name] = _offset(ins, offsets)
                    changed = True
            elif op == "load" and name and name not in roots and isinstance(ins.type, PtrType):
                member = _member(ins, roots, offsets, holders)
                if member is not None:  # the address a holder's slot holds: into that member buffer
                    roots[name], offsets[name] = member, 0
                    changed = True
            elif op == "call":
                changed |= _copied(ins, roots, offsets, holders)
            if op == "getelementptr":
                changed |= _index(ins, roots, taint, uses, addressed, scaled)
                changed |= _segment(ins, roots, taint, bounded, starts, segments, (strides, start_scales, scaled))
            elif op == "cmpxchg" and len(ops) >= 3 and ops[2].kind == "reg":
                new_keys = set(taint.get(ops[2].value, {})) - keys
                keys |= new_keys
                changed |= bool(new_keys)
            elif op == "icmp" and len(ops) == 2:
                a = taint.get(ops[0].value, {}) if ops[0].kind == "reg" else {}
                b = taint.get(ops[1].value, {}) if ops[1].kind == "reg" else {}
                for p in (set(a) & set(b)) - compared:
                    compared.add(p)
                    changed = True
                for p in set(a) & set(b):  # i from start[n] to start[n] + count[n]: a segment, not CSR offsets
                    extra = (set(a) ^ set(b)) - ends.get(p, set())
                    if extra:
                        ends.setdefault(p, set()).update(extra)
                        changed = True
                for x, other in ((ops[0], b), (ops[1], a)):  # a counter compared with loaded values: j < count[i]
                    if x.kind == "reg" and other and x.value not in taint and \
                            not set(other) <= bounded.get(x.value, set()):
                        bounded.setdefault(x.value, set()).update(other)
                        changed = True
            elif name:
                if op == "add" and len(ops) == 2 and all(o.kind == "reg" for o in ops):
                    both = set(taint.get(ops[0].value, {})) & set(taint.get(ops[1].value, {})) - summed
                    summed |= both
                    changed |= bool(both)
                changed |= _bounds(ins, taint, bounded, starts, strides, scalars, scaled)
                new = _carried(ins, taint, roots, scalars)
                if new and not (by := _scaled(ins, taint, scaled, scalars)) <= scaled.get(name, set()):
                    scaled.setdefault(name, set()).update(by)
                    changed = True
                merged = dict(taint.get(name, {}))
                for p, (s, a) in new.items():
                    s0, _ = merged.get(p, (s, a))
                    merged[p] = (max(s, s0), a)
                if new and merged != taint.get(name):
                    taint[name] = merged
                    changed = True
    for start, counts in ends.items():  # ``for (i = start[n]; i < start[n] + count[n]; i++) x[i]``
        for count in counts:
            if start in compared:
                segments.setdefault((start, count), set()).update(uses.get(start, {}))
    roles = _roles(kernel, uses, addressed, compared, segments)
    for p in sorted(summed):  # ``for (k < b) start += count[k]; x += start; … x[j < count[b]]``: ragged batches
        if p in roles and roles[p].kind == "index" and roles[p].rows is None:
            roles[p] = Role("counts", roles[p].targets)
    for p in sorted(keys - set(roles)):
        roles[p] = Role("keys", ())
    for b in bucket_scatters(kernel):  # base[k] + atomicAdd(&cursor[k], 1): both laid out from the keys
        if b.keys in roles:
            roles[b.base], roles[b.cursor] = Role("buckets", (), partner=b.keys), Role("cursor", (), partner=b.keys)
    return roles


def _bounds(ins, taint: dict, bounded: dict, starts: dict, strides: dict, scalars: dict, scaled: dict) -> bool:
    """Follow loop counters through casts and a multiplication by a scalar parameter (``j * stride``: the scalar
    joins the counter's ``strides``), and a start plus a counter (``start[i] + j``, ``start[i] * n + j * n``) through
    ``add``."""
    regs = [o.value for o in ins.ops if o.kind == "reg"]
    before = (len(bounded.get(ins.name, ())), len(starts.get(ins.name, ())), strides.get(ins.name))
    if ins.opcode in _CASTS and regs:
        if regs[0] in bounded:
            bounded.setdefault(ins.name, set()).update(bounded[regs[0]])
            if regs[0] in strides:
                strides[ins.name] = strides[regs[0]]
        if regs[0] in starts:
            starts.setdefault(ins.name, set()).update(starts[regs[0]])
    elif ins.opcode == "mul" and len(regs) == 2:
        for x, y in (regs, regs[::-1]):
            if x in bounded and x not in taint and y in scalars:
                bounded.setdefault(ins.name, set()).update(bounded[x])
                strides[ins.name] = strides.get(x, frozenset()) | {scalars[y]}
    elif ins.opcode == "add" and len(regs) == 2:
        for x, y in (regs, regs[::-1]):
            if strides.get(y, frozenset()) - scaled.get(x, set()):
                continue  # ``start[i] + j * stride``: disjoint starts of unscaled counts interleave (scaled
                # alike, or the start alone, they do not)
            for p in taint.get(x, {}):
                for c in bounded.get(y, ()):
                    if c != p:
                        starts.setdefault(ins.name, set()).add((p, c))
    return before != (len(bounded.get(ins.name, ())), len(starts.get(ins.name, ())), strides.get(ins.name))


def _segment(ins, roots: dict, taint: dict, bounded: dict, starts: dict, segments: dict,
             scales: tuple[dict, dict, dict]) -> bool:
    """Record a segment's start and count buffers where a ``getelementptr`` into a buffer adds them: its index a
    start plus a counter, or a counter on a pointer offset by a start (``row = &rows[start[i]]; row[j]``, also
    through further offsets, ``&input[offset[g] * spatial + b * stride + s]``, and with the counter scaled as the
    start is, ``row[j * spatial]``)."""
    ops = ins.ops
    if len(ops) < 2 or ops[0].kind != "reg" or ops[0].value not in roots or ops[1].kind != "reg":
        return False
    base, idx, q = ops[0].value, ops[1].value, roots[ops[0].value]
    strides, start_scales, scaled = scales  # a counter's scalars, a start pointer's, loaded values' (buffer_roles)
    found = set(starts.get(idx, ()))
    if not strides.get(idx, frozenset()) - start_scales.get(base, frozenset()):  # scaled alike (see _bounds)
        found |= {(p, c) for p, _ in starts.get(base, ()) for c in bounded.get(idx, ()) if c != p}
    changed = False
    if ins.name and idx in taint:  # a pointer offset by a start: ``&rows[start[i]]``
        offset = {(p, "") for p in taint[idx]}
        scale = frozenset(scaled.get(idx, ()))
        if not offset <= starts.get(ins.name, set()) or start_scales.get(ins.name) != scale:
            starts.setdefault(ins.name, set()).update(offset)
            start_scales[ins.name] = scale
            changed = True
    elif ins.name and base in starts and idx not in bounded:  # offset further: still the start's segment
        if not starts[base] <= starts.get(ins.name, set()):
            starts.setdefault(ins.name, set()).update(starts[base])
            start_scales[ins.name] = start_scales.get(base, frozenset())
            changed = True
    for pair in found:
        if pair[1] and q not in segments.setdefault(pair, set()):
            segments[pair].add(q)
            changed = True
    return changed


def _with_members(kernel: Kernel) -> Kernel:
    """``kernel`` with its member buffers (:mod:`simu.launch.members`) as more pointer parameters, after its own (a
    ``T *`` of each slot's element type), so that they get roles as the parameters do."""
    fields = member_fields(kernel.params)
    if not fields:
        return kernel
    extra = [Param(-1, name, PtrType(), f"{f.pointee}*", 0, f.pointee_size, f.pointee_floats)
             for name, f in fields.items()]
    return replace(kernel, params=list(kernel.params) + extra)


def _offset(ins, offsets: dict[str, int | None]) -> int | None:
    """The constant byte offset a pointer instruction's result has into its root's buffer, None when it varies."""
    ops = ins.ops
    base = offsets.get(ops[0].value) if ops and ops[0].kind == "reg" else None
    if base is None or ins.opcode in ("phi", "select"):
        return None
    if ins.opcode != "getelementptr":
        return base
    indices = [const_int(o) for o in ops[1:]]
    if None in indices:
        return None
    try:
        return base + gep_constant_offset(ins.attrs.get("src"), indices)  # type: ignore[arg-type]
    except (IndexError, TypeError, ValueError, AttributeError):
        return None


def _member(ins, roots: dict, offsets: dict, holders: dict) -> str | None:
    """The member buffer whose address a pointer ``load`` reads: a slot at a constant offset of a holder."""
    ops = ins.ops
    if not ops or ops[0].kind != "reg" or roots.get(ops[0].value) not in holders:
        return None
    at = offsets.get(ops[0].value)
    return None if at is None else member_at(holders[roots[ops[0].value]], at)


def _copied(ins, roots: dict, offsets: dict, holders: dict) -> bool:
    """A ``memcpy`` of a whole struct passed by value into a local (clang's copy of a struct passed on by value to
    a device function): the local holds the holder's slots, so its loads reach the member buffers too."""
    copy = memcpy_of(ins)
    if copy is None or copy[0] in roots:
        return False
    dst, src, size = copy
    holder = holders.get(roots.get(src))
    if holder is None or not holder.pointers.by_value or offsets.get(src) != 0 or size != holder.pointee_size:
        return False
    roots[dst], offsets[dst] = roots[src], 0
    return True


def _root(ins, roots: dict[str, str]) -> str | None:
    """The parameter a pointer instruction's result points into, when one does."""
    regs = [o.value for o in ins.ops if o.kind == "reg"]
    if ins.opcode in ("getelementptr", "bitcast", "addrspacecast"):
        return roots.get(ins.ops[0].value) if ins.ops and ins.ops[0].kind == "reg" else None
    bases = {roots.get(r) for r in (regs[1:] if ins.opcode == "select" else regs)}
    return bases.pop() if len(bases) == 1 else None


def _array_index(ins, taint: dict, uses: dict) -> bool:
    """Record the loaded values that index a fixed-size array of the module (``__shared__ int hist[100]``,
    ``hist[bins[i]]``); True when new."""
    ops, t = ins.ops, ins.attrs.get("src")
    if len(ops) != 3 or ops[0].kind != "const" or not hasattr(ops[0].value, "name") or const_int(ops[1]) != 0 \
            or ops[2].kind != "reg" or ops[2].value not in taint or not isinstance(t, ArrayType) or t.count <= 0:
        return False
    try:
        elem = alloc_size(t.elem)
    except (TypeError, ValueError, AttributeError):
        return False
    changed = False
    for p, (scale, add) in taint[ops[2].value].items():
        new = Target(_short(ops[0].value.name), elem * scale, add, elem * t.count)
        if uses.setdefault(p, {}).get(new.name) != new:
            uses[p][new.name] = new
            changed = True
    return changed


def _short(name: str) -> str:
    """A function-local static's source name (``_ZZ9histogramPKiiPiE6s_hist``: ``s_hist``)."""
    m = re.search(r"E(\d+)(\w+)$", name)
    return m.group(2)[:int(m.group(1))] if m and name.startswith("_ZZ") else name


def _index(ins, roots: dict, taint: dict, uses: dict, addressed: dict, scaled: dict) -> bool:
    """Record the loaded values that index a ``getelementptr``'s buffer (its first index); True when new."""
    ops = ins.ops
    if ops and ops[0].kind == "const":
        return _array_index(ins, taint, uses)
    if len(ops) < 2 or ops[0].kind != "reg" or ops[0].value not in roots or ops[1].kind != "reg" \
            or ops[1].value not in taint:
        return False
    try:
        size = alloc_size(ins.attrs["src"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    q = roots[ops[0].value]
    changed = False
    by = scaled.get(ops[1].value, set())
    for p, (scale, add) in taint[ops[1].value].items():
        old = uses.setdefault(p, {}).get(q)
        new = Target(q, max(size * scale, old.unit if old else 0), max(add, old.add if old else 0),
                     by=tuple(sorted(by | set(old.by if old else ()))))
        if new != old:
            uses[p][q] = new
            changed = True
        if p not in addressed.setdefault(q, set()):
            addressed[q].add(p)
            changed = True
    return changed


def _scaled(ins, taint: dict, scaled: dict, scalars: dict) -> set[str]:
    """The scalar parameters that multiply the loaded values ``ins`` carries: its operands', and the one it
    multiplies them by (``ptr[b] * dim``)."""
    regs = [o.value for o in ins.ops if o.kind == "reg"]
    out: set[str] = set()
    for r in regs:
        out |= scaled.get(r, set())
    if ins.opcode == "mul" and len(regs) == 2:
        for x, y in (regs, regs[::-1]):
            if x in taint and y in scalars:
                out.add(scalars[y])
    return out


def _carried(ins, taint: dict, roots: dict, scalars: dict) -> dict[str, tuple[int, int]]:
    """The parameters whose loaded values ``ins`` carries, each with (scale, constant added)."""
    op, ops = ins.opcode, ins.ops
    regs = [o.value for o in ops if o.kind == "reg"]
    if op == "load":
        if ops and ops[0].kind == "reg" and ops[0].value in roots and isinstance(ins.type, IntType) \
                and ins.type.bits >= 8:
            return {roots[ops[0].value]: (1, 0)}
        return {}
    if op in _CASTS:
        return dict(taint.get(regs[0], {})) if regs else {}
    if op in ("mul", "shl") and len(ops) == 2:
        for x, c in ((ops[0], ops[1]), (ops[1], ops[0])) if op == "mul" else ((ops[0], ops[1]),):
            k = const_int(c)
            if x.kind == "reg" and x.value in taint and k is not None and 0 < k < (1 << 20 if op == "mul" else 20):
                factor = k if op == "mul" else 1 << k
                return {p: (s * factor, a) for p, (s, a) in taint[x.value].items()}
            if op == "mul" and x.kind == "reg" and x.value in taint and c.kind == "reg" and c.value in scalars:
                return dict(taint[x.value])  # times a scalar parameter: the target's unit scales with it (_scaled)
        return {}
    if op in ("add", "or") and len(ops) == 2:
        for x, c in ((ops[0], ops[1]), (ops[1], ops[0])):
            k = const_int(c)
            if x.kind == "reg" and x.value in taint and k is not None:
                return {p: (s, a + max(k, 0)) for p, (s, a) in taint[x.value].items()}
    if op in _CARRY or op == "call" and str(ins.attrs.get("callee") or "").startswith(_MINMAX):
        # a merge keeps the smallest constant added: a loop counter's back edge adds its step on every pass
        out: dict[str, tuple[int, int]] = {}
        for r in (regs[1:] if op == "select" else regs):
            for p, (s, a) in taint.get(r, {}).items():
                s0, a0 = out.get(p, (s, a))
                out[p] = (max(s, s0), min(a, a0) if op in ("phi", "select") else max(a, a0))
        return out
    return {}


def _roles(kernel: Kernel, uses: dict, addressed: dict, compared: set, segments: dict) -> dict[str, Role]:
    roles: dict[str, Role] = {}
    for p in kernel.params:
        targets = uses.get(p.name)
        if not targets or not p.is_pointer or is_record(p.pointee):
            continue
        dtype, comps = element_type(p.pointee, p.pointee_size)
        if dtype.kind not in "iu" or comps != 1:
            continue
        others = tuple(t for q, t in sorted(targets.items()) if q != p.name)
        if p.name in compared and others:
            roles[p.name] = Role("offsets", others)
        else:
            roles[p.name] = Role("index", tuple(t for _, t in sorted(targets.items())))
    ints = {p.name for p in kernel.params if p.is_pointer and not is_record(p.pointee)
            and element_type(p.pointee, p.pointee_size)[0].kind in "iu"}
    for (start, count), into in sorted(segments.items()):
        if start in ints and count in ints and count not in uses and roles.get(start, Role("index", ())).kind in (
                "index", "offsets"):
            targets = tuple(t for q, t in sorted(uses.get(start, {}).items()) if q in into)
            if not targets:
                continue
            roles[start] = Role("starts", targets, partner=count)
            roles[count] = Role("counts", targets, partner=start)
    for name, role in list(roles.items()):
        rows = sorted(o for o in addressed.get(name, ()) if o in roles and roles[o].kind == "offsets")
        if role.kind == "index" and rows:
            roles[name] = Role("index", role.targets, rows[0])
    return roles


def draw_valid(roles: dict[str, Role], args: dict, specs: dict, rng: np.random.Generator) -> str:
    """Redraw the buffers ``roles`` names in a launch's ``args`` (and their ``specs``) with contents that keep the
    kernel's own accesses valid: offsets first, then the indices their rows address, then other indices; the
    text says what was drawn (for the launch's origin), "" when nothing was."""
    said = []
    first = ("offsets", "counts", "starts")
    order = sorted(roles, key=lambda n: (first.index(roles[n].kind) if roles[n].kind in first else
                                         5 if roles[n].kind in BUCKETS else 3, roles[n].rows is None, n))
    for name in order:
        role, arr = roles[name], args.get(name)
        if role.kind in BUCKETS:
            said.extend(_buckets(name, role, args, specs))
            continue
        high = bound(role, args)
        if not isinstance(arr, np.ndarray) or high is None or arr.ndim != 1:
            continue
        state = rng_state(rng)
        if role.kind == "counts":
            new = graphs.counts(rng, arr.size, high, arr.dtype)
            spec = {"fill": "counts", "high": high}
            said.append(f"{name} as counts of the segments {role.partner} starts in {_names(role)}" if role.partner
                        else f"{name} as counts of segments laid out one after another in {_names(role)}")
        elif role.kind == "starts":
            if specs.get(role.partner or "", {}).get("fill") != "counts":
                continue
            new = graphs.starts(args[role.partner], arr.size, arr.dtype)
            spec = {"fill": "starts", "counts": specs[role.partner]}
            said.append(f"{name} as where they start (disjoint)")
        elif role.kind == "offsets":
            new = graphs.offsets(rng, arr.size, high, arr.dtype)
            spec = {"fill": "offsets", "high": high}
            said.append(f"{name} as CSR offsets into {_names(role)}")
        elif role.rows and specs.get(role.rows, {}).get("fill") == "offsets":
            new = graphs.segments(rng, arr.size, high, args[role.rows], arr.dtype)
            spec = {"fill": "segments", "high": high, "rows": specs[role.rows]}
            said.append(f"{name} as each row's distinct indices into {_names(role)}")
        else:
            new = rng.integers(0, high, arr.size).astype(arr.dtype)
            spec = {"fill": "random", "low": 0, "high": high}
            said.append(f"{name} as indices into {_names(role)}")
        spec = {"dtype": str(arr.dtype), "length": int(arr.size), **spec, "rng": state}
        args[name], specs[name] = seal(new, spec), spec
    return "; ".join(said)


BUCKETS = ("buckets", "cursor")
STRUCTURED = ("offsets", "starts", "counts", *BUCKETS)  # roles whose buffers are laid out, not lists of values


def _buckets(name: str, role: Role, args: dict, specs: dict) -> list[str]:
    """A bucket scatter's base (where each key's slots start, from the keys as drawn) or cursor (cleared)."""
    arr, keys = args.get(name), args.get(role.partner or "")
    if not isinstance(arr, np.ndarray) or arr.ndim != 1 or not isinstance(keys, np.ndarray):
        return []
    if role.kind == "cursor":
        spec = {"dtype": str(arr.dtype), "length": int(arr.size), "fill": "zeros"}
        args[name], specs[name] = seal(np.zeros_like(arr), spec), spec
        return [f"{name} cleared"]
    spec = {"dtype": str(arr.dtype), "length": int(arr.size), "fill": "buckets",
            "keys": specs.get(role.partner or "") or data_spec(keys)}
    args[name], specs[name] = seal(graphs.buckets(keys, arr.size, arr.dtype), spec), spec
    return [f"{name} as where each key of {role.partner} starts its slots"]


def laid_out(roles: dict[str, Role], original, launch, changed: list[str]):
    """``launch`` (a distinct-contents variant of ``original``, :meth:`~simu.evolve.genome.Layout.distinct`) with
    the buffers of ``changed`` that hold offsets, segment starts and counts, and the indices CSR rows address, drawn
    as the kernel uses them: distinct values there are no layout a program makes (``start[i] = i`` with ``count[i] =
    i`` overlap).  Indices into a fixed-size array of the kernel's (``__shared__ int hist[100]; hist[bins[i]]``) keep
    their values: a program's data has more elements than bins, so values repeat (pigeonhole); other indices more
    numerous than the values in range are distinct as far as the range allows."""
    picked = {n: r for n, r in roles.items() if (n in changed or r.partner in changed and r.kind in BUCKETS)
              and (r.kind in STRUCTURED or r.rows)}
    args, specs = dict(launch.args), dict(launch.buffer_specs)
    for name, role in roles.items():
        arr, high = args.get(name), bound(role, args)
        if name not in changed or role.kind not in ("index", "keys") or role.rows or not isinstance(arr, np.ndarray):
            continue
        if all(t.size for t in role.targets):  # also keys (no targets): a table's inserts repeat keys
            args[name] = original.args[name]
            if name in original.buffer_specs:
                specs[name] = original.buffer_specs[name]
        elif high is not None and arr.size > high:
            args[name] = seal((np.arange(arr.size) % high).astype(arr.dtype).reshape(arr.shape),
                              {"dtype": str(arr.dtype), "length": int(arr.size), "fill": "ramp", "modulo": high})
            specs[name] = {"dtype": str(arr.dtype), "length": int(arr.size), "fill": "ramp", "modulo": high}
    if picked:
        draw_valid(picked, args, specs, np.random.default_rng(launch.seed))
    return replace(launch, args=args, buffer_specs=specs)


def bound(role: Role, args: dict) -> int | None:
    """The largest value (exclusive; inclusive for offsets) that keeps every target's access in bounds."""
    highs = []
    for t in role.targets:
        arr = args.get(t.name)
        if not t.size and not isinstance(arr, np.ndarray):
            return None
        factor = 1
        for name in t.by:  # a scalar argument that multiplies the value: its launch value scales the step
            v = args.get(name)
            if isinstance(v, (int, np.integer)) and int(v) > 0:
                factor *= int(v)
        highs.append((t.size or arr.nbytes) // max(t.unit * factor, 1) - t.add)
    high = min(highs, default=0)
    return high if high >= 1 else None


def _names(role: Role) -> str:
    return ", ".join(t.name for t in role.targets)
