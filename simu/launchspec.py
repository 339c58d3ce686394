"""Building a Launch from user-facing text: `--arg n=100`, `--buffer a=float32:1024:random`, C types."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from simu.errors import LaunchError
from simu.ir import Kernel, Param
from simu.ir.types import FloatType, IntType, VectorType
from simu.interp.launch import Launch, LocalBuffer, as_dim3

C_TYPES = {
    "float": np.float32, "double": np.float64, "half": np.float16, "__half": np.float16,
    "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8, "uchar": np.uint8, "int8_t": np.int8,
    "uint8_t": np.uint8, "bool": np.uint8, "_Bool": np.uint8,
    "short": np.int16, "unsigned short": np.uint16, "ushort": np.uint16, "int16_t": np.int16, "uint16_t": np.uint16,
    "int": np.int32, "unsigned int": np.uint32, "uint": np.uint32, "unsigned": np.uint32, "int32_t": np.int32,
    "uint32_t": np.uint32,
    "long": np.int64, "unsigned long": np.uint64, "ulong": np.uint64, "long long": np.int64,
    "unsigned long long": np.uint64, "int64_t": np.int64, "uint64_t": np.uint64, "size_t": np.uint64,
    "ptrdiff_t": np.int64,
}
FILLS = ("random", "zeros", "ones", "ramp", "const")


def element_type(c_type: str | None) -> tuple[np.dtype, int]:
    """(numpy dtype, components) for a pointee C type such as "float" or "float4"; bytes if unknown."""
    if not c_type:
        return np.dtype(np.uint8), 16
    name = c_type.replace("const", "").replace("volatile", "").replace("__restrict__", "").strip()
    if name in C_TYPES:
        return np.dtype(C_TYPES[name]), 1
    m = re.fullmatch(r"([a-z]+?)(\d+)", name)
    if m and m.group(1) in C_TYPES:
        return np.dtype(C_TYPES[m.group(1)]), int(m.group(2)) if m.group(2) != "3" else 4
    return np.dtype(np.uint8), 16


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


def make_buffer(dtype: np.dtype, length: int, fill: str, rng: np.random.Generator, value: float = 0) -> np.ndarray:
    if fill == "zeros":
        return np.zeros(length, dtype)
    if fill == "ones":
        return np.ones(length, dtype)
    if fill == "const":
        return np.full(length, value, dtype)
    if fill == "ramp":
        return (np.arange(length) % (np.iinfo(dtype).max if dtype.kind in "iu" and dtype.itemsize == 1 else 1 << 62)).astype(dtype)
    if fill == "random":
        if dtype.kind == "f":
            return rng.uniform(-1.0, 1.0, length).astype(dtype)
        if dtype.kind == "u":
            return rng.integers(0, 100, length).astype(dtype)
        return rng.integers(-100, 100, length).astype(dtype)
    raise LaunchError(f"unknown fill '{fill}' (use one of {', '.join(FILLS)})")


def parse_buffer(spec: str, kernel: Kernel, rng: np.random.Generator) -> tuple[str, Any]:
    """`name=dtype:length[:fill[=value]]` → (name, array); `name=local:BYTES` for __local pointers."""
    if "=" not in spec:
        raise LaunchError(f"bad --buffer '{spec}': expected name=dtype:length[:fill]")
    name, rest = spec.split("=", 1)
    try:
        param = kernel.param(name)
    except KeyError:
        raise LaunchError(f"kernel {kernel.display_name} has no parameter '{name}'") from None
    parts = rest.split(":")
    if parts[0] == "local":
        return name, LocalBuffer(int(parts[1]))
    try:
        dtype = np.dtype(parts[0])
        length = int(parts[1])
    except (TypeError, ValueError, IndexError):
        raise LaunchError(f"bad --buffer '{spec}': expected name=dtype:length[:fill], e.g. a=float32:1024:random") from None
    fill = parts[2] if len(parts) > 2 else "random"
    value = 0.0
    if fill.startswith("const="):
        fill, value = "const", float(fill.split("=", 1)[1])
    if not param.is_pointer:
        raise LaunchError(f"parameter '{name}' is not a pointer; give it with --arg")
    return name, make_buffer(dtype, length, fill, rng, value)


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
    for b in buffers or []:
        name, arr = parse_buffer(b, kernel, rng)
        values[name] = arr
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
            values[p.name] = make_buffer(dt, default_length * comps, "random", rng)
        else:
            raise LaunchError(f"no value for scalar parameter '{p.name}' ({p.c_type or p.type}); give --arg {p.name}=...")
    launch.args = {p.name: values[p.name] for p in kernel.params}
    return launch
