"""`simu mine export`: findings, kernels or history changes as one JSON document, JSON lines or CSV (columns in
docs/mining.md; the JSON forms follow simu/report/schema/mine-export.schema.json, shipped with the package)."""

from __future__ import annotations

import csv
import json
import sqlite3
from typing import Any, TextIO

from simu.mine.queries import rows

FORMATS = ("json", "jsonl", "csv")
SCHEMA = "mine-export.schema.json"
SCHEMA_VERSION = 1  # of the JSON document and its rows
JSON_COLUMNS = ("threads", "detail", "launch", "also")  # stored as JSON text; the JSON forms embed them as values


def _json_row(row: dict[str, Any]) -> dict[str, Any]:
    for col in JSON_COLUMNS:
        if isinstance(row.get(col), str):
            row[col] = json.loads(row[col])
    return row


def export(conn: sqlite3.Connection, what: str, fmt: str, out: TextIO, with_source: bool = False) -> int:
    """Write one export to ``out``; how many rows.  ``json`` streams one document (``schema_version``, ``tool``,
    ``what``, ``rows``), so a large database never has to fit in memory."""
    n = 0
    writer = None
    if fmt == "json":
        from simu import __version__

        head = {"schema_version": SCHEMA_VERSION, "tool": {"name": "simu", "version": __version__}, "what": what}
        out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "rows": [')
    for row in rows(conn, what, with_source):
        if fmt == "json":
            out.write(("," if n else "") + "\n" + json.dumps(_json_row(row), ensure_ascii=False, default=str))
        elif fmt == "jsonl":
            out.write(json.dumps(_json_row(row), ensure_ascii=False, default=str) + "\n")
        else:
            if writer is None:
                writer = csv.DictWriter(out, fieldnames=list(row), extrasaction="ignore")
                writer.writeheader()
            writer.writerow(row)
        n += 1
    if fmt == "json":
        out.write("\n]}\n")
    return n


__all__ = ["FORMATS", "SCHEMA", "SCHEMA_VERSION", "export"]
