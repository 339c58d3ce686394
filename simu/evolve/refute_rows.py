"""Errors that need a searched row length shorter than the launch's extent (issue 28: values the program passes).

A kernel that linearises a thread index with an integer argument (``x = c * out_width + w``, ``w =
get_global_id(1)``: :func:`~simu.evolve.rows.row_length_arguments`) and never bounds ``w`` by it was written for
launches whose NDRange is the data's extent: its host launches ``out_width`` work-items along that dimension.  The
search chooses the argument and the NDRange apart, and where the argument is shorter than the launch's work-items
rows overlap: two threads write one element, an index runs into the next row.  No launch of the program's is such.
An error every witness of which has a searched row length below the launch's largest extent (the grid times the
block along one dimension) is re-run on its cheapest witness with each such argument raised to the launch's extents
above it, the shortest first (the columns' dimension is seldom the longest, and a kernel that loops over its row
costs as much more as the row grew), the rest kept, its images as much wider as the rows grew (rows past the image
drawn for the short ones would write outside it); when a re-run loses it while its accesses still run
(:func:`~simu.evolve.refute_values.rerun_verdict`), it is a warning that names the assumption.  An error a re-run
still shows, or that no re-run could judge, stands.  An argument the host computes from program state is judged here
too, before the order re-runs of :mod:`simu.evolve.refute_state` and the one-value re-runs of
:mod:`simu.evolve.refute_values`: the host that computes it launches as many work-items as it says.
"""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np

from simu import codes
from simu.evolve.refute import affordable, int_value, sites_of, witnesses
from simu.evolve.refute_values import JUDGED_KINDS, Reruns, rerun_verdict
from simu.evolve.rows import row_lengths
from simu.launch.buffers import seal
from simu.launch.images import is_image
from simu.pipeline import beyond_contract

MAX_EXTENT = 1 << 16  # a longer row would cost the re-run more than its witness
MAX_IMAGE_ELEMENTS = 1 << 22  # an image widened for longer rows past this stays as it was


def refute_by_rows(search) -> None:
    """Errors that need a row length shorter than the launch's extent become warnings (see the module)."""
    layout = search.layout
    searched = {p.name for p in layout.scalars}  # a value the host computes from its state is a row length too
    scales = {n: k for n, k in row_lengths(layout.kernel).items() if n in searched}
    rows = sorted(scales)
    if not rows:
        return
    errors = [key for key, (f, _) in search.found.items() if f.severity == codes.ERROR and f.kind in JUDGED_KINDS]
    # every error's source positions, read off each re-run: errors sharing a witness share its re-runs
    wanted = frozenset().union(*(sites_of(search.found[key][0]) for key in errors))
    reruns: dict[tuple, Reruns] = {}
    for key in errors:
        shown = affordable(search, witnesses(search, key))
        if not shown or any(not _short(w.launch, scales) for w, _ in shown):
            continue  # a witness whose rows are as long as its launch is inside the contract
        witness, finding = min(shown, key=lambda s: s[0].cost)
        sites = sites_of(finding)
        wider = partial(_wider_images, _images(layout.kernel), witness)
        runs = reruns.setdefault(tuple(witness.genes), Reruns(search, witness, wanted, wider))
        for name in rows:
            verdict = _raised(search, key, runs, finding, sites, name, scales[name])
            if verdict != "shown":
                break  # lost (now a warning), or no room / a run that taught nothing: the error stands
        if not search.may_refute():
            return


def _raised(search, key, runs: Reruns, finding, sites, name: str, scale: int) -> str | None:
    """Re-run the witness with row length ``name`` raised to each extent of its launch above it, the shortest first
    (the column's dimension is usually not the longest one, and a longer row costs a loop over it more): ``lost``
    at the first that loses the error (judged a warning), ``shown`` when every one shows it, None when one
    decided nothing."""
    witness = runs.witness
    short = _row(witness.launch, name)
    verdict: str | None = "shown"
    for extent in _extents(witness.launch, scale):
        if extent <= short:
            continue
        verdict = rerun_verdict(runs.run(name, extent), finding, sites)
        if verdict != "shown":
            break
    if verdict == "lost":
        span = f"{extent} work-items the launch runs" if scale == 1 else \
            f"{extent} columns the launch's work-items span ({scale} each)"
        search.judge(key, beyond_contract(finding, (
            f"only when {name} = {short} is shorter than the {span} "
            f"along one dimension: the kernel linearises a thread index with {name} as a row length and "
            f"never bounds the index by it, so it was written for launches of at most {name} work-items "
            f"there (a re-run at {name} = {extent} does not show it)"), f"row length {name}"), list(witness.genes))
    return verdict


def _extents(launch, scale: int) -> list[int]:
    """The work-items ``launch`` runs along each dimension (times the columns one spans), distinct, shortest first."""
    return sorted({min(int(g) * int(b) * scale, MAX_EXTENT) for g, b in zip(launch.grid, launch.block, strict=True)})


def _short(launch, scales: dict[str, int]) -> bool:
    """Whether some row length of ``launch`` is shorter than its extent (times the columns a work-item spans)."""
    extent = _extent(launch)
    return any(_row(launch, n) < extent * k for n, k in scales.items())


def _row(launch, name: str) -> int:
    """The row length argument ``name`` gives ``launch``: an integer vector's shortest component (the search draws
    every component of one alike)."""
    v = launch.args.get(name)
    return int(np.min(v)) if isinstance(v, np.ndarray) and v.size else int_value(v)


def _extent(launch) -> int:
    """The most work-items ``launch`` runs along one dimension."""
    return max(int(g) * int(b) for g, b in zip(launch.grid, launch.block, strict=True))


def _images(kernel) -> list[str]:
    return [p.name for p in kernel.params if is_image(p)]


def _wider_images(images: list[str], witness, launch, name: str, value: int):
    """``launch`` with its images as much wider than the witness's as ``name``'s row grew (their contents repeated
    across): rows raised past the image the search drew for the short ones would write outside it, and the re-run
    could not tell the race gone from the accesses cut off.  The program's images are as wide as its rows."""
    before = _row(witness.launch, name)
    if not images or before <= 0 or value <= before:
        return launch
    factor = -(-value // before)
    args, specs = dict(launch.args), dict(launch.buffer_specs)
    for n in images:
        arr = args.get(n)
        if not isinstance(arr, np.ndarray) or arr.ndim < 3 or arr.size * factor > MAX_IMAGE_ELEMENTS:
            continue
        reps = [1] * arr.ndim
        reps[-2] = factor  # (…, height, width, channels)
        wide = np.ascontiguousarray(np.tile(arr, reps))
        spec = dict(specs.get(n) or {})
        spec.update(shape=list(wide.shape), length=int(wide.size))
        args[n], specs[n] = seal(wide, spec), spec
    return dataclasses.replace(launch, args=args, buffer_specs=specs)
