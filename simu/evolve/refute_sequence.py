"""Severity of what an earlier kernel's data decides (issue 29, kernel sequences).

The host launches ``findRadixOffsets`` and then ``reorderData`` on the same ``blockOffsets``: ``reorderData``
stores where those offsets say.  When simu cannot run the earlier kernel as the program does (its grid is
computed, a value it is given is unknown: :attr:`~simu.launch.constraints.Prior.runs`), or runs it on buffers the
search drew (``drawn_inputs``), the later launch reads contents the search chose where the program reads what that
kernel computed.  A race or an out-of-bounds access whose address those contents pick (read off the IR:
:mod:`simu.evolve.dependence`) is then no launch of the program's: on every witness it is a warning that names
the buffers and the kernel that makes them.  Distinct contents do not settle it (the pigeonhole rule of
:func:`~simu.evolve.refute.refute_by_contents` keeps a race distinct values still show): offsets that an earlier
kernel computes are a permutation, prefix sums or a tree, not a set of distinct values.  A race on what the earlier
kernel left from inputs the search drew is judged by the distinct variant instead, which runs that kernel again on
those inputs laid out as it uses them (:func:`simu.evolve.sequence.run_priors`).
"""

from __future__ import annotations

from simu import codes
from simu.evolve.dependence import flow_of, kernel_flow
from simu.evolve.sequence import prior_kernel
from simu.pipeline import beyond_contract

KINDS = ("race", "warp-race", "out-of-bounds")


def refute_by_earlier_kernels(search, witnesses) -> None:
    """Cap the errors whose addresses every witness takes from buffers an earlier kernel of the program computes
    and the search drew (see the module); ``witnesses(search, key)`` lists a finding's witnesses."""
    writers = _writers(search)
    if not writers:
        return
    flow = kernel_flow(search)
    for key, (f, genes) in list(search.found.items()):
        if f.kind not in KINDS or f.severity != codes.ERROR:
            continue
        sources = flow.address_sources([(loc.file, loc.line, loc.column) for loc in f.locations])
        made = [n for n in writers if n in sources]
        if not made:
            continue
        shown = witnesses(search, key)
        if not shown or any(not _drawn(w[0].launch, made, f.kind == "out-of-bounds") for w in shown):
            continue  # one witness read what the earlier kernel leaves there: the program's own data (or, for a
            # race, what it leaves from inputs the search drew: the distinct variant re-runs it on laid-out ones)
        said = sorted({writers[n] for n in made})
        names = ", ".join(f"'{n}'" for n in made)
        search.judge(key, beyond_contract(f, (
            f"its address comes from {names}, which the program computes with {', '.join(said)} before this "
            "launch; simu does not have that data (not run as the program runs it, or run on contents the search "
            "drew), so the program's data decides"), "buffer contents: an earlier kernel's"), genes)


def _writers(search) -> dict[str, str]:
    """This kernel's buffers that the latest earlier launch given them writes: name -> "kernel at site"."""
    out: dict[str, str] = {}
    for prior in search.priors:
        k1 = prior_kernel(search.module, prior.kernel)
        if k1 is None:
            continue  # a kernel of another file: whether it writes the buffer is not known here
        if ("written", prior.kernel) not in search.memo:
            search.memo[("written", prior.kernel)] = flow_of(k1).written_params()
        written = search.memo[("written", prior.kernel)]
        for j, name in prior.shared:
            if j < len(k1.params) and k1.params[j].name in written:
                out[str(name)] = f"{prior.kernel} at {prior.site}"
    return out


def _drawn(launch, made: list[str], inputs: bool = True) -> bool:
    """Whether one of ``made`` holds contents the search chose in ``launch``: not what the earlier kernel left,
    or (``inputs``) what it left from inputs the search drew."""
    for name in made:
        spec = launch.buffer_specs.get(name, {})
        if "produced" not in spec or inputs and "drawn_inputs" in spec:
            return True
    return False
