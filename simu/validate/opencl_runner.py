"""Run one OpenCL kernel launch on a real OpenCL implementation (PoCL by default).

This is the reference side of simu's differential fidelity tests: the same
:class:`~simu.launch.model.Launch` that simu interprets is run through pyopencl and the
final contents of every buffer argument come back as numpy arrays.

* ``launch.grid`` counts work-groups and ``launch.block`` is the local size (CUDA-style), so
  the NDRange is ``grid * block`` with local size ``block``.  The number of work dimensions
  is the index of the last dimension whose global size is not 1, plus one (so a ``(64, 1, 1)``
  launch is one-dimensional and ``get_work_dim()`` returns 1).
* ``launch.args`` maps every kernel parameter, by name, to its value.  Parameter names,
  types and address spaces come from the kernel argument info (the program is always
  built with ``-cl-kernel-arg-info``); scalars are converted to the parameter's exact C type.
* Contexts, queues, programs and kernels are cached, so building one source once and
  launching it many times is cheap.
"""

from __future__ import annotations

import re
import threading
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from simu.errors import CompileError, LaunchError, SimuError
from simu.launch.model import Launch, LocalBuffer
from simu.validate.opencl_images import is_image, is_sampler, make_image, make_sampler, read_image

__all__ = [
    "OpenCLBuildError",
    "OpenCLRuntimeError",
    "OpenCLUnavailableError",
    "KernelParam",
    "run_on_opencl",
    "kernel_params",
]


class OpenCLUnavailableError(SimuError):
    """pyopencl is missing or no OpenCL device matches the request."""


class OpenCLBuildError(CompileError):
    """The OpenCL implementation rejected the program; ``diagnostics`` holds its build log."""

    def __init__(self, kernel_name: str, device: str, options: str, log: str):
        self.kernel_name = kernel_name
        self.device = device
        self.options = options
        self.log = log.strip()
        super().__init__(f"<opencl:{kernel_name}>", self.log or "build failed (empty build log)")
        self.args = (f"OpenCL build failed on {device} (options: {options!r}): {self.first}\n"
                     f"build log:\n{self.log}",)

    def __str__(self) -> str:
        return self.args[0]


class OpenCLRuntimeError(SimuError):
    """Enqueueing or running the kernel failed."""


# Scalar C types a kernel parameter may have, by OpenCL C spelling.
_SCALAR_DTYPES: dict[str, np.dtype] = {
    "char": np.dtype(np.int8), "signed char": np.dtype(np.int8),
    "uchar": np.dtype(np.uint8), "unsigned char": np.dtype(np.uint8),
    "short": np.dtype(np.int16), "signed short": np.dtype(np.int16),
    "ushort": np.dtype(np.uint16), "unsigned short": np.dtype(np.uint16),
    "int": np.dtype(np.int32), "signed int": np.dtype(np.int32), "signed": np.dtype(np.int32),
    "uint": np.dtype(np.uint32), "unsigned int": np.dtype(np.uint32), "unsigned": np.dtype(np.uint32),
    "long": np.dtype(np.int64), "signed long": np.dtype(np.int64),
    "ulong": np.dtype(np.uint64), "unsigned long": np.dtype(np.uint64),
    "half": np.dtype(np.float16),
    "float": np.dtype(np.float32),
    "double": np.dtype(np.float64),
}
_VECTOR_RE = re.compile(r"^(char|uchar|short|ushort|int|uint|long|ulong|half|float|double)(2|3|4|8|16)$")
_QUALIFIERS = ("const", "volatile", "restrict", "__private", "private", "__global", "global",
               "__local", "local", "__constant", "constant", "struct", "union", "enum")


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter as the OpenCL implementation reports it."""

    index: int
    name: str
    type_name: str      # as reported, e.g. "float*", "uint", "float4", "mystruct_t"
    space: str          # "global" | "local" | "constant" | "private"

    @property
    def is_pointer(self) -> bool:
        return self.type_name.rstrip().endswith("*") or self.space != "private"


@dataclass
class _Device:
    key: str
    device: Any
    context: Any
    queue: Any


_lock = threading.RLock()
_devices: dict[str | None, _Device] = {}
_programs: dict[tuple[str, str, str], Any] = {}
_kernels: dict[tuple[str, str, str, str], tuple[Any, list[KernelParam]]] = {}


def _cl():
    try:
        import pyopencl as cl
    except ImportError as exc:  # pragma: no cover - pyopencl is a dependency
        raise OpenCLUnavailableError(f"pyopencl is not importable: {exc}") from exc
    return cl


def _select_device(device: str | None) -> _Device:
    with _lock:
        if device in _devices:
            return _devices[device]
        cl = _cl()
        try:
            platforms = cl.get_platforms()
        except cl.Error as exc:
            raise OpenCLUnavailableError(f"no OpenCL platform available: {exc}") from exc
        candidates = []
        for platform in platforms:
            try:
                devs = platform.get_devices()
            except cl.Error:
                continue
            for dev in devs:
                candidates.append((platform, dev))
        if not candidates:
            raise OpenCLUnavailableError("no OpenCL device found (is pocl-binary-distribution installed?)")
        chosen = None
        if device is None:
            for platform, dev in candidates:
                if "portable computing language" in platform.name.lower() or "pocl" in platform.name.lower():
                    chosen = (platform, dev)
                    break
            chosen = chosen or candidates[0]
        else:
            wanted = device.lower()
            for platform, dev in candidates:
                if wanted in f"{platform.name} {dev.name}".lower():
                    chosen = (platform, dev)
                    break
            if chosen is None:
                names = "; ".join(f"{p.name}: {d.name}" for p, d in candidates)
                raise OpenCLUnavailableError(f"no OpenCL device matches {device!r} (available: {names})")
        platform, dev = chosen
        context = cl.Context([dev])
        broken = _cannot_compile(cl, context, dev)
        if broken:
            raise OpenCLUnavailableError(f"{platform.name}: {dev.name} cannot compile OpenCL C here: {broken}")
        queue = cl.CommandQueue(context, dev)
        entry = _Device(f"{platform.name}: {dev.name}", dev, context, queue)
        _devices[device] = entry
        return entry


def _cannot_compile(cl, context, dev) -> str:
    """Why ``dev`` builds not even an empty kernel (its compiler cannot target this CPU: the pip PoCL on a host
    whose CPU its LLVM does not name, ``unknown target CPU 'generic'``), or ``""``: such a device is unusable,
    not a kernel's build failure."""
    try:
        cl.Program(context, "__kernel void simu_probe(__global int *a) { a[0] = 1; }").build(devices=[dev])
    except cl.Error as exc:
        lines = [ln.strip() for ln in str(exc).splitlines() if "error" in ln.lower()]
        return (lines[-1] if lines else str(exc).strip().splitlines()[0])[:200]
    return ""


