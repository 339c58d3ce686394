"""Severity by provenance, decided by re-running witnesses: the search's refutation phases (issue 14).

A finding is an error when a launch the program can make shows it.  A searched launch may break an
assumption the search made for want of the host's word -- an argument value, a buffer's length or
contents -- and a finding that only such launches show is at most a warning that names the assumption
(:func:`simu.pipeline.beyond_contract`).  The phases judge each *witness* of a finding (every evaluated
launch that shows it), so a finding stays an error when one witness is inside the contract, and that
witness becomes the reported one.  They run in this order (:mod:`simu.evolve.modes`): the contents before the
lengths, because a probe with zero-filled buffers costs what its witness cost and settles an index read from the
data, while a plausible-length re-run draws long buffers and, with the same data, only shows the access again:

* :func:`refute_by_arguments`: a searched integer argument at a value real programs do not pass:
  negative where the kernel never compares it with a negative constant (darknet's ``X[i*INCX]`` at
  INCX = -1), or 0 where it multiplies a thread index in an address and the kernel never compares it with
  0 (:func:`~simu.evolve.dictionary.stride_arguments`: at stride 0 every thread uses one element, a race
  on axpy/scal/fill).  When every witness passes such a value, the witness is re-run with the values
  repaired (-v, 1): a finding that goes away is a warning naming the value; one that stays is an error
  whose witness is now the repaired launch; one no repaired re-run could be made for (the allowance spent,
  the re-run cut short) is a warning too: its only evidence is a value programs do not pass.
* :func:`refute_by_contents`: a global-memory error that goes away on a witness with zero- or
  ramp-filled buffers (the kernel reads the index from its buffers: the host's data decides), and a race
  that goes away on each of its largest witnesses when every integer buffer whose contents the search chose
  holds distinct values while at least two threads still make its accesses (two threads collide only
  because they read equal values; zeros are never used for races; a race distinct contents keep on its
  lines -- pigeonhole -- or whose accesses the data only gates, ``flag[i] == 1``, stays an error).  One refutation
  launch per (witness, fill) judges every finding that witness shows.
* :func:`refute_by_length`: an out-of-bounds access past the end of a buffer whose length the search
  chose is a warning unless a re-run of one of its largest in-contract witnesses with the longest length
  the kernel's own sizes allow (:func:`~simu.evolve.sizes.plausible_length`) still shows it: the search's
  length is no launch the program makes, so the error needs that evidence.  Witnesses the allowance leaves
  no room for are not re-run (the finding is then a warning that says so).  An access before a buffer's
  start on an in-contract witness, or past every plausible length, stays an error.

Determinism: the phases run after the loop whenever there is an error they could refute, whatever the clock
says; they are bounded by ``Budget.refutations`` launches and by a cost in steps the budget's seconds fix
(``Budget.refutation_steps``, :meth:`~simu.evolve.search.Search.refute`: interpreter steps plus a step per 100
recorded accesses, :func:`~simu.evolve.search.launch_cost`; a launch is expected to cost what the witness it
varies cost), not by seconds, so a finding's severity does not depend on how fast
the machine runs.  A refutation launch that teaches nothing (it hit its own step, trace or time bound, no
GPU could run it, or the allowance would be overrun) decides nothing: the finding keeps the severity it has
(an error stays an error), except where the witness's only evidence is a value the search chose that programs
do not pass: an access past a length the search chose, which is an error only on the evidence of a
plausible-length re-run, and a negative or zero argument (above), only on a repaired re-run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from simu import codes
from simu.detect import Context
from simu.evolve.dependence import kernel_flow
from simu.evolve.dictionary import stride_arguments
from simu.evolve.phases import launch_size
from simu.evolve.refute_sequence import refute_by_earlier_kernels
from simu.evolve.roles import STRUCTURED, laid_out, split
from simu.evolve.sequence import DISTINCT  # the variant of a witness with distinct integer contents (Layout.distinct)
from simu.ir.types import IntType
from simu.launch import Launch
from simu.launch.graphs import GRAPH_FILLS
from simu.pipeline import beyond_contract

ARGUMENT_WITNESSES = 2  # witnesses re-run with repaired arguments (the reported one, then the largest)
LENGTH_WITNESSES = 3  # the largest launches that showed an out-of-bounds access, tried with plausible lengths
MEMORY_KINDS = ("out-of-bounds", "null", "invalid-pointer")
POINTER_KINDS = ("null", "invalid-pointer")  # a pointer read from memory, in no space of its own (a struct argument)
CONTENT_FILLS = ("zeros", "ramp")  # zeros: indices read from buffers are 0; ramp: they are distinct and small
RACE_KINDS = ("race", "warp-race")  # a warp race is a warning unless configured otherwise
RACE_WITNESSES = 2  # the largest launches that showed a race, re-run with distinct contents (pigeonhole needs many)
# a content probe of a witness that costs more than the allowance has left runs bounded by this share of what is left
# (a loop whose bound the witness read from its drawn buffers ends at once on zeros), so that it cannot starve the rest
PRICED_OUT_SHARE = 2


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


def search_rules(search) -> ArgumentRules:
    """:func:`argument_rules` of the search's layout, read once per search (every phase asks; reading the
    kernel's strides passes over its whole body)."""
    rules = search.memo.get("argument_rules")
    if rules is None:
        rules = search.memo["argument_rules"] = argument_rules(search.layout)
    return rules


