"""A project on disk: its root, its kernel sources (honouring .gitignore and excludes), its headers.

Include directories are discovered from the sources themselves: for every ``#include "a/b.h"``
that does not resolve next to the including file or in a configured directory, the project file
whose path ends with ``a/b.h`` (closest to the includer) supplies the folder to add.  The same
resolution gives each source's transitive header set, used by ``simu scan --changed``.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pathspec

KERNEL_EXTENSIONS = {".cu", ".cl"}
HEADER_EXTENSIONS = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl", ".clh", ".ipp", ".tcc", ".def"}
SKIP_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "node_modules", ".simu-cache", ".tox",
             ".mypy_cache", ".pytest_cache", ".ci-venv"}

_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)


def find_root(paths: list[Path], config_root: Path | None = None) -> Path:
    """The project root: the enclosing git repository, else the configuration's folder, else the scanned
    folder (the common folder of several paths).  Report paths (SARIF URIs) are relative to it."""
    first = paths[0].resolve() if paths else Path.cwd().resolve()
    start = first if first.is_dir() else first.parent
    for d in (start, *start.parents):
        if (d / ".git").exists():
            return d
    if config_root is not None:
        return config_root
    if len(paths) > 1:
        common = Path(os.path.commonpath([str(p.resolve()) for p in paths]))
        return common if common.is_dir() else common.parent
    return start


class IgnoreRules:
    """``.gitignore`` files of the tree (read lazily, per folder) plus ``--exclude`` globs.

    Globs use .gitignore syntax against the path relative to their base folder (the project root for
    ``--exclude``, the configuration's folder for its ``exclude``): ``third_party/``, ``*_test.cu``,
    ``/build``.  Deeper ``.gitignore`` files take precedence, as in git.
    """

    def __init__(self, root: Path, excludes: list[str] | tuple[str, ...] = (), gitignore: bool = True):
        self.root = root.resolve()
        self.exclude_sets: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
        self.add_excludes(self.root, excludes)
        self.gitignore = gitignore
        self._specs: dict[Path, pathspec.GitIgnoreSpec | None] = {}

    def add_excludes(self, base: Path, patterns: list[str] | tuple[str, ...]) -> None:
        """Exclude globs anchored at ``base`` (the configuration's folder for its ``exclude`` list)."""
        if patterns:
            self.exclude_sets.append((base.resolve(), pathspec.GitIgnoreSpec.from_lines(list(patterns))))

    def _spec(self, folder: Path) -> pathspec.GitIgnoreSpec | None:
        if folder not in self._specs:
            gi = folder / ".gitignore"
            spec = None
            if gi.is_file():
                try:
                    spec = pathspec.GitIgnoreSpec.from_lines(gi.read_text(errors="replace").splitlines())
                except (OSError, ValueError):
                    spec = None
            self._specs[folder] = spec
        return self._specs[folder]

    def _rel(self, path: Path) -> str | None:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None

    def excluded(self, path: Path, is_dir: bool = False) -> bool:
        """Whether an exclude glob matches the path (relative to the glob's base folder)."""
        path = path.resolve()
        for base, spec in self.exclude_sets:
            try:
                rel = path.relative_to(base).as_posix()
            except ValueError:
                continue
            if rel != "." and spec.match_file(rel + "/" if is_dir else rel):
                return True
        return False

    def git_ignored(self, path: Path, is_dir: bool = False) -> bool:
        """Whether a .gitignore between the root and the path ignores it (the path itself only)."""
        if not self.gitignore:
            return False
        path = path.resolve()
        rel = self._rel(path)
        if rel is None or rel == ".":
            return False
        folders = [self.root]
        parts = Path(rel).parts
        for i in range(len(parts) - 1):
            folders.append(self.root.joinpath(*parts[: i + 1]))
        for folder in reversed(folders):  # deepest .gitignore decides first
            spec = self._spec(folder)
            if spec is None:
                continue
            sub = path.relative_to(folder).as_posix()
            res = spec.check_file(sub + "/" if is_dir else sub)
            if res.include is not None:
                return bool(res.include)
        return False

    def ignored(self, path: Path, is_dir: bool = False) -> bool:
        return self.excluded(path, is_dir) or self.git_ignored(path, is_dir)


def walk(top: Path, rules: IgnoreRules) -> list[Path]:
    """Every non-ignored file under ``top`` (sorted), pruning ignored folders."""
    out: list[Path] = []
    top = top.resolve()
    for dirpath, dirnames, filenames in os.walk(top):
        d = Path(dirpath)
        dirnames[:] = sorted(n for n in dirnames if n not in SKIP_DIRS and not rules.ignored(d / n, is_dir=True))
        for n in sorted(filenames):
            f = d / n
            if not rules.ignored(f):
                out.append(f)
    return out


def find_kernel_sources(paths: list[Path], rules: IgnoreRules) -> list[Path]:
    """Kernel translation units (``.cu``, ``.cl``) under the paths.

    A file named on the command line is taken whatever its extension (``.ll`` too) unless an
    ``--exclude`` glob matches it; folders are walked honouring ``.gitignore`` and excludes.
    """
    seen: set[Path] = set()
    out: list[Path] = []
    for p in paths:
        if p.is_file():
            found = [] if rules.excluded(p) else [p.resolve()]
        elif p.is_dir():
            found = [f for f in walk(p, rules) if f.suffix.lower() in KERNEL_EXTENSIONS]
        else:
            raise FileNotFoundError(str(p))
        for f in found:
            if f not in seen:
                seen.add(f)
                out.append(f)
    return out


class HeaderIndex:
    """Project files by base name, to resolve includes that need an include directory.

    The project is walked on the first lookup only (most includes resolve without it)."""

    def __init__(self, root: Path, rules: IgnoreRules | None = None):
        self.root = root.resolve()
        self.rules = rules or IgnoreRules(self.root)
        self._by_name: dict[str, list[Path]] | None = None

    @staticmethod
    def build(root: Path, rules: IgnoreRules) -> "HeaderIndex":
        return HeaderIndex(root, rules)

    @property
    def by_name(self) -> dict[str, list[Path]]:
        if self._by_name is None:
            self._by_name = {}
            for f in walk(self.root, self.rules):
                if f.suffix.lower() in HEADER_EXTENSIONS or f.suffix.lower() in KERNEL_EXTENSIONS or not f.suffix:
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
    source = source.resolve()
    headers: set[Path] = set()
    folders: list[Path] = []
    todo = [source]
    done: set[Path] = set()
    while todo:
        f = todo.pop()
        if f in done:
            continue
        done.add(f)
        for name, quoted in includes_of(f):
            if not quoted and _shim_header(name):
                continue
            found = None
            search = ([f.parent] if quoted else []) + include_dirs + folders
            for d in search:
                cand = d / name
                if cand.is_file():
                    found = cand.resolve()
                    break
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


# ---------------------------------------------------------------------------------------------------------
# git


class GitError(Exception):
    pass


def git_toplevel(cwd: Path) -> Path:
    proc = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise GitError(f"not inside a git repository: {cwd}")
    return Path(proc.stdout.strip()).resolve()


def staged_files(cwd: Path) -> list[Path]:
    """Files added, copied, modified or renamed in the git index (absolute paths)."""
    top = git_toplevel(cwd)
    proc = subprocess.run(["git", "diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z"],
                          cwd=top, capture_output=True, text=True)
    if proc.returncode != 0:
        raise GitError(proc.stderr.strip() or "git diff --cached failed")
    return [(top / n).resolve() for n in proc.stdout.split("\0") if n]


def changed_sources(sources: list[Path], changed: list[Path], include_dirs: list[Path],
                    index: HeaderIndex | None) -> list[Path]:
    """The sources that changed or (transitively) include a changed file."""
    changed_set = {c.resolve() for c in changed}
    out = []
    for s in sources:
        if s.resolve() in changed_set:
            out.append(s)
        elif resolve_includes(s, include_dirs, index).headers & changed_set:
            out.append(s)
    return out
