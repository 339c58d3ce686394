"""The project's git side: its root, the files staged in git, the sources a staged change touches."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from simu.frontend.discover import enclosing_repository
from simu.frontend.includes import HeaderIndex, resolve_includes

MAX_INCLUDER_BYTES = 4 << 20


class GitError(Exception):
    pass


def find_root(paths: list[Path], config_root: Path | None = None) -> Path:
    """The project root: the enclosing git repository, else the configuration's folder, else the scanned
    folder (the common folder of several paths).  Report paths (SARIF URIs) are relative to it."""
    first = paths[0].resolve() if paths else Path.cwd().resolve()
    start = first if first.is_dir() else first.parent
    repo = enclosing_repository(start)
    if repo is not None:
        return repo
    if config_root is not None:
        return config_root
    if len(paths) > 1:
        common = Path(os.path.commonpath([str(p.resolve()) for p in paths]))
        return common if common.is_dir() else common.parent
    return start


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


def changed_candidates(changed: list[Path], index: HeaderIndex) -> set[Path]:
    """The changed files and the project files (``index``'s) that may include one, directly or through others: a
    file is kept when one of its ``#include`` lines names the base name of a kept file (lexically, a superset of
    what :func:`resolve_includes` resolves, which :func:`changed_sources` then decides)."""
    kept = {c.resolve() for c in changed}
    texts: dict[Path, bytes] = {}
    for f in (f for fs in index.by_name.values() for f in fs):
        try:
            data = f.read_bytes() if f.stat().st_size <= MAX_INCLUDER_BYTES else b""
        except OSError:
            continue
        if b"include" in data:
            texts[f] = data
    names = {c.name for c in kept}
    while names:
        alternatives = b"|".join(re.escape(n.encode(errors="surrogateescape")) for n in sorted(names))
        pattern = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"](?:[^">\n]*/)?(?:' + alternatives + rb')[">]', re.M)
        found = {f for f, data in texts.items() if f not in kept and pattern.search(data)}
        kept |= found
        names = {f.name for f in found}
    return kept


def changed_sources(sources: list[Path], changed: list[Path], include_dirs: list[Path],
                    index: HeaderIndex | None) -> list[Path]:
    """The sources that changed or (transitively) include a changed file."""
    changed_set = {c.resolve() for c in changed}
    return [s for s in sources
            if s.resolve() in changed_set or resolve_includes(s, include_dirs, index).headers & changed_set]