def broken_arguments(rules: ArgumentRules, launch: Launch) -> list[Broken]:
    """The values of ``launch`` outside ``rules``, in parameter order."""
    out = []
    for name in rules.order:
        v = int_value(launch.args.get(name))
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
    rules = search_rules(search)
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
                search.judge(key, f, list(e.genes))
            continue
        others = sorted((w for w in shown if w is not reported), key=lambda w: launch_size(w[0].launch), reverse=True)
        gone: list[list[Broken]] = []
        untried: list[list[Broken]] = []
        for e, _ in [reported, *others][:tries]:
            broken = broken_arguments(rules, e.launch)
            fixed = list(e.genes)
            for b in broken:
                fixed[layout.at.scalar(index[b.name])] = float(b.repaired)
            ev = search.refute(fixed, like=e)
            hit = None if ev is None else next((f for f in ev.findings if f.key == key), None)
            if hit is not None:  # shown inside the rules: the error stands, on the repaired launch
                search.judge(key, hit, fixed)
                gone = untried = []
                break
            (untried if ev is None else gone).append(broken)
        if gone or untried:  # every witness needs the value, and no repaired one shows the finding
            broken = (gone or untried)[0]
            repaired = ", ".join(f"{b.name} = {b.repaired}" for b in broken)
            then = (f"with {repaired} the same launch does not show it" if gone else
                    f"no re-run with {repaired} could be made within the budget to show it at a value programs pass")
            search.judge(key, beyond_contract(finding, (
                f"the searched launch passes {'; '.join(b.text() for b in broken)}; the search chose it (no host "
                f"launch or constraint gives it), and {then}"),
                f"arguments {', '.join(sorted(b.name for b in broken))}"), genes)


def refute_by_contents(search, tries: int = RACE_WITNESSES) -> None:
    """Findings that depend on the buffer contents the search chose, which the host, not the search, decides:

    * a global-memory error (out of bounds, null, invalid pointer) that goes away on a witness when the buffers
      hold zeros or a ramp (the kernel reads the index or pointer from its buffers);
    * a race (global, shared or local memory; a warp race configured as an error) that goes away on each of its
      ``tries`` largest witnesses when every integer buffer whose contents the search chose holds distinct
      values (:meth:`~simu.evolve.genome.Layout.distinct`): two threads collide only because they read equal
      values.  Zeros are never used for races (they create collisions, and a race gated by data,
      ``if (flag[i]) n++``, is real); a race that distinct contents keep (a histogram of uchar pixels with more
      threads than bins: pigeonhole), or whose accesses fewer than two threads make with them (the data gates
      the accesses, ``if (flag[i] == 1) n++``, it does not pick their address), stays an error.

    Each is kept as a warning that says so.  One refutation launch per (witness, fill) judges every finding
    that witness shows, and the witnesses that show the most pending findings go first, so the allowance
    (:meth:`~simu.evolve.search.Search.refute`) reaches kernels with dozens of findings."""
    refute_by_earlier_kernels(search, witnesses)  # addresses an earlier kernel's data picks: no probe needed
    probes: dict[tuple, tuple] = {}  # (witness genes, fill) -> (the variant's run or None, buffers changed)
    for _ in range(2):  # a probe run through the genes keeps its findings: judge the errors it added too
        _memory_from_contents(search, probes)
    _races_from_contents(search, probes, tries)


