"""The search over launches: its state, how it evaluates a launch, and its result.

:func:`run_search` evolves launches with the loop of :mod:`simu.evolve.loop`, then runs the
phases its mode registers (:mod:`simu.evolve.modes`):

1. Evolve: each parent yields a child per mutation operator; parents and children compete; the
   best survive.  Every evaluated launch is also checked by the detectors, so findings from any
   launch count.  Stop early once a launch is acceptable (a finding) and generations add nothing
   new, otherwise at the budget.
2. Refute: barriers that look redundant are attacked with larger and different launches; only
   the survivors are reported.
3. Shrink: each finding's witness launch is reduced (grid, block, arguments) while the finding
   persists, so the reported launch is the smallest one found.
4. Severity: errors that only launches breaking an assumption the search made show become warnings
   (:mod:`simu.evolve.refute`), within ``Budget.refutations`` launches and a cost in steps the budget's
   seconds fix (:func:`launch_cost`), whatever the clock says.

The timed phases (1-3) end their launches with them (:meth:`Search.timed_limits`), so a slow or hanging launch
does not carry the search past its budget.

Every launch goes through :class:`~simu.pipeline.KernelAnalysis` (run, judge, keep the checks'
observations for the kernel phase, finish).
"""

from __future__ import annotations

import dataclasses
import random
import re
import time
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from deap import tools

from simu import codes
from simu.detect.finding import Finding, deduplicate
from simu.errors import NotLaunchableError, SimuError, SourcePoint
from simu.evolve.budget import Budget
from simu.evolve.contract import kernel_refuses, outside_contract, thread_indexed_private
from simu.evolve.dependence import kernel_flow
from simu.evolve.dictionary import argument_constants, grid_relative_arguments, index_bounds
from simu.evolve.genome import Layout
from simu.evolve.loop import StopRule, Toolbox, mu_plus_lambda
from simu.evolve.member_strides import on_search_layouts
from simu.evolve.modes import MODES, Mode
from simu.evolve.prefix import cut_short, judge_prefix, judged_part, partial_reason
from simu.evolve.roles import split
from simu.evolve.sequence import PriorCut, file_priors, run_priors
from simu.evolve.shape import kernel_shape
from simu.evolve.sizes import fit_sample
from simu.evolve.tensors import on_simus_shape, tensor_buffers
from simu.interp.compiler import compile_kernel
from simu.interp.trace import ACCESS_BYTES
from simu.ir.buckets import bucket_scatters
from simu.ir.cursors import cursor_buffers
from simu.ir.spin import spin_buffers
from simu.launch import Launch
from simu.launch.blocks import sample_note
from simu.launch.constraints import KernelConstraints
from simu.launch.images import is_image, is_sampler, is_texture
from simu.launch.members import symbol_holders
from simu.launch.model import as_dim3
from simu.launch.record import ORIGIN_CONSTRAINED, ORIGIN_SEARCHED
from simu.pipeline import KernelAnalysis, beyond_contract, outcome_where, status_of

MAX_PROBE_TRACE_BYTES = 24_000_000  # trace bytes per searched launch: a million accesses (trace.ACCESS_BYTES each)
OUTSIDE_KINDS = ("out-of-bounds", "uninitialized")  # what a launch outside the contract may still report
ACCESSES_PER_STEP = 100
ELEMENTS_PER_STEP = 1000  # drawing a refutation's buffers (plausible lengths reach 16 MiB) costs a step per 1000
# zero-filled buffers cost about a twentieth of drawn ones (4.5M elements: 2.5 ms against 45-60 ms random, 70-110
# ms ramp, on the 2-core CI machine), so a zero-fill probe of a host-sized launch fits a small allowance
ZERO_ELEMENTS_PER_STEP = 20 * ELEMENTS_PER_STEP
MIN_LAUNCH_SECONDS = 0.05  # the shortest wall-clock bound a timed phase gives a launch it starts
# what a launch of a host's grid should record: a launch recording more runs fewer of its blocks from then on
# (sizes.fit_sample), so that a heavy kernel at the program's own launch is judged several times in its budget
SAMPLE_ACCESSES = MAX_PROBE_TRACE_BYTES // ACCESS_BYTES // 4


