"""The kernel under test and what validation runs it with: the compiled target (cached per file and
compile options), the devices (opened once per request), the launches of a source file, and simu's
own findings on a launch."""

from __future__ import annotations

import json
import shlex
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simu.detect.finding import Finding
from simu.frontend import CompileOptions
from simu.launch.model import Launch
from simu.launch.record import LaunchRecord
from simu.validate import amplify
from simu.validate.devices import Device, KernelInfo, open_devices
from simu.validate.replay import param_table


@dataclass(frozen=True)
class Target:
    """One kernel of one source file: simu's compiled module and kernel, and what a device needs."""

    path: str
    source: str
    language: str
    module: Any
    kernel: Any
    info: KernelInfo
    build_options: str = ""


def build_options_for(path: str | Path, options: CompileOptions = CompileOptions()) -> str:
    """OpenCL build options equivalent to simu's compile options (include dirs, defines)."""
    parts = ["-I", str(Path(path).resolve().parent)]
    for inc in (*options.include_dirs, *options.after_dirs):
        parts += ["-I", str(Path(inc).resolve())]
    for d in options.defines:
        parts.append(f"-D{d}")
    return " ".join(shlex.quote(p) if " " in p else p for p in parts)


_MODULES: dict[tuple[str, str], Any] = {}


def load_module(path: str | Path, options: CompileOptions = CompileOptions()) -> Any:
    """simu's module of ``path`` (compiled once per file and options)."""
    from simu.api import load_file

    key = (str(Path(path).resolve()), options.key())
    module = _MODULES.get(key)
    if module is None:
        module = _MODULES[key] = load_file(Path(path), options)
    return module


def load_target(path: str | Path, kernel: Any = None, options: CompileOptions = CompileOptions(),
                module: Any = None) -> Target:
    """Compile ``path`` (cached) and pick ``kernel`` (a name, a simu Kernel, or the only/first one)."""
    from simu.frontend.compile import language_of

    path = Path(path)
    if module is None:
        module = load_module(path, options)
    if kernel is None or isinstance(kernel, str):
        k = module.kernel(kernel) if kernel else module.kernels[0]
    else:
        k = kernel
    source = path.read_text()
    language = language_of(path)
    info = KernelInfo(k.display_name, k.name, param_table(k),
                      uses_subgroups=language == "opencl" and amplify.uses_subgroups(source))
    opts = build_options_for(path, options) if language != "llvm" else ""
    return Target(str(path), source, language, module, k, info, opts)


_DEVICES: dict[tuple, tuple[list[Device], list[str]]] = {}


def devices_for(devices: list[str] | list[Device] | None, language: str) -> tuple[list[Device], list[str]]:
    """The devices that run ``language`` and notes on those that cannot be had: ``devices`` are
    Device objects (kept when of the language) or names (opened once, then reused; ``None`` for
    the default device)."""
    if devices and all(isinstance(d, Device) for d in devices):
        return [d for d in devices if d.language == language], []  # type: ignore[union-attr]
    key = (tuple(devices) if devices else None, language)
    if key not in _DEVICES:
        _DEVICES[key] = open_devices(list(devices) if devices else None, language)  # type: ignore[arg-type]
    found, notes = _DEVICES[key]
    return list(found), list(notes)


def copy_launch(launch: Launch) -> Launch:
    """The launch with fresh copies of its buffers (a run writes into them)."""
    args = {n: (v.copy() if isinstance(v, np.ndarray) else v) for n, v in launch.args.items()}
    return Launch(launch.grid, launch.block, args, launch.warp_size, launch.dynamic_shared, launch.seed,
                  dict(launch.buffer_specs), pointers=dict(launch.pointers))


def detect_findings(target: Target, launch: Launch, warp_model: str = "lockstep") -> list[Finding]:
    """simu's findings on one launch of the target."""
    from simu.detect import DetectOptions
    from simu.pipeline import CheckSettings, check_launches

    rep = check_launches(target.module, target.kernel, [copy_launch(launch)],
                         CheckSettings(detect=DetectOptions(warp_model=warp_model)))
    return list(rep.findings)


def file_launches(target: Target) -> list[Launch]:
    """The launches of the target's ``// launch:`` lines, else simu's default launch."""
    from simu.check import default_launches
    from simu.launch.comments import parse
    from simu.launch.spec import build_launch

    header = parse(Path(target.path))
    if header.launches and (header.kernel is None or header.kernel == target.kernel.display_name):
        return [build_launch(target.kernel, L.grid, L.block, L.args, L.buffers, L.seed, L.warp, L.shared)
                for L in header.launches]
    return default_launches(target.kernel)


def record_key(record: LaunchRecord) -> str:
    """A key that is equal for equal launch records (findings of one launch are validated together)."""
    return json.dumps(asdict(record), sort_keys=True, default=str)