def _memory_from_contents(search, probes: dict) -> None:
    rules = search_rules(search)
    pending = {key: _inside(rules, witnesses(search, key)) for key, (f, _) in search.found.items()
               if f.kind in MEMORY_KINDS and f.severity == codes.ERROR
               and (f.space in ("global", "constant") or f.kind in POINTER_KINDS)}
    # judged before its buffer's start where a witness shows it there: an index read from a buffer goes negative,
    # which no witness that only overruns a short buffer's end settles, and which the length refutation keeps
    pending = {key: affordable(search, [w for w in shown if before_start(w[1])] or shown)
               for key, shown in pending.items() if shown}
    while pending:
        ev = most_shared(search, pending)
        for key in [k for k, shown in pending.items() if any(e is ev for e, _ in shown)]:
            shown_f = next(f for e, f in pending.pop(key) if e is ev)
            finding, genes = search.found[key]
            if genes != ev.genes:  # judged on another witness, which is then the reported one
                finding = shown_f
            # a pointer read from a buffer: ones, or element k holding k, make it neither null nor the same bytes
            outside = _outside_roles(search, key)
            for fill in (*CONTENT_FILLS, "ones", DISTINCT) if finding.kind in POINTER_KINDS else CONTENT_FILLS:
                probe, _ = _variant(search, probes, ev, fill)
                if probe is None and outside:  # no room to probe: the launches inside the roles never showed it
                    search.drop(key)
                    break
                side = before_start(finding)
                if probe is not None and not any(f.key == key and before_start(f) == side for f in probe.findings):
                    if _outside_roles(search, key):
                        search.drop(key)  # contents the kernel's own use of them rules out: no evidence
                        break
                    read = ("makes no such access, so the kernel reads the pointer from its buffers or arguments"
                            if finding.kind in POINTER_KINDS else
                            "stays in bounds, so the kernel reads the index from its buffers")
                    search.judge(key, beyond_contract(finding, (
                        f"the buffer contents are the search's (with {fill}{'' if fill == DISTINCT else '-filled'} "
                        f"buffers the same launch {read} "
                        "and the host's data decides)"), "buffer contents"), list(ev.genes))
                    break


def _inferred(search, ev) -> bool:
    """Whether ``ev`` drew the kernel's index and offset buffers as it uses them (:mod:`simu.evolve.roles`)."""
    layout = search.layout
    return bool(ev.genes) and split(layout.fill_choices[layout.fill_index(ev.genes)])[0]


def _outside_roles(search, key) -> bool:
    """A memory error the search's contents alone show, in a kernel whose index buffers the search also draws as
    the kernel uses them (half its launches) without showing it: indices outside the buffers they index, which the
    kernel's own use of them rules out — like a shared-memory error off the block a tile was written for, no
    launch of the program's (issue 29)."""
    return bool(search.layout.roles) and not any(_inferred(search, e) for e, _ in witnesses(search, key))


def _outside_layouts(search, key) -> None:
    """A race no refutation launch could be afforded for, whose address comes from buffers the kernel uses as CSR
    offsets or segment starts and counts, shown only by launches whose contents the search chose as random bytes
    while the launches that laid those buffers out as the kernel uses them (half the search's) never showed it:
    overlapping segments no program builds (bullet3's ``CreateBatchesNew``, ``cs = &gConstraints[gStart[g]]``
    walked up to ``gN[g]``, a heavy launch).  A warning that says so."""
    f, genes = search.found[key]
    layouts = {n for n, r in search.layout.roles.items() if r.kind in STRUCTURED}
    if not layouts or f.kind not in RACE_KINDS or f.severity != codes.ERROR \
            or not any(_inferred(search, e) for e in search.cache.values() if e.valid):
        return
    made = sorted(layouts & kernel_flow(search).address_sources(sites_of(f)))
    if made and not any(_inferred(search, e) for e, _ in witnesses(search, key)):
        search.judge(key, beyond_contract(f, (
            f"its address comes from {_names(made)}, which the kernel uses as offsets or segments; only contents "
            "the search chose showed it, never the launches that laid them out as the kernel uses them, and no "
            "re-run could be afforded, so the host's data decides"), "buffer contents: layout"), genes)


def before_start(f) -> bool:
    """Whether an access falls before its buffer's start: an index read from a buffer goes negative with the search's
    contents; that the probe's short buffer still overflows at its end says nothing of it."""
    return f.kind == "out-of-bounds" and (f.detail or {}).get("offset", 0) < 0


