"""Per-repository limits of `simu mine run` (size on disk, kernel files, wall time): the repository and its
snapshot are stored as limited with the reason; the same limit again does nothing; a raised one mines."""

from __future__ import annotations

import json
import sqlite3

import pytest
from mine_helpers import RACY, commit, git, query, racy_repo, run_mine
from typer.testing import CliRunner

from simu.cli import app
from simu.mine import limits as lim
from simu.mine.limits import Limits
from simu.mine.schema import SCHEMA_VERSION
from simu.mine.store import connect


def _kernels(i: int) -> str:
    return RACY.replace("shift", f"shift{i}").replace("other", f"other{i}").replace("64", str(40 + i))


def test_size_limit(tmp_path):
    repo = racy_repo(tmp_path / "racy")
    db, work = tmp_path / "m.db", tmp_path / "work"
    tiny = Limits(max_repo_mb=0.001)  # 1,000 bytes: any clone with its .git is larger
    s = run_mine(db, [str(repo)], work=work, limits=tiny)
    assert not s.failed and s.kernels == 0 and s.done == 0
    assert [(src, r.split(" (")[0]) for src, r in s.limited] == [
        (str(repo), "the repository takes more than 0.001 MB on disk")]
    assert query(db, "SELECT status, reason FROM repositories") == [
        ("limited", "the repository takes more than 0.001 MB on disk (--max-repo-mb)")]
    status, reason, record = query(db, "SELECT status, reason, limits FROM snapshots")[0]
    assert status == "limited" and "--max-repo-mb" in reason
    assert json.loads(record) == {"limit": "max_repo_mb", "value": 0.001}
    assert not list((work / "repos").iterdir())  # the clone past the limit is deleted
    again = run_mine(db, [str(repo)], work=work, limits=tiny)  # the same limit: nothing cloned, nothing analysed
    assert again.kernels == 0 and len(again.limited) == 1 and not list((work / "repos").iterdir())
    assert query(db, "SELECT COUNT(*) FROM snapshots") == [(1,)]
    raised = run_mine(db, [str(repo)], work=work)  # the default limit (2,000 MB): mined
    assert raised.kernels == 2 and not raised.limited and raised.done == 1
    assert query(db, "SELECT status, reason FROM repositories") == [("done", "")]
    assert query(db, "SELECT status FROM snapshots") == [("done",)]


def test_kernel_file_limit_leaves_a_folder_in_place(tmp_path):
    folder = tmp_path / "plain"
    folder.mkdir()
    for i in range(3):
        (folder / f"k{i}.cu").write_text(_kernels(i))
    (folder / "notes.txt").write_text("not a kernel file\n")
    db = tmp_path / "m.db"
    s = run_mine(db, [str(folder)], limits=Limits(max_kernel_files=2))
    assert s.kernels == 0 and s.limited == [(str(folder), "the repository has more than 2 kernel files "
                                                          "(--max-kernel-files)")]
    assert query(db, "SELECT s.status, s.reason, r.status FROM snapshots s JOIN repositories r") == [
        ("limited", "the repository has more than 2 kernel files (--max-kernel-files)", "limited")]
    assert sorted(p.name for p in folder.iterdir()) == ["k0.cu", "k1.cu", "k2.cu", "notes.txt"]  # untouched
    assert run_mine(db, [str(folder)], limits=Limits(max_kernel_files=3)).kernels == 6  # raised: mined


class _AfterStored:
    """A deadline that passes once the database holds ``n`` analyses: a time limit hit mid-scan, on any
    machine, without depending on how fast it is."""

    def __init__(self, db, n: int):
        self.db, self.n = db, n

    def passed(self) -> bool:
        conn = sqlite3.connect(str(self.db))
        try:
            return conn.execute("SELECT COUNT(*) FROM analyses").fetchone()[0] >= self.n
        finally:
            conn.close()

    def left(self) -> float:
        return 0.0


