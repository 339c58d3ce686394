"""`simu mine report -o report.html`: one self-contained HTML page (inline CSS and SVG, no script, no external
asset) with the figures and tables a study needs: findings per repository and kind, the analysis status
breakdown, time per kernel, the history table (commits kept, findings fixed / introduced / unchanged per
project), the repositories, and every finding with a link to its ``file:line`` at the analysed commit.
Everything that comes from a repository is escaped.
"""

from __future__ import annotations

import re
import sqlite3
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from simu.codes import SEVERITIES
from simu.mine import charts, queries

SECONDS_BINS = (0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120)  # upper edges of the time-per-kernel histogram
HOSTED = re.compile(r"^(?:https?://|ssh://git@|git@)(github\.com|gitlab\.com)[/:](.+?)(?:\.git)?/?$", re.I)
MAX_FINDINGS = 5000  # rows of the findings table; the export has them all

CSS = """
body{font-family:Helvetica,Arial,sans-serif;margin:2em auto;max-width:1100px;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.9em;margin:.5em 0} th,td{padding:3px 8px;border-bottom:1px solid #eee}
th{text-align:left;background:#f4f4f4} td.n{text-align:right;font-variant-numeric:tabular-nums}
.sev-error{color:#b00020;font-weight:bold} .sev-warning{color:#a15c00} .muted{color:#777}
code{font-size:.95em} svg.chart{display:block;margin:.5em 0}
"""


def source_link(source: str, kind: str | None, commit: str, path: str | None, line: int | None) -> str | None:
    """The URL of ``path:line`` at ``commit``: GitHub and GitLab blob links for hosted URLs, ``file://`` for a plain
    folder (analysed in place); None otherwise (a local clone's file may be at another commit)."""
    if not path:
        return None
    anchor = f"#L{line}" if line else ""
    m = HOSTED.match(source or "")
    if m and commit and not commit.startswith("tree:"):
        host, name = m.group(1).lower(), m.group(2)
        sep = "/-/blob/" if host == "gitlab.com" else "/blob/"
        return f"https://{host}/{quote(name)}{sep}{quote(commit)}/{quote(path)}{anchor}"
    if kind == "folder":
        return Path(source, path).as_uri() + anchor
    return None


