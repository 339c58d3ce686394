#!/usr/bin/env python3
"""The 13 irregular CUDA pairs (issue 29) in search mode and with their host's main(): found as errors?

For every pair ``<name>_race.cu`` / ``<name>_fixed.cu`` of ``corpus/cuda/irregular``:

* **search mode**: the corpus file alone, its ``launch:`` lines ignored
  (:func:`simu.bench.search.search_corpus_file`, 40 evaluations, seed 0, the wall-clock guards raised so the
  result depends on the evaluations only, as in ``tests/test_corpus_search.py``);
* **host mode**: the whole program ``benchmarks/irregular_host/<name>/{race,fixed}/main.cu`` (the same kernel code
  under a ``main()`` that reads its graph, keys or matrix from a file named on the command line), analysed by
  ``python -m simu scan FOLDER --budget 1 --no-cache -j 1 --format json``, one process at a time.  Each folder
  is copied to a temporary directory first, so that the scan sees that program alone (not this repository's
  other programs, whose kernels share names, nor its configuration).

A finding *counts* on the racy twin when it is a ``race`` or an ``out-of-bounds`` on one of the lines the corpus
file's ``// expect:`` lines label (mapped to the program's lines: the kernel code is the same text, shifted);
the racy twin is *error* when such a finding is an error, *warning* when the best is a warning, else *missed*.
On the fixed twin every finding is false: the table gives its errors / warnings (info and performance findings
are listed in the notes, not counted).  The notes also give, for every result that is not an error on a racy
twin and every finding on a fixed twin, the finding's launch origin and the assumption simu states, and any
kernel that was not fully analysed.

    .venv/bin/python benchmarks/irregular.py [--only NAME[,NAME...]] [--skip-search] [--skip-host] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus" / "cuda" / "irregular"
HOST = REPO / "benchmarks" / "irregular_host"
COUNTED = ("race", "out-of-bounds")  # the kinds that count as the labelled bug
RANK = {"error": 2, "warning": 1}
_EXPECT_LINES = re.compile(r"^//\s*expect[^:]*:.*?\blines?\s+([\d,\s]+)$")


def labelled_lines(path: Path) -> set[int]:
    """The lines the file's ``// expect:`` lines name."""
    out: set[int] = set()
    for line in path.read_text().splitlines():
        m = _EXPECT_LINES.match(line.strip())
        if m:
            out |= {int(x) for x in m.group(1).replace(",", " ").split()}
    return out


def line_shift(corpus_file: Path, program: Path) -> int:
    """How many lines further down the program holds the corpus file's kernel code (the text after the corpus
    header, the comment block that ends at the first blank line)."""
    lines = corpus_file.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if not line.strip()) + 1
    code = "\n".join(lines[start:]).strip()
    text = program.read_text()
    at = text.find(code)
    if at < 0:
        raise SystemExit(f"{program}: the kernel code of {corpus_file.name} is not there unchanged")
    return text[:at].count("\n") - start


def verdict(findings: list[dict], lines: set[int]) -> tuple[str, dict | None]:
    """``error`` / ``warning`` / ``missed`` for a racy twin, and the finding that decides it."""
    best = None
    for f in findings:
        at = {loc["line"] for loc in (f.get("first"), f.get("second")) if loc}
        at |= {loc["line"] for a in f.get("also") or () for loc in (a.get("first"), a.get("second")) if loc}
        if f["kind"] in COUNTED and at & lines and RANK.get(f["severity"], 0):
            if best is None or RANK[f["severity"]] > RANK[best["severity"]]:
                best = f
    return (best["severity"] if best else "missed"), best


def describe(f: dict) -> str:
    where = f"line {f['first']['line']}" if f.get("first") else "?"
    launch = f.get("launch") or {}
    text = f"{f['severity']} {f['kind']} {f.get('detail', {}).get('access', '')} {where}".replace("  ", " ")
    text += f" [grid {launch.get('grid')} block {launch.get('block')}]: origin: {launch.get('origin', '-')}"
    if f.get("detail", {}).get("assumption"):
        text += f"; assumption: {f['detail']['assumption']}"
    return text


# -- search mode -------------------------------------------------------------------------------------------------

def search_file(path: Path) -> dict:
    """Search mode on one corpus file: its findings as the scan's JSON writes them, and the corpus verdict."""
    import simu.bench.search as search
    from simu.bench.search import search_corpus_file

    seen: list = []
    real = search.evaluate

    def keep(cf, opt="O0", model="lockstep", findings=None, *args):  # search_corpus_file returns counts only
        seen.extend(findings or [])
        return real(cf, opt, model, findings, *args)

    search.evaluate = keep
    t0 = time.perf_counter()
    try:
        r = search_corpus_file(path, "full", evaluations=40, seed=0, guard_seconds=600, probe_seconds=120)
    except Exception:  # a crash is a result: reported, the other files go on
        return {"findings": [], "crash": traceback.format_exc(), "seconds": time.perf_counter() - t0}
    finally:
        search.evaluate = real
    return {"findings": [f.to_dict() for f in seen], "missing": r.missing, "unexpected": r.unexpected,
            "seconds": time.perf_counter() - t0}


