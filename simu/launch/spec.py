"""Building a Launch from user-facing text: `--arg n=100`, `--buffer a=float32:1024:random`.

Buffers are drawn by :mod:`simu.launch.buffers`, each with the spec that regenerates it.  OpenCL
images and CUDA texture/surface objects are backed by arrays too (:mod:`simu.launch.images`):
``--buffer img=float32:HxWx4[:fill]`` and ``--buffer tex=float32:N|HxW|HxWx4[:fill][:modes]``; left out, they get
default arrays, and a ``sampler_t`` left out gets :data:`~simu.launch.images.DEFAULT_SAMPLER`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from simu.errors import LaunchError
from simu.ir import Kernel, Param
from simu.ir.types import FloatType, IntType, VectorType
from simu.launch.buffers import C_TYPES, PLAIN_FILLS, draw_buffer, element_type
from simu.launch.images import (
    DEFAULT_SAMPLER,
    check_image_array,
    check_texture_array,
    default_image_shape,
    default_texture_shape,
    image_dtype,
    is_image,
    is_sampler,
    is_texture,
    is_texture_modes,
    launch_params,
    takes_array,
    texture_layout,
)
from simu.launch.limits import MAX_MEMORY_BYTES, MAX_THREADS, check_launch_shape, check_memory, describe_params
from simu.launch.members import draw_members, element_of
from simu.launch.model import Launch, LocalBuffer, as_dim3

__all__ = ["build_launch", "check_constraints", "is_complete", "launch_constraints", "parse_arg", "parse_buffer",
           "parse_buffer_spec", "parse_dims", "parse_scalar"]


def is_by_value(param: Param) -> bool:
    """A scalar given by value although the IR passes a pointer: a struct such as ``float3``, ``int4`` or
    ``__half`` (clang passes it ``byval``)."""
    return param.is_pointer and bool(param.c_type) and not param.c_type.rstrip().endswith(("*", "&")) \
        and not param.is_local


def settable(param: Param) -> bool:
    """Whether ``--arg`` can give this parameter."""
    return not param.is_pointer or (is_by_value(param) and _by_value_layout(param) is not None)


def _by_value_layout(param: Param) -> tuple[np.dtype, int] | None:
    name = (param.c_type or "").replace("const", "").replace("volatile", "").strip()
    if name in C_TYPES:
        return np.dtype(C_TYPES[name]), 1
    m = re.fullmatch(r"([a-z]+?)(\d+)", name)
    if m and m.group(1) in C_TYPES:
        return np.dtype(C_TYPES[m.group(1)]), int(m.group(2))
    return None


def _allowed(param: Param) -> str:
    t = param.type
    if is_by_value(param):
        layout = _by_value_layout(param)
        n = layout[1] if layout else 1
        return f"{n} comma-separated numbers, e.g. {','.join(['1'] * n)}" if n > 1 else "a number"
    if isinstance(t, FloatType):
        return "a number, e.g. 1.5"
    if isinstance(t, IntType):
        return "0 or 1" if t.bits == 1 else "an integer, e.g. 64 or 0x40"
    if isinstance(t, VectorType):
        return f"{t.count} comma-separated numbers, e.g. {','.join(['1'] * t.count)}"
    return "a number"


def parse_scalar(param: Param, text: str) -> Any:
    t = param.type
    try:
        if is_by_value(param):
            layout = _by_value_layout(param)
            if layout is not None:
                dtype, count = layout
                conv = float if dtype.kind == "f" else (lambda s: int(s, 0))
                vals = _components(text, conv, count)
                return np.array(vals, dtype=dtype)
        if isinstance(t, FloatType):
            return float(text)
        if isinstance(t, IntType):
            if t.bits == 1 and text.strip().lower() in ("true", "false"):
                return int(text.strip().lower() == "true")
            return int(text, 0)
        if isinstance(t, VectorType):
            conv = float if isinstance(t.elem, FloatType) else (lambda s: int(s, 0))
            return np.array(_components(text, conv, t.count))
    except ValueError:
        raise LaunchError(f"bad value '{text}' for parameter '{param.name}' ({param.c_type or t}): "
                          f"expected {_allowed(param)}") from None
    raise LaunchError(f"parameter '{param.name}' ({param.c_type or t}) cannot be given with --arg"
                      + ("; give its buffer with --buffer" if param.is_pointer else ""))


def _components(text: str, conv, count: int) -> list:
    """``1,2,3`` (or one value for every component) -> ``count`` values."""
    vals = [conv(p) for p in re.split(r"[,\s]+", text.strip().strip("()[]{}")) if p]
    if len(vals) == 1:
        return vals * count
    if not 1 <= len(vals) <= count:
        raise ValueError
    return vals + [conv("0")] * (count - len(vals))  # an OpenCL float3 has a fourth component


BUFFER_FORMAT = "name=dtype:length[:fill] (fill: random, zeros, ones, ramp, small, signed or const=V), " \
    "e.g. a=float32:1024:random, or name=local:BYTES, or for an image name=dtype:HxWxC[:fill] (e.g. float32:16x16x4)" \
    ", or for a texture/surface name=dtype:N|HxW|HxWxC[:fill][:modes] (modes: linear, norm, wrap, mirror, border)"


@dataclass(frozen=True)
class BufferSpec:
    """A parsed ``--buffer`` text (nothing drawn yet)."""

    name: str
    dtype: np.dtype | None  # None for ``local``
    length: int  # elements, or bytes for ``local``
    fill: str = "random"
    value: float = 0.0
    shape: tuple[int, ...] | None = None  # an image's / texture's array shape (length is its product)
    modes: str = ""  # a texture's descriptor settings ("linear,wrap,norm")
    same: str = ""  # ``name=same:OTHER``: the parameter whose buffer this one is

    @property
    def nbytes(self) -> int:
        return self.length * (self.dtype.itemsize if self.dtype is not None else 1)


def parse_buffer_spec(spec: str, kernel: Kernel) -> BufferSpec:
    """Check a ``--buffer`` text against the kernel without drawing anything."""
    name, sep, rest = spec.partition("=")
    if not sep or not name or not rest:
        raise LaunchError(f"bad --buffer '{spec}': expected {BUFFER_FORMAT}")
    param = next((p for p in launch_params(kernel) if p.name == name), None)
    if param is None:
        raise LaunchError(f"--buffer '{spec}': kernel {kernel.display_name} has no parameter '{name}'; "
                          f"its parameters: {describe_params(kernel)}")
    if (not param.is_pointer or is_by_value(param)) and not takes_array(param):
        raise LaunchError(f"--buffer '{spec}': parameter '{name}' ({param.c_type or param.type}) is not a pointer; "
                          "give it with --arg")
    parts = rest.split(":")
    shape = None
    if parts[0] == "same":
        return BufferSpec(name, None, 0, "same", same=check_same(kernel, name, parts[1] if len(parts) == 2 else "",
                                                                  f"--buffer '{spec}'"))
    try:
        if parts[0] == "local" and not takes_array(param):
            if len(parts) != 2 or int(parts[1]) <= 0:
                raise ValueError
            return BufferSpec(name, None, int(parts[1]), "local")
        dtype = np.dtype(parts[0])
        if is_image(param) or (is_texture(param) and "x" in parts[1].lower()):
            shape = tuple(int(d) for d in parts[1].lower().split("x"))
            length = int(np.prod(shape))
        else:
            length = int(parts[1])
        rest = parts[2:]
        modes = rest.pop() if is_texture(param) and rest and is_texture_modes(rest[-1]) else ""
        if length <= 0 or len(rest) > 1 or dtype.kind not in "biuf":
            raise ValueError
    except (TypeError, ValueError, IndexError):
        raise LaunchError(f"bad --buffer '{spec}': expected {BUFFER_FORMAT}") from None
    if shape is not None and is_image(param) and (why := check_image_array(param, shape, dtype)) is not None:
        raise LaunchError(f"bad --buffer '{spec}' for image '{name}' ({param.c_type}): {why}")
    if shape is not None and is_texture(param) and \
            (why := check_texture_array(texture_layout(kernel, name), shape)) is not None:
        raise LaunchError(f"bad --buffer '{spec}' for texture '{name}' ({param.c_type}): {why}")
    fill, value = rest[0] if rest else "random", 0.0
    if fill.startswith("const="):
        try:
            fill, value = "const", float(fill.split("=", 1)[1])
        except ValueError:
            raise LaunchError(f"bad --buffer '{spec}': const=V needs a number") from None
    if fill not in PLAIN_FILLS and fill != "const":
        raise LaunchError(f"bad --buffer '{spec}': unknown fill '{fill}'; expected {BUFFER_FORMAT}")
    return BufferSpec(name, dtype, length, fill, value, shape, modes)


def check_same(kernel: Kernel, name: str, other: str, where: str) -> str:
    """``other`` if parameter ``name`` may share its buffer (``same:``): both take arrays (pointers,
    textures, surfaces), they differ, and at least one is a texture or surface object, or both point to elements
    of one type (``blur<<<g, b>>>(d, d, n)``: an in-place launch)."""
    params = {p.name: p for p in launch_params(kernel)}
    arrays = [p for p in (params.get(name), params.get(other)) if p is not None
              and ((p.is_pointer and not is_by_value(p) and not p.is_local) or is_texture(p))]
    alike = len(arrays) == 2 and all(p.is_pointer for p in arrays) and len({p.pointee for p in arrays}) == 1 \
        and arrays[0].pointee_size == arrays[1].pointee_size and arrays[0].addrspace == arrays[1].addrspace
    if len(arrays) != 2 or other == name or not (any(is_texture(p) for p in arrays) or alike):
        raise LaunchError(f"{where}: same:{other or '?'} shares the buffer of another parameter of kernel "
                          f"{kernel.display_name} (a texture or surface object and a pointer, texture or surface "
                          f"parameter, or two pointers to one element type); its parameters: "
                          f"{describe_params(kernel)}")
    return other


def parse_buffer(spec: str, kernel: Kernel, rng: np.random.Generator,
                 seed: int | None = None) -> tuple[str, Any, dict[str, Any] | None]:
    """`name=dtype:length[:fill[=value]]` -> (name, array, spec); `name=local:BYTES` for __local pointers
    (no spec).  ``rng`` draws random fills (one generator for every buffer of a launch)."""
    b = parse_buffer_spec(spec, kernel)
    if b.same:
        raise LaunchError(f"--buffer '{spec}' names another parameter's buffer: build_launch resolves it")
    if b.dtype is None:
        return b.name, LocalBuffer(b.length), None
    check_memory(b.nbytes, what=f"--buffer '{spec}'")
    arr, bspec = draw_buffer(b.dtype, b.length, b.fill, rng, b.value, seed=seed)
    if b.shape is not None:
        arr, bspec["shape"] = arr.reshape(b.shape), list(b.shape)
    if b.modes:
        bspec["texture"] = b.modes
    return b.name, arr, bspec


def parse_dims(text: str | tuple, option: str) -> tuple[int, int, int]:
    """``--grid``/``--block`` text -> a 3-tuple, or a LaunchError naming the option and what is allowed."""
    try:
        return as_dim3(text)
    except (TypeError, ValueError):
        raise LaunchError(f"bad {option} '{text}': expected 1 to 3 positive integers, e.g. 64 or 16,16") from None


def parse_arg(text: str, kernel: Kernel, allow_range: bool = False) -> tuple[str, Any]:
    """``name=value`` (or ``name=lo:hi`` when ``allow_range``) checked against the kernel's parameters:
    (name, value) or (name, (lo, hi))."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name or not value.strip():
        raise LaunchError(f"bad --arg '{text}': expected NAME=VALUE" + (" or NAME=LO:HI" if allow_range else ""))
    try:
        param = kernel.param(name)
    except KeyError:
        raise LaunchError(f"--arg '{text}': kernel {kernel.display_name} has no parameter '{name}'; "
                          f"its parameters: {describe_params(kernel)}") from None
    if not settable(param):
        raise LaunchError(f"--arg '{text}': parameter '{name}' ({param.c_type or param.type}) is a pointer; "
                          "give its buffer with --buffer NAME=dtype:length[:fill]")
    if allow_range and ":" in value and not is_by_value(param) and not isinstance(param.type, VectorType):
        lo, _, hi = value.partition(":")
        try:
            lo_v, hi_v = float(lo), float(hi)
        except ValueError:
            raise LaunchError(f"bad --arg '{text}': '{value}' is not a range LO:HI of numbers") from None
        if lo_v > hi_v:
            raise LaunchError(f"bad --arg '{text}': empty range {value}")
        return name, (lo_v, hi_v)
    try:
        return name, parse_scalar(param, value)
    except LaunchError:
        ranged = " or a range LO:HI" if allow_range and not _is_vector(kernel, name) else ""
        raise LaunchError(f"bad --arg '{text}': '{value}' is not a value of {name} ({param.c_type or param.type}); "
                          f"expected {_allowed(param)}{ranged}") from None


