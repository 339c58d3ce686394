"""`simu mine export`: findings, kernels or history changes as JSON lines or CSV (columns in docs/mining.md)."""

from __future__ import annotations

import csv
import json
import sqlite3
from typing import TextIO

from simu.mine.queries import rows

FORMATS = ("jsonl", "csv")
JSON_COLUMNS = ("threads", "detail", "launch", "also")  # stored as JSON text; JSON lines embed them as values


def export(conn: sqlite3.Connection, what: str, fmt: str, out: TextIO, with_source: bool = False) -> int:
    """Write one export to ``out``; how many rows."""
    n = 0
    writer = None
    for row in rows(conn, what, with_source):
        if fmt == "jsonl":
            for col in JSON_COLUMNS:
                if isinstance(row.get(col), str):
                    row[col] = json.loads(row[col])
            out.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
        else:
            if writer is None:
                writer = csv.DictWriter(out, fieldnames=list(row), extrasaction="ignore")
                writer.writeheader()
            writer.writerow(row)
        n += 1
    return n


__all__ = ["FORMATS", "export"]
