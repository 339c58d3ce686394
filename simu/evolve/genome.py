"""The genome of a launch: grid and block dimensions, scalar arguments, buffer fill and a seed.

Genes are floats in one flat list (what DEAP's operators work on); :class:`Layout` names each
position and turns a genome into a :class:`~simu.interp.Launch` (rounding, clamping and honouring
the kernel's declared block size and the user's constraints).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simu.ir import Kernel
from simu.ir.types import FloatType, IntType, VectorType
from simu.launch.model import MAX_THREADS_PER_BLOCK, Launch, LocalBuffer
from simu.launch.spec import element_type, make_buffer

FILLS = ("random", "ramp", "zeros", "ones", "small", "signed")
SIZE_NAMES = re.compile(r"^(n|N|num\w*|len\w*|size\w*|count\w*|width|height|depth|rows|cols|\w*_?(size|len|count|n)|"
                        r"nx|ny|nz|m|M|k|K|dim\w*|total\w*|elements|nnz|w|h)$")


@dataclass
class Shape:
    """What the IR says about a kernel's launch: dimensions used, fixed block, dynamic shared."""

    block_dims: int = 1
    grid_dims: int = 1
    reqd_block: tuple[int, int, int] | None = None
    max_threads: int = MAX_THREADS_PER_BLOCK
    dynamic_shared: bool = False


def kernel_shape(module, kernel: Kernel) -> Shape:
    bdim = gdim = 1
    for b in kernel.function.blocks:
        for ins in b.instrs:
            if ins.opcode != "call":
                continue
            name = ins.attrs.get("callee") or ""
            m = re.match(r"llvm\.nvvm\.read\.ptx\.sreg\.(tid|ntid|ctaid|nctaid)\.([xyz])$", name)
            if m:
                axis = "xyz".index(m.group(2)) + 1
                if m.group(1) in ("tid", "ntid"):
                    bdim = max(bdim, axis)
                else:
                    gdim = max(gdim, axis)
                continue
            m = re.match(r"_Z\d+(get_local_id|get_local_size|get_group_id|get_num_groups|get_global_id|get_global_size)", name)
            if m and ins.ops and ins.ops[0].kind == "const":
                axis = int(ins.ops[0].value) + 1
                if m.group(1) in ("get_local_id", "get_local_size", "get_global_id", "get_global_size"):
                    bdim = max(bdim, min(axis, 3))
                if m.group(1) in ("get_group_id", "get_num_groups", "get_global_id", "get_global_size"):
                    gdim = max(gdim, min(axis, 3))
    dyn = any(g.addrspace == 3 and g.external for g in module.globals.values())
    reqd = kernel.reqd_block or _block_from_tiles(module, kernel, bdim)
    return Shape(bdim, gdim, reqd, kernel.max_threads or MAX_THREADS_PER_BLOCK, dyn)