def test_time_limit_mid_scan_keeps_what_finished(tmp_path, monkeypatch):
    repo = tmp_path / "many"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {f"k{i}.cu": _kernels(i) for i in range(3)}, "three files of two kernels")
    db = tmp_path / "m.db"
    real = lim.Deadline
    monkeypatch.setattr("simu.mine.run.Deadline", lambda s: _AfterStored(db, 2) if s is not None else real(s))
    s = run_mine(db, [str(repo)], limits=Limits(max_repo_seconds=60))
    reason = "the repository's time limit of 60 s was reached (--max-repo-seconds)"
    assert s.limited == [(str(repo), reason)] and not s.failed
    assert query(db, "SELECT COUNT(*) FROM analyses") == [(2,)]  # the kernels finished by then are kept
    assert query(db, "SELECT status, reason, limits FROM snapshots") == [
        ("limited", reason, json.dumps({"limit": "max_repo_seconds", "value": 60}))]
    assert query(db, "SELECT status, reason FROM repositories") == [("limited", reason)]
    monkeypatch.setattr("simu.mine.run.Deadline", real)
    rest = run_mine(db, [str(repo)])  # no time limit now: the snapshot is finished
    assert rest.done == 1 and query(db, "SELECT COUNT(*) FROM analyses WHERE status = 'analysed'") == [(6,)]
    assert query(db, "SELECT status FROM snapshots") == [("done",)]


def test_time_limit_spent_before_a_snapshot_starts(tmp_path):
    repo = racy_repo(tmp_path / "racy")
    db = tmp_path / "m.db"
    s = run_mine(db, [str(repo)], limits=Limits(max_repo_seconds=1e-6))  # cloning alone takes longer
    assert s.kernels == 0 and len(s.limited) == 1
    assert query(db, "SELECT status, reason FROM snapshots") == [
        ("limited", "the repository's time limit of 1e-06 s was reached (--max-repo-seconds)")]
    again = run_mine(db, [str(repo)], limits=Limits(max_repo_seconds=1e-6))
    assert again.kernels == 0 and query(db, "SELECT COUNT(*) FROM snapshots") == [(1,)]


def test_a_version_1_database_is_migrated(tmp_path):
    db = tmp_path / "old.db"
    run_mine(db, [str(racy_repo(tmp_path / "racy"))])
    conn = sqlite3.connect(str(db))
    conn.execute("ALTER TABLE snapshots DROP COLUMN limits")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    conn = connect(db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        assert [tuple(r) for r in conn.execute("SELECT status, limits FROM snapshots")] == [("done", "")]
    finally:
        conn.close()


@pytest.mark.parametrize("args", [["--max-repo-mb", "0"], ["--max-kernel-files", "-1"],
                                  ["--max-repo-seconds", "0"]])
def test_bad_limits_are_one_line(tmp_path, args):
    res = CliRunner().invoke(app, ["mine", "run", str(tmp_path), "--db", str(tmp_path / "m.db"), *args])
    assert res.exit_code == 2 and "Traceback" not in res.output
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and args[0] in errors[0]


def test_a_python_without_tar_filters_extracts_the_same_safe_files(tmp_path, monkeypatch):
    """Debian 12's Python 3.11.2 has no ``tarfile`` extraction filters: trees are still written, with the same checks
    (regular files and folders of at most the size limit, nothing outside the tree)."""
    import io
    import tarfile

    from simu.mine import git as mine_git

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    head = commit(repo, {"k.cl": "// k\n", "sub/big.cl": "x" * 200, "sub/ok.cu": "// ok\n"}, "kernels")
    monkeypatch.delattr(tarfile, "data_filter")
    mine_git.extract_tree(repo, head, tmp_path / "tree", max_file_bytes=100)
    written = sorted(str(p.relative_to(tmp_path / "tree")) for p in (tmp_path / "tree").rglob("*") if p.is_file())
    assert written == ["k.cl", "sub/ok.cu"]
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w") as tar:
        for name, kind in [("fine.cl", tarfile.REGTYPE), ("../escape.cl", tarfile.REGTYPE),
                           ("/abs.cl", tarfile.REGTYPE), ("link.cl", tarfile.SYMTYPE)]:
            info = tarfile.TarInfo(name)
            info.type = kind
            tar.addfile(info, io.BytesIO(b""))
    archive.seek(0)
    with tarfile.open(fileobj=archive, mode="r:") as tar:
        assert [m.name for m in mine_git._safe_members(tar, tmp_path / "dest", 100)] == ["fine.cl"]
