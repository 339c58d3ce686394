"""Severity by provenance, decided by re-running witnesses: the search's refutation phases (issue 14).

A finding is an error when a launch the program can make shows it.  A searched launch may break an
assumption the search made for want of the host's word -- an argument value, a buffer's length or
contents -- and a finding that only such launches show is at most a warning that names the assumption
(:func:`simu.pipeline.beyond_contract`).  The phases judge each *witness* of a finding (every evaluated
launch that shows it), so a finding stays an error when one witness is inside the contract, and that
witness becomes the reported one:

* :func:`refute_by_arguments`: a searched integer argument at a value real programs do not pass:
  negative where the kernel never compares it with a negative constant (darknet's ``X[i*INCX]`` at
  INCX = -1), or 0 where it multiplies a thread index in an address and the kernel never compares it with
  0 (:func:`~simu.evolve.dictionary.stride_arguments`: at stride 0 every thread uses one element, a race
  on axpy/scal/fill).  When every witness passes such a value, the witness is re-run with the values
  repaired (-v, 1): a finding that goes away is a warning naming the value; one that stays is an error
  whose witness is now the repaired launch.
* :func:`refute_by_contents`: a global-memory error that goes away on its witness with zero- or
  ramp-filled buffers (the kernel reads the index from its buffers: the host's data decides).
* :func:`refute_by_length`: an out-of-bounds access past the end of a buffer whose length the search
  chose is a warning unless a re-run of one of its largest in-contract witnesses with the longest length
  the kernel's own sizes allow (:func:`~simu.evolve.genome.plausible_length`) still shows it: the search's
  length is no launch the program makes, so the error needs that evidence.  Witnesses the allowance leaves
  no room for are not re-run (the finding is then a warning that says so).  An access before a buffer's
  start on an in-contract witness, or past every plausible length, stays an error.

Determinism: the phases run after the loop whenever there is an error they could refute, whatever the clock
says; they are bounded by ``Budget.refutations`` launches and by a number of interpreter steps the budget's
seconds fix (``Budget.refutation_steps``, :meth:`~simu.evolve.search.Search.refute`; a launch is expected to
cost what the witness it varies cost), not by seconds, so a finding's severity does not depend on how fast
the machine runs.  A refutation launch that teaches nothing (it hit its own step, trace or time bound, no
GPU could run it, or the allowance would be overrun) decides nothing: the finding keeps the severity it has
(an error stays an error), except for an access past a length the search chose, which is an error only on
the evidence of a plausible-length re-run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from simu import codes
from simu.evolve.dictionary import stride_arguments
from simu.evolve.phases import launch_size
from simu.ir.types import IntType
from simu.launch import Launch
from simu.launch.buffers import PLAIN_FILLS
from simu.pipeline import beyond_contract

ARGUMENT_WITNESSES = 2  # witnesses re-run with repaired arguments (the reported one, then the largest)
LENGTH_WITNESSES = 3  # the largest launches that showed an out-of-bounds access, tried with plausible lengths
MEMORY_KINDS = ("out-of-bounds", "null", "invalid-pointer")
CONTENT_FILLS = ("zeros", "ramp")  # zeros: indices read from buffers are 0; ramp: they are distinct and small


@dataclass(frozen=True)
class ArgumentRules:
    """The searched integer arguments (neither the host's, the user's, nor bounded by a range) whose values
    the search may choose but real launches do not pass."""

    order: tuple[str, ...]  # the searched integer arguments, in parameter order
    non_negative: frozenset[str]  # never compared with a negative constant
    non_zero: frozenset[str]  # strides (multiply a thread index in an address) never compared with 0

    def __bool__(self) -> bool:
        return bool(self.non_negative or self.non_zero)


@dataclass(frozen=True)
class Broken:
    """One argument value of a launch outside :class:`ArgumentRules`, and the value that repairs it."""

    name: str
    value: int
    repaired: int

    def text(self) -> str:
        if self.value == 0:
            return (f"{self.name} = 0: a stride of 0 makes every thread use one element (the kernel multiplies "
                    f"a thread index by {self.name} in an address and never compares it with 0)")
        return (f"{self.name} = {self.value}, a negative value for an argument the kernel never compares with a "
                "negative constant")


def argument_rules(layout) -> ArgumentRules:
    """The rules for ``layout``'s searched integer arguments; the kernel's comparisons (the layout's
    dictionary) say which values it handles."""
    ints = [p.name for p in layout.scalars if isinstance(p.type, IntType) and p.type.bits > 1
            and p.name not in layout.ranges]
    words = layout.dictionary
    strides = stride_arguments(layout.kernel) if ints else set()
    return ArgumentRules(tuple(ints), frozenset(n for n in ints if not any(v < 0 for v in words.get(n, []))),
                         frozenset(n for n in ints if n in strides and 0 not in words.get(n, [])))


def broken_arguments(rules: ArgumentRules, launch: Launch) -> list[Broken]:
    """The values of ``launch`` outside ``rules``, in parameter order."""
    out = []
    for name in rules.order:
        v = _int(launch.args.get(name))
        if v < 0 and name in rules.non_negative:
            out.append(Broken(name, v, -v))
        elif v == 0 and name in rules.non_zero:
            out.append(Broken(name, 0, 1))
    return out


Witness = tuple  # (Evaluation, the Finding it shows)


def witnesses(search, key: tuple) -> list[Witness]:
    """Every evaluated launch that shows the finding ``key``, with the finding as it showed it there."""
    return list(_witness_index(search).get(key, ()))


def _witness_index(search) -> dict[tuple, list[Witness]]:
    """Finding key -> its witnesses, built once per state of the search's cache (which only grows: its size
    is the version), so asking for every finding's witnesses is linear, not findings x launches x findings."""
    version, index = search.witness_index
    if version != len(search.cache):
        index = {}
        for e in search.cache.values():
            if e.valid and e.genes is not None:
                for f in e.findings:
                    shown = index.setdefault(f.key, [])
                    if not shown or shown[-1][0] is not e:  # the first finding of that key in each launch
                        shown.append((e, f))
        search.witness_index = (len(search.cache), index)
    return index


