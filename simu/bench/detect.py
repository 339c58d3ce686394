"""Benchmark of the detectors on a synthetic trace (no kernel execution involved)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from simu.detect import Context, DetectOptions, detect
from simu.interp.memory import OFFSET_BITS, SPACE_GLOBAL, SPACE_SHARED, Memory
from simu.interp.outcome import Outcome, RunResult
from simu.interp.trace import READ, WRITE, TraceBuilder
from simu.launch.model import Launch


@dataclass
class DetectBench:
    accesses: int
    seconds: float
    trace_bytes: int
    peak_bytes: int  # peak memory allocated by the detectors (tracemalloc), on top of the trace
    findings: int


def synthetic_trace(accesses: int = 10_000_000, seed: int = 0):
    """A launch of 64 blocks x 64 threads: each step every lane reads or writes a shared or global
    word (its own, as in most correct kernels); barriers every 16 steps; about one step in a hundred
    touches other threads' words, so that the detectors have conflicts to find."""
    rng = np.random.default_rng(seed)
    launch = Launch((64, 1, 1), (64, 1, 1), {})
    T = launch.total_threads
    mem = Memory()
    shared = mem.allocate("tile", SPACE_SHARED, 64 * 4, launch.num_blocks)
    glob = mem.allocate("data", SPACE_GLOBAL, 4 * T * 4)
    lanes = np.arange(T, dtype=np.int64)
    block = lanes // 64
    tb = TraceBuilder()
    steps = -(-accesses // T)
    zeros = np.zeros(T, np.int32)
    for s in range(steps):
        epoch = np.full(T, s // 16, np.int32)
        if s % 2 == 0:
            off = block * 256 + ((lanes % 64) ^ (s % 97 == 0)) * 4  # own words; now and then a neighbour's
            addr = (shared.id << OFFSET_BITS) + off
            space = SPACE_SHARED
        else:
            off = (lanes * 4 + (s % 5) * T * 4) % (4 * T * 4)
            if s % 97 == 1:
                off = rng.integers(0, 64, T) * 4  # a burst of colliding global accesses
            addr = (glob.id << OFFSET_BITS) + off
            space = SPACE_GLOBAL
        action = WRITE if s % 3 else READ
        tb.add(lanes, addr, 4, space, epoch, zeros, action, s % 40, s, lanes.astype(np.uint64), np.full(T, s))
    trace = tb.finish()
    return launch, mem, trace


def run_detect_bench(accesses: int = 10_000_000) -> DetectBench:
    launch, mem, trace = synthetic_trace(accesses)
    result = RunResult(Outcome("completed"), {}, trace, allocations=mem.allocs)
    kernel = SimpleNamespace(display_name="synthetic")
    ctx = Context(kernel, launch, result, DetectOptions())  # type: ignore[arg-type]
    import tracemalloc

    t0 = time.perf_counter()
    findings = detect(ctx, ("races", "memory"))
    dt = time.perf_counter() - t0
    tracemalloc.start()  # a second, traced run for memory (tracing slows numpy allocations down)
    detect(ctx, ("races", "memory"))
    _, peak = tracemalloc.get_traced_memory()  # numpy reports its buffers to tracemalloc
    tracemalloc.stop()
    return DetectBench(len(trace), dt, trace.nbytes, peak, len(findings))
