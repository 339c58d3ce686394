"""`simu scan --format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

One rule per finding kind (:mod:`simu.codes`); one result per finding with the first access as
its location and the second as a related location; ``partialFingerprints`` built from the kind,
the kernel, the files and the *text* of both source lines (not line numbers), so an alert survives
edits elsewhere in the file; the witness launch and the two threads under ``properties``.  A grouped
finding (:mod:`simu.report.grouping`) is one result: the other sites' source locations are related
locations (each once, at most ``MAX_RELATED``; the first few linked from the message), its fingerprint
the one of its own (earliest) site.
Kernels that could not be analysed appear as tool execution notifications.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from simu import __version__
from simu.codes import KINDS, Kind, kind
from simu.detect.finding import Finding, SourceLocation

LINKED_SITES = 10  # grouped sites' locations the message links to
# related locations of one result at most: GitHub code scanning rejects a file with over 1,000 locations in one
# result (and shows 100); a larger group's other locations are in --format json
MAX_RELATED = 1000

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
FALLBACK_URI = "https://pypi.org/project/simu/"
LEVEL = {"error": "error", "warning": "warning", "performance": "note", "info": "note"}
SRCROOT = "%SRCROOT%"


def information_uri() -> str:
    """The project's home page from the installed package's metadata (``[project.urls]``), else PyPI."""
    try:
        from importlib.metadata import metadata

        for entry in metadata("simu").get_all("Project-URL") or []:
            label, _, url = entry.partition(",")
            if label.strip().lower() in ("homepage", "home", "source", "repository") and url.strip():
                return url.strip()
    except Exception:  # noqa: BLE001 - metadata is optional
        pass
    return FALLBACK_URI


def _rule(r: Kind) -> dict[str, Any]:
    return {
        "id": r.id,
        "name": r.name,
        "shortDescription": {"text": r.short},
        "fullDescription": {"text": r.full},
        "help": {"text": r.help, "markdown": f"**{r.short}**\n\n{r.full}\n\n**How to fix:** {r.help}"},
        "defaultConfiguration": {"level": LEVEL.get(r.severity, "warning")},
        "properties": {"tags": list(r.tags), "precision": "high" if r.id != "redundant-barrier" else "medium",
                       "simu-severity": r.severity},
    }


def _artifact(file: str, root: Path) -> dict[str, Any]:
    p = Path(file)
    try:
        rel = p.resolve().relative_to(root).as_posix() if p.is_absolute() else p.as_posix()
        return {"uri": rel, "uriBaseId": SRCROOT}
    except (ValueError, OSError):
        return {"uri": p.resolve().as_uri() if p.is_absolute() else p.as_posix()}


def _physical(loc: SourceLocation, root: Path) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": max(int(loc.line), 1)}
    if loc.column and loc.column > 0:
        region["startColumn"] = int(loc.column)
    if loc.text:
        region["snippet"] = {"text": loc.text}
    return {"artifactLocation": _artifact(loc.file, root), "region": region}


def fingerprint(f: Finding, root: Path) -> str:
    """Stable across runs and line shifts: kind, kernel, variable, access class, files and line texts."""
    parts = [f.kind, f.kernel, f.space, f.variable, str(f.detail.get("access", ""))]
    for loc in sorted((l for l in (f.first, f.second) if l is not None), key=lambda l: (l.file, l.text)):
        parts += [_artifact(loc.file, root)["uri"], " ".join(loc.text.split())]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=str))


def _grouped_sites(f: Finding, root: Path, related: list[dict[str, Any]]) -> str:
    """Appends the source locations of the sites grouped into ``f`` to ``related`` (each distinct location
    once: a race group's line pairs share lines; ``MAX_RELATED`` in all) and returns the message's
    sentence about them, linking the first few."""
    what = f" of '{f.variable}'" if f.variable else ""
    seen = {(loc.file, loc.line, loc.column) for loc in f.locations}
    links: list[str] = []
    left = 0
    for site in f.also:
        for loc in site.locations:
            if (loc.file, loc.line, loc.column) in seen:
                continue
            seen.add((loc.file, loc.line, loc.column))
            if len(related) >= MAX_RELATED:
                left += 1
                continue
            rid = len(related) + 1
            related.append({"id": rid, "physicalLocation": _physical(loc, root),
                            "message": {"text": f"the same problem{what} here"}})
            if len(links) < LINKED_SITES:
                links.append(f"[line {loc.line}]({rid})")
    n = len(f.also)
    shown = len(related) - (1 if f.second is not None else 0)
    text = f"The same problem{what} at {n} more site{'s' if n != 1 else ''} ({n + 1} in all)"
    if links:
        text += f": {', '.join(links)}{', ...' if shown > len(links) else ''} (related locations)"
    if left:
        text += f"; {left} more location{'s' if left != 1 else ''} only in --format json"
    return text + "."


def finding_result(f: Finding, root: Path, rule_index: dict[str, int]) -> dict[str, Any]:
    text = f.message
    related = []
    if f.second is not None:
        other = f.threads[1] if len(f.threads) > 1 else None
        what = f"other access ({other.action} by {other})" if other is not None and other.action else "other access"
        related.append({"id": 1, "physicalLocation": _physical(f.second, root), "message": {"text": what}})
        text = text.rstrip(". ") + ". See the [other access](1)."
    if f.also:
        text = text.rstrip(". ") + ". " + _grouped_sites(f, root, related)
    res: dict[str, Any] = {
        "ruleId": f.kind,
        "ruleIndex": rule_index[f.kind],
        "level": LEVEL.get(f.severity, "warning"),
        "message": {"text": text},
        "locations": [{"physicalLocation": _physical(f.first, root)}] if f.first is not None else [],
        "partialFingerprints": {"simuFindingHash/v1": fingerprint(f, root)},
        "properties": {
            "severity": f.severity,
            "kernel": f.kernel,
            "space": f.space,
            "variable": f.variable,
            "element": f.element,
            "detail": _jsonable(f.detail),
            "threads": _jsonable([{"block": list(t.block), "thread": list(t.thread), "action": t.action}
                                  for t in f.threads]),
            "launch": _jsonable(f.launch.__dict__) if f.launch is not None else None,
            "count": f.count,
            "sites": 1 + len(f.also),
        },
    }
    if related:
        res["relatedLocations"] = related
    if f.kernel and f.first is not None:
        res["locations"][0]["logicalLocations"] = [{"name": f.kernel, "kind": "function"}]
    return res


def _notifications(result) -> list[dict[str, Any]]:
    out = []
    for fr in result.files:
        loc = [{"physicalLocation": {"artifactLocation": {"uri": fr.rel, "uriBaseId": SRCROOT}}}]
        if fr.status not in ("ok", "pending"):
            out.append({"level": "error", "message": {"text": f"{fr.rel}: {fr.status}: {fr.first}"},
                        "locations": loc, "descriptor": {"id": f"simu/{fr.status}"}})
        for k in fr.kernels:
            if k.status not in ("analysed",):
                level = "warning" if k.status == "incomplete" else "error"
                out.append({"level": level, "message": {"text": f"{fr.rel}: kernel {k.name}: {k.status}: {k.reason}"},
                            "locations": loc, "descriptor": {"id": f"simu/{k.status}"}})
    return out


def scan_to_sarif(result) -> dict[str, Any]:
    """The SARIF log (a dict) of a :class:`simu.scan.ScanResult`."""
    root = Path(result.root)
    findings = result.findings
    rules = list(KINDS)
    known = {r.id for r in rules}
    for f in findings:
        if f.kind not in known:
            rules.append(kind(f.kind))
            known.add(f.kind)
    rule_index = {r.id: i for i, r in enumerate(rules)}
    results = [finding_result(f, root, rule_index) for f in findings]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "simu", "version": __version__, "semanticVersion": __version__,
                            "informationUri": information_uri(), "rules": [_rule(r) for r in rules]}},
        "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri() + "/"}},
        "invocations": [{"executionSuccessful": not result.interrupted,
                         "toolExecutionNotifications": _notifications(result)}],
        "results": results,
        "columnKind": "utf16CodeUnits",
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(result) -> str:
    return json.dumps(scan_to_sarif(result), indent=2, default=str, ensure_ascii=False) + "\n"
