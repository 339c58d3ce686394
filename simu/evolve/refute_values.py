"""``Only when`` warnings: errors that need one value of an argument the host computes from program state (issue 29).

At a host launch, a scalar argument the host computes from program state simu does not read (a plugin's
``mPostprocess.C``, a layer's ``l->n``: :mod:`simu.host.state`) stays searched, and the search's value for it is no
launch the program is known to make. :mod:`simu.evolve.refute_state` asks whether an error needs an *order* between
such values; this phase asks whether it needs the *value* of one of them. Each state argument of the witness is
re-run alone at the other truth value of a flag, at the nearest multiple of another integer argument or its square,
at half and at twice its value, in that order (:func:`schedule`),
everything else kept. An error that a re-run does not show while its access still runs (for a race, on the very two
threads that showed it: a size that cuts them off proves nothing, and a race between two warps is gone when the size
fits one warp) needs the value: it is a warning that says which values show it, after up to :data:`BISECTIONS`
re-runs between the two values narrow the boundary (``only at some values of channel: the host launch shows it at
channel = 4 but not at channel = 3``: a kernel that indexes ``2 - c`` for ``c < channel`` was written for three
channels; ``only when boxes = 0`` for a flag). Two neighbouring values are no threshold: a race that needs the
channels not to be a multiple of ``stride * stride`` shows at stride 6, not at 7, and again at 8; a re-run with the
channels rounded up to such a multiple (:func:`multiples`, tried after the flags) says so: ``not at c =
12 (a multiple of stride = 2 and of stride*stride = 4)``. Nor is an offset between threads' regions a threshold
of its own: it must reach what one region spans, a product of two other arguments (a softmax over ``n`` values
``stride`` apart per batch needs ``batch_offset >= n*stride``); an argument that multiplies a thread index in an
address is re-run raised to the largest such product (:func:`extents`, after the flags), and a loss narrowed
to the smallest product that still shows none: ``not at batch_offset = 45 (n*stride = 45)``; a count a thread index
is compared with is lowered to such a product the same way (an upsampling kernel's ``n`` is the output plane's
``output_h*output_w``: more threads than that write the next channel's plane). An error every
re-run shows, or that no re-run could judge (the allowance spent, a run cut short), stands. Wrapper parameters and
the command line are input, not state: any caller may pass any value, and their errors stay errors."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from simu import codes
from simu.evolve.refute import (
    MEMORY_KINDS,
    RACE_KINDS,
    affordable,
    int_value,
    most_shared,
    sites_of,
    threads_at,
    witnesses,
)
from simu.evolve.refute_state import collision, degenerate
from simu.ir.types import IntType
from simu.pipeline import beyond_contract

MAX_ARGUMENTS = 6  # state arguments probed per witness: flags first, then the others in parameter order
MAX_MULTIPLES = 4  # re-runs at a multiple of another argument's value or square, per witness
MAX_EXTENTS = 4  # thread-index multipliers raised to a product of two other arguments, per witness
MAX_EXTENT = 1 << 16  # larger products are left out: the re-run would cost, or overrun, what the witness did not
BISECTIONS = 3  # re-runs that narrow the boundary between a value that shows an error and one that does not
JUDGED_KINDS = (*RACE_KINDS, *MEMORY_KINDS)  # findings whose accesses say where to look for the threads


def value_arguments(layout) -> list[str]:
    """The searched integer arguments (flags included) the host computes from program state, in parameter order."""
    return [p.name for p in layout.scalars if p.name in layout.state and p.name not in layout.ranges
            and p.name not in layout.derived and isinstance(p.type, IntType)]


def probes(value: int, flag: bool) -> list[int]:
    """The values one argument is re-run at: the other truth value of a flag; else half (when that is another
    positive value) and twice the witness's value."""
    if flag:
        return [0 if value else 1]
    return ([value // 2] if value >= 2 else []) + [2 * value if value >= 1 else 1]


def refute_by_value(search) -> None:
    """Errors at a host launch that need one state argument's value become ``only when`` warnings (see the
    module).  The witness that shows the most pending errors goes first; each of its re-runs judges every error
    it shows."""
    layout = search.layout
    names = value_arguments(layout)
    if not names:
        return
    pending = {key: affordable(search, shown) for key, (f, _) in search.found.items()
               if f.severity == codes.ERROR and f.kind in JUDGED_KINDS and (shown := witnesses(search, key))}
    sites = {key: sites_of(search.found[key][0]) for key in pending}
    wanted = frozenset().union(*sites.values()) if sites else frozenset()
    reruns: dict[tuple, Reruns] = {}  # per witness genes: two evaluations of one launch share their re-runs
    while pending:
        witness = most_shared(search, pending)
        judged = {key: next(f for e, f in shown if e is witness) for key, shown in pending.items()
                  if any(e is witness for e, _ in shown)}
        others = {key: [w for w in pending.pop(key) if w[0] is not witness] for key in judged}
        if tuple(witness.genes) not in reruns:
            reruns[tuple(witness.genes)] = Reruns(search, witness, wanted)
        runs = reruns[tuple(witness.genes)]
        plan = schedule(runs, names, [p.name for p in layout.kernel.params if isinstance(p.type, IntType)
                                      and p.type.bits > 1 and p.name not in runs.flags], layout.strides,
                        layout.bounds)
        for key, shown_there in judged.items():
            verdict, found = _needed_value(runs, plan, shown_there, sites[key])
            if found is not None:
                _demote(search, key, shown_there, list(witness.genes), *found)
            elif verdict is None and others[key]:  # no re-run of this witness could judge it: its next witness may
                pending[key] = others[key]
        if not search.may_refute(witness):
            return  # the allowance is spent: what is not yet judged stands


class Reruns:
    """The witness re-run with one argument changed, each (argument, value) run once whatever it judges."""

    def __init__(self, search, witness, wanted: frozenset, adjust=None) -> None:
        self.search, self.witness = search, witness
        self.adjust = adjust  # (launch, argument, value) -> the launch to run instead (room for the new value)
        self.inspect = partial(threads_by_site, search, wanted)
        self.index = {p.name: j for j, p in enumerate(search.layout.scalars)}
        self.flags = {p.name for p in search.layout.scalars
                      if isinstance(p.type, IntType) and (p.type.bits == 1 or (p.c_type or "") in ("bool", "_Bool"))}
        self.done: dict[tuple[str, int], object] = {}

    def value(self, name: str) -> int:
        return int_value(self.witness.launch.args.get(name))

    def run(self, name: str, value: int):
        """The re-run at ``name = value``; None when it teaches nothing or is no launch of the host's formulas."""
        if (name, value) not in self.done:
            layout = self.search.layout
            varied = list(self.witness.genes)
            varied[layout.at.scalar(self.index[name])] = float(value)
            run = None
            if not degenerate(layout, varied, self.witness):
                launch = layout.launch(varied)
                if self.adjust is not None:
                    launch = self.adjust(launch, name, value)
                run = self.search.refute(launch=launch, like=self.witness, inspect=self.inspect)
            self.done[(name, value)] = run
        return self.done[(name, value)]


def rerun_verdict(run, finding, sites: frozenset) -> str | None:
    """``shown``, ``lost`` or None (nothing learnt).  A race is lost when threads in its scope still make accesses at
    its source positions: the two that showed it, or two of other blocks for a race between blocks, of two warps of a
    block between warps, of one warp within one (a size that cuts them off proves nothing: a race between two warps
    is gone when the size fits one warp); a memory error when its access still runs, on any thread (a missing bounds
    check overruns with other threads at other sizes, and is shown there)."""
    if run is None:
        return None
    if collision(finding) in {collision(f) for f in run.findings}:
        return "shown"
    reached = frozenset().union(*((run.seen or {}).get(s, frozenset()) for s in sites)) if sites else frozenset()
    if finding.kind not in RACE_KINDS:
        return "lost" if reached else None
    wanted = [_position(t, run.launch) for t in finding.threads]
    if wanted and all(w is not None and w in reached for w in wanted):
        return "lost"
    return "lost" if _in_scope(reached, (finding.detail or {}).get("scope", ""), run.launch.warp_size) else None


def _in_scope(reached: frozenset, scope: str, warp_size: int) -> bool:
    """Whether the (block, thread) pairs ``reached`` hold two threads of the race's scope: two blocks, two warps of
    one block, or two threads of one warp."""
    if len(reached) < 2:
        return False
    pairs = np.array(list(reached), np.int64)
    block, warp = pairs[:, 0], pairs[:, 1] // warp_size
    if scope == "inter-block":
        return len(np.unique(block)) >= 2
    group, member = (block, warp) if scope == "inter-warp" else (block * (1 << 32) + warp, pairs[:, 1])
    order = np.lexsort((member, group))  # sorted: np.unique over rows hashes, a hundred times slower
    group, member = group[order], member[order]
    new = np.concatenate(([True], (group[1:] != group[:-1]) | (member[1:] != member[:-1])))
    group = group[new]  # one row per distinct (group, member)
    return bool((group[1:] == group[:-1]).any())


def _position(ref, launch) -> tuple[int, int] | None:
    """A finding's thread as (linear block, linear thread) in ``launch``; None when the launch has no such thread."""
    (gx, gy, gz), (bx, by, bz) = launch.grid, launch.block
    (x, y, z), (tx, ty, tz) = ref.block, ref.thread
    if not (x < gx and y < gy and z < gz and tx < bx and ty < by and tz < bz):
        return None
    return x + gx * (y + gy * z), tx + bx * (ty + by * tz)


def threads_by_site(search, wanted: frozenset, run) -> dict[tuple, frozenset]:
    """Of the source positions ``wanted``, the threads that accessed memory there in ``run``, as (linear block,
    linear thread) pairs (a sampled launch's lanes mapped to the blocks they run)."""
    launch = run.launch
    tpb = launch.threads_per_block
    out = {}
    for site, lanes in threads_at(search, wanted, run).items():
        block, thread = np.divmod(np.fromiter(lanes, np.int64, len(lanes)), tpb)
        if launch.blocks is not None:
            block = np.asarray(launch.blocks, np.int64)[block]
        out[site] = frozenset(zip(block.tolist(), thread.tolist(), strict=True))
    return out


def multiples(runs: Reruns, ints: list[str], divisors: list[str]) -> list[tuple[str, int, str]]:
    """Each argument of ``ints`` rounded up to a multiple of a smaller integer argument's value or square (``c`` to
    a multiple of ``stride * stride``: programs pass sizes their tiles and strides divide), the nearest first, each
    with the divisors it is a multiple of; the largest arguments first, at most :data:`MAX_MULTIPLES`."""
    out: list[tuple[str, int, str]] = []
    for n in sorted(ints, key=lambda a: -runs.value(a)):
        v = runs.value(n)
        found: dict[int, list[tuple[int, str]]] = {}
        for m in divisors:
            w = runs.value(m)
            if m == n or w < 2:
                continue
            for step, what in ((w, m), (w * w, f"{m}*{m}")):
                if step < v and v % step:
                    found.setdefault(-(-v // step) * step, []).append((step, f"{what} = {step}"))
        for up in sorted(found):
            out.append((n, up, "a multiple of " + " and of ".join(t for _, t in sorted(set(found[up])))))
    return out[:MAX_MULTIPLES]


class Rerun(NamedTuple):
    """One re-run of a plan: ``name`` at ``value`` (``what`` says what that value is when it is no plain number); a
    product of :func:`extents` carries the smaller products (``below``, ascending) a loss is narrowed over."""

    name: str
    value: int
    what: str
    below: tuple[tuple[int, str], ...] = ()


def extents(runs: Reruns, raised: list[str], lowered: list[str], others: list[str]) -> list[Rerun]:
    """Products of two other integer arguments' values (``others``, each at least 2, at most :data:`MAX_EXTENT`) an
    argument is re-run at: each of ``raised`` (a thread-index multiplier: an offset between threads' regions must
    reach the extent of one region) at the largest product above its value, each of ``lowered`` (a count a thread
    index is compared with: programs pass the product of the sizes the kernel splits the index into) at the smallest
    product below it -- the value that separates threads whenever a nearer one does -- with the nearer products to
    narrow a loss over (``below``, the nearest last but one); at most :data:`MAX_EXTENTS`."""
    out = []
    for n, up in [*((n, True) for n in raised), *((n, False) for n in lowered)]:
        v = runs.value(n)
        found: dict[int, list[str]] = {}
        pairs = [(a, b) for i, a in enumerate(others) for b in others[i + 1:] if n not in (a, b)]
        for a, b in pairs:
            wa, wb = runs.value(a), runs.value(b)
            if wa >= 2 and wb >= 2 and (v < wa * wb <= MAX_EXTENT if up else wa * wb < v):
                found.setdefault(wa * wb, []).append(f"{a}*{b} = {wa * wb}")
        ladder = [(p, " and ".join(found[p])) for p in sorted(found, reverse=not up)]
        if ladder:
            out.append(Rerun(n, *ladder[-1], tuple(ladder[:-1])))
    return out[:MAX_EXTENTS]


def schedule(runs: Reruns, names: list[str], divisors: list[str] | None = None,
             multipliers: set[str] | frozenset = frozenset(), bounds: set[str] | frozenset = frozenset()
             ) -> list[Rerun]:
    """The re-runs in the order they are tried, each with what its value is when it is no plain number: flags first
    (one run each, and a flag picks a code path), then the arguments that multiply a thread index in an address
    (``multipliers``, few) raised to a product of two others and the counts a thread index is compared with
    (``bounds``) lowered to one (:func:`extents`), then every argument at a multiple of
    another integer argument's value or square (``divisors``, the state arguments when not given: :func:`multiples`),
    then every argument at half its value, then at twice (the dearest runs last, where the allowance may not
    reach)."""
    flags = [Rerun(n, probes(runs.value(n), True)[0], "") for n in names if n in runs.flags][:MAX_ARGUMENTS]
    ints = [(n, probes(runs.value(n), False)) for n in names if n not in runs.flags][:MAX_ARGUMENTS - len(flags)]
    others = divisors or [n for n, _ in ints]
    return flags + extents(runs, [n for n, _ in ints if n in multipliers], [n for n, _ in ints if n in bounds],
                           others) + \
        [Rerun(*m) for m in multiples(runs, [n for n, _ in ints], others)] + \
        [Rerun(n, p[0], "") for n, p in ints if len(p) == 2] + [Rerun(n, p[-1], "") for n, p in ints]


def _needed_value(runs: Reruns, plan: list[Rerun], finding, sites: frozenset) -> tuple[str | None, tuple | None]:
    """(``lost``, (argument, the witness's value, the nearest value tried that shows it, the nearest that does not,
    what that value is)) for the first re-run of ``plan`` that loses ``finding`` (as the witness showed it);
    (``shown``, None) when the re-runs that could judge it all show it, (None, None) when none could.  A multiple
    is not bisected (the values between are no multiples); a product is narrowed to the smallest of its smaller
    products that still loses it."""
    judged = None
    for name, other, what, below in plan:
        verdict = rerun_verdict(runs.run(name, other), finding, sites)
        if verdict != "lost":
            judged = judged or verdict
            continue
        if below:
            other, what = _nearest_losing(runs, name, [*below, (other, what)], finding, sites)
        value = runs.value(name)
        shows, lost = value, other
        for _ in range(0 if what else BISECTIONS):
            if abs(shows - lost) <= 1:
                break
            middle = (shows + lost) // 2
            verdict = rerun_verdict(runs.run(name, middle), finding, sites)
            if verdict is None:
                break
            shows, lost = (middle, lost) if verdict == "shown" else (shows, middle)
        return "lost", (name, value, shows, lost, what)
    return judged, None


def _nearest_losing(runs: Reruns, name: str, ladder: list[tuple[int, str]], finding, sites: frozenset
                    ) -> tuple[int, str]:
    """The first value of ``ladder`` (nearest the witness's first, its last known to lose ``finding``) that loses it,
    by bisection over the ladder (a value farther from the witness's separates the threads a nearer one does)."""
    low, high = -1, len(ladder) - 1  # ladder[high] loses; ladder[low] is not known to
    while high - low > 1:
        middle = (low + high) // 2
        verdict = rerun_verdict(runs.run(name, ladder[middle][0]), finding, sites)
        if verdict is None:
            break
        low, high = (middle, high) if verdict == "shown" else (low, middle)
    return ladder[high]


def _demote(search, key: tuple, finding, genes, name: str, value: int, shows: int, lost: int, what: str) -> None:
    """``finding`` as the witness of ``genes`` showed it becomes the reported one, a warning naming the value."""
    # a flag's two values say when; an integer's two neighbours only that its value decides (reorg's race needs
    # the channels not to be a multiple of stride squared: it shows at stride 6, not at 7, and again at others)
    condition = f"only when {name} = {shows}" if {shows, lost} == {0, 1} else f"only at some values of {name}"
    search.judge(key, beyond_contract(finding, (
        f"{condition}: the host launch shows it at {name} = {shows} but not at {name} = {lost}"
        f"{f' ({what})' if what else ''}, where its accesses "
        f"still run; the host computes {name} from program state simu does not read ({search.layout.state[name]}), "
        "so the program's values decide"),
        f"host state {name}"), genes)
