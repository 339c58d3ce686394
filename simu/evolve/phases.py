"""The search's phases besides the loop: the dictionary sweep, refuting redundant barriers, shrinking witnesses.

Each takes the :class:`~simu.evolve.search.Search` (its layout, generator, budget and
``evaluate``); a mode registers the ones it runs (:mod:`simu.evolve.modes`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from deap import tools

from simu import codes
from simu.evolve.genome import SIZE_NAMES, Genes
from simu.evolve.loop import individual
from simu.evolve.operators import MAX_LOG2_DIM, halvings
from simu.ir.types import IntType
from simu.launch import Launch
from simu.launch.buffers import PLAIN_FILLS
from simu.pipeline import beyond_contract

SWEEP_BASES = 3  # the best distinct launches the sweep varies
SWEEP_LIMIT = 18  # launches the sweep may add
REFUTE_LAUNCHES = 8
REFUTE_MAX_LOG2_GRID = 3  # refutation launches have at most 8 blocks along x
SHRINK_TRIES = 10  # smaller launches tried per finding
LENGTH_WITNESSES = 3  # the largest launches that showed an out-of-bounds access, tried with plausible lengths


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
    for i in range(extra):
        if not search.analysis.unsettled() or search.out_of_time(1.3):
            return
        variant = search.layout.initial(rng)
        variant[x_block] = min(variant[x_block] + rng.choice([1, 2]), MAX_LOG2_DIM)  # more threads per block
        variant[x_grid] = min(variant[x_grid] + rng.choice([0, 1]), REFUTE_MAX_LOG2_GRID)
        if i % 2:
            threads = 2 ** (variant[x_grid] + variant[x_block])
            for g in range(at.SCALARS.start, at.SCALARS.stop):
                if rng.random() < 0.6:
                    variant[g] = max(abs(variant[g]) * rng.choice([2, 4, 8]), threads)
            variant[at.FILL] = float(rng.randrange(len(PLAIN_FILLS)))
        search.evaluate(variant, guessed_buffers_ok=False)


def shrink(search, per_finding: int = SHRINK_TRIES) -> None:
    """Make each finding's witness launch as small as the search can while it persists."""
    layout = search.layout
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind == "redundant-barrier":
            continue
        best = list(genes)
        tries = 0
        improved = True
        while improved and tries < per_finding and not search.out_of_time():
            improved = False
            for cand in halvings(best, layout.at):
                tries += 1
                ev = search.evaluate(cand)
                hit = next((f for f in ev.findings if f.key == key), None) if ev.valid else None
                if hit is not None and _size(ev.launch) < _genes_size(layout, best):
                    best = cand
                    search.found[key] = (hit, cand)
                    improved = True
                    break
                if tries >= per_finding:
                    break


MEMORY_KINDS = ("out-of-bounds", "null", "invalid-pointer")
CONTENT_FILLS = ("zeros", "ramp")  # zeros: indices read from buffers are 0; ramp: they are distinct and small


def refute_by_contents(search) -> None:
    """A global-memory error that goes away on its own witness launch when the buffers hold zeros or a
    ramp depends on the buffer contents (indices or pointers the kernel reads from its buffers), which
    the host, not the search, decides: it is kept as a warning that says so, not an error."""
    at = search.layout.at
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind not in MEMORY_KINDS or finding.space not in ("global", "constant") \
                or finding.severity != codes.ERROR:
            continue
        for fill in CONTENT_FILLS:
            if search.out_of_time(1.8):
                return
            variant = list(genes)
            variant[at.FILL] = float(PLAIN_FILLS.index(fill))
            ev = search.evaluate(variant)
            if ev.valid and not any(f.key == key for f in ev.findings):
                search.found[key] = (beyond_contract(finding, "the buffer contents are the search's (with "
                                                     f"{fill}-filled buffers the same launch stays in bounds, so the "
                                                     "kernel reads the index from its buffers and the host's data "
                                                     "decides)"), genes)
                break