@dataclass
class Evaluation:
    """What the search keeps of one launch (never its trace or machine state)."""

    launch: Launch
    findings: list[Finding]
    observations: list[Any]  # for the checks' kernel phase
    fitness: tuple[float, float, float, float]
    valid: bool = True
    error: str = ""
    genes: list[float] | None = None  # what the search evaluated (None: a probe's variant)
    steps: int = 0  # interpreter steps the launch took
    cost: int = 0  # what re-running it costs, in steps: its steps plus a step per ACCESSES_PER_STEP accesses
    seen: Any = None  # what a refutation's ``inspect`` read of the run (its trace is not kept)
    cut: bool = False  # stopped at a time bound, or a step bound lower than the search's: says nothing of the launch
    recorded: int | None = None  # accesses the run recorded (at least the trace limit when it stopped there)
    partial: bool = False  # stopped at the search's trace limit: judged on the part that ran (prefix.judged_part)
    # what the run decided of the kernel (:meth:`Search.evaluate` applies it, a probe does not): it failed or is
    # unsupported (status, reason, where), or no GPU could run this launch (reason, where)
    failed: tuple[str, str, SourcePoint | None] | None = None
    unlaunchable: tuple[str, SourcePoint | None] | None = None

    @classmethod
    def invalid(cls, launch: Launch, reason: str) -> Evaluation:
        """A launch that taught nothing: worst fitness, no findings."""
        return cls(launch, [], [], (0, 0, 1.0, 0.0), False, reason)


@dataclass
class SearchStats:
    evaluations: int = 0
    cache_hits: int = 0
    first_finding_eval: int | None = None
    first_finding_seconds: float | None = None
    seconds: float = 0.0
    invalid: int = 0


@dataclass
class SearchResult:
    findings: list[Finding]
    stats: SearchStats
    status: str = codes.ANALYSED
    reason: str = ""
    launches: int = 0
    where: SourcePoint | None = None  # the source position the reason is about


