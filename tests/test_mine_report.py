"""`simu mine report -o report.html`: a self-contained page with charts, the history table, and findings linked
to file:line at the analysed commit; checked by parsing it (and in a headless browser when one is installed)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from html.parser import HTMLParser

import pytest
from mine_helpers import RACY, history_repo, query, run_mine
from typer.testing import CliRunner

from simu.cli import app
from simu.mine.html import render_html, source_link

runner = CliRunner()
EVIL = "evil<img src=x onerror=alert(1)>&amp;"  # a folder name that must come out as text


class Page(HTMLParser):
    """What the tests look at: tags, sections with their svg and tables, links, table rows as cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[dict[str, str | None]] = []
        self.section = ""
        self.svgs: dict[str, list[str]] = {}  # section id -> classes of the svg shapes in it
        self.links: dict[str, str] = {}  # href -> link text
        self.rows: dict[str, list[list[str]]] = {}  # section id -> rows of cell texts (th rows too)
        self.text: list[str] = []
        self._href: str | None = None
        self._link_text = ""
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        self.attrs.append(a)
        if tag == "section":
            self.section = a.get("id") or ""
        elif tag == "svg":
            self.svgs.setdefault(self.section, [])
        elif tag == "rect" and a.get("class"):
            self.svgs.setdefault(self.section, []).append(a["class"])
        elif tag == "a":
            self._href, self._link_text = a.get("href"), ""
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "a" and self._href is not None:
            self.links[self._href] = self._link_text
            self._href = None
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.setdefault(self.section, []).append(self._row)
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        if self._href is not None:
            self._link_text += data
        if self._cell is not None:
            self._cell.append(data)


def parse(html: str) -> Page:
    p = Page()
    p.feed(html)
    p.close()
    return p


@pytest.fixture(scope="module")
def mined(tmp_path_factory):
    """A repository at its head and in history mode, and a plain folder with a hostile name."""
    base = tmp_path_factory.mktemp("report")
    repo, shas = history_repo(base / "repo")
    folder = base / EVIL
    folder.mkdir()
    (folder / "kernels.cu").write_text(RACY)
    db = base / "m.db"
    run_mine(db, [str(repo), str(folder)])
    run_mine(db, [str(repo)], history=True, max_commits=5)
    return base, repo, shas, folder, db