def refute_by_sign(search) -> None:
    """An error that every launch showing it shows only with a negative value for a searched integer
    argument the kernel never compares with a negative constant (an increment, stride, offset or count the
    search made negative: darknet's ``X[i*INCX]`` with INCX = -1) depends on that value, which no host
    launch or constraint gave: it is kept as a warning that names the argument.  Arguments the host or the
    user fixes or bounds are not searched, and one the kernel tests for negatives (``if (shift < 0)``) may
    be negative."""
    layout = search.layout
    unsigned = [p.name for p in layout.scalars if isinstance(p.type, IntType) and p.type.bits > 1
                and p.name not in layout.ranges and not any(v < 0 for v in layout.dictionary.get(p.name, []))]
    if not unsigned:
        return
    for key, (finding, genes) in list(search.found.items()):
        if finding.severity != codes.ERROR:
            continue
        shown = [e for e in search.cache.values() if e.valid and any(f.key == key for f in e.findings)]
        negative = [[n for n in unsigned if _int(e.launch.args.get(n)) < 0] for e in shown]
        if not shown or not all(negative):
            continue
        at = next((i for i, e in enumerate(shown) if e.genes == list(genes)), 0)  # the reported witness
        names = ", ".join(f"{n} = {_int(shown[at].launch.args.get(n))}" for n in negative[at])
        search.found[key] = (beyond_contract(finding, (
            f"the searched launch passes {names}, a negative value the search chose for an argument the kernel "
            f"never compares with a negative constant (no host launch or constraint gives it); no launch with "
            f"non-negative arguments showed it")), genes)


def _int(v) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


def refute_by_length(search, witnesses: int = LENGTH_WITNESSES) -> None:
    """A global-memory out-of-bounds access past the end of a buffer whose length the search chose (no host
    allocation, constraint or launch comment gives it) that goes away, on each of its largest witness
    launches, when every such buffer gets the longest length the kernel's own sizes allow
    (:func:`~simu.evolve.genome.plausible_length`) depends on that guess, not on the kernel: it is kept
    as a warning that names the length.  An access before a buffer's start, or past every plausible
    length on some witness, stays an error."""
    layout = search.layout
    invented = layout.invented_buffers()
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind != "out-of-bounds" or finding.space not in ("global", "constant") \
                or finding.severity != codes.ERROR or finding.variable not in invented \
                or finding.detail.get("offset", 0) < 0:
            continue
        shown = [e for e in search.cache.values() if e.valid and e.genes is not None
                 and any(f.key == key for f in e.findings)]
        shown.sort(key=lambda e: _size(e.launch), reverse=True)
        tried = []
        for ev in shown[:witnesses]:
            if search.out_of_time(1.9):
                return
            longer = layout.launch(ev.genes, plausible=True)
            probe = search.probe(longer)
            if probe is None:
                break  # nothing learnt: the error stands
            hit = next((f for f in probe.findings if f.key == key), None)
            if hit is not None:  # past every plausible length: the error stands, on a witness that shows it
                n = _elements(longer, finding.variable)
                shown_f = next(f for f in ev.findings if f.key == key)
                search.found[key] = (replace(shown_f, message=f"{shown_f.message} (out of bounds even with {n} "
                                             "elements, the longest length the kernel's own sizes allow)"),
                                     list(ev.genes))
                break
            tried.append((ev.launch, longer))
        else:
            if not tried:
                continue
            var = finding.variable
            drawn, longer = tried[0]
            search.found[key] = (beyond_contract(finding, (
                f"'{var}' holds {_elements(drawn, var)} elements, a length the search chose (no host allocation, "
                f"constraint or launch comment gives it); with {_elements(longer, var)} elements, a length the "
                "kernel's own sizes allow, the same launch stays in bounds")), genes)


def _elements(launch: Launch, name: str) -> int:
    v = launch.args.get(name)
    return int(getattr(v, "size", 0))


def _distinct(individuals: list, at: Genes) -> list:
    out, seen = [], set()
    for ind in individuals:
        key = at.launch_part(ind)
        if key not in seen:
            seen.add(key)
            out.append(ind)
    return out


def _size(launch: Launch) -> tuple:
    """(threads, sum of the integer arguments): what shrinking makes smaller."""
    ints = sum(abs(int(v)) for v in launch.args.values() if isinstance(v, (int, np.integer)))
    return (launch.total_threads, ints)


def _genes_size(layout, genes: list[float]) -> tuple:
    """:func:`_size` of the launch ``genes`` describe, without drawing its buffers."""
    grid, block, values, _, _ = layout.decode(genes)
    args = [values[p.name] for p in layout.kernel.params if p.name in values]
    ints = sum(abs(int(v)) for v in args if isinstance(v, (int, np.integer)))
    return (int(np.prod(grid)) * int(np.prod(block)), ints)
