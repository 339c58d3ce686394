"""What an ``#include <name>`` finds before any project folder: simu's shim headers and the system's
include folders (as the bundled clang lists them, asked once per process)."""

from __future__ import annotations

import functools
import os
from pathlib import Path


def find_header(name: str, search: list[Path]) -> Path | None:
    for d in search:
        cand = d / name
        if cand.is_file():
            return cand.resolve()
    return None


def provided_outside(name: str, language: str = "cuda") -> bool:
    """Whether simu's shim headers or the system's include folders provide ``<name>`` (searched by clang
    before any discovered folder)."""
    from simu.frontend.toolchain import INCLUDE_DIR

    shim = INCLUDE_DIR / ("opencl" if language == "opencl" else "cuda")
    return (shim / name).is_file() or find_header(name, list(system_include_dirs())) is not None


@functools.lru_cache(maxsize=1)
def system_include_dirs() -> tuple[Path, ...]:
    """The ``#include <...>`` search list of the bundled clang for CUDA, after simu's shim (asked once)."""
    import subprocess

    from simu.frontend.toolchain import clang_command

    argv = clang_command() + ["-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                              "--cuda-gpu-arch=sm_70", "-Wno-unknown-cuda-version", "-E", "-v", "-o", os.devnull,
                              "-"]
    try:
        err = subprocess.run(argv, input="", capture_output=True, text=True, timeout=60).stderr
    except (OSError, subprocess.SubprocessError):
        return ()
    start = err.find("#include <...> search starts here:")
    end = err.find("End of search list.")
    if start < 0 or end < 0:
        return ()
    lines = err[start:end].splitlines()[1:]
    return tuple(Path(line.strip().removesuffix(" (framework directory)")) for line in lines if line.strip())


__all__ = ["find_header", "provided_outside", "system_include_dirs"]