@pytest.fixture(scope="module")
def page(mined, tmp_path_factory):
    base, *_, db = mined
    out = base / "report.html"
    res = runner.invoke(app, ["mine", "report", "--db", str(db), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert f"wrote the report to {out}" in res.stderr and res.stdout == ""
    return out, out.read_text(encoding="utf-8")


def test_page_is_self_contained(page):
    _, html = page
    p = parse(html)
    assert html.startswith("<!DOCTYPE html>") and p.tags.count("html") == 1
    assert "script" not in p.tags and "link" not in p.tags and "img" not in p.tags and "iframe" not in p.tags
    assert not [a for a in p.attrs if "src" in a]  # no external asset of any kind
    assert EVIL in "".join(p.text)  # the hostile folder name is text, not markup


def test_charts(mined, page):
    from simu.mine.html import _seconds_bins
    from simu.mine.queries import kernel_seconds

    p = parse(page[1])
    assert set(p.svgs) >= {"findings-by-kind", "analysis-status", "time-per-kernel"}
    assert p.svgs["findings-by-kind"].count("seg") == 2  # one bar segment (race) per repository
    assert p.svgs["analysis-status"] == ["bar"]  # every kernel analysed
    # the bins up to the slowest analysis's (at least four): how many depends on the machine's speed, not the page
    with sqlite3.connect(mined[-1]) as conn:
        bins = _seconds_bins(kernel_seconds(conn))
    assert p.svgs["time-per-kernel"].count("bin") == len(bins) >= 4 and (bins[-1][1] or len(bins) == 4)


def test_time_bins_end_at_the_last_that_holds_a_kernel_and_labels_keep_both_ends():
    from simu.mine import charts
    from simu.mine.html import _seconds_bins

    assert _seconds_bins([0.05, 7.0]) == [("≤0.1", 1), ("≤0.25", 0), ("≤0.5", 0), ("≤1", 0), ("≤2", 0), ("≤5", 0),
                                          ("≤10", 1)]
    assert len(_seconds_bins([500.0])) == 11 and _seconds_bins([500.0])[-1] == (">120", 1)
    label = charts._clip("HandsOnOpenCL+Exercises-Solutions/repo")
    assert len(label) == 28 and label.startswith("HandsOnOpenCL") and label.endswith("Solutions/repo")
    svg = charts.stacked_bars([("a", {"race": 2})], ["race"], "t", "findings")
    assert ">findings</text>" in svg


def test_history_table(mined, page):
    p = parse(page[1])
    head, *rows = p.rows["history"]
    assert head == ["project", "commits kept", "analysed", "fixing commits", "findings fixed", "introduced",
                    "unchanged", "unknown"]
    # two kept commits (the unrelated one touches no GPU code): the fix, and the one shifting every line
    assert len(rows) == 1 and rows[0][0].endswith("/repo")
    assert rows[0][1:] == ["2", "2", "1", "1", "0", "2", "0"]


def test_findings_table_links_file_and_line(mined, page):
    base, repo, shas, folder, db = mined
    p = parse(page[1])
    head, *rows = p.rows["findings"]
    assert head == ["severity", "kind", "kernel", "file:line", "repository", "commit", "message"]
    assert len(rows) == query(db, "SELECT COUNT(*) FROM findings")[0][0]
    assert ["error", "race", "shift", "kernels.cu:3"] in [r[:4] for r in rows]
    url = (folder / "kernels.cu").as_uri() + "#L3"
    assert p.links[url] == "kernels.cu:3"  # a plain folder is analysed in place: a file:// link
    # a local clone's files may be at another commit: plain text, no link
    assert not [h for h in p.links if h.startswith((repo.as_uri(), "https://"))]


def test_hosted_sources_link_to_the_analysed_commit(mined, tmp_path):
    _, _, shas, _, db = mined
    copy = tmp_path / "hosted.db"
    shutil.copy(db, copy)
    conn = sqlite3.connect(str(copy))
    conn.execute("UPDATE repositories SET source = 'https://github.com/owner/name.git', kind = 'url' "
                 "WHERE kind = 'git'")
    conn.commit()
    conn.row_factory = sqlite3.Row
    links = parse(render_html(conn)).links
    conn.close()
    # the race the fix removed, at the fix's parent (the commit that was analysed), line 3
    assert links[f"https://github.com/owner/name/blob/{shas['unrelated']}/kernels.cu#L3"] == "kernels.cu:3"
    hosted = [h for h in links if h.startswith("https://github.com/owner/name/blob/")]
    # the repository's five findings: at the fix's parent (lines 3, 9), at the fix (10: a line added above), at the
    # last kept commit and the head, one commit (11): four distinct links
    assert sorted(h.split("#")[1] for h in hosted) == ["L10", "L11", "L3", "L9"]


def test_source_link():
    c = "a" * 40
    assert source_link("git@gitlab.com:grp/sub/tool.git", "url", c, "src/k.cu", 9) == \
        f"https://gitlab.com/grp/sub/tool/-/blob/{c}/src/k.cu#L9"
    assert source_link("https://github.com/o/n", "url", c, "a b.cu", 1) == f"https://github.com/o/n/blob/{c}/a%20b.cu#L1"
    assert source_link("https://example.org/o/n.git", "url", c, "k.cu", 1) is None  # unknown host: text
    assert source_link("/src/repo", "git", c, "k.cu", 1) is None
    assert source_link("/src/dir", "folder", "tree:1234", "k.cu", 2) == "file:///src/dir/k.cu#L2"
    assert source_link("https://github.com/o/n", "url", c, None, 3) is None


def test_without_output_the_text_summary_stays(mined):
    res = runner.invoke(app, ["mine", "report", "--db", str(mined[-1])])
    assert res.exit_code == 0 and "findings by kind: 7 race" in res.stdout and "<html" not in res.stdout


def test_unwritable_output_is_one_line(mined, tmp_path):
    res = runner.invoke(app, ["mine", "report", "--db", str(mined[-1]), "-o", str(tmp_path / "no" / "r.html")])
    assert res.exit_code == 2 and res.stderr.startswith("error: cannot write") and "Traceback" not in res.output


def test_page_in_a_headless_browser(page, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no headless browser installed (chromium or chromium-browser not on PATH)")
    out, _ = page
    shot = tmp_path / "report.png"
    proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}",
                           "--window-size=1200,2400", out.as_uri()], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