def refute_by_arguments(search, tries: int = ARGUMENT_WITNESSES) -> None:
    """An error whose every witness passes a searched argument a value real programs do not pass (see
    :class:`ArgumentRules`) and that goes away when those values are repaired is a warning naming them.
    One witness inside the rules keeps it an error, and becomes the reported witness."""
    layout = search.layout
    rules = argument_rules(layout)
    if not rules:
        return
    index = {p.name: j for j, p in enumerate(layout.scalars)}
    for key, (finding, genes) in list(search.found.items()):
        if finding.severity != codes.ERROR:
            continue
        shown = witnesses(search, key)
        if not shown:
            continue
        reported = next((w for w in shown if w[0].genes == list(genes)), shown[0])
        inside = [w for w in shown if not broken_arguments(rules, w[0].launch)]
        if inside:
            if broken_arguments(rules, reported[0].launch):  # report a launch the program can make
                e, f = min(inside, key=lambda w: launch_size(w[0].launch))
                search.found[key] = (f, list(e.genes))
            continue
        others = sorted((w for w in shown if w is not reported), key=lambda w: launch_size(w[0].launch), reverse=True)
        gone = []
        for e, _ in [reported, *others][:tries]:
            broken = broken_arguments(rules, e.launch)
            fixed = list(e.genes)
            for b in broken:
                fixed[layout.at.scalar(index[b.name])] = float(b.repaired)
            ev = search.refute(fixed, like=e)
            hit = None if ev is None else next((f for f in ev.findings if f.key == key), None)
            if ev is None or hit is not None:  # nothing learnt, or shown inside the rules: the error stands
                if hit is not None:
                    search.found[key] = (hit, fixed)
                gone = []
                break
            gone.append(broken)
        if gone:
            repaired = ", ".join(f"{b.name} = {b.repaired}" for b in gone[0])
            search.found[key] = (beyond_contract(finding, (
                f"the searched launch passes {'; '.join(b.text() for b in gone[0])}; the search chose it (no host "
                f"launch or constraint gives it), and with {repaired} the same launch does not show it"),
                f"arguments {', '.join(sorted(b.name for b in gone[0]))}"), genes)


def refute_by_contents(search) -> None:
    """A global-memory error that goes away on its reported witness when the buffers hold zeros or a ramp
    depends on the buffer contents (indices or pointers the kernel reads from its buffers), which the host,
    not the search, decides: it is kept as a warning that says so, not an error."""
    at = search.layout.at
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind not in MEMORY_KINDS or finding.space not in ("global", "constant") \
                or finding.severity != codes.ERROR:
            continue
        like = next((e for e, _ in witnesses(search, key) if e.genes == list(genes)), None)
        for fill in CONTENT_FILLS:
            variant = list(genes)
            variant[at.FILL] = float(PLAIN_FILLS.index(fill))
            ev = search.refute(variant, like=like)
            if ev is not None and not any(f.key == key for f in ev.findings):
                search.found[key] = (beyond_contract(finding, "the buffer contents are the search's (with "
                                                     f"{fill}-filled buffers the same launch stays in bounds, so the "
                                                     "kernel reads the index from its buffers and the host's data "
                                                     "decides)", "buffer contents"), genes)
                break


