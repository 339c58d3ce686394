"""Macros a kernel file's own header defines for its build, in GPUVerify's option line:
``//--local_size=64 --num_groups=16 -DWIDTH=64`` (GPUVerify passes ``-D`` to clang; the launch options of the
same line are read by :func:`simu.launch.comments.gpuverify_launch`)."""

from __future__ import annotations

import re
from pathlib import Path

HEADER_LINES = 40
_OPTION_LINE = re.compile(r"^\s*//\s*--(?:local_size|num_groups|global_size|blockDim|gridDim)=.*$")
_DEFINE = re.compile(r"(?<!\S)-D\s*([A-Za-z_]\w*(?:=\S*)?)")


def header_defines(path: Path) -> tuple[str, ...]:
    """The ``NAME`` / ``NAME=VALUE`` of every ``-D`` on the file's GPUVerify option line (``()`` when none)."""
    try:
        with path.open(errors="replace") as f:
            lines = [f.readline() for _ in range(HEADER_LINES)]
    except OSError:
        return ()
    return tuple(d for line in lines if _OPTION_LINE.match(line) for d in _DEFINE.findall(line))
