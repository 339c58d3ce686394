"""The genome of a launch: grid and block dimensions, scalar arguments, buffer fill and a seed.

Genes are floats in one flat list (what DEAP's operators work on); :class:`Genes` names each
position and :class:`Layout` turns a genome into a :class:`~simu.launch.Launch` (rounding,
clamping and honouring the kernel's declared block size and the user's constraints).  Every
buffer is drawn by :func:`~simu.launch.buffers.draw_buffer` (those behind pointers a parameter's memory holds
too: :mod:`simu.launch.members`), so each carries the spec that
regenerates it: any launch the search reports can be replayed exactly.  OpenCL images and CUDA
texture objects get arrays too, sized from the thread count like buffers (an image covers the
launch: :func:`~simu.launch.images.default_image_shape`), and a ``sampler_t`` gets
:data:`~simu.launch.images.DEFAULT_SAMPLER`; none of them is a gene.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from simu.evolve.dictionary import bound_arguments, stride_arguments, thread_stride_bytes
from simu.evolve.distinct import distinct_launch
from simu.evolve.floors import length_floors
from simu.evolve.genes import Genes
from simu.evolve.member_bounds import bound_members, member_bounds
from simu.evolve.requirements import satisfied
from simu.evolve.roles import INFERRED, Role, buffer_roles, draw_valid, split
from simu.evolve.shape import Shape
from simu.evolve.sizes import PLAUSIBLE_MAX_BYTES, drawn_part, kernel_sizes, plausible_length, size_values
from simu.ir import Kernel
from simu.ir.types import FloatType, IntType, VectorType
from simu.launch.blocks import with_sample
from simu.launch.buffers import PLAIN_FILLS, draw_buffer, element_type, fill_arguments, seal
from simu.launch.constraints import BLOCK_DIMS, buffer_length, int_expression
from simu.launch.graphs import GRAPH_FILLS
from simu.launch.images import (
    DEFAULT_SAMPLER,
    default_image_shape,
    default_texture_shape,
    image_dtype,
    is_image,
    is_sampler,
    is_texture,
    launch_params,
    texture_layout,
)
from simu.launch.members import draw_members, element_of, holds_pointers, member_names
from simu.launch.model import MAX_THREADS_PER_BLOCK, Launch, LocalBuffer
from simu.launch.spec import share_buffers

SIZE_NAMES = re.compile(r"^(n|N|num\w*|len\w*|size\w*|count\w*|width|height|depth|rows|cols|\w*_?(size|len|count|n)|"
                        r"nx|ny|nz|m|M|k|K|dim\w*|total\w*|elements|nnz|w|h)$")


TOLERANCE_NAMES = re.compile(r"^(tol\w*|eps\w*|\w*_?(tol|eps|epsilon|tolerance|threshold|thresh))$", re.I)


SAMPLE_START = 1024  # threads of the first sample of a host's grid too large to run whole


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
    shared_bytes: str | None = None  # the host's dynamic shared size over the scalars and the block
    dictionary: dict[str, list[int]] = field(default_factory=dict)  # constants the kernel compares arguments with
    same: dict[str, str] = field(default_factory=dict)  # parameter -> the parameter whose buffer it shares
    grid_relative: set[str] = field(default_factory=set)  # arguments a block id is divided by or reduced modulo
    origin: str = ""  # what the launches it builds say of where they come from (LaunchRecord.origin)
    dims: dict[str, str] = field(default_factory=dict)  # "grid.y" -> expression of scalars (host relations)
    derived: dict[str, str] = field(default_factory=dict)  # scalar parameter -> expression of others (no gene)
    length_factors: dict[str, int] = field(default_factory=dict)  # buffer -> the host allocation's constant factor
    requires: list[str] = field(default_factory=list)  # comparisons the host asserts (launches breaking one: invalid)
    state: dict[str, str] = field(default_factory=dict)  # scalar -> host text reading program state (refute_state)
    symbols: dict[str, tuple[int, Any]] = field(default_factory=dict)  # what the host copies into module variables
    holders: list = field(default_factory=list)  # module variables holding device pointers (members.symbol_holders)
    # the threads a launch over the thread budget (a host's grid the search cannot shrink) runs of its blocks:
    # few at first, then as many as what the sampled launches record allows (sizes.fit_sample)
    sample_threads: int = SAMPLE_START
    at: Genes = field(init=False)  # the named gene positions
    image_dtype: dict[str, np.dtype] = field(init=False)  # per image parameter: its default element type
    params: list = field(init=False)  # the kernel's parameters and its legacy texture references
    textures: dict = field(init=False)  # texture parameter -> its TextureLayout

    def __post_init__(self) -> None:
        self.at = Genes(len(self.scalars))
        self.image_dtype = {p.name: image_dtype(self.kernel, p) for p in self.kernel.params if is_image(p)}
        self.params = launch_params(self.kernel)  # legacy texture references are backed like texture objects
        self.textures = {p.name: texture_layout(self.kernel, p.name) for p in self.params if is_texture(p)}

    def initial(self, rng: random.Random) -> list[float]:
        """A start point from typical GPU sizes: warp multiples, powers of two, sizes near the thread count."""
        s = self.shape
        r = rng.random() if s.block_prior else 1.0
        if r < 0.7:
            block = s.block_prior
        elif r < 0.85:  # tiles are often twice the block (halos, a zeroed upper half, two loads per thread)
            block = tuple(max(1, d // 2) if d > 1 else 1 for d in s.block_prior)
        elif s.local_dims >= 2:
            choices = [(16, 16, 1), (8, 8, 1), (32, 8, 1), (16, 4, 1), (8, 4, 2)] if s.local_dims == 2 else \
                [(8, 8, 4), (4, 4, 4), (16, 4, 2)]
            block = rng.choice(choices)
        else:
            block = (rng.choice([32, 64, 128, 256, 96, 33, 31, 65]), 1, 1)
        grid = tuple(rng.choice([1, 2, 3, 4]) if d < s.grid_dims else 1 for d in range(3))
        small = {p.name: rng.choice([1, 2, 3]) for p in self.scalars
                 if p.name in self.grid_relative and p.name not in self.ranges and rng.random() < 0.5}
        if small and s.grid_dims:  # blockIdx.x % k: a grid larger than k
            grid = (max(grid[0], max(small.values()) + rng.choice([1, 2, 5])),) + grid[1:]
        at = self.at
        genes = [0.0] * at.size
        genes[at.GRID] = [math.log2(g) for g in grid]
        genes[at.BLOCK] = [math.log2(b) for b in block]
        threads = int(np.prod(grid)) * int(np.prod(block))
        for j, p in enumerate(self.scalars):
            genes[at.scalar(j)] = float(small[p.name]) if p.name in small else self._initial_scalar(p, rng, threads)
        choices = self.fill_choices  # contents drawn from the kernel's use of them, half the time where it has roles
        genes[at.FILL] = float(rng.randrange(len(PLAIN_FILLS), len(choices)) if len(choices) > len(PLAIN_FILLS)
                               and rng.random() < 0.5 else rng.randrange(len(choices)))
        genes[at.SEED] = float(rng.randrange(1 << 16))
        return genes

    def _initial_scalar(self, p, rng: random.Random, threads: int) -> float:
        if p.name in self.ranges:
            lo, hi = self.ranges[p.name]
            return rng.uniform(lo, hi)
        if isinstance(p.type, FloatType):
            if TOLERANCE_NAMES.match(p.name):  # tolerances and thresholds are small
                return rng.choice([0.001, 0.01, 0.1, 0.5])
            return rng.choice([0.5, 1.0, 1.5, 2.0, -1.0])
        words = self.dictionary.get(p.name)
        if words and not SIZE_NAMES.match(p.name) and rng.random() < 0.35:
            return float(rng.choice(words))  # sizes start near the thread count; the sweep tries their words
        if SIZE_NAMES.match(p.name):
            fixed = self.shape.reqd_block or self.shape.block_prior
            two_d = self.shape.grid_dims >= 2 or (fixed[1] > 1 if fixed else self.shape.block_dims >= 2)
            side = int(round(math.sqrt(threads))) if two_d else threads
            if rng.random() < 0.2:  # sometimes the other guess: sizes are not always what they seem
                side = threads if two_d else int(round(math.sqrt(threads)))
            return float(max(1, side + rng.choice([0, 0, -1, 1, -3, 5])))
        if rng.random() < 0.15:  # an unrecognised name may still be a size or a count
            return float(max(1, threads + rng.choice([0, -1, 1])))
        return float(rng.choice([0, 1, 2, 3, 4, 8, 16, 32]))

    def decode(self, genes: list[float]) -> tuple[tuple[int, int, int], tuple[int, int, int], dict[str, Any], int, int]:
        s, at = self.shape, self.at
        grid = [max(1, int(round(2 ** min(max(g, 0.0), 12)))) for g in genes[at.GRID]]
        block = [max(1, int(round(2 ** min(max(b, 0.0), 10)))) for b in genes[at.BLOCK]]
        for d in range(3):
            if d >= s.grid_dims:
                grid[d] = 1
            if d >= s.local_dims or d in s.unread_axes:
                block[d] = 1
        if s.block_cap:
            block = [min(b, c) for b, c in zip(block, s.block_cap, strict=True)]
        if s.reqd_block:
            block = list(s.reqd_block)
        if self.fixed_block:
            block = list(self.fixed_block)
        if self.fixed_grid:
            grid = list(self.fixed_grid)
        values: dict[str, Any] = {}
        for p, g in zip(self.scalars, genes[at.SCALARS], strict=True):
            values[p.name] = self._scalar_value(p, g)
        values.update(self.fixed)
        if self.requires:
            values = self._satisfy(values)
        if self.dims or self.derived:
            grid, block, values = self._relate(grid, block, values)
        grid, block = self._clamp(grid, block)
        fill = self.fill_index(genes)
        seed = int(genes[at.SEED]) & 0xFFFF
        return tuple(grid), tuple(block), values, fill, seed  # type: ignore[return-value]

    def fill_index(self, genes: list[float]) -> int:
        """The position in :attr:`fill_choices` of the fill ``genes`` draw the buffers with."""
        return int(genes[self.at.FILL]) % len(self.fill_choices)

    @cached_property
    def roles(self) -> dict[str, Role]:
        """The buffers whose contents the search chooses and whose values the kernel uses as indices or offsets
        (:func:`~simu.evolve.roles.buffer_roles`)."""
        chosen = self.chosen_contents()
        return {n: r for n, r in buffer_roles(self.kernel).items() if n in chosen}

    @cached_property
    def floors(self) -> dict[str, int]:
        """Per buffer, the elements the kernel's constant-bounded indices reach (:mod:`simu.evolve.floors`)."""
        return length_floors(self.kernel)

    def _searched_length(self, name: str, length: int) -> int:
        """A buffer's length when the search chooses it: the launch's default, at least what the kernel's constants
        reach, one more for CSR offsets (``row[v + 1]`` for every ``v < n``)."""
        role = self.roles.get(name)
        return max(length + (1 if role is not None and role.kind == "offsets" else 0), self.floors.get(name, 0))

    @cached_property
    def fill_choices(self) -> tuple[str, ...]:
        """The fills the fill gene picks from: :data:`PLAIN_FILLS`, and for a kernel with :attr:`roles` each of them
        again with those buffers drawn as the kernel uses them (``inferred+zeros``, :func:`~.roles.split`)."""
        return PLAIN_FILLS + (tuple(f"{INFERRED}+{f}" for f in PLAIN_FILLS) if self.roles else ())

    def refill(self, genes: list[float], plain: str) -> list[float]:
        """``genes`` with the other buffers drawn with fill ``plain`` (the roles' buffers as they were drawn)."""
        out = list(genes)
        inferred, _ = split(self.fill_choices[self.fill_index(genes)])
        out[self.at.FILL] = float(self.fill_choices.index(f"{INFERRED}+{plain}" if inferred else plain))
        return out

    def _clamp(self, grid: list[int], block: list[int]) -> tuple[list[int], list[int]]:
        """The block within a GPU's threads per block, the launch within the search's thread budget."""
        limit = min(self.shape.max_threads, MAX_THREADS_PER_BLOCK)
        while int(np.prod(block)) > limit:
            k = int(np.argmax(block))
            block[k] = max(1, block[k] // 2)
        # a grid the host gives runs a sample of its blocks instead (launch()), unless a grid barrier needs them all
        host = set() if self.shape.whole_grid else \
            {d for d in range(3) if self.fixed_grid or f"grid.{'xyz'[d]}" in self.dims}
        while int(np.prod(block)) * int(np.prod(grid)) > self.max_total_threads:
            free = [d for d in range(3) if d not in host and grid[d] > 1]
            if not free:
                break
            k = max(free, key=lambda d: grid[d])
            grid[k] = max(1, grid[k] // 2)
        return grid, block

    def _broken_dims(self, grid, block, values: dict[str, Any]) -> str:
        """`` (grid.y = 3, not n = 40: over the search's thread budget)`` when a derived component had to be
        halved past its host relation (:meth:`_relate`), else ``""``."""
        out = []
        for key, expr in self.dims.items():
            part, axis = key.split(".")
            if part == "grid" and self.fixed_grid or part == "block" and (self.fixed_block or self.shape.reqd_block):
                continue
            try:
                want = max(1, int(int_expression(expr, values)))
            except (ValueError, KeyError, ZeroDivisionError, OverflowError):
                continue
            got = (grid if part == "grid" else block)["xyz".index(axis)]
            if got != want:
                out.append(f"{key} = {got}, not {expr} = {want}")
        return f" ({'; '.join(out)}: over the search's thread budget)" if out else ""

    def broken(self, launch: Launch) -> str | None:
        """The first host assertion (``requires``) the launch's arguments break, or None.  A grid or block
        component the host derives from the arguments (``dims``) that comes out below 1 is one too: the host
        makes no launch there (``grid.x = inum/256`` with ``inum = 8``), so the search must not run one; and so is
        an argument the host derives that comes out negative while the kernel never compares it with a negative
        constant (caffe's ``height_col = (height + 2*pad_h - …)/stride_h + 1`` at a kernel wider than the padded
        image: the program never convolves there)."""
        for r in self.requires:
            try:
                if not int_expression(r, launch.args):
                    return r
            except (ValueError, KeyError, ZeroDivisionError, OverflowError):
                return r  # the host program divides by zero evaluating it
        fixed = {"grid": self.fixed_grid is not None,
                 "block": self.fixed_block is not None or self.shape.reqd_block is not None}
        for key, expr in self.dims.items():
            if fixed[key.split(".")[0]]:
                continue
            try:
                if int(int_expression(expr, launch.args)) < 1:
                    return f"{key} = {expr} >= 1"
            except ZeroDivisionError:
                return f"{key} = {expr} (a division by zero)"  # the host divides by zero computing it
            except (ValueError, KeyError, OverflowError, TypeError):
                continue
        for name, expr in self.derived.items():  # the host's formula at values it never computes with
            v = launch.args.get(name)
            if isinstance(v, int) and v < 0 and not any(w < 0 for w in self.dictionary.get(name, [])):
                return f"{name} = {expr} >= 0"
        return None

    def _holds(self, values: dict[str, Any]) -> bool:
        vals = self._derive(values)
        try:
            return all(int_expression(r, vals) for r in self.requires)
        except (ValueError, KeyError, ZeroDivisionError, OverflowError):
            return False

    def _satisfy(self, values: dict[str, Any]) -> dict[str, Any]:
        """``values`` with one or two of the searched arguments the host's assertions name changed so that they hold
        (:func:`~simu.evolve.requirements.satisfied`); unchanged when nothing found holds (the launch is then
        rejected)."""
        if self._holds(values):
            return values
        names = self._bases({str(i): r for i, r in enumerate(self.requires)})
        return satisfied(values, [n for n in names if isinstance(values.get(n), int)], self.requires, self._holds)

    def _derive(self, values: dict[str, Any], block: list[int] | None = None) -> dict[str, Any]:
        """``values`` with the derived arguments (host relations, in their order, over ``block`` too) filled in."""
        out, dims = dict(values), dict(zip(BLOCK_DIMS, block or (1, 1, 1), strict=True))
        params = {p.name: p for p in self.kernel.params}
        for name, expr in self.derived.items():
            try:
                v = int_expression(expr, {**dims, **out})
            except (ValueError, KeyError, ZeroDivisionError, OverflowError):
                v = 0  # the host program would divide by zero too: no launch of its; a harmless value
            p = params.get(name)
            out[name] = self._scalar_value(p, float(v)) if p is not None and not isinstance(p.type, IntType) \
                else max(min(int(v), 1 << 20), -(1 << 20))
        return out

    def _relate(self, grid: list[int], block: list[int], values: dict[str, Any]
                ) -> tuple[list[int], list[int], dict[str, Any]]:
        """Grid and block from the arguments (``dims``) and derived arguments.  Over the thread budget, halves the
        components the search chooses, then the integer arguments the derived components follow from (a smaller
        launch the program can make), then derived components (:meth:`_clamp`)."""
        fixed = {"grid": self.fixed_grid is not None,
                 "block": self.fixed_block is not None or self.shape.reqd_block is not None}
        dims = {k: e for k, e in self.dims.items() if not fixed[k.split(".")[0]]}
        bases = self._bases(dims)
        for _ in range(64):
            vals = self._derive(values)
            g, b = list(grid), list(block)
            for key, expr in dims.items():
                part, axis = key.split(".")
                d = "xyz".index(axis)
                try:
                    if "blockDim_" in expr:  # over the block the search draws: OpenCL's global / a local size
                        # computed at run time (host.opencl), CUDA's ``(n + threads - 1) / threads``
                        total = int(int_expression(expr, {**vals, "blockDim_x": 1, "blockDim_y": 1, "blockDim_z": 1}))
                        b[d] = max(1, min(b[d], total))  # no group larger than the global size: OpenCL's rule
                        v = max(1, int(int_expression(expr, {**vals, "blockDim_x": b[0], "blockDim_y": b[1],
                                                             "blockDim_z": b[2]})))
                    else:
                        v = int(int_expression(expr, vals))
                except (ValueError, KeyError, ZeroDivisionError, OverflowError):
                    continue  # the search's component stays
                (g if part == "grid" else b)[d] = max(1, min(v, 1 << 20))
            free = [d for d in range(3) if f"grid.{'xyz'[d]}" not in dims]
            while int(np.prod(b)) * int(np.prod(g)) > self.max_total_threads and any(g[d] > 1 for d in free):
                d = max(free, key=lambda d: g[d])
                g[d] = max(1, g[d] // 2)
            over = int(np.prod(b)) * int(np.prod(g)) > self.max_total_threads or \
                int(np.prod(b)) > min(self.shape.max_threads, MAX_THREADS_PER_BLOCK)
            shrink = [n for n in bases if isinstance(values.get(n), int) and abs(values[n]) > 1]
            if not over or not shrink:
                return g, b, self._derive(values, b)
            n = max(shrink, key=lambda n: abs(values[n]))
            values = {**values, n: int(values[n] / 2)}
        return g, b, self._derive(values, b)

    def _bases(self, dims: dict[str, str]) -> list[str]:
        """The searched scalar arguments the derived components follow from (through derived arguments too)."""
        genes = {p.name for p in self.scalars}
        seen: set[str] = set()
        todo = [n for e in dims.values() for n in re.findall(r"[A-Za-z_]\w*", e)]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            todo += re.findall(r"[A-Za-z_]\w*", self.derived.get(n, ""))
        return sorted(n for n in seen if n in genes)

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

    def invented_buffers(self) -> set[str]:
        """The pointer parameters whose length the search chooses (no host allocation or constraint gives it)."""
        return {p.name for p in self.params if p.is_pointer and not p.is_local and p.name not in self.buffer_lengths
                and p.name not in self.same and not is_image(p) and not is_texture(p)} | self.members

    def undrawable_sizes(self, launch: Launch, name: str, offset: int) -> int:
        """The bytes the kernel's own sizes allow for buffer ``name`` of ``launch`` (a searched one) when its
        plausible length had to be capped below them and byte ``offset`` lies inside them, else 0: an access
        there, out of bounds of the longest buffer a refutation draws, may be in bounds of the host's."""
        p = next((q for q in self.params if q.name == name and q.is_pointer), None)
        arr = launch.args.get(name)
        if p is None or not isinstance(arr, np.ndarray) or not arr.size:
            return 0
        dt, comps = element_type(p.pointee, p.pointee_size)
        unit = np.dtype(dt).itemsize * comps
        values = size_values(launch.args.values())
        sizes = kernel_sizes(arr.size // comps, values, self.length_factors.get(name, 1),
                             per_threads=self._per_threads(launch, unit, launch.args)) * unit
        return sizes if sizes > PLAUSIBLE_MAX_BYTES and offset < sizes else 0

    @cached_property
    def strides(self) -> set[str]:
        """The integer arguments that multiply a thread index in an address (:func:`stride_arguments`)."""
        return stride_arguments(self.kernel)

    @cached_property
    def bounds(self) -> set[str]:
        """The integer arguments a thread-dependent value is compared with (:func:`bound_arguments`)."""
        return bound_arguments(self.kernel)

    @cached_property
    def thread_stride(self) -> int:
        """Bytes between consecutive threads' records in the kernel's addresses (0: none constant)."""
        return thread_stride_bytes(self.kernel)

    def _per_threads(self, launch: Launch, unit: int, values: dict) -> int:
        """Elements of ``unit`` bytes one record per thread of ``launch`` takes (see :attr:`thread_stride`), or a square
        matrix with rows a stride argument long (``a[i * n + j]``: ``n * n``), whichever is more."""
        square = max((abs(int(values[n])) ** 2 for n in self.strides & set(values)
                      if isinstance(values[n], (int, np.integer)) and abs(int(values[n])) <= 1 << 16), default=0)
        return max(launch.total_threads * self.thread_stride // max(1, unit), square)

    def chosen_contents(self) -> set[str]:
        """The buffers whose contents the search chooses (its fill gene and seed): pointer parameters, neither
        ``__local`` nor images nor textures, that no host, user or launch comment gives a fill and that do not
        share another parameter's buffer (a shared one is its partner's), and the member buffers behind the pointers
        a parameter's memory holds (:mod:`simu.launch.members`)."""
        return {p.name for p in self.params if p.is_pointer and not p.is_local and p.name not in self.fills
                and p.name not in self.same and not is_image(p) and not is_texture(p)} | self.members

    @cached_property
    def members(self) -> set[str]:
        """Every name a member buffer of this kernel's launches may take (:func:`~simu.launch.members.member_names`)."""
        return {n for p in (*self.params, *self.holders) if holds_pointers(p) for n in member_names(p)}

    def distinct(self, launch: Launch) -> tuple[Launch, list[str]] | None:
        """``launch`` with distinct contents (:func:`~simu.launch.buffers.distinct_contents`) in every
        integer, float or struct buffer whose contents the search chose, other buffers and the
        float fields of structs (``Param.pointee_floats``, from the debug information) as they were, and the
        names of the buffers that changed; None when none changes.  CSR offsets and the rows' indices drawn as the
        kernel uses them (:mod:`simu.launch.graphs`) stay: any graph is data a program can pass, shared neighbours
        and all; so do buffers an earlier kernel of the program left (:mod:`simu.evolve.sequence`), unless it made
        them from buffers the search drew (``drawn_inputs``)."""
        kept = {n for n, s in launch.buffer_specs.items()
                if s.get("fill") in GRAPH_FILLS or ("produced" in s and "drawn_inputs" not in s)}
        out = distinct_launch(self.params, self.chosen_contents() - kept, launch)  # pointer slots kept, members varied
        if out is not None:
            bound_members(out[0].args, self.member_ranges, out[0].buffer_specs)
        return out

    @cached_property
    def member_ranges(self) -> dict[str, tuple]:
        """Struct members passed by value that index a fixed-size array, with their bounds (:mod:`.member_bounds`)."""
        return member_bounds(self.kernel)

    def launch(self, genes: list[float], plausible: bool = False) -> Launch:
        """The launch ``genes`` describe; with ``plausible`` every buffer whose length the search chooses
        gets the longest length the kernel's sizes allow (:func:`plausible_length`) instead."""
        grid, block, values, fill, seed = self.decode(genes)
        inferred, plain = split(self.fill_choices[fill])
        launch = Launch(grid, block, {}, self.warp_size, 0, seed, origin=self.origin + self._broken_dims(grid, block,
                                                                                                        values),
                        fill=plain)
        T = launch.total_threads
        ints = size_values(values.values())
        length = max([T] + ints)
        if ints and ints[-1] <= 1 << 16:  # one row of n elements per block is a common layout
            length = max(length, launch.num_blocks * ints[-1])
        if self.shape.block_dims >= 2 or self.shape.grid_dims >= 2:
            # 2-D kernels index a[row * width + col]: room for width x height (or width^2)
            two = ints[-1] * (ints[-2] if len(ints) >= 2 else ints[-1]) if ints else 0
            length = max(length, min(two, 1 << 22), ints[-1] ** 2 if ints and ints[-1] <= 2048 else 0)
        rng = np.random.default_rng(seed)
        args: dict[str, Any] = {}
        for p in self.params:
            if p.name in self.same:
                continue  # shares its partner's buffer (below)
            if p.name in values:
                args[p.name] = values[p.name]
            elif is_sampler(p):
                args[p.name] = DEFAULT_SAMPLER
            elif is_image(p):
                shape = default_image_shape(p, launch.global_size, T)
                fill_name, extra = fill_arguments(self.fills.get(p.name) or plain, values, int(np.prod(shape)))
                arr, spec = draw_buffer(self.image_dtype[p.name], int(np.prod(shape)), fill_name, rng, seed=seed,
                                        threads=T, **extra)
                spec["shape"] = list(shape)
                args[p.name], launch.buffer_specs[p.name] = seal(arr.reshape(shape), spec), spec
            elif p.is_local and p.name in self.buffer_lengths:  # a size the host code gives
                n = buffer_length(self.buffer_lengths[p.name], values, T, launch.num_blocks)
                dt, comps = element_type(p.pointee, p.pointee_size)
                args[p.name] = LocalBuffer(n * dt.itemsize * comps)
            elif p.is_local:
                args[p.name] = LocalBuffer(max(16, 16 * launch.threads_per_block))
            elif is_texture(p) and (self.textures[p.name].axes or p.name not in self.buffer_lengths):
                layout = self.textures[p.name]
                shape = default_texture_shape(layout, launch.global_size, T, length)
                fill_name, extra = fill_arguments(self.fills.get(p.name) or plain, values, int(np.prod(shape)))
                arr, spec = draw_buffer(layout.dtype, int(np.prod(shape)), fill_name, rng, seed=seed, threads=T,
                                        **extra)
                if len(shape) > 1:
                    arr, spec["shape"] = arr.reshape(shape), list(shape)
                args[p.name], launch.buffer_specs[p.name] = seal(arr, spec), spec
            elif p.is_pointer or is_texture(p):
                layout = self.textures.get(p.name)
                dt, comps = element_of(p) if p.is_pointer \
                    else (layout.dtype, layout.components)
                n, declared = drawn_part(self._searched_length(p.name, length), np.dtype(dt).itemsize * comps)
                if p.name in self.buffer_lengths:
                    n, declared = drawn_part(buffer_length(self.buffer_lengths[p.name], values, T, launch.num_blocks),
                                             np.dtype(dt).itemsize * comps)
                elif plausible and p.is_pointer:
                    unit = np.dtype(dt).itemsize * comps
                    n = plausible_length(length, ints, unit, self.length_factors.get(p.name, 1),
                                         self._per_threads(launch, unit, values))
                fill_name, extra = fill_arguments(self.fills.get(p.name) or plain, values, n * comps)
                # integers bounded by the thread count: values read as indices stay inside the buffers
                arr, spec = draw_buffer(dt, n * comps, fill_name, rng, seed=seed, threads=T, **extra)
                spec.update({"declared": declared * comps} if declared else {})  # drawn in part (sizes.drawn_part)
                args[p.name], launch.buffer_specs[p.name] = seal(arr, spec), spec
            else:
                args[p.name] = 0
        share_buffers(args, launch.buffer_specs, self.same)
        longest = ((lambda _, unit: plausible_length(length, ints, unit, 1, self._per_threads(launch, unit, values)))
                   if plausible else None)
        launch.pointers = draw_members([*self.params, *self.holders], args, launch.buffer_specs, plain, rng, length,
                                       seed=seed, threads=T, length_of=longest)
        bound_members(args, self.member_ranges, launch.buffer_specs)
        drawn = draw_valid(self.roles, args, launch.buffer_specs, rng) if inferred else ""
        if drawn:
            launch.origin += f" (contents drawn as the kernel uses them: {drawn})"
        launch.args = {p.name: args[p.name] for p in self.params} | {n: args[n] for n in args if n in self.members}
        launch.symbols = dict(self.symbols)
        if self.shape.dynamic_shared:
            launch.dynamic_shared = self.fixed_dynamic_shared if self.fixed_dynamic_shared is not None \
                else self._shared_bytes(values, launch)
        if not self.shape.whole_grid:  # a host's grid past the thread budget runs a sample of its blocks
            with_sample(launch, self.sample_threads if self.grid_given else self.max_total_threads, self.sample_threads,
                        leading=any("declared" in s for s in launch.buffer_specs.values()))
        return launch

    def _shared_bytes(self, values: dict[str, Any], launch: Launch) -> int:
        """The dynamic shared bytes: the host's formula at this launch's values, else 16 a thread (a guess)."""
        if self.shared_bytes:
            try:
                v = int(int_expression(self.shared_bytes, {**dict(zip(BLOCK_DIMS, launch.block, strict=True)),
                                                           **values}))
                if v >= 0:
                    return v
            except (ValueError, KeyError, ZeroDivisionError, OverflowError, TypeError):
                pass
        return 16 * launch.threads_per_block

    @property
    def grid_given(self) -> bool:
        """Whether nothing the search draws changes the grid: the host's (or user's) constants, or components
        derived from arguments the host gives."""
        if self.fixed_grid is not None:
            return True
        used = ["grid." + "xyz"[d] for d in range(max(1, self.shape.grid_dims))]
        if not all(k in self.dims for k in used):
            return False
        return not set(self._bases({k: self.dims[k] for k in used})) - set(self.fixed)
