"""`simu mine run|status|export|report` on the command line: output, exit codes, one line per bad input."""

from __future__ import annotations

import csv
import io
import json

import pytest
from mine_helpers import history_repo
from typer.testing import CliRunner

from simu.cli import app

runner = CliRunner()


def _no_traceback(res) -> None:
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception


@pytest.fixture(scope="module")
def mined(tmp_path_factory):
    """A history repository mined at its head with a missing path beside it, then its history."""
    base = tmp_path_factory.mktemp("cli")
    repo, shas = history_repo(base / "repo")
    db = base / "m.db"
    listing = base / "repos.txt"
    listing.write_text(f"# columns: source stars\n{repo} 17\n{base / 'gone'} 3\n")
    head = runner.invoke(app, ["mine", "run", f"@{listing}", "--db", str(db), "--budget", "0.5", "-j", "1"])
    hist = runner.invoke(app, ["mine", "run", str(repo), "--db", str(db), "--budget", "0.5", "-j", "1", "--history",
                               "--max-commits", "5"])
    return base, repo, shas, db, head, hist


def test_run_reports_a_bad_source_in_one_line_and_goes_on(mined):
    base, _, _, _, head, hist = mined
    _no_traceback(head)
    assert head.exit_code == 1  # a source failed
    failures = [ln for ln in head.stderr.splitlines() if "gone" in ln]
    assert failures == [f"failed: {base / 'gone'}: no such file or directory"]
    assert "2 repositories (1 done, 0 already stored, 1 failed); 2 kernels stored (2 analysed now); 1 findings" in \
        head.stdout
    _no_traceback(hist)
    assert hist.exit_code == 0, hist.output
    assert "2 commits: 1 fixed, 0 introduced, 2 unchanged" in hist.stdout


def test_status(mined):
    _, _, _, db, _, _ = mined
    res = runner.invoke(app, ["mine", "status", "--db", str(db)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert "repositories: 1 done, 1 failed" in lines
    assert "snapshots:    4 done" in lines  # the head, and the three trees of two commits
    assert "kernels:      8 analysed" in lines
    assert any(ln.startswith("failed: ") and ln.endswith("gone: no such file or directory") for ln in lines)
    assert any(ln.startswith("last run:") and "done, local" in ln for ln in lines)


def test_export_findings_kernels_changes(mined, tmp_path):
    _, repo, shas, db, _, _ = mined
    res = runner.invoke(app, ["mine", "export", "--db", str(db)])
    assert res.exit_code == 0, res.output
    findings = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert {(f["kernel"], f["variable"], f["kind"]) for f in findings} == {("shift", "s", "race"),
                                                                          ("other", "t", "race")}
    assert all(f["source"] == str(repo) and isinstance(f["launch"], dict) and f["match_key"] for f in findings)
    out = tmp_path / "kernels.csv"
    res = runner.invoke(app, ["mine", "export", "--db", str(db), "--what", "kernels", "--format", "csv",
                              "--with-source", "-o", str(out)])
    assert res.exit_code == 0 and f"wrote 8 kernels to {out}" in res.stderr
    kernels = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(kernels) == 8 and all(k["status"] == "analysed" for k in kernels)
    assert "__global__ void shift" in kernels[0]["source_text"]
    res = runner.invoke(app, ["mine", "export", "--db", str(db), "--what", "changes"])
    changes = [json.loads(ln) for ln in res.stdout.splitlines()]
    fixed = [c for c in changes if c["class"] == "fixed"]
    assert [(c["commit_sha"], c["kernel"], c["parent_line"]) for c in fixed] == [(shas["fix"], "shift", 3)]


def test_report(mined):
    res = runner.invoke(app, ["mine", "report", "--db", str(mined[3])])
    assert res.exit_code == 0, res.output
    row = next(ln for ln in res.stdout.splitlines() if "repo (17 stars)" in ln)
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    # repository, status, kernels, analysed, error, warning, performance, info, seconds, fixed, introduced, unchanged
    assert cells[1:8] == ["done", "8", "8", "5", "0", "0", "0"] and cells[9:] == ["1", "0", "2"]
    assert "findings by kind: 5 race" in res.stdout
    assert 'fixed by a commit:' in res.stdout and '"fix race in shift: missing barrier": race on s in shift' in \
        res.stdout


@pytest.mark.parametrize(("args", "words"), [
    (["run", "x", "--since", "2020-01-01"], ["--history"]),
    (["run", "x", "--history", "--keywords", "fix("], ["--keywords"]),
    (["run", "@/nonexistent/list.txt"], ["list file"]),
    (["run", "x", "--ship", "rsync"], ["--ship"]),
    (["run", "x", "--budget", "0"], ["--budget"]),
    (["status"], ["no such database"]),
    (["export", "--what", "everything"], ["--what"]),
])
def test_usage_errors_are_one_line(tmp_path, args, words):
    res = runner.invoke(app, ["mine", *args, "--db", str(tmp_path / "none.db")])
    _no_traceback(res)
    assert res.exit_code == 2, res.output
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and all(w in errors[0] for w in words), res.stderr


def test_a_file_that_is_not_a_database(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not sqlite at all" * 100)
    res = runner.invoke(app, ["mine", "status", "--db", str(bad)])
    _no_traceback(res)
    assert res.exit_code == 2 and res.stderr.startswith("error:")


def test_an_unreachable_scheduler_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr("simu.mine.dask_backend.CONNECT_TIMEOUT", "1s")
    folder = tmp_path / "f"
    folder.mkdir()
    res = runner.invoke(app, ["mine", "run", str(folder), "--db", str(tmp_path / "m.db"), "--scheduler",
                              "tcp://127.0.0.1:9"])
    _no_traceback(res)
    assert res.exit_code == 2 and "cannot reach the Dask scheduler" in res.stderr


def test_progress_display_counts_what_it_is_told():
    from rich.console import Console

    from simu.mine.render import ProgressEvents

    out = io.StringIO()
    with ProgressEvents(Console(file=out, force_terminal=True, width=120)) as events:
        events.sources_found(2)
        events.source_started("owner/name")
        events.kernels_found(2)
        events.kernel_done(3)
        events.kernel_done(0)
        events.kernel_done(1)  # a Dask answer's kernel nobody announced
        events.source_done("/missing", "failed", "no such file or directory")
        kernels = events.progress.tasks[events.kernels]
        assert (kernels.completed, kernels.total, events.findings) == (3, 3, 4)
        assert events.progress.tasks[events.repos].completed == 1
    assert "failed:" in out.getvalue() and "/missing: no such file or directory" in out.getvalue()
