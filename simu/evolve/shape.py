"""What a kernel's IR says about its launches: the dimensions it reads, a fixed block, dynamic shared memory."""

from __future__ import annotations

import re
from dataclasses import dataclass

from simu.evolve.tile_axes import tile_block
from simu.ir import Kernel
from simu.ir.spin import spin_loops
from simu.launch.model import MAX_THREADS_PER_BLOCK

_CUDA_IDS = re.compile(r"llvm\.nvvm\.read\.ptx\.sreg\.(tid|ntid|ctaid|nctaid)\.([xyz])$")
_PTX_BLOCK_ID = re.compile(r"%ctaid")
GRID_BARRIER = "__simu_grid_sync"  # what cooperative_groups' grid sync() calls (include/cuda/cooperative_groups.h)
_PTX_THREAD = re.compile(r"%(?:tid|laneid|ntid)")
_LINEAR_IDS = re.compile(r"_Z\d+(get_local_linear_id|get_sub_group_local_id|get_sub_group_id)")
_OPENCL_IDS = re.compile(r"_Z\d+(get_local_id|get_local_size|get_group_id|get_num_groups|get_global_id|"
                         r"get_global_size)")


@dataclass
class Shape:
    """What the IR says about a kernel's launch: dimensions used, fixed block, dynamic shared."""

    block_dims: int = 1
    # the block axes the search varies: block_dims, less those along which a kernel sharing memory in its blocks
    # never tells its threads apart (only a global id reads them: an OpenCL row per ``get_global_id(1)`` whose
    # local tile is indexed by ``get_local_id(0)`` alone was written for work-groups one row high)
    local_dims: int = 1
    unread_axes: frozenset[int] = frozenset()  # block axes below local_dims it never tells threads apart along
    grid_dims: int = 1  # 0: the kernel reads no block id, so its contract is one block
    reqd_block: tuple[int, int, int] | None = None  # declared (reqd_work_group_size): a hard limit
    block_prior: tuple[int, int, int] | None = None  # read off static shared tiles: tried first
    # a multi-dimensional tile's prior is also the largest block: past its inner dimension an index runs
    # into the next row instead of out of bounds, so a larger block cannot be told out of contract
    block_cap: tuple[int, int, int] | None = None
    max_threads: int = MAX_THREADS_PER_BLOCK
    dynamic_shared: bool = False
    whole_grid: bool = False  # a grid barrier waits for every block: its launches never run a sample of blocks


def kernel_shape(module, kernel: Kernel) -> Shape:
    """Dimensions the kernel reads.  A kernel that never reads a block id (``blockIdx``,
    ``get_group_id``, ``get_global_id``) has every block do the same work: launching several only
    makes the blocks race with themselves, so its grid is one block (``grid_dims = 0``)."""
    bdim, gdim, ldim = 1, 0, 1
    read: set[int] = set()  # the block axes the kernel reads a thread's index or the block's size along
    for b in kernel.function.blocks:
        for ins in b.instrs:
            if ins.opcode != "call":
                continue
            name = ins.attrs.get("callee") or ""
            m = _CUDA_IDS.match(name)
            if m:
                axis = "xyz".index(m.group(2)) + 1
                if m.group(1) in ("tid", "ntid"):
                    bdim, ldim = max(bdim, axis), max(ldim, axis)
                    read.add(axis - 1)
                elif m.group(1) == "ctaid":
                    gdim = max(gdim, axis)
                continue
            if "asm" in ins.attrs and _PTX_THREAD.search(str(ins.attrs["asm"])):
                read |= {0, 1, 2}  # inline PTX reading %tid or %laneid
            if "asm" in ins.attrs and _PTX_BLOCK_ID.search(str(ins.attrs["asm"])):
                gdim = max(gdim, 3)  # inline PTX reading %ctaid
                continue
            if _LINEAR_IDS.match(name):
                read |= {0, 1, 2}
            m = _OPENCL_IDS.match(name)
            if m:
                axis = min(int(ins.ops[0].value) + 1, 3) if ins.ops and ins.ops[0].kind == "const" else 3
                if m.group(1) in ("get_local_id", "get_local_size", "get_global_id", "get_global_size"):
                    bdim = max(bdim, axis)
                if m.group(1) in ("get_local_id", "get_local_size"):
                    ldim = max(ldim, axis)
                    read |= {axis - 1} if ins.ops and ins.ops[0].kind == "const" else {0, 1, 2}
                if m.group(1) in ("get_group_id", "get_global_id"):
                    gdim = max(gdim, axis)
    dyn = any(g.addrspace == 3 and g.external for g in module.globals.values())
    used = _shared_globals_used(kernel)
    shares = dyn or bool(used & _shared_names(module)) or any(p.is_local for p in kernel.params)
    local = ldim if shares else bdim
    # an axis below the last one read that the kernel never reads (instance_norm's groups of 1 × w × h)
    unread = frozenset(a for a in range(local) if a not in read) if shares and read else frozenset()
    prior, multi = (None, False) if kernel.reqd_block else _block_from_tiles(module, kernel, local, used)
    if prior is not None and any(prior[a] > 1 for a in unread):
        prior, multi = None, False  # a tile read as running along an axis no thread index is read on
    return Shape(block_dims=bdim, local_dims=local, unread_axes=unread, grid_dims=gdim, reqd_block=kernel.reqd_block,
                 max_threads=kernel.max_threads or MAX_THREADS_PER_BLOCK, dynamic_shared=dyn, block_prior=prior,
                 block_cap=prior if multi else None,
                 # a spin-wait (simu.ir.spin) may wait for every block too: a hand-written grid barrier
                 whole_grid=GRID_BARRIER in module.functions or bool(spin_loops(kernel.function.blocks)))


