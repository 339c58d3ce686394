"""Include folders discovered from the sources themselves, and each source's transitive header set.

For every ``#include "a/b.h"`` that does not resolve next to the including file or in a configured
folder, the project file whose path ends with ``a/b.h`` (closest to the includer) supplies the folder
to add.  The same resolution gives the headers a source uses (``simu scan --changed`` follows them).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from simu.frontend.discover import KERNEL_EXTENSIONS, IgnoreRules, walk

HEADER_EXTENSIONS = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl", ".clh", ".ipp", ".tcc", ".def"}

_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)


class HeaderIndex:
    """Project files by base name, to resolve includes that need an include folder.

    The project is walked on the first lookup only (most includes resolve without it)."""

    def __init__(self, root: Path, rules: IgnoreRules | None = None):
        self.root = root.resolve()
        self.rules = rules or IgnoreRules(self.root)
        self._by_name: dict[str, list[Path]] | None = None

    @property
    def by_name(self) -> dict[str, list[Path]]:
        if self._by_name is None:
            self._by_name = {}
            for f in walk(self.root, self.rules):
                suffix = f.suffix.lower()
                if suffix in HEADER_EXTENSIONS or suffix in KERNEL_EXTENSIONS or not suffix:
                    self._by_name.setdefault(f.name, []).append(f)
        return self._by_name

    def lookup(self, name: str, near: Path) -> tuple[Path, Path] | None:
        """(header file, include folder) for ``#include "name"`` from a file in folder ``near``."""
        parts = Path(name).parts
        if not parts or ".." in parts:
            return None
        candidates = [c for c in self.by_name.get(parts[-1], []) if c.parts[-len(parts):] == parts]
        if not candidates:
            return None

        def closeness(c: Path) -> tuple[int, str]:
            common = os.path.commonpath([str(c), str(near)])
            return (-len(Path(common).parts), str(c))

        best = min(candidates, key=closeness)
        folder = best
        for _ in parts:
            folder = folder.parent
        return best, folder


def includes_of(path: Path) -> list[tuple[str, bool]]:
    """``[(name, quoted)]`` for each ``#include`` line of a file (comments are not parsed away)."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    return [(m.group(2).strip(), m.group(1) == '"') for m in _INCLUDE.finditer(text)]


@dataclass
class IncludeInfo:
    headers: set[Path]  # project files the source includes, transitively
    folders: list[Path]  # discovered include folders to add (besides the configured ones)


def resolve_includes(source: Path, include_dirs: list[Path], index: HeaderIndex | None) -> IncludeInfo:
    """Follow a source's includes through the project: its header set and the folders it needs."""
    headers: set[Path] = set()
    folders: list[Path] = []
    todo = [source.resolve()]
    done: set[Path] = set()
    while todo:
        f = todo.pop()
        if f in done:
            continue
        done.add(f)
        for name, quoted in includes_of(f):
            if not quoted and _shim_header(name):
                continue
            found = _find_header(name, ([f.parent] if quoted else []) + include_dirs + folders)
            if found is None and index is not None:
                hit = index.lookup(name, f.parent)
                if hit is not None:
                    found = hit[0].resolve()
                    if hit[1] not in folders and hit[1] not in include_dirs:
                        folders.append(hit[1])
            if found is not None and (index is None or _inside(found, index.root)):
                headers.add(found)
                todo.append(found)
    return IncludeInfo(headers, folders)


def _find_header(name: str, search: list[Path]) -> Path | None:
    for d in search:
        cand = d / name
        if cand.is_file():
            return cand.resolve()
    return None


def _shim_header(name: str) -> bool:
    """Whether simu's own CUDA/OpenCL headers provide ``<name>`` (then the project is not searched)."""
    from simu.frontend.toolchain import INCLUDE_DIR

    return (INCLUDE_DIR / "cuda" / name).is_file() or (INCLUDE_DIR / "opencl" / name).is_file()


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


__all__ = ["HEADER_EXTENSIONS", "HeaderIndex", "IncludeInfo", "includes_of", "resolve_includes"]
