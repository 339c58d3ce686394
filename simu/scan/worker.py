"""What a `simu scan` worker process runs: compile a file and list its kernels, or analyse one kernel.

Workers are started with the 'forkserver'/'spawn' method, ignore Ctrl-C (the parent handles it),
keep compiled modules per process, and return plain dicts (picklable, JSON-able).  Every failure
inside one task is returned as data, never raised: the scan goes on.
"""

from __future__ import annotations

import os
import signal
import time
import traceback
from typing import Any

_EVENTS = None  # multiprocessing queue: ("hello", pid) / ("start", task id, pid, time)
_MODULES: dict[str, Any] = {}  # IR digest -> decoded module


class KernelTimeout(BaseException):
    """Raised by the alarm inside a worker when one kernel's analysis runs past its hard limit."""


PRELOAD = ("simu.scan.worker", "simu.check", "simu.evolve", "simu.frontend", "simu.ir")


def init_worker(events, parent_pid: int | None = None) -> None:
    import importlib

    global _EVENTS
    _EVENTS = events
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_pid is not None:
        _watch_parent(parent_pid)
    for name in PRELOAD:  # imported before any task is timed (a no-op after a forkserver preload)
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


def _started(task_id: int) -> None:
    if _EVENTS is not None:
        _EVENTS.put(("start", task_id, os.getpid(), time.time()))


def _error(exc: BaseException) -> dict[str, Any]:
    return {"type": type(exc).__name__, "message": str(exc).strip(),
            "traceback": "".join(traceback.format_exception(exc))}


def _module_from_ir(digest: str, ir: str, path: str, language: str, param_names) -> Any:
    """Decode a module once per worker (keyed by its IR digest)."""
    from simu.ir import load_module

    hit = _MODULES.get(digest)
    if hit is None:
        if len(_MODULES) > 16:
            _MODULES.clear()
        hit = _MODULES[digest] = load_module(ir, path, language, param_names)
    return hit


def list_kernels(task_id: int, path: str, options) -> dict[str, Any]:
    """Compile one file; its kernels and IR digest, or why it failed."""
    from simu.errors import CompileError
    from simu.frontend import compile_file

    _started(task_id)
    t0 = time.perf_counter()
    try:
        compiled = compile_file(path, options)
        module = _module_from_ir(compiled.digest, compiled.ir, path, compiled.language, compiled.param_names)
    except CompileError as exc:
        return {"ok": False, "status": "compile-error", "first": exc.first, "diagnostics": exc.diagnostics,
                "seconds": time.perf_counter() - t0}
    except Exception as exc:  # noqa: BLE001 - any failure of one file is data
        err = _error(exc)
        return {"ok": False, "status": "error", "first": f"{err['type']}: {err['message']}",
                "diagnostics": "", "traceback": err["traceback"], "seconds": time.perf_counter() - t0}
    kernels = [{"name": k.display_name, "mangled": k.name, "line": k.line} for k in module.kernels]
    return {"ok": True, "digest": compiled.digest, "ir": compiled.ir, "language": compiled.language,
            "param_names": compiled.param_names, "kernels": kernels, "seconds": time.perf_counter() - t0}


def analyse(task_id: int, path: str, module_src: dict[str, Any], kernel: str, settings, constraints,
            budget: float, hard_limit: float) -> dict[str, Any]:
    """Analyse one kernel with :func:`simu.check.analyse_kernel`, stopped after ``hard_limit`` CPU seconds.

    ``module_src`` is the file's compiled IR (``digest``, ``ir``, ``language``, ``param_names``) from
    :func:`list_kernels`, so the analysis sees exactly the module whose digest keys the cache.  The
    limit counts this process's CPU time (``ITIMER_PROF``), so a loaded machine does not turn a slow
    analysis into a timeout; the parent still kills a worker that overruns in wall time.
    """
    from simu.check import analyse_kernel
    from simu.errors import SimuError, UnsupportedError

    _started(task_id)
    t0 = time.perf_counter()
    out: dict[str, Any] = {"status": "error", "reason": "", "launches": 0, "findings": []}
    use_alarm = hasattr(signal, "SIGPROF") and hasattr(signal, "setitimer") and hard_limit > 0

    def on_alarm(signum, frame):
        raise KernelTimeout()

    old = signal.signal(signal.SIGPROF, on_alarm) if use_alarm else None
    try:
        if use_alarm:
            # re-fires every 0.1 s: an exception raised inside a __del__ is swallowed by Python
            signal.setitimer(signal.ITIMER_PROF, hard_limit, 0.1)
        module = _module_from_ir(module_src["digest"], module_src["ir"], path, module_src["language"],
                                 module_src["param_names"])
        k = module.kernel(kernel)
        report = analyse_kernel(module, k, settings, constraints=constraints, budget=budget)
        if use_alarm:
            signal.setitimer(signal.ITIMER_PROF, 0)
        out.update(status=report.status, reason=report.reason, launches=report.launches,
                   findings=[f.to_dict() for f in report.findings])
    except KernelTimeout:
        if use_alarm:
            signal.setitimer(signal.ITIMER_PROF, 0)  # no second alarm while the result is packed
        out.update(status="timeout", reason=f"analysis used more than {hard_limit:g} s of CPU (2x the budget)")
        _MODULES.clear()  # the interrupted analysis may have left a module's lazy state half-built
    except UnsupportedError as exc:
        out.update(status="unsupported", reason=str(exc))
    except SimuError as exc:
        out.update(status="error", reason=str(exc))
    except Exception as exc:  # noqa: BLE001 - a crash in one kernel is recorded, the scan goes on
        err = _error(exc)
        out.update(status="error", reason=f"{err['type']}: {err['message']}", traceback=err["traceback"])
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)
    out["seconds"] = time.perf_counter() - t0
    return out
