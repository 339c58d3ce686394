"""One file's kernels, judged with given launches or searched ones: the library behind `simu check`.

A check is a scan of one file done in this process: the same statuses, the same policy (severity
overrides and suppressions from the configuration) and the same report model, so every formatter
of :mod:`simu.report` renders it.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simu import codes
from simu.config import Config
from simu.errors import SimuError
from simu.evolve import Budget, search_kernel
from simu.evolve.cpulimit import HARD_FACTOR, KernelTimeout, cpu_limit, timeout_reason
from simu.ir import Kernel, Module
from simu.ir.types import FloatType, VectorType
from simu.launch import Launch
from simu.launch.images import is_sampler, takes_array
from simu.launch.record import ORIGIN_GIVEN
from simu.launch.spec import build_launch, is_complete, launch_constraints
from simu.pipeline import CheckSettings, KernelReport, check_launches, status_of
from simu.report.policy import SourceLines, apply_policy, rel_path
from simu.report.results import FileResult, KernelResult, ScanResult
from simu.report.unused import Siblings, cap


def analyse_kernel(module: Module, kernel: Kernel, settings: CheckSettings = CheckSettings(),
                   constraints: Any = None, budget: Any = None, seed: int = 0) -> KernelReport:
    """Analyse one kernel without user launches: search the launch space, then detect.

    ``constraints`` fixes or bounds genes (:class:`~simu.launch.constraints.KernelConstraints`);
    ``budget`` limits the search (a :class:`~simu.evolve.Budget`, or seconds)."""
    return search_kernel(module, kernel, settings, constraints, budget, seed=seed)


def default_launches(kernel: Kernel) -> list[Launch]:
    """A small fixed launch used when nothing better is known (validation's fallback).  Images,
    textures and samplers get the launch side's defaults (:mod:`simu.launch.images`)."""
    grid, block = 2, 64
    args = [f"{p.name}={_default_scalar(p, grid * block)}" for p in kernel.params
            if not p.is_pointer and not takes_array(p) and not is_sampler(p)]
    return [build_launch(kernel, (grid, 1, 1), (block, 1, 1), args)]


def _default_scalar(p, threads: int) -> str:
    if isinstance(p.type, FloatType):
        return "1.5"
    if isinstance(p.type, VectorType):
        return "1"
    return str(threads)


@dataclass
class CheckRequest:
    """What `simu check` was asked: a given launch (``launch_args``) or a searched one."""

    kernel: str | None = None  # one kernel by name, else all of the file
    # build_launch keyword arguments as text (grid/block may be None): a complete launch runs as given, a
    # partial one constrains the search; None: search
    launch_args: dict[str, Any] | None = None
    constraints: Any = None  # instead of the configuration's constraints
    budget: Budget = field(default_factory=Budget)
    seed: int = 0
    host_cache: Path | None = None  # the cache folder of the host index (simu.host.filecache), None: none
    # the host files that can reach the file's kernels, as `simu scan FILE` reads them (simu.host.reach), and the
    # folder their paths are relative to; None: the host files beside the checked file
    host: Any = None
    host_root: Path | None = None


def check_file(path: Path, module: Module, settings: CheckSettings, request: CheckRequest,
               options: CheckOptions | None = None, config: Config | None = None, root: Path | None = None,
               on_kernel=None) -> ScanResult:
    """Judge the kernels of one compiled file and apply the configuration's policy: the result of a
    scan of this one file.  ``on_kernel(name)`` is called before each kernel (progress)."""
    config = config or Config()
    root = (root or Path.cwd()).resolve()
    t0 = time.perf_counter()
    file_result = FileResult(path.resolve(), rel_path(str(path.resolve()), root), module.language, codes.FILE_OK)
    kernels = [module.kernel(request.kernel)] if request.kernel else module.kernels
    lines = SourceLines()
    unused = _unused_variants(module, request, config)
    for k in kernels:
        if on_kernel is not None:
            on_kernel(k.display_name)
        k0 = time.perf_counter()
        trace = ""
        limit = HARD_FACTOR * request.budget.seconds if request.launch_args is None else 0.0
        try:
            with cpu_limit(limit):  # as a scan's worker bounds each kernel: a heavy search cannot hold the file
                report = _judge(module, k, settings, request, config)
        except KernelTimeout:
            report = KernelReport(k.display_name, codes.TIMEOUT, timeout_reason(limit))
        except Exception as exc:  # noqa: BLE001 - as in a scan: a crash in one kernel is its verdict, the rest go on
            report, trace = _crashed(k, exc)
        result = KernelResult(k.display_name, k.name, k.line, report.status, report.reason, report.launches,
                              seconds=time.perf_counter() - k0, where=report.where, traceback=trace)
        findings = cap(list(report.findings), unused.get(k.display_name, ""))
        result.findings, result.suppressed = apply_policy(findings, config, root, lines)
        file_result.kernels.append(result)
    scan = ScanResult(root, options or CheckOptions([path]), [file_result])
    scan.stats.files, scan.stats.kernels, scan.stats.analysed = 1, len(kernels), len(kernels)
    scan.stats.seconds = time.perf_counter() - t0
    return scan


@dataclass
class CheckOptions:
    """The options a check's report shows and its exit code follows (read like a scan's options)."""

    paths: list[Path] = field(default_factory=list)
    checks: tuple[str, ...] = codes.DEFAULT_CHECKS
    warp_model: str = "lockstep"
    budget: float = 0.0  # seconds the search of one kernel may take at most
    jobs: int = 1
    fail_on: str = codes.ERROR
    opt_level: int = 0
    changed: bool = False


def _judge(module: Module, kernel: Kernel, settings: CheckSettings, request: CheckRequest,
           config: Config) -> KernelReport:
    configured = request.constraints
    if configured is None:
        from simu.host.contracts import with_header_launch

        configured = with_header_launch(module.path, config.constraints_for(kernel.display_name, kernel.name),
                                        kernel.display_name)
    if request.launch_args is None and request.constraints is None:
        # the host's launches (one contract per distinct launch), configuration on top
        configured = _host_contracts(module, kernel, configured, request).for_search()
    if request.launch_args is not None:
        given = _own(kernel, request.launch_args)
        try:
            if is_complete(kernel, given.get("grid"), given.get("block"), given.get("args")):
                warp = given.get("warp_size") or (configured.warp_size if configured is not None else None) or 32
                launch = build_launch(kernel, **{**given, "warp_size": warp})
                launch.origin = ORIGIN_GIVEN
                return check_launches(module, kernel, [launch], settings)
            # a partial launch: what is given constrains the search, which fills in the rest
            configured = launch_constraints(kernel, configured, **given)
        except SimuError as exc:
            return KernelReport(kernel.display_name, status_of(exc), str(exc), where=exc.where)
    return analyse_kernel(module, kernel, settings, configured, request.budget, request.seed)


def _unused_variants(module: Module, request: CheckRequest, config: Config) -> dict[str, str]:
    """Per kernel of the file, why it is an unused variant (:mod:`simu.report.unused`): only where the host
    code, not the command line, gives the launches."""
    if request.launch_args is not None or request.constraints is not None or len(module.kernels) < 2:
        return {}
    by_name = {k.display_name: k for k in module.kernels}

    def launched(name: str) -> bool:
        k = by_name[name]
        return config.constraints_for(name, k.name) is not None or \
            bool(_host_contracts(module, k, None, request).contracts)

    siblings = Siblings()
    return {name: siblings.note(str(module.path), name, list(by_name), launched) for name in by_name}


def _host_contracts(module: Module, kernel: Kernel, user, request: CheckRequest):
    """The kernel's host launches as `simu scan` of the file takes them: from the host files that can reach it
    (``request.host``), else from those beside the file."""
    from simu.host.contracts import file_contracts, kernel_contracts

    if request.host is None or request.host_root is None:
        return kernel_contracts(module.path, kernel, user, request.host_cache)
    return file_contracts(request.host, rel_path(str(Path(module.path).resolve()), request.host_root), kernel, user)


def _crashed(kernel: Kernel, exc: Exception) -> tuple[KernelReport, str]:
    """The verdict of a kernel whose analysis raised what no stage expects (scan's worker records the same):
    status *error*, ``Type: message`` as the reason (one line of the report, naming the file and kernel),
    the traceback kept for ``--debug``."""
    trace = "".join(traceback.format_exception(exc))
    if isinstance(exc, SimuError):
        return KernelReport(kernel.display_name, status_of(exc), str(exc), where=exc.where), trace
    reason = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return KernelReport(kernel.display_name, codes.FAILED, reason), trace


def _own(kernel: Kernel, given: dict[str, Any]) -> dict[str, Any]:
    """The --arg / --buffer texts that name this kernel's parameters (a file may have several kernels)."""
    names = {p.name for p in kernel.params}
    own = dict(given)
    for key in ("args", "buffers"):
        if own.get(key):
            own[key] = [t for t in own[key] if t.partition("=")[0].strip() in names]
    return own
