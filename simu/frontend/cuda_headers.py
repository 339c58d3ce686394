"""Where a CUDA compile finds its headers: simu's runtime shim plus NVIDIA's CCCL, or a real toolkit.

* Default: simu's shim (``simu/include/cuda``), then ``__simu_cccl.h`` (what CCCL needs beyond the
  shim), then the Thrust/CUB/libcu++ headers of the pinned ``nvidia-cuda-cccl-cu12`` wheel, located
  at run time from the installed package (nothing is copied into simu).
* ``cuda_path`` (``--cuda-path`` / ``cuda-path =``): the toolkit's own ``include/`` behind simu's
  prelude (``simu/include/cuda_real/__simu_cuda_prelude.h``), which does the job of clang's CUDA
  wrapper headers that the bundled clang does not ship.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from pathlib import Path

from simu.frontend.toolchain import INCLUDE_DIR

SHIM_DIR = INCLUDE_DIR / "cuda"
PRELUDE_DIR = INCLUDE_DIR / "cuda_real"


@functools.lru_cache(maxsize=1)
def cccl_include_dir() -> Path | None:
    """The include folder of the installed CCCL wheel (``cub/``, ``thrust/``, ``cuda/std``), if any."""
    try:
        from importlib.resources import files

        inc = Path(str(files("nvidia.cuda_cccl") / "include"))
    except (ImportError, ModuleNotFoundError, TypeError):
        return None
    return inc if (inc / "cub" / "cub.cuh").is_file() else None


def shim_arguments() -> list[str]:
    """Include arguments for simu's own runtime shim (with CCCL when installed)."""
    args = ["-isystem", str(SHIM_DIR), "-include", "cuda_runtime.h", "-include", "__simu_cccl.h"]
    cccl = cccl_include_dir()
    if cccl is not None:
        args += ["-isystem", str(cccl)]
    return args


def cuda_header_arguments(cuda_path: str | None) -> list[str]:
    """The include part of a CUDA device compile: the shim, or a real toolkit behind simu's prelude."""
    if not cuda_path:
        return shim_arguments()
    return toolkit_arguments(cuda_path)


def toolkit_include_dirs(cuda_path: str | os.PathLike[str]) -> list[Path]:
    """The include folders of a toolkit root: ``include/`` and, in NVIDIA's pip wheels, siblings'."""
    root = Path(cuda_path)
    dirs = [root / "include"] if (root / "include").is_dir() else [root]
    return dirs


def toolkit_arguments(cuda_path: str) -> list[str]:
    args = ["-isystem", str(PRELUDE_DIR)]
    for d in toolkit_include_dirs(cuda_path):
        args += ["-isystem", str(d)]
    cccl = cccl_include_dir()
    if cccl is not None and not any((d / "cub").is_dir() for d in toolkit_include_dirs(cuda_path)):
        args += ["-idirafter", str(cccl)]
    args += ["-include", "__simu_cuda_prelude.h"]
    return args


def detect_cuda_path(environ: dict[str, str] | None = None) -> str | None:
    """A toolkit root from ``CUDA_PATH`` (or ``CUDA_HOME``), else from ``nvcc`` on ``PATH``."""
    env = os.environ if environ is None else environ
    for var in ("CUDA_PATH", "CUDA_HOME"):
        value = env.get(var)
        if value and (Path(value) / "include" / "cuda_runtime.h").is_file():
            return value
    nvcc = shutil.which("nvcc", path=env.get("PATH"))
    if nvcc:
        root = Path(nvcc).resolve().parent.parent
        if (root / "include" / "cuda_runtime.h").is_file():
            return str(root)
    return None


def check_cuda_path(cuda_path: str) -> str | None:
    """None when ``cuda_path`` is a usable toolkit root, else why not (one line)."""
    root = Path(cuda_path)
    if not root.is_dir():
        return f"--cuda-path {cuda_path}: no such directory"
    if not any((d / "cuda_runtime.h").is_file() for d in toolkit_include_dirs(root)):
        return f"--cuda-path {cuda_path}: no include/cuda_runtime.h there (expected a CUDA toolkit root)"
    return None


_KERNEL_DEF = re.compile(r"^(define [^@\n]*?)\bptx_kernel (.*?!dbg (!\d+))", re.M)
_SUBPROGRAM_FILE = re.compile(r"^(!\d+) = distinct !DISubprogram\(.*?\bfile: (!\d+)", re.M)
_FILE = re.compile(r'^(!\d+) = !DIFile\(filename: "([^"]*)", directory: "([^"]*)"', re.M)
_LINKAGE = re.compile(r"\b(private|internal|available_externally|linkonce|weak|common|linkonce_odr|weak_odr)\b")


def drop_library_kernels(ir: str) -> str:
    """IR in which the kernels that CCCL's own headers define (the device-wide algorithms that host calls
    such as ``thrust::sort`` instantiate) are ordinary functions, so that dead-code elimination drops them:
    simu analyses the file's own kernels; the library's are launched by host code it never runs."""
    cccl = cccl_include_dir()
    if cccl is None or "ptx_kernel" not in ir or cccl.parent.name not in ir:  # DIFile splits the path
        return ir
    prefix = str(cccl) + os.sep
    files = {m.group(1) for m in _FILE.finditer(ir)
             if os.path.join(m.group(3), m.group(2)).startswith(prefix)}
    library = {m.group(1) for m in _SUBPROGRAM_FILE.finditer(ir) if m.group(2) in files}

    def plain(m: re.Match[str]) -> str:
        if m.group(3) not in library:
            return m.group(0)
        head = m.group(1)
        if not _LINKAGE.search(head):  # external: discardable once no longer a kernel
            head = head.replace("define ", "define linkonce_odr ", 1)
        return head + m.group(2)

    return _KERNEL_DEF.sub(plain, ir)


