"""The (mu + lambda) search over launches with DEAP, and the phases that follow it.

1. Evolve: each parent yields a normal-step and a Cauchy-step child; parents and children compete;
   the best survive.  Every evaluated launch is also checked by the detectors, so findings from
   any launch count.  Stop early once a launch is acceptable (a finding) and a generation added
   nothing new, otherwise at the budget.
2. Refute: barriers that look redundant are attacked with larger and different launches; only
   the survivors are reported.
3. Shrink: each finding's witness launch is reduced (grid, block, arguments) while the finding
   persists, so the reported launch is the smallest one found.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from deap import base, creator, tools

from simu import codes
from simu.detect.finding import Finding, deduplicate
from simu.errors import SimuError
from simu.evolve.dictionary import argument_constants
from simu.evolve.fitness import collision_ratio, coverage_of
from simu.evolve.genome import FILLS, SIZE_NAMES, Layout, kernel_shape
from simu.evolve.operators import mutate
from simu.launch import Launch
from simu.pipeline import KernelAnalysis, LaunchRun, status_of

if not hasattr(creator, "SimuFitness"):
    # conflicts (max), coverage reached (max), collision ratio (min), address range (min)
    creator.create("SimuFitness", base.Fitness, weights=(1.0, 1.0, -1.0, -1.0))
    creator.create("SimuGenome", list, fitness=creator.SimuFitness)


CHECK_GUARD_SECONDS = 10.0  # `simu check`'s evaluation budget also stops the search after this long
MAX_PROBE_TRACE = 1_000_000  # accesses per searched launch
MAX_PROBE_SECONDS = 2.0  # per searched launch (an explicit --grid/--block run keeps the full limit)
CONFLICTS_ENOUGH = 64  # conflicting pairs beyond which a launch is no fitter


@dataclass
class Budget:
    evaluations: int = 40
    seconds: float = 1.5
    population: int = 6
    generations: int = 8
    min_evaluations: int = 10


@dataclass
class Evaluation:
    """What the search keeps of one launch (never its trace or machine state)."""

    launch: Launch
    findings: list[Finding]
    observations: list[Any]  # for the checks' kernel phase
    fitness: tuple[float, float, float, float]
    valid: bool = True
    error: str = ""

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
    status: str = "analysed"
    reason: str = ""
    launches: int = 0


class Search:
    def __init__(self, module, kernel, settings, constraints: Any = None, budget: Budget | None = None,
                 mode: str = "full", seed: int = 0):
        self.module = module
        self.kernel = kernel
        self.settings = settings
        self.budget = budget or Budget()
        self.mode = mode  # full | simulee | random
        self.rng = random.Random(seed)
        self.layout = _layout(module, kernel, constraints, settings)
        self.cache: dict[tuple, Evaluation] = {}
        # a probe launch larger than this many accesses costs more to judge than it can teach
        self._limits = dataclasses.replace(settings.limits, max_trace=min(settings.limits.max_trace, MAX_PROBE_TRACE),
                                           max_seconds=min(settings.limits.max_seconds, MAX_PROBE_SECONDS))
        self.coverage: set = set()
        self.found: dict[tuple, tuple[Finding, list[float]]] = {}
        self.analysis = KernelAnalysis(module, kernel, settings)
        self.stats = SearchStats()
        self.t0 = time.perf_counter()
        self.status, self.reason = "analysed", ""
        words = None
        if mode == "full":  # simu's search reads the constants the kernel compares its arguments with
            self.layout.dictionary = argument_constants(kernel)[0]
            words = [self.layout.dictionary.get(p.name, []) for p in self.layout.scalars]
        self.toolbox = base.Toolbox()
        n = len(self.layout.scalars)
        self.toolbox.register("mutate_normal", mutate, rng=self.rng, cauchy=False, n_scalars=n, dictionary=words)
        self.toolbox.register("mutate_cauchy", mutate, rng=self.rng, cauchy=True, n_scalars=n, dictionary=words)
        self.toolbox.register("select", tools.selBest)

    # -- evaluation ----------------------------------------------------------------------
    def out_of_budget(self) -> bool:
        return (self.stats.evaluations >= self.budget.evaluations
                or time.perf_counter() - self.t0 > self.budget.seconds)

    def out_of_time(self, factor: float = 1.6) -> bool:
        """The refutation and shrinking phases may use part of a second budget, never more."""
        return time.perf_counter() - self.t0 > factor * self.budget.seconds

    def evaluate(self, genes: list[float], guessed_buffers_ok: bool = True) -> Evaluation:
        """Run the launch the genes describe (cached).  With ``guessed_buffers_ok=False`` a launch
        that reads or writes a global buffer past its end counts as invalid: the buffer lengths
        are the search's guess, and a probe that scaled arguments up may simply outgrow them."""
        launch = self.layout.launch(genes)
        key = _launch_key(launch)
        if key in self.cache:
            self.stats.cache_hits += 1
            return self.cache[key]
        self.stats.evaluations += 1
        ev = self._run(launch)
        if not guessed_buffers_ok and ev.valid and any(
                f.kind == "out-of-bounds" and f.space in ("global", "constant") for f in ev.findings):
            ev = Evaluation.invalid(launch, "arguments outgrow the guessed buffers")
        self.cache[key] = ev
        if ev.valid:
            new = False
            for f in ev.findings:
                if f.key not in self.found:
                    self.found[f.key] = (f, list(genes))
                    new = True
            if new and self.stats.first_finding_eval is None:
                self.stats.first_finding_eval = self.stats.evaluations
                self.stats.first_finding_seconds = time.perf_counter() - self.t0
            self.analysis.accept(ev.observations)
        else:
            self.stats.invalid += 1
        return ev

    def _run(self, launch: Launch) -> Evaluation:
        try:
            launch_run = self.analysis.run_launch(launch, self._limits, judge_incomplete=False)
        except SimuError as exc:
            self.status, self.reason = status_of(exc), str(exc)
            return Evaluation.invalid(launch, str(exc))
        result = launch_run.result
        if not result.outcome.completed:
            if result.outcome.status == codes.FAILED:
                self.status, self.reason = codes.FAILED, str(result.outcome)
            return Evaluation.invalid(launch, str(result.outcome))
        findings = launch_run.findings
        if _violates_contract(launch_run, findings):
            return Evaluation.invalid(launch, "launch outside the kernel's contract")
        primary, secondary = collision_ratio(result.trace)
        cov = coverage_of(result.trace)
        self.coverage |= cov
        conflicts = sum(f.count for f in findings if f.severity in ("error", "warning"))
        if self.mode == "simulee":
            fit = (0.0, 0.0, primary, secondary)
        else:
            # conflicts count up to a point: past it, bigger launches only cost more to judge
            # then branch edges and barriers this launch reaches: a launch that enters more of the
            # kernel's code is a better parent (a count "new at evaluation time" would favour
            # whichever launch happened to run first, for ever)
            fit = (float(min(conflicts, CONFLICTS_ENOUGH)), float(len(cov)), primary, secondary)
        return Evaluation(launch, findings, launch_run.observations, fit)

    # -- phases ----------------------------------------------------------------------------
    def evolve(self) -> None:
        b = self.budget
        if self.mode == "random":
            while not self.out_of_budget():
                self.evaluate(self.layout.initial(self.rng))
                if self._acceptable():
                    break
            return
        pop = [creator.SimuGenome(self.layout.initial(self.rng)) for _ in range(b.population)]
        for ind in pop:
            ind.fitness.values = self.evaluate(ind).fitness
            if self.out_of_budget():
                return
        if self.mode == "full":
            swept = self._dictionary_sweep(_distinct(tools.selBest(pop, len(pop)))[:3])
            pop = self.toolbox.select(pop + swept, b.population)
            if self.out_of_budget():
                return
        stale = 0  # generations in a row that found nothing new
        for _ in range(b.generations):
            before = len(self.found)
            children = []
            for parent in pop:
                for mut in (self.toolbox.mutate_normal, self.toolbox.mutate_cauchy):
                    child = creator.SimuGenome(mut(list(parent)))
                    child.fitness.values = self.evaluate(child).fitness
                    children.append(child)
                    if self.out_of_budget():
                        return
            pop = self.toolbox.select(pop + children, b.population)
            stale = stale + 1 if len(self.found) == before else 0
            if self._acceptable() and stale >= 2:
                return

    def _dictionary_sweep(self, bases, limit: int = 18) -> list:
        """The deterministic stage of a fuzzer: the best launches so far, with each argument set in
        turn to each constant the kernel compares it with (the values behind `mode == 5`)."""
        out = []
        size_like = [SIZE_NAMES.match(p.name) is not None for p in self.layout.scalars]
        order = sorted(range(len(self.layout.scalars)), key=lambda j: size_like[j])  # flags and modes first
        for j in order:
            for w in self.layout.dictionary.get(self.layout.scalars[j].name, []):
                for best in bases:
                    if len(out) >= limit or self.out_of_budget():
                        return out
                    if int(round(best[6 + j])) == w:
                        continue
                    child = creator.SimuGenome(list(best))
                    child[6 + j] = float(w)
                    child.fitness.values = self.evaluate(child).fitness
                    out.append(child)
        return out

    def _acceptable(self) -> bool:
        return bool(self.found) and self.stats.evaluations >= self.budget.min_evaluations

    def refute_redundant(self, extra: int = 8) -> None:
        """Try launches that could make a seemingly redundant barrier necessary: more threads per
        block and more blocks (so conflicts cross warps), larger integer arguments (so loops and
        data reach other threads' elements) and other buffer contents."""
        if self.mode != "full" or "barriers" not in self.settings.checks:
            return
        n_scalars = len(self.layout.scalars)
        for i in range(extra):
            if not self.analysis.unsettled() or self.out_of_time(1.3):
                return
            variant = self.layout.initial(self.rng)
            variant[3] = min(variant[3] + self.rng.choice([1, 2]), 10)  # more threads per block
            variant[0] = min(variant[0] + self.rng.choice([0, 1]), 3)
            if i % 2:
                threads = 2 ** (variant[0] + variant[3])
                for j in range(6, 6 + n_scalars):
                    if self.rng.random() < 0.6:
                        variant[j] = max(abs(variant[j]) * self.rng.choice([2, 4, 8]), threads)
                variant[-2] = float(self.rng.randrange(len(FILLS)))
            self.evaluate(variant, guessed_buffers_ok=False)

    def shrink(self, per_finding: int = 10) -> None:
        """Make each finding's witness launch as small as the search can while it persists."""
        if self.mode != "full":
            return
        for key, (finding, genes) in list(self.found.items()):
            if finding.kind == "redundant-barrier":
                continue
            best = list(genes)
            tries = 0
            improved = True
            while improved and tries < per_finding and not self.out_of_time():
                improved = False
                for cand in _smaller(best, len(self.layout.scalars)):
                    tries += 1
                    ev = self.evaluate(cand)
                    hit = next((f for f in ev.findings if f.key == key), None) if ev.valid else None
                    if hit is not None and _size(ev.launch) < _size(self.layout.launch(best)):
                        best = cand
                        self.found[key] = (hit, cand)
                        improved = True
                        break
                    if tries >= per_finding:
                        break

    def result(self) -> SearchResult:
        findings = [f for f, _ in self.found.values()]
        # equal values in one launch do not make benign what another launch shows racing
        racing = {_pair(f) for f in findings if f.kind == "race"}
        findings = [f for f in findings if not (f.kind == "benign-race" and _pair(f) in racing)]
        findings += self.analysis.finish()
        findings = [f.with_detail(search={"evaluations": self.stats.evaluations, "mode": self.mode})
                    for f in findings]
        self.stats.seconds = time.perf_counter() - self.t0
        status, reason = self.status, self.reason
        if not self.cache or all(not e.valid for e in self.cache.values()):
            if status == "analysed":
                status, reason = "incomplete", next((e.error for e in self.cache.values() if e.error), "no valid launch")
        return SearchResult(deduplicate(findings), self.stats, status, reason, len(self.cache))


