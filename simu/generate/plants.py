"""Planted bugs: each changes the kernel in one known place and says what simu must report.

Output plants (``non-injective``, ``inter-block``, ``out-of-bounds``) change the final stores; barrier
plants (``redundant-barrier``, ``divergent-barrier``) add a barrier after the last shared-memory access;
``drop-barrier`` and ``warp-no-syncwarp`` remove a barrier or ``__syncwarp()`` once the kernel is built,
and label every pair of accesses the removed one alone ordered.
"""

from __future__ import annotations

from simu.generate.model import GenerateError
from simu.generate.program import Program


def emit_outputs(p: Program, pu: str, pf: str) -> None:
    """Store ``pu`` to ``out_u`` and ``pf`` to ``out_f`` at ``gid`` (under ``gid < n``), or the planted variant."""
    b, plant = p.b, p.plant
    if plant == "non-injective":
        ln = b.line(f"if (gid < n) out_u[gid >> 1u] = ({pu}) * 2u + (gid & 1u);  // planted: two threads, one slot")
        p.expect("race global write-write {lines}", ln)
        b.line(f"if (gid < n) out_f[gid] = {pf};")
    elif plant == "inter-block":
        step = "WG" if p.wg else p.d.lsize
        w = b.line(f"if (gid < n) out_u[gid] = {pu};")
        r = b.line(f"if (gid < n) out_f[gid] = {pf} + (float)(out_u[(gid + {step}) % n] & 255u);"
                   "  // planted: reads another block's store")
        p.expect("race global read-write {lines}", w, r)
    elif plant == "out-of-bounds":
        b.line(f"if (gid < n) out_u[gid] = {pu};")
        ln = b.line(f"if (gid < n) out_f[gid] = {pf} + in_f[gid + 1u];  // planted: reads in_f[n]")
        p.expect("out-of-bounds global {lines}", ln)
    else:
        b.line(f"if (gid < n) out_u[gid] = {pu};")
        b.line(f"if (gid < n) out_f[gid] = {pf};")


def emit_end(p: Program) -> None:
    """After the last shared-memory access: the planted redundant or divergent barrier."""
    b, d = p.b, p.d
    if p.plant == "redundant-barrier":
        ln = b.line(f"{d.barrier}  // planted: orders nothing")
        p.expect("redundant-barrier {lines}", ln)
    elif p.plant == "divergent-barrier":
        ln = b.line(f"if ((lid & 1u) == 0u) {{ {d.barrier} }}  // planted: only even threads")
        p.expect("barrier-divergence {lines}", ln)


def drop_barrier(p: Program) -> None:
    """Remove one droppable barrier that alone orders conflicting accesses; label each such pair."""
    cands = [bar for bar in p.barriers if bar.droppable and bar.conflicts()]
    if not cands:
        raise GenerateError(f"no barrier to drop in this {p.mode} kernel")
    bar = p.rng.choice(cands)
    p.b.remove(bar.line)
    seen = set()
    for a, c in bar.conflicts():
        access = "read-write" if "r" in (a.kind, c.kind) else "write-write"
        key = (id(a.line), id(c.line), access)
        if key not in seen:
            seen.add(key)
            p.expect(f"race shared {access} {{lines}}", a.line, c.line)


def drop_syncwarp(p: Program) -> None:
    """Remove one ``__syncwarp()`` of a warp-synchronous exchange: a race only without lockstep warps."""
    if not p.warp_syncs:
        raise GenerateError("no __syncwarp() to drop in this kernel")
    sync, first, second = p.rng.choice(p.warp_syncs)
    p.b.remove(sync)
    p.expect("(independent): warp-race shared read-write {lines}", first, second)
