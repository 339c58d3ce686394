"""Errors that need a searched row length shorter than the launch's extent (issue 28: values the program passes).

A kernel that linearises a thread index with an integer argument (``x = c * out_width + w``, ``w =
get_global_id(1)``: :func:`~simu.evolve.rows.row_length_arguments`) and never bounds ``w`` by it was written for
launches whose NDRange is the data's extent: its host launches ``out_width`` work-items along that dimension.  The
search chooses the argument and the NDRange apart, and where the argument is shorter than the launch's work-items
rows overlap: two threads write one element, an index runs into the next row.  No launch of the program's is such.
An error every witness of which has a searched row length below the launch's largest extent (the grid times the
block along one dimension) is re-run on its cheapest witness with each such argument raised to that extent, the rest
kept; when a re-run loses it while its accesses still run (:func:`~simu.evolve.refute_values.rerun_verdict`), it is
a warning that names the assumption.  An error a re-run still shows, or that no re-run could judge, stands.
Arguments the host computes from program state are :mod:`simu.evolve.refute_values`' to judge.
"""

from __future__ import annotations

from simu import codes
from simu.evolve.refute import affordable, int_value, sites_of, witnesses
from simu.evolve.refute_values import JUDGED_KINDS, Reruns, rerun_verdict
from simu.evolve.rows import row_length_arguments
from simu.pipeline import beyond_contract

MAX_EXTENT = 1 << 16  # a longer row would cost the re-run more than its witness


def refute_by_rows(search) -> None:
    """Errors that need a row length shorter than the launch's extent become warnings (see the module)."""
    layout = search.layout
    searched = {p.name for p in layout.scalars} - set(layout.state)
    rows = sorted(row_length_arguments(layout.kernel) & searched)
    if not rows:
        return
    reruns: dict[tuple, Reruns] = {}
    for key, (f, _) in list(search.found.items()):
        if f.severity != codes.ERROR or f.kind not in JUDGED_KINDS:
            continue
        shown = affordable(search, witnesses(search, key))
        if not shown or any(not _short(w.launch, rows) for w, _ in shown):
            continue  # a witness whose rows are as long as its launch is inside the contract
        witness, finding = min(shown, key=lambda s: s[0].cost)
        extent = min(_extent(witness.launch), MAX_EXTENT)
        sites = sites_of(finding)
        runs = reruns.setdefault(tuple(witness.genes), Reruns(search, witness, sites))
        for name in (n for n in rows if runs.value(n) < extent):
            verdict = rerun_verdict(runs.run(name, extent), finding, sites)
            if verdict == "lost":
                search.judge(key, beyond_contract(finding, (
                    f"only when {name} = {runs.value(name)} is shorter than the {extent} work-items the launch runs "
                    f"along one dimension: the kernel linearises a thread index with {name} as a row length and "
                    f"never bounds the index by it, so it was written for launches of at most {name} work-items "
                    f"there (a re-run at {name} = {extent} does not show it)"), f"row length {name}"),
                    list(witness.genes))
                break
            if verdict is None:
                break  # no room, or the run taught nothing: the error stands
        if not search.may_refute():
            return


def _short(launch, rows: list[str]) -> bool:
    """Whether some row length of ``launch`` is shorter than its extent."""
    extent = _extent(launch)
    return any(int_value(launch.args.get(n)) < extent for n in rows)


def _extent(launch) -> int:
    """The most work-items ``launch`` runs along one dimension."""
    return max(int(g) * int(b) for g, b in zip(launch.grid, launch.block, strict=True))
