"""Include folders discovered from the sources themselves, and each source's transitive header set.

An ``#include`` resolves the way clang will resolve it: next to the including file (quoted form), then in
the configured ``-I`` folders, then in simu's shim headers and the system's include folders.  Only a
name that none of those provide is looked up in the project: the project file whose path ends with the
name, *nearest to the includer*, supplies a folder that is passed with ``-idirafter`` (searched after
the shim and the system, so a project's own ``unistd.h`` for Windows never shadows the real one).
Discovered folders are ordered nearest to the source first, so that two sibling benchmarks with a
``helper.h`` each compile against their own.

A name found nowhere whose CMake template (``NAME.in``, ``NAME.cmake``) is in the project gets a stand-in
generated from the template (:mod:`simu.frontend.generated`); the others are listed as ``missing``.
The same resolution gives the headers a source uses (``simu scan --changed`` follows them, and a ``.cu``
file that another scanned file includes is analysed through its includer).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from simu.frontend.discover import KERNEL_EXTENSIONS, IgnoreRules, walk
from simu.frontend.generated import TEMPLATE_SUFFIXES, generate_stand_in
from simu.frontend.sysheaders import find_header as _find_header
from simu.frontend.sysheaders import provided_outside, system_include_dirs

HEADER_EXTENSIONS = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl", ".clh", ".ipp", ".tcc", ".def"}
BUILD_FILES = {"CMakeLists.txt", "configure.ac", "configure.in", "meson.build", "Makefile.am"}

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
                if (suffix in HEADER_EXTENSIONS or suffix in KERNEL_EXTENSIONS or not suffix
                        or suffix in TEMPLATE_SUFFIXES or f.name in BUILD_FILES):
                    self._by_name.setdefault(f.name, []).append(f)
        return self._by_name

    def lookup(self, name: str, near: Path) -> tuple[Path, Path] | None:
        """(header file, include folder) for ``#include "name"`` from a file in folder ``near``: the
        project file ending in ``name`` nearest to ``near`` (see :func:`closeness`)."""
        parts = Path(name).parts
        if not parts or ".." in parts:
            return None
        candidates = [c for c in self.by_name.get(parts[-1], []) if c.parts[-len(parts):] == parts]
        if not candidates:
            return None
        best = min(candidates, key=lambda c: closeness(c.parent, near))
        folder = best
        for _ in parts:
            folder = folder.parent
        return best, folder

    def build_files(self) -> list[Path]:
        return [f for n in sorted(BUILD_FILES) for f in self.by_name.get(n, [])]


def closeness(folder: Path, near: Path) -> tuple[int, int, str]:
    """Sort key, smaller is nearer: the deepest common ancestor with ``near`` first, then the fewest
    folders to walk from ``near`` up to that ancestor and down to ``folder``, then the path."""
    common = Path(os.path.commonpath([str(folder), str(near)]))
    depth = len(common.parts)
    return (-depth, len(folder.parts) + len(near.parts) - 2 * depth, str(folder))


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
    folders: list[Path]  # discovered include folders to add (-idirafter, nearest to the source first)
    missing: list[str] = field(default_factory=list)  # names found nowhere (no template either)
    generated: dict[str, Path] = field(default_factory=dict)  # name -> the template a stand-in was made from


def resolve_includes(source: Path, include_dirs: list[Path], index: HeaderIndex | None,
                     language: str = "cuda") -> IncludeInfo:
    """Follow a source's includes through the project: its header set, the folders it needs, the names
    found nowhere."""
    source = source.resolve()
    info = IncludeInfo(set(), [])
    todo = [source]
    done: set[Path] = set()
    while todo:
        f = todo.pop()
        if f in done:
            continue
        done.add(f)
        for name, quoted in includes_of(f):
            found = _find_header(name, ([f.parent] if quoted else []) + include_dirs)
            if found is None and provided_outside(name, language):
                continue
            if found is None and index is not None:
                found = _discover(name, f.parent, index, info)
            if found is None:
                if name not in info.missing and name not in info.generated:
                    info.missing.append(name)
                continue
            if index is None or _inside(found, index.root):
                info.headers.add(found)
                todo.append(found)
    info.folders.sort(key=lambda d: closeness(d, source.parent))
    return info


def _discover(name: str, near: Path, index: HeaderIndex, info: IncludeInfo) -> Path | None:
    """The project file for ``name`` nearest to ``near`` (its folder joins ``info.folders``), else a stand-in
    generated from a CMake template of the project."""
    hit = index.lookup(name, near)
    if hit is not None:
        if hit[1] not in info.folders:
            info.folders.append(hit[1])
        return hit[0].resolve()
    for suffix in TEMPLATE_SUFFIXES:
        template = index.lookup(name + suffix, near)
        if template is not None:
            folder = generate_stand_in(name, template[0])
            info.generated[name] = template[0]
            if folder not in info.folders:
                info.folders.append(folder)
            return None  # a stand-in is not a project file (no header-set entry)
    return None


def includers_of(target: Path, index: HeaderIndex, include_dirs: list[Path]) -> list[Path]:
    """The kernel sources of the project that include ``target`` (directly or through headers)."""
    target = target.resolve()
    out = []
    for files in index.by_name.values():
        for f in files:
            if f == target or f.suffix.lower() not in KERNEL_EXTENSIONS:
                continue
            try:
                if target.name not in f.read_text(errors="replace"):
                    continue
            except OSError:
                continue
            if target in resolve_includes(f, include_dirs, index).headers:
                out.append(f)
    return sorted(out)


_KERNEL = re.compile(r"\b__global__\b")


def holds_no_kernel(source: Path, include_dirs: list[Path]) -> bool:
    """Whether neither a CUDA source nor a project header it includes (found beside its includer or in
    ``include_dirs``) defines a kernel: a host-only ``.cu`` file (a framework's bindings) that does not compile
    loses no kernel.  A file holding NUL bytes is no source text: never."""
    try:
        if b"\0" in source.read_bytes():
            return False  # not source text at all: its compile error stands
        files = [source, *resolve_includes(source, include_dirs, None).headers]
        return not any(_KERNEL.search(f.read_text(errors="replace")) for f in files)
    except OSError:
        return False


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


_NOT_FOUND = re.compile(r"'([^']+)' file not found")
# headers of the CUDA toolkit that simu's shim leaves out (tensor-core fragments, asynchronous copies)
TOOLKIT_ONLY = frozenset({"mma.h", "cuda_pipeline.h", "cuda_pipeline_primitives.h", "cuda_awbarrier.h",
                          "cuda_awbarrier_primitives.h", "crt/mma.h", "cuda/pipeline", "cuda/barrier"})
_GENERATED_NAME = re.compile(r"(config|version|export|generated|autogen|features|build)[\w.-]*\.(h|hh|hpp|hxx)$", re.I)


def explain_missing(first: str, info: IncludeInfo | None, index: HeaderIndex | None) -> str:
    """clang's "'config.h' file not found" line, reworded when the header looks generated by the build
    (its name, or a build file of the project that mentions it)."""
    m = _NOT_FOUND.search(first)
    if m is None or info is None or m.group(1) not in info.missing:
        return first
    name = m.group(1)
    base = Path(name).name
    if name in TOOLKIT_ONLY:
        return first.replace(m.group(0), f"'{name}' not found: a CUDA toolkit header simu's shim does not "
                                         f"provide; give a toolkit with --cuda-path")
    mention = next((b for b in (index.build_files() if index else []) if _mentions(b, base)), None)
    if mention is None and not _GENERATED_NAME.search(base):
        return first
    why = f"{_rel(mention, index.root)} mentions it" if mention is not None and index else "by its name"
    return first.replace(m.group(0), f"'{name}' not found: it looks generated by the build ({why}) and no "
                                     f"template ({base}.in, {base}.cmake) is in the project; give its folder with "
                                     f"-I or use the build's compile_commands.json (--compile-commands)")


def _mentions(path: Path, name: str) -> bool:
    """Whether the build file names ``name`` as a file (``rocwmma.hpp`` does not name ``mma.h``)."""
    try:
        return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", path.read_text(errors="replace")) is not None
    except OSError:
        return False


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


__all__ = ["HEADER_EXTENSIONS", "HeaderIndex", "IncludeInfo", "closeness", "explain_missing", "includers_of",
           "includes_of", "provided_outside", "resolve_includes", "system_include_dirs"]
