"""Random kernels with known answers (after CLsmith and EMI): ``simu generate`` and its library API.

    >>> from simu import generate
    >>> k = generate.kernel(7, "barrier", lang="opencl", plant="drop-barrier")
    >>> k.source.splitlines()[0]
    '// generated: seed=7 mode=barrier lang=opencl plant=drop-barrier emi=0'

The package writes source text only; it imports no analysis stage (see docs/generate.md).
"""

from __future__ import annotations

import random

from simu.generate import atomic, barrier, plants, private, vector, warp
from simu.generate import emi as emi_mod
from simu.generate.emit import Dialect
from simu.generate.model import APPLICABLE, LANGS, MODES, PLANTS, GeneratedKernel, GenerateError, check_choice
from simu.generate.program import Program

__all__ = ["APPLICABLE", "LANGS", "MODES", "PLANTS", "GenerateError", "GeneratedKernel", "kernel"]

# modes whose kernels need a fixed block size (shared arrays of WG elements, warp-level calls)
_FIXED = ("barrier", "atomic-section", "atomic-reduction", "all", "warp")


def kernel(seed: int, mode: str, lang: str = "opencl", plant: str = "none", emi: bool = False) -> GeneratedKernel:
    """The kernel ``seed`` gives in ``mode``; ``plant`` a bug kind, ``random`` (one that applies to the mode)
    or ``none``; ``emi`` adds dead code.  Raises :class:`GenerateError` for a bad combination."""
    check_choice(mode, lang, plant)
    r = random.Random(f"{seed}/{mode}/{lang}")  # a string seed is hashed with SHA-512: stable across runs
    if plant == "random":
        plant = r.choice(APPLICABLE[mode])
    d = Dialect(lang)
    # a redundant barrier is only judged in a kernel with shared memory: basic/vector then use a scratch slot
    fixed = mode in _FIXED or r.random() < 0.5 or plant == "redundant-barrier"
    wg = r.choice((64, 128, 256)) if fixed else None
    block = wg or r.choice((32, 64, 96, 128, 192, 256))
    grid = r.randint(2, 4)
    n = grid * block - r.randint(0, block // 2)
    name = f"gen_{mode.replace('-', '_')}_{seed}".replace("-", "m")
    p = Program(r, d, name, wg, block, grid, n, mode=mode, plant=plant)
    private.prelude(p)
    private.prologue(p)
    _BODIES[mode](p)
    plants.emit_end(p)
    private.outputs(p)
    if emi:
        emi_mod.insert(p, seed)
    if plant == "drop-barrier":
        plants.drop_barrier(p)
    elif plant == "warp-no-syncwarp":
        plants.drop_syncwarp(p)
    first = f"// generated: seed={seed} mode={mode} lang={lang} plant={plant} emi={int(emi)}"
    text, exps, emi_lines = p.assemble(first)
    return GeneratedKernel(source=text, name=name, lang=lang, mode=mode, plant=plant, seed=seed, emi=emi,
                           suffix=d.suffix, expectations=[b for _, b in exps],
                           expect_configs=[c for c, _ in exps], launch=p.launch_text(),
                           constrain=p.constrain_text(), emi_lines=emi_lines)


def _basic(p: Program) -> None:
    r, b, e = p.rng, p.b, p.e
    private.statements(p, r.randint(2, 5), depth=2)
    # a per-thread slot of local memory: no communication, no barrier
    if p.wg and (r.random() < 0.5 or p.plant == "redundant-barrier"):
        sc = e.fresh("scr")
        b.line(p.d.local("float", sc, "WG"))
        b.line(f"{sc}[lid] = {e.clamp(e.f())};")
        private.statements(p, r.randint(1, 3), depth=1)
        v = e.fresh("f")
        b.line(f"float {v} = {sc}[lid];")
        e.scope.add("float", v)
        b.mark_point()
    private.statements(p, r.randint(1, 4), depth=2)


def _vector(p: Program) -> None:
    vector.body(p)
    if p.plant == "redundant-barrier":
        _basic(p)


def _all(p: Program) -> None:
    r = p.rng
    pieces = [_basic]
    if r.random() < 0.5:
        pieces.append(lambda q: [vector.helpers(q), *[vector.statement(q) for _ in range(r.randint(1, 3))]])
    if p.plant == "drop-barrier" or r.random() < 0.7:
        pieces.append(barrier.body)
    if r.random() < 0.5:
        pieces.append(atomic.section_body)
    if r.random() < 0.5:
        pieces.append(atomic.reduction_body)
    if p.d.cuda and r.random() < 0.5:
        pieces.append(warp.body)
    for piece in pieces:
        piece(p)
        p.b.mark_point()


_BODIES = {"basic": _basic, "vector": _vector, "barrier": barrier.body, "atomic-section": atomic.section_body,
           "atomic-reduction": atomic.reduction_body, "all": _all, "warp": warp.body}