class Search:
    """One kernel's search: the genome layout, the launches evaluated so far (cached by launch),
    the findings with the genes of their witness launches, and the kernel's analysis."""

    def __init__(self, module, kernel, settings, constraints: KernelConstraints | None = None,
                 budget: Budget | None = None, mode: str = "full", seed: int = 0):
        if mode not in MODES:
            raise ValueError(f"unknown search mode '{mode}' (use one of {', '.join(MODES)})")
        self.module, self.kernel, self.settings = module, kernel, settings
        self.budget = budget or Budget()
        self.t0 = _now()  # the budget's clock counts reading the kernel for its layout too
        self.mode: Mode = MODES[mode]
        self.rng = random.Random(seed)
        self.layout = _layout(module, kernel, constraints)
        # kernels the host runs first (sequence); with no host code, the file's kernel that writes what this one reads
        self.priors = constraints.before if constraints is not None and constraints.origin else \
            file_priors(module, kernel)
        self.cache: dict[tuple, Evaluation] = {}
        self.witness_index: tuple[int, dict] = (-1, {})  # refute's finding -> witnesses index, by cache size
        # a probe launch larger than this many accesses costs more to judge than it can teach
        self._limits = dataclasses.replace(settings.limits,
                                           max_trace_bytes=min(settings.limits.max_trace_bytes, MAX_PROBE_TRACE_BYTES),
                                           max_seconds=min(settings.limits.max_seconds, self.budget.probe_seconds))
        self.found: dict[tuple, tuple[Finding, list[float]]] = {}
        self.prefix: dict[tuple, Finding] = {}  # what the part that ran of a trace-limited launch showed
        self.prefix_judged = 0
        self.partial = None  # (accesses, reason, launch) of the first launch judged on the part that ran
        self.dropped: set[tuple] = set()  # findings a refutation ruled out: a later re-run does not bring them back
        self.analysis = KernelAnalysis(module, kernel, settings)
        self.stats = SearchStats()
        self.refutations = 0  # launches the severity refutations ran (at most budget.refutations)
        self.refuted_steps = 0  # what they cost, in steps (at most budget.refutation_steps(): launch_cost)
        self.memo: dict[Any, Any] = {}  # what the phases read off the kernel once per search
        self.until = 1.0  # budgets of seconds after which the running timed phase stops (the loop: 1)
        self.any_valid = False  # a launch has taught something (from then on timed launches end with their phase)
        self.status, self.reason = codes.ANALYSED, ""
        self.where: SourcePoint | None = None
        self.not_launchable: tuple[str, SourcePoint | None] | None = None  # the first launch no GPU could run
        # shared-memory errors of launches outside the contract, by whether the block was the tile's
        self.outside: dict[bool, dict[tuple, Finding]] = {}
        self.tiles = frozenset(g.display_name for g in module.globals.values() if g.addrspace == 3 and not g.external)
        # no buffer's values decide a branch or an address (nor pointers the launch draws into module variables):
        # launches differing only in their data are one
        self.blind = not self.layout.holders and not kernel_flow(self).values_decide()
        if self.mode.dictionary:  # the constants the kernel compares its arguments with
            self.layout.dictionary = argument_constants(kernel)[0]
            self.layout.grid_relative = grid_relative_arguments(kernel)

    # -- budget ------------------------------------------------------------------------------
    def out_of_budget(self) -> bool:
        """Budget spent (the search's share, or past the kernel's whole budget once it has run a launch), or the
        kernel found unsupported (a construct the machine does not model: every further launch would stop at it
        too)."""
        return (self.stats.evaluations >= self.budget.evaluations
                or _now() - self.t0 > self.budget.seconds or self.status == codes.UNSUPPORTED
                or (self.budget.kernel_deadline is not None and _now() > self.budget.kernel_deadline
                    and self.stats.evaluations > 0))

    def out_of_time(self, factor: float = 1.6) -> bool:
        """Refuting redundant barriers and shrinking witnesses may use part of a second budget, never more
        (the severity refutations are bounded by launches and steps instead: :meth:`refute`)."""
        return _now() - self.t0 > factor * self.budget.seconds

    def timed_limits(self, limits=None):
        """The limits of a launch a timed phase starts (the loop, refuting redundant barriers, shrinking): its own
        wall-clock bound ends with the phase, ``self.until`` budgets of seconds after the start, once a launch
        has taught something (the first valid launch keeps the full bound, up to the end of the kernel's whole
        budget when contracts split it, at least the search's share), so that one slow or hanging launch cannot
        carry the search past its budget.  A launch cut there is invalid, as one past its own bound."""
        limits = limits or self._limits
        if not self.any_valid:
            if self.budget.kernel_deadline is None:
                return limits
            left = max(self.budget.kernel_deadline - _now(), self.budget.seconds)
        else:
            left = self.until * self.budget.seconds - (_now() - self.t0)
        if left >= limits.max_seconds:
            return limits
        return dataclasses.replace(limits, max_seconds=max(left, MIN_LAUNCH_SECONDS))

    def acceptable(self) -> bool:
        return bool(self.found) and self.stats.evaluations >= self.budget.min_evaluations

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(self, genes: list[float], guessed_buffers_ok: bool = True, launch: Launch | None = None,
                 limits=None) -> Evaluation:
        """Run the launch the genes describe (cached; ``launch``: already built from them).  With
        ``guessed_buffers_ok=False`` a launch that reads or writes a global buffer past its end counts as
        invalid: the buffer lengths are the search's guess, and a probe that scaled arguments up may simply
        outgrow them."""
        built = launch is None
        launch = launch if launch is not None else self.layout.launch(genes)
        key = _launch_key(launch, self.blind)
        if key in self.cache:
            self.stats.cache_hits += 1
            return self.cache[key]
        self.stats.evaluations += 1
        broken = self.layout.broken(launch)
        ev = Evaluation.invalid(launch, f"{HOST_REQUIRES} {broken}") if broken else \
            self._decided(self._run(launch, limits if limits is not None else self.timed_limits()))
        # every run of a sampled grid sizes the later samples; one too heavy for the trace runs again on fewer blocks
        resized = ev.recorded is not None and fit_sample(self.layout, launch, ev.recorded, SAMPLE_ACCESSES)
        if resized and built and (not ev.valid or ev.partial):
            launch = self.layout.launch(genes)
            ev = self._decided(self._run(launch, limits if limits is not None else self.timed_limits()))
        ev = dataclasses.replace(ev, genes=list(genes))
        if not guessed_buffers_ok and ev.valid and any(
                f.kind == "out-of-bounds" and f.space in ("global", "constant") for f in ev.findings):
            ev = Evaluation.invalid(launch, "arguments outgrow the guessed buffers")
        self.cache[key] = ev
        if ev.valid:
            self.any_valid = True
            new = False
            for f in ev.findings:
                if f.key not in self.found and f.key not in self.dropped:
                    self.found[f.key] = (f, list(genes))
                    new = True
            if new and self.stats.first_finding_eval is None:
                self.stats.first_finding_eval = self.stats.evaluations
                self.stats.first_finding_seconds = _now() - self.t0
            self.analysis.accept(ev.observations)
        else:
            self.stats.invalid += 1
        return ev

    def judge(self, key: tuple, finding: Finding, genes: list[float]) -> None:
        """A phase's verdict on finding ``key``: ``finding`` as the witness ``genes`` shows it (a refutation's
        warning that states what the error needs, or the witness that keeps it).  With :meth:`drop`, the one place
        findings change after the loop: a verdict never raises a finding's severity nor brings back one ruled out."""
        old = self.found.get(key)
        if old is None or codes.SEVERITY_RANK[finding.severity] > codes.SEVERITY_RANK[old[0].severity]:
            return
        self.found[key] = (finding, list(genes))

    def drop(self, key: tuple) -> None:
        """Rule finding ``key`` out for good (no launch of the program's shows it)."""
        self.found.pop(key, None)
        self.dropped.add(key)

    def refute(self, genes: list[float] | None = None, launch: Launch | None = None,
               like: Evaluation | None = None, inspect=None, most: int | None = None) -> Evaluation | None:
        """A severity refutation's launch: ``genes`` evaluated like the loop's (cached, their findings
        kept), or a ``launch`` the genes alone do not describe probed; ``like`` is the witness it varies
        (its cost is what the launch should cost).  Bounded by ``budget.refutations`` launches and
        ``budget.refutation_steps()`` steps of cost (:func:`launch_cost`), not by the clock: None once either is
        spent (a launch expected to overrun what is left is not run; its interpreter steps stop there, or at
        ``most`` steps, and as many again in recorded accesses, for a probe at sizes far above its witness's), or
        when the launch taught nothing (a step, trace or time bound of the launch itself, a launch no GPU runs).
        The refutation then decides nothing and the finding keeps its severity.  ``inspect``, a function of the
        :class:`~simu.pipeline.LaunchRun` of a probed ``launch``, reads what the findings do not say (its value is
        the evaluation's ``seen``)."""
        if genes is not None:
            launch = self.layout.launch(genes)
            key = _launch_key(launch, self.blind)
            if key in self.cache and self.cache[key].cut:  # a timed phase cut it short: run it in full
                del self.cache[key]
            elif key in self.cache:
                ev = self.evaluate(genes, launch=launch)
                return ev if ev.valid else None
        zeros = genes is not None and split(self.layout.fill_choices[self.layout.fill_index(genes)])[1] == "zeros"
        drawn = sum(int(v.size) for v in launch.args.values() if isinstance(v, np.ndarray)) // \
            (ZERO_ELEMENTS_PER_STEP if zeros else ELEMENTS_PER_STEP)
        if not self.may_refute(like, drawn):
            return None
        left = self.budget.refutation_steps() - self.refuted_steps - drawn
        if most is not None:
            left = min(left, most)
        self.refutations += 1
        # the allowance bounds what the run records too (a step per ACCESSES_PER_STEP accesses): a re-run at larger
        # sizes than its witness stops at the trace it can pay for, not at the search's trace limit
        limits = dataclasses.replace(self._limits, max_steps=min(self._limits.max_steps, left),
                                     max_trace_bytes=min(self._limits.max_trace_bytes,
                                                         left * ACCESSES_PER_STEP * ACCESS_BYTES))
        ev = self._probe(launch, limits, inspect) if genes is None else \
            self.evaluate(genes, launch=launch, limits=limits)
        self.refuted_steps += ev.cost + drawn
        return ev if ev.valid else None

    def may_refute(self, like: Evaluation | None = None, extra: int = 0) -> bool:
        """Whether the refutations' allowance has room for one more launch that costs what ``like`` did
        (:attr:`Evaluation.cost`) (plus ``extra`` steps: drawing its buffers)."""
        left = self.budget.refutation_steps() - self.refuted_steps - extra
        return self.refutations < self.budget.refutations and left > 0 and (like.cost if like else 0) <= left

    def probe(self, launch: Launch, limits=None) -> Evaluation | None:
        """Run a launch the genes alone do not describe (a refutation's variant) and return what it
        showed, or None when it taught nothing; the search's findings, cache and status stay as they were."""
        ev = self._probe(launch, limits)
        return ev if ev.valid else None

    def _probe(self, launch: Launch, limits=None, inspect=None) -> Evaluation:
        self.stats.evaluations += 1
        return self._run(launch, limits, inspect)  # what it decided of the kernel is not applied: a variant's

    def _decided(self, ev: Evaluation) -> Evaluation:
        """Apply what a run of the search's own decided of the kernel (:attr:`Evaluation.failed`)."""
        if ev.unlaunchable is not None:
            self.not_launchable = self.not_launchable or ev.unlaunchable
        if ev.failed is not None:
            self.status, self.reason, self.where = ev.failed
        return ev

    def _in_tile(self, launch: Launch) -> bool:
        """Whether ``launch``'s block is the program's or the user's, or the one the kernel's shared tile was written
        for: a part that ran at another searched block may stop before the accesses past the tile that would put the
        whole launch outside the kernel's contract, so it says no more than a warning (:func:`judge_prefix`)."""
        prior = self.layout.shape.block_prior
        if self.layout.fixed_block or self.layout.shape.reqd_block:
            return True
        if prior is None:  # no tile read off (or one under a warp): only a module with no shared array has none
            return not self.tiles
        return tuple(launch.block) == tuple(prior)

    def _run(self, launch: Launch, limits=None, inspect=None) -> Evaluation:
        if self.priors and not launch.sequenced:
            try:
                made = run_priors(self.module, launch, self.priors, limits or self._limits, self.layout.roles,
                                  full=self._limits)
            except PriorCut as exc:  # where the budget ran out: not run on the search's contents instead
                return dataclasses.replace(Evaluation.invalid(launch, f"{codes.INCOMPLETE}: {exc}"), cut=True)
            launch.origin += f" (contents: {made})" if made else ""
        try:
            launch_run = self.analysis.run_launch(launch, limits or self._limits, judge_incomplete=False)
        except NotLaunchableError as exc:  # this launch, not the kernel: other launches may be fine
            return dataclasses.replace(Evaluation.invalid(launch, str(exc)), unlaunchable=(str(exc), exc.where))
        except SimuError as exc:
            return dataclasses.replace(Evaluation.invalid(launch, str(exc)),
                                       failed=(status_of(exc), str(exc), exc.where))
        result = launch_run.result
        bound = limits or self._limits
        partial = result.outcome.reason.startswith("trace limit") and result.outcome.status != codes.FAILED and \
            bound.max_trace_bytes >= self._limits.max_trace_bytes and self._in_tile(launch)
        if partial:
            launch_run = judged_part(self.analysis, launch, result, kernel_flow(self))
            if self.partial is None:
                self.partial = (len(result.trace), result.outcome.reason, launch)
        elif not result.outcome.completed:
            failed = (codes.FAILED, str(result.outcome), outcome_where(result.outcome)) \
                if result.outcome.status == codes.FAILED and not kernel_refuses(result.outcome) else None
            reason = result.outcome.reason
            # stopped where the budget ran out (a lowered bound), not at its own limits: its part is not judged
            lowered = reason.startswith("time limit") and bound.max_seconds < self._limits.max_seconds
            if cut_short(reason) and not lowered:
                judge_prefix(self, launch, result)
            cut = reason.startswith("time limit") or (reason.startswith("step limit")
                                                       and bound.max_steps < self._limits.max_steps)
            said = str(result.outcome)
            if lowered:
                said = (f"{codes.INCOMPLETE}: a launch stopped after {bound.max_seconds:.2g} s, "
                        "where the budget ran out (a larger --budget runs it further)")
            return dataclasses.replace(Evaluation.invalid(launch, said), steps=result.steps,
                                       cost=launch_cost(result), cut=cut, failed=failed,
                                       recorded=_recorded(result) if reason.startswith("trace limit") else None)
        findings = launch_run.findings
        prior = None if self.layout.fixed_block else self.layout.shape.block_prior  # the user's block is in
        searched_block = not self.layout.fixed_block and not self.layout.shape.reqd_block
        private = [f.element for f in findings if searched_block and thread_indexed_private(f)]
        if private:  # written for blocks of at most that many threads: later blocks are capped there
            cap = self.layout.shape.block_cap or (1024, 1024, 64)
            self.layout.shape.block_cap = (min(cap[0], *private),) + tuple(cap[1:])  # type: ignore[assignment]
        if private or outside_contract(launch_run, findings, prior, self.tiles):
            at_prior = tuple(launch.block) == tuple(self.layout.shape.block_prior or ())
            for f in findings:  # reported only if no launch is inside the contract
                if f.kind in OUTSIDE_KINDS and f.space == "shared":
                    self.outside.setdefault(at_prior, {}).setdefault(f.key, f)
            return dataclasses.replace(Evaluation.invalid(launch, "launch outside the kernel's contract"),
                                       steps=result.steps, cost=launch_cost(result))
        return Evaluation(launch, findings, launch_run.observations, self.mode.fitness(result.trace, findings),
                          steps=result.steps, cost=launch_cost(result), recorded=_recorded(result), partial=partial,
                          seen=inspect(launch_run) if inspect is not None else None)

    # -- phases ----------------------------------------------------------------------------------
    def toolbox(self) -> Toolbox:
        """What the mode registers for the evolutionary loop."""
        mode = self.mode
        return Toolbox(individual=partial(self.layout.initial, self.rng),
                       evaluate=lambda genes: self.evaluate(genes).fitness,
                       mutators=mode.mutators(self), select=tools.selBest,
                       sweep=partial(mode.sweep, self) if mode.sweep is not None else None)

    def stop_rule(self) -> StopRule:
        settle = self.mode.settle
        return StopRule(exhausted=self.out_of_budget, progress=lambda: len(self.found),
                        enough=lambda stale: self.acceptable() and stale >= settle)

    def evolve(self) -> None:
        mu = self.mode.population or self.budget.population
        generations = self.budget.generations if self.mode.bounded else None
        mu_plus_lambda(self.toolbox(), mu, generations, self.stop_rule())

    def refute_redundant(self) -> None:
        from simu.evolve.phases import refute_redundant

        refute_redundant(self)

    def shrink(self) -> None:
        from simu.evolve.phases import shrink

        shrink(self)

    def result(self) -> SearchResult:
        findings = [f for f, _ in self.found.values()]
        findings += [f for k, f in self.prefix.items() if k not in self.found and k not in self.dropped]
        # equal values in one launch do not make benign what another launch shows racing
        racing = {_pair(f) for f in findings if f.kind == "race"}
        findings = [f for f in findings if not (f.kind == "benign-race" and _pair(f) in racing)]
        findings += self.analysis.finish()
        findings = on_simus_shape(findings, tensor_buffers(self.kernel))
        findings = on_search_layouts(findings, self.kernel, self.layout.chosen_contents())
        findings = [f.with_detail(search={"evaluations": self.stats.evaluations, "mode": self.mode.name})
                    for f in findings]
        self.stats.seconds = _now() - self.t0
        status, reason = self.status, self.reason
        if self.outside and not any(e.valid for e in self.cache.values()):
            # no launch inside the contract: the kernel overflows its shared memory whatever the launch.  At
            # the block its tile was written for that is the bug; at other blocks only a warning that says
            # which assumption the launch breaks.
            at_prior = True in self.outside
            prior = self.layout.shape.block_prior
            for f in self.outside[True if at_prior else False].values():
                f = f.with_detail(search={"evaluations": self.stats.evaluations, "mode": self.mode.name,
                                          "contract": "no searched launch stays inside the kernel's shared memory"})
                if not at_prior and not self.layout.fixed_block:  # a host launch's or user's block is no guess
                    tile = "x".join(map(str, prior[:2])) if prior else None
                    f = beyond_contract(f, (f"the kernel's shared tile was written for blocks of {tile} threads, "
                                            "this launch's block differs" if tile else
                                            "the launch's block is the search's guess (no shared tile, host "
                                            "launch or constraint gives it)") + "; no searched launch fits the "
                                           "kernel's shared memory", "block")
                findings.append(f)
        elif not self.cache or all(not e.valid for e in self.cache.values()):
            if status == codes.ANALYSED and self.not_launchable:
                status, (reason, self.where) = codes.NOT_LAUNCHABLE, self.not_launchable
            elif status == codes.ANALYSED and self.partial is not None:
                reason = partial_reason(*self.partial)
            elif status == codes.ANALYSED:
                status = codes.INCOMPLETE
                reason = next((e.error for e in self.cache.values() if e.error), "no valid launch")
        if status == codes.ANALYSED and not reason:
            valid = [e for e in self.cache.values() if e.valid]
            reason = partial_reason(*self.partial) if self.partial is not None and all(e.partial for e in valid) \
                else sample_note(e.launch for e in valid)
        return SearchResult(deduplicate(findings), self.stats, status, reason, len(self.cache), self.where)


