"""Which sources a scan takes: the paths walked with the ignore rules, narrowed by ``--changed``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from simu.frontend.discover import IgnoreRules, find_kernel_sources
from simu.frontend.includes import HeaderIndex, IncludeInfo
from simu.scan.changes import GitError, changed_candidates, changed_sources, staged_files
from simu.scan.options import ScanError, ScanOptions
from simu.scan.units import kernel_headers, plan_units


@dataclass
class Selection:
    sources: list[Path]
    index: HeaderIndex | None  # project files by name, for include discovery (None: no discovery)
    note: str = ""  # why nothing was selected (--changed with nothing staged)
    included_by: dict[Path, Path] = field(default_factory=dict)  # fragments: analysed through their includer
    infos: dict[Path, IncludeInfo] = field(default_factory=dict)  # include resolution of each source
    fallback: dict[Path, list[Path]] = field(default_factory=dict)  # kernel header -> compiled includers
    rules: IgnoreRules | None = None  # the walk's rules (its walks are kept: the host index reuses them)


def select_sources(options: ScanOptions) -> Selection:
    """The kernel sources to scan (fragments that another scanned file includes too, marked; headers that
    define kernels and that nothing scanned includes), the header index (shared by include discovery)
    and a note.  With ``--changed``, only the sources that changed or include a changed file are planned
    (:func:`changed_candidates`): the cost follows the change, not the project."""
    rules = IgnoreRules(options.root, options.exclude)
    rules.add_excludes(options.config_base or options.root, options.config_exclude)
    try:
        sources = find_kernel_sources(options.paths, rules)
    except FileNotFoundError as exc:
        raise ScanError(f"no such file or directory: {exc}") from None
    index = HeaderIndex(options.root, rules) if options.auto_include or options.changed else None
    staged: list[Path] = []
    if options.changed:
        try:
            staged = staged_files(options.root if options.root.is_dir() else Path.cwd())
        except GitError as exc:
            raise ScanError(f"--changed: {exc}") from None
        maybe = changed_candidates(staged, index or HeaderIndex(options.root, rules))
        sources = [f for f in sources if f in maybe]
        headers = kernel_headers(options.paths, rules, among=maybe)
        kept = set(changed_sources([*sources, *headers], staged, options.include, index))
        sources, headers = [f for f in sources if f in kept], [f for f in headers if f in kept]
    else:
        headers = kernel_headers(options.paths, rules)
    plan = plan_units(sources, headers, options.include, index, options.auto_include)
    units = set(plan.units) | set(plan.included_by)
    ordered = [f for f in dict.fromkeys([*sources, *headers]) if f in units]
    selection = Selection(ordered, index, included_by=plan.included_by, infos=plan.infos,
                          fallback=plan.fallback, rules=rules)
    if options.changed and not selection.sources:
        selection.note = "no staged kernel file or header that a kernel includes"
    return selection