def _block_from_tiles(module, kernel: Kernel, bdim: int) -> tuple[int, int, int] | None:
    """The block a kernel was written for, read off its static shared tiles.

    Kernels with `__shared__ float tile[TILE][TILE + 1]` or `__local float s[WG + 2*R]` assume one
    thread per tile element; launching other block sizes only shows the kernel outside its
    contract (indices past the tile, elements nobody loads).  The tile's dimensions, rounded down
    to powers of two (dropping padding and halos), give the block."""
    from simu.ir.types import ArrayType

    used = _shared_globals_used(kernel)
    best = None
    for g in module.globals.values():
        if g.addrspace != 3 or g.external or g.name not in used or not isinstance(g.type, ArrayType):
            continue
        dims = []
        t = g.type
        while isinstance(t, ArrayType):
            dims.append(t.count)
            t = t.elem
        dims = [1 << (d.bit_length() - 1) for d in dims if d > 0]
        if bdim >= 2 and len(dims) >= 2:
            cand = (dims[-1], dims[-2], 1)
        else:
            cand = (dims[-1], 1, 1)
        cand = tuple(min(c, 1024) for c in cand)
        while cand[0] * cand[1] > MAX_THREADS_PER_BLOCK:
            cand = (cand[0] // 2, cand[1], 1)
        if best is None or cand[0] * cand[1] > best[0] * best[1]:
            best = cand
    if best is not None and best[0] * best[1] >= 32:
        return best  # type: ignore[return-value]
    return None


def _shared_globals_used(kernel: Kernel) -> set[str]:
    from simu.ir.constants import GlobalRef

    used = set()
    for b in kernel.function.blocks:
        for ins in b.instrs:
            for op in ins.ops:
                if isinstance(op.value, GlobalRef):
                    used.add(op.value.name)
    return used


@dataclass
class Layout:
    """Positions of the genes for one kernel, and the rules to decode them."""

    kernel: Kernel
    shape: Shape
    scalars: list[Any]  # Param objects of scalar parameters (searched)
    fixed: dict[str, Any] = field(default_factory=dict)  # user-fixed argument values
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    fixed_grid: tuple[int, int, int] | None = None
    fixed_block: tuple[int, int, int] | None = None
    buffer_lengths: dict[str, str] = field(default_factory=dict)
    fills: dict[str, str] = field(default_factory=dict)
    warp_size: int = 32
    max_total_threads: int = 4096
    fixed_dynamic_shared: int | None = None
    dictionary: dict[str, list[int]] = field(default_factory=dict)  # constants the kernel compares arguments with

    # gene positions: 0..2 grid (log2), 3..5 block (log2), then one per scalar, then fill, seed
    @property
    def size(self) -> int:
        return 6 + len(self.scalars) + 2

    def initial(self, rng: random.Random) -> list[float]:
        """A start point from typical GPU sizes: warp multiples, powers of two, sizes near the thread count."""
        s = self.shape
        if s.block_dims >= 2:
            choices = [(16, 16, 1), (8, 8, 1), (32, 8, 1), (16, 4, 1), (8, 4, 2)] if s.block_dims == 2 else \
                [(8, 8, 4), (4, 4, 4), (16, 4, 2)]
            block = rng.choice(choices)
        else:
            block = (rng.choice([32, 64, 128, 256, 96, 33, 31, 65]), 1, 1)
        grid = tuple(rng.choice([1, 2, 3, 4]) if d < s.grid_dims else 1 for d in range(3))
        genes = [math.log2(g) for g in grid] + [math.log2(b) for b in block]
        threads = int(np.prod(grid)) * int(np.prod(block))
        for p in self.scalars:
            genes.append(self._initial_scalar(p, rng, threads, grid, block))
        genes.append(float(rng.randrange(len(FILLS))))
        genes.append(float(rng.randrange(1 << 16)))
        return genes

    def _initial_scalar(self, p, rng: random.Random, threads: int, grid, block) -> float:
        if p.name in self.ranges:
            lo, hi = self.ranges[p.name]
            return rng.uniform(lo, hi)
        if isinstance(p.type, FloatType):
            return rng.choice([0.5, 1.0, 1.5, 2.0, -1.0])
        words = self.dictionary.get(p.name)
        if words and not SIZE_NAMES.match(p.name) and rng.random() < 0.35:
            return float(rng.choice(words))  # sizes start near the thread count; the sweep tries their words
        if SIZE_NAMES.match(p.name):
            two_d = self.shape.grid_dims >= 2 or (self.shape.reqd_block[1] > 1 if self.shape.reqd_block
                                                  else self.shape.block_dims >= 2)
            side = int(round(math.sqrt(threads))) if two_d else threads
            if rng.random() < 0.2:  # sometimes the other guess: sizes are not always what they seem
                side = threads if two_d else int(round(math.sqrt(threads)))
            return float(max(1, side + rng.choice([0, 0, -1, 1, -3, 5])))
        if rng.random() < 0.15:  # an unrecognised name may still be a size or a count
            return float(max(1, threads + rng.choice([0, -1, 1])))
        return float(rng.choice([0, 1, 2, 3, 4, 8, 16, 32]))

    def decode(self, genes: list[float]) -> tuple[tuple[int, int, int], tuple[int, int, int], dict[str, Any], int, int]:
        s = self.shape
        grid = [max(1, int(round(2 ** min(max(g, 0.0), 12)))) for g in genes[0:3]]
        block = [max(1, int(round(2 ** min(max(b, 0.0), 10)))) for b in genes[3:6]]
        for d in range(3):
            if d >= s.grid_dims:
                grid[d] = 1
            if d >= s.block_dims:
                block[d] = 1
        if s.reqd_block:
            block = list(s.reqd_block)
        if self.fixed_block:
            block = list(self.fixed_block)
        if self.fixed_grid:
            grid = list(self.fixed_grid)
        limit = min(s.max_threads, MAX_THREADS_PER_BLOCK)
        while int(np.prod(block)) > limit:
            k = int(np.argmax(block))
            block[k] = max(1, block[k] // 2)
        while int(np.prod(block)) * int(np.prod(grid)) > self.max_total_threads and max(grid) > 1:
            k = int(np.argmax(grid))
            grid[k] = max(1, grid[k] // 2)
        values: dict[str, Any] = {}
        for p, g in zip(self.scalars, genes[6:6 + len(self.scalars)], strict=False):
            values[p.name] = self._scalar_value(p, g)
        values.update(self.fixed)
        fill = int(genes[-2]) % len(FILLS)
        seed = int(genes[-1]) & 0xFFFF
        return tuple(grid), tuple(block), values, fill, seed  # type: ignore[return-value]

    def _scalar_value(self, p, g: float) -> Any:
        if p.name in self.ranges:
            lo, hi = self.ranges[p.name]
            g = min(max(g, lo), hi)
        t = p.type
        if isinstance(t, FloatType):
            return float(np.float32(g)) if t.kind == "float" else float(g)
        if isinstance(t, IntType):
            v = int(round(g))
            if t.bits == 1:
                return v & 1
            v = max(min(v, 1 << 20), -(1 << 20))  # keep loops and sizes tractable
            if SIZE_NAMES.match(p.name) or p.name.startswith(("n", "num")):
                v = max(v, 1)  # sizes and counts are positive by contract
            return v
        if isinstance(t, VectorType):
            return np.full(t.count, g)
        return g

    def launch(self, genes: list[float]) -> Launch:
        grid, block, values, fill, seed = self.decode(genes)
        launch = Launch(grid, block, {}, self.warp_size, 0, seed)
        T = launch.total_threads
        ints = sorted(abs(int(v)) for v in values.values()
                      if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and abs(int(v)) <= 1 << 22)
        length = max([T] + ints)
        if ints and ints[-1] <= 1 << 16:  # one row of n elements per block is a common layout
            length = max(length, launch.num_blocks * ints[-1])
        if self.shape.block_dims >= 2 or self.shape.grid_dims >= 2:
            # 2-D kernels index a[row * width + col]: room for width x height (or width^2)
            two = ints[-1] * (ints[-2] if len(ints) >= 2 else ints[-1]) if ints else 0
            length = max(length, min(two, 1 << 22), ints[-1] ** 2 if ints and ints[-1] <= 2048 else 0)
        rng = np.random.default_rng(seed)
        args: dict[str, Any] = {}
        for p in self.kernel.params:
            if p.name in values:
                args[p.name] = values[p.name]
            elif p.is_local:
                args[p.name] = LocalBuffer(max(16, 16 * launch.threads_per_block))
            elif p.is_pointer:
                dt, comps = element_type(p.pointee)
                n = length
                if p.name in self.buffer_lengths:
                    n = int(_eval_length(self.buffer_lengths[p.name], values, T, launch.num_blocks))
                fill_name = self.fills.get(p.name) or (FILLS[fill] if fill < len(FILLS) else "random")
                arr = _fill(dt, n * comps, fill_name, rng, T)
                args[p.name] = arr
            else:
                args[p.name] = 0
        launch.args = args
        if self.shape.dynamic_shared:
            launch.dynamic_shared = self.fixed_dynamic_shared if self.fixed_dynamic_shared is not None \
                else 16 * launch.threads_per_block
        return launch


def _fill(dtype: np.dtype, n: int, fill: str, rng: np.random.Generator, threads: int) -> np.ndarray:
    if fill == "small":  # values usable as indices: bounded by the thread count
        return rng.integers(0, max(threads, 1), n).astype(dtype) if dtype.kind in "iu" else \
            rng.uniform(0, 1, n).astype(dtype)
    if fill == "ramp" and dtype.kind in "iu":
        return (np.arange(n) % max(threads, 1)).astype(dtype)
    if fill == "random" and dtype.kind in "iu":  # keep integers usable as indices in small buffers
        return rng.integers(0, max(threads, 2), n).astype(dtype)
    if fill == "signed":  # negative values too: branches on a value's sign
        if dtype.kind == "i":
            return rng.integers(-max(threads, 2), max(threads, 2), n).astype(dtype)
        if dtype.kind == "u":
            return rng.integers(0, max(threads, 2), n).astype(dtype)
        return make_buffer(dtype, n, "random", rng)
    return make_buffer(dtype, n, fill, rng)


def _eval_length(expr: str, values: dict[str, Any], threads: int, blocks: int = 1) -> float:
    """Evaluate a buffer-length expression such as "n*m" over the argument values
    (also `threads`, the launch's thread count, and `blocks`, its block count)."""
    env = {k: v for k, v in values.items() if isinstance(v, (int, float, np.integer, np.floating))}
    env["threads"] = threads
    env["blocks"] = blocks
    if not re.fullmatch(r"[\w\s+\-*/()%]+", expr):
        raise ValueError(f"bad buffer length expression {expr!r}")
    return max(1, int(eval(expr, {"__builtins__": {}}, env)))  # noqa: S307 - arithmetic only, checked above