HOST_REQUIRES = "the host code requires"  # a launch that breaks what the host asserts or branches on: never made


def run_search(module, kernel, settings, constraints: KernelConstraints | None = None, budget: Budget | None = None,
               mode: str = "full", seed: int = 0) -> SearchResult:
    s = Search(module, kernel, settings, constraints, budget, mode, seed)
    s.evolve()
    if s.status in (codes.UNSUPPORTED, codes.FAILED) and not s.found:
        return s.result()
    for phase in s.mode.phases:
        phase(s)
    return s.result()


def launch_cost(result) -> int:
    """What a run cost, in steps: its interpreter steps plus a step per :data:`ACCESSES_PER_STEP` accesses it
    recorded (the checks judge every one; a step over hundreds of lanes recording accesses costs several
    steps of a few lanes).  Counted, never timed: the refutations' allowance does not depend on the machine."""
    return int(result.steps) + _recorded(result) // ACCESSES_PER_STEP


def _recorded(result) -> int:
    return len(result.trace) if result.trace is not None else 0


def _now() -> float:
    """The search's clock (the budget's seconds and the time guards of its phases): this process's CPU time, so
    that a machine loaded by other work (a parallel scan, CI neighbours) runs the same launches, only slower;
    the wall clock made the evaluations, witnesses and refutations of a kernel differ from run to run."""
    return time.process_time()


