"""A real SIGKILL: `simu mine run` killed mid-way (its scan workers too), re-run, ends with exactly the database
an uninterrupted run writes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mine_helpers import commit, content, git, query

ROOT = Path(__file__).resolve().parent.parent
FILES = 8  # two kernels each: a run of several seconds, so that the kill lands long before its end
POLL_LIMIT = 300.0  # seconds to wait for the first stored kernel (a very loaded machine), not a timing assertion


def _kernels(i: int) -> str:
    n = 32 + i
    return (f"__global__ void shift{i}(int *out) {{\n    __shared__ int s[{n}];\n"
            f"    s[threadIdx.x] = threadIdx.x + {i};\n    out[threadIdx.x] = s[(threadIdx.x + 1) % {n}];\n}}\n\n"
            f"__global__ void scale{i}(int *out) {{\n    out[threadIdx.x] = threadIdx.x * {i};\n}}\n")


def _repo(path: Path) -> Path:
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    commit(path, {f"k{i:02}.cu": _kernels(i) for i in range(1, FILES + 1)}, "many small kernels")
    return path


def _cmd(repo: Path, db: Path) -> list[str]:
    return [sys.executable, "-m", "simu", "mine", "run", str(repo), "--db", str(db), "--budget", "0.5", "-j", "1"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _stored(db: Path) -> int:
    """Kernels stored so far, read through a read-only connection (0 while the database is being made)."""
    if not db.is_file():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM analyses").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _run(repo: Path, db: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd(repo, db), cwd=cwd, env=_env(), capture_output=True, text=True, timeout=600)


def test_sigkill_mid_run_then_rerun_equals_an_uninterrupted_run(tmp_path):
    repo = _repo(tmp_path / "repo")
    killed_db, whole_db = tmp_path / "killed.db", tmp_path / "whole.db"
    proc = subprocess.Popen(_cmd(repo, killed_db), cwd=tmp_path, env=_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + POLL_LIMIT
        while _stored(killed_db) < 1 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        finished_early = proc.poll() is not None
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its scan worker processes
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    assert not finished_early, f"the run ended before it was killed (rc {proc.returncode}): {stderr}"
    assert proc.returncode == -signal.SIGKILL
    stored = _stored(killed_db)
    assert 1 <= stored < 2 * FILES  # killed with some kernels stored, not all
    conn = sqlite3.connect(f"file:{killed_db}?mode=ro", uri=True)
    try:
        assert conn.execute("SELECT status FROM runs").fetchall() == [("running",)]  # nobody closed the run
    finally:
        conn.close()

    resumed = _run(repo, killed_db, tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    whole = _run(repo, whole_db, tmp_path)
    assert whole.returncode == 0, whole.stderr

    got, want = content(killed_db), content(whole_db)
    assert len(want["kernels"]) == 2 * FILES and all(k[-1] == "analysed" for k in want["kernels"])
    assert {f[3] for f in want["findings"]} == {f"shift{i}" for i in range(1, FILES + 1)}
    assert got == want
    # the resumed run reused what the killed one had finished (the result cache), and analysed the rest
    runs = query(killed_db, "SELECT status, analysed, reused FROM runs ORDER BY id")
    assert runs[0][0] == "running" and runs[1][0] == "done"
    assert runs[1][1] + runs[1][2] == 2 * FILES and runs[1][1] <= 2 * FILES - stored


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
