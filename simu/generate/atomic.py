"""The ``atomic-section`` and ``atomic-reduction`` modes.

A section: a counter elects one thread per section (``atomic_inc(&cnt[s]) == 0``) and only that thread
computes the section's result, from the section number alone, so the result does not depend on which
thread won.  A reduction: every thread combines a value into a few slots with integer atomics only
(add, or, xor, min, max: commutative, so the final values are deterministic).  Both come in a global
variant and a local variant (counters/accumulators in local memory, initialised by the first threads,
barriers around the atomics, the result read back by every warp).
"""

from __future__ import annotations

from simu.generate.exprs import ExprGen
from simu.generate.program import Program

OPS = ("add", "or", "xor", "max", "min", "add")


def _section_value(p: Program, s: str, guarded: bool) -> str:
    """A float that depends only on the section number ``s`` (and on the inputs when ``guarded``)."""
    g = ExprGen(p.rng, p.d, guarded=guarded, ids=False, helpers_u=p.e.helpers_u, helpers_f=p.e.helpers_f)
    g.scope.add("uint", s)
    return g.clamp(f"{g.f(2)} + (float){s}")


def section_global(p: Program) -> None:
    b, d, r = p.b, p.d, p.rng
    ns = r.choice((4, 8, 16))
    p.buffer("cnt", "uint", "uint32", fixed=ns, fill="zeros")
    p.buffer("sec_f", "float", "float32", fixed=ns)
    s = p.e.fresh("s")
    b.line(f"const uint {s} = ({r.choice(('gid', 'gid / 3u', 'lid', 'gid * 5u'))}) % {ns}u;")
    with b.block("if (gid < n)"):
        with b.block(f"if ({d.atomic_inc(f'&cnt[{s}]')} == 0u)"):
            b.line(f"sec_f[{s}] = {_section_value(p, s, True)};  // one thread per section")
    b.mark_point()


def section_local(p: Program) -> None:
    b, d, r, e = p.b, p.d, p.rng, p.e
    ns = r.choice((4, 8, 16))
    lc, ls = e.fresh("lcnt"), e.fresh("lsec")
    b.line(d.local("uint", lc, f"{ns}u"))
    b.line(d.local("float", ls, f"{ns}u"))
    p.sync_for("w", lc, True)
    ln = b.line(f"if (lid < {ns}u) {lc}[lid] = 0u;")
    p.access("w", lc, True, ln)
    s = e.fresh("s")
    b.line(f"const uint {s} = ({r.choice(('lid', 'lid / 3u', 'lid * 5u', 'lid >> 2u'))}) % {ns}u;")
    p.sync_for("a", lc, False)
    ln = b.line(f"if ({d.atomic_inc(f'&{lc}[{s}]')} == 0u) {ls}[{s}] = {_section_value(p, s, False)};")
    p.access("a", lc, False, ln)
    p.access("w", ls, False, ln)
    p.sync_for("r", ls, False)
    x = e.fresh("x")
    ln = b.line(f"float {x} = {ls}[(lid + {r.randrange(ns)}u) % {ns}u];")
    p.access("r", ls, False, ln)
    e.scope.add("float", x)
    p.sink("float", x)
    if r.random() < 0.5:
        c = e.fresh("c")
        ln = b.line(f"uint {c} = {lc}[lid % {ns}u];  // how many threads took part in the section")
        p.access("r", lc, False, ln)
        e.scope.add("uint", c)
        p.sink("uint", c)
    b.mark_point()


def reduction_global(p: Program) -> None:
    b, d, r, e = p.b, p.d, p.rng, p.e
    k = r.choice((1, 4, 8))
    p.buffer("racc", "uint", "uint32", fixed=k, fill="zeros")
    p.racc_op = p.racc_op or r.choice(OPS)  # add and xor (or max and min) on one word do not commute
    with b.block("if (gid < n)"):
        e.guarded = True
        for _ in range(r.randint(1, 2)):
            b.line(f"{d.atomic(p.racc_op, f'&racc[({e.u(1)}) % {k}u]', e.u())};")
        e.guarded = False
    b.mark_point()


def reduction_local(p: Program) -> None:
    b, d, r, e = p.b, p.d, p.rng, p.e
    k = r.choice((4, 8, 16))
    p.buffer("racc", "uint", "uint32", fixed=k, fill="zeros")
    la = e.fresh("lacc")
    b.line(d.local("uint", la, f"{k}u"))
    p.sync_for("w", la, True)
    ln = b.line(f"if (lid < {k}u) {la}[lid] = 0u;")
    p.access("w", la, True, ln)
    op = r.choice(OPS)
    p.sync_for("a", la, False)
    ln = b.line(f"{d.atomic(op, f'&{la}[({e.u(1)}) % {k}u]', e.u())};")
    p.access("a", la, False, ln)
    p.sync_for("r", la, True)
    p.racc_op = p.racc_op or "add"
    ln = b.line(f"if (lid < {k}u) {d.atomic(p.racc_op, '&racc[lid]', f'{la}[lid]')};")
    p.access("r", la, True, ln)
    if r.random() < 0.5:
        t = e.fresh("t")
        p.sync_for("r", la, False)
        ln = b.line(f"uint {t} = {la}[(lid + {r.randrange(k)}u) % {k}u];")
        p.access("r", la, False, ln)
        e.scope.add("uint", t)
        p.sink("uint", t)
    b.mark_point()


def section_body(p: Program) -> None:
    """The atomic-section mode's body."""
    from simu.generate import private

    r = p.rng
    private.statements(p, r.randint(0, 2), depth=1)
    local = p.wg is not None and (p.plant == "drop-barrier" or r.random() < 0.6)
    (section_local if local else section_global)(p)
    private.statements(p, r.randint(0, 2), depth=1)


def reduction_body(p: Program) -> None:
    """The atomic-reduction mode's body."""
    from simu.generate import private

    r = p.rng
    private.statements(p, r.randint(0, 2), depth=1)
    local = p.wg is not None and (p.plant == "drop-barrier" or r.random() < 0.6)
    (reduction_local if local else reduction_global)(p)
    private.statements(p, r.randint(0, 2), depth=1)
