"""What `simu mine` mines: sources from the command line and list files, and their clones.

A source is a repository URL (``https://…``, ``git@host:…``, ``file://…``), a local git repository (a work tree
or a bare repository, cloned like a URL so that its uncommitted state never matters), or a plain folder
(analysed where it is; its "commit" is a digest of its source files).  ``@list.txt`` reads sources from a
file, one a line::

    # columns: source stars language      <- optional: names the bare columns after the source
    https://github.com/owner/name 1200 cuda
    ../local/checkout  stars=3  topic=graphs
    # comments, blank lines and inline ' # comments' are skipped

Columns after the source are ``key=value`` pairs or bare values named by the ``# columns:`` line (else
``col1``, ``col2`` …); numbers are stored as numbers.  Relative paths are relative to the list file.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simu.mine.git import GitError, clone, git_dir_kind, head_commit, remote_head

URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://|^[\w.-]+@[\w.-]+:")
SKIPPED_DIRS = {".git", ".hg", ".svn", ".simu-cache", "node_modules", "__pycache__", ".venv", "venv"}
SOURCE_SUFFIXES = {".cu", ".cuh", ".cl", ".h", ".hh", ".hpp", ".hxx", ".c", ".cc", ".cpp", ".cxx", ".inl", ".inc",
                   ".clh", ".json", ".toml", ".txt", ".cmake", ".in"}
DIGEST_MAX_BYTES = 16 << 20  # a larger file enters a folder's digest by size and mtime, not content


class SourceError(Exception):
    """A source that cannot be mined (one line: missing path, failed clone, unreadable list)."""


@dataclass(frozen=True)
class Source:
    spec: str  # the URL, or the absolute path; the repository's identity in the database
    name: str  # short display name
    metadata: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def is_url(self) -> bool:
        return bool(URL.match(self.spec))


@dataclass
class Checkout:
    """A source made ready to analyse."""

    kind: str  # url | git | folder
    root: Path  # the folder analysed
    commit: str  # the commit analysed, or ``tree:<digest>`` for a plain folder
    repo: Path | None = None  # the clone (history mode walks it); None for a folder


def parse_sources(args: list[str], base: Path | None = None) -> list[Source]:
    """Sources from command-line arguments: URLs, paths, ``@list.txt``; duplicates are dropped (first kept)."""
    base = base or Path.cwd()
    out: list[Source] = []
    for arg in args:
        out += parse_list(_path(arg[1:], base)) if arg.startswith("@") else [make_source(arg, base)]
    seen: set[str] = set()
    return [s for s in out if not (s.spec in seen or seen.add(s.spec))]


def parse_list(path: Path) -> list[Source]:
    """The sources of a list file (see the module docstring)."""
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise SourceError(f"cannot read the list file {path}: {exc.strerror or exc}") from None
    columns: list[str] = []
    out: list[Source] = []
    for raw in text.splitlines():
        line = raw.strip()
        header = re.match(r"#\s*columns\s*:\s*(.*)", line, re.I)
        if header:
            columns = [c for c in re.split(r"[\s,]+", header.group(1)) if c][1:]  # the first names the source
            continue
        if not line or line.startswith("#"):
            continue
        tokens = re.split(r"\s+#", line, maxsplit=1)[0].split()  # ' #' starts an inline comment
        meta: dict[str, Any] = {}
        bare = 0
        for tok in tokens[1:]:
            if "=" in tok and not tok.startswith("="):
                key, value = tok.split("=", 1)
            else:
                key, value = (columns[bare] if bare < len(columns) else f"col{bare + 1}"), tok
                bare += 1
            meta[key] = _number(value)
        src = make_source(tokens[0], path.parent)
        out.append(Source(src.spec, src.name, meta))
    return out


def _number(value: str) -> Any:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _path(text: str, base: Path) -> Path:
    p = Path(os.path.expanduser(text))
    return p if p.is_absolute() else base / p


def make_source(text: str, base: Path) -> Source:
    if URL.match(text):
        spec = text.rstrip("/")
        tail = re.split(r"[/:]", re.sub(r"\.git$", "", spec))
        name = "/".join(x for x in tail[-2:] if x) or spec
        return Source(spec, name)
    path = _path(text, base).resolve()
    name = "/".join(re.sub(r"\.git$", "", x) for x in path.parts[-2:] if x != "/")  # like a URL's owner/name
    return Source(str(path), name or str(path))


def slug(source: Source) -> str:
    """A folder name for a source's clone: readable and unique."""
    readable = re.sub(r"[^A-Za-z0-9._-]+", "+", source.name).strip("+.") or "repo"
    return f"{readable[:60]}-{hashlib.sha1(source.spec.encode()).hexdigest()[:10]}"


def _clone_url(source: Source, kind: str) -> str:
    return source.spec if kind == "url" else Path(source.spec).as_uri()  # file://: --depth works


def kind_of(source: Source) -> str:
    """url | git (a local repository) | folder; :class:`SourceError` for a missing path."""
    if source.is_url:
        return "url"
    path = Path(source.spec)
    if not path.exists():
        raise SourceError("no such file or directory")
    if not path.is_dir():
        raise SourceError("not a folder or a git repository")
    return "git" if git_dir_kind(path) else "folder"


def current_commit(source: Source, kind: str) -> str:
    """The commit a fresh checkout would analyse, found without cloning (``ls-remote``, ``rev-parse``), or a
    folder's digest: what decides whether its analysis is already stored."""
    try:
        if kind == "url":
            return remote_head(source.spec)
        if kind == "git":
            return head_commit(Path(source.spec))
    except GitError as exc:
        raise SourceError(str(exc)) from None
    return folder_digest(Path(source.spec))


def checkout(source: Source, work: Path, full: bool = False, commit: str = "") -> Checkout:
    """Clone or update a repository source under ``work/repos`` (shallow unless ``full``: history mode); a
    folder is used in place."""
    kind = kind_of(source)
    if kind == "folder":
        if full:
            raise SourceError("history mode needs a git repository, not a plain folder")
        return Checkout(kind, Path(source.spec), folder_digest(Path(source.spec)))
    dest = work / "repos" / slug(source)
    try:
        clone(_clone_url(source, kind), dest, full, commit)
        return Checkout(kind, dest, head_commit(dest), dest)
    except GitError as exc:
        raise SourceError(str(exc)) from None


def folder_digest(folder: Path) -> str:
    """``tree:<sha1>`` over the relative paths and contents of a folder's source files."""
    h = hashlib.sha1()
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        for name in sorted(filenames):
            p = Path(dirpath, name)
            if p.suffix.lower() not in SOURCE_SUFFIXES or p.is_symlink():
                continue
            try:
                st = p.stat()
                body = p.read_bytes() if st.st_size <= DIGEST_MAX_BYTES else f"{st.st_size}:{st.st_mtime_ns}".encode()
            except OSError:
                continue
            h.update(p.relative_to(folder).as_posix().encode() + b"\0" + hashlib.sha1(body).digest())
    return "tree:" + h.hexdigest()


__all__ = ["Checkout", "Source", "SourceError", "checkout", "current_commit", "folder_digest", "kind_of",
           "make_source", "parse_list", "parse_sources", "slug"]
