"""Equivalence modulo inputs: dead-by-construction code that must not change any verdict.

Each block is ``if (emi_guard < 0) { … }``; the launch (and the ``constrain:`` line the search honours)
sets ``emi_guard=1``, so the block never runs.  Its body is deliberately bad when run — racy global
and shared stores, barriers, out-of-bounds indices — and uses only kernel parameters and thread ids, so
it compiles wherever it is placed (top-level statement boundaries of the kernel body).  EMI draws from
its own generator, so the kernel around the blocks is the one the same seed gives without ``--emi``.
"""

from __future__ import annotations

import random

from simu.generate.emit import Line
from simu.generate.program import Program


def dead_block(p: Program, r: random.Random, before: int) -> list[str]:
    """The lines of one dead block, for a place after the first ``before`` lines of the body (the shared
    float arrays it may store to are the ones declared there)."""
    d = p.d
    body: list[str] = []
    shared = [ln.text.split()[2].split("[")[0] for ln in p.b.lines[:before]
              if ln.depth == 1 and ln.text.startswith(("__local", "__shared__")) and "float" in ln.text]
    for _ in range(r.randint(1, 4)):
        k = r.choice(("race", "barrier", "oob", "loop", "shared"))
        if k == "race":
            body.append(f"out_f[{r.randint(0, 3)}u] = (float)lid * {r.choice(('0.5f', '2.0f'))};")
        elif k == "barrier":
            body.append(d.barrier)
        elif k == "oob":
            body.append(f"out_u[n + {r.randint(1, 64)}u] = gid ^ {r.randrange(1 << 16)}u;")
        elif k == "loop":
            body.append("for (uint e = 0u; e < n; e++) out_u[e] = out_u[(e + 1u) % n] + lid;")
        elif shared:
            body.append(f"{r.choice(shared)}[{r.randint(0, 7)}u] = (float)gid;")
    return ["if (emi_guard < 0) {", *["    " + t for t in body], "}"]


def insert(p: Program, seed: int) -> None:
    """Insert one to three dead blocks at the kernel body's top-level statement boundaries."""
    r = random.Random(seed * 1000003 + 77)
    p.scalar("int", "emi_guard", 1)
    anchors = [ln for ln in p.b.points if ln in p.b.lines]
    if not anchors:
        return
    chosen = r.sample(anchors, min(len(anchors), r.randint(1, 3)))
    for anchor in chosen:
        where = p.b.lines.index(anchor) + 1
        block = dead_block(p, r, where)
        for j, text in enumerate(block):
            ln = Line(text, 1, emi=True)
            p.b.lines.insert(where + j, ln)
            p.emi_lines.append(ln)