def _build(dev: _Device, source: str, options: str, kernel_name: str):
    key = (dev.key, source, options)
    with _lock:
        program = _programs.get(key)
        if program is not None:
            return program
        cl = _cl()
        full_options = " ".join(o for o in (options.strip(), "-cl-kernel-arg-info") if o)
        program = cl.Program(dev.context, source)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cl.CompilerWarning)
            try:
                program.build(options=full_options, devices=[dev.device])
            except cl.Error as exc:
                raise OpenCLBuildError(kernel_name, dev.key, full_options, _build_log(program, dev, exc)) from None
        _programs[key] = program
        return program


def _build_log(program: Any, dev: _Device, exc: Exception) -> str:
    cl = _cl()
    try:
        log = program.get_build_info(dev.device, cl.program_build_info.LOG)
        if log and log.strip():
            return log
    except Exception:  # noqa: BLE001 - fall back to the exception text
        pass
    text = str(exc)
    # pyopencl embeds the log after "Build on <device>:"; keep just that part when present.
    match = re.search(r"Build on [^\n]*:\n(.*?)(?:\n\(options:|\Z)", text, re.S)
    return match.group(1) if match else text


_SPACES = None


def _space_name(value: int) -> str:
    global _SPACES
    if _SPACES is None:
        q = _cl().kernel_arg_address_qualifier
        _SPACES = {q.GLOBAL: "global", q.LOCAL: "local", q.CONSTANT: "constant", q.PRIVATE: "private"}
    return _SPACES.get(value, "private")


def _kernel(dev: _Device, source: str, options: str, kernel_name: str) -> tuple[Any, list[KernelParam]]:
    key = (dev.key, source, options, kernel_name)
    with _lock:
        hit = _kernels.get(key)
        if hit is not None:
            return hit
        cl = _cl()
        program = _build(dev, source, options, kernel_name)
        try:
            kernel = cl.Kernel(program, kernel_name)
        except cl.Error as exc:
            names = sorted(k.function_name for k in program.all_kernels())
            raise LaunchError(f"no kernel named {kernel_name!r} in the program "
                              f"(kernels: {', '.join(names) or 'none'})") from exc
        params = []
        info = cl.kernel_arg_info
        for i in range(kernel.num_args):
            try:
                name = kernel.get_arg_info(i, info.NAME)
                type_name = kernel.get_arg_info(i, info.TYPE_NAME)
                space = _space_name(kernel.get_arg_info(i, info.ADDRESS_QUALIFIER))
            except cl.Error as exc:
                raise OpenCLUnavailableError(
                    f"{dev.key} does not report kernel argument info for {kernel_name!r}: {exc}") from exc
            params.append(KernelParam(i, name, type_name.strip(), space))
        _kernels[key] = (kernel, params)
        return kernel, params


