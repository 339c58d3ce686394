"""`simu mine` into SQLite: the schema, an idempotent re-run, a resumed interruption, list files, bad sources."""

from __future__ import annotations

import json
import sqlite3

import pytest
from mine_helpers import FAST, content, query, racy_repo, run_mine

from simu.mine import MineEvents, MineSettings, mine, parse_sources
from simu.mine.schema import SCHEMA_VERSION, SchemaError
from simu.mine.sources import SourceError, parse_list
from simu.mine.store import connect


@pytest.fixture(scope="module")
def mined(tmp_path_factory):
    """A racy repository mined once, and again with the same command."""
    base = tmp_path_factory.mktemp("mine")
    repo = racy_repo(base / "racy")
    db = base / "corpus.db"
    first = run_mine(db, [str(repo)])
    snapshot = content(db)
    second = run_mine(db, [str(repo)])
    return repo, db, first, snapshot, second


def test_schema_is_versioned_and_in_wal_mode(mined):
    _, db, *_ = mined
    conn = sqlite3.connect(str(db))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert {"runs", "repositories", "snapshots", "sources", "files", "kernels", "analyses", "findings", "commits",
            "changes"} <= tables


def test_mining_stores_the_planted_races(mined):
    repo, db, first, snapshot, _ = mined
    head = query(db, "SELECT head, kind, status FROM repositories")[0]
    assert head[1:] == ("git", "done") and len(head[0]) == 40
    assert first.kernels == 2 and first.analysed == 2 and not first.failed
    races = {(r[3], r[4], r[7]) for r in snapshot["findings"]}
    assert races == {("shift", "s", 3), ("other", "t", 9)}
    # every field of the finding model is stored
    row = query(db, "SELECT first_text, second_text, threads, launch, detail, message FROM findings "
                    "WHERE kernel='shift'")[0]
    assert row[0] == "s[threadIdx.x] = threadIdx.x;" and "s[(threadIdx.x + 1) % 64]" in row[1]
    assert len(json.loads(row[2])) == 2 and json.loads(row[3])["block"][0] > 1 and "race" in row[5]
    # the kernel's source text is in the corpus, once for both kernels
    assert query(db, "SELECT COUNT(DISTINCT source_sha256) FROM kernels") == [(1,)]
    text = query(db, "SELECT text FROM sources")[0][0]
    assert text == (repo / "kernels.cu").read_text()
    # analyses record the simu version and options
    versions = query(db, "SELECT DISTINCT a.simu_version, a.options_hash, r.options_hash FROM analyses a, runs r "
                         "WHERE r.id = 1")
    assert len(versions) == 1 and versions[0][1] == versions[0][2] and versions[0][0].startswith("0.")


def test_second_run_analyses_nothing(mined):
    _, db, _, snapshot, second = mined
    assert second.analysed == 0 and second.kernels == 0 and second.skipped == 1
    assert query(db, "SELECT id, status, analysed FROM runs ORDER BY id") == [(1, "done", 2), (2, "done", 0)]
    assert content(db) == snapshot


class _StopAfter(MineEvents):
    """Ctrl-C after ``n`` stored kernels."""

    def __init__(self, n: int):
        self.left = n

    def kernel_done(self, findings: int) -> None:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt


def test_interrupted_run_resumes_where_it_stopped(mined, tmp_path):
    repo, _, _, snapshot, _ = mined
    db = tmp_path / "resume.db"
    settings = MineSettings(db, work=tmp_path / "work", overrides=FAST)
    stopped = mine(parse_sources([str(repo)]), settings, _StopAfter(1))
    assert stopped.interrupted
    assert query(db, "SELECT status FROM runs") == [("interrupted",)]
    assert query(db, "SELECT status FROM repositories") == [("partial",)]
    assert query(db, "SELECT status FROM snapshots") == [("partial",)]
    assert query(db, "SELECT COUNT(*) FROM analyses") == [(1,)]  # the finished kernel is kept
    resumed = mine(parse_sources([str(repo)]), settings)
    assert not resumed.interrupted
    assert resumed.analysed == 1  # only the kernel that was in flight
    assert query(db, "SELECT status, analysed, reused FROM snapshots") == [("done", 1, 1)]
    assert content(db) == snapshot  # exactly what an uninterrupted run stores


