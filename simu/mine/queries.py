"""What `simu mine status`, `export` and `report` read from a mining database (read-only, any time, also
while a run writes: WAL mode)."""

from __future__ import annotations

import sqlite3
from typing import Any, Iterator

from simu.codes import SEVERITIES

EXPORTS = ("findings", "kernels", "changes")

_SNAPSHOT = ("SELECT s.id AS snapshot_id, r.name AS repository, r.source AS source, s.commit_sha AS commit_sha, "
             "CASE WHEN s.scope = '' THEN 'head' ELSE 'history' END AS mode FROM snapshots s "
             "JOIN repositories r ON s.repository_id = r.id")

QUERIES = {
    "findings": (
        "SELECT sn.repository, sn.source, sn.commit_sha, sn.mode, f.path AS file, k.name AS kernel_name, "
        "k.line AS kernel_line, a.status AS analysis_status, fi.* FROM findings fi "
        "JOIN analyses a ON fi.analysis_id = a.id JOIN kernels k ON a.kernel_id = k.id "
        "JOIN files f ON k.file_id = f.id JOIN (" + _SNAPSHOT + ") sn ON k.snapshot_id = sn.snapshot_id "
        "ORDER BY sn.repository, sn.snapshot_id, f.path, k.line, fi.ord"),
    "kernels": (
        "SELECT sn.repository, sn.source, sn.commit_sha, sn.mode, f.path AS file, k.name, k.mangled, k.line, "
        "k.defined_in, COALESCE(k.source_sha256, f.sha256) AS source_sha256, a.status, a.reason, a.launches, "
        "a.seconds, a.cached, a.simu_version, a.options_hash, "
        "(SELECT COUNT(*) FROM findings fi WHERE fi.analysis_id = a.id) AS findings "
        "FROM kernels k JOIN files f ON k.file_id = f.id JOIN analyses a ON a.kernel_id = k.id "
        "JOIN (" + _SNAPSHOT + ") sn ON k.snapshot_id = sn.snapshot_id "
        "ORDER BY sn.repository, sn.snapshot_id, f.path, k.line"),
    "changes": (
        "SELECT r.name AS repository, r.source, c.sha AS commit_sha, c.parent, c.authored, c.subject, ch.class, "
        "ch.kind, ch.severity, ch.kernel, ch.variable, ch.file, ch.parent_line, ch.commit_line, ch.match_key "
        "FROM changes ch JOIN commits c ON ch.commit_id = c.id JOIN repositories r ON c.repository_id = r.id "
        "ORDER BY r.name, c.authored, c.sha, ch.id"),
}


def rows(conn: sqlite3.Connection, what: str, with_source: bool = False) -> Iterator[dict[str, Any]]:
    """The rows of one export (:data:`EXPORTS`); kernels ``with_source`` carry their file's text."""
    for r in conn.execute(QUERIES[what]):
        d = dict(r)
        d.pop("analysis_id", None)
        if what == "kernels" and with_source:
            found = conn.execute("SELECT text FROM sources WHERE sha256 = ?", (d["source_sha256"],)).fetchone()
            d["source_text"] = found[0] if found else None
        yield d


def _counts(conn: sqlite3.Connection, sql: str, *args: Any) -> dict[str, int]:
    return {str(r[0]): int(r[1]) for r in conn.execute(sql, args)}


def status(conn: sqlite3.Connection) -> dict[str, Any]:
    """What is done, pending and failed."""
    last = conn.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
    return {
        "repositories": _counts(conn, "SELECT status, COUNT(*) FROM repositories GROUP BY status"),
        "snapshots": _counts(conn, "SELECT status, COUNT(*) FROM snapshots GROUP BY status"),
        "kernels": _counts(conn, "SELECT status, COUNT(*) FROM analyses GROUP BY status"),
        "findings": _counts(conn, "SELECT severity, COUNT(*) FROM findings GROUP BY severity"),
        "commits": _counts(conn, "SELECT status, COUNT(*) FROM commits GROUP BY status"),
        "sources": int(conn.execute("SELECT COUNT(*) FROM sources").fetchone()[0]),
        "runs": int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]),
        "last_run": dict(last) if last else None,
        "failed": [(r[0], r[1]) for r in conn.execute(
            "SELECT source, reason FROM repositories WHERE status = 'failed' ORDER BY id")],
        "pending": [r[0] for r in conn.execute(
            "SELECT source FROM repositories WHERE status IN ('pending', 'partial') ORDER BY id")],
    }


