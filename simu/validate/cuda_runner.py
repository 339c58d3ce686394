"""Replay one CUDA kernel launch on an NVIDIA GPU.

The user's source is compiled as it is (no simu shim headers) with NVRTC, through CuPy's
``RawModule`` or, without CuPy, through ``cuda-python`` (``cuda.bindings.nvrtc`` and the driver
API).  The kernel is looked up with a name expression (its display name, e.g.
``block_sum<float, 128U>``), so template kernels are instantiated by NVRTC.  When NVRTC cannot
compile the file (host code that needs the full runtime headers, say) and ``nvcc`` is on the
PATH, the file is compiled with ``nvcc -cubin`` instead and the kernel looked up by its mangled
name.

Nothing here imports simu's compiler or llvmlite, so the module also works on a GPU machine
where only numpy and CuPy (or cuda-python) are installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Any

import numpy as np

from simu.errors import LaunchError, SimuError

__all__ = ["CudaUnavailableError", "CudaBuildError", "CudaParam", "cuda_available", "cuda_device_name", "run_on_cuda"]

NO_CUDA = "no CUDA device: skipping CUDA replay"


class CudaUnavailableError(SimuError):
    """No CUDA GPU, or neither CuPy nor cuda-python is importable."""


class CudaBuildError(SimuError):
    """NVRTC (and nvcc) rejected the source."""


@dataclass(frozen=True)
class CudaParam:
    """One kernel parameter: ``kind`` "pointer" or "scalar"; ``dtype`` the numpy dtype of a scalar."""

    name: str
    kind: str
    dtype: str | None = None


def _cupy():
    try:
        import cupy  # noqa: F401

        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
        return cupy
    except Exception:  # noqa: BLE001 - ImportError, CUDARuntimeError without a driver, ...
        return None


def _bindings():
    try:
        from cuda.bindings import driver, nvrtc  # type: ignore
    except Exception:  # noqa: BLE001
        try:
            from cuda import cuda as driver  # type: ignore  # older cuda-python layout
            from cuda import nvrtc
        except Exception:  # noqa: BLE001
            return None
    try:
        err, = driver.cuInit(0)
        if int(err) != 0:
            return None
        err, count = driver.cuDeviceGetCount()
        if int(err) != 0 or count < 1:
            return None
    except Exception:  # noqa: BLE001
        return None
    return driver, nvrtc


def cuda_available() -> str | None:
    """"cupy" or "cuda-python" when a CUDA GPU can be used, else ``None``."""
    if _cupy() is not None:
        return "cupy"
    if _bindings() is not None:
        return "cuda-python"
    return None


def cuda_device_name() -> str:
    cp = _cupy()
    if cp is not None:
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())
        name = props["name"]
        return "CUDA: " + (name.decode() if isinstance(name, bytes) else str(name))
    b = _bindings()
    if b is not None:
        driver, _ = b
        _, dev = driver.cuDeviceGet(0)
        _, name = driver.cuDeviceGetName(64, dev)
        return "CUDA: " + name.split(b"\0", 1)[0].decode()
    raise CudaUnavailableError(NO_CUDA)


def _scalar(value: Any, dtype: str | None, name: str) -> np.generic:
    dt = np.dtype(dtype or ("float32" if isinstance(value, float) else "int32"))
    if isinstance(value, (list, tuple, np.ndarray)) and np.asarray(value).size != 1:
        raise LaunchError(f"parameter {name!r}: vector or struct arguments are not supported by the CUDA replay")
    v = np.asarray(value).reshape(()).item() if isinstance(value, (np.ndarray, np.generic)) else value
    if dt.kind in "iu":
        bits = dt.itemsize * 8
        v = int(v) & ((1 << bits) - 1)
        return np.array(v, dtype=np.dtype(f"u{dt.itemsize}")).view(dt).reshape(())[()]
    return dt.type(v)


def _cuda_include_dirs() -> list[str]:
    out = []
    for env in ("CUDA_PATH", "CUDA_HOME"):
        p = os.environ.get(env)
        if p and os.path.isdir(os.path.join(p, "include")):
            out.append(os.path.join(p, "include"))
    for p in ("/usr/local/cuda/include",):
        if os.path.isdir(p) and p not in out:
            out.append(p)
    return out


_MODULES: dict[tuple, Any] = {}


def _compile_cupy(cp, source: str, name_expression: str, mangled: str | None, options: tuple[str, ...],
                  include_dirs: tuple[str, ...]):
    key = ("cupy", source, name_expression, options, include_dirs)
    if key in _MODULES:
        return _MODULES[key]
    opts = tuple(options) + tuple(f"-I{d}" for d in include_dirs)
    try:
        mod = cp.RawModule(code=source, options=opts, name_expressions=[name_expression])
        fn = mod.get_function(name_expression)
        how = "nvrtc"
    except Exception as exc:  # noqa: BLE001 - cupy raises CompileException / CUDADriverError
        cubin = _nvcc_cubin(source, options, include_dirs, name_expression)
        if cubin is None or not mangled:
            raise CudaBuildError(f"NVRTC could not compile the kernel {name_expression!r}: {exc}") from None
        mod = cp.RawModule(path=cubin)
        fn = mod.get_function(mangled)
        how = "nvcc"
    _MODULES[key] = (mod, fn, how)
    return _MODULES[key]


def _nvcc_cubin(source: str, options: tuple[str, ...], include_dirs: tuple[str, ...],
                name_expression: str | None = None) -> str | None:
    """Compile with nvcc (host code included) to a cubin; taking the kernel's address makes nvcc
    instantiate a template kernel that the file itself never launches."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        return None
    tmp = tempfile.mkdtemp(prefix="simu-cuda-")
    src = os.path.join(tmp, "kernel.cu")
    out = os.path.join(tmp, "kernel.cubin")
    with open(src, "w") as fh:
        fh.write(source)
        if name_expression:
            fh.write(f"\nvoid *__simu_instantiate_kernel = (void *)&({name_expression});\n")
    arch = _arch()
    argv = [nvcc, "-cubin", f"-arch=sm_{arch}", "-o", out, src] + [f"-I{d}" for d in include_dirs] + \
        [o for o in options if o.startswith(("-D", "-I", "-std"))]
    proc = subprocess.run(argv, capture_output=True, text=True)
    return out if proc.returncode == 0 else None


