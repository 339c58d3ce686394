#!/usr/bin/env python3
"""GPU cross-check of the CUDA corpus: simu's findings against the real GPU and compute-sanitizer.

For every CUDA corpus kernel launch (the ``// launch:`` lines), side by side:

* simu's findings (and the file's ``// expect:`` labels),
* the replay on the GPU (the user's source compiled as it is with NVRTC through CuPy, ``--runs``
  launches): do the outputs change from run to run, do they equal simu's output (default
  schedule), or one of simu's amplified schedules,
* ``compute-sanitizer --tool racecheck`` (shared-memory hazards) and ``--tool synccheck``
  (illegal barriers) on the same replay,
* the device verdict, as :mod:`simu.validate.core` defines it: confirmed-on-hardware,
  confirmed-in-model, not-observed, match, model-mismatch.

Two phases, so that the GPU machine needs neither simu nor its compiler:

    python scripts/gpu_crosscheck.py --prepare DIR      # here: simu, no GPU needed
    python scripts/gpu_crosscheck.py --run DIR          # on the GPU machine: numpy + CuPy only
    python scripts/gpu_crosscheck.py                    # both, where simu and a GPU are together

``--prepare`` writes DIR/manifest.json, one standalone replay script per launch
(:func:`simu.validate.script.script_for_launch`) and simu's outputs (``*.simu.npz``);
``--run`` writes DIR/results.json and prints the table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-4, 1e-5  # GPUs contract multiply-adds: compare floats with a tolerance


# ---------------------------------------------------------------------------------------------
# Phase 1: simu (no GPU)


def prepare(out_dir: Path, corpus: Path, schedules: int) -> list[dict]:
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from simu.bench.corpus import parse
    from simu.launch.record import record_of
    from simu.launch.spec import build_launch
    from simu.validate import amplify
    from simu.validate.core import model_schedules, simulate, uses_atomics
    from simu.validate.script import script_for_launch
    from simu.validate.targets import detect_findings, load_target

    out_dir.mkdir(parents=True, exist_ok=True)
    entries = []
    files = sorted(p for p in corpus.rglob("*.cu"))
    for path in files:
        cf = parse(path)
        if not cf.launches:
            continue
        try:
            first = load_target(path, cf.kernel)
        except Exception as exc:  # noqa: BLE001 - report and go on
            print(f"{path}: cannot compile: {exc}", file=sys.stderr)
            continue
        kernels = [first.kernel] if cf.kernel else first.module.kernels
        for k in kernels:
            target = load_target(path, k, module=first.module)
            for li, L in enumerate(cf.launches):
                ident = f"{len(entries):03d}_{re.sub(r'[^A-Za-z0-9]+', '_', path.stem)}_{li}"
                try:
                    launch = build_launch(k, L.grid, L.block, L.args, L.buffers, L.seed, L.warp, L.shared)
                    findings = detect_findings(target, launch)
                    default, why, steps = simulate(target, launch)
                except Exception as exc:  # noqa: BLE001
                    print(f"{path}: {k.display_name}: {exc}", file=sys.stderr)
                    continue
                arrays = {}
                labels = []
                if default is not None:
                    arrays.update({f"default.{n}": v for n, v in default.items()})
                    labels.append("default")
                racy = any(f.kind in ("race", "benign-race", "warp-race", "barrier-divergence") for f in findings)
                atomics = uses_atomics(target.source)
                if (racy or atomics) and default is not None:
                    for i, s in enumerate(model_schedules(target, launch, amplify.device_schedules(launch, schedules))):
                        out, _, _ = simulate(target, launch, s)
                        if out is not None:
                            arrays.update({f"s{i}.{n}": v for n, v in out.items()})
                            labels.append(f"s{i}")
                np.savez(out_dir / f"{ident}.simu.npz", **arrays)
                script = script_for_launch(target.source, "cuda", target.info, record_of(launch),
                                           title=f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
                                                 f"{k.display_name} launch {li}")
                (out_dir / f"{ident}.py").write_text(script)
                entries.append({
                    "id": ident, "file": str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path),
                    "kernel": k.display_name, "launch": li,
                    "expect": "clean" if cf.clean else "; ".join(e.text for e in cf.expectations),
                    "simu": sorted({f"{f.kind}" + (f" {f.space}" if f.space else "") + " L" +
                                    ",".join(str(l.line) for l in (f.first, f.second) if l) for f in findings}),
                    "racy": racy, "atomics": atomics, "model": labels, "simu_error": why if default is None else "",
                })
    (out_dir / "manifest.json").write_text(json.dumps(entries, indent=2))
    print(f"prepared {len(entries)} launches in {out_dir}")
    return entries


# ---------------------------------------------------------------------------------------------
# Phase 2: the GPU (numpy + CuPy + compute-sanitizer; no simu)


def _outputs_equal(a, b) -> bool:
    import numpy as np

    for name in set(a) & set(b):
        x, y = np.asarray(a[name]).reshape(-1), np.asarray(b[name]).reshape(-1)
        if x.shape != y.shape:
            return False
        if x.dtype.kind == "f":
            with np.errstate(all="ignore"):
                xd, yd = x.astype(np.float64), y.astype(np.float64)
                ok = (np.abs(xd - yd) <= ATOL + RTOL * np.abs(yd)) | (np.isnan(x) & np.isnan(y)) | (x == y)
            if not ok.all():
                return False
        elif x.tobytes() != y.tobytes():
            return False
    return True


def _sanitize(tool: str, script: Path, sanitizer: str, timeout: int) -> str:
    argv = [sanitizer, "--tool", tool, "--print-limit", "10", sys.executable, str(script), "--quiet"]
    if tool == "racecheck":
        argv[3:3] = ["--racecheck-report", "all"]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    text = proc.stdout + proc.stderr
    m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", text)
    if m:
        return "clean" if m.group(1) == "0" else f"{m.group(2)} errors, {m.group(3)} warnings"
    m = re.search(r"ERROR SUMMARY: (\d+) errors?", text)
    if m:
        return "clean" if m.group(1) == "0" else f"{m.group(1)} errors"
    tail = " ".join(text.strip().splitlines()[-2:])[:120]
    return f"failed (rc {proc.returncode}): {tail}"


def _run_one(entry: dict, d: Path, runs: int, sanitizer: str | None, timeout: int) -> dict:
    import numpy as np

    script = d / f"{entry['id']}.py"
    saved = d / f"{entry['id']}.gpu.npz"
    res = dict(entry)
    try:
        proc = subprocess.run([sys.executable, str(script), "--runs", str(runs), "--save", str(saved), "--quiet"],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        proc = None
    if proc is None or proc.returncode != 0:
        why = "timeout" if proc is None else (proc.stderr.strip().splitlines() or ["?"])[-1][:160]
        res.update(device="replay failed", verdict="error", device_error=why)
    else:
        m = re.search(r"runs differing from the first: (\d+)", proc.stdout)
        differing = int(m.group(1)) if m else 0
        with np.load(saved) as got:
            dev = {n: got[n] for n in got.files}
        with np.load(d / f"{entry['id']}.simu.npz") as sim:
            model = {}
            for key in sim.files:
                label, name = key.split(".", 1)
                model.setdefault(label, {})[name] = sim[key]
        matches_default = "default" in model and _outputs_equal(dev, model["default"])
        matched = next((l for l, o in model.items() if _outputs_equal(dev, o)), None)
        outcomes = []
        for o in model.values():
            if not any(_outputs_equal(o, p) for p in outcomes):
                outcomes.append(o)
        if entry["racy"]:
            if differing:
                verdict = "confirmed-on-hardware"
            elif len(outcomes) > 1 and matched:
                verdict = "confirmed-in-model"
            else:
                verdict = "not-observed"
        elif matched and not differing:
            verdict = "match"  # simu's default output, or (atomics) one of simu's schedules' outputs
        elif differing and entry.get("atomics"):
            verdict = "nondeterministic"  # the order of atomic operations changes the output
        else:
            verdict = "model-mismatch"
        model = "= simu" if matches_default else ("= simu " + matched) if matched else "!= simu"
        res.update(device=f"{differing}/{runs - 1} runs differ; {model}",
                   verdict=verdict, runs_differing=differing, matches_model=matched, model_outcomes=len(outcomes),
                   simu_error=entry.get("simu_error", ""))
    if sanitizer:
        res["racecheck"] = _sanitize("racecheck", script, sanitizer, timeout)
        res["synccheck"] = _sanitize("synccheck", script, sanitizer, timeout)
    else:
        res["racecheck"] = res["synccheck"] = "no compute-sanitizer"
    return res


def run_phase(d: Path, runs: int, jobs: int, timeout: int) -> list[dict]:
    entries = json.loads((d / "manifest.json").read_text())
    try:
        import cupy  # noqa: F401

        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no device")
    except Exception as exc:  # noqa: BLE001
        print(f"no CUDA device: skipping CUDA replay ({exc})")
        return []
    sanitizer = shutil.which("compute-sanitizer") or next(
        (p for p in ("/usr/local/cuda/bin/compute-sanitizer", "/opt/cuda/bin/compute-sanitizer") if os.path.exists(p)),
        None)
    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
        results = list(pool.map(lambda e: _run_one(e, d, runs, sanitizer, timeout), entries))
    (d / "results.json").write_text(json.dumps(results, indent=2, default=str))
    _print_table(results)
    return results


def _print_table(results: list[dict]) -> None:
    cols = ("file", "kernel", "expect", "simu", "racecheck", "synccheck", "device", "verdict")
    rows = [[r["file"].replace("corpus/cuda/", ""), r["kernel"], r["expect"], "; ".join(r["simu"]) or "clean",
             r.get("racecheck", ""), r.get("synccheck", ""), r.get("device", ""), r.get("verdict", "")]
            for r in results]
    try:
        from rich.console import Console
        from rich.table import Table

        t = Table(title="CUDA corpus: simu vs GPU vs compute-sanitizer", show_lines=False)
        for c in cols:
            t.add_column(c, overflow="fold")
        for row in rows:
            t.add_row(*row)
        Console(width=200).print(t)
    except ImportError:
        print(" | ".join(cols))
        for row in rows:
            print(" | ".join(row))
    counts: dict[str, int] = {}
    for r in results:
        counts[r.get("verdict", "?")] = counts.get(r.get("verdict", "?"), 0) + 1
    print(", ".join(f"{v} {k}" for k, v in sorted(counts.items())))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prepare", type=Path, help="write replay scripts and simu's results to this folder")
    ap.add_argument("--run", type=Path, help="run the prepared folder on the GPU")
    ap.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "cuda")
    ap.add_argument("--runs", type=int, default=5, help="GPU launches per kernel launch")
    ap.add_argument("--schedules", type=int, default=3, help="simu schedules per racy launch")
    ap.add_argument("--jobs", type=int, default=8, help="replays in parallel")
    ap.add_argument("--timeout", type=int, default=240, help="seconds per replay / sanitizer run")
    a = ap.parse_args(argv)
    if a.prepare:
        prepare(a.prepare, a.corpus, a.schedules)
    if a.run:
        run_phase(a.run, a.runs, a.jobs, a.timeout)
    if not a.prepare and not a.run:
        d = Path(tempfile.mkdtemp(prefix="simu-gpu-"))
        prepare(d, a.corpus, a.schedules)
        run_phase(d, a.runs, a.jobs, a.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
