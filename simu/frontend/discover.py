"""Finding kernel sources on disk: the one walk every command uses (`simu scan`, `simu kernels`).

Folders are walked skipping :data:`SKIP_DIRS` and whatever the tree's ``.gitignore`` files ignore, plus
``--exclude`` globs; a file named explicitly is always taken unless an exclude glob matches it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pathspec

from simu.frontend.compile import CUDA_EXTENSIONS, IR_EXTENSIONS, OPENCL_EXTENSIONS

KERNEL_EXTENSIONS = {".cu", ".hip"} | OPENCL_EXTENSIONS  # translation units `simu scan` takes in folders
SOURCE_EXTENSIONS = KERNEL_EXTENSIONS | IR_EXTENSIONS  # what `simu kernels` lists in folders
# folders never walked, whatever .gitignore says (tool and environment folders, not build output)
SKIP_DIRS = frozenset({".git", ".hg", ".svn", ".venv", "venv", ".ci-venv", "__pycache__", "node_modules",
                       ".simu-cache", ".tox", ".mypy_cache", ".pytest_cache"})


def enclosing_repository(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` holding a ``.git`` entry (the root of its .gitignore rules)."""
    path = path.resolve()
    start = path if path.is_dir() else path.parent
    for d in (start, *start.parents):
        if (d / ".git").exists():
            return d
    return None


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
        self.walked: dict[Path, list[Path]] = {}  # folder -> what walk() found there under these rules

    def add_excludes(self, base: Path, patterns: list[str] | tuple[str, ...]) -> None:
        """Exclude globs anchored at ``base`` (the configuration's folder for its ``exclude`` list)."""
        if patterns:
            self.exclude_sets.append((base.resolve(), pathspec.GitIgnoreSpec.from_lines(list(patterns))))
            self.walked = {}

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
            verdict = _verdict(spec, path.relative_to(folder).as_posix(), is_dir)
            if verdict is not None:
                return verdict
        return False

    def ignored(self, path: Path, is_dir: bool = False) -> bool:
        return self.excluded(path, is_dir) or self.git_ignored(path, is_dir)

    def _chain(self, folder: Path, parent: list[tuple[str, pathspec.GitIgnoreSpec]] | None = None
               ) -> list[tuple[str, pathspec.GitIgnoreSpec]]:
        """The ``.gitignore`` specs that judge the entries of ``folder`` (resolved), deepest first, each with its
        folder; ``parent``: its parent folder's chain (else built from the root down)."""
        if not self.gitignore:
            return []
        text = str(folder)
        root = str(self.root)
        if text != root and not text.startswith(root.rstrip("/") + "/"):
            return []  # outside the root: no .gitignore of the tree applies (git_ignored)
        if parent is None:
            parent = []
            if text != root:
                for d in reversed(folder.parents):
                    if d == self.root or self.root in d.parents:
                        parent = self._chain(d, parent)
        spec = self._spec(folder)
        return [(text, spec), *parent] if spec is not None else parent

    def _ignored_at(self, text: str, chain: list[tuple[str, pathspec.GitIgnoreSpec]], is_dir: bool) -> bool:
        """:meth:`ignored` for a resolved path (as a string) whose folder's chain is ``chain``: no path objects."""
        for base, spec in self.exclude_sets:
            b = str(base).rstrip("/") + "/"
            if text.startswith(b) and spec.match_file(text[len(b):] + "/" if is_dir else text[len(b):]):
                return True
        for folder, spec in chain:
            verdict = _verdict(spec, text[len(folder.rstrip("/")) + 1:], is_dir)
            if verdict is not None:
                return verdict
        return False


def _verdict(spec: pathspec.GitIgnoreSpec, sub: str, is_dir: bool) -> bool | None:
    """Whether one ``.gitignore`` ignores ``sub`` (``None``: it says nothing).  A folder is judged by the last
    pattern matching it, as git does: pathspec's file priority would let ``*`` win over a later ``!*/`` ("ignore
    files without an extension", every folder re-included) and prune every folder."""
    if not is_dir:
        res = spec.check_file(sub)
        return None if res.include is None else bool(res.include)
    verdict = None
    for pattern in spec.patterns:
        if pattern.include is not None and pattern.match_file(sub + "/") is not None:
            verdict = bool(pattern.include)
    return verdict


