"""The mining database: every write `simu mine` makes, one transaction per kernel, so that a run stopped at
any moment (Ctrl-C, kill, power loss) keeps every kernel it finished.  Only the coordinating process writes.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from simu.mine.schema import prepare
from simu.mine.sources import Source

DONE, PARTIAL, FAILED, PENDING = "done", "partial", "failed", "pending"
FINDING_COLUMNS = ("kind", "severity", "kernel", "message", "space", "variable", "element", "count",
                   "first_file", "first_line", "first_column", "first_text", "first_function",
                   "second_file", "second_line", "second_column", "second_text", "second_function",
                   "threads", "detail", "launch", "also", "match_key")


def connect(path: Path, create: bool = True) -> sqlite3.Connection:
    """An open database with its schema prepared (:func:`simu.mine.schema.prepare`)."""
    path = Path(path)
    if not create and not path.is_file():
        raise FileNotFoundError(f"no such database: {path}")
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=60)
    conn.row_factory = sqlite3.Row
    try:
        prepare(conn)
    except BaseException:
        conn.close()
        raise
    return conn


class Store:
    """Writes of one run (the coordinator's only)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.conn = connect(self.path)
        self.run_id = 0

    def close(self) -> None:
        self.conn.close()

    # -- runs and repositories ------------------------------------------------------------------------------

    def start_run(self, argv: list[str], simu_version: str, options: str, options_hash: str, backend: str,
                  history: bool) -> int:
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO runs (started, status, argv, simu_version, options, options_hash, backend, history) "
                "VALUES (?, 'running', ?, ?, ?, ?, ?, ?)",
                (time.time(), json.dumps(argv), simu_version, options, options_hash, backend, int(history)))
        self.run_id = int(cur.lastrowid)
        return self.run_id

    def finish_run(self, status: str, analysed: int, reused: int) -> None:
        with self.conn:
            self.conn.execute("UPDATE runs SET finished=?, status=?, analysed=?, reused=? WHERE id=?",
                              (time.time(), status, analysed, reused, self.run_id))

    def repository(self, source: Source) -> int:
        """The repository's id (inserted as pending; a list file's metadata replaces what was stored)."""
        meta = json.dumps(source.metadata, sort_keys=True) if source.metadata else None
        with self.conn:
            self.conn.execute("INSERT INTO repositories (source, name, metadata, updated) VALUES (?, ?, ?, ?) "
                              "ON CONFLICT(source) DO UPDATE SET metadata=COALESCE(excluded.metadata, metadata)",
                              (source.spec, source.name, meta, time.time()))
            return int(self.conn.execute("SELECT id FROM repositories WHERE source=?", (source.spec,)).fetchone()[0])

    def set_repository(self, repo_id: int, status: str, reason: str = "", kind: str | None = None,
                       head: str | None = None) -> None:
        with self.conn:
            self.conn.execute("UPDATE repositories SET status=?, reason=?, kind=COALESCE(?, kind), "
                              "head=COALESCE(?, head), run_id=?, updated=? WHERE id=?",
                              (status, reason, kind, head, self.run_id, time.time(), repo_id))

    # -- snapshots: one analysed tree -----------------------------------------------------------------------

    def snapshot(self, repo_id: int, commit: str, scope: str, options_hash: str, simu_version: str
                 ) -> tuple[int, str]:
        """(id, status) of the snapshot with this identity, inserted as pending when new."""
        key = (repo_id, commit, scope, options_hash, simu_version)
        with self.conn:
            self.conn.execute("INSERT OR IGNORE INTO snapshots (repository_id, commit_sha, scope, options_hash, "
                              "simu_version) VALUES (?, ?, ?, ?, ?)", key)
            row = self.conn.execute("SELECT id, status FROM snapshots WHERE repository_id=? AND commit_sha=? AND "
                                    "scope=? AND options_hash=? AND simu_version=?", key).fetchone()
        return int(row[0]), str(row[1])

    def snapshot_status(self, snapshot_id: int) -> str:
        row = self.conn.execute("SELECT status FROM snapshots WHERE id=?", (snapshot_id,)).fetchone()
        return str(row[0]) if row else ""

    def begin_snapshot(self, snapshot_id: int) -> None:
        with self.conn:
            self.conn.execute("UPDATE snapshots SET status=?, run_id=?, started=? WHERE id=?",
                              (PARTIAL, self.run_id, time.time(), snapshot_id))

    def finish_snapshot(self, snapshot_id: int, status: str, reason: str = "", stats: dict[str, Any] | None = None,
                        limits: str = "") -> None:
        """``limits``: for a ``limited`` snapshot, the limit that stopped it (:func:`simu.mine.limits.stored`)."""
        s = stats or {}
        with self.conn:
            self.conn.execute(
                "UPDATE snapshots SET status=?, reason=?, finished=?, seconds=?, files=?, kernels=?, analysed=?, "
                "reused=?, warnings=?, limits=? WHERE id=?",
                (status, reason, time.time(), s.get("seconds"), s.get("files"), s.get("kernels"), s.get("analysed"),
                 s.get("reused"), json.dumps(s.get("warnings", [])), limits, snapshot_id))

    def snapshot_limits(self, snapshot_id: int) -> tuple[str, str]:
        """(reason, limit record) of a limited snapshot."""
        row = self.conn.execute("SELECT reason, limits FROM snapshots WHERE id=?", (snapshot_id,)).fetchone()
        return (str(row[0] or ""), str(row[1] or "")) if row else ("", "")

    # -- files, kernels, analyses, findings -----------------------------------------------------------------

    def _source(self, sha: str, text: str | None, size: int) -> None:
        if sha:
            self.conn.execute("INSERT OR IGNORE INTO sources VALUES (?, ?, ?)", (sha, size, text))

    def _file_id(self, snapshot_id: int, path: str) -> int:
        self.conn.execute("INSERT OR IGNORE INTO files (snapshot_id, path) VALUES (?, ?)", (snapshot_id, path))
        return int(self.conn.execute("SELECT id FROM files WHERE snapshot_id=? AND path=?",
                                     (snapshot_id, path)).fetchone()[0])

    def write_file(self, snapshot_id: int, row: dict[str, Any]) -> None:
        with self.conn:
            self._source(row["sha256"], row["text"], row["bytes"])
            fid = self._file_id(snapshot_id, row["path"])
            self.conn.execute("UPDATE files SET sha256=?, language=?, status=?, diagnostic=?, included_by=? "
                              "WHERE id=?", (row["sha256"] or None, row["language"], row["status"], row["diagnostic"],
                                            row["included_by"], fid))

    def write_kernel(self, snapshot_id: int, row: dict[str, Any], simu_version: str, options_hash: str) -> int:
        """One kernel, its analysis and findings, in one transaction; the analysis id."""
        with self.conn:
            self._source(row["source_sha256"], row["source_text"], row["source_bytes"])
            fid = self._file_id(snapshot_id, row["file"])
            kid = self.conn.execute(
                "INSERT INTO kernels (snapshot_id, file_id, name, mangled, line, defined_in, source_sha256) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(file_id, name, mangled, line) DO UPDATE SET "
                "defined_in=excluded.defined_in, source_sha256=excluded.source_sha256 RETURNING id",
                (snapshot_id, fid, row["name"], row["mangled"], row["line"], row["defined_in"],
                 row["source_sha256"] or None)).fetchone()[0]
            aid = self.conn.execute(
                "INSERT INTO analyses (kernel_id, run_id, status, reason, where_at, launches, seconds, cached, "
                "suppressed, simu_version, options_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(kernel_id) DO UPDATE SET run_id=excluded.run_id, status=excluded.status, "
                "reason=excluded.reason, where_at=excluded.where_at, launches=excluded.launches, "
                "seconds=excluded.seconds, cached=excluded.cached, suppressed=excluded.suppressed, "
                "simu_version=excluded.simu_version, options_hash=excluded.options_hash RETURNING id",
                (kid, self.run_id, row["status"], row["reason"], row["where"], row["launches"], row["seconds"],
                 row["cached"], row["suppressed"], simu_version, options_hash)).fetchone()[0]
            self.conn.execute("DELETE FROM findings WHERE analysis_id=?", (aid,))
            cols = ", ".join(FINDING_COLUMNS)
            marks = ", ".join("?" * (len(FINDING_COLUMNS) + 2))
            self.conn.executemany(f"INSERT INTO findings (analysis_id, ord, {cols}) VALUES ({marks})",
                                  [(aid, i, *(f[c] for c in FINDING_COLUMNS)) for i, f in enumerate(row["findings"])])
        return int(aid)

    # -- history --------------------------------------------------------------------------------------------

    def commit(self, repo_id: int, c: dict[str, Any]) -> tuple[int, str]:
        """(id, status) of a kept commit, inserted as pending when new."""
        with self.conn:
            self.conn.execute(
                "INSERT OR IGNORE INTO commits (repository_id, sha, parent, authored, subject, message, files, scope) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (repo_id, c["sha"], c["parent"], c["authored"], c["subject"], c["message"], json.dumps(c["files"]),
                 json.dumps(c["paths"])))
            row = self.conn.execute("SELECT id, status FROM commits WHERE repository_id=? AND sha=?",
                                    (repo_id, c["sha"])).fetchone()
        return int(row[0]), str(row[1])

    def set_commit(self, commit_id: int, status: str, reason: str = "", parent_snapshot: int | None = None,
                   commit_snapshot: int | None = None) -> None:
        with self.conn:
            self.conn.execute("UPDATE commits SET status=?, reason=?, parent_snapshot_id=COALESCE(?, "
                              "parent_snapshot_id), commit_snapshot_id=COALESCE(?, commit_snapshot_id) WHERE id=?",
                              (status, reason, parent_snapshot, commit_snapshot, commit_id))

    def commit_snapshots(self, commit_id: int) -> tuple[int | None, int | None]:
        row = self.conn.execute("SELECT parent_snapshot_id, commit_snapshot_id FROM commits WHERE id=?",
                                (commit_id,)).fetchone()
        return (row[0], row[1]) if row else (None, None)

    def snapshot_findings(self, snapshot_id: int) -> list[sqlite3.Row]:
        """The findings of a snapshot, each with its kernel's file and name (``kernel_file``, ``kernel_name``)."""
        return self.conn.execute(
            "SELECT fi.*, f.path AS kernel_file, k.name AS kernel_name FROM findings fi "
            "JOIN analyses a ON fi.analysis_id=a.id JOIN kernels k ON a.kernel_id=k.id JOIN files f ON k.file_id=f.id "
            "WHERE k.snapshot_id=? ORDER BY f.path, k.line, fi.ord", (snapshot_id,)).fetchall()

    def analysed_kernels(self, snapshot_id: int) -> set[tuple[str, str]]:
        """(file, kernel name) of the kernels of a snapshot whose analysis judged something."""
        rows = self.conn.execute(
            "SELECT f.path, k.name FROM kernels k JOIN files f ON k.file_id=f.id JOIN analyses a ON a.kernel_id=k.id "
            "WHERE k.snapshot_id=? AND a.status IN ('analysed', 'incomplete')", (snapshot_id,))
        return {(r[0], r[1]) for r in rows}

    def pending_commits(self, repo_id: int) -> list[sqlite3.Row]:
        return self.conn.execute("SELECT * FROM commits WHERE repository_id=? AND status='pending' AND "
                                 "parent_snapshot_id IS NOT NULL AND commit_snapshot_id IS NOT NULL ORDER BY id",
                                 (repo_id,)).fetchall()

    def write_changes(self, commit_id: int, changes: list[dict[str, Any]]) -> None:
        cols = ("class", "match_key", "kind", "severity", "kernel", "variable", "file", "parent_line", "commit_line",
                "parent_finding_id", "commit_finding_id")
        with self.conn:
            self.conn.execute("DELETE FROM changes WHERE commit_id=?", (commit_id,))
            self.conn.executemany(f"INSERT INTO changes (commit_id, {', '.join(cols)}) VALUES "
                                  f"({', '.join('?' * (len(cols) + 1))})",
                                  [(commit_id, *(c[k] for k in cols)) for c in changes])
            self.conn.execute("UPDATE commits SET status=?, reason='' WHERE id=?", (DONE, commit_id))


__all__ = ["DONE", "FAILED", "FINDING_COLUMNS", "PARTIAL", "PENDING", "Store", "connect"]
