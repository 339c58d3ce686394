"""Per-kernel result cache (SQLite), keyed by what determines a kernel's analysis.

The key hashes the kernel's module IR text (it holds every inlined header, so a header edit
changes it), the kernel name, simu's version and code fingerprint, and the analysis options
(checks, warp model, budget, compile options, constraints).  Severity overrides and suppressions
are applied after the cache, so changing them never re-analyses.  Rows written by another simu
version or code are deleted when the cache is opened.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import stat
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import simu
from simu.scan.payloads import KernelVerdict

SCHEMA = 2  # 2: rows record the code fingerprint that wrote them


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """simu's version plus a hash of its own sources' names, sizes and modification times: results never
    outlive a code change (an edit changes the time; reading every source instead cost a tenth of a second
    of each command)."""
    h = hashlib.sha256(simu.__version__.encode())
    pkg = Path(simu.__file__).resolve().parent
    for f in sorted(pkg.rglob("*")):
        rel = f.relative_to(pkg)
        if "__pycache__" not in rel.parts and (f.suffix in (".py", ".cl") or rel.parts[0] == "include"):
            try:
                st = f.stat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                h.update(f"{rel.as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return f"{simu.__version__}+{h.hexdigest()[:16]}"


def kernel_key(ir_digest: str, kernel: str, options: dict[str, Any]) -> str:
    """The cache key of one kernel's analysis."""
    blob = json.dumps({"ir": ir_digest, "kernel": kernel, "simu": code_fingerprint(), "options": options},
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


class ResultCache:
    """A small key -> :class:`KernelVerdict` store (JSON rows in SQLite).

    Every row records the simu version and code fingerprint that wrote it; opening the cache deletes
    the rows of any other, which no key of this simu can reach any more."""

    def __init__(self, directory: Path, fingerprint: str | None = None):
        self.directory = Path(directory)
        self.fingerprint = fingerprint or code_fingerprint()
        self.directory.mkdir(parents=True, exist_ok=True)
        gi = self.directory / ".gitignore"
        if not gi.exists():
            try:
                gi.write_text("# created by simu: the cache is local\n*\n")
            except OSError:
                pass
        self.path = self.directory / "results.sqlite3"
        self.conn = sqlite3.connect(str(self.path), timeout=30)
        try:
            self._open()
        except BaseException:
            self.conn.close()
            raise

    def _open(self) -> None:
        self.conn.execute("PRAGMA journal_mode=WAL")
        with self.conn:
            self.conn.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
            row = self.conn.execute("SELECT value FROM meta WHERE name='schema'").fetchone()
            if row is None or row[0] != str(SCHEMA):
                self.conn.execute("DROP TABLE IF EXISTS results")
            self.conn.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, file TEXT, kernel TEXT, "
                              "created REAL, simu TEXT, payload TEXT)")
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            self.conn.execute("DELETE FROM results WHERE simu IS NOT ?", (self.fingerprint,))

    def get(self, key: str) -> KernelVerdict | None:
        row = self.conn.execute("SELECT payload FROM results WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return KernelVerdict.from_dict(json.loads(row[0]))
        except (ValueError, TypeError, KeyError, AttributeError):
            return None  # a row this code cannot read: analysed again

    def put(self, key: str, file: str, kernel: str, verdict: KernelVerdict) -> None:
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                              (key, file, kernel, time.time(), self.fingerprint,
                               json.dumps(verdict.to_dict(), default=str)))

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def close(self) -> None:
        self.conn.close()


def open_compile_cache(directory: str | Path | None):
    """The compiled-file cache (:class:`simu.frontend.compilecache.CompileCache`) in ``directory`` for this simu's
    code, or None for no folder or one that cannot be opened (files are then compiled: it only costs time)."""
    if directory is None:
        return None
    from simu.frontend.compilecache import CompileCache

    try:
        return CompileCache(Path(directory), code_fingerprint())
    except (sqlite3.Error, OSError):
        return None