def kernel_params(source: str, kernel_name: str, *, build_options: str = "",
                  device: str | None = None) -> list[KernelParam]:
    """The parameters of ``kernel_name`` (building ``source`` if needed)."""
    dev = _select_device(device)
    return list(_kernel(dev, source, build_options, kernel_name)[1])


def _base_type(type_name: str) -> str:
    words = [w for w in type_name.replace("*", " ").split() if w not in _QUALIFIERS]
    return " ".join(words)


def _resolve_typedef(source: str, name: str, depth: int = 0) -> str | None:
    """Follow ``typedef <base> name;`` in the source to a built-in type name."""
    if depth > 8:
        return None
    match = re.search(r"\btypedef\s+([A-Za-z_][\w\s]*?)\s+" + re.escape(name) + r"\s*;", source)
    if not match:
        return None
    base = _base_type(match.group(1))
    if base in _SCALAR_DTYPES or _VECTOR_RE.match(base):
        return base
    return _resolve_typedef(source, base, depth + 1)


def _scalar_dtype(param: KernelParam, source: str) -> np.dtype | None:
    base = _base_type(param.type_name)
    if base not in _SCALAR_DTYPES and not _VECTOR_RE.match(base):
        base = _resolve_typedef(source, base) or base
    if base in _SCALAR_DTYPES:
        return _SCALAR_DTYPES[base]
    vec = _VECTOR_RE.match(base)
    if vec:
        from pyopencl import cltypes

        return np.dtype(getattr(cltypes, base))
    return None


def _scalar_value(param: KernelParam, value: Any, source: str, kernel_name: str) -> np.ndarray | np.generic:
    dtype = _scalar_dtype(param, source)
    where = f"kernel {kernel_name!r} parameter {param.name!r} ({param.type_name})"
    if isinstance(value, LocalBuffer):
        raise LaunchError(f"{where}: expected a scalar value, got a LocalBuffer")
    if dtype is None:
        # A struct (or an unknown typedef) passed by value: accept a numpy scalar / 0-d array of
        # the right size as raw bytes.
        if isinstance(value, (np.generic, np.ndarray)):
            return np.asarray(value).reshape(())
        raise LaunchError(f"{where}: unknown parameter type; pass a numpy scalar or structured value")
    if dtype.fields is not None:  # vector type (pyopencl.cltypes layout, float3 padded to 4)
        if isinstance(value, (np.ndarray, np.void)) and value.dtype == dtype:
            return np.asarray(value).reshape(())
        lane_names = [n for n in dtype.names if not n.startswith("padding")]
        values = np.asarray(value).reshape(-1)
        if values.size == 1:
            values = np.repeat(values, len(lane_names))
        if values.size != len(lane_names):
            raise LaunchError(f"{where}: expected {len(lane_names)} components, got {values.size}")
        arr = np.zeros((), dtype)
        for lane, v in zip(lane_names, values, strict=False):
            arr[lane] = v
        return arr
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise LaunchError(f"{where}: expected a scalar value, got an array of shape {value.shape}")
        value = value.reshape(()).item()
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        value = int(value)
    if dtype.kind in "iu":
        if not isinstance(value, (int, np.integer)):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise LaunchError(f"{where}: expected an integer, got {value!r}")
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise LaunchError(f"{where}: value {value} does not fit in {param.type_name}")
        return dtype.type(value)
    return dtype.type(value)


def _byte_copy(value: np.ndarray) -> np.ndarray:
    """A writable C-contiguous copy that keeps every byte, including struct padding
    (``ndarray.copy`` copies structured arrays field by field and drops it)."""
    data = bytearray(np.ascontiguousarray(value).tobytes())
    return np.frombuffer(data, dtype=value.dtype).reshape(value.shape)


def _param_name(reported: str, given: dict[str, Any]) -> str:
    """PoCL's headers #define built-in function names (``step``, ``clamp`` ...) to
    ``_cl_<name>``, so a parameter called ``step`` is reported as ``_cl_step``."""
    if reported not in given and reported.startswith("_cl_") and reported[4:] in given:
        return reported[4:]
    return reported


