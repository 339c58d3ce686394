"""The mining database's schema (SQLite), versioned with ``PRAGMA user_version`` and the ``meta`` table.

docs/mining.md describes every table.  A database written by a newer schema is refused; an older one is
migrated by the steps in :data:`MIGRATIONS` (1 -> 2: ``snapshots.limits``, the per-repository limit that
stopped a ``limited`` snapshot).
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2

TABLES = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, started REAL, finished REAL, status TEXT, argv TEXT, simu_version TEXT,
    options TEXT, options_hash TEXT, backend TEXT, history INTEGER DEFAULT 0,
    analysed INTEGER DEFAULT 0, reused INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS repositories (
    id INTEGER PRIMARY KEY, source TEXT UNIQUE NOT NULL, name TEXT, kind TEXT, metadata TEXT, head TEXT,
    status TEXT DEFAULT 'pending', reason TEXT DEFAULT '', run_id INTEGER, updated REAL);
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY, repository_id INTEGER NOT NULL REFERENCES repositories(id),
    commit_sha TEXT NOT NULL, scope TEXT NOT NULL, options_hash TEXT NOT NULL, simu_version TEXT NOT NULL,
    status TEXT DEFAULT 'pending', reason TEXT DEFAULT '', run_id INTEGER, started REAL, finished REAL,
    seconds REAL, files INTEGER, kernels INTEGER, analysed INTEGER, reused INTEGER, warnings TEXT,
    limits TEXT DEFAULT '',
    UNIQUE (repository_id, commit_sha, scope, options_hash, simu_version));
CREATE TABLE IF NOT EXISTS sources (sha256 TEXT PRIMARY KEY, bytes INTEGER, text TEXT);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY, snapshot_id INTEGER NOT NULL REFERENCES snapshots(id), path TEXT NOT NULL,
    sha256 TEXT, language TEXT, status TEXT, diagnostic TEXT, included_by TEXT,
    UNIQUE (snapshot_id, path));
CREATE TABLE IF NOT EXISTS kernels (
    id INTEGER PRIMARY KEY, snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
    file_id INTEGER NOT NULL REFERENCES files(id), name TEXT NOT NULL, mangled TEXT NOT NULL, line INTEGER NOT NULL,
    defined_in TEXT, source_sha256 TEXT,
    UNIQUE (file_id, name, mangled, line));
CREATE TABLE IF NOT EXISTS analyses (
    id INTEGER PRIMARY KEY, kernel_id INTEGER UNIQUE NOT NULL REFERENCES kernels(id), run_id INTEGER,
    status TEXT, reason TEXT, where_at TEXT, launches INTEGER, seconds REAL, cached INTEGER, suppressed INTEGER,
    simu_version TEXT, options_hash TEXT);
CREATE TABLE IF NOT EXISTS findings (
    id INTEGER PRIMARY KEY, analysis_id INTEGER NOT NULL REFERENCES analyses(id), ord INTEGER,
    kind TEXT, severity TEXT, kernel TEXT, message TEXT, space TEXT, variable TEXT, element INTEGER, count INTEGER,
    first_file TEXT, first_line INTEGER, first_column INTEGER, first_text TEXT, first_function TEXT,
    second_file TEXT, second_line INTEGER, second_column INTEGER, second_text TEXT, second_function TEXT,
    threads TEXT, detail TEXT, launch TEXT, also TEXT, match_key TEXT);
CREATE TABLE IF NOT EXISTS commits (
    id INTEGER PRIMARY KEY, repository_id INTEGER NOT NULL REFERENCES repositories(id), sha TEXT NOT NULL,
    parent TEXT, authored INTEGER, subject TEXT, message TEXT, files TEXT, scope TEXT,
    status TEXT DEFAULT 'pending', reason TEXT DEFAULT '', parent_snapshot_id INTEGER, commit_snapshot_id INTEGER,
    UNIQUE (repository_id, sha));
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY, commit_id INTEGER NOT NULL REFERENCES commits(id), class TEXT, match_key TEXT,
    kind TEXT, severity TEXT, kernel TEXT, variable TEXT, file TEXT, parent_line INTEGER, commit_line INTEGER,
    parent_finding_id INTEGER, commit_finding_id INTEGER);
CREATE INDEX IF NOT EXISTS files_snapshot ON files(snapshot_id);
CREATE INDEX IF NOT EXISTS kernels_snapshot ON kernels(snapshot_id);
CREATE INDEX IF NOT EXISTS findings_analysis ON findings(analysis_id);
CREATE INDEX IF NOT EXISTS changes_commit ON changes(commit_id);
"""

MIGRATIONS: dict[int, str] = {  # from version N to N+1: the SQL to run
    1: "ALTER TABLE snapshots ADD COLUMN limits TEXT DEFAULT '';",
}


class SchemaError(Exception):
    """A database this simu cannot use (newer schema, not a mining database)."""


def prepare(conn: sqlite3.Connection) -> None:
    """Create or migrate the schema; WAL mode, so readers (``status``) never block the writer."""
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise SchemaError(f"the database has schema version {version}; this simu knows up to {SCHEMA_VERSION}")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if version == 0 and tables and "repositories" not in tables:
        raise SchemaError("not a simu mining database (it has other tables)")
    with conn:
        while 0 < version < SCHEMA_VERSION:
            conn.executescript(MIGRATIONS[version])
            version += 1
        conn.executescript(TABLES)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


__all__ = ["SCHEMA_VERSION", "SchemaError", "prepare"]