def _arch() -> str:
    cp = _cupy()
    if cp is not None:
        return str(cp.cuda.Device().compute_capability)
    b = _bindings()
    if b is not None:
        driver, _ = b
        _, dev = driver.cuDeviceGet(0)
        attr = driver.CUdevice_attribute
        _, major = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        _, minor = driver.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
        return f"{major}{minor}"
    raise CudaUnavailableError(NO_CUDA)


def run_on_cuda(source: str, name_expression: str, params: list[CudaParam], grid: tuple[int, int, int],
                block: tuple[int, int, int], args: dict[str, Any], *, dynamic_shared: int = 0,
                mangled: str | None = None, options: tuple[str, ...] = ("-std=c++17",),
                include_dirs: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """Run one launch of a CUDA kernel; return the final contents of every pointer argument.

    ``params`` gives the parameter order and kinds (pointer or scalar with its dtype); ``args``
    maps names to values (numpy arrays for pointers).  The arrays passed in are not modified.
    """
    inc = tuple(include_dirs) + tuple(d for d in _cuda_include_dirs() if d not in include_dirs)
    cp = _cupy()
    if cp is not None:
        return _run_cupy(cp, source, name_expression, params, grid, block, args, dynamic_shared, mangled,
                         tuple(options), inc)
    b = _bindings()
    if b is not None:
        return _run_bindings(b, source, name_expression, params, grid, block, args, dynamic_shared, tuple(options), inc,
                             mangled)
    raise CudaUnavailableError(NO_CUDA)


def _run_cupy(cp, source, name_expression, params, grid, block, args, dynamic_shared, mangled, options, inc):
    _, fn, _ = _compile_cupy(cp, source, name_expression, mangled, options, inc)
    dev_args = []
    outputs = []
    for p in params:
        if p.name not in args:
            raise LaunchError(f"no value for parameter {p.name!r}")
        v = args[p.name]
        if p.kind == "pointer":
            if v is None:
                dev_args.append(np.uint64(0))
                continue
            host = np.ascontiguousarray(v)
            d = cp.asarray(host.reshape(-1).view(np.uint8)) if host.nbytes else cp.zeros(1, cp.uint8)
            dev_args.append(d)
            outputs.append((p.name, host, d))
        else:
            dev_args.append(_scalar(v, p.dtype, p.name))
    fn(tuple(int(g) for g in grid), tuple(int(b) for b in block), tuple(dev_args), shared_mem=int(dynamic_shared))
    cp.cuda.Device().synchronize()
    out = {}
    for name, host, d in outputs:
        raw = cp.asnumpy(d)[:host.nbytes]
        out[name] = np.frombuffer(bytearray(raw.tobytes()), host.dtype).reshape(host.shape)
    return out


def _check(result, what: str):
    """cuda-python calls return (error, value...) tuples: raise on error, return the value(s)."""
    err, rest = (result[0], result[1:]) if isinstance(result, tuple) else (result, ())
    if int(err) != 0:
        raise CudaBuildError(f"{what} failed: {err}")
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


def _nvrtc_cubin(nvrtc, source: str, name_expression: str, options, inc) -> tuple[bytes, bytes]:
    """(cubin, lowered name) from NVRTC, or CudaBuildError with the log."""
    prog = _check(nvrtc.nvrtcCreateProgram(source.encode(), b"kernel.cu", 0, [], []), "nvrtcCreateProgram")
    _check(nvrtc.nvrtcAddNameExpression(prog, name_expression.encode()), "nvrtcAddNameExpression")
    opts = [o.encode() for o in options] + [f"-I{d}".encode() for d in inc] + \
        [f"--gpu-architecture=sm_{_arch()}".encode()]
    err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    if int(err) != 0:
        _, size = nvrtc.nvrtcGetProgramLogSize(prog)
        log = b" " * size
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise CudaBuildError(f"NVRTC could not compile the kernel {name_expression!r}:\n"
                             f"{log.decode(errors='replace').rstrip(chr(0))}")
    lowered = _check(nvrtc.nvrtcGetLoweredName(prog, name_expression.encode()), "nvrtcGetLoweredName")
    size = _check(nvrtc.nvrtcGetCUBINSize(prog), "nvrtcGetCUBINSize")
    cubin = b" " * size
    _check(nvrtc.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
    return cubin, lowered if isinstance(lowered, bytes) else str(lowered).encode()


def _run_bindings(b, source, name_expression, params, grid, block, args, dynamic_shared, options, inc, mangled=None):
    driver, nvrtc = b
    key = ("bindings", source, name_expression, options, inc)
    if key not in _MODULES:
        try:
            cubin, lowered = _nvrtc_cubin(nvrtc, source, name_expression, options, inc)
        except CudaBuildError:
            path = _nvcc_cubin(source, options, inc, name_expression)  # host code NVRTC cannot take
            if path is None or not mangled:
                raise
            with open(path, "rb") as fh:
                cubin = fh.read()
            lowered = mangled.encode()
        _, dev = driver.cuDeviceGet(0)
        ctx = _check(driver.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
        _check(driver.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        module = _check(driver.cuModuleLoadData(cubin), "cuModuleLoadData")
        fn = _check(driver.cuModuleGetFunction(module, lowered), "cuModuleGetFunction")
        _MODULES[key] = (module, fn, ctx)
    module, fn, ctx = _MODULES[key]
    _check(driver.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    holders: list[np.ndarray] = []
    outputs = []
    allocations = []
    try:
        for p in params:
            v = args[p.name]
            if p.kind == "pointer":
                host = np.ascontiguousarray(v) if v is not None else None
                if host is None:
                    holders.append(np.array([0], np.uint64))
                    continue
                nbytes = max(host.nbytes, 1)
                dptr = _check(driver.cuMemAlloc(nbytes), "cuMemAlloc")
                allocations.append(dptr)
                if host.nbytes:
                    _check(driver.cuMemcpyHtoD(dptr, host.ctypes.data, host.nbytes), "cuMemcpyHtoD")
                holders.append(np.array([int(dptr)], np.uint64))
                outputs.append((p.name, host, dptr))
            else:
                holders.append(np.array([_scalar(v, p.dtype, p.name)]))
        ptrs = np.array([h.ctypes.data for h in holders], np.uint64)
        _check(driver.cuLaunchKernel(fn, *[int(g) for g in grid], *[int(x) for x in block], int(dynamic_shared), 0,
                                     ptrs.ctypes.data, 0), "cuLaunchKernel")
        _check(driver.cuCtxSynchronize(), "cuCtxSynchronize")
        out = {}
        for name, host, dptr in outputs:
            res = np.empty_like(host)
            if host.nbytes:
                _check(driver.cuMemcpyDtoH(res.ctypes.data, dptr, host.nbytes), "cuMemcpyDtoH")
            out[name] = res
        return out
    finally:
        for dptr in allocations:
            driver.cuMemFree(dptr)