def _work_dims(launch: Launch) -> int:
    sizes = launch.global_size
    dims = 1
    for i, s in enumerate(sizes):
        if s != 1:
            dims = i + 1
    return dims


def run_on_opencl(source: str, kernel_name: str, launch: Launch, *, build_options: str = "",
                  device: str | None = None) -> dict[str, np.ndarray]:
    """Run one launch of ``kernel_name`` from ``source`` on a real OpenCL device.

    Returns the final contents of every buffer (``__global`` / ``__constant`` pointer)
    argument, keyed by parameter name, with the dtype and shape of the array passed in.
    The arrays in ``launch.args`` are not modified.
    """
    cl = _cl()
    dev = _select_device(device)
    kernel, params = _kernel(dev, source, build_options, kernel_name)

    given = dict(launch.args)
    names = [_param_name(p.name, given) for p in params]
    missing = [n for n in names if n not in given]
    extra = [n for n in given if n not in names]
    if missing and len(given) == len(params) and not any(n in given for n in names):
        # Argument info without names (or renamed parameters): fall back to positional order.
        given = dict(zip(names, launch.args.values(), strict=False))
        missing, extra = [], []
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unknown " + ", ".join(extra))
        raise LaunchError(f"kernel {kernel_name!r} arguments: {'; '.join(parts)} "
                          f"(parameters: {', '.join(names) or 'none'})")

    local = tuple(int(b) for b in launch.block)
    if launch.threads_per_block > dev.device.max_work_group_size:
        raise LaunchError(f"local size {local} has {launch.threads_per_block} work-items; {dev.key} allows "
                          f"at most {dev.device.max_work_group_size}")
    dims = _work_dims(launch)

    mf = cl.mem_flags
    cl_args: list[Any] = []
    outputs: list[tuple[str, np.ndarray, Any]] = []
    images: list[tuple[str, np.ndarray, Any, tuple]] = []
    for param, pname in zip(params, names, strict=False):
        value = given[pname]
        where = f"kernel {kernel_name!r} parameter {param.name!r} ({param.type_name})"
        if param.space == "local":
            if isinstance(value, LocalBuffer):
                nbytes = int(value.nbytes)
            elif isinstance(value, (int, np.integer)):
                nbytes = int(value)
            else:
                raise LaunchError(f"{where}: a __local pointer needs LocalBuffer(nbytes), got {type(value).__name__}")
            if nbytes <= 0:
                raise LaunchError(f"{where}: LocalBuffer size must be positive, got {nbytes}")
            cl_args.append(cl.LocalMemory(nbytes))
        elif is_image(_base_type(param.type_name)):
            image, host, region = make_image(cl, dev.context, value, _base_type(param.type_name), where)
            cl_args.append(image)
            images.append((pname, host, image, region))
        elif is_sampler(_base_type(param.type_name)):
            cl_args.append(make_sampler(cl, dev.context, int(value), where))
        elif param.is_pointer:
            if isinstance(value, LocalBuffer):
                raise LaunchError(f"{where}: LocalBuffer given for a {param.space} pointer")
            if not isinstance(value, np.ndarray):
                raise LaunchError(f"{where}: expected a numpy array, got {type(value).__name__}")
            host = _byte_copy(value)
            if host.nbytes == 0:
                buf = cl.Buffer(dev.context, mf.READ_WRITE, 1)
            else:
                buf = cl.Buffer(dev.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
            cl_args.append(buf)
            outputs.append((pname, host, buf))
        else:
            cl_args.append(_scalar_value(param, value, source, kernel_name))

    global_size = tuple(int(g) for g in launch.global_size)[:dims]
    try:
        with _lock:  # the cached kernel object holds the arguments until it is enqueued
            kernel.set_args(*cl_args)
            cl.enqueue_nd_range_kernel(dev.queue, kernel, global_size, local[:dims])
        result: dict[str, np.ndarray] = {}
        for name, host, buf in outputs:
            if host.nbytes:
                cl.enqueue_copy(dev.queue, host, buf, is_blocking=True)
            result[name] = host
        for name, host, image, region in images:
            read_image(cl, dev.queue, image, host, region)
            result[name] = host
        dev.queue.finish()
    except cl.Error as exc:
        raise OpenCLRuntimeError(f"running kernel {kernel_name!r} on {dev.key} with global size {global_size} "
                                 f"and local size {local[:dims]} failed: {exc}") from None
    finally:
        for _, _, buf in outputs:
            buf.release()
        for _, _, image, _ in images:
            image.release()
    return {name: result[name].reshape(given[name].shape) for name in result}
