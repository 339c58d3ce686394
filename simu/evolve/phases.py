"""The search's phases besides the loop: the dictionary sweep, refuting redundant barriers, shrinking witnesses
(the severity refutations are in :mod:`simu.evolve.refute`).

Each takes the :class:`~simu.evolve.search.Search` (its layout, generator, budget and
``evaluate``); a mode registers the ones it runs (:mod:`simu.evolve.modes`).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from deap import tools

from simu import codes
from simu.evolve.genes import Genes
from simu.evolve.genome import SIZE_NAMES
from simu.evolve.loop import individual
from simu.evolve.operators import MAX_LOG2_DIM, halvings
from simu.launch import Launch

SWEEP_BASES = 3  # the best distinct launches the sweep varies
SWEEP_LIMIT = 18  # launches the sweep may add
REFUTE_LAUNCHES = 8
REFUTE_MAX_LOG2_GRID = 3  # refutation launches have at most 8 blocks along x
REFUTE_GUARD = 1.2  # budgets of seconds after which refuting redundant barriers stops
SHRINK_TRIES = 10  # smaller launches tried per finding
SHRINK_STEPS = 4  # a smaller launch may take this many times its witness's steps (more: it hangs; not a witness)
SHRINK_GUARD = 1.3  # budgets of seconds after which shrinking stops (the severity refutations come after)


def dictionary_sweep(search, pop: list, limit: int = SWEEP_LIMIT) -> list:
    """The deterministic stage of a fuzzer: the best launches so far, with each argument set in
    turn to each constant the kernel compares it with (the values behind `mode == 5`)."""
    layout, at = search.layout, search.layout.at
    bases = _distinct(tools.selBest(pop, len(pop)), at)[:SWEEP_BASES]
    out: list = []
    size_like = [SIZE_NAMES.match(p.name) is not None for p in layout.scalars]
    order = sorted(range(len(layout.scalars)), key=lambda j: size_like[j])  # flags and modes first
    for j in order:
        for w in layout.dictionary.get(layout.scalars[j].name, []):
            for best in bases:
                if len(out) >= limit or search.out_of_budget():
                    return out
                if int(round(best[at.scalar(j)])) == w:
                    continue
                child = individual(list(best))
                child[at.scalar(j)] = float(w)
                child.fitness.values = search.evaluate(child).fitness
                out.append(child)
    return out


def refute_redundant(search, extra: int = REFUTE_LAUNCHES) -> None:
    """Try launches that could make a seemingly redundant barrier necessary: more threads per
    block and more blocks (so conflicts cross warps), larger integer arguments (so loops and
    data reach other threads' elements) and other buffer contents."""
    if codes.BARRIERS not in search.settings.checks:
        return
    at, rng = search.layout.at, search.rng
    x_block, x_grid = at.block(0), at.grid(0)
    search.until = REFUTE_GUARD
    for i in range(extra):
        if not search.analysis.unsettled() or search.out_of_time(REFUTE_GUARD):
            return
        variant = search.layout.initial(rng)
        variant[x_block] = min(variant[x_block] + rng.choice([1, 2]), MAX_LOG2_DIM)  # more threads per block
        variant[x_grid] = min(variant[x_grid] + rng.choice([0, 1]), REFUTE_MAX_LOG2_GRID)
        if i % 2:
            threads = 2 ** (variant[x_grid] + variant[x_block])
            for g in range(at.SCALARS.start, at.SCALARS.stop):
                if rng.random() < 0.6:
                    variant[g] = max(abs(variant[g]) * rng.choice([2, 4, 8]), threads)
            variant[at.FILL] = float(rng.randrange(len(search.layout.fill_choices)))
        search.evaluate(variant, guessed_buffers_ok=False)


def shrink(search, per_finding: int = SHRINK_TRIES) -> None:
    """Make each finding's witness launch as small as the search can while it persists.  A smaller launch may
    take :data:`SHRINK_STEPS` times the steps of the witness it shrinks, no more (one that hangs, as a
    halved grid may, stops there), and none starts after :data:`SHRINK_GUARD` budgets of seconds."""
    layout = search.layout
    search.until = SHRINK_GUARD
    steps = {tuple(e.genes): e.steps for e in search.cache.values() if e.valid and e.genes is not None}
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind == "redundant-barrier":
            continue
        best = list(genes)
        tries = 0
        improved = True
        while improved and tries < per_finding:
            improved = False
            for cand in halvings(best, layout.at):
                if search.out_of_time(SHRINK_GUARD):
                    return
                tries += 1
                limits, known = search.timed_limits(), steps.get(tuple(best))
                if known is not None:
                    limits = dataclasses.replace(limits, max_steps=min(limits.max_steps, SHRINK_STEPS * known + 1000))
                ev = search.evaluate(cand, limits=limits)
                hit = next((f for f in ev.findings if f.key == key), None) if ev.valid else None
                if hit is not None and launch_size(ev.launch) < _genes_size(layout, best):
                    best = cand
                    steps[tuple(cand)] = ev.steps
                    search.judge(key, hit, cand)
                    improved = True
                    break
                if tries >= per_finding:
                    break


def _distinct(individuals: list, at: Genes) -> list:
    out, seen = [], set()
    for ind in individuals:
        key = at.launch_part(ind)
        if key not in seen:
            seen.add(key)
            out.append(ind)
    return out


def launch_size(launch: Launch) -> tuple:
    """(threads, sum of the integer arguments): what shrinking makes smaller."""
    ints = sum(abs(int(v)) for v in launch.args.values() if isinstance(v, (int, np.integer)))
    return (launch.total_threads, ints)


def _genes_size(layout, genes: list[float]) -> tuple:
    """:func:`_size` of the launch ``genes`` describe, without drawing its buffers."""
    grid, block, values, _, _ = layout.decode(genes)
    args = [values[p.name] for p in layout.kernel.params if p.name in values]
    ints = sum(abs(int(v)) for v in args if isinstance(v, (int, np.integer)))
    return (int(np.prod(grid)) * int(np.prod(block)), ints)
