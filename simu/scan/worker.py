"""What a `simu scan` worker process runs: compile a file and list its kernels, or analyse one kernel.

Workers are started with the 'forkserver'/'spawn' method, ignore Ctrl-C (the parent handles it),
keep compiled modules per process, and return the small dataclasses of :mod:`simu.scan.payloads`.
Every failure inside one task is returned as data, never raised: the scan goes on.
"""

from __future__ import annotations

import os
import signal
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

from simu.codes import FAILED, TIMEOUT
from simu.evolve.cpulimit import KernelTimeout, cpu_limit, timeout_reason
from simu.scan.options import PREPARE_CPU_LIMIT
from simu.scan.payloads import FileFailure, FileListing, KernelEntry, KernelVerdict, ModuleIR

_EVENTS = None  # multiprocessing queue: ("hello", pid) / ("start", task id, pid, time, preparing)
_MODULES: dict[str, Any] = {}  # IR digest -> decoded module
_COMPILE_CACHE: tuple[str, Any] | None = None  # (folder, CompileCache) of this worker




def init_worker(events, parent_pid: int | None = None, preload: tuple[str, ...] = ()) -> None:
    import importlib

    global _EVENTS
    _EVENTS = events
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_pid is not None:
        _watch_parent(parent_pid)
    for name in preload:  # imported before any task is timed (a no-op after a forkserver preload)
        importlib.import_module(name)
    if events is not None:
        events.put(("hello", os.getpid()))


def _watch_parent(pid: int) -> None:
    """Exit when the scanning process is gone (killed hard, it could not stop its workers)."""
    import threading

    ppid = os.getppid()  # the scanner (spawn) or the fork server, which ends with the scanner

    def gone() -> bool:
        if os.getppid() != ppid:
            return True
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except OSError:
            return False
        try:  # a killed scanner not yet reaped by its parent is a zombie
            with open(f"/proc/{pid}/stat") as fh:
                return fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
        except (OSError, IndexError):
            return False

    def watch():
        while not gone():
            time.sleep(0.5)
        os._exit(3)

    threading.Thread(target=watch, name="simu-parent-watch", daemon=True).start()


def _started(task_id: int, preparing: bool = False) -> None:
    """Tell the parent a task (or, after ``preparing``, its analysis proper) starts now: its limits count from here."""
    if _EVENTS is not None:
        _EVENTS.put(("start", task_id, os.getpid(), time.time(), preparing))


def _error(exc: BaseException) -> tuple[str, str]:
    """``("Type: message", traceback)`` of an exception caught inside a task."""
    return f"{type(exc).__name__}: {str(exc).strip()}", "".join(traceback.format_exception(exc))


def _module_from_ir(src: ModuleIR, path: str) -> Any:
    """Decode a module once per worker (keyed by its IR digest)."""
    from simu.ir import load_module

    hit = _MODULES.get(src.digest)
    if hit is None:
        # a decoded module keeps its parsed LLVM module for the bodies it decodes on demand: keep
        # the few files whose kernels are being analysed (a file's kernels come one after another)
        while len(_MODULES) >= 4:
            _MODULES.pop(next(iter(_MODULES)))
        hit = _MODULES[src.digest] = load_module(src.ir, path, src.language, src.param_names)
    return hit


def _compile_cache(directory: str | None):
    """This worker's handle on the compiled-file cache in ``directory`` (None: no cache, or one that cannot
    be opened: files are compiled)."""
    global _COMPILE_CACHE
    if directory is None:
        return None
    if _COMPILE_CACHE is None or _COMPILE_CACHE[0] != directory:
        from simu.scan.cache import open_compile_cache

        cache = open_compile_cache(directory)
        if cache is None:
            return None
        _COMPILE_CACHE = (directory, cache)
    return _COMPILE_CACHE[1]