def _table(head: list[str], rows: list[list[str]], numeric: set[int] = frozenset()) -> str:
    """Cells are HTML already (escaped by the caller)."""
    out = ["<table><thead><tr>", *(f"<th>{escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td class='n'>{c}</td>" if i in numeric else f"<td>{c}</td>"
                                    for i, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _seconds_bins(seconds: list[float]) -> list[tuple[str, int]]:
    """Kernels per time bin, up to the last bin that holds one (a run at a small budget fills only the first
    few: empty bins beyond would squeeze the ones that count)."""
    labels = [f"≤{b:g}" for b in SECONDS_BINS] + [f">{SECONDS_BINS[-1]:g}"]
    counts = [0] * len(labels)
    for s in seconds:
        counts[next((i for i, b in enumerate(SECONDS_BINS) if s <= b), len(SECONDS_BINS))] += 1
    last = max((i for i, n in enumerate(counts) if n), default=0)
    return list(zip(labels, counts, strict=True))[:max(last + 1, 4)]


def _section(ident: str, title: str, body: str, note: str = "") -> str:
    note_html = f"<p class='muted'>{escape(note)}</p>" if note else ""
    return f"<section id='{ident}'><h2>{escape(title)}</h2>{note_html}{body}</section>"


def _repositories(repos: list[dict[str, Any]]) -> str:
    rows = []
    for r in repos:
        rows.append([escape(r["repository"]), escape(r["status"]), str(sum(r["kernels"].values())),
                     *(str(r["findings"].get(s, 0)) for s in SEVERITIES), f"{r['seconds']:.1f}",
                     escape(r["reason"] or "")])
    return _table(["repository", "status", "kernels", *SEVERITIES, "seconds", "reason"], rows,
                  set(range(2, 3 + len(SEVERITIES) + 1)))


def _history(hist: list[dict[str, Any]]) -> str:
    rows = [[escape(h["name"]), str(h["kept"]), str(h["analysed"] or 0), str(h["fixing"] or 0),
             *(str(h.get(c, 0)) for c in ("fixed", "introduced", "unchanged", "unknown"))] for h in hist]
    total = ["<b>total</b>", *(f"<b>{sum(int(c) for c in col)}</b>" for col in list(zip(*[r[1:] for r in rows],
                                                                                       strict=True)))]
    return _table(["project", "commits kept", "analysed", "fixing commits", "findings fixed", "introduced",
                   "unchanged", "unknown"], rows + ([total] if len(rows) > 1 else []), set(range(1, 8)))


def _findings(found: list[dict[str, Any]]) -> str:
    rows = []
    for f in found:
        where = f"{f['first_file'] or '?'}:{f['first_line'] or '?'}"
        url = source_link(f["source"], f["source_kind"], f["commit_sha"], f["first_file"], f["first_line"])
        cell = f"<a href='{escape(url)}'><code>{escape(where)}</code></a>" if url else f"<code>{escape(where)}</code>"
        sev = escape(f["severity"] or "")
        rows.append([f"<span class='sev-{sev}'>{sev}</span>", escape(f["kind"] or ""), escape(f["kernel"] or ""),
                     cell, escape(f["repository"] or ""), f"<code>{escape((f['commit_sha'] or '')[:10])}</code>"
                     + (" <span class='muted'>history</span>" if f["mode"] == "history" else ""),
                     escape(f["message"] or "")])
    return _table(["severity", "kind", "kernel", "file:line", "repository", "commit", "message"], rows)


def render_html(conn: sqlite3.Connection, title: str = "simu mine report") -> str:
    """The whole page for the database behind ``conn``."""
    repos = queries.report(conn)
    kinds = sorted({k for r in repos for k in r["kinds"]}, key=lambda k: -sum(r["kinds"].get(k, 0) for r in repos))
    statuses = queries.analysis_statuses(conn)
    seconds = queries.kernel_seconds(conn)
    hist = queries.history_table(conn)
    found = queries.finding_list(conn, MAX_FINDINGS)
    total = queries.finding_total(conn)
    last = conn.execute("SELECT simu_version FROM runs ORDER BY id DESC LIMIT 1").fetchone()
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
             f"<style>{CSS}</style></head><body><h1>{escape(title)}</h1>",
             f"<p id='summary'>{len(repos)} repositories, {sum(statuses.values())} kernels, {total} findings"
             + (f"; simu {escape(str(last[0]))}" if last else "") + ".</p>"]
    with_findings = [(r["repository"], r["kinds"]) for r in repos if r["kinds"]]
    parts.append(_section("findings-by-kind", "Findings per repository and kind",
                          charts.stacked_bars(with_findings, kinds, "findings per repository and kind", "findings")
                          if with_findings else "<p>No findings.</p>",
                          "All analysed snapshots (the head, and both sides of kept commits in history mode)."))
    parts.append(_section("analysis-status", "Analysis status",
                          charts.bars(list(statuses.items()), "kernels by analysis status", "kernels") if statuses
                          else "<p>No kernels.</p>"))
    parts.append(_section("time-per-kernel", "Time per kernel",
                          charts.histogram(_seconds_bins(seconds), "analysis seconds per kernel", "seconds",
                                           "kernels") if seconds else "<p>No analysis ran (all cached).</p>",
                          f"{len(seconds)} analyses that ran (answers from the result cache left out)."))
    if hist:
        parts.append(_section("history", "History: fixed and introduced findings per project", _history(hist),
                              "Kept commits: message matches the keywords and the diff touches GPU code; fixing "
                              "commits: those with at least one finding fixed."))
    parts.append(_section("repositories", "Repositories", _repositories(repos)))
    problems = queries.snapshot_statuses(conn)
    if problems:
        parts.append(_section("snapshots", "Snapshots not done", _table(
            ["repository", "commit", "status", "reason"],
            [[escape(p["repository"]), f"<code>{escape(p['commit_sha'][:12])}</code>", escape(p["status"]),
              escape(p["reason"] or "")] for p in problems])))
    note = f"The first {len(found)} of {total} (see `simu mine export`)." if total > len(found) else ""
    parts.append(_section("findings", "Findings", _findings(found) if found else "<p>No findings.</p>", note))
    parts.append("</body></html>\n")
    return "".join(parts)


__all__ = ["render_html", "source_link"]