def _races_from_contents(search, probes: dict, tries: int) -> None:
    rules = search_rules(search)
    pending = {}
    for key, (f, _) in search.found.items():
        if f.kind in RACE_KINDS and f.severity == codes.ERROR and search.layout.chosen_contents():
            # witnesses whose graphs were drawn as the kernel uses them first: data a program can pass
            shown = sorted(_inside(rules, witnesses(search, key)), key=lambda w: (_graph(w[0].launch),
                                                                                 launch_size(w[0].launch)),
                           reverse=True)
            shown = affordable(search, shown)  # the largest witnesses the allowance can re-run
            if shown:
                pending[key] = shown[:tries]
            else:
                _outside_layouts(search, key)
    cleared: dict[tuple, list] = {key: [] for key in pending}  # the witnesses that lost it, buffers changed
    lines = {key: lines_of(search.found[key][0]) for key in pending}
    sites = {key: sites_of(search.found[key][0]) for key in pending}
    wanted = frozenset().union(*sites.values())
    while pending:
        ev = most_shared(search, pending)
        probe, names = _variant(search, probes, ev, DISTINCT, partial(threads_at, search, wanted))
        for key in [k for k, shown in pending.items() if any(e is ev for e, _ in shown)]:
            pending[key] = [w for w in pending[key] if w[0] is not ev]
            at = [(probe.seen or {}).get(s, frozenset()) for s in sites[key]] if probe is not None else []
            if probe is None:
                _outside_layouts(search, key)
            if probe is None or any(lines_of(f) == lines[key] for f in probe.findings if f.kind in RACE_KINDS) \
                    or len(frozenset().union(*at)) < 2 or not all(at):
                # nothing learnt; distinct contents collide on its lines too; or fewer than two threads made
                # its accesses, or none made one of them (the data gates them, ``if (flag[i] == 1) n++``,
                # ``if (level[u] < 0) level[u] = d``, it does not pick the address): the error stands
                del pending[key]
                continue
            cleared[key].append(names)
            if not pending[key]:
                del pending[key]
                finding, genes = search.found[key]
                changed = list(dict.fromkeys(n for ns in cleared[key] for n in ns))
                n = len(cleared[key])
                which = "the launch that showed it" if n == 1 else f"each of the {n} largest launches that showed it"
                search.judge(key, beyond_contract(finding, (
                    f"the race needs two threads to read equal values from {_names(changed)}, contents the search "
                    "chose (no host, user or launch comment gives them); with distinct values there (element k "
                    f"holding k; offsets and segments laid out as the kernel uses them) {which} shows no race, so "
                    "the host's data decides"),
                    "buffer contents: equal values"), genes)


def _graph(launch: Launch) -> bool:
    """Whether ``launch`` holds CSR offsets drawn as its kernel uses them (:mod:`simu.launch.graphs`)."""
    return any(spec.get("fill") in GRAPH_FILLS for spec in launch.buffer_specs.values())


def _inside(rules: ArgumentRules, shown: list[Witness]) -> list[Witness]:
    """The witnesses inside the argument rules (launches the program can make), or all when none is."""
    return [w for w in shown if not broken_arguments(rules, w[0].launch)] or shown


def lines_of(f) -> frozenset:
    """The source lines a race is between: a race the variant still shows on them, whatever its access class
    (``hist[pix[i]]++``: write-write within a warp where the searched data made it read-write between warps),
    shows the collision does not need the searched data."""
    return frozenset((loc.file, loc.line) for loc in f.locations)


def affordable(search, shown: list[Witness]) -> list[Witness]:
    """The witnesses of ``shown`` the refutations' allowance can still re-run, or all of them when none: a long
    per-thread loop may price the largest out, and an error judged on no witness keeps its severity whatever a
    cheaper witness of it would have shown."""
    return [w for w in shown if search.may_refute(w[0])] or shown


def most_shared(search, pending: dict[tuple, list[Witness]]):
    """The witness that shows the most pending findings; ties: one that is a finding's reported witness, then
    the cheapest (lowest cost), then the first evaluated."""
    count: dict[int, list] = {}
    for shown in pending.values():
        for e, _ in shown:
            count.setdefault(id(e), [e, 0])[1] += 1
    reported = {tuple(search.found[k][1]) for k in pending}
    return min(count.values(), key=lambda c: (-c[1], tuple(c[0].genes) not in reported, c[0].cost))[0]


def sites_of(f) -> frozenset:
    """The source positions (file, line, column) of a finding's two accesses."""
    return frozenset((loc.file, loc.line, loc.column) for loc in f.locations)


def threads_at(search, wanted: frozenset, run) -> dict[tuple, frozenset]:
    """Of the source positions ``wanted``, the threads (launch-wide lanes) that accessed memory there in
    ``run`` (a refutation's inspection, :meth:`~simu.evolve.search.Search.refute`)."""
    t = run.result.trace
    if t is None or not len(t):
        return {}
    ctx = Context(search.kernel, run.launch, run.result, search.settings.detect)
    instrs = np.unique(t.instr)
    keys = []
    for iid in instrs.tolist():
        loc = ctx.location(iid)
        keys.append((loc.file, loc.line, loc.column) if loc is not None else None)
    out: dict[tuple, frozenset] = {}
    where = np.searchsorted(instrs, t.instr)
    for j, k in enumerate(keys):
        if k in wanted:
            out[k] = out.get(k, frozenset()) | frozenset(np.unique(t.lane[where == j]).tolist())
    return out


