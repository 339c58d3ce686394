"""What a launch may ask of the machine, checked before anything is allocated.

The numbers are the machine's (:class:`simu.interp.Limits` defaults and its per-block limit;
``tests/test_cli_robustness.py`` keeps them equal): the command line and the pipeline call
:func:`check_launch_shape` / :func:`check_launch` first, so that a launch the machine would refuse
(or that would exhaust memory while its buffers are drawn) is a one-line error naming the limit.
This module imports no numpy and no analysis code.
"""

from __future__ import annotations

import math
from typing import Any

from simu.errors import LaunchError

MAX_THREADS_PER_BLOCK = 1024
MAX_THREADS = 1 << 20  # threads of one launch (simu.interp.Limits.max_threads)
MAX_MEMORY_BYTES = 1 << 30  # bytes of buffers of one launch (simu.interp.Limits.max_memory_bytes)
WARP_SIZES = (1, 2, 4, 8, 16, 32, 64)
# shared memory per block: a real GPU's default static limit and its opt-in dynamic maximum (configurable:
# max-static-shared / max-dynamic-shared, --max-static-shared / --max-dynamic-shared)
MAX_STATIC_SHARED = 48 * 1024
MAX_DYNAMIC_SHARED = 227 * 1024

__all__ = ["MAX_DYNAMIC_SHARED", "MAX_MEMORY_BYTES", "MAX_STATIC_SHARED", "MAX_THREADS", "MAX_THREADS_PER_BLOCK",
           "WARP_SIZES", "check_launch", "check_launch_shape", "check_memory", "check_warp_size", "describe_params"]


def check_warp_size(warp_size: int) -> None:
    if warp_size not in WARP_SIZES:
        raise LaunchError(f"warp size {warp_size} is not supported: allowed {', '.join(map(str, WARP_SIZES))}")


def check_launch_shape(grid: tuple[int, ...] | None, block: tuple[int, ...] | None, warp_size: int | None = None,
                       max_threads: int = MAX_THREADS) -> None:
    """Threads per block, threads per launch and the warp size (either dimension may be unknown yet)."""
    if warp_size is not None:
        check_warp_size(warp_size)
    if block is not None:
        per_block = math.prod(block)
        if per_block > MAX_THREADS_PER_BLOCK:
            raise LaunchError(f"block of {per_block} threads is over the limit of {MAX_THREADS_PER_BLOCK} "
                              "threads per block")
    if grid is not None:
        total = math.prod(grid) * (math.prod(block) if block is not None else 1)
        if total > max_threads:
            raise LaunchError(f"launch of {total} threads is over the limit of {max_threads} threads")


def check_memory(nbytes: int, max_memory_bytes: int = MAX_MEMORY_BYTES, what: str = "the launch's buffers") -> None:
    if nbytes > max_memory_bytes:
        raise LaunchError(f"{what}: {_size(nbytes)} of buffers, over the limit of {_size(max_memory_bytes)} per launch")


def check_launch(launch: Any, max_threads: int = MAX_THREADS, max_memory_bytes: int = MAX_MEMORY_BYTES) -> None:
    """A built :class:`~simu.launch.model.Launch`: its shape and the memory its arguments take."""
    check_launch_shape(launch.grid if launch.blocks is None else (launch.run_blocks, 1, 1), launch.block,
                       launch.warp_size, max_threads)
    nbytes = launch.dynamic_shared * launch.run_blocks
    for v in launch.args.values():
        nbytes += int(getattr(v, "nbytes", 0) or 0)
        if type(v).__name__ == "LocalBuffer":
            nbytes += v.nbytes * launch.run_blocks
    check_memory(nbytes, max_memory_bytes)


def describe_params(kernel: Any) -> str:
    """``a (float *), n (int)``: a kernel's parameters, for messages."""
    return ", ".join(f"{p.name} ({p.c_type or p.type})" for p in kernel.params) or "none"


def _size(nbytes: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{nbytes} bytes"