def refute_by_length(search, tries: int = LENGTH_WITNESSES) -> None:
    """A global-memory out-of-bounds access past the end of a buffer whose length the search chose (no host
    allocation, constraint or launch comment gives it) depends on that guess, not on the kernel, unless one
    of its largest witnesses inside the argument rules still shows it when every such buffer gets the longest
    length the kernel's own sizes allow: it is kept as a warning that names the length (and says when no
    witness could be re-run within the allowance).  An access before a buffer's start on such a witness, or
    past every plausible length on one, stays an error and that witness is reported."""
    layout = search.layout
    invented = layout.invented_buffers()
    rules = argument_rules(layout)
    probes: dict[tuple, object] = {}  # witness genes -> its plausible-length run (findings of one launch share it)
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind != "out-of-bounds" or finding.space not in ("global", "constant") \
                or finding.severity != codes.ERROR:
            continue
        shown = witnesses(search, key)
        inside = [w for w in shown if not broken_arguments(rules, w[0].launch)] or shown
        before = next((w for w in inside if w[1].detail.get("offset", 0) < 0 or w[1].variable not in invented), None)
        if before is not None or not inside:  # no length helps, or the length is not the search's
            if before is not None and before[0].genes != list(genes):
                search.found[key] = (before[1], list(before[0].genes))
            continue
        inside.sort(key=lambda w: launch_size(w[0].launch), reverse=True)
        tried, stands, capped = [], False, None
        for ev, shown_f in inside[:tries]:
            seen = tuple(ev.genes)
            if seen not in probes and not search.may_refute(ev):  # no room for this witness: not re-run
                break
            longer = layout.launch(ev.genes, plausible=True)
            if seen not in probes:
                probes[seen] = search.refute(launch=longer, like=ev)
            probe = probes[seen]
            if probe is None:  # taught nothing: not re-run
                break
            hit = next((f for f in probe.findings if f.key == key), None)
            sizes = hit is not None and layout.undrawable_sizes(ev.launch, shown_f.variable,
                                                                hit.detail.get("offset", 0))
            if sizes:  # past the longest length a refutation draws, not past the kernel's own sizes: undecided
                capped = (longer, sizes)
                break
            if hit is not None:  # past every plausible length: the error stands, on a witness that shows it
                n = _elements(longer, shown_f.variable)
                search.found[key] = (replace(shown_f, message=f"{shown_f.message} (out of bounds even with {n} "
                                             "elements, the longest length the kernel's own sizes allow)"),
                                     list(ev.genes))
                stands = True
                break
            tried.append((ev.launch, longer, shown_f))
        if stands:
            continue
        var = finding.variable
        reported = next((e.launch for e, _ in shown if e.genes == list(genes)), inside[0][0].launch)
        if tried:
            drawn, longer, _ = tried[0]
            same = "the same launch" if drawn is reported else "the largest launch that shows it"
            why = (f"with {_elements(longer, var)} elements, a length the kernel's own sizes allow, {same} stays in "
                   "bounds")
        elif capped is not None:
            longer, sizes = capped
            why = (f"a launch that shows it, re-run with {_elements(longer, var)} elements, the most a refutation "
                   f"draws, still does, but the kernel's own sizes (the product of its integer arguments) allow "
                   f"{sizes} bytes, and the access is inside them")
        else:  # no witness could be re-run: nothing shows it on a launch the program can make
            why = ("no launch with a length the kernel's own sizes allow was run (the refutations' allowance had "
                   "no room for one), so no launch the program can make shows it")
        search.found[key] = (beyond_contract(finding, (
            f"'{var}' holds {_elements(reported, var)} elements, a length the search chose (no host allocation, "
            f"constraint or launch comment gives it); {why}"), f"length of '{var}'"), genes)


def _elements(launch: Launch, name: str) -> int:
    v = launch.args.get(name)
    return int(getattr(v, "size", 0))


def _int(v) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


__all__ = ["ArgumentRules", "argument_rules", "broken_arguments", "refute_by_arguments",
           "refute_by_contents", "refute_by_length", "witnesses"]