def list_kernels(task_id: int, path: str, options, cache_dir: str | None = None) -> FileListing | FileFailure:
    """Compile one file (through the compiled-file cache in ``cache_dir``); its kernels and IR, or why it
    failed."""
    from simu.errors import CompileError
    from simu.frontend.compilecache import compile_cached
    from simu.host.contracts import kernel_params

    _started(task_id)
    t0 = time.perf_counter()
    try:
        compiled = compile_cached(path, options, _compile_cache(cache_dir))
        src = ModuleIR(compiled.digest, compiled.ir, compiled.language, compiled.param_names)
        module = _module_from_ir(src, path)
    except CompileError as exc:
        if _host_only(path, options):
            note = f"holds no kernel (its host side does not compile here: {exc.first})"
            return FileListing(ModuleIR("", "", "cuda", None), (), time.perf_counter() - t0, (note,))
        return FileFailure.compile_error(exc.first, exc.diagnostics, time.perf_counter() - t0, exc.where)
    except Exception as exc:  # noqa: BLE001 - any failure of one file is data
        first, tb = _error(exc)
        return FileFailure(FAILED, first, traceback=tb, seconds=time.perf_counter() - t0)
    try:
        kernels = tuple(KernelEntry(k.display_name, k.name, k.line, k.file or "", tuple(kernel_params(k)),
                                    tuple(p.c_type or "" for p in k.params)) for k in module.kernels)
    except Exception:  # noqa: BLE001 - a parameter the launch model cannot type: no host contract binds to it
        kernels = tuple(KernelEntry(k.display_name, k.name, k.line, k.file or "") for k in module.kernels)
    return FileListing(src, kernels, time.perf_counter() - t0, tuple(compiled.notes))


def _host_only(path: str, options) -> bool:
    """A CUDA file with no kernel in it or its project headers (:func:`~simu.frontend.includes.holds_no_kernel`)."""
    from simu.frontend.includes import holds_no_kernel

    if Path(path).suffix.lower() not in (".cu", ".cuh", ".hip"):
        return False
    return holds_no_kernel(Path(path), [Path(d) for d in (*options.include_dirs, *options.after_dirs)])


def analyse(task_id: int, path: str, src: ModuleIR, kernel: str, settings, constraints,
            budget: float, hard_limit: float) -> KernelVerdict:
    """Analyse one kernel with :func:`simu.check.analyse_kernel`, stopped after ``hard_limit`` CPU seconds.

    ``src`` is the file's compiled IR from :func:`list_kernels`, so the analysis sees exactly the module
    whose digest keys the cache.  The limit counts this process's CPU time (``ITIMER_PROF``), so a loaded
    machine does not turn a slow analysis into a timeout; the parent still kills a worker that overruns
    in wall time.
    """
    _started(task_id, preparing=True)
    t0 = time.perf_counter()
    verdict = _analyse(task_id, path, src, kernel, settings, constraints, budget, hard_limit)
    return replace(verdict, seconds=time.perf_counter() - t0)


def _prepare(module, kernel: str) -> None:
    """Decode the kernel and compile its program (both cached) before the budget's clock starts: a 20 MB
    module's kernel of thousands of instructions needs seconds of this, which a 1 s budget cannot hold.
    A kernel that does not compile is left to the analysis, which reports it as it always does."""
    from simu.interp.compiler import compile_kernel

    try:
        compile_kernel(module, module.kernel(kernel))
    except KernelTimeout:
        raise
    except Exception:  # noqa: BLE001, S110 - the analysis meets the same problem and reports it
        pass


def _analyse(task_id: int, path: str, src: ModuleIR, kernel: str, settings, constraints, budget: float,
             hard_limit: float) -> KernelVerdict:
    """The analysis under its CPU limit; every failure comes back as a verdict."""
    from simu.check import analyse_kernel
    from simu.errors import SimuError
    from simu.pipeline import status_of

    try:
        # reading the IR and compiling the kernel are not the analysis: a limit of their own
        with cpu_limit(max(hard_limit, PREPARE_CPU_LIMIT) if hard_limit > 0 else 0.0):
            module = _module_from_ir(src, path)
            _prepare(module, kernel)
        _started(task_id)  # the parent's limit for the analysis counts from here
        with cpu_limit(hard_limit):
            report = analyse_kernel(module, module.kernel(kernel), settings, constraints=constraints, budget=budget)
        return KernelVerdict(report.status, report.reason, report.launches, tuple(report.findings),
                             where=report.where)
    except KernelTimeout:
        _MODULES.clear()  # the interrupted analysis may have left a module's lazy state half-built
        return KernelVerdict(TIMEOUT, timeout_reason(hard_limit))
    except SimuError as exc:
        return KernelVerdict(status_of(exc), str(exc), where=exc.where)
    except Exception as exc:  # noqa: BLE001 - a crash in one kernel is recorded, the scan goes on
        reason, tb = _error(exc)
        return KernelVerdict(FAILED, reason, traceback=tb)
