"""Building a Launch from user-facing text: `--arg n=100`, `--buffer a=float32:1024:random`.

Buffers are drawn by :mod:`simu.launch.buffers`, each with the spec that regenerates it.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from simu.errors import LaunchError
from simu.ir import Kernel, Param
from simu.ir.types import FloatType, IntType, VectorType
from simu.launch.buffers import draw_buffer, element_type
from simu.launch.model import Launch, LocalBuffer, as_dim3

__all__ = ["build_launch", "parse_buffer", "parse_scalar"]


def parse_scalar(param: Param, text: str) -> Any:
    t = param.type
    try:
        if isinstance(t, FloatType):
            return float(text)
        if isinstance(t, IntType):
            return int(text, 0)
        if isinstance(t, VectorType):
            parts = [p for p in re.split(r"[,\s]+", text.strip("()[]")) if p]
            conv = float if isinstance(t.elem, FloatType) else (lambda s: int(s, 0))
            vals = [conv(p) for p in parts]
            return np.array(vals * (t.count // len(vals)) if len(vals) < t.count else vals[:t.count])
    except ValueError:
        raise LaunchError(f"bad value '{text}' for parameter '{param.name}' ({param.c_type or t})") from None
    raise LaunchError(f"parameter '{param.name}' of type {t} cannot be given with --arg")


def parse_buffer(spec: str, kernel: Kernel, rng: np.random.Generator,
                 seed: int | None = None) -> tuple[str, Any, dict[str, Any] | None]:
    """`name=dtype:length[:fill[=value]]` -> (name, array, spec); `name=local:BYTES` for __local pointers
    (no spec).  ``rng`` draws random fills (one generator for every buffer of a launch)."""
    if "=" not in spec:
        raise LaunchError(f"bad --buffer '{spec}': expected name=dtype:length[:fill]")
    name, rest = spec.split("=", 1)
    try:
        param = kernel.param(name)
    except KeyError:
        raise LaunchError(f"kernel {kernel.display_name} has no parameter '{name}'") from None
    parts = rest.split(":")
    if parts[0] == "local":
        return name, LocalBuffer(int(parts[1])), None
    try:
        dtype = np.dtype(parts[0])
        length = int(parts[1])
    except (TypeError, ValueError, IndexError):
        raise LaunchError(f"bad --buffer '{spec}': expected name=dtype:length[:fill], "
                          "e.g. a=float32:1024:random") from None
    fill = parts[2] if len(parts) > 2 else "random"
    value = 0.0
    if fill.startswith("const="):
        fill, value = "const", float(fill.split("=", 1)[1])
    if not param.is_pointer:
        raise LaunchError(f"parameter '{name}' is not a pointer; give it with --arg")
    arr, bspec = draw_buffer(dtype, length, fill, rng, value, seed=seed)
    return name, arr, bspec


def build_launch(kernel: Kernel, grid: str | tuple, block: str | tuple, args: list[str] | None = None,
                 buffers: list[str] | None = None, seed: int = 0, warp_size: int = 32,
                 dynamic_shared: int = 0, loaded: dict[str, np.ndarray] | None = None) -> Launch:
    """A launch from command-line style text; unspecified buffers get one random element per thread."""
    rng = np.random.default_rng(seed)
    launch = Launch(as_dim3(grid), as_dim3(block), {}, warp_size, dynamic_shared, seed)
    values: dict[str, Any] = {}
    for a in args or []:
        if "=" not in a:
            raise LaunchError(f"bad --arg '{a}': expected name=value")
        name, text = a.split("=", 1)
        try:
            values[name] = parse_scalar(kernel.param(name), text)
        except KeyError:
            raise LaunchError(f"kernel {kernel.display_name} has no parameter '{name}'") from None
    specs: dict[str, dict[str, Any]] = {}
    for b in buffers or []:
        name, arr, bspec = parse_buffer(b, kernel, rng, seed)
        values[name] = arr
        if bspec is not None:
            specs[name] = bspec
    for name, arr in (loaded or {}).items():
        if name not in values:
            values[name] = arr
    # default buffers cover every thread and the largest integer argument (often a size n)
    sizes = [int(v) for v in values.values() if isinstance(v, (int, np.integer)) and 0 < int(v) <= 1 << 24]
    default_length = max([launch.total_threads] + sizes)
    for p in kernel.params:
        if p.name in values:
            continue
        if p.is_local:
            values[p.name] = LocalBuffer(4 * launch.threads_per_block * 4)
        elif p.is_pointer:
            dt, comps = element_type(p.pointee)
            values[p.name], specs[p.name] = draw_buffer(dt, default_length * comps, "random", rng, seed=seed)
        else:
            raise LaunchError(f"no value for scalar parameter '{p.name}' ({p.c_type or p.type}); "
                              f"give --arg {p.name}=...")
    launch.args = {p.name: values[p.name] for p in kernel.params}
    launch.buffer_specs = {name: spec for name, spec in specs.items() if name in launch.args}
    return launch
