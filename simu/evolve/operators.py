"""Operators on genomes.

Mutation after Simulee: each parent yields one child by standard-normal steps and one by
standard-Cauchy steps.  Dimension genes live in log2 space, so a step of about one doubles or
halves a dimension; integer arguments step in proportion to their magnitude.  Random search
replaces a parent by a fresh genome; shrinking halves one dimension or argument at a time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from simu.evolve.genes import Genes
from simu.launch.buffers import PLAIN_FILLS

MAX_LOG2_DIM = 10.0  # a mutated dimension gene stays within 1 .. 1024


def _step(rng: random.Random, cauchy: bool) -> float:
    if cauchy:
        return math.tan(math.pi * (rng.random() - 0.5))  # standard Cauchy
    return rng.gauss(0.0, 1.0)


def mutate(genes: list[float], rng: random.Random, cauchy: bool, at: Genes, rate: float = 0.5,
           dictionary: list[list[int]] | None = None, block_rate: float | None = None,
           fills: int = len(PLAIN_FILLS)) -> list[float]:
    """Each gene mutates with probability ``rate`` (block genes with ``block_rate`` when given).
    ``dictionary[j]``, when given, lists values the kernel compares scalar ``j`` with: a mutated
    scalar gene sometimes jumps to one of them instead of taking a step; ``fills``: how many fills the fill gene
    chooses from (:attr:`~simu.evolve.genome.Layout.fill_choices`)."""
    out = list(genes)
    for i in range(len(out)):
        p = block_rate if block_rate is not None and at.BLOCK.start <= i < at.BLOCK.stop else rate
        if rng.random() > p:
            continue
        s = _step(rng, cauchy)
        j = at.scalar_index(i)
        if at.DIMS.start <= i < at.DIMS.stop:  # small integer steps in log2 space (x2, /2, or +-1 thread)
            out[i] = min(max(out[i] + 0.5 * max(min(s, 4.0), -4.0), 0.0), MAX_LOG2_DIM)
        elif j is not None and dictionary and dictionary[j] and rng.random() < 0.3:
            out[i] = float(rng.choice(dictionary[j]))
        elif j is not None:
            scale = max(1.0, abs(out[i]) / 4.0)
            out[i] = out[i] + max(min(s, 8.0), -8.0) * scale
        elif i == at.FILL:
            out[i] = float(rng.randrange(fills))
        else:  # at.SEED
            out[i] = float(rng.randrange(1 << 16))
    return out


def fresh(initial: Callable[[], list[float]]) -> Callable[[list[float]], list[float]]:
    """The random-search "mutation": a new genome from the prior, whatever the parent."""
    return lambda parent: initial()


def halvings(genes: list[float], at: Genes) -> list[list[float]]:
    """Genomes one step smaller: one grid or block dimension halved (exactly, in whole threads), or
    one scalar argument halved."""
    out = []
    for i in range(at.DIMS.start, at.DIMS.stop):
        current = int(round(2 ** genes[i]))
        if current >= 2:
            g = list(genes)
            g[i] = math.log2(current // 2)
            out.append(g)
    for i in range(at.SCALARS.start, at.SCALARS.stop):
        if abs(genes[i]) >= 2:
            g = list(genes)
            g[i] = float(int(genes[i] / 2))
            out.append(g)
    return out