def deadline_after(seconds: float) -> float:
    """The search clock's reading ``seconds`` from now (``Budget.kernel_deadline``)."""
    return _now() + seconds


def _layout(module, kernel, constraints: KernelConstraints | None) -> Layout:
    c = constraints or KernelConstraints()
    shape = kernel_shape(module, kernel)
    opaque = {p.name for p in kernel.params if p.is_pointer or is_image(p) or is_texture(p) or is_sampler(p)}
    derived = {k: e for k, e in c.derived.items()  # one onto or from an image or a buffer: another kernel's launch's
               if k not in c.args and k not in opaque and not opaque & set(re.findall(r"\w+", e))}
    scalars = [p for p in kernel.params if not p.is_pointer and p.name not in c.args and p.name not in derived
               and not (is_image(p) or is_texture(p) or is_sampler(p))]  # backed by arrays / a default
    constrained = constraints is not None and bool(c.grid or c.block or c.args or c.arg_ranges or c.buffer_lengths
                                                   or c.dims or derived or c.requires)
    ranges = {name: (0.0, float(n - 1)) for name, n in index_bounds(kernel).items()}  # the kernel's contract
    ranges.update(c.arg_ranges)  # the user's word wins
    # cleared unless the program says: a spin-wait's flags (simu.ir.spin), append and bucket cursors (.cursors, …)
    cleared = spin_buffers(kernel) | cursor_buffers(kernel) | {b.cursor for b in bucket_scatters(kernel)}
    fills = {**{name: "zeros" for name in sorted(cleared)}, **c.fills}
    grid, block = (None if v is None else as_dim3(v) for v in (c.grid, c.block))
    return Layout(kernel, shape, scalars, dict(c.args), ranges, grid, block, dict(c.buffer_lengths), fills,
                  c.warp_size or 32, fixed_dynamic_shared=c.dynamic_shared, shared_bytes=c.shared_bytes,
                  same=dict(getattr(c, "same", {})), dims=dict(c.dims), derived=derived,
                  origin=c.origin or (ORIGIN_CONSTRAINED if constrained else ORIGIN_SEARCHED),
                  length_factors=dict(c.length_factors), requires=list(c.requires), state=dict(c.state),
                  holders=_holders(module, kernel), symbols=dict(c.symbols))