def walk(top: Path, rules: IgnoreRules) -> list[Path]:
    """Every non-ignored file under ``top`` (resolved, sorted), pruning skipped and ignored folders.

    What it visits is already resolved (``top`` is, and symbolic links to folders are not followed), so the rules
    are applied to path strings; only a symbolic link itself is judged through :meth:`IgnoreRules.ignored`."""
    top = top.resolve()
    if top not in rules.walked:  # one walk per folder and rules: a scan's sources, headers and host files share it
        out: list[Path] = []
        if top.is_dir():
            inside = top == rules.root or rules.root in top.parents
            _walk(top, str(top), rules, rules._chain(top.parent) if inside and top != rules.root else [], inside, out)
        rules.walked[top] = out
    return list(rules.walked[top])


def _walk(folder: Path, text: str, rules: IgnoreRules, parent: list[tuple[str, pathspec.GitIgnoreSpec]],
          inside: bool, out: list[Path]) -> None:
    """One folder of :func:`walk` (files first, then each subfolder, both sorted: ``os.walk``'s order); ``parent``:
    the ``.gitignore`` chain of its parent folder; ``inside``: it is under the rules' root (its ``.gitignore``
    counts)."""
    try:
        with os.scandir(text) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    chain = parent
    if inside and rules.gitignore:
        if folder not in rules._specs and not any(e.name == ".gitignore" for e in entries):
            rules._specs[folder] = None  # known from the listing: no file to look for
        spec = rules._spec(folder)
        chain = [(text, spec), *parent] if spec is not None else parent
    folders = []
    for e in entries:
        try:
            is_dir = e.is_dir()
            link = e.is_symlink()
        except OSError:
            continue
        if is_dir and e.name in SKIP_DIRS:
            continue
        path = folder / e.name
        if rules.ignored(path, is_dir) if link else rules._ignored_at(e.path, chain, is_dir):
            continue
        if not is_dir:
            out.append(path)
        elif not link:  # listed, as os.walk lists it, but a link to a folder is not walked into
            folders.append((path, e.path))
    root = str(rules.root).rstrip("/")
    for path, sub in folders:  # a walk from above the root enters it further down
        _walk(path, sub, rules, chain, inside or sub == root or sub.startswith(root + "/"), out)


def find_kernel_sources(paths: list[Path], rules: IgnoreRules,
                        extensions: set[str] | frozenset[str] = frozenset(KERNEL_EXTENSIONS)) -> list[Path]:
    """Kernel translation units (``.cu``, ``.cl``) under the paths, resolved, without duplicates.

    A file named on the command line is taken whatever its extension (``.ll`` too) unless an
    ``--exclude`` glob matches it; folders are walked honouring ``.gitignore`` and excludes.
    """
    seen: set[Path] = set()
    out: list[Path] = []
    for p in paths:
        if p.is_file():
            found = [] if rules.excluded(p) else [p.resolve()]
        elif p.is_dir():
            found = [f for f in walk(p, rules) if f.suffix.lower() in extensions]
        else:
            raise FileNotFoundError(str(p))
        for f in found:
            if f not in seen:
                seen.add(f)
                out.append(f)
    return out


def find_sources(paths: list[str | Path]) -> list[Path]:
    """Kernel sources (.cu, .cl, .ll) under the given files/folders, for `simu kernels`.

    The scan's walk (same skipped folders, ``.gitignore`` of the enclosing repository honoured); paths
    keep the form they were given in (a relative folder gives relative paths)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            top = p.resolve()
            rules = IgnoreRules(enclosing_repository(top) or top)
            out += [p / f.relative_to(top) for f in find_kernel_sources([top], rules, SOURCE_EXTENSIONS)]
        else:
            raise FileNotFoundError(str(p))
    return out


__all__ = ["CUDA_EXTENSIONS", "KERNEL_EXTENSIONS", "SKIP_DIRS", "SOURCE_EXTENSIONS", "IgnoreRules",
           "enclosing_repository", "find_kernel_sources", "find_sources", "walk"]
