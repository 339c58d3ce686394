#!/usr/bin/env python3
"""Whole programs written apart from simu's own tests, a planted bug and its fix in each: found as errors?

Two sets, each written by a helper that never read simu's corpus or code, compiled with nvcc and checked on an H200
(every fixed twin clean under compute-sanitizer's memcheck, racecheck and synccheck):

- ``irregular_programs`` (issue 29): fourteen graph programs; each ``main()`` reads a CSR graph from a file named on
  the command line and sizes its launch from it (``race/main.cu``, ``fixed/main.cu``).
- ``host_value_programs`` (issues 28, 29): sixteen programs whose deciding values and data reach the kernel through
  ordinary C++ host code (dim3 members, constexpr asserts, members an init function sets, wrappers across files,
  template cases, RAII buffers, ``cudaMemcpyToSymbol`` of a struct, structs of pointers, kernel sequences, index
  arrays the host fills); ``racy/``, ``fixed/`` (several files in some), ``INDEX.md`` for what each exercises.

Each ``<set>/<name>/LABEL.txt`` names the buggy kernel and its lines.  Each twin is copied to a temporary directory
and scanned alone (``python -m simu scan FOLDER --budget 2 --no-cache -j 1 --format json``).  The racy twin
*counts* when an error of the labelled kernel names one of the labelled lines; on the fixed twin every error is
false (a warning on a kernel instance the program never launches says so).

    .venv/bin/python benchmarks/labelled_programs.py [--set irregular_programs|host_value_programs]
        [--only NAME[,NAME...]] [--json FILE]
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
SETS = ("irregular_programs", "host_value_programs")


def label(folder: Path) -> tuple[str, set[int]]:
    """The buggy kernel and the lines ``LABEL.txt`` names (``line 65``; ``19-20 (…) vs 24 (…)``)."""
    text = (folder / "LABEL.txt").read_text()
    kernel = re.search(r"kernel:\s*`?(\w+)", text).group(1)  # type: ignore[union-attr]
    where = next(line for line in text.splitlines() if line.startswith("lines"))
    body = where.split("):", 1)[1] if "):" in where else where
    while re.search(r"\([^()]*\)", body):
        body = re.sub(r"\([^()]*\)", " ", body)  # what each line does, in parentheses: not line numbers
    lines = {int(x) for x in re.findall(r"line (\d+)|\((\d+)[,)]", where) for x in x if x}  # `(35, what)`
    for a, b in re.findall(r"(?<![\w.])(\d+)(?:\s*-\s*(\d+))?(?![\w.])", body):
        lines |= set(range(int(a), int(b or a) + 1))
    return kernel, lines


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
    ap.add_argument("--set", default=SETS[0], choices=SETS, help="which set of programs")
    ap.add_argument("--only", help="comma-separated pair names")
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args()
    programs = REPO / "benchmarks" / a.set
    names = sorted(p.name for p in programs.iterdir() if (p / "LABEL.txt").exists())
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    rows, found, false_errors = [], 0, 0
    print("| pair | kernel | racy twin | fixed twin E/W |\n|---|---|---|---|")
    for name in names:
        kernel, lines = label(programs / name)
        racy = scan(next(programs / name / d for d in ("race", "racy") if (programs / name / d).is_dir()))
        hits = [f for k, f in racy if k.startswith(kernel) and any(
            (loc or {}).get("line") in lines for loc in (f.get("first"), f.get("second")))]
        best = "error" if any(f["severity"] == "error" for f in hits) else \
            "warning" if any(f["severity"] == "warning" for f in hits) else "missed"
        fixed = [f["severity"] for _, f in scan(programs / name / "fixed")]
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
