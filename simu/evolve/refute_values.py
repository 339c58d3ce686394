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
12 (a multiple of stride = 2 and of stride*stride = 4)``. An error every
re-run shows, or that no re-run could judge (the allowance spent, a run cut short), stands. Wrapper parameters and
the command line are input, not state: any caller may pass any value, and their errors stay errors."""

from __future__ import annotations

from functools import partial

import numpy as np

from simu import codes
from simu.evolve.refute import MEMORY_KINDS, RACE_KINDS, int_value, most_shared, sites_of, threads_at, witnesses
from simu.evolve.refute_state import collision, degenerate
from simu.ir.types import IntType
from simu.pipeline import beyond_contract

MAX_ARGUMENTS = 6  # state arguments probed per witness: flags first, then the others in parameter order
MAX_MULTIPLES = 4  # re-runs at a multiple of another argument's value or square, per witness
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
    pending = {key: shown for key, (f, _) in search.found.items()
               if f.severity == codes.ERROR and f.kind in JUDGED_KINDS and (shown := witnesses(search, key))}
    sites = {key: sites_of(search.found[key][0]) for key in pending}
    wanted = frozenset().union(*sites.values()) if sites else frozenset()
    reruns: dict[tuple, _Reruns] = {}  # per witness genes: two evaluations of one launch share their re-runs
    while pending:
        witness = most_shared(search, pending)
        judged = [key for key, shown in pending.items() if any(e is witness for e, _ in shown)]
        for key in judged:
            del pending[key]
        if tuple(witness.genes) not in reruns:
            reruns[tuple(witness.genes)] = _Reruns(search, witness, wanted)
        runs = reruns[tuple(witness.genes)]
        plan = schedule(runs, names, [p.name for p in layout.kernel.params if isinstance(p.type, IntType)
                                      and p.type.bits > 1 and p.name not in runs.flags])
        for key in judged:
            found = _needed_value(runs, plan, key, sites[key])
            if found is not None:
                _demote(search, key, *found)
        if not search.may_refute(witness):
            return  # the allowance is spent: what is not yet judged stands


class _Reruns:
    """The witness re-run with one argument changed, each (argument, value) run once whatever it judges."""

    def __init__(self, search, witness, wanted: frozenset) -> None:
        self.search, self.witness = search, witness
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
            self.done[(name, value)] = None if degenerate(layout, varied, self.witness) else \
                self.search.refute(launch=layout.launch(varied), like=self.witness, inspect=self.inspect)
        return self.done[(name, value)]


def _verdict(run, finding, sites: frozenset) -> str | None:
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
    distinct = np.unique(np.stack([group, member], axis=1), axis=0)
    return bool((np.unique(distinct[:, 0], return_counts=True)[1] >= 2).any())


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


def multiples(runs: _Reruns, ints: list[str], divisors: list[str]) -> list[tuple[str, int, str]]:
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


def schedule(runs: _Reruns, names: list[str], divisors: list[str] | None = None) -> list[tuple[str, int, str]]:
    """The re-runs in the order they are tried, each with what its value is when it is no plain number: flags first
    (one run each, and a flag picks a code path), then every argument at half its value, then at a multiple of
    another integer argument's value or square (``divisors``, the state arguments when not given: :func:`multiples`),
    then at twice (the dearest runs last, where the allowance may not
    reach)."""
    flags = [(n, probes(runs.value(n), True)[0], "") for n in names if n in runs.flags][:MAX_ARGUMENTS]
    ints = [(n, probes(runs.value(n), False)) for n in names if n not in runs.flags][:MAX_ARGUMENTS - len(flags)]
    return flags + multiples(runs, [n for n, _ in ints], divisors or [n for n, _ in ints]) + \
        [(n, p[0], "") for n, p in ints if len(p) == 2] + [(n, p[-1], "") for n, p in ints]


def _needed_value(runs: _Reruns, plan: list[tuple[str, int, str]], key: tuple, sites: frozenset) -> tuple | None:
    """(argument, the witness's value, the nearest value tried that shows it, the nearest that does not, what that
    value is) for the first re-run of ``plan`` that loses the error; None when every re-run shows it or none could
    judge.  A multiple is not bisected (the values between are no multiples)."""
    finding = runs.search.found[key][0]
    for name, other, what in plan:
        if _verdict(runs.run(name, other), finding, sites) != "lost":
            continue
        value = runs.value(name)
        shows, lost = value, other
        for _ in range(0 if what else BISECTIONS):
            if abs(shows - lost) <= 1:
                break
            middle = (shows + lost) // 2
            verdict = _verdict(runs.run(name, middle), finding, sites)
            if verdict is None:
                break
            shows, lost = (middle, lost) if verdict == "shown" else (shows, middle)
        return name, value, shows, lost, what
    return None


def _demote(search, key: tuple, name: str, value: int, shows: int, lost: int, what: str) -> None:
    finding, genes = search.found[key]
    # a flag's two values say when; an integer's two neighbours only that its value decides (reorg's race needs
    # the channels not to be a multiple of stride squared: it shows at stride 6, not at 7, and again at others)
    condition = f"only when {name} = {shows}" if {shows, lost} == {0, 1} else f"only at some values of {name}"
    search.found[key] = (beyond_contract(finding, (
        f"{condition}: the host launch shows it at {name} = {shows} but not at {name} = {lost}"
        f"{f' ({what})' if what else ''}, where its accesses "
        f"still run; the host computes {name} from program state simu does not read ({search.layout.state[name]}), "
        "so the program's values decide"),
        f"host state {name}"), genes)
