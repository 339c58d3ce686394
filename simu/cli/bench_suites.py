"""`simu bench --suite generated | fidelity | robustness`: run a suite of :mod:`simu.bench` over folders of
kernel files and print its table or JSON document."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from simu.cli.common import console, fail


def _files(roots: list[Path] | None) -> list[Path]:
    from simu.bench.generated import kernel_files

    if not roots:
        fail("give the kernel folders with --corpus DIR")
    try:
        files = kernel_files(roots)
    except ValueError as exc:
        fail(str(exc))
    if not files:
        fail(f"no kernel files (.cl, .cu) under {', '.join(map(str, roots))}")
    return files


def _dump(doc: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, default=str) + "\n")


def _wide():
    """The standard output console, at least 130 columns wide (a table of a dozen columns in a pipe)."""
    from rich.console import Console

    return Console(width=max(console.width, 130), highlight=False, no_color=not console.is_terminal)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def generated_suite(roots: list[Path] | None, fmt: str, search: bool, jobs: int, seed: int,
                    evaluations: int) -> None:
    """Detector precision and recall (simu.bench.generated)."""
    from simu.bench.generated import report_dict, run_accuracy

    files = _files(roots)
    scores = run_accuracy(files, search=search, jobs=jobs, seed=seed, evaluations=evaluations)
    doc = report_dict(scores, seed, evaluations, search)
    if fmt == "json":
        _dump(doc)
        return
    from rich.table import Table

    cols = ("files", "exact", "tp", "fn", "fp", "precision", "recall", "unexpected_warnings", "incomplete", "failed")
    heads = ("files", "exact", "TP", "FN", "FP", "precision", "recall", "warnings", "incomplete", "failed")
    for setting, summary in doc["summary"].items():
        title = ("launch lines as given" if setting == "given"
                 else f"launches searched ({evaluations} evaluations, seed {seed})")
        table = Table(title=f"detector accuracy over {doc['files']} files: {title}")
        table.add_column("by")
        table.add_column("group")
        for h in heads:
            table.add_column(h, justify="right")
        for group in ("by_mode", "by_plant", "by_kind"):
            for name, row in summary[group].items():
                table.add_row(group[3:], name, *[_cell(row, c) for c in cols])
            table.add_section()
        table.add_row("", "total", *[_cell(summary["total"], c) for c in cols])
        _wide().print(table)
    _triage_text(doc)


def _cell(row: dict[str, Any], col: str) -> str:
    if col not in row:
        return ""
    return _pct(row[col]) if col in ("precision", "recall") else str(row[col])


def _triage_text(doc: dict[str, Any]) -> None:
    for key, title, what in (("false_positives", "false positives", "false_positives"),
                             ("false_negatives", "false negatives", "missed"),
                             ("incomplete", "incomplete", "reason"), ("failed", "failed", "reason")):
        rows = doc[key]
        if not rows:
            continue
        console.print(f"[bold]{title}[/] ({len(rows)}):", highlight=False)
        for r in rows:
            said = r[what] if isinstance(r[what], str) else "; ".join(r[what])
            console.print(f"  {r['path']} [{r['setting']}]: {said}", highlight=False, markup=False)
            if key in ("false_positives", "false_negatives"):
                console.print(f"      expected: {'; '.join(r['expected']) or 'clean'}", highlight=False, markup=False)
                console.print(f"      reported: {'; '.join(r['reported']) or 'nothing'}", highlight=False,
                              markup=False)


def fidelity_suite(roots: list[Path] | None, fmt: str, jobs: int) -> None:
    """simu -O0 / -O1 against PoCL on clean OpenCL files (simu.bench.fidelity)."""
    from simu.bench.fidelity import report_dict, run_fidelity

    doc = report_dict(run_fidelity(_files(roots), jobs))
    if fmt == "json":
        _dump(doc)
        return
    s = doc["summary"]
    wrong = ", ".join(f"{k} {v}" for k, v in s["mismatch_by_wrong"].items()) or "none"
    console.print(f"fidelity over {s['files']} clean OpenCL files ({s['launches']} launches): {s['agree']} agree, "
                  f"{s['mismatch']} mismatch (wrong by majority: {wrong}), {s['nondeterministic']} nondeterministic, "
                  f"{s['skipped']} skipped, "
                  f"{s['error']} errors", highlight=False)
    for r in doc["results"]:
        if r["status"] == "agree":
            continue
        console.print(f"  {r['path']}: {r['status']}: {r['reason']}", highlight=False, markup=False)
        for m in r["mismatches"]:
            for d in m["differences"]:
                console.print(f"      launch {m['launch']}: {d['implementation']} {d['buffer']}[{d['index']}] = "
                              f"{d['got']!r}, {d['against']} says {d['expected']!r} ({d['elements']} elements differ)",
                              highlight=False, markup=False)


def robustness_suite(roots: list[Path] | None, fmt: str, jobs: int, budget: float | None) -> None:
    """`simu scan` over the folders in a child process: statuses and tracebacks (simu.bench.robustness)."""
    from simu.bench.robustness import report_dict, run_robustness

    if not roots:
        fail("give the kernel folders with --corpus DIR")
    missing = [r for r in roots if not r.exists()]
    if missing:
        fail(f"no such file or folder: {missing[0]}")
    r = run_robustness(roots, budget, jobs)
    if fmt == "json":
        _dump(report_dict(r))
        return
    statuses = ", ".join(f"{k} {v}" for k, v in r.by_status.items()) or "none"
    files = ", ".join(f"{k} {v}" for k, v in r.file_status.items()) or "none"
    console.print(f"{r.figure} (kernels: {statuses}; files: {files})", highlight=False)
    if r.error:
        console.print(f"  the scan failed: {r.error}", highlight=False, markup=False)
    for c in r.crashes:
        console.print(f"  {c['path']} {c['kernel']}: {c['reason']} ({c['where']})", highlight=False, markup=False)
    for k in r.not_analysed:
        if not any(c["path"] == k["path"] and c["kernel"] == k["kernel"] for c in r.crashes):
            console.print(f"  {k['path']} {k['kernel']}: {k['status']}: {k['reason']}", highlight=False, markup=False)
