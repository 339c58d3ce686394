"""Terminal output of `simu scan`: findings grouped by file (compiler-diagnostic style), failures, a
summary table per file and kernel, and a progress bar while the scan runs."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from simu.errors import SourcePoint
from simu.report.grouping import site_count
from simu.report.policy import rel_path
from simu.report.terminal import render_finding

STATUS_STYLE = {"analysed": "green", "incomplete": "yellow", "unsupported": "magenta", "not-launchable": "red",
                "error": "red",
                "timeout": "red", "interrupted": "dim", "pending": "dim", "compile-error": "red", "ok": "green"}


def reason_text(status: str, reason: str, where: SourcePoint | None) -> str:
    """The reason without what the line around it already says: its position and its status word."""
    text = reason.strip()
    if where is not None:
        text = text.removesuffix(f" at {where}")
        # a diagnostic line names its own position first ("file:line:col: error: ...")
        head, sep, rest = text.partition(f":{where.line}:")
        if sep and not any(c.isspace() for c in head):
            text = rest.lstrip("0123456789:").strip()
    for word in (status, "unsupported", "error"):
        text = text.removeprefix(f"{word}: ")
    return text


def short_reason(status: str, reason: str, where: SourcePoint | None) -> str:
    """One line for the summary table: 'line N: what' when the position is known."""
    text = reason_text(status, reason, where)
    first = text.splitlines()[0] if text else ""
    return f"line {where.line}: {first}" if where is not None else first


def _count_text(findings) -> str:
    c = Counter(f.kind for f in findings)
    text = ", ".join(kind if n == 1 else f"{kind} ×{n}" for kind, n in sorted(c.items())) if c else "-"
    sites = site_count(findings)
    return f"{text} ({sites} sites)" if sites != len(findings) else text


def render_scan(console: Console, result, debug: bool = False) -> None:
    """Findings by file, then the summary table and a closing line."""
    for fr in result.files:
        problems = fr.status not in ("ok", "pending", "interrupted") or any(
            k.findings or k.status not in ("analysed", "interrupted") for k in fr.kernels)
        if not problems:
            continue
        console.rule(f"[bold]{escape(fr.rel)}", align="left", style="dim")
        if fr.status == "compile-error":
            console.print(f"[bold red]does not compile:[/] {escape(fr.first)}", highlight=False)
            if debug and fr.diagnostics:
                console.print(escape(fr.diagnostics), highlight=False)
        elif fr.status not in ("ok", "pending", "interrupted"):
            console.print(f"[bold]{escape(fr.rel)}:[/] [bold red]{fr.status}:[/] {escape(fr.first)}", highlight=False)
            if debug and fr.traceback:
                console.print(escape(fr.traceback), highlight=False)
        for k in fr.kernels:
            for f in k.findings:
                render_finding(console, f)
            if k.status not in ("analysed", "interrupted"):
                style = STATUS_STYLE.get(k.status, "red")
                pos = k.where or SourcePoint(str(fr.path), k.line)
                where = str(SourcePoint(rel_path(pos.file, result.root), pos.line, pos.column))
                what = reason_text(k.status, k.reason, k.where)
                console.print(f"[bold]{escape(where)}:[/] [{style}]{k.status}:[/] kernel [bold]{escape(k.name)}[/] "
                              f"not fully analysed: {escape(what)}", highlight=False)
                if debug and k.traceback:
                    console.print(escape(k.traceback), highlight=False)
    if result.files:
        console.print(summary_table(result))
    for w in result.warnings:
        console.print(f"[yellow]warning:[/] {escape(w)}", highlight=False)
    console.print(closing_line(result), highlight=False)


def summary_table(result) -> Table:
    what = "check" if type(result.options).__name__ == "CheckOptions" else "scan"
    table = Table(title=f"simu {what} of {escape(str(result.root))}", title_justify="left", show_lines=False)
    for col in ("file", "kernel", "status", "findings", "note"):
        table.add_column(col, overflow="fold")
    unreached = 0
    for fr in result.files:
        if fr.status in ("interrupted", "pending") and not fr.kernels:
            unreached += 1
            continue
        if fr.included_by:
            table.add_row(escape(fr.rel), "-", "[dim]included[/]", "-",
                          escape(f"included by {fr.included_by}: its kernels are analysed there"))
            continue
        if fr.status == "ok" and not fr.kernels and fr.analysed_through:
            through = "; ".join(f"{k}: analysed through {t}" for k, t in fr.analysed_through.items())
            table.add_row(escape(fr.rel), "-", "[dim]reached[/]", "-", escape(through))
            continue
        if fr.status not in ("ok", "pending") or not fr.kernels:
            status = {"ok": "no kernels", "compile-error": "compile error"}.get(fr.status, fr.status)
            table.add_row(escape(fr.rel), "-", f"[{STATUS_STYLE.get(fr.status, 'dim')}]{status}[/]", "-",
                          escape(short_reason(fr.status, fr.first, fr.where)))
            continue
        for k in fr.kernels:
            note = short_reason(k.status, k.reason, k.where) if k.status != "analysed" else k.reason
            if k.defined_in:
                reach = f"; also reached through {', '.join(k.also_through)}" if k.also_through else ""
                note = (note + "; " if note else "") + f"defined in {k.defined_in}{reach}"
            if k.cached:
                note = (note + "; " if note else "") + "cached"
            if k.suppressed:
                note = (note + "; " if note else "") + f"{len(k.suppressed)} suppressed"
            table.add_row(escape(fr.rel), escape(k.name), f"[{STATUS_STYLE.get(k.status, 'red')}]{k.status}[/]",
                          _count_text(k.findings), escape(note))
    if unreached:
        table.add_row(f"({unreached} more file{'s' if unreached != 1 else ''})", "-", "[dim]not reached[/]", "-", "")
    return table


def closing_line(result) -> str:
    names = {"error": ("error", "errors"), "warning": ("warning", "warnings"),
             "performance": ("performance finding", "performance findings"), "info": ("note", "notes")}
    sev = Counter(f.severity for f in result.findings)
    parts = [f"{n} {names.get(s, (s, s))[n != 1]}" for s, n in sorted(sev.items(), key=lambda kv: -_rank(kv[0]))]
    head = ", ".join(parts) if parts else "[green]no findings[/]"
    kernels = [k for _, k in result.kernels()]
    status = Counter(k.status for k in kernels)
    files_failed = sum(1 for f in result.files if f.status in ("compile-error", "error", "timeout"))
    unreached = sum(1 for f in result.files if f.status in ("interrupted", "pending"))
    bits = [f"{len(kernels)} kernel{'s' if len(kernels) != 1 else ''} in {len(result.files)} "
            f"file{'s' if len(result.files) != 1 else ''}"]
    findings = result.findings
    grouped = [f for f in findings if f.also]
    if grouped:
        bits.insert(0, f"for {site_count(findings)} sites: {len(grouped)} finding{'s' if len(grouped) != 1 else ''} "
                       f"group the {site_count(grouped)} sites of one problem each (one kernel, kind, variable "
                       "and assumption)")
    for s in ("incomplete", "unsupported", "not-launchable", "error", "timeout", "interrupted"):
        if status[s]:
            bits.append(f"{status[s]} {s}")
    if files_failed:
        bits.append(f"{files_failed} file{'s' if files_failed != 1 else ''} failed to compile")
    if unreached:
        bits.append(f"{unreached} file{'s' if unreached != 1 else ''} not reached")
    if result.stats.cache_hits:
        bits.append(f"{result.stats.cache_hits} from cache")
    if result.suppressed_count:
        bits.append(f"{result.suppressed_count} suppressed")
    line = f"[bold]{head}[/] ({'; '.join(bits)}) in {result.stats.seconds:.1f} s"
    if result.note:
        line = f"{result.note}\n{line}"
    if result.interrupted:
        line = "[yellow]interrupted: partial results[/]\n" + line
    return line


def _rank(sev: str) -> int:
    from simu.codes import SEVERITY_RANK

    return SEVERITY_RANK.get(sev, 0)


class ProgressEvents:
    """Shows files compiled, kernels analysed and findings so far on a rich progress bar."""

    def __init__(self, console: Console):
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TextColumn("{task.fields[extra]}"), TimeElapsedColumn(),
                                 console=console, transient=True)
        self.files = self.progress.add_task("files  ", total=None, extra="")
        self.kernels = self.progress.add_task("kernels", total=0, extra="")
        self.n_findings = 0
        self.n_failed = 0
        self.n_kernels = 0

    def __enter__(self):
        self.progress.start()
        return self

    def __exit__(self, *exc):
        self.progress.stop()
        return False

    def files_found(self, n: int) -> None:
        self.progress.update(self.files, total=n)

    def file_done(self, f) -> None:
        if f.status not in ("ok", "pending"):
            self.n_failed += 1
        self.progress.update(self.files, advance=1, extra=f"{self.n_failed} failed" if self.n_failed else "")

    def kernels_found(self, n: int) -> None:
        self.n_kernels += n
        self.progress.update(self.kernels, total=self.n_kernels)

    def kernel_done(self, f, k) -> None:
        self.n_findings += len(k.findings)
        self.progress.update(self.kernels, advance=1, extra=f"{self.n_findings} findings")
        if k.findings or k.status not in ("analysed", "incomplete"):
            what = _count_text(k.findings) if k.findings else k.status
            self.progress.console.print(f"  [dim]{escape(f.rel)}[/] {escape(k.name)}: {escape(what)}", highlight=False)
