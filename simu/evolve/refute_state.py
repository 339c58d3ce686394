"""Severity refutation for values the host computes from program state simu does not read (issue 14).

At a host launch, a scalar argument simu cannot evaluate stays searched.  Where the host computes it from the
program's state (a layer's fields, blob shapes, object members: :mod:`simu.host.state`), the program's own
invariants decide it, and those often order such values: caffe's Concat passes ``top_concat_axis`` and
``bottom_concat_axis``, the first the sum of every bottom's, and its threads race only when a bottom is wider
than the top; LRN's scale indexes before its buffer only when the window is wider than twice the channels.  An
error that needs such an order is no launch the program is known to make.

:func:`refute_by_state` re-runs an error's witness twice with those arguments at distinct values of the
witness's magnitude (just above its largest, so that no size shrinks and no thread it ran is cut off), once
increasing and once decreasing in parameter order, so that every pair of them is ordered both ways.  An error
either run does not show is a warning that names the values, the run that lost it and the host texts.
Relations other than order (a product against a sum, a multiple of a square) are not tested, and a re-run the
allowance leaves no room for decides nothing: the error stands, as it does when an order makes an argument the
host derives from them 0 where the witness's was not (``n = inputs/groups``: the host's own division says
inputs is the larger).  One state argument alone is never re-run (it has no order to break)."""

from __future__ import annotations

from simu import codes
from simu.evolve.refute import RACE_KINDS, affordable, before_start, int_value, lines_of, most_shared, witnesses
from simu.ir.types import IntType
from simu.pipeline import beyond_contract

# an order re-run sets every state value above the witness's largest (darknet's softmax: n, batch and groups near 200
# where the witness ran 15 x 193 x 3 threads): one that runs past this many times the witness's cost stops there and
# decides nothing, so that it cannot spend the allowance every later refutation needs
COST_FACTOR = 2


def state_arguments(layout) -> list[str]:
    """The searched integer arguments the host computes from program state, in parameter order."""
    return [p.name for p in layout.scalars if p.name in layout.state and p.name not in layout.ranges
            and isinstance(p.type, IntType) and p.type.bits > 1]


def orderings(values: list[int]) -> list[list[int]]:
    """Two assignments above every value of the witness (so that no size shrinks and no thread the witness ran
    is cut off), one increasing and one decreasing in parameter order."""
    base = max([*values, 0]) + 1
    up = [base + i for i in range(len(values))]
    return [up, up[::-1]]


def refute_by_state(search) -> None:
    """Errors at a host launch that hinge on the order of values read from program state become warnings
    (see the module).  The witness that shows the most pending errors goes first, and its two re-runs judge
    every error it shows."""
    layout = search.layout
    names = state_arguments(layout)
    if len(names) < 2:
        return
    index = {p.name: j for j, p in enumerate(layout.scalars)}
    pending = {key: affordable(search, shown) for key, (f, _) in search.found.items()
               if f.severity == codes.ERROR and (shown := witnesses(search, key))}
    while pending:
        witness = most_shared(search, pending)
        judged = [key for key, shown in pending.items() if any(e is witness for e, _ in shown)]
        values = [int_value(witness.launch.args.get(n)) for n in names]
        lost: dict[tuple, list[int]] = {}
        for order in orderings(values):
            varied = list(witness.genes)
            for n, v in zip(names, order, strict=True):
                varied[layout.at.scalar(index[n])] = float(v)
            if degenerate(layout, varied, witness):
                continue  # the host's own formula says this order is none of its launches
            # probed, not evaluated: what the re-run shows beyond the witness's findings (an access past a length the
            # search chose, at sizes no phase before judged) is no finding of the search's
            ev = search.refute(launch=layout.launch(varied), like=witness, most=COST_FACTOR * max(witness.cost, 1))
            if ev is None:
                break  # no room, or the run taught nothing: what is not yet lost stands
            shown_there = {collision(f) for f in ev.findings}
            for key in judged:
                if collision(search.found[key][0]) not in shown_there:
                    lost.setdefault(key, order)
        for key in judged:
            del pending[key]
            if key in lost:
                _demote(search, key, names, values, lost[key])


def collision(f) -> tuple:
    """What a re-run must show again: the same kind on the same lines, whatever its access class or warp (a race
    between warps at the witness's sizes may fall within one at others: the collision is still there), on the same
    side of its buffer (an access past the end of a length the search chose is not one before the start)."""
    return ("race" if f.kind in RACE_KINDS else f.kind, lines_of(f), before_start(f))


def _demote(search, key: tuple, names: list[str], values: list[int], lost: list[int]) -> None:
    finding, genes = search.found[key]
    at = ", ".join(f"{n} = {v}" for n, v in zip(names, values, strict=True))
    then = ", ".join(f"{n} = {v}" for n, v in zip(names, lost, strict=True))
    hosts = "; ".join(search.layout.state[n] for n in names)
    search.judge(key, beyond_contract(finding, (
        f"the host launch shows it at {at} but not at {then}; the host computes these from program state simu "
        f"does not read ({hosts}), and the program may keep them in the order that does not show it"),
        f"host state {', '.join(names)}"), genes)


def degenerate(layout, genes: list[float], witness) -> bool:
    """Whether ``genes`` make an argument the host derives from the state arguments 0 where the witness's was
    not: ``n = inputs/groups`` at inputs < groups (the host's division says which is the larger)."""
    values = layout.decode(genes)[2]
    return any(int_value(values.get(d)) == 0 != int_value(witness.launch.args.get(d)) for d in layout.derived)
