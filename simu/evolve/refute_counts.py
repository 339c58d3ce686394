"""Severity refutation for a count the host computes but simu could not read (issue 29).

At a host launch the host gives a buffer's length (``cudaMalloc(&wl, n * sizeof(int))``) but computes a count at run
time (a BFS's ``in_len``, copied back from the device on every pass of its loop): the search draws the count, and a
count larger than the buffer it counts sends ``wl[i]`` for ``i < in_len`` past the end.  A program's counts fit
its buffers, so an out-of-bounds error on a buffer whose length the host gives, whose every witness passes a
searched integer argument larger than that buffer's elements, is re-run with those arguments at the buffer's
elements: an error that goes away is a warning that says which values show it ("only when in_len > 93, the
elements of 'wl' …"); one that stays is an error on the repaired launch.  Where the host's own assertions keep the
count above the buffer (``frontier_len >= 1024`` on the path to a multi-block BFS launch), lowering it repairs
nothing (the search's requirement repair raises it again): the buffer is grown instead, when its length is one
searched argument (``frontier`` of ``numVertices`` elements), to the largest count.
"""

from __future__ import annotations

import re

import numpy as np

from simu import codes
from simu.evolve.refute import int_value, witnesses
from simu.ir.types import IntType
from simu.pipeline import beyond_contract

COUNT_WITNESSES = 2  # the witnesses re-run with the counts at the buffer's elements


def refute_by_counts(search, tries: int = COUNT_WITNESSES) -> None:
    """See the module."""
    layout = search.layout
    ints = {p.name: j for j, p in enumerate(layout.scalars) if isinstance(p.type, IntType) and p.type.bits > 1
            and p.name not in layout.ranges}
    if not ints or not layout.buffer_lengths:
        return
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind != "out-of-bounds" or finding.severity != codes.ERROR or finding.space != "global" \
                or finding.variable not in layout.buffer_lengths:
            continue
        shown = witnesses(search, key)
        over = [(e, _over(e.launch, finding.variable, ints)) for e, _ in shown]
        if not over or not all(big for _, big in over):
            continue  # a witness at counts within the buffer: the error stands
        reported = next((w for w in over if w[0].genes == list(genes)), over[0])
        others = [w for w in over if w is not reported][:tries - 1]
        gone, grown = None, None
        for e, big in [reported, *others]:
            fixed, length = list(e.genes), None
            for name, limit in big.items():
                fixed[layout.at.scalar(ints[name])] = float(limit)
            if _over(layout.launch(fixed), finding.variable, ints):  # the host's assertions keep a count above it
                fixed = _grown(layout, e, finding.variable, big, ints)
                if fixed is None:
                    continue  # no repair this witness can be judged on
                length = layout.buffer_lengths[finding.variable]
            ev = search.refute(fixed, like=e)
            hit = None if ev is None else next((f for f in ev.findings if f.key == key), None)
            if hit is not None:  # shown with the counts inside the buffer: an error, on that launch
                search.judge(key, hit, fixed)
                gone = None
                break
            if ev is not None and gone is None:
                gone, grown = big, length
        if gone and grown:
            values = f"{next(iter(gone))} > {grown}" if len(gone) == 1 else \
                f"one of {', '.join(gone)} is larger than {grown}"
            search.judge(key, beyond_contract(finding, (
                f"only when {values}: '{finding.variable}' holds {grown} elements the host allocates, "
                f"{', '.join(gone)} the host computes at run time and simu could not read (the search chose it), and "
                f"with {grown} as large as {', '.join(gone)} the launch stays in bounds"),
                f"counts {', '.join(sorted(gone))}"), genes)
        elif gone:
            values = ", ".join(f"{n} > {limit}" for n, limit in gone.items())
            search.judge(key, beyond_contract(finding, (
                f"only when {values}, the elements of '{finding.variable}' the host allocates: "
                f"{', '.join(gone)} the host computes at run time and simu could not read (the search chose it), and "
                f"with {', '.join(f'{n} = {v}' for n, v in gone.items())} the same launch stays in bounds"),
                f"counts {', '.join(sorted(gone))}"), genes)


def _grown(layout, e, buffer: str, big: dict[str, int], ints: dict[str, int]) -> list[float] | None:
    """``e``'s genes with the searched argument that is ``buffer``'s whole length raised to the largest count over
    it, or None when the length is no single searched argument or the launch still counts past the buffer."""
    length = layout.buffer_lengths.get(buffer, "").strip()
    if not re.fullmatch(r"[A-Za-z_]\w*", length) or length not in ints or length in big:
        return None
    counts = [int_value(e.launch.args.get(n)) for n in big]
    fixed = list(e.genes)
    fixed[layout.at.scalar(ints[length])] = float(max(counts))
    return None if _over(layout.launch(fixed), buffer, ints) else fixed


def _over(launch, buffer: str, ints: dict[str, int]) -> dict[str, int]:
    """The searched integer arguments of ``launch`` larger than ``buffer``'s elements, each with that number."""
    arr = launch.args.get(buffer)
    if not isinstance(arr, np.ndarray) or not arr.size:
        return {}
    return {n: int(arr.size) for n in ints if int_value(launch.args.get(n)) > arr.size}
