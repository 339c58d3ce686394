"""The user's policy over findings: severity overrides, then configured and inline suppressions, then
the findings of one problem grouped into one (:mod:`simu.report.grouping`).

Findings are frozen: the policy returns new ones and never changes what a check produced.
"""

from __future__ import annotations

import fnmatch
from dataclasses import replace
from pathlib import Path

from simu.config import Config
from simu.detect.finding import Finding
from simu.report.grouping import group_findings


class SourceLines:
    """Source lines read once per file (for inline `simu: ignore` comments)."""

    def __init__(self):
        self._cache: dict[str, list[str]] = {}

    def line(self, file: str, n: int) -> str:
        if file not in self._cache:
            try:
                self._cache[file] = Path(file).read_text(errors="replace").splitlines()
            except OSError:
                self._cache[file] = []
        lines = self._cache[file]
        return lines[n - 1] if 0 < n <= len(lines) else ""


def rel_path(file: str, root: Path) -> str:
    p = Path(file)
    if not p.is_absolute():
        return p.as_posix()
    try:
        return p.resolve().relative_to(root).as_posix()
    except (ValueError, OSError):
        return p.as_posix()


def _config_suppression(f: Finding, config: Config, root: Path) -> str | None:
    for s in config.suppress:
        if s.kind is not None and s.kind != f.kind:
            continue
        if s.kernel is not None and s.kernel != f.kernel and s.kernel != f.kernel.split("<")[0]:
            continue
        locs = [l for l in (f.first, f.second) if l is not None]
        if s.file is not None:
            base = config.root or root
            locs = [l for l in locs if fnmatch.fnmatch(rel_path(l.file, base), s.file)]
            if not locs:
                continue
        if s.line is not None and not any(l.line == s.line for l in locs):
            continue
        return "configuration" + (f": {s.reason}" if s.reason else "")
    return None


def apply_policy(findings: list[Finding], config: Config, root: Path,
                 lines: SourceLines | None = None) -> tuple[list[Finding], list[tuple[Finding, str]]]:
    """Severity overrides (``off`` drops a kind), then configured and inline suppressions (each site
    judged alone), then the findings of one problem grouped (``Finding.also``), in ``sort_key`` order."""
    lines = lines or SourceLines()
    kept: list[Finding] = []
    suppressed: list[tuple[Finding, str]] = []
    for f in findings:
        sev = config.severity.get(f.kind)
        if sev == "off":
            continue
        if sev is not None:
            f = replace(f, severity=sev)
        why = _config_suppression(f, config, root) or f.inline_suppression(lines.line)
        if why:
            suppressed.append((f, why))
        else:
            kept.append(f)
    return group_findings(kept), suppressed


