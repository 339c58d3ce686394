"""The host index's cache on disk: one row per host file *content* (SQLite, in the scan's cache folder).

A row is keyed by what the file's sites depend on: its path (sites name it), the digest of its text, the path and
digest of every project header it includes (their macros, constants and launch macros are read into it) and the
command-line option defaults it may read (:mod:`simu.host.cmdline`; only those whose names its text or its headers
mention, so that an option registered elsewhere does not make every file's row new).  Nothing else goes in: a file
whose content is unchanged is never parsed twice, whichever command reads it (`simu scan`, `simu check`, `simu
kernels`) and whichever other files that command reads.  Rows of another version of the extractors are deleted when
the cache is opened (the version hashes the host package's code); rows not used for :data:`KEEP_DAYS` days go too.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

NAME = "host-index.sqlite3"
KEEP_DAYS = 30


def digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode(errors="surrogateescape") if isinstance(data, str) else data).hexdigest()[:32]


def entry_key(rel: str, text: str, headers: list[tuple[str, str]], options: dict[str, str]) -> str:
    """The key of one host file's row: ``headers`` are (path, digest) of the project headers it includes, in
    order; ``options`` the option defaults it may read."""
    blob = json.dumps([rel, digest(text), headers, sorted(options.items())])
    return hashlib.sha256(blob.encode(errors="surrogateescape")).hexdigest()


class HostFileCache:
    """key -> a host file's cache entry as JSON: ``{"data": its sites (simu.host.model.host_file_to_dict), "ast": its
    clang facts (simu.host.ast, when read)}``.  ``None`` directory: nothing is kept.  Reads go to the database at
    once; writes are kept until :meth:`close`, one transaction."""

    def __init__(self, directory: Path | None, version: str):
        self.conn: sqlite3.Connection | None = None
        self.pending: dict[str, str] = {}
        self.hits = 0
        if directory is None:
            return
        try:
            _make_folder(Path(directory))
            self.conn = sqlite3.connect(str(Path(directory) / NAME), timeout=30)
            self._open(version)
        except (OSError, sqlite3.Error):
            self._drop()

    def _open(self, version: str) -> None:
        assert self.conn is not None
        self.conn.execute("PRAGMA journal_mode=WAL")
        with self.conn:
            self.conn.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
            row = self.conn.execute("SELECT value FROM meta WHERE name='version'").fetchone()
            if row is None or row[0] != version:
                self.conn.execute("DROP TABLE IF EXISTS files")
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (version,))
            self.conn.execute("CREATE TABLE IF NOT EXISTS files (key TEXT PRIMARY KEY, used REAL, data TEXT)")
            self.conn.execute("DELETE FROM files WHERE used < ?", (time.time() - KEEP_DAYS * 86400,))

    def get(self, key: str) -> dict[str, Any] | None:
        if self.conn is None:
            return None
        try:
            row = self.conn.execute("SELECT data FROM files WHERE key=?", (key,)).fetchone()
            data = json.loads(row[0]) if row is not None else None
        except (sqlite3.Error, ValueError):
            return None
        if isinstance(data, dict):
            self.hits += 1
            self.pending.setdefault(key, "")  # marks it used
            return data
        return None

    def put(self, key: str, data: dict[str, Any]) -> None:
        if self.conn is not None:
            self.pending[key] = json.dumps(data)

    def close(self) -> None:
        if self.conn is None:
            return
        now = time.time()
        try:
            with self.conn:
                self.conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?)",
                                      [(k, now, v) for k, v in self.pending.items() if v])
                self.conn.executemany("UPDATE files SET used=? WHERE key=?",
                                      [(now, k) for k, v in self.pending.items() if not v])
        except sqlite3.Error:
            pass  # parsed again next time
        self._drop()

    def _drop(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None
        self.pending = {}


def _make_folder(directory: Path) -> None:
    """The cache folder, with a ``.gitignore`` that keeps it out of the project's git (as the result cache's)."""
    directory.mkdir(parents=True, exist_ok=True)
    gi = directory / ".gitignore"
    if not gi.exists():
        try:
            gi.write_text("# created by simu: the cache is local\n*\n")
        except OSError:
            pass
