"""Locating the bundled clang and checking that its LLVM matches llvmlite's."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

INCLUDE_DIR = Path(__file__).resolve().parent.parent / "include"


def clang_command() -> list[str]:
    """The argv prefix that runs the clang inside the ziglang wheel: its ``zig`` executable itself where the wheel
    has one (what ``python -m ziglang`` execs: a Python start-up less per call, a third of a small host file's
    dump), else through the module."""
    return list(_clang_argv())


@functools.lru_cache(maxsize=1)
def _clang_argv() -> tuple[str, ...]:
    spec = importlib.util.find_spec("ziglang")
    if spec is not None and spec.origin is not None and os.name == "posix":
        zig = Path(spec.origin).parent / "zig"
        if os.access(zig, os.X_OK):
            return str(zig), "clang"
    return sys.executable, "-m", "ziglang", "clang"


@functools.lru_cache(maxsize=1)
def clang_version() -> tuple[int, int, int]:
    out = subprocess.run(clang_command() + ["--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"clang version (\d+)\.(\d+)\.(\d+)", out)
    if not m:
        raise RuntimeError(f"cannot read clang version from: {out!r}")
    return tuple(int(x) for x in m.groups())  # type: ignore[return-value]


def llvmlite_llvm_version() -> tuple[int, int, int]:
    import llvmlite.binding as llvm

    return tuple(llvm.llvm_version_info)  # type: ignore[return-value]


def user_cache_dir() -> Path:
    """simu's folder in the user's cache (``$XDG_CACHE_HOME/simu``, else ``~/.cache/simu``): what is kept for files
    outside any repository (their compiled IR, the host parser's precompiled headers), never beside them."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "simu"
