"""One launch -> trace -> findings, and one kernel's analysis over many launches.

Every caller that executes a kernel and judges it goes through :class:`KernelAnalysis`: ``simu
check`` with the launches a user gave, the search with the launches it proposes, validation with
a corpus file's launches.  Per launch the machine runs, the selected checks judge the trace, and
each check keeps a small observation for its kernel phase; the trace and the machine state are
dropped as soon as the caller is done with the :class:`LaunchRun`.  After the last launch,
:meth:`KernelAnalysis.finish` runs every check's kernel phase (redundant barriers, say).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from simu import codes
from simu.detect import Check, Context, DetectOptions, Finding, check_classes, deduplicate
from simu.errors import NotLaunchableError, SimuError, SourcePoint, UnsupportedError
from simu.interp import Limits, Outcome, RunResult, run
from simu.ir import Kernel, Module
from simu.launch import Launch
from simu.launch.limits import check_launch


@dataclass(frozen=True)
class CheckSettings:
    """What one kernel's analysis does: which checks, with which rules, within which limits."""

    checks: tuple[str, ...] = codes.DEFAULT_CHECKS
    detect: DetectOptions = field(default_factory=DetectOptions)
    limits: Limits = field(default_factory=Limits)


@dataclass
class LaunchRun:
    """One executed launch: its findings and the machine's result (the caller reads the trace, e.g.
    for fitness, then drops the run; nothing else keeps it alive)."""

    launch: Launch
    result: RunResult
    findings: list[Finding]
    observations: list[Any]

    @property
    def completed(self) -> bool:
        return self.result.outcome.completed


@dataclass(frozen=True)
class KernelReport:
    """A kernel's verdict: its status (see :mod:`simu.codes`), why, the findings and how many
    launches ran; ``search`` holds the search's statistics when launches were searched."""

    kernel: str
    status: str = codes.ANALYSED
    reason: str = ""
    findings: tuple[Finding, ...] = ()
    launches: int = 0
    search: Any = None
    where: SourcePoint | None = None  # the source position the reason is about


class KernelAnalysis:
    """The selected checks over any number of launches of one kernel."""

    def __init__(self, module: Module, kernel: Kernel, settings: CheckSettings = CheckSettings()):
        self.module = module
        self.kernel = kernel
        self.settings = settings
        self.checks: list[Check] = [cls() for cls in check_classes(settings.checks)]
        self.observations: list[list[Any]] = [[] for _ in self.checks]
        self.launches = 0

    def run_launch(self, launch: Launch, limits: Limits | None = None, judge_incomplete: bool = True) -> LaunchRun:
        """Execute ``launch`` and judge it.  A launch the machine could not finish is judged on what
        it recorded when ``judge_incomplete``, otherwise it gets no findings.  Raises
        :class:`~simu.errors.UnsupportedError` / :class:`~simu.errors.SimuError` from the machine."""
        limits = limits or self.settings.limits
        check_launch(launch, limits.max_threads, limits.max_memory_bytes)  # before the machine allocates anything
        result = run(self.module, self.kernel, launch, limits)
        self.launches += 1
        if not result.outcome.completed and not judge_incomplete:
            return LaunchRun(launch, result, [], [None] * len(self.checks))
        return self.judge(launch, result)

    def judge(self, launch: Launch, result: RunResult) -> LaunchRun:
        """The checks' findings and observations of one run of ``launch`` (a :class:`~simu.interp.RunResult`,
        which may have stopped early: its trace is what ran)."""
        ctx = Context(self.kernel, launch, result, self.settings.detect)
        findings: list[Finding] = []
        for check in self.checks:
            findings += check.on_launch(ctx)
        return LaunchRun(launch, result, deduplicate(findings), [c.observe(ctx) for c in self.checks])

    def accept(self, observations: list[Any]) -> None:
        """Keep what the checks observed of a launch (``LaunchRun.observations``) for the kernel phase."""
        for kept, obs in zip(self.observations, observations, strict=True):
            if obs is not None:
                kept.append(obs)

    def unsettled(self) -> bool:
        """Some check's kernel phase would report something that more launches might refute."""
        return any(c.unsettled(obs) for c, obs in zip(self.checks, self.observations, strict=True))

    def finish(self) -> list[Finding]:
        """The kernel phase of every check, over the accepted launches."""
        findings: list[Finding] = []
        for check, obs in zip(self.checks, self.observations, strict=True):
            findings += check.on_kernel_end(obs)
        return findings


