"""Launches and constraints written in a kernel file's header comments (any kernel file, not only the corpus).

    // launch: grid=4 block=64 n=100 [warp=32] [shared=BYTES] [seed=S] [buf=float32:1024[:fill]]
    // kernel: name                                      (when the file has several kernels)
    // constrain: block=32,8 stride=32 n=1:512 len:L=n*stride fill:row_ptr=ramp [same:dst=src]
    //     (what a user would put in simu.toml for launch-free analysis: the search honours it)
    //--local_size=64 --num_groups=16   or   //--blockDim=[16,16] --gridDim=4   (GPUVerify's options:
    //     :func:`gpuverify_launch`, read by ``simu check`` and ``simu scan`` as the user's launch)

Only the first :data:`HEADER_LINES` lines are read.  A ``launch:`` token ``name=value`` is a buffer
(``--buffer`` syntax) when the value holds a colon, otherwise a scalar argument (``--arg``).  OpenCL
images and CUDA texture objects take the same buffer syntax (:mod:`simu.launch.images`):
``img=float32:16x16x4[:fill]`` (an image's array shape, ``HxWxC``), ``tex=float32:64x64[:fill][:modes]``,
``dst=same:src`` (the very buffer of parameter ``src``); a ``sampler_t`` is a scalar of CLK_* bits,
e.g. ``smp=18`` (0x12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from simu.launch.constraints import KernelConstraints, check_fill, parse_dim

HEADER_LINES = 40
_LAUNCH = re.compile(r"^\s*//\s*launch:\s*(.*?)\s*$")
_KERNEL = re.compile(r"^\s*//\s*kernel:\s*(\S+)")
_CONSTRAIN = re.compile(r"^\s*//\s*constrain:\s*(.*?)\s*$")
# GPUVerify's launch options written in a kernel's header, ``//--local_size=64 --num_groups=[16,16]`` (OpenCL) or
# ``//--blockDim=32 --gridDim=2`` (CUDA); ``--global_size=`` is the NDRange, grid = global / local
_GPUVERIFY = re.compile(r"^\s*//\s*(--(?:local_size|num_groups|global_size|blockDim|gridDim)=.*?)\s*$")
_GPUVERIFY_OPTION = re.compile(r"--(local_size|num_groups|global_size|blockDim|gridDim)=(\[[^\]]*\]|[^\s\[]+)")


@dataclass
class LaunchLine:
    """One ``// launch:`` line, in the text form :func:`simu.launch.spec.build_launch` takes."""

    grid: str = "1"
    block: str = "32"
    args: list[str] = field(default_factory=list)
    buffers: list[str] = field(default_factory=list)
    warp: int = 32
    shared: int = 0
    seed: int = 0


@dataclass
class KernelComments:
    """What a file's header comments say about launching its kernels."""

    launches: list[LaunchLine] = field(default_factory=list)
    kernel: str | None = None
    constraints: KernelConstraints | None = None


def header(path: Path) -> list[str]:
    """The lines of ``path`` that may hold header comments."""
    return path.read_text().splitlines()[:HEADER_LINES]


def parse(path: Path) -> KernelComments:
    """The ``launch:``, ``kernel:`` and ``constrain:`` comments of a kernel file."""
    return parse_lines(header(path))


def gpuverify_launch(lines: list[str]) -> KernelConstraints | None:
    """The grid and block a kernel file's header gives in GPUVerify's options (``//--local_size=64
    --num_groups=16``), as constraints whose origin names them; ``None`` when it gives none."""
    for line in lines:
        m = _GPUVERIFY.match(line)
        if m is None:
            continue
        options = _GPUVERIFY_OPTION.findall(m.group(1))
        found = {k: [int(v) for v in re.findall(r"\d+", value)] for k, value in options}
        said = " ".join(f"--{k}={v}" for k, v in options)
        block = found.get("local_size") or found.get("blockDim")
        grid = found.get("num_groups") or found.get("gridDim")
        if grid is None and block and found.get("global_size") and \
                all(g % b == 0 for g, b in zip(found["global_size"], block, strict=False)):
            grid = [g // b for g, b in zip(found["global_size"], block, strict=False)]
        dims = [(d + [1, 1, 1])[:3] if d and 0 < len(d) <= 3 and min(d) > 0 else None for d in (grid, block)]
        if dims == [None, None]:
            return None
        return KernelConstraints(grid=tuple(dims[0]) if dims[0] else None,  # type: ignore[arg-type]
                                 block=tuple(dims[1]) if dims[1] else None,  # type: ignore[arg-type]
                                 origin=f"the file's header comment `{said}` (GPUVerify's launch options)")
    return None


def file_launch(path: str | Path) -> KernelConstraints | None:
    """:func:`gpuverify_launch` of a kernel file's header (``None`` when it gives none or cannot be read)."""
    try:
        return gpuverify_launch(header(Path(path)))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def file_constraints(path: str | Path, kernel: str | None = None) -> KernelConstraints | None:
    """The ``// constrain:`` line of a kernel file's header, for ``kernel`` (all kernels of the file, or the one
    its ``// kernel:`` line names): what the user says of the launches, as in ``simu.toml``.  ``None`` when there
    is none, it names another kernel, or it cannot be read (a bad line is left to the commands that report it)."""
    try:
        comments = parse_lines(header(Path(path)))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if comments.kernel is not None and kernel is not None and comments.kernel != kernel:
        return None
    return comments.constraints


def parse_lines(lines: list[str]) -> KernelComments:
    out = KernelComments()
    for line in lines:
        m = _CONSTRAIN.match(line)
        if m:
            out.constraints = parse_constraints(m.group(1))
            continue
        m = _LAUNCH.match(line)
        if m:
            out.launches.append(parse_launch(m.group(1)))
            continue
        m = _KERNEL.match(line)
        if m:
            out.kernel = m.group(1)
    return out


def parse_launch(text: str) -> LaunchLine:
    """The body of a ``// launch:`` line."""
    L = LaunchLine()
    for tok in text.split():
        name, _, value = tok.partition("=")
        if name == "grid":
            L.grid = value
        elif name == "block":
            L.block = value
        elif name == "warp":
            L.warp = int(value)
        elif name == "shared":
            L.shared = int(value)
        elif name == "seed":
            L.seed = int(value)
        elif ":" in value:
            L.buffers.append(tok)
        else:
            L.args.append(tok)
    return L


def parse_constraints(text: str) -> KernelConstraints:
    """The body of a ``// constrain:`` line, read into the same object as a ``[tool.simu.kernels.NAME]`` table."""
    c = KernelConstraints()
    for tok in text.split():
        name, _, value = tok.partition("=")
        if name.startswith("len:"):
            c.buffer_lengths[name[4:]] = value
        elif name.startswith("fill:"):
            c.fills[name[5:]] = check_fill(value)
        elif name.startswith("same:"):
            c.same[name[5:]] = value
        elif name == "grid":
            c.grid = parse_dim(value)
        elif name == "block":
            c.block = parse_dim(value)
        elif name == "warp":
            c.warp_size = int(value)
        elif name == "shared":
            c.dynamic_shared = int(value)
        elif re.fullmatch(r"-?\d+:-?\d+", value):
            lo, hi = value.split(":")
            c.arg_ranges[name] = (float(lo), float(hi))
        elif re.fullmatch(r"-?\d+", value):
            c.args[name] = int(value)
        elif re.fullmatch(r"-?\d*\.\d*(e-?\d+)?", value):
            c.args[name] = float(value)
        else:
            raise ValueError(f"cannot read constraint '{tok}'")
    return c