def _distinct(individuals: list) -> list:
    out, seen = [], set()
    for ind in individuals:
        key = tuple(ind[:-1])  # the seed gene alone does not make a different launch
        if key not in seen:
            seen.add(key)
            out.append(ind)
    return out


def _pair(f: Finding) -> tuple:
    return tuple(sorted((l.file, l.line) for l in (f.first, f.second) if l is not None))


def run_search(module, kernel, settings, constraints=None, budget: Budget | None = None, mode: str = "full",
               seed: int = 0) -> SearchResult:
    s = Search(module, kernel, settings, constraints, budget, mode, seed)
    s.evolve()
    if s.status in ("unsupported", "error") and not s.found:
        return s.result()
    s.refute_redundant()
    s.shrink()
    return s.result()


def _layout(module, kernel, constraints, settings) -> Layout:
    from simu.config import KernelConstraints

    c = constraints or KernelConstraints()
    shape = kernel_shape(module, kernel)
    scalars = [p for p in kernel.params if not p.is_pointer and p.name not in c.args]
    return Layout(kernel, shape, scalars, dict(c.args), dict(c.arg_ranges), _dim(c.grid), _dim(c.block),
                  dict(c.buffer_lengths), dict(c.fills), c.warp_size or 32,
                  fixed_dynamic_shared=c.dynamic_shared)