def is_complete(kernel: Kernel, grid: Any, block: Any, args: list[str] | None) -> bool:
    """Whether a launch is fully given: both dimensions and a fixed value for every scalar parameter
    (images, textures and samplers have defaults)."""
    if grid is None or block is None:
        return False
    fixed = set()
    for a in args or []:
        name, _, value = a.partition("=")
        if ":" not in value or _is_vector(kernel, name.strip()):
            fixed.add(name.strip())
    return all(p.name in fixed for p in kernel.params if not p.is_pointer and not takes_array(p) and not is_sampler(p))


def _is_vector(kernel: Kernel, name: str) -> bool:
    try:
        p = kernel.param(name)
    except KeyError:
        return False
    return is_by_value(p) or isinstance(p.type, VectorType)


def launch_constraints(kernel: Kernel, base: Any = None, grid: Any = None, block: Any = None,
                       args: list[str] | None = None, buffers: list[str] | None = None, warp_size: int | None = None,
                       dynamic_shared: int | None = None, **_: Any):
    """What a partial command-line launch fixes, as search constraints over ``base`` (the configured
    ones): the search fills in the rest."""
    from dataclasses import replace

    from simu.launch.constraints import KernelConstraints

    c = replace(base) if base is not None else KernelConstraints()
    c.args, c.arg_ranges = dict(c.args), dict(c.arg_ranges)
    c.buffer_lengths, c.fills, c.same = dict(c.buffer_lengths), dict(c.fills), dict(c.same)
    if grid is not None:
        c.grid = parse_dims(grid, "--grid")
    if block is not None:
        c.block = parse_dims(block, "--block")
    for a in args or []:
        name, value = parse_arg(a, kernel, allow_range=True)
        c.args.pop(name, None)
        c.arg_ranges.pop(name, None)
        if isinstance(value, tuple):
            c.arg_ranges[name] = value
        else:
            c.args[name] = value
    for text in buffers or []:
        b = parse_buffer_spec(text, kernel)
        if b.same:
            c.same[b.name] = b.same
            continue
        if b.dtype is None:
            continue  # a __local buffer: the search sizes it
        if b.fill == "const":
            raise LaunchError(f"--buffer '{text}': the search fills buffers with {', '.join(PLAIN_FILLS)}; "
                              "const=V needs a full launch (--grid, --block and every scalar --arg)")
        if b.shape is not None or b.modes:
            raise LaunchError(f"--buffer '{text}': the search sizes images and textures from the thread count and "
                              "uses the default texture modes; a shape or modes need a full launch (--grid, --block "
                              "and every scalar --arg)")
        c.buffer_lengths[b.name] = str(b.length)
        c.fills[b.name] = b.fill
    if warp_size is not None:
        c.warp_size = warp_size
    if dynamic_shared:
        c.dynamic_shared = dynamic_shared
    return c


