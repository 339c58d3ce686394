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
