"""What the part that ran of a launch stopped before its end shows (issue 31: long-running threads).

Its accesses happened, so a race, an access out of bounds or a read of memory nobody wrote among them is one of
that launch; a barrier's findings need the rest of it.

* A launch stopped at the **trace limit** stops where its recorded accesses fill the trace, which does not depend on
  the machine: the part that ran is judged as any launch is (:func:`judged_part`), its findings saying which part
  ran.  A race on shared memory the program's own launch shows in its first million accesses is an error; what
  needs the severity refutations to re-run the launch (out of bounds, uninitialised reads, races on global
  buffers: :func:`judged_in_part`) stays at most a warning, since their re-runs stop where their allowance does.
* A launch stopped at the **time or step limit** (threads that loop long: a K loop, a hash's rounds) stops where the
  machine's speed or the search's allowance says: what its part shows is at most a warning (:func:`judge_prefix`).

A kernel whose every launch stopped so is *analysed* on those parts, its reason saying which part ran
(:func:`partial_reason`), not ``incomplete``: every thread ran its first iterations, and that is what was judged.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from simu import codes
from simu.detect.finding import Finding

PREFIX_KINDS = ("race", "benign-race", "out-of-bounds", "uninitialized")
PREFIX_JUDGED = 2  # trace-limited launches judged per search (judging a full trace costs)
CUT = ("trace limit", "time limit", "step limit", "the launch reaches byte")  # stops with a part worth judging


def cut_short(reason: str) -> bool:
    """Whether a launch that stopped for ``reason`` ran a part that can be judged (not a deadlock or a fault)."""
    return reason.startswith(CUT)


def judged_part(analysis: Any, launch: Any, result: Any, flow: Any) -> Any:
    """The :class:`~simu.pipeline.LaunchRun` of the part that ran of ``launch`` (``result``, stopped at the trace
    limit): its races and memory errors, each saying which part ran, and no observations for the checks' kernel
    phase (a redundant barrier needs the whole launch).  ``flow``: the kernel's
    :class:`~simu.evolve.dependence.KernelFlow`."""
    run = analysis.judge(launch, result)
    reason, accesses = result.outcome.reason, len(result.trace)
    findings = [(part_finding if judged_in_part(f, flow) else prefix_finding)(f, reason, accesses)
                for f in run.findings if f.kind in PREFIX_KINDS]
    return dataclasses.replace(run, findings=findings, observations=[None] * len(run.observations))


def judged_in_part(f: Finding, flow: Any) -> bool:
    """Whether ``f``, seen in the part that ran, is judged as a whole launch's: a race on the block's own shared
    memory at addresses no buffer's values pick (``flow.address_sources``).  Whether an access out of bounds, a read
    of memory nobody wrote or a race on a global buffer or at an address read from the data needs the launch's drawn
    contents is what the severity refutations decide by re-running it, and a re-run within their allowance stops
    before the witness's part ends: those stay warnings."""
    return f.kind in ("race", "benign-race") and f.space == "shared" and not flow.address_sources(
        [(loc.file, loc.line, loc.column) for loc in f.locations])


def part_finding(f: Finding, reason: str, accesses: int) -> Finding:
    """``f``, seen in the first ``accesses`` accesses of a launch that stopped for ``reason``, saying so."""
    part = _part(reason, accesses)
    return dataclasses.replace(f, message=f"{f.message} ({part})", detail={**f.detail, "partial": part})


def _part(reason: str, accesses: int) -> str:
    return (f"seen in the part of the launch that ran: its first {accesses:,} memory accesses, where it stopped "
            f"({reason})")


def judge_prefix(search: Any, launch: Any, result: Any) -> None:
    """Keep in ``search.prefix`` what the part of ``launch`` that ran (``result``, stopped at the time or step
    limit) shows, for at most :data:`PREFIX_JUDGED` launches of a search."""
    if search.prefix_judged >= PREFIX_JUDGED:
        return
    search.prefix_judged += 1
    if search.partial is None:
        search.partial = (len(result.trace), result.outcome.reason, launch)
    for f in search.analysis.judge(launch, result).findings:
        if f.kind in PREFIX_KINDS and f.key not in search.prefix:
            search.prefix[f.key] = prefix_finding(f, result.outcome.reason, len(result.trace))


def prefix_finding(f: Finding, reason: str, accesses: int) -> Finding:
    """``f``, seen in the first ``accesses`` accesses of a launch that stopped for ``reason``, as at most a
    warning that says so."""
    severity = codes.WARNING if codes.SEVERITY_RANK.get(f.severity, 0) > codes.SEVERITY_RANK[codes.WARNING] \
        else f.severity
    part = f"{_part(reason, accesses)}; a larger --budget or a smaller launch decides"
    return dataclasses.replace(f, severity=severity, message=f"{f.message} (a warning, not an error: {part})",
                               detail={**f.detail, "partial": part})


def partial_reason(accesses: int, reason: str, launch: Any) -> str:
    """The reason of a kernel analysed only on the part that ran of a launch that stopped for ``reason``."""
    g, b = ("x".join(map(str, dims)) for dims in (launch.grid, launch.block))  # Dim3 tuples
    return (f"partly analysed: every launch stopped before its end ({reason}); judged on the part that ran of "
            f"grid {g}, block {b}: its first {accesses:,} memory accesses (a larger --budget runs it further)")