ASSUMPTION = "assumption"  # Finding.detail key: the inferred assumption a finding's launch breaks
# Finding.detail key: which assumption that is, without the witness's numbers ("length of 'x'", "contents"):
# the findings of one kernel on one variable breaking the same one are one problem (report/grouping.py)
ASSUMPTION_KEY = "assumption_key"


def beyond_contract(finding: Finding, assumption: str, key: str = "") -> Finding:
    """The one severity rule of provenance (issue 14).  A finding is an error when a launch the program
    can make shows it: a host launch, a launch the user gave or constrained, or a searched launch inside
    every assumption the search inferred of the kernel (the block its shared tile was written for, buffer
    lengths and contents the host would allocate and fill).  A finding that only a launch breaking one of
    those inferred assumptions shows is at most a warning, and says which assumption (``assumption``, a
    clause naming it, also kept as ``detail["assumption"]``; ``key``, kept as ``detail["assumption_key"]``,
    names which assumption it is without the numbers of the witness, the clause itself when empty).  The
    search decides *whether* a finding depends on an assumption (:mod:`simu.evolve.phases`,
    :meth:`simu.evolve.search.Search.result`); this function is what follows from it."""
    if finding.detail.get(ASSUMPTION):
        return finding  # already capped, with the assumption it first broke
    severity = finding.severity
    if codes.SEVERITY_RANK.get(severity, 0) > codes.SEVERITY_RANK[codes.WARNING]:
        severity = codes.WARNING
    return replace(finding, severity=severity,
                   detail={**finding.detail, ASSUMPTION: assumption, ASSUMPTION_KEY: key or assumption},
                   message=f"{finding.message} (a warning, not an error: only a launch that breaks an assumption "
                           f"inferred of the kernel shows it: {assumption})")


def status_of(exc: SimuError) -> str:
    """The kernel status an error from the machine means (by its type, never its text)."""
    if isinstance(exc, UnsupportedError):
        return codes.UNSUPPORTED
    return codes.NOT_LAUNCHABLE if isinstance(exc, NotLaunchableError) else codes.FAILED


def check_launches(module: Module, kernel: Kernel, launches: list[Launch],
                   settings: CheckSettings = CheckSettings()) -> KernelReport:
    """Run each given launch and every check; the kernel phase runs when every launch completed."""
    analysis = KernelAnalysis(module, kernel, settings)
    findings: list[Finding] = []
    status, reason, where = codes.ANALYSED, "", None
    for launch in launches:
        try:
            launch_run = analysis.run_launch(launch)
        except SimuError as exc:
            status, reason, where = status_of(exc), str(exc), exc.where
            break
        outcome = launch_run.result.outcome
        if not outcome.completed:
            status = codes.INCOMPLETE if outcome.status == codes.INCOMPLETE else codes.FAILED
            reason, where = str(outcome), outcome_where(outcome)
        findings += launch_run.findings
        analysis.accept(launch_run.observations)
    if status == codes.ANALYSED:
        findings += analysis.finish()
    return KernelReport(kernel.display_name, status, reason, tuple(deduplicate(findings)), analysis.launches,
                        where=where)


def outcome_where(outcome: Outcome) -> SourcePoint | None:
    """Where a run stopped (a fault or a bound), if the machine knows."""
    loc = outcome.loc
    return SourcePoint(loc.file, loc.line, loc.col) if loc is not None else None