def check_constraints(kernel: Kernel, c: Any) -> None:
    """Configured constraints (:class:`~simu.launch.constraints.KernelConstraints`) against the kernel's
    parameters: every name is a parameter, scalars get numbers, buffer lengths go to pointers and speak
    of scalar parameters (or ``threads`` / ``blocks``)."""
    import ast

    from simu.launch.constraints import parse_expression, source_name

    params = {p.name: p for p in launch_params(kernel)}
    allowed = f"its parameters: {describe_params(kernel)}"
    for table, names in (("args", [*c.args, *c.arg_ranges, *c.buffer_lengths]), ("fills", list(c.fills))):
        for name in names:
            if name not in params:
                raise LaunchError(f"{table}.{name}: kernel {kernel.display_name} has no parameter '{name}'; {allowed}")
    for name, other in getattr(c, "same", {}).items():
        check_same(kernel, name, other, f"same.{name}")
    for name in c.fills:
        if not params[name].is_pointer and not takes_array(params[name]):
            raise LaunchError(f"fills.{name}: '{name}' ({params[name].c_type}) is not a buffer")
    for name, expr in c.buffer_lengths.items():
        p = params[name]
        if (not p.is_pointer or is_by_value(p)) and not is_texture(p):
            raise LaunchError(f"args.{name} = \"{expr}\": '{name}' is a scalar ({p.c_type or p.type}); expected "
                              "a number or a range \"lo:hi\" (length expressions are for pointer parameters)")
        try:
            tree = parse_expression(expr)
        except ValueError:
            raise LaunchError(f"args.{name} = \"{expr}\": not an arithmetic expression") from None
        calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}  # min, max: not parameters
        for node in ast.walk(tree):
            used = source_name(node.id) if isinstance(node, ast.Name) and id(node) not in calls else ""
            if used and used not in ("threads", "blocks") and \
                    (used not in params or params[used].is_pointer or takes_array(params[used])):
                raise LaunchError(f"args.{name} = \"{expr}\": '{used}' is not a scalar parameter; a length "
                                  "expression uses numbers, scalar parameters, threads and blocks")
    for name in c.args:
        p = params[name]
        if p.is_pointer and not is_by_value(p):
            raise LaunchError(f"args.{name}: '{name}' is a pointer ({p.c_type}); give a length expression such as "
                              "\"n\" or \"threads\"")


