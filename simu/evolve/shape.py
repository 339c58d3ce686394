"""What a kernel's IR says about its launches: the dimensions it reads, a fixed block, dynamic shared memory."""

from __future__ import annotations

import re
from dataclasses import dataclass

from simu.ir import Kernel
from simu.launch.model import MAX_THREADS_PER_BLOCK

_CUDA_IDS = re.compile(r"llvm\.nvvm\.read\.ptx\.sreg\.(tid|ntid|ctaid|nctaid)\.([xyz])$")
_OPENCL_IDS = re.compile(r"_Z\d+(get_local_id|get_local_size|get_group_id|get_num_groups|get_global_id|"
                         r"get_global_size)")


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
            m = _CUDA_IDS.match(name)
            if m:
                axis = "xyz".index(m.group(2)) + 1
                if m.group(1) in ("tid", "ntid"):
                    bdim = max(bdim, axis)
                else:
                    gdim = max(gdim, axis)
                continue
            m = _OPENCL_IDS.match(name)
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