def _holders(module, kernel) -> list:
    """The module variables the kernel reads that hold device pointers the host sets (``members.symbol_holders``)."""
    if not any(g.pointers is not None for g in module.globals.values()):
        return []
    try:
        used = {ref.name for ref in compile_kernel(module, kernel).global_refs}
    except SimuError:
        return []  # the search meets the same problem and reports it
    return symbol_holders(module, used)


def _pair(f: Finding) -> tuple:
    return tuple(sorted((l.file, l.line) for l in (f.first, f.second) if l is not None))


def _launch_key(launch: Launch, blind: bool = False) -> tuple:
    """What makes two launches the same for the cache: dimensions, scalars, and each buffer's bytes (a large
    buffer's fill instead: hashing it costs more than it saves; launches differing only in the seed of a large
    buffer's random numbers count as one, but zero- and random-filled ones never do).  ``blind``: no buffer's
    values decide a branch or an address of the kernel (:meth:`KernelFlow.values_decide`), so every buffer is
    keyed by its fill, whatever its size: another seed runs the same accesses again."""
    parts = [launch.grid, launch.block, launch.blocks, launch.warp_size, launch.dynamic_shared,
             None if blind else launch.seed]
    for name, v in launch.args.items():
        if isinstance(v, np.ndarray) and v.ndim > 0:
            spec = launch.buffer_specs.get(name) or {}
            fill = tuple(sorted((k, repr(x)) for k, x in spec.items() if k not in ("rng", "seed"))) \
                if spec else ("unknown", id(v))
            by_fill = v.size >= 65536 or (blind and bool(spec))
            parts.append((name, str(v.dtype), v.shape, (v.size, fill) if by_fill else hash(v.tobytes())))
        else:
            parts.append((name, repr(v)))
    return tuple(parts)
