"""Compiled files kept on disk, so that a file whose text, headers and options are unchanged is not compiled again.

A compile of a CUDA file that includes a C++ library costs seconds (clang, sometimes several runs: a device-only
slice, instantiated template kernels); a rescan of an unchanged project, or `simu check` run twice, should not pay
it again.  An entry is keyed by the file's path and text, every compile option and the running simu's code
fingerprint (the caller's ``salt``); it records the files clang read (its ``-MD`` dependency list) with their
sizes, modification times and hashes, and is used only while each of them is unchanged (a changed time with the
same bytes still counts as unchanged).  The folders those files lie in and the include folders are recorded with
their modification times too: a file added to one (a header that would now shadow one clang found later on the
search path, a missing header a device-only slice stood in for) compiles the file again.

SQLite (WAL) in the scan's cache folder, shared by the worker processes; the IR is stored zlib-compressed, and
the least recently used entries go beyond :data:`MAX_BYTES`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
import zlib
from dataclasses import asdict
from pathlib import Path

from simu.frontend.compile import CompiledModule, CompileOptions, compile_file

MAX_BYTES = 256 * 1024 * 1024  # compressed IR kept at most, over every entry
FILE_NAME = "compiled.sqlite3"
FOLDER = "folder"  # the digest of a folder's entry: its modification time alone is compared


def open_salted(path: Path, table: str, columns: str, salt: str) -> sqlite3.Connection:
    """A cache's SQLite file (WAL) holding ``table``, its rows of another salt (another simu's code) dropped."""
    conn = sqlite3.connect(str(path), timeout=30)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        with conn:
            conn.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")
            conn.execute(f"DELETE FROM {table} WHERE salt IS NOT ?", (salt,))
    except BaseException:
        conn.close()
        raise
    return conn


def prune(conn: sqlite3.Connection, table: str, max_bytes: int) -> None:
    """Drop the least recently used rows of ``table`` (its ``bytes`` and ``used`` columns) beyond ``max_bytes``."""
    total = conn.execute(f"SELECT COALESCE(SUM(bytes), 0) FROM {table}").fetchone()[0]
    if total <= max_bytes:
        return
    kept = 0
    for key, size in conn.execute(f"SELECT key, bytes FROM {table} ORDER BY used DESC").fetchall():
        kept += size
        if kept > max_bytes:
            conn.execute(f"DELETE FROM {table} WHERE key=?", (key,))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


class CompileCache:
    """``get``/``put`` of :class:`CompiledModule` per file and options, checked against the files clang read."""

    def __init__(self, directory: Path, salt: str):
        self.salt = salt
        Path(directory).mkdir(parents=True, exist_ok=True)
        self.conn = open_salted(Path(directory) / FILE_NAME, "compiled", "key TEXT PRIMARY KEY, salt TEXT, deps TEXT, "
                                "module BLOB, bytes INTEGER, used REAL", salt)

    def key(self, path: Path, options: CompileOptions) -> str | None:
        """The entry's key, or None when the file cannot be read."""
        try:
            text = path.read_bytes()
        except OSError:
            return None
        blob = json.dumps([str(path.resolve()), _digest(text), repr(options), self.salt])
        return _digest(blob.encode())

    def get(self, key: str) -> CompiledModule | None:
        row = self.conn.execute("SELECT deps, module FROM compiled WHERE key=?", (key,)).fetchone()
        if row is None or not _unchanged(json.loads(row[0])):
            return None
        try:
            fields = json.loads(zlib.decompress(row[1]))
            fields["options"] = CompileOptions(**{k: tuple(v) if isinstance(v, list) else v
                                                  for k, v in fields["options"].items()})
            fields["param_names"] = {k: [tuple(p) for p in v] for k, v in fields["param_names"].items()}
            module = CompiledModule(**fields)
        except (ValueError, TypeError, KeyError, zlib.error):
            return None  # an entry this code cannot read: compiled again
        with self.conn:
            self.conn.execute("UPDATE compiled SET used=? WHERE key=?", (time.time(), key))
        return module

    def put(self, key: str, module: CompiledModule, folders: tuple[str, ...] = ()) -> None:
        """Keep ``module``, checked later against its files and ``folders`` (the include folders it was compiled
        with) as they are now."""
        deps = []
        files = [d for d in dict.fromkeys(module.deps) if _stamp(d) is not None]  # not simu's temporary units
        for dep in files:
            try:
                deps.append([dep, *_stamp(dep), _digest(Path(dep).read_bytes())])
            except (OSError, TypeError):
                return
        for folder in dict.fromkeys([*folders, *(str(Path(d).parent) for d in files)]):
            stamp = _stamp(folder)
            if stamp is not None:
                deps.append([folder, 0, stamp[1], FOLDER])
        blob = zlib.compress(json.dumps(asdict(module)).encode(), 3)
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO compiled VALUES (?, ?, ?, ?, ?, ?)",
                              (key, self.salt, json.dumps(deps), blob, len(blob), time.time()))
            prune(self.conn, "compiled", MAX_BYTES)

    def close(self) -> None:
        self.conn.close()


def _unchanged(deps: list[list]) -> bool:
    for path, size, mtime, digest in deps:
        stamp = _stamp(path)
        if stamp is None:
            return False
        if digest == FOLDER:  # an entry added or removed changes a folder's time
            if stamp[1] != mtime:
                return False
            continue
        if stamp[0] != size:
            return False
        if stamp[1] != mtime:
            try:
                if _digest(Path(path).read_bytes()) != digest:
                    return False
            except OSError:
                return False
    return True


def compile_cached(path: str | Path, options: CompileOptions, cache: CompileCache | None) -> CompiledModule:
    """:func:`~simu.frontend.compile.compile_file` through ``cache`` (None: no cache); a failure is not kept."""
    path = Path(path)
    key = cache.key(path, options) if cache is not None else None
    if key is not None:
        hit = cache.get(key)
        if hit is not None:
            return hit
    module = compile_file(path, options)
    if key is not None:
        try:
            cache.put(key, module, (*options.include_dirs, *options.after_dirs))
        except sqlite3.Error:
            pass  # a cache that cannot be written costs a compile next time, nothing else
    return module
