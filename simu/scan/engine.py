"""`simu scan`: every kernel of a project, in parallel worker processes, cached, never stopping on one.

The library behind the command::

    options, config = resolve_options([Path("src")], ScanOverrides(budget=2))
    result = scan(options, config)
    result.exit_code()

Pipeline: find the sources (``.gitignore`` and excludes honoured) -> discover include folders ->
compile each file once in a worker (its kernels and IR digest come back) -> look each kernel up in
the cache -> analyse the misses in workers with :func:`simu.check.analyse_kernel` under a time budget
-> apply severity overrides and suppressions -> :class:`ScanResult`.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sqlite3
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
from typing import Any

from simu.config import FAIL_ON, WARP_MODELS, Config, ConfigError, find_config, load_config
from simu.detect.finding import Finding
from simu.report.policy import SourceLines, apply_policy, rel_path
from simu.report.results import FileResult, KernelResult, ScanResult
from simu.scan.sources import (
    GitError,
    HeaderIndex,
    IgnoreRules,
    changed_sources,
    find_kernel_sources,
    find_root,
    resolve_includes,
    staged_files,
)
from simu.scan.worker import KernelTimeout

DEFAULT_BUDGET = 5.0
COMPILE_LIMIT = 120.0  # seconds one file may take to compile before its worker is stopped
WALL_FACTOR = 4.0  # the parent kills a worker past WALL_FACTOR x budget + WALL_GRACE of wall time
WALL_GRACE = 10.0
ANALYSED_STATES = ("analysed", "incomplete")


class ScanError(Exception):
    """A usage problem that stops the scan before it starts (exit code 2)."""


# ---------------------------------------------------------------------------------------------------------
# options


@dataclass
class ScanOverrides:
    """Options given on the command line; ``None`` / empty = not given (the configuration decides)."""

    include: list[str] = field(default_factory=list)
    define: list[str] = field(default_factory=list)
    clang_args: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    opt_level: int | None = None
    warp_model: str | None = None
    checks: list[str] | None = None
    budget: float | None = None
    jobs: int | None = None
    fail_on: str | None = None
    cache_dir: str | None = None
    no_cache: bool = False
    changed: bool = False
    config: str | None = None  # an explicit configuration file


@dataclass
class ScanOptions:
    paths: list[Path]
    root: Path
    include: list[Path] = field(default_factory=list)
    define: list[str] = field(default_factory=list)
    clang_args: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)  # --exclude globs, relative to the root
    config_exclude: list[str] = field(default_factory=list)  # the configuration's, relative to config_base
    config_base: Path | None = None  # folder of the configuration file
    opt_level: int = 0
    warp_model: str = "lockstep"
    strict_warp: bool = False
    checks: tuple[str, ...] = ()
    budget: float = DEFAULT_BUDGET
    jobs: int = 1
    fail_on: str = "error"
    cache_dir: Path | None = None  # None: no cache
    changed: bool = False
    auto_include: bool = True


def resolve_options(paths: list[Path], cli: ScanOverrides | None = None) -> tuple[ScanOptions, Config]:
    """Merge the configuration (searched upward from the first path) with command-line options.

    Lists from the command line (``-I``, ``-D``, ``--clang-arg``, ``--exclude``) extend the configuration's;
    single values replace them.  Raises :class:`ConfigError` or :class:`ScanError`.
    """
    from simu.detect import CHECKS, DEFAULT_CHECKS

    cli = cli or ScanOverrides()
    paths = [Path(p) for p in paths] or [Path(".")]
    for p in paths:
        if not p.exists():
            raise ScanError(f"no such file or directory: {p}")
    if cli.config:
        cfg_path = Path(cli.config)
        if not cfg_path.is_file():
            raise ScanError(f"no such configuration file: {cfg_path}")
    else:
        cfg_path = find_config(paths[0])
    config = load_config(cfg_path)
    root = find_root(paths, config.root).resolve()
    base = config.root or root

    def pick(cli_value, cfg_value, default):
        return cli_value if cli_value is not None else cfg_value if cfg_value is not None else default

    checks = tuple(pick(cli.checks, config.checks, list(DEFAULT_CHECKS)))
    for c in checks:
        if c not in CHECKS:
            raise ScanError(f"unknown check '{c}' (available: {', '.join(CHECKS)})")
    warp_model = pick(cli.warp_model, config.warp_model, "lockstep")
    if warp_model not in WARP_MODELS:
        raise ScanError(f"--warp-model must be one of {', '.join(WARP_MODELS)}, not '{warp_model}'")
    fail_on = pick(cli.fail_on, config.fail_on, "error")
    if fail_on not in FAIL_ON:
        raise ScanError(f"--fail-on must be one of {', '.join(FAIL_ON)}, not '{fail_on}'")
    budget = float(pick(cli.budget, config.budget, DEFAULT_BUDGET))
    if budget <= 0:
        raise ScanError(f"--budget must be positive, not {budget:g}")
    jobs = int(pick(cli.jobs, config.jobs, os.cpu_count() or 1))
    if jobs < 1:
        raise ScanError(f"--jobs must be at least 1, not {jobs}")
    cache_dir = None
    if not cli.no_cache:
        if cli.cache_dir:
            cache_dir = Path(cli.cache_dir).resolve()
        elif config.cache_dir:
            cache_dir = (base / config.cache_dir).resolve()
        else:
            cache_dir = root / ".simu-cache"
    include = [(base / d).resolve() for d in config.include] + [Path(d).resolve() for d in cli.include]
    opts = ScanOptions(
        paths=paths, root=root, include=include, define=config.define + list(cli.define),
        clang_args=config.clang_args + list(cli.clang_args), exclude=list(cli.exclude),
        config_exclude=list(config.exclude), config_base=config.root,
        opt_level=int(pick(cli.opt_level, config.opt_level, 0)), warp_model=warp_model,
        strict_warp=bool(config.strict_warp), checks=checks, budget=budget, jobs=jobs, fail_on=fail_on,
        cache_dir=cache_dir, changed=cli.changed)
    return opts, config


# ---------------------------------------------------------------------------------------------------------
# results


class ScanEvents:
    """Progress callbacks (the command shows a progress bar with them); every method is optional."""

    def files_found(self, n: int) -> None: ...
    def file_done(self, f: FileResult) -> None: ...
    def kernels_found(self, n: int) -> None: ...
    def kernel_done(self, f: FileResult, k: KernelResult) -> None: ...


# ---------------------------------------------------------------------------------------------------------
# post-processing: severity overrides and suppressions

# ---------------------------------------------------------------------------------------------------------
# the worker pool


@dataclass
class _Task:
    id: int
    kind: str  # list | analyse
    args: tuple
    limit: float  # seconds after its start before the parent kills its worker
    file: FileResult
    kernel: KernelResult | None = None
    key: str = ""
    suspect: bool = False  # ran when a worker died: retried alone
    copts: Any = None  # CompileOptions of a list task


class _Pool:
    """A ProcessPoolExecutor whose workers report their pid and task starts, so that the parent can
    kill a runaway worker and start a fresh pool."""

    def __init__(self, jobs: int):
        methods = mp.get_all_start_methods()
        self.ctx = mp.get_context("forkserver" if "forkserver" in methods and sys.platform != "darwin" else "spawn")
        if self.ctx.get_start_method() == "forkserver":
            # workers fork from a server that has already imported the analysis code
            from simu.scan.worker import PRELOAD

            self.ctx.set_forkserver_preload(list(PRELOAD))
        self.jobs = jobs
        self.events = self.ctx.Queue()
        self.pids: set[int] = set()
        self.starts: dict[int, tuple[int, float]] = {}
        self._new()

    def _new(self) -> None:
        from simu.scan.worker import init_worker

        self.ex = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self.ctx, initializer=init_worker,
                                      initargs=(self.events, os.getpid()))

    def submit(self, task: _Task) -> Future:
        from simu.scan import worker as scan_worker

        fn = scan_worker.list_kernels if task.kind == "list" else scan_worker.analyse
        return self.ex.submit(fn, task.id, *task.args)

    def drain(self) -> None:
        while True:
            try:
                ev = self.events.get_nowait()
            except (Empty, OSError, ValueError):
                return
            if ev[0] == "hello":
                self.pids.add(ev[1])
            elif ev[0] == "start":
                self.starts[ev[1]] = (ev[2], ev[3])
                self.pids.add(ev[2])

    def kill(self, pid: int) -> None:
        try:
            os.kill(pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
        except (ProcessLookupError, PermissionError, OSError):
            pass

    def restart(self) -> None:
        self.close(kill=True)
        self.starts.clear()
        self._new()

    def close(self, kill: bool = False) -> None:
        if kill:
            self.drain()
            for pid in list(self.pids):
                self.kill(pid)
            self.pids.clear()
            self.ex.shutdown(wait=False, cancel_futures=True)
        else:
            self.ex.shutdown(wait=True)


# ---------------------------------------------------------------------------------------------------------
# the scan


def select_sources(options: ScanOptions) -> tuple[list[Path], IgnoreRules, HeaderIndex | None, str]:
    """The kernel sources to scan, the ignore rules, the header index and a note (for ``--changed``)."""
    rules = IgnoreRules(options.root, options.exclude)
    rules.add_excludes(options.config_base or options.root, options.config_exclude)
    try:
        sources = find_kernel_sources(options.paths, rules)
    except FileNotFoundError as exc:
        raise ScanError(f"no such file or directory: {exc}") from None
    index = HeaderIndex.build(options.root, rules) if options.auto_include or options.changed else None
    note = ""
    if options.changed:
        try:
            changed = staged_files(options.root if options.root.is_dir() else Path.cwd())
        except GitError as exc:
            raise ScanError(f"--changed: {exc}") from None
        sources = changed_sources(sources, changed, options.include, index)
        if not sources:
            note = "no staged kernel file or header that a kernel includes"
    return sources, rules, index, note


def scan(options: ScanOptions, config: Config | None = None, events: ScanEvents | None = None) -> ScanResult:
    """Analyse every kernel under ``options.paths``; see the module docstring."""
    from simu.check import CheckSettings
    from simu.detect import DetectOptions
    from simu.frontend import CompileOptions
    from simu.interp import Limits
    from simu.scan.cache import ResultCache, kernel_key

    config = config or Config()
    events = events or ScanEvents()
    t_start = time.perf_counter()
    result = ScanResult(options.root, options)
    sources, _, index, result.note = select_sources(options)
    result.files = [FileResult(s, rel_path(str(s), options.root)) for s in sources]
    result.stats.files = len(sources)
    events.files_found(len(sources))
    if not sources:
        return result

    cache = None
    if options.cache_dir is not None:
        try:
            cache = ResultCache(options.cache_dir)
        except (OSError, sqlite3.Error) as exc:
            result.warnings.append(f"result cache {options.cache_dir} not usable ({exc}); analysing without it")
    settings = CheckSettings(tuple(options.checks), DetectOptions(warp_model=options.warp_model,
                                                                  strict_warp=options.strict_warp),
                             Limits(max_seconds=options.budget))
    hard_limit = 2 * options.budget
    lines = SourceLines()

    tasks: dict[int, _Task] = {}
    pending: deque[int] = deque()  # analyses first (they finish files), then compiles
    compiles: deque[int] = deque()
    suspects: deque[int] = deque()
    for fr in result.files:
        info = resolve_includes(fr.path, options.include, index) if options.auto_include else None
        copts = CompileOptions(tuple(str(d) for d in options.include + (info.folders if info else [])),
                               tuple(options.define), tuple(options.clang_args), options.opt_level)
        t = _Task(len(tasks), "list", (str(fr.path), copts), COMPILE_LIMIT + options.budget, fr, copts=copts)
        tasks[t.id] = t
        compiles.append(t.id)

    def finish_kernel(task: _Task, payload: dict[str, Any], cached: bool) -> None:
        k = task.kernel
        assert k is not None
        k.status = payload.get("status", "error")
        k.reason = payload.get("reason", "")
        k.launches = int(payload.get("launches", 0))
        k.seconds = float(payload.get("seconds", 0.0))
        k.traceback = payload.get("traceback", "")
        k.cached = cached
        raw = [Finding.from_dict(d) for d in payload.get("findings", [])]
        k.findings, k.suppressed = apply_policy(raw, config, options.root, lines)
        if cached:
            result.stats.cache_hits += 1
        else:
            result.stats.analysed += 1
            if cache is not None and k.status != "error" and task.key:
                cache.put(task.key, task.file.rel, k.name, payload)
        events.kernel_done(task.file, k)

    def finish_file(task: _Task, payload: dict[str, Any]) -> None:
        fr = task.file
        fr.language = payload.get("language", "")
        if not payload.get("ok"):
            fr.status = payload.get("status", "error")
            fr.first = payload.get("first", "").replace(str(fr.path), fr.rel)
            fr.diagnostics = payload.get("diagnostics", "")
            fr.traceback = payload.get("traceback", "")
            events.file_done(fr)
            return
        fr.status = "ok"
        module_src = {k: payload[k] for k in ("digest", "ir", "language", "param_names")}
        for kd in payload["kernels"]:
            kr = KernelResult(kd["name"], kd["mangled"], kd["line"])
            fr.kernels.append(kr)
            constraints = config.constraints_for(kr.name, kr.mangled)
            key_options = {"checks": list(options.checks), "warp_model": options.warp_model,
                           "strict_warp": options.strict_warp, "budget": options.budget,
                           "compile": task.copts.key(),
                           "constraints": constraints.key() if constraints else None}
            key = kernel_key(payload["digest"], kr.mangled, key_options)
            kt = _Task(len(tasks), "analyse",
                       (str(fr.path), module_src, kr.mangled, settings, constraints, options.budget, hard_limit),
                       WALL_FACTOR * options.budget + WALL_GRACE, fr, kr, key)
            tasks[kt.id] = kt
            hit = cache.get(key) if cache is not None else None
            if hit is not None:
                finish_kernel(kt, hit, cached=True)
            else:
                pending.append(kt.id)
        result.stats.kernels += len(payload["kernels"])
        events.kernels_found(len(payload["kernels"]))
        events.file_done(fr)

    def fail_task(task: _Task, status: str, reason: str) -> None:
        if task.kind == "list":
            finish_file(task, {"ok": False, "status": status, "first": reason})
        else:
            finish_kernel(task, {"status": status, "reason": reason}, cached=False)

    pool: _Pool | None = None
    inflight: dict[Future, int] = {}
    barren_restarts = 0  # pool restarts in a row with no task finished in between

    def submit(tid: int) -> bool:
        try:
            inflight[pool.submit(tasks[tid])] = tid
            return True
        except BrokenProcessPool:
            (pending if tasks[tid].kind == "analyse" else compiles).appendleft(tid)
            return False

    old_term = None
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
        old_term = signal.signal(signal.SIGTERM, _terminate)
    try:
        pool = _Pool(options.jobs)
        while pending or compiles or suspects or inflight:
            broken = False
            # a suspect (its worker died) runs alone, so that a second death is its own
            if suspects:
                if not inflight:
                    tid = suspects.popleft()
                    if not submit(tid):
                        suspects.appendleft(tid)
                        (pending if tasks[tid].kind == "analyse" else compiles).remove(tid)
                        broken = True
            else:
                while (pending or compiles) and len(inflight) < options.jobs + 1 and not broken:
                    broken = not submit(pending.popleft() if pending else compiles.popleft())
            done, _ = wait(list(inflight), timeout=0.2, return_when=FIRST_COMPLETED) if inflight else (set(), set())
            pool.drain()
            for fut in done:
                tid = inflight.pop(fut)
                task = tasks[tid]
                started = pool.starts.pop(tid, None) is not None
                try:
                    payload = fut.result()
                except BrokenProcessPool:
                    broken = True
                    if task.suspect:
                        fail_task(task, "error", "the worker process died (crash in native code?)")
                    elif started:
                        task.suspect = True
                        suspects.append(tid)
                    else:
                        (pending if task.kind == "analyse" else compiles).appendleft(tid)
                    continue
                except KernelTimeout:  # the worker's alarm fired again while it was returning
                    fail_task(task, "timeout", "analysis ran past its CPU-time limit")
                    continue
                except Exception as exc:  # noqa: BLE001 - e.g. a result that cannot be pickled
                    fail_task(task, "error", f"{type(exc).__name__}: {exc}")
                    continue
                barren_restarts = 0
                if task.kind == "list":
                    finish_file(task, payload)
                else:
                    finish_kernel(task, payload, cached=False)
            now = time.time()
            for fut, tid in list(inflight.items()):
                started_at = pool.starts.get(tid)
                if started_at is not None and now - started_at[1] > tasks[tid].limit:
                    pool.kill(started_at[0])
                    inflight.pop(fut)
                    what = "compilation" if tasks[tid].kind == "list" else "analysis"
                    fail_task(tasks[tid], "timeout", f"{what} ran past {tasks[tid].limit:g} s; worker stopped")
                    barren_restarts = 0
                    broken = True
            if broken:
                for fut, tid in inflight.items():  # these die with the pool: run them again
                    if tid in pool.starts and not tasks[tid].suspect:
                        tasks[tid].suspect = True
                        suspects.append(tid)
                    else:
                        (pending if tasks[tid].kind == "analyse" else compiles).appendleft(tid)
                inflight.clear()
                barren_restarts += 1
                if barren_restarts > 3:
                    for tid in list(pending) + list(compiles) + list(suspects):
                        fail_task(tasks[tid], "error", "worker processes could not start or keep dying")
                    pending.clear(), compiles.clear(), suspects.clear()
                    break
                pool.restart()
    except KeyboardInterrupt:
        result.interrupted = True
        for fr in result.files:
            if fr.status == "pending":
                fr.status = "interrupted"
            for k in fr.kernels:
                if k.status == "pending":
                    k.status = "interrupted"
                    k.reason = "scan interrupted"
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
        if pool is not None:
            pool.close(kill=bool(inflight) or result.interrupted)
        if cache is not None:
            cache.close()
    if not options.changed and not result.interrupted:
        seen = {n for _, k in result.kernels() for n in (k.name, k.mangled, k.name.split("<")[0])}
        for name in config.kernels:
            if name not in seen:
                result.warnings.append(f"the configuration constrains kernel '{name}', which was not found")
    result.stats.seconds = time.perf_counter() - t_start
    return result


def _terminate(signum, frame):
    """SIGTERM stops a scan like Ctrl-C: workers are stopped and what finished is reported."""
    raise KeyboardInterrupt


def run_scan(paths: list[Path], overrides: ScanOverrides | None = None,
             events: ScanEvents | None = None) -> ScanResult:
    """Resolve options and scan; raises :class:`ConfigError` / :class:`ScanError` on usage errors."""
    options, config = resolve_options(paths, overrides)
    return scan(options, config, events)


__all__ = ["ConfigError", "FileResult", "KernelResult", "ScanError", "ScanEvents", "ScanOptions", "ScanOverrides",
           "ScanResult", "apply_policy", "resolve_options", "run_scan", "scan"]
