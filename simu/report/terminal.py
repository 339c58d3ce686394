"""Compiler-diagnostic style terminal output with both source lines."""

from __future__ import annotations

import os

from rich.console import Console
from rich.markup import escape

from simu.detect.finding import Finding, SourceLocation
from simu.report.grouping import line_ranges, other_lines

SHOWN_RUNS = 16  # runs of grouped lines a finding lists in text (JSON and SARIF list every site)

STYLE = {"error": "bold red", "warning": "bold yellow", "performance": "bold magenta", "info": "bold cyan"}


def display_path(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if not rel.startswith("..") else path


def _loc(loc: SourceLocation | None) -> str:
    return f"{display_path(loc.file)}:{loc.line}:{loc.column}" if loc else "<unknown>"


def render_finding(console: Console, f: Finding) -> None:
    head = f"[bold]{escape(_loc(f.first))}:[/] [{STYLE[f.severity]}]{f.severity}:[/] {escape(f.message)}"
    head += f" [dim]\\[{f.kind}][/]"
    console.print(head, highlight=False)
    for _label, loc in (("", f.first), ("", f.second)):
        if loc is None or (loc is f.second and f.first and (loc.line, loc.file) == (f.first.line, f.first.file)):
            continue
        prefix = "  " if loc is f.first else f"  {escape(_loc(loc))}: note: other access\n  "
        console.print(f"{prefix}{loc.line:>5} | {escape(loc.text)}", highlight=False)
        console.print(f"        | {' ' * max(loc.column - 1 - _indent(loc), 0)}[green]^[/]", highlight=False)
    if f.also:
        console.print(f"  [dim]{escape(grouped_text(f))}[/]", highlight=False)
    if f.launch is not None:
        L = f.launch
        scal = " ".join(f"{k}={v}" for k, v in L.scalars.items())
        origin = f"; {escape(L.origin)}" if L.origin else ""
        console.print(f"  [dim]launch: grid={_dim(L.grid)} block={_dim(L.block)} {escape(scal)}"
                      f" (seen {f.count}x{origin})[/]", highlight=False)


def grouped_text(f: Finding, shown: int = SHOWN_RUNS) -> str:
    """The line a grouped finding adds: how many other sites, and where -- line runs, or the line pairs of
    two-access sites (races) -- at most ``shown`` of them."""
    home = f.first.file if f.first is not None else ""

    def at(loc) -> str:
        return str(loc.line) if loc.file == home else f"{display_path(loc.file)}:{loc.line}"

    what = f" of '{f.variable}'" if f.variable else ""
    head = f"and {len(f.also)} more site{'s' if len(f.also) != 1 else ''}{what} with the same problem"
    if any(s.second is not None for s in f.also):
        items = list(dict.fromkeys("/".join(at(loc) for loc in s.locations) for s in f.also))
        label, unit = ("line pair" if len(items) == 1 else "line pairs"), "pairs"
    else:
        lines = other_lines(f)
        items = []
        for file in dict.fromkeys(fl[0] for fl in lines):
            nums = line_ranges([n for fl, n in lines if fl == file])
            items += nums if file == home else [f"{display_path(file)}:{r}" for r in nums]
        label, unit = ("line" if len(lines) == 1 else "lines"), "runs"
    if not items:
        return head + " (on these lines)"
    more = ""
    if len(items) > shown:
        more = f", ... ({len(items) - shown} more {unit}; --format json or sarif lists every site)"
    return f"{head}, {label} {', '.join(items[:shown])}{more}"


def _indent(loc: SourceLocation) -> int:
    """Columns stripped from the source text (it is shown without leading blanks)."""
    from simu.detect.context import file_lines

    lines = file_lines(loc.file)
    if 0 < loc.line <= len(lines):
        raw = lines[loc.line - 1]
        return len(raw) - len(raw.lstrip())
    return 0


def _dim(t) -> str:
    return ",".join(str(x) for x in t)


def render(console: Console, findings: list[Finding]) -> None:
    for f in findings:
        render_finding(console, f)
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    if findings:
        names = {"error": ("error", "errors"), "warning": ("warning", "warnings"),
                 "performance": ("performance finding", "performance findings"), "info": ("note", "notes")}
        summary = ", ".join(f"{n} {names[sev][n != 1]}" for sev, n in counts.items())
        console.print(f"[bold]{summary}[/]", highlight=False)
    else:
        console.print("[green]no findings[/]")
