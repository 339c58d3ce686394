"""A scan's results as plain rows (dicts of str/int/float/None and JSON-able lists): what a Dask worker returns
and what the store writes, so that both backends store the same thing.

File paths are relative to the analysed tree (a clone, a folder written out of the history, a worker's copy),
so the rows do not depend on where the tree was.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from simu.detect.finding import Finding, Site, SourceLocation
from simu.report.policy import rel_path
from simu.report.results import FileResult, KernelResult
from simu.scan.options import ScanOverrides

MAX_TEXT_BYTES = 2 << 20  # source text kept in the corpus per file; a larger file keeps its hash only
# the overrides that change what an analysis finds (not -j, not where caches live)
ANALYSIS_FIELDS = ("include", "define", "clang_args", "exclude", "opt_level", "warp_model", "checks", "budget",
                   "config", "compile_commands", "cuda_path", "max_static_shared", "max_dynamic_shared")


def options_json(overrides: ScanOverrides) -> str:
    """The analysis options of a run as canonical JSON (part of what makes a stored analysis reusable)."""
    return json.dumps({f: getattr(overrides, f) for f in ANALYSIS_FIELDS}, sort_keys=True, default=str)


def options_hash(overrides: ScanOverrides) -> str:
    return hashlib.sha256(options_json(overrides).encode()).hexdigest()[:16]


def read_source(path: Path) -> tuple[str, str | None, int]:
    """(sha256, text or None when too large, size) of a source file; ("", None, 0) when unreadable."""
    try:
        data = path.read_bytes()
    except OSError:
        return "", None, 0
    text = data.decode("utf-8", errors="replace") if len(data) <= MAX_TEXT_BYTES else None
    return hashlib.sha256(data).hexdigest(), text, len(data)


def file_row(fr: FileResult, root: Path) -> dict[str, Any]:
    sha, text, size = read_source(fr.path)
    return {"path": fr.rel, "language": fr.language, "status": fr.status, "diagnostic": fr.first,
            "included_by": fr.included_by, "sha256": sha, "text": text, "bytes": size}


def kernel_row(fr: FileResult, k: KernelResult, root: Path) -> dict[str, Any]:
    row: dict[str, Any] = {
        "file": fr.rel, "name": k.name, "mangled": k.mangled, "line": k.line, "defined_in": k.defined_in,
        "status": k.status, "reason": k.reason, "launches": k.launches, "seconds": round(k.seconds, 4),
        "cached": int(k.cached), "where": f"{rel_path(k.where.file, root)}:{k.where.line}" if k.where else "",
        "findings": [finding_row(f, root) for f in k.findings], "suppressed": len(k.suppressed)}
    # the text of the file that defines the kernel (a header, or the compiled file): the corpus entry
    row["source_sha256"], row["source_text"], row["source_bytes"] = read_source(
        root / k.defined_in if k.defined_in else fr.path)
    return row


def _loc(loc: SourceLocation | None, root: Path) -> SourceLocation | None:
    return None if loc is None else replace(loc, file=rel_path(loc.file, root))


def relative(f: Finding, root: Path) -> Finding:
    """The finding with its source files relative to ``root``."""
    return replace(f, first=_loc(f.first, root), second=_loc(f.second, root),
                   also=tuple(Site(_loc(s.first, root), _loc(s.second, root), s.count) for s in f.also))


LOCATION_FIELDS = tuple(x.name for x in fields(SourceLocation))  # file line column text function


def finding_row(f: Finding, root: Path) -> dict[str, Any]:
    """Every field of :class:`Finding`: scalars as columns, locations flattened (``first_file`` …), the rest
    (threads, detail, launch, also) as JSON text; and the key that matches it across two versions."""
    d = relative(f, root).to_dict()
    row: dict[str, Any] = {k: d[k] for k in ("kind", "severity", "kernel", "message", "space", "variable", "element",
                                             "count")}
    for which in ("first", "second"):
        loc = d[which] or {}
        for name in LOCATION_FIELDS:
            row[f"{which}_{name}"] = loc.get(name)
    for name in ("threads", "detail", "launch", "also"):
        row[name] = json.dumps(d[name], sort_keys=True, default=str)
    row["match_key"] = match_key(row)
    return row


def _norm(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def match_key(row: dict[str, Any]) -> str:
    """What identifies a finding across two versions of a file: kind, kernel, variable, memory space and the
    files and source text of its two locations, never their line numbers (an edit above shifts them)."""
    locs = sorted((row.get(f"{w}_file") or "", _norm(row.get(f"{w}_text"))) for w in ("first", "second")
                  if row.get(f"{w}_file") is not None)
    blob = json.dumps([row["kind"], row["kernel"], row["variable"], row["space"], locs])
    return hashlib.sha1(blob.encode()).hexdigest()[:20]


def location_dict(row: dict[str, Any], which: str) -> dict[str, Any] | None:
    if row.get(f"{which}_file") is None:
        return None
    return {name: row.get(f"{which}_{name}") for name in LOCATION_FIELDS}


__all__ = ["ANALYSIS_FIELDS", "file_row", "finding_row", "kernel_row", "location_dict", "match_key", "options_hash",
           "options_json", "read_source", "relative"]

