"""Mutation after Simulee: each parent yields one child by standard-normal steps and one by
standard-Cauchy steps.  Dimension genes live in log2 space, so a step of about one doubles or
halves a dimension; integer arguments step in proportion to their magnitude."""

from __future__ import annotations

import math
import random

from simu.evolve.genome import FILLS


def _step(rng: random.Random, cauchy: bool) -> float:
    if cauchy:
        return math.tan(math.pi * (rng.random() - 0.5))  # standard Cauchy
    return rng.gauss(0.0, 1.0)


def mutate(genes: list[float], rng: random.Random, cauchy: bool, n_scalars: int, rate: float = 0.5,
           dictionary: list[list[int]] | None = None) -> list[float]:
    """``dictionary[j]``, when given, lists values the kernel compares scalar ``j`` with: a mutated
    scalar gene sometimes jumps to one of them instead of taking a step."""
    out = list(genes)
    for i in range(len(out)):
        if rng.random() > rate:
            continue
        s = _step(rng, cauchy)
        if i < 6:  # dimensions: small integer steps in log2 space (x2, /2, or +-1 thread via rounding)
            out[i] = min(max(out[i] + 0.5 * max(min(s, 4.0), -4.0), 0.0), 10.0)
        elif i < 6 + n_scalars and dictionary and dictionary[i - 6] and rng.random() < 0.3:
            out[i] = float(rng.choice(dictionary[i - 6]))
        elif i < 6 + n_scalars:
            scale = max(1.0, abs(out[i]) / 4.0)
            out[i] = out[i] + max(min(s, 8.0), -8.0) * scale
        elif i == len(out) - 2:
            out[i] = float(rng.randrange(len(FILLS)))
        else:
            out[i] = float(rng.randrange(1 << 16))
    return out
