"""Which sources a scan takes: the paths walked with the ignore rules, narrowed by ``--changed``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simu.frontend.discover import IgnoreRules, find_kernel_sources
from simu.frontend.includes import HeaderIndex
from simu.scan.changes import GitError, changed_sources, staged_files
from simu.scan.options import ScanError, ScanOptions


@dataclass
class Selection:
    sources: list[Path]
    index: HeaderIndex | None  # project files by name, for include discovery (None: no discovery)
    note: str = ""  # why nothing was selected (--changed with nothing staged)


def select_sources(options: ScanOptions) -> Selection:
    """The kernel sources to scan, the header index (shared by include discovery) and a note."""
    rules = IgnoreRules(options.root, options.exclude)
    rules.add_excludes(options.config_base or options.root, options.config_exclude)
    try:
        sources = find_kernel_sources(options.paths, rules)
    except FileNotFoundError as exc:
        raise ScanError(f"no such file or directory: {exc}") from None
    index = HeaderIndex(options.root, rules) if options.auto_include or options.changed else None
    selection = Selection(sources, index)
    if options.changed:
        try:
            staged = staged_files(options.root if options.root.is_dir() else Path.cwd())
        except GitError as exc:
            raise ScanError(f"--changed: {exc}") from None
        selection.sources = changed_sources(sources, staged, options.include, index)
        if not selection.sources:
            selection.note = "no staged kernel file or header that a kernel includes"
    return selection