def _variant(search, probes: dict, ev, fill: str, inspect=None) -> tuple:
    """The run of witness ``ev`` with its buffers filled by ``fill`` (a fill of the gene, or :data:`DISTINCT`)
    and the buffers that changed, run once per (witness, fill) whatever number of findings it judges; (None,
    []) when it teaches nothing."""
    key = (tuple(ev.genes), fill, inspect is not None)  # a probe read for its threads is kept apart
    if key not in probes:
        if fill == DISTINCT:
            variant = search.layout.distinct(ev.launch)
            if variant is not None:
                variant = (laid_out(search.layout.roles, ev.launch, *variant), variant[1])
                if any("drawn_inputs" in s for s in ev.launch.buffer_specs.values()):  # earlier kernels run again,
                    variant = (replace(variant[0], sequenced=False, fill=DISTINCT), variant[1])  # on laid-out inputs
            probes[key] = (None, []) if variant is None else \
                (search.refute(launch=variant[0], like=ev, inspect=inspect), variant[1])
        elif search.may_refute(ev):
            probes[key] = (search.refute(search.layout.refill(ev.genes, fill), like=ev), [])
        else:  # priced out, but zeros or a ramp often end the loops the witness's drawn bounds made long
            most = max(0, search.budget.refutation_steps() - search.refuted_steps) // PRICED_OUT_SHARE
            probes[key] = (search.refute(search.layout.refill(ev.genes, fill), most=most) if most else None, [])
    return probes[key]


def _names(names: list[str], most: int = 4) -> str:
    quoted = [f"'{n}'" for n in names[:most]] + ([f"{len(names) - most} more"] if len(names) > most else [])
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def refute_by_length(search, tries: int = LENGTH_WITNESSES) -> None:
    """A global-memory out-of-bounds access past the end of a buffer whose length the search chose (no host
    allocation, constraint or launch comment gives it) depends on that guess, not on the kernel, unless one
    of its largest witnesses inside the argument rules still shows it when every such buffer gets the longest
    length the kernel's own sizes allow: it is kept as a warning that names the length (and says when no
    witness could be re-run within the allowance).  An access before a buffer's start on such a witness, or
    past every plausible length on one, stays an error and that witness is reported."""
    layout = search.layout
    invented = layout.invented_buffers()
    rules = search_rules(search)
    probes: dict[tuple, tuple] = {}  # witness genes -> its plausible-length launch and run (findings share it)
    for key, (finding, genes) in list(search.found.items()):
        if finding.kind != "out-of-bounds" or finding.space not in ("global", "constant") \
                or finding.severity != codes.ERROR:
            continue
        shown = witnesses(search, key)
        inside = [w for w in shown if not broken_arguments(rules, w[0].launch)] or shown
        before = next((w for w in inside if w[1].detail.get("offset", 0) < 0 or w[1].variable not in invented), None)
        if before is not None or not inside:  # no length helps, or the length is not the search's
            if before is not None and before[0].genes != list(genes):
                search.judge(key, before[1], list(before[0].genes))
            continue
        inside.sort(key=lambda w: launch_size(w[0].launch), reverse=True)
        tried, stands, capped = [], False, None
        for ev, shown_f in inside[:tries]:
            seen = tuple(ev.genes)
            if seen not in probes and not search.may_refute(ev):  # no room for this witness: not re-run
                break
            if seen not in probes:  # drawn once per witness, whatever number of findings it shows
                longer = layout.launch(ev.genes, plausible=True)
                probes[seen] = (longer, search.refute(launch=longer, like=ev))
            longer, probe = probes[seen]
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
                search.judge(key, replace(shown_f, message=f"{shown_f.message} (out of bounds even with {n} "
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
        search.judge(key, beyond_contract(finding, (
            f"'{var}' holds {_elements(reported, var)} elements, a length the search chose (no host allocation, "
            f"constraint or launch comment gives it); {why}"), f"length of '{var}'"), genes)


def _elements(launch: Launch, name: str) -> int:
    v = launch.args.get(name)
    return int(getattr(v, "size", 0))


def int_value(v) -> int:
    """A launch argument as an integer (0 for what is none)."""
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


__all__ = ["ArgumentRules", "argument_rules", "broken_arguments", "int_value", "lines_of", "most_shared",
           "refute_by_arguments", "refute_by_contents", "refute_by_length", "witnesses"]
