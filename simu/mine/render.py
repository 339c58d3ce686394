"""Text for people: the progress display of `simu mine run`, and what `status` and `report` print."""

from __future__ import annotations

import json
import time
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from simu.codes import SEVERITIES
from simu.mine.run import MineEvents, MineSummary


class _Rate(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed * 60:.1f}/min" if speed else "", style="progress.data.speed")


class ProgressEvents(MineEvents):
    """A rich display: repositories and kernels done, findings, rate and ETA; a failed source is one line above."""

    def __init__(self, console: Console):
        self.console = console
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), _Rate(),
                                 TextColumn("ETA"), TimeRemainingColumn(), console=console, transient=True)
        self.repos = self.progress.add_task("repositories", total=0)
        self.kernels = self.progress.add_task("kernels", total=0)
        self.findings = 0

    def __enter__(self) -> ProgressEvents:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.progress.__exit__(*exc)

    def sources_found(self, n: int) -> None:
        self.progress.update(self.repos, total=n)

    def source_started(self, name: str) -> None:
        self.progress.update(self.repos, description=f"repositories [dim]{escape(name[:40])}[/]")

    def source_done(self, name: str, status: str, reason: str = "") -> None:
        self.progress.advance(self.repos)
        if status in ("failed", "limited"):
            colour = "bold red" if status == "failed" else "yellow"
            self.console.print(f"[{colour}]{status}:[/] {escape(name)}: {escape(reason)}", highlight=False)

    def kernels_found(self, n: int) -> None:
        task = self.progress.tasks[self.kernels]
        self.progress.update(self.kernels, total=(task.total or 0) + n)

    def kernel_done(self, findings: int) -> None:
        self.findings += findings
        task = self.progress.tasks[self.kernels]
        if task.completed + 1 > (task.total or 0):  # a Dask answer: its kernels were never announced
            self.progress.update(self.kernels, total=task.completed + 1)
        self.progress.update(self.kernels, advance=1, description=f"kernels ({self.findings} findings)")


class LineEvents(MineEvents):
    """Without a terminal: one line per repository."""

    def __init__(self, console: Console):
        self.console = console
        self.started = time.perf_counter()
        self.kernels = self.findings = 0

    def source_done(self, name: str, status: str, reason: str = "") -> None:
        if status in ("failed", "limited"):
            self.console.print(f"{status}: {name}: {reason}", highlight=False, markup=False)
            return
        self.console.print(f"{status}: {name} ({self.kernels} kernels, {self.findings} findings so far, "
                           f"{time.perf_counter() - self.started:.1f} s)", highlight=False, markup=False)

    def kernel_done(self, findings: int) -> None:
        self.kernels += 1
        self.findings += findings


def summary_line(s: MineSummary) -> str:
    limited = f", {len(s.limited)} limited" if s.limited else ""
    parts = [f"{s.repositories} repositories ({s.done} done, {s.skipped} already stored, {len(s.failed)} failed"
             f"{limited})",
             f"{s.kernels} kernels stored ({s.analysed} analysed now)", f"{s.findings} findings"]
    if s.commits:
        parts.append(f"{s.commits} commits: {s.fixed} fixed, {s.introduced} introduced, {s.unchanged} unchanged")
    rate = f", {s.kernels / s.seconds * 60:.1f} kernels/min" if s.seconds > 0 and s.kernels else ""
    return "; ".join(parts) + f" in {s.seconds:.1f} s{rate}"


def _join(counts: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in counts.items()) or "none"


def render_status(st: dict[str, Any], console: Console) -> None:
    for label in ("repositories", "snapshots", "kernels", "findings", "commits"):
        if st[label] or label != "commits":
            console.print(f"{label + ':':14}{_join(st[label])}", highlight=False, markup=False)
    console.print(f"{'corpus:':14}{st['sources']} distinct source files", highlight=False, markup=False)
    last = st["last_run"]
    if last:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last["started"]))
        console.print(f"{'last run:':14}#{last['id']} {when}, {last['status']}, {last['backend']}, "
                      f"{last['analysed']} kernels analysed", highlight=False, markup=False)
    for source in st["pending"]:
        console.print(f"pending: {source}", highlight=False, markup=False)
    for source, reason in st["failed"]:
        console.print(f"failed: {source}: {reason}", highlight=False, markup=False)


def render_report(repos: list[dict[str, Any]], fixes: list[dict[str, Any]], console: Console) -> None:
    """One row per repository (kernels, findings by severity, history changes), then findings by kind, failures
    and the commits that fixed findings."""
    history = any(r["changes"] for r in repos)
    table = Table(title="simu mine report", title_justify="left")
    table.add_column("repository", no_wrap=True)
    table.add_column("status")
    for col in ("kernels", "analysed", *SEVERITIES, "seconds", *(("fixed", "introduced", "unchanged") if history
                                                                  else ())):
        table.add_column(col, justify="right")
    kinds: dict[str, int] = {}
    for r in repos:
        kernels = sum(r["kernels"].values())
        analysed = r["kernels"].get("analysed", 0) + r["kernels"].get("incomplete", 0)
        stars = json.loads(r["metadata"]).get("stars") if r["metadata"] else None
        name = r["repository"] + (f" ({stars} stars)" if stars is not None else "")
        cells = [escape(name), r["status"], str(kernels), str(analysed),
                 *(str(r["findings"].get(s, 0)) for s in SEVERITIES), f"{r['seconds']:.1f}"]
        if history:
            cells += [str(r["changes"].get(c, 0)) for c in ("fixed", "introduced", "unchanged")]
        table.add_row(*cells)
        for k, n in r["kinds"].items():
            kinds[k] = kinds.get(k, 0) + n
    console.print(table)
    console.print(f"findings by kind: {_join(dict(sorted(kinds.items(), key=lambda kv: -kv[1])))}",
                  highlight=False, markup=False)
    for r in repos:
        if r["reason"]:
            console.print(f"{r['status']}: {r['source']}: {r['reason']}", highlight=False, markup=False)
    if fixes:
        console.print("fixed by a commit:", highlight=False)
        for f in fixes:
            console.print(f"  {f['repository']} {f['sha'][:10]} \"{f['subject'][:60]}\": {f['kind']} on "
                          f"{f['variable'] or '?'} in {f['kernel']} ({f['file'] or ''}:{f['parent_line']} before)",
                          highlight=False, markup=False)


__all__ = ["LineEvents", "ProgressEvents", "render_report", "render_status", "summary_line"]
