"""Tiny git repositories for the `simu mine` tests (no network): racy kernels, a commit fixing one."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from simu.mine import MineSettings, mine, parse_sources
from simu.scan import ScanOverrides

RACY = """\
__global__ void shift(int *out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

__global__ void other(int *out) {
    __shared__ int t[64];
    t[threadIdx.x] = 2 * threadIdx.x;
    out[threadIdx.x] = t[63 - threadIdx.x];
}
"""
# the fix: a barrier in shift, which also moves every line of `other` one down
FIXED = RACY.replace("    out[threadIdx.x] = s[", "    __syncthreads();\n    out[threadIdx.x] = s[")
FAST = ScanOverrides(budget=0.5, jobs=1)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def racy_repo(path: Path) -> Path:
    """One commit: kernels.cu with two racy kernels."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    commit(path, {"kernels.cu": RACY}, "add the kernels")
    return path


def history_repo(path: Path) -> tuple[Path, dict[str, str]]:
    """The racy kernels, an unrelated commit that touches no GPU code, the fix of `shift` adding a barrier, and a
    later matching commit that adds a line above both kernels."""
    racy_repo(path)
    shas = {"unrelated": commit(path, {"host.c": "int helper(void) { return 1; }\n"}, "fix a typo in the helper"),
            "fix": commit(path, {"kernels.cu": FIXED}, "fix race in shift: missing barrier")}
    shas["comment"] = commit(path, {"kernels.cu": "__device__ int unused_flag;\n" + FIXED},
                             "fix: a device flag above the kernels")
    return path, shas


def run_mine(db: Path, sources: list[str], **settings) -> object:
    settings.setdefault("overrides", FAST)
    return mine(parse_sources(sources), MineSettings(db, **settings))


def query(db: Path, sql: str, *args) -> list[tuple]:
    conn = sqlite3.connect(str(db))
    try:
        return [tuple(r) for r in conn.execute(sql, args)]
    finally:
        conn.close()


def content(db: Path) -> dict[str, list[tuple]]:
    """What a database holds, without ids, times, run numbers, or what depends on the clock or the cache."""
    return {
        "repositories": query(db, "SELECT source, name, kind, head, status, reason, metadata FROM repositories "
                                  "ORDER BY source"),
        "snapshots": query(db, "SELECT r.source, s.commit_sha, s.scope, s.status, s.files, s.kernels FROM snapshots s "
                               "JOIN repositories r ON s.repository_id = r.id ORDER BY 1, 2, 3"),
        "files": query(db, "SELECT s.commit_sha, f.path, f.sha256, f.language, f.status FROM files f JOIN snapshots s "
                           "ON f.snapshot_id = s.id ORDER BY 1, 2"),
        "kernels": query(db, "SELECT s.commit_sha, f.path, k.name, k.mangled, k.line, k.source_sha256, a.status "
                             "FROM kernels k JOIN files f ON k.file_id = f.id JOIN snapshots s ON k.snapshot_id = s.id "
                             "JOIN analyses a ON a.kernel_id = k.id ORDER BY 1, 2, 5, 3"),
        "findings": query(db, "SELECT s.commit_sha, fi.kind, fi.severity, fi.kernel, fi.variable, fi.space, "
                              "fi.first_file, fi.first_line, fi.first_text, fi.second_line, fi.match_key "
                              "FROM findings fi JOIN analyses a ON fi.analysis_id = a.id JOIN kernels k ON "
                              "a.kernel_id = k.id JOIN snapshots s ON k.snapshot_id = s.id ORDER BY 1, 4, 8, 10, 2"),
        "sources": query(db, "SELECT sha256, bytes, text FROM sources ORDER BY sha256"),
        "changes": query(db, "SELECT c.sha, ch.class, ch.kind, ch.kernel, ch.variable, ch.file, ch.parent_line, "
                             "ch.commit_line FROM changes ch JOIN commits c ON ch.commit_id = c.id ORDER BY 1, 4, 2"),
    }
