"""`simu bench`: thread-instructions per second of the machine on six standard kernels."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simu.interp import Limits, run
from simu.launch import Launch

KERNELS = Path(__file__).with_name("kernels.cl")


@dataclass
class BenchResult:
    kernel: str
    threads: int
    steps: int
    thread_instructions: int
    accesses: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.thread_instructions / self.seconds if self.seconds > 0 else 0.0


def _cases(rng: np.random.Generator, scale: int) -> list[tuple[str, Launch]]:
    n = 4096 * scale
    m = 64 * int(np.sqrt(scale))
    rows = n
    nnz_per_row = rng.integers(0, 16, rows)
    rowptr = np.concatenate([[0], np.cumsum(nnz_per_row)]).astype(np.int32)
    nnz = int(rowptr[-1])
    return [
        ("reduction", Launch(n // 256, 256, {"in": rng.random(n, np.float32),
                                            "out": np.zeros(n // 256, np.float32), "n": n})),
        ("scan", Launch(n // 256, 256, {"in": rng.integers(0, 10, n).astype(np.int32),
                                       "out": np.zeros(n, np.int32), "n": n})),
        ("matmul", Launch((m // 16, m // 16), (16, 16), {"A": rng.random(m * m, np.float32),
                                                        "B": rng.random(m * m, np.float32),
                                                        "C": np.zeros(m * m, np.float32), "n": m})),
        ("histogram", Launch(n // 256, 256, {"data": rng.integers(0, 1 << 20, 4 * n).astype(np.uint32),
                                            "bins": np.zeros(64, np.uint32), "n": 4 * n})),
        ("stencil", Launch(n // 256, 256, {"in": rng.random(n, np.float32), "out": np.zeros(n, np.float32), "n": n})),
        ("spmv", Launch(rows // 256, 256, {"rowptr": rowptr, "cols": rng.integers(0, rows, nnz).astype(np.int32),
                                          "vals": rng.random(nnz, np.float32), "x": rng.random(rows, np.float32),
                                          "y": np.zeros(rows, np.float32), "rows": rows})),
    ]


def run_benchmarks(repeat: int = 3, scale: int = 1) -> list[BenchResult]:
    """Run each kernel ``repeat`` times (after one warm-up) and keep the fastest run."""
    from simu.api import load_file

    module = load_file(KERNELS)
    rng = np.random.default_rng(0)
    out = []
    for name, launch in _cases(rng, scale):
        kernel = module.kernel(name)
        run(module, kernel, launch, Limits(max_seconds=120))  # warm-up: compiles the kernel once
        best = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            r = run(module, kernel, launch, Limits(max_seconds=120))
            dt = time.perf_counter() - t0
            if not r.outcome.completed:
                raise RuntimeError(f"benchmark {name} did not complete: {r.outcome}")
            if best is None or dt < best.seconds:
                best = BenchResult(name, launch.total_threads, r.steps, r.thread_instructions, len(r.trace), dt)
        out.append(best)
    return out


def median_rate(results: list[BenchResult]) -> float:
    return statistics.median(r.rate for r in results)