def share_buffers(values: dict[str, Any], specs: dict[str, dict[str, Any]], same: dict[str, str]) -> None:
    """Give each parameter of ``same`` the very array of its partner (the machine then backs both with
    one buffer), recorded as the spec ``{"same": partner}``."""
    for name, other in same.items():
        if other in same:
            raise LaunchError(f"same:{other} for '{name}': '{other}' itself shares another parameter's buffer")
        values[name] = values[other]
        specs[name] = {"same": other}


def build_launch(kernel: Kernel, grid: str | tuple, block: str | tuple, args: list[str] | None = None,
                 buffers: list[str] | None = None, seed: int = 0, warp_size: int = 32,
                 dynamic_shared: int = 0, loaded: dict[str, np.ndarray] | None = None,
                 max_threads: int = MAX_THREADS, max_memory_bytes: int = MAX_MEMORY_BYTES) -> Launch:
    """A launch from command-line style text; unspecified buffers get one random element per thread.
    Unspecified images, textures and samplers get the defaults of :mod:`simu.launch.images`: a texture's
    backing buffer is sized like a buffer, an image covers the launch (:func:`default_image_shape`).
    The launch's size is checked against the limits before any buffer is drawn."""
    rng = np.random.default_rng(seed)
    params = launch_params(kernel)  # legacy texture references are backed like texture objects
    gdim, bdim = parse_dims(grid, "--grid"), parse_dims(block, "--block")
    check_launch_shape(gdim, bdim, warp_size, max_threads)
    launch = Launch(gdim, bdim, {}, warp_size or 32, dynamic_shared, seed)
    values: dict[str, Any] = {}
    for a in args or []:
        name, value = parse_arg(a, kernel)
        values[name] = value
    parsed = [parse_buffer_spec(b, kernel) for b in buffers or []]
    for text, b in zip(buffers or [], parsed, strict=True):
        check_memory(b.nbytes, max_memory_bytes, what=f"--buffer '{text}'")
    nbytes = sum(b.nbytes * (launch.num_blocks if b.dtype is None else 1) for b in parsed)
    check_memory(nbytes, max_memory_bytes)
    specs: dict[str, dict[str, Any]] = {}
    same = {b.name: b.same for b in parsed if b.same}
    for text, b in zip(buffers or [], parsed, strict=True):
        if b.same:
            continue  # resolved once its partner has a value
        name, arr, bspec = parse_buffer(text, kernel, rng, seed)
        values[name] = arr
        if bspec is not None:
            specs[name] = bspec
    for name, arr in (loaded or {}).items():
        if name not in values:
            values[name] = arr
            nbytes += int(getattr(arr, "nbytes", 0))
    # default buffers cover every thread and the largest integer argument (often a size n)
    sizes = [int(v) for v in values.values() if isinstance(v, (int, np.integer)) and 0 < int(v) <= 1 << 24]
    default_length = max([launch.total_threads] + sizes)
    for p in params:
        if p.name in values or p.name in same or not (p.is_pointer or takes_array(p)):
            continue
        if is_image(p):
            shape = default_image_shape(p, launch.global_size, launch.total_threads)
            nbytes += int(np.prod(shape)) * image_dtype(kernel, p).itemsize
        elif is_texture(p):
            layout = texture_layout(kernel, p.name)
            shape = default_texture_shape(layout, launch.global_size, launch.total_threads, default_length)
            nbytes += int(np.prod(shape)) * layout.dtype.itemsize
        elif p.is_local:
            nbytes += 4 * launch.threads_per_block * 4 * launch.num_blocks
        else:
            dt, comps = element_type(p.pointee, p.pointee_size)
            nbytes += default_length * comps * dt.itemsize
    check_memory(nbytes, max_memory_bytes)
    for p in params:
        if p.name in values or p.name in same:
            continue
        if is_image(p):
            shape = default_image_shape(p, launch.global_size, launch.total_threads)
            arr, spec = draw_buffer(image_dtype(kernel, p), int(np.prod(shape)), "random", rng, seed=seed)
            values[p.name], spec["shape"] = arr.reshape(shape), list(shape)
            specs[p.name] = spec
        elif is_texture(p):
            layout = texture_layout(kernel, p.name)
            shape = default_texture_shape(layout, launch.global_size, launch.total_threads, default_length)
            arr, spec = draw_buffer(layout.dtype, int(np.prod(shape)), "random", rng, seed=seed)
            if len(shape) > 1:
                arr, spec["shape"] = arr.reshape(shape), list(shape)
            values[p.name], specs[p.name] = arr, spec
        elif is_sampler(p):
            values[p.name] = DEFAULT_SAMPLER
        elif p.is_local:
            values[p.name] = LocalBuffer(4 * launch.threads_per_block * 4)
        elif p.is_pointer:
            dt, comps = element_of(p)
            values[p.name], specs[p.name] = draw_buffer(dt, default_length * comps, "random", rng, seed=seed)
        else:
            raise LaunchError(f"no value for scalar parameter '{p.name}' ({p.c_type or p.type}); "
                              f"give --arg {p.name}=...")
    share_buffers(values, specs, same)
    # the buffers behind the device pointers a struct argument or an array of pointers holds (simu.launch.members)
    drawn = set(values)
    launch.pointers = draw_members(params, values, specs, "random", rng, default_length, seed=seed)
    check_memory(nbytes + sum(int(values[n].nbytes) for n in values if n not in drawn), max_memory_bytes)
    launch.args = {p.name: values[p.name] for p in params} | {n: values[n] for n in values if n not in drawn}
    launch.buffer_specs = {name: spec for name, spec in specs.items() if name in launch.args}
    return launch