def test_list_file_with_metadata(tmp_path):
    (tmp_path / "lists").mkdir()
    listing = tmp_path / "lists" / "repos.txt"
    listing.write_text("# columns: source stars language\n"
                       "\n"
                       "https://example.org/owner/name.git 1200 cuda\n"
                       "../local/folder stars=3 topic=graphs   # an inline comment\n"
                       "# a comment line\n"
                       "git@example.org:group/tool.git\n")
    sources = parse_list(listing)
    assert [s.spec for s in sources] == ["https://example.org/owner/name.git", str(tmp_path / "local" / "folder"),
                                         "git@example.org:group/tool.git"]
    assert [s.name for s in sources] == ["owner/name", "local/folder", "group/tool"]
    assert sources[0].metadata == {"stars": 1200, "language": "cuda"}
    assert sources[1].metadata == {"stars": 3, "topic": "graphs"}
    assert sources[2].metadata == {}
    # @list and a repeated source: each once
    assert len(parse_sources([f"@{listing}", "https://example.org/owner/name.git"])) == 3
    with pytest.raises(SourceError, match="cannot read the list file"):
        parse_sources(["@" + str(tmp_path / "missing.txt")])


def test_metadata_and_bad_sources_stored(mined, tmp_path):
    repo, *_ = mined
    listing = tmp_path / "repos.txt"
    listing.write_text(f"# columns: source stars\n{repo} 42\n{tmp_path / 'nowhere'} 7\nfile://{tmp_path}/no.git\n")
    db = tmp_path / "m.db"
    summary = run_mine(db, [f"@{listing}"], work=tmp_path / "work")
    assert {s for s, _ in summary.failed} == {str(tmp_path / "nowhere"), f"file://{tmp_path}/no.git"}
    rows = {r[0]: r[1:] for r in query(db, "SELECT source, status, reason, metadata FROM repositories")}
    assert rows[str(repo)][0] == "done" and json.loads(rows[str(repo)][2]) == {"stars": 42}
    assert rows[str(tmp_path / "nowhere")][:2] == ("failed", "no such file or directory")
    assert rows[f"file://{tmp_path}/no.git"][0] == "failed"
    assert rows[f"file://{tmp_path}/no.git"][1].startswith("git ls-remote failed")


def test_plain_folder_is_mined_in_place_and_keyed_by_content(tmp_path):
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "k.cu").write_text("__global__ void w(int *o) { o[0] = threadIdx.x; }\n")
    db = tmp_path / "f.db"
    first = run_mine(db, [str(folder)])
    assert first.kernels == 1 and query(db, "SELECT kind FROM repositories") == [("folder",)]
    assert run_mine(db, [str(folder)]).kernels == 0  # unchanged: nothing again
    (folder / "k.cu").write_text("__global__ void w(int *o) { if (threadIdx.x == 0) o[0] = 1; }\n")
    assert run_mine(db, [str(folder)]).kernels == 1  # edited: a new snapshot
    assert query(db, "SELECT COUNT(*) FROM snapshots WHERE status='done'") == [(2,)]


def test_a_foreign_or_newer_database_is_refused(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(str(other))
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaError, match="not a simu mining database"):
        connect(other)
    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(str(newer))
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaError, match="newer|knows up to"):
        connect(newer)


def test_hostile_contents_neither_crash_nor_escape(tmp_path):
    from mine_helpers import commit, git

    repo = tmp_path / "hostile"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "bin.cu").write_bytes(bytes(range(256)) * 64)  # a binary file named .cu
    (repo / "escape.cu").symlink_to("/etc/passwd")  # a symlink out of the tree
    commit(repo, {"ok.cu": "__global__ void w(int *o) { o[threadIdx.x] = 1; }\n"}, "add files")
    db = tmp_path / "h.db"
    summary = run_mine(db, [str(repo)])
    assert not summary.failed and summary.kernels == 1
    files = dict(query(db, "SELECT f.path, s.text FROM files f JOIN sources s ON f.sha256 = s.sha256"))
    assert files["escape.cu"] == "/etc/passwd"  # checked out as a file holding the link's target, never followed
    assert set(files) == {"bin.cu", "escape.cu", "ok.cu"}
    assert query(db, "SELECT status FROM files WHERE path = 'bin.cu'")[0][0] != "ok"
