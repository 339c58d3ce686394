"""Searched values changed so that the host's requirements hold (:meth:`simu.evolve.genome.Layout.decode`): the
comparisons a program asserts or branches on before a launch (``w1/w2 == h1/h2``, ``len > 128``) and the whole
work-groups an OpenCL NDRange needs (``(n/4)%16 == 0``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

MAX_TRIES = 48  # values tried per argument


def satisfied(values: dict[str, Any], names: list[str], requires: list[str],
              holds: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """``values`` changed in one or two of ``names`` (the searched integer arguments the requirements name) so that
    ``holds``: each set to another one's value, 1, a number the requirements compare with or its neighbour (sizes a
    program asserts alike are often equal; a branch's ``len > 128`` holds at 129), or a multiple they ask for and the
    value rounded up to it (``(n/4)%16 == 0``: a multiple of 64); unchanged when nothing tried holds."""
    numbers = list(dict.fromkeys(map(int, re.findall(r"(?<![\w.])\d+(?![\w.])", " ".join(requires)))))
    bounds = [v + d for v in numbers for d in (0, 1, -1)]
    steps = sorted({a * b for a in numbers for b in numbers if a > 1 and b > 1} | {a for a in numbers if a > 1})

    def candidates(n: str) -> list[int]:
        up = [-(-values[n] // q) * q for q in steps if values[n] > 0]
        return list(dict.fromkeys([values[m] for m in names if m != n] + [1] + bounds + up + steps))[:MAX_TRIES]

    for n in names:
        for x in candidates(n):
            if holds(trial := {**values, n: x}):
                return trial
    for i, n in enumerate(names):
        for m in names[i + 1:]:
            for x in candidates(n):
                for y in candidates(m):
                    if holds(trial := {**values, n: x, m: y}):
                        return trial
    return values