# -- host mode ---------------------------------------------------------------------------------------------------

def scan_program(folder: Path) -> dict:
    """``simu scan`` on a copy of one program folder: its findings and what was not fully analysed."""
    with tempfile.TemporaryDirectory(prefix="simu-irregular-") as tmp:
        root = Path(tmp) / folder.parent.name
        shutil.copytree(folder, root)
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "simu", "scan", str(root), "--budget", "1", "--no-cache", "-j", "1",
                            "--format", "json"], capture_output=True, text=True, cwd=tmp)
        seconds = time.perf_counter() - t0
    out = {"findings": [], "problems": [], "seconds": seconds, "rc": p.returncode}
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        out["problems"].append(f"no JSON report (exit {p.returncode}): {p.stderr.strip()[-2000:]}")
        return out
    if "Traceback" in p.stderr:
        out["problems"].append(f"traceback on stderr: {p.stderr.strip()[-2000:]}")
    for fl in report.get("files", []):
        if fl.get("status") != "ok":
            out["problems"].append(f"{fl['path']}: {fl.get('status')}: {fl.get('diagnostic', '')[:500]}")
        for k in fl.get("kernels", []):
            if k.get("status") != "analysed":
                out["problems"].append(f"{fl['path']} {k['name']}: {k.get('status')}: {k.get('reason', '')[:500]}")
            out["findings"] += k.get("findings", [])
    return out


# -- the table ---------------------------------------------------------------------------------------------------

def fixed_counts(findings: list[dict]) -> tuple[int, int]:
    return (sum(f["severity"] == "error" for f in findings), sum(f["severity"] == "warning" for f in findings))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated pair names")
    ap.add_argument("--skip-search", action="store_true")
    ap.add_argument("--skip-host", action="store_true")
    ap.add_argument("--json", type=Path, help="write every result here")
    args = ap.parse_args()

    pairs = sorted(p.name[: -len("_race.cu")] for p in CORPUS.glob("*_race.cu"))
    if args.only:
        pairs = [p for p in pairs if p in args.only.split(",")]
    modes = [m for m, skip in (("search", args.skip_search), ("host", args.skip_host)) if not skip]
    results: dict = {}
    for pair in pairs:
        lines = labelled_lines(CORPUS / f"{pair}_race.cu")
        for mode in modes:
            for twin in ("race", "fixed"):
                corpus_file = CORPUS / f"{pair}_{twin}.cu"
                if mode == "search":
                    r, shift = search_file(corpus_file), 0
                else:
                    program = HOST / pair / twin / "main.cu"
                    r, shift = scan_program(program.parent), line_shift(corpus_file, program)
                if twin == "race":
                    r["verdict"], r["decisive"] = verdict(r["findings"], {n + shift for n in lines})
                results[(pair, mode, twin)] = r
                print(f"{pair:24} {mode:6} {twin:5} {len(r['findings'])} findings {r['seconds']:.1f}s"
                      + (f" -> {r['verdict']}" if twin == "race" else ""), file=sys.stderr, flush=True)

    head = "| pair | " + " | ".join(f"{m} racy | {m} fixed E/W" for m in modes) + " |"
    print(head)
    print("|" + "---|" * (1 + 2 * len(modes)))
    for pair in pairs:
        cells = []
        for m in modes:
            cells.append(results[(pair, m, "race")]["verdict"])
            cells.append("%d / %d" % fixed_counts(results[(pair, m, "fixed")]["findings"]))
        print(f"| {pair} | " + " | ".join(cells) + " |")
    print()
    for m in modes:
        found = sum(results[(p, m, "race")]["verdict"] == "error" for p in pairs)
        false = sum(fixed_counts(results[(p, m, "fixed")]["findings"])[0] for p in pairs)
        warned = sum(fixed_counts(results[(p, m, "fixed")]["findings"])[1] for p in pairs)
        print(f"{m}: bugs found as errors: {found}/{len(pairs)}; errors on fixed twins: {false} "
              f"(warnings on fixed twins: {warned})")

    print("\nNotes")
    for pair in pairs:
        for m in modes:
            race, fixed = results[(pair, m, "race")], results[(pair, m, "fixed")]
            for twin, r in (("race", race), ("fixed", fixed)):
                tag = f"- {pair} {m} {twin}:"
                for problem in r.get("problems", []) + ([r["crash"]] if r.get("crash") else []):
                    print(f"{tag} NOT FULLY ANALYSED: {problem}")
                if m == "search" and (r.get("missing") or r.get("unexpected")):
                    print(f"{tag} corpus verdict: missing {r['missing']}, unexpected {r['unexpected']}")
            if race["verdict"] != "error":
                if race["decisive"]:
                    print(f"- {pair} {m} race: {describe(race['decisive'])}")
                else:
                    others = "; ".join(describe(f) for f in race["findings"]) or "no finding at all"
                    print(f"- {pair} {m} race: nothing on the labelled lines; {others}")
            for f in fixed["findings"]:
                print(f"- {pair} {m} fixed: {describe(f)}")
    if args.json:
        args.json.write_text(json.dumps({" ".join(k): v for k, v in results.items()}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
