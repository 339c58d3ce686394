"""The devices a launch is replayed on: OpenCL devices through pyopencl (PoCL's CPU device by
default, any platform/device by a substring of "platform: device") and, for CUDA sources, an
NVIDIA GPU through NVRTC (:mod:`simu.validate.cuda_runner`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simu.errors import SimuError
from simu.launch.model import Launch, Schedule
from simu.validate import amplify
from simu.validate.cuda_runner import NO_CUDA, CudaParam, cuda_available, cuda_device_name, run_on_cuda
from simu.validate.opencl_runner import OpenCLBuildError, OpenCLUnavailableError, run_on_opencl

Outputs = dict[str, np.ndarray]
GUARD_BYTES = 4096  # zero padding after every buffer, so that out-of-bounds accesses stay in our memory
CUDA_WORDS = ("cuda", "nvrtc")


@dataclass
class KernelInfo:
    """What a device needs to know about the kernel besides the source."""

    name: str                    # display name (OpenCL kernel name / CUDA name expression)
    mangled: str | None = None   # CUDA: the mangled symbol (for an nvcc-built module)
    params: list[dict[str, Any]] = field(default_factory=list)  # simu.validate.replay.param_table
    uses_subgroups: bool = False


class Device:
    """One replay target."""

    name: str = "?"
    language: str = "opencl"
    supports_schedules: bool = False

    def run(self, source: str, kernel: KernelInfo, launch: Launch, schedule: Schedule | None = None,
            build_options: str = "") -> Outputs:
        raise NotImplementedError


def refuse_pointers(launch: Launch) -> None:
    """A launch whose buffers hold device pointers (a struct's pointer members, an array of pointers:
    :mod:`simu.launch.members`) is not replayed on a device: the runners pass each parameter as one buffer or one
    value, and would have to allocate the member buffers and write their device addresses into the holder's bytes
    (a struct passed by value among them).  Nor is one whose module variables the host sets (``Launch.symbols``).
    Raises a SimuError that says so."""
    if launch.pointers:
        held = ", ".join(sorted(launch.pointers))
        raise SimuError(f"cannot replay this launch on a device: {held} hold{'s' if len(launch.pointers) == 1 else ''} "
                        "device pointers to other buffers (a struct's pointer members or an array of pointers), which "
                        "the device replay does not rebuild; simu's own replay of it (simu replay --emit launch) does")
    if launch.symbols:
        held = ", ".join(sorted(launch.symbols))
        raise SimuError(f"cannot replay this launch on a device: the host copies values into {held} "
                        "(cudaMemcpyToSymbol), which the device replay does not set; simu's own replay of it "
                        "(simu replay --emit launch) does")


def _pad(arr: np.ndarray) -> np.ndarray:
    flat = np.ascontiguousarray(arr).reshape(-1)
    extra = -(-GUARD_BYTES // max(flat.dtype.itemsize, 1))
    out = np.zeros(flat.size + extra, flat.dtype)
    out[:flat.size] = flat
    return out


def _unpad(out: np.ndarray, like: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(out.reshape(-1)[:like.size]).reshape(like.shape)


class OpenCLDevice(Device):
    language = "opencl"
    supports_schedules = True

    def __init__(self, selector: str | None = None):
        from simu.validate.opencl_runner import _select_device

        self.selector = selector
        self.name = _select_device(selector).key  # raises OpenCLUnavailableError
        self.strategies: dict[tuple[str, str], str] = {}  # (source, options) -> argument | constant

    def strategy(self, source: str, build_options: str) -> str:
        return self.strategies.get((source, build_options), "argument")

    def run(self, source: str, kernel: KernelInfo, launch: Launch, schedule: Schedule | None = None,
            build_options: str = "", permuted: bool = False) -> Outputs:
        refuse_pointers(launch)
        # buffers get guard bytes; images (arrays of 2 or more dimensions) keep their shape
        args = {n: (_pad(v) if isinstance(v, np.ndarray) and v.ndim == 1 else v) for n, v in launch.args.items()}
        if schedule is None and not permuted:
            out = self._run(source, kernel.name, launch, args, build_options)
        else:
            perm = amplify.permutation_buffer(launch, schedule, permute_items=not kernel.uses_subgroups)
            key = (source, build_options)
            if self.strategies.get(key, "argument") == "argument":
                try:
                    out = self._run(amplify.permuted_source(source, "argument"), kernel.name, launch,
                                    {**args, amplify.PERM_PARAM: perm}, build_options)
                    out.pop(amplify.PERM_PARAM, None)
                    self.strategies[key] = "argument"
                    return self._trim(out, launch)
                except OpenCLBuildError as exc:
                    if amplify.PERM_PARAM not in exc.log and "__simu_" not in exc.log:
                        raise
                    self.strategies[key] = "constant"
            out = self._run(amplify.permuted_source(source, "constant", perm), kernel.name, launch, args, build_options)
        return self._trim(out, launch)

    def _run(self, source: str, name: str, launch: Launch, args: dict, build_options: str) -> Outputs:
        padded = Launch(launch.grid, launch.block, args, launch.warp_size, launch.dynamic_shared, launch.seed)
        return run_on_opencl(source, name, padded, build_options=build_options, device=self.selector)

    @staticmethod
    def _trim(out: Outputs, launch: Launch) -> Outputs:
        return {n: _unpad(v, launch.args[n]) for n, v in out.items() if n in launch.args}


class CudaDevice(Device):
    language = "cuda"
    supports_schedules = False

    def __init__(self):
        if cuda_available() is None:
            raise OpenCLUnavailableError(NO_CUDA)
        self.name = cuda_device_name()

    def run(self, source: str, kernel: KernelInfo, launch: Launch, schedule: Schedule | None = None,
            build_options: str = "") -> Outputs:
        if schedule is not None:
            raise SimuError("the CUDA replay does not permute schedules")
        refuse_pointers(launch)
        params = []
        args = {}
        for p in kernel.params:
            v = launch.args[p["name"]]
            if p["kind"] == "local":
                raise SimuError(f"parameter {p['name']!r}: __local pointers do not exist in CUDA")
            if p["kind"] == "buffer":
                params.append(CudaParam(p["name"], "pointer"))
                args[p["name"]] = _pad(v) if isinstance(v, np.ndarray) and v.ndim > 0 else v
            else:
                params.append(CudaParam(p["name"], "scalar", p.get("dtype")))
                args[p["name"]] = v
        include = tuple(o[2:] for o in build_options.split() if o.startswith("-I"))
        out = run_on_cuda(source, kernel.name, params, launch.grid, launch.block, args,
                          dynamic_shared=launch.dynamic_shared, mangled=kernel.mangled, include_dirs=include)
        return {n: _unpad(v, launch.args[n]) for n, v in out.items()}


def opencl_device_names() -> list[str]:
    """"platform device" for every OpenCL device pyopencl can see (usable as a selector)."""
    try:
        import pyopencl as cl

        return [f"{p.name} {d.name}" for p in cl.get_platforms() for d in p.get_devices()]
    except Exception:  # noqa: BLE001 - no ICD loader, no platform
        return []


def open_devices(selectors: list[str] | None, language: str) -> tuple[list[Device], list[str]]:
    """Devices for a kernel of ``language``; the notes say what was skipped and why.

    ``None`` means PoCL's CPU device for OpenCL and the CUDA GPU for CUDA.  A selector is a
    substring of "platform: device" (``"pocl"``, ``"nvidia"``, ``"intel"``), ``"all"`` for every
    OpenCL device, or ``"cuda"`` for the CUDA replay.
    """
    notes: list[str] = []
    devices: list[Device] = []
    wanted = list(selectors) if selectors else [None]
    for sel in wanted:
        is_cuda = sel is not None and sel.lower() in CUDA_WORDS
        if language == "cuda":
            if sel is not None and not is_cuda:
                notes.append(f"device {sel!r} is an OpenCL selector: a CUDA kernel replays only with 'cuda'")
                continue
            try:
                devices.append(CudaDevice())
            except OpenCLUnavailableError:
                notes.append(NO_CUDA)
            continue
        if is_cuda:
            notes.append(f"device {sel!r}: an OpenCL kernel is not replayed through CUDA")
            continue
        if sel is not None and sel.lower() == "all":
            names = opencl_device_names()
            if not names:
                notes.append("no OpenCL device found")
            for name in names:
                try:
                    devices.append(OpenCLDevice(name))
                except (OpenCLUnavailableError, SimuError) as exc:
                    notes.append(f"device {name!r}: {exc}")
            continue
        try:
            devices.append(OpenCLDevice(sel))
        except OpenCLUnavailableError as exc:
            notes.append(str(exc))
    seen = set()
    unique = []
    for d in devices:
        if d.name not in seen:
            seen.add(d.name)
            unique.append(d)
    return unique, notes
