"""Races that follow from an access past the end of a buffer whose length the search chose (issue 28).

A write past the end of a buffer is not made, and a read there gives what the machine has: a thread that keeps a
value it wrote out of bounds and reads back (``start_len[0] = atomicAdd(cumsum, n); out += start_len[0]``) then
works on a value no launch of the program's gives it, and two threads may write one element.  When the buffer's
length is the search's guess (no host allocation, constraint or launch comment gives it), the race depends on the
guess as the out-of-bounds access does (:func:`simu.evolve.refute.refute_by_length`): a race error every witness
of which also overruns such a buffer is re-run on its cheapest witness with every such buffer at the longest length
the kernel's own sizes allow (``plausible``); when the re-run no longer shows the race, it is a warning that names
the buffers.  A race the re-run still shows, or that no re-run could judge, stands.  So does a null or invalid
pointer read from past the end (a struct read out of a byte buffer shorter than the struct): its bytes there are
the machine's, no value of the program's.
"""

from __future__ import annotations

from simu import codes
from simu.evolve.refute import POINTER_KINDS, RACE_KINDS, witnesses
from simu.pipeline import beyond_contract


def refute_by_overrun(search) -> None:
    """Race and pointer errors that need a buffer shorter than the kernel's sizes allow become warnings (see the
    module)."""
    layout = search.layout
    invented = layout.invented_buffers()
    if not invented:
        return
    probes: dict[tuple, object] = {}
    for key, (finding, _) in list(search.found.items()):
        if finding.kind not in (*RACE_KINDS, *POINTER_KINDS) or finding.severity != codes.ERROR:
            continue
        race = finding.kind in RACE_KINDS
        shown = witnesses(search, key)
        overrun = [(ev, f, _overrun(ev, invented)) for ev, f in shown]
        if race and not all(names for _, _, names in overrun):
            continue  # a witness that stays inside every buffer shows it on its own
        # a pointer read inside its buffer is the search's contents, judged by refute_by_contents
        overrun = [w for w in overrun if w[2]]
        if not overrun:
            continue
        ev, shown_f, names = min(overrun, key=lambda w: w[0].cost)
        seen = tuple(ev.genes)
        if seen not in probes:
            if not search.may_refute(ev):
                return
            probes[seen] = search.refute(launch=layout.launch(ev.genes, plausible=True), like=ev)
        probe = probes[seen]
        if probe is None or any(f.key == key for f in probe.findings):
            continue
        listed = ", ".join(f"'{n}'" for n in sorted(names))
        what, it = ("shows no race", "the race") if race else ("makes no such access", "the pointer it uses")
        search.judge(key, beyond_contract(shown_f, (
            f"the launch that shows it also overruns {listed}, whose length the search chose (no host allocation, "
            "constraint or launch comment gives it), and re-run with the longest lengths the kernel's own sizes "
            f"allow it stays in bounds and {what}: {it} follows from the access past the end"),
            "overrun buffer"), list(ev.genes))


def _overrun(ev, invented: set[str]) -> set[str]:
    """The buffers of ``invented`` that evaluation ``ev`` accesses past their end."""
    return {f.variable for f in ev.findings if f.kind == "out-of-bounds" and f.variable in invented
            and f.space in ("global", "constant") and f.detail.get("offset", 0) >= 0}
