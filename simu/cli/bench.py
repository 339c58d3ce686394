"""`simu bench`: interpreter, detector and search benchmarks."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from simu import __version__
from simu.cli.common import console, fail


def bench_cmd(fmt: Annotated[str, typer.Option("--format", metavar="FORMAT", help="table or json")] = "table",
              repeat: Annotated[int, typer.Option(metavar="N", help="Timed runs per kernel (fastest kept).")] = 5,
              scale: Annotated[int, typer.Option(metavar="N", help="Multiply launch sizes (1 = 4096 threads).")] = 1,
              suite: Annotated[str, typer.Option(
                  metavar="SUITE", help="machine (interpreter speed), detect (10M-access trace), "
                       "search (random vs Simulee vs simu search on the corpus), oclgrind (one launch as a whole "
                       "`simu check` process beside oclgrind-kernel, when installed), generated (detector precision "
                       "and recall on labelled files), fidelity (simu -O0/-O1 against PoCL on clean OpenCL files) "
                       "or robustness (`simu scan` of a folder: statuses and tracebacks).")] = "machine",
              evaluations: Annotated[int, typer.Option(
                  metavar="N", help="Evaluations per kernel for --suite search and generated --search.")] = 40,
              jobs: Annotated[int, typer.Option("-j", "--jobs", metavar="N",
                                                help="Processes for the search, generated, fidelity and robustness "
                                                     "suites.")] = 2,
              accesses: Annotated[int, typer.Option(metavar="N", help="Trace size for --suite detect.")] = 10_000_000,
              corpus: Annotated[Optional[list[Path]], typer.Option(
                  metavar="PATH", help="Corpus folders or files (--suite search: default corpus/; generated, fidelity "
                       "and robustness: required).")] = None,
              seed: Annotated[int, typer.Option(metavar="N", help="Search seed for --suite search and generated.")] = 0,
              search: Annotated[bool, typer.Option(
                  "--search", metavar="", help="--suite generated: also judge every file with its launch lines "
                                               "ignored and launches searched.")] = False,
              budget: Annotated[Optional[float], typer.Option(
                  metavar="SECONDS", help="--suite robustness: the scan's search seconds per kernel "
                                          "\\[default: the scan's].")] = None) -> None:
    """Measure the machine's speed (thread-instructions/s) or the detectors' on a synthetic trace."""
    from rich.table import Table

    from simu.bench import median_rate, run_benchmarks

    if suite not in ("machine", "detect", "search", "oclgrind", "generated", "fidelity", "robustness"):
        fail(f"unknown --suite '{suite}'")
    if fmt not in ("table", "json"):
        fail(f"--format must be table or json, not '{fmt}'")
    if suite in ("generated", "fidelity", "robustness"):
        from simu.cli import bench_suites

        if suite == "generated":
            bench_suites.generated_suite(corpus, fmt, search, jobs, seed, evaluations)
        elif suite == "fidelity":
            bench_suites.fidelity_suite(corpus, fmt, jobs)
        else:
            bench_suites.robustness_suite(corpus, fmt, jobs, budget)
        return
    if suite == "search":
        from pathlib import Path as _P

        from simu.bench.search import compare_modes

        roots = corpus or [_P("corpus")]
        files = sorted({p for r in roots for p in ([r] if r.is_file() else r.rglob("*")) if p.suffix in (".cu", ".cl")})
        if not files:
            fail("no corpus files found (run from the repository root, or give --corpus)")
        summary, _ = compare_modes(files, evaluations=evaluations, jobs=jobs, seed=seed)
        if fmt == "json":
            sys.stdout.write(json.dumps({"version": __version__, "search": summary}, indent=2) + "\n")
            return
        table = Table(title=f"search modes over {len(files)} corpus files "
                            "(launch lines ignored, equal evaluation budgets)")
        cols = ["bugs_found", "bugs_expected", "files_fully_found", "files_with_bugs", "false_positives",
                "median_evaluations_to_first_finding", "mean_evaluations_to_first_finding",
                "p90_evaluations_to_first_finding", "median_seconds_to_first_finding", "median_seconds_per_file"]
        table.add_column("mode")
        for c in cols:
            table.add_column(c.replace("_", " "), justify="right")
        for mode, row in summary.items():
            table.add_row(mode, *[f"{row[c]:.3g}" if isinstance(row[c], float) else str(row[c]) for c in cols])
        console.print(table)
        return
    if suite == "detect":
        from simu.bench.detect import run_detect_bench

        b = run_detect_bench(accesses)
        row = {"accesses": b.accesses, "seconds": b.seconds, "trace_bytes": b.trace_bytes,
               "detector_peak_bytes": b.peak_bytes, "findings": b.findings}
        if fmt == "json":
            sys.stdout.write(json.dumps({"version": __version__, "detect": row}, indent=2) + "\n")
        else:
            console.print(f"detection over {b.accesses:,} accesses: {b.seconds:.2f} s, "
                          f"trace {b.trace_bytes / 2**20:.0f} MiB, "
                          f"detector peak memory {b.peak_bytes / 2**20:.0f} MiB, {b.findings} findings")
        return

    if suite == "oclgrind":
        _oclgrind(fmt, repeat)
        return
    results = run_benchmarks(repeat, scale)
    med = median_rate(results)
    if fmt == "json":
        rows = [{"kernel": r.kernel, "threads": r.threads, "steps": r.steps,
                 "thread_instructions": r.thread_instructions, "accesses": r.accesses,
                 "seconds": r.seconds, "thread_instructions_per_second": r.rate} for r in results]
        sys.stdout.write(json.dumps({"version": __version__, "results": rows,
                                     "median_thread_instructions_per_second": med}, indent=2) + "\n")
        return
    table = Table(title="simu bench (thread-instructions per second)")
    for col in ("kernel", "threads", "steps", "thread-instr", "accesses", "seconds", "Minstr/s"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(r.kernel, str(r.threads), str(r.steps), str(r.thread_instructions), str(r.accesses),
                      f"{r.seconds:.4f}", f"{r.rate / 1e6:.1f}")
    console.print(table)
    console.print(f"median: {med / 1e6:.1f} million thread-instructions/s")




def _oclgrind(fmt: str, repeat: int) -> None:
    from rich.table import Table

    from simu.bench.oclgrind import ORACLE, measure, median_ratios

    timings = measure(repeat)
    ratios, resident = median_ratios(timings), median_ratios(timings, resident=True)
    if fmt == "json":
        rows = [{"kernel": t.case.kernel, "work_items": t.case.work_items, "simu_seconds": t.simu_seconds,
                 "simu_status": t.simu_status, "simu_findings": t.simu_findings,
                 "resident_seconds": t.resident_seconds, "oclgrind_seconds": t.oracle_seconds, "ratio": t.ratio,
                 "resident_ratio": t.resident_ratio} for t in timings]
        sys.stdout.write(json.dumps({"version": __version__, "launches": rows,
                                     "median_ratio": {str(k): v for k, v in ratios.items()},
                                     "median_resident_ratio": {str(k): v for k, v in resident.items()}},
                                    indent=2) + "\n")
        return
    table = Table(title=f"one launch as a whole process, median of {repeat} (simu check vs {ORACLE} --data-races; "
                        "resident: answered by `simu serve`)")
    for col in ("kernel", "work-items", "simu s", "resident s", "simu status", "findings", "oclgrind s", "ratio",
                "resident ratio"):
        table.add_column(col, justify="right")

    def num(x: float | None) -> str:
        return f"{x:.2f}" if x else "-"

    for t in timings:
        table.add_row(t.case.kernel, f"{t.case.work_items:,}", num(t.simu_seconds), num(t.resident_seconds),
                      t.simu_status, str(t.simu_findings), num(t.oracle_seconds), num(t.ratio), num(t.resident_ratio))
    console.print(table)
    for size, ratio in ratios.items():
        if ratio is None:
            console.print(f"{size:,} work-items: median simu/Oclgrind not measured ({ORACLE} is not on the PATH)")
        else:
            console.print(f"{size:,} work-items: median simu/Oclgrind {ratio:.2f} as a new process, "
                          f"{num(resident.get(size))} answered by the resident checker")
