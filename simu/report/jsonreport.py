"""`simu scan --format json`: the scan as one JSON document (schema: simu/report/schema/scan.schema.json)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from simu import __version__
from simu.codes import SEVERITIES

SCHEMA_VERSION = 2  # 2: a finding may group the sites of one problem (its 'also'); summary 'sites'


def schema(name: str = "scan.schema.json") -> dict[str, Any]:
    """A JSON Schema shipped with simu (``scan.schema.json``, ``sarif-subset.schema.json``)."""
    return json.loads(resources.files("simu.report").joinpath("schema", name).read_text())


def scan_to_dict(result, debug: bool = False) -> dict[str, Any]:
    """The stable JSON form of a :class:`simu.scan.ScanResult`."""
    o = result.options
    by_sev = {s: 0 for s in SEVERITIES}
    sites = {s: 0 for s in SEVERITIES}
    for f in result.findings:
        by_sev[f.severity] = by_sev.get(f.severity, 0) + 1
        sites[f.severity] = sites.get(f.severity, 0) + 1 + len(f.also)
    kernels = [k for _, k in result.kernels()]
    files = []
    for fr in result.files:
        fd: dict[str, Any] = {"path": fr.rel, "language": fr.language, "status": fr.status,
                              "diagnostic": fr.first, "diagnostics": fr.diagnostics, "kernels": [],
                              "where": _point(fr.where)}
        if debug and fr.traceback:
            fd["traceback"] = fr.traceback
        if fr.included_by:
            fd["included_by"] = fr.included_by
        if fr.analysed_through:
            fd["analysed_through"] = dict(fr.analysed_through)
        for k in fr.kernels:
            kd: dict[str, Any] = {
                "name": k.name, "mangled": k.mangled, "line": k.line, "status": k.status, "reason": k.reason,
                "where": _point(k.where),
                "launches": k.launches, "cached": k.cached, "seconds": round(k.seconds, 4),
                "findings": [f.to_dict() for f in k.findings],
                "suppressed": [{"finding": f.to_dict(), "reason": why} for f, why in k.suppressed],
            }
            if debug and k.traceback:
                kd["traceback"] = k.traceback
            if k.defined_in:
                kd["defined_in"] = k.defined_in
                kd["also_through"] = list(k.also_through)
            fd["kernels"].append(kd)
        files.append(fd)
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "simu", "version": __version__},
        "root": str(result.root),
        "options": {"paths": [str(p) for p in o.paths], "checks": list(o.checks), "warp_model": o.warp_model,
                    "budget": o.budget, "jobs": o.jobs, "fail_on": o.fail_on, "opt_level": o.opt_level,
                    "changed": o.changed},
        "summary": {
            "files": len(result.files),
            "kernels": len(kernels),
            "analysed": sum(1 for k in kernels if k.status == "analysed"),
            "incomplete": sum(1 for k in kernels if k.status == "incomplete"),
            "failed": sum(1 for k in kernels if k.status not in ("analysed", "incomplete")),
            "files_failed": sum(1 for f in result.files if f.status not in ("ok", "pending")),
            "cache_hits": result.stats.cache_hits,
            "analysed_now": result.stats.analysed,
            "suppressed": result.suppressed_count,
            "findings": by_sev,
            "sites": sites,
            "seconds": round(result.stats.seconds, 3),
            "host_files": dict(result.stats.host_files),
        },
        "interrupted": result.interrupted,
        "note": result.note,
        "warnings": list(result.warnings),
        "exit_code": result.exit_code(),
        "files": files,
    }


def render_json(result, debug: bool = False) -> str:
    return json.dumps(scan_to_dict(result, debug), indent=2, default=str, ensure_ascii=False) + "\n"


def _point(where) -> dict[str, Any] | None:
    return None if where is None else {"file": where.file, "line": where.line, "column": where.column}
