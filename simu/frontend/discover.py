"""Finding kernel sources under a path."""

from __future__ import annotations

from pathlib import Path

from simu.frontend.compile import CUDA_EXTENSIONS, IR_EXTENSIONS, OPENCL_EXTENSIONS

SOURCE_EXTENSIONS = {".cu"} | OPENCL_EXTENSIONS | IR_EXTENSIONS
SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", "node_modules", ".simu-cache", "build", "dist"}


def find_sources(paths: list[str | Path]) -> list[Path]:
    """Kernel translation units (.cu, .cl, .ll) under the given files/directories, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            for f in sorted(p.rglob("*")):
                if f.is_file() and f.suffix.lower() in SOURCE_EXTENSIONS \
                        and not any(part in SKIP_DIRS for part in f.relative_to(p).parts[:-1]):
                    out.append(f)
        else:
            raise FileNotFoundError(str(p))
    return out


__all__ = ["find_sources", "SOURCE_EXTENSIONS", "CUDA_EXTENSIONS"]