def _dim(v):
    if v is None:
        return None
    from simu.launch.model import as_dim3

    return as_dim3(v)


def _launch_key(launch: Launch) -> tuple:
    import numpy as np

    parts = [launch.grid, launch.block, launch.warp_size, launch.dynamic_shared, launch.seed]
    for name, v in launch.args.items():
        if isinstance(v, np.ndarray) and v.ndim > 0:
            parts.append((name, str(v.dtype), v.shape, hash(v.tobytes()) if v.size < 65536 else v.size))
        else:
            parts.append((name, repr(v)))
    return tuple(parts)


def _violates_contract(launch_run: LaunchRun, findings: list[Finding]) -> bool:
    """A shared array smaller than the block, indexed past its end, means the kernel was written
    for smaller blocks: the launch is outside its contract, not a bug to report."""
    tpb = launch_run.launch.threads_per_block
    for f in findings:
        if f.kind == "out-of-bounds" and f.space == "shared" and f.element is not None:
            size = f.detail.get("size", 4)
            alloc = next((a for a in launch_run.result.allocations if a is not None and a.name == f.variable), None)
            if alloc is not None and alloc.instance_size // max(size, 1) < tpb:
                return True
    return False


def _size(launch: Launch) -> tuple:
    import numpy as np

    ints = sum(abs(int(v)) for v in launch.args.values() if isinstance(v, (int, np.integer)))
    return (launch.total_threads, ints)


def _smaller(genes: list[float], n_scalars: int) -> list[list[float]]:
    out = []
    for i in (0, 1, 2, 3, 4, 5):  # halve a grid or block dimension (exactly, in whole threads)
        current = int(round(2 ** genes[i]))
        if current >= 2:
            g = list(genes)
            g[i] = math.log2(current // 2)
            out.append(g)
    for i in range(6, 6 + n_scalars):  # halve an argument
        if abs(genes[i]) >= 2:
            g = list(genes)
            g[i] = float(int(genes[i] / 2))
            out.append(g)
    return out