def report(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Per repository: snapshots, kernels by status, findings by severity and kind, history changes by class."""
    out = []
    for repo in conn.execute("SELECT * FROM repositories ORDER BY name, id").fetchall():
        rid = repo["id"]
        kernels = _counts(conn, "SELECT a.status, COUNT(*) FROM analyses a JOIN kernels k ON a.kernel_id = k.id "
                                "JOIN snapshots s ON k.snapshot_id = s.id WHERE s.repository_id = ? "
                                "GROUP BY a.status", rid)
        finding_sql = ("FROM findings fi JOIN analyses a ON fi.analysis_id = a.id JOIN kernels k ON "
                       "a.kernel_id = k.id JOIN snapshots s ON k.snapshot_id = s.id WHERE s.repository_id = ?")
        severity = _counts(conn, f"SELECT fi.severity, COUNT(*) {finding_sql} GROUP BY fi.severity", rid)
        kinds = _counts(conn, f"SELECT fi.kind, COUNT(*) {finding_sql} GROUP BY fi.kind", rid)
        changes = _counts(conn, "SELECT ch.class, COUNT(*) FROM changes ch JOIN commits c ON ch.commit_id = c.id "
                                "WHERE c.repository_id = ? GROUP BY ch.class", rid)
        commits = _counts(conn, "SELECT status, COUNT(*) FROM commits WHERE repository_id = ? GROUP BY status", rid)
        seconds = conn.execute("SELECT COALESCE(SUM(seconds), 0) FROM snapshots WHERE repository_id = ?",
                               (rid,)).fetchone()[0]
        out.append({"repository": repo["name"], "source": repo["source"], "status": repo["status"],
                    "reason": repo["reason"], "head": repo["head"], "metadata": repo["metadata"],
                    "kernels": kernels, "findings": {s: severity.get(s, 0) for s in SEVERITIES if s in severity},
                    "kinds": kinds, "changes": changes, "commits": commits, "seconds": float(seconds or 0)})
    return out


def fixing_commits(conn: sqlite3.Connection, limit: int = 20) -> list[dict[str, Any]]:
    """History mode: the commits that fixed findings, with what they fixed."""
    return [dict(r) for r in conn.execute(
        "SELECT r.name AS repository, c.sha, c.subject, ch.kind, ch.kernel, ch.variable, ch.file, ch.parent_line "
        "FROM changes ch JOIN commits c ON ch.commit_id = c.id JOIN repositories r ON c.repository_id = r.id "
        "WHERE ch.class = 'fixed' ORDER BY r.name, c.authored DESC, ch.id LIMIT ?", (limit,))]


def analysis_statuses(conn: sqlite3.Connection) -> dict[str, int]:
    """Kernels by analysis status (analysed, incomplete, timeout, …), most first."""
    return _counts(conn, "SELECT status, COUNT(*) FROM analyses GROUP BY status ORDER BY 2 DESC, 1")


def snapshot_statuses(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Snapshots not done (failed, partial, limited), with their repository and reason."""
    return [dict(r) for r in conn.execute(
        "SELECT r.name AS repository, s.commit_sha, s.status, s.reason FROM snapshots s JOIN repositories r ON "
        "s.repository_id = r.id WHERE s.status != 'done' ORDER BY r.name, s.id")]


def kernel_seconds(conn: sqlite3.Connection) -> list[float]:
    """The seconds of every stored analysis that ran (cached answers excluded: they took no time here)."""
    return [float(r[0]) for r in conn.execute(
        "SELECT seconds FROM analyses WHERE seconds IS NOT NULL AND NOT COALESCE(cached, 0) ORDER BY seconds")]


def history_table(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """History mode, per repository: commits kept, analysed, fixing; findings fixed, introduced, unchanged,
    unknown (the tables of the original CUDA synchronization-bug study)."""
    out = []
    for r in conn.execute(
            "SELECT r.name, r.source, COUNT(c.id) AS kept, SUM(c.status = 'done') AS analysed, "
            "SUM(c.status = 'skipped') AS skipped, "
            "SUM(EXISTS (SELECT 1 FROM changes ch WHERE ch.commit_id = c.id AND ch.class = 'fixed')) AS fixing "
            "FROM commits c JOIN repositories r ON c.repository_id = r.id GROUP BY r.id ORDER BY r.name, r.id"):
        d = dict(r)
        d.update(_counts(conn, "SELECT ch.class, COUNT(*) FROM changes ch JOIN commits c ON ch.commit_id = c.id "
                               "JOIN repositories r ON c.repository_id = r.id WHERE r.source = ? GROUP BY ch.class",
                         d["source"]))
        out.append(d)
    return out


def finding_list(conn: sqlite3.Connection, limit: int = 5000) -> list[dict[str, Any]]:
    """Findings with what a link needs (repository source and kind, commit, file, line), errors first."""
    order = " ".join(f"WHEN '{s}' THEN {i}" for i, s in enumerate(SEVERITIES))
    return [dict(r) for r in conn.execute(
        "SELECT r.name AS repository, r.source, r.kind AS source_kind, s.commit_sha, "
        "CASE WHEN s.scope = '' THEN 'head' ELSE 'history' END AS mode, fi.severity, fi.kind, fi.kernel, "
        "fi.variable, fi.message, fi.first_file, fi.first_line FROM findings fi "
        "JOIN analyses a ON fi.analysis_id = a.id JOIN kernels k ON a.kernel_id = k.id "
        "JOIN snapshots s ON k.snapshot_id = s.id JOIN repositories r ON s.repository_id = r.id "
        f"ORDER BY CASE fi.severity {order} ELSE 99 END, r.name, s.id, fi.first_file, fi.first_line, fi.ord "
        "LIMIT ?", (limit,))]


def finding_total(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM findings").fetchone()[0])


__all__ = ["EXPORTS", "analysis_statuses", "finding_list", "finding_total", "fixing_commits", "history_table",
           "kernel_seconds", "report", "rows", "snapshot_statuses", "status"]
