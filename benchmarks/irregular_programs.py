#!/usr/bin/env python3
"""Fourteen whole graph programs written apart from simu's own tests (issue 29): found as errors?

Each ``benchmarks/irregular_programs/<name>/`` holds ``race/main.cu`` (one planted bug), ``fixed/main.cu`` (the
smallest fix) and ``LABEL.txt`` (the buggy kernel, the bug's kind and its lines).  Every ``main()`` reads a CSR
graph from a file named on the command line and sizes its launch from it (a block size from ``argv`` in some).
They were written by a helper that never read simu's corpus or code, then compiled with nvcc and checked on an
H200: every fixed twin is clean under compute-sanitizer's memcheck, racecheck and synccheck.

Each folder is copied to a temporary directory and scanned alone
(``python -m simu scan FOLDER --budget 2 --no-cache -j 1 --format json``).  The racy twin *counts* when an error of
the labelled kernel names one of the labelled lines; on the fixed twin every error and warning is false.

    .venv/bin/python benchmarks/irregular_programs.py [--only NAME[,NAME...]] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROGRAMS = REPO / "benchmarks" / "irregular_programs"


def label(folder: Path) -> tuple[str, set[int]]:
    """The buggy kernel and the lines ``LABEL.txt`` names."""
    text = (folder / "LABEL.txt").read_text()
    kernel = re.search(r"kernel:\s*`?(\w+)", text).group(1)  # type: ignore[union-attr]
    where = next(line for line in text.splitlines() if line.startswith("lines"))
    return kernel, {int(x) for x in re.findall(r"line (\d+)", where)}


def scan(folder: Path) -> list[tuple[str, dict]]:
    """(kernel, finding) of one program scanned alone."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / folder.parent.name
        shutil.copytree(folder, root)
        out = Path(tmp) / "out.json"
        subprocess.run([sys.executable, "-m", "simu", "scan", str(root), "--budget", "2", "--no-cache", "-j", "1",
                        "--format", "json", "-o", str(out)], cwd=REPO, capture_output=True, timeout=600)
        data = json.loads(out.read_text())
    return [(k["name"], f) for file in data["files"] for k in file["kernels"] for f in k.get("findings", [])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated pair names")
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args()
    names = sorted(p.name for p in PROGRAMS.iterdir() if (p / "LABEL.txt").exists())
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    rows, found, false_errors = [], 0, 0
    print("| pair | kernel | racy twin | fixed twin E/W |\n|---|---|---|---|")
    for name in names:
        kernel, lines = label(PROGRAMS / name)
        racy = scan(PROGRAMS / name / "race")
        hits = [f for k, f in racy if k.startswith(kernel) and any(
            (loc or {}).get("line") in lines for loc in (f.get("first"), f.get("second")))]
        best = "error" if any(f["severity"] == "error" for f in hits) else \
            "warning" if any(f["severity"] == "warning" for f in hits) else "missed"
        fixed = [f["severity"] for _, f in scan(PROGRAMS / name / "fixed")]
        errors, warnings = fixed.count("error"), fixed.count("warning")
        found += best == "error"
        false_errors += errors
        rows.append({"pair": name, "kernel": kernel, "racy": best, "fixed_errors": errors, "fixed_warnings": warnings})
        print(f"| {name} | {kernel} | {best} | {errors} / {warnings} |", flush=True)
    print(f"bugs found as errors: {found}/{len(names)}; errors on fixed twins: {false_errors}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