def _block_from_tiles(module, kernel: Kernel, bdim: int, used: set[str]
                      ) -> tuple[tuple[int, int, int] | None, bool]:
    """The block a kernel was probably written for, read off its static shared tiles.

    Kernels with `__shared__ float tile[TILE][TILE + 1]` or `__local float s[WG + 2*R]` usually
    assume one thread per tile element.  Which thread axis indexes which dimension, and how many elements apart,
    is read off the tile's stores where it can be (:mod:`simu.evolve.tile_axes`: ``temp[lid0][lid1 * 4 + k]``
    is 32 by 4 for ``temp[32][16]``).  The tile's dimensions, rounded down to powers of two
    (dropping padding and halos), give a *prior*: the search tries it first but also explores other
    blocks (``slot[t % 32]`` races only with more than 32 threads).  Launches that then index the
    tile past its end, or leave it partly unloaded, are outside the kernel's contract
    (``search._violates_contract``)."""
    from simu.ir.types import ArrayType

    best, multi = None, False
    for g in module.globals.values():
        if g.addrspace != 3 or g.external or g.name not in used or not isinstance(g.type, ArrayType):
            continue
        dims = []
        t = g.type
        while isinstance(t, ArrayType):
            dims.append(t.count)
            t = t.elem
        indexed = tile_block(kernel, g.name, dims) if bdim >= 2 and len(dims) >= 2 else None
        dims = [1 << (d.bit_length() - 1) for d in dims if d > 0]
        if not dims:
            continue  # a zero-length array (`__local int s[N - 16]` at N = 16) is no tile
        if indexed is not None:  # which axis indexes which dimension, read off the accesses
            cand = tuple(1 << (d.bit_length() - 1) for d in indexed)
        elif bdim >= 2 and len(dims) >= 2:
            cand = (dims[-1], dims[-2], 1)
        else:
            cand = (dims[-1], 1, 1)
        cand = (min(cand[0], 1024), min(cand[1], 1024), min(cand[2], 64))
        while cand[0] * cand[1] * cand[2] > MAX_THREADS_PER_BLOCK:
            cand = (cand[0], cand[1], cand[2] // 2) if cand[2] > 1 else (cand[0] // 2, cand[1], 1)
        if best is None or _threads(cand) > _threads(best):
            best, multi = cand, len(dims) >= 2
    if best is not None and _threads(best) >= 32:
        return best, multi  # type: ignore[return-value]
    return None, False


def _threads(block: tuple[int, ...]) -> int:
    return block[0] * block[1] * block[2]


def _shared_names(module) -> set[str]:
    return {g.name for g in module.globals.values() if g.addrspace == 3}


def _shared_globals_used(kernel: Kernel) -> set[str]:
    from simu.ir.constants import GlobalRef

    used = set()
    for b in kernel.function.blocks:
        for ins in b.instrs:
            for op in ins.ops:
                if isinstance(op.value, GlobalRef):
                    used.add(op.value.name)
    return used