# CUB's block collectives: (index of BLOCK_DIM_Y, of BLOCK_DIM_Z) in the class's template arguments;
# BLOCK_DIM_X is always the second
_CUB_BLOCK_DIMS = {"BlockReduce": (3, 4), "BlockScan": (3, 4), "BlockLoad": (4, 5), "BlockStore": (4, 5),
                   "BlockExchange": (4, 5), "BlockRadixSort": (8, 9), "BlockHistogram": (5, 6),
                   "BlockDiscontinuity": (2, 3), "BlockAdjacentDifference": (2, 3), "BlockShuffle": (2, 3)}
_DEFINE = re.compile(r"^define [^\n]*?@([\w.$]+)\([^\n]*\{\n(.*?)^\}", re.M | re.S)
_CALLEE = re.compile(r"@([\w.$]+)\(")
_DBG = re.compile(r"!dbg (!\d+)")
_NODE = re.compile(r"^(!\d+) = (?:distinct )?!(DISubprogram|DICompositeType|DILocation|DILexicalBlock"
                   r"|DILexicalBlockFile)\((.*)\)$", re.M)


def _template_args(name: str) -> list[str]:
    inner = name[name.index("<") + 1:name.rindex(">")]
    args, depth, cur = [], 0, ""
    for ch in inner:
        depth += ch in "<(" and 1 or (-1 if ch in ">)" else 0)
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return args + [cur.strip()]


def cub_block_requirements(ir: str) -> str:
    """IR in which each CUDA kernel that uses CUB block collectives of one block shape (``BlockReduce<int, 128>``
    needs ``blockDim == (128, 1, 1)``: CUB's contract) carries it as ``!reqd_work_group_size``, so launches
    are searched with that block only (another block size makes CUB's own code index past its storage)."""
    if "ptx_kernel" not in ir or "Block" not in ir:
        return ir
    fields = {m.group(1): (m.group(2), m.group(3)) for m in _NODE.finditer(ir)}
    dims_of_class: dict[str, tuple[int, int, int]] = {}
    for ref, (kind, body) in fields.items():
        nm = re.search(r'name: "(Block\w+)<', body) if kind == "DICompositeType" else None
        if nm and nm.group(1) in _CUB_BLOCK_DIMS:
            name = re.search(r'name: "([^"]*)"', body).group(1)  # type: ignore[union-attr]
            args = _template_args(name)
            yi, zi = _CUB_BLOCK_DIMS[nm.group(1)]
            try:
                dims = (int(args[1]), int(args[yi]) if yi < len(args) else 1, int(args[zi]) if zi < len(args) else 1)
            except (ValueError, IndexError):
                continue
            dims_of_class[ref] = dims
    if not dims_of_class:
        return ir
    bodies = {m.group(1): m.group(2) for m in _DEFINE.finditer(ir)}
    scope_dims: dict[str, tuple[int, int, int] | None] = {}

    def dims_at(ref: str) -> tuple[int, int, int] | None:
        """The CUB class (if any) whose member function holds the scope ``ref`` (a location's, or a scope's)."""
        if ref in scope_dims:
            return scope_dims[ref]
        scope_dims[ref] = None
        node = fields.get(ref)
        found = None
        if node is not None:
            up = re.search(r"\bscope: (!\d+)", node[1])
            if node[0] == "DISubprogram":
                found = dims_of_class.get(up.group(1)) if up else None
            elif up:
                found = dims_at(up.group(1))
            inl = re.search(r"\binlinedAt: (!\d+)", node[1]) if node[0] == "DILocation" else None
            if found is None and inl:
                found = dims_at(inl.group(1))
        scope_dims[ref] = found
        return found

    def required(kernel: str) -> set[tuple[int, int, int]]:
        seen, todo, found = {kernel}, [kernel], set()
        while todo:
            body = bodies[todo.pop()]
            for ref in set(_DBG.findall(body)):
                d = dims_at(ref)
                if d:
                    found.add(d)
            for callee in _CALLEE.findall(body):
                if callee in bodies and callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        return found

    extra: list[str] = []
    next_id = max((int(r[1:]) for r in re.findall(r"^(!\d+) = ", ir, re.M)), default=0) + 1

    def annotate(m: re.Match[str]) -> str:
        nonlocal next_id
        line = m.group(0)
        name = re.search(r"@([\w.$]+)\(", line)
        if " ptx_kernel " not in line or not name or name.group(1) not in bodies or "reqd_work_group_size" in line:
            return line
        dims = required(name.group(1))
        if len(dims) != 1:
            return line
        x, y, z = dims.pop()
        extra.append(f"!{next_id} = !{{i32 {x}, i32 {y}, i32 {z}}}")
        line = line[:-1].rstrip() + f" !reqd_work_group_size !{next_id} {{"
        next_id += 1
        return line

    out = re.sub(r"^define [^\n]*\{$", annotate, ir, flags=re.M)
    return out + ("\n" + "\n".join(extra) + "\n" if extra else "")
