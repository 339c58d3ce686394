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

import contextlib
import signal
import sqlite3
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from simu.codes import COMPILE_ERROR, FAILED, FILE_OK, INTERRUPTED, PENDING, TIMEOUT
from simu.config import Config
from simu.frontend.includes import HeaderIndex, IncludeInfo, explain_missing, resolve_includes
from simu.report.policy import SourceLines, apply_policy, rel_path
from simu.report.results import FileResult, KernelResult, ScanResult
from simu.report.unused import Siblings, cap
from simu.scan.assume import mark_findings
from simu.scan.cache import ResultCache, kernel_key
from simu.scan.flags import FileFlags, flags_with_host, load_database, needs_host
from simu.scan.hostjob import HostIndexJob
from simu.scan.options import COMPILE_LIMIT, PREPARE_CPU_LIMIT, WALL_GRACE, ScanOptions
from simu.scan.payloads import FileFailure, FileListing, KernelEntry, KernelVerdict
from simu.scan.pool import ANALYSE, LIST, Task, WorkerPool, tree_cpu_seconds
from simu.scan.sources import select_sources
from simu.scan.worker import KernelTimeout

MAX_BARREN_RESTARTS = 3  # pool restarts in a row with no task finished before the scan gives up
STUCK_FACTOR = 4.0  # an analysis's wall time, in its (CPU) limits, past which its worker is stopped anyway
MAX_TYPE_ROUNDS = 3  # compiles of one variant that may each add unknown type names (clang's error limit)


class ScanEvents:
    """Progress callbacks (the command shows a progress bar with them); every method is optional."""

    def files_found(self, n: int) -> None: ...
    def file_done(self, f: FileResult) -> None: ...
    def kernels_found(self, n: int) -> None: ...
    def kernel_done(self, f: FileResult, k: KernelResult) -> None: ...


def scan(options: ScanOptions, config: Config | None = None, events: ScanEvents | None = None) -> ScanResult:
    """Analyse every kernel under ``options.paths``; see the module docstring."""
    config = config or Config()
    events = events or ScanEvents()
    t_start = time.perf_counter()
    result = ScanResult(options.root, options)
    selection = select_sources(options)
    result.note = selection.note
    result.files = [FileResult(s, rel_path(str(s), options.root)) for s in selection.sources]
    result.stats.files = len(result.files)
    events.files_found(len(result.files))
    if not result.files:
        return result
    cache = _open_cache(options, result)
    try:
        scheduler = Scheduler(options, config, result, events, cache)
        database, warning = load_database(options)
        scheduler.flags = FileFlags(options, config, None, database, retype=True)  # what needs no host index
        scheduler.host_job = HostIndexJob(lambda: flags_with_host(options, config, selection.sources, database,
                                                                  warning, rules=selection.rules, retype=True))
        for fr in result.files:
            includer = selection.included_by.get(fr.path)
            if includer is not None:  # a fragment: its kernels are analysed through its includer
                fr.status, fr.included_by = FILE_OK, rel_path(str(includer), options.root)
                events.file_done(fr)
            else:
                scheduler.add_file(fr, selection.index, selection.infos.get(fr.path))
        scheduler.plan_fallbacks(selection)
        with _sigterm_interrupts():
            scheduler.run()
    finally:
        if cache is not None:
            cache.close()
    if not options.changed and not result.interrupted:
        _warn_unmatched_constraints(result, config)
    result.stats.seconds = time.perf_counter() - t_start
    return result


def _overdue(task: Task, started_at: tuple, now: float) -> bool:
    """Whether ``task``, started at ``started_at`` (pid, time, CPU seconds, whether it is still preparing), is past
    its limit (see :meth:`Scheduler.stop_overdue`).  An analysis first reads its module and decodes and compiles its
    kernel, under :data:`PREPARE_CPU_LIMIT`; its own limit counts from its second start, once that is done."""
    pid, t0, cpu0, preparing = started_at
    wall = now - t0
    limit = max(task.limit, PREPARE_CPU_LIMIT + WALL_GRACE) if preparing and task.kind == ANALYSE else task.limit
    if wall <= limit:
        return False  # neither clock is past it yet (CPU time never runs ahead of wall time on one core)
    if task.kind not in (ANALYSE, LIST) or cpu0 is None:
        return True
    cpu = tree_cpu_seconds(pid)  # a compile's clang is the worker's child: its CPU time counts
    return wall > STUCK_FACTOR * limit if cpu is None else (cpu - cpu0 > limit or wall > STUCK_FACTOR * limit)


def _open_cache(options: ScanOptions, result: ScanResult) -> ResultCache | None:
    if options.cache_dir is None:
        return None
    try:
        return ResultCache(options.cache_dir)
    except (OSError, sqlite3.Error) as exc:
        result.warnings.append(f"result cache {options.cache_dir} not usable ({exc}); analysing without it")
        return None


def _warn_unmatched_constraints(result: ScanResult, config: Config) -> None:
    import difflib

    seen = {n for _, k in result.kernels() for n in (k.name, k.mangled, k.name.split("<")[0])}
    names = sorted({k.name.split("<")[0] for _, k in result.kernels()})
    for name in config.kernels:
        if name not in seen:
            close = difflib.get_close_matches(name, names, n=3)
            hint = (f"; did you mean {', '.join(repr(c) for c in close)}?" if close
                    else f" (kernels: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''})" if names else "")
            result.warnings.append(f"the configuration constrains kernel '{name}', which was not found{hint}")


@contextlib.contextmanager
def _sigterm_interrupts():
    """SIGTERM stops a scan like Ctrl-C: workers are stopped and what finished is reported."""
    old = None
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
        old = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)


def _terminate(signum, frame):
    raise KeyboardInterrupt


class Scheduler:
    """Runs a scan's tasks on a worker pool and files their outcomes into the :class:`ScanResult`.

    Analyses are submitted before compiles (they finish files).  A task whose worker died is a
    *suspect*: it runs again alone, so that a second death is its own and fails only that task.  A
    task past its wall-time limit has its worker killed and is a timeout; any death or kill restarts
    the pool, and the tasks still in flight run again.
    """

    def __init__(self, options: ScanOptions, config: Config, result: ScanResult, events: ScanEvents,
                 cache: ResultCache | None):
        from simu.check import CheckSettings
        from simu.detect import DetectOptions
        self.options, self.config, self.result, self.events, self.cache = options, config, result, events, cache
        # where workers keep compiled files (simu.frontend.compilecache): beside the results, off with the cache
        self.compile_cache = str(options.cache_dir) if cache is not None else None
        self.settings = CheckSettings(tuple(options.checks),
                                      DetectOptions(warp_model=options.warp_model, strict_warp=options.strict_warp),
                                      options.limits(max_seconds=options.budget))
        self.lines = SourceLines()
        self.tasks: dict[int, Task] = {}
        self.analyses: deque[int] = deque()
        self.compiles: deque[int] = deque()
        self.suspects: deque[int] = deque()
        self.inflight: dict[Future, int] = {}
        self.pool: WorkerPool | None = None
        self.barren_restarts = 0  # pool restarts in a row with no task finished in between
        self.flags = FileFlags(options, config)  # per-file compiler options (scan() adds the project's)
        self.host_job: HostIndexJob | None = None  # the flags with the host index, while they are being built
        self.variants_left: dict[int, int] = {}  # id(FileResult) -> compile variants not yet done
        # id(FileResult) -> (variant, failure, replaced by variants that assume types)
        self.variant_failures: dict[int, list[tuple[str, FileFailure, bool]]] = {}
        self.includes: dict = {}  # source -> (IncludeInfo | None, HeaderIndex | None): explains missing headers
        self.defined: dict[tuple, tuple[KernelResult, str]] = {}  # (mangled, file, line, variant) -> first seen, in
        self.selection = None  # what select_sources found (plan_fallbacks keeps it)
        self.listed: dict[Path, FileResult] = {}
        self.fallback_of: dict[Path, set[Path]] = {}  # kernel header -> the compiled files including it
        self.waiting: dict[Path, set[Path]] = {}  # kernel header -> those of its includers not done yet
        self.compiled_ok: set[Path] = set()
        self._contract_notes: set[tuple[str, str]] = set()  # (file, kernel) whose skipped launches were noted
        self.siblings = Siblings()  # which kernels of a file the host code launches
        self.unlaunched: dict[int, str] = {}  # task id -> why its kernel is an unused variant (unlaunched.cap)

    # -- tasks ----------------------------------------------------------------------------------------------

    def add_file(self, fr: FileResult, index: HeaderIndex | None, info: IncludeInfo | None = None) -> None:
        """Queue the compilation of one file, with the include folders its includes need (discovered ones
        go after the shim and system folders: ``-idirafter``)."""
        o = self.options
        if self.host_job is not None and needs_host(fr.path):
            self.host_job.files.append((fr, index, info))
            return
        if o.auto_include and info is None:
            info = resolve_includes(fr.path, o.include, index)
        self.includes[fr.path] = (info if o.auto_include else None, index)
        variants = self.flags.variants(fr.path, info.folders if info else [])
        fr.compile_options = variants[0][1]
        self.variants_left[id(fr)] = len(variants)
        for label, copts in variants:  # a .cl built with several option sets: compiled once per set
            task = self._new_task(LIST, (str(fr.path), copts, self.compile_cache), COMPILE_LIMIT + o.budget, fr,
                                  copts=copts,
                                  variant=label)
            self.compiles.append(task.id)

    def plan_fallbacks(self, selection) -> None:
        """Kernel headers and ``.cu`` fragments that compiled files include: each is compiled alone once every
        file including it has failed to compile (its kernels would otherwise never be analysed)."""
        compiled = {fr.path for fr in self.result.files if not fr.included_by}
        self.listed = {fr.path: fr for fr in self.result.files}
        self.selection = selection
        self.fallback_of = {h: set(incs) & compiled for h, incs in selection.fallback.items()
                            if h not in self.listed or self.listed[h].included_by}
        self.waiting = {h: set(incs) for h, incs in self.fallback_of.items() if incs}

    def _includer_done(self, fr: FileResult) -> None:
        if fr.status == FILE_OK:
            self.compiled_ok.add(fr.path)
        for h, incs in list(self.waiting.items()):
            if fr.path not in incs:
                continue
            incs.discard(fr.path)
            if incs:
                continue
            del self.waiting[h]
            if self.fallback_of[h] & self.compiled_ok:
                continue
            hr = self.listed.get(h)
            if hr is None:  # a kernel header: a file of its own from now on
                hr = FileResult(h, rel_path(str(h), self.options.root))
                self.result.files.append(hr)
                self.result.stats.files += 1
                self.events.files_found(len(self.result.files))
            hr.status, hr.included_by = PENDING, ""
            names = ", ".join(sorted(rel_path(str(i), self.options.root) for i in self.fallback_of[h]))
            self.result.warnings.append(f"{hr.rel}: compiled on its own, since every file that includes it failed "
                                        f"to compile ({names})")
            self.add_file(hr, self.selection.index, self.selection.infos.get(h))

    def _new_task(self, kind: str, args: tuple, limit: float, fr: FileResult, **more) -> Task:
        task = Task(len(self.tasks), kind, args, limit, fr, **more)
        self.tasks[task.id] = task
        return task

    def _add_kernel(self, file_task: Task, listing: FileListing, entry: KernelEntry) -> bool:
        """One kernel of a compiled file: from the cache, else queued for analysis.  False when another file
        reached the same kernel first (it is analysed once)."""
        fr, o = file_task.file, self.options
        name = f"{entry.name}[{file_task.variant}]" if file_task.variant else entry.name
        kr = KernelResult(name, entry.mangled, entry.line, compile_options=file_task.copts)
        if entry.file and Path(entry.file).resolve() != fr.path.resolve():
            kr.defined_in = rel_path(str(Path(entry.file).resolve()), o.root)
        where = (entry.mangled, kr.defined_in or fr.rel, entry.line, file_task.variant)
        if where in self.defined:  # one header's kernel reached through a second file: analysed once
            first, through = self.defined[where]
            first.also_through.append(fr.rel)
            fr.analysed_through[kr.name] = through
            return False
        self.defined[where] = (kr, fr.rel)
        fr.kernels.append(kr)
        from simu.host.contracts import with_header_launch

        user = with_header_launch(fr.path, self.config.constraints_for(entry.name, kr.mangled), entry.name)
        constraints = self._contracts(fr, kr, entry, user)
        unused = self._unused(fr, kr, listing, entry) if self.flags.host is not None else ""
        contract_key = [c.key() for c in constraints] if isinstance(constraints, list) else \
            constraints.key() if constraints else None
        key = kernel_key(listing.module.digest, kr.mangled, {
            "checks": list(o.checks), "warp_model": o.warp_model, "strict_warp": o.strict_warp, "budget": o.budget,
            "compile": file_task.copts.key(), "constraints": contract_key,
            "shared": [o.max_static_shared, o.max_dynamic_shared]})
        args = (str(fr.path), listing.module, kr.mangled, self.settings, constraints, o.budget, o.hard_limit)
        task = self._new_task(ANALYSE, args, o.wall_limit, fr, kernel=kr, key=key)
        if unused:
            self.unlaunched[task.id] = unused
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is not None:
            self.finish_kernel(task, hit, cached=True)
        else:
            self.analyses.append(task.id)
        return True

    def _contracts(self, fr: FileResult, kr: KernelResult, entry: KernelEntry, user):
        """The kernel's launch contracts: one per distinct launch its host code makes (configuration on top),
        else the configuration's constraints (:mod:`simu.host.contracts`)."""
        host = self.flags.host
        if host is None:
            return user
        from simu.host.contracts import contracts_for

        cl_file = fr.rel if fr.path.suffix.lower() == ".cl" else None
        api = fr.language if fr.language in ("cuda", "opencl") else None  # a CUDA and an OpenCL `reduce` differ
        instance = kr.compile_options.instance if kr.compile_options is not None else ""
        found = contracts_for(host, entry.name, list(entry.params), user, {fr.rel, kr.defined_in} - {""}, cl_file,
                              api, instance, entry.types)
        note = found.note(entry.name)
        if note and (fr.rel, entry.name) not in self._contract_notes:
            self._contract_notes.add((fr.rel, entry.name))
            self.result.warnings.append(f"{fr.rel}: {note}")
        self.siblings.known(kr.defined_in or fr.rel, entry.name, bool(found.contracts) or user is not None)
        return found.for_search()

    def _unused(self, fr: FileResult, kr: KernelResult, listing: FileListing, entry: KernelEntry) -> str:
        """Why ``entry`` is an unused variant of its file (:mod:`simu.report.unused`), "" when it is none."""
        from simu.host.contracts import contracts_for

        where = kr.defined_in or fr.rel
        cl_file = fr.rel if fr.path.suffix.lower() == ".cl" else None
        api = fr.language if fr.language in ("cuda", "opencl") else None

        same = {e.name: e for e in listing.kernels if (rel_path(str(Path(e.file).resolve()), self.options.root)
                                                       if e.file and Path(e.file).resolve() != fr.path.resolve()
                                                       else fr.rel) == where}

        def launched(name: str) -> bool:
            e = same[name]
            return self.config.constraints_for(name, e.mangled) is not None or bool(contracts_for(
                self.flags.host, name, list(e.params), None, {fr.rel, where}, cl_file, api).contracts)

        return self.siblings.note(where, entry.name, list(same), launched)

    def host_ready(self) -> None:
        """The host index is built: its flags replace the early ones, the files waiting for it are queued and the
        compiles finished before it are filed (their kernels take its contracts)."""
        job, self.host_job = self.host_job, None
        early_notes = self.flags.notes
        self.flags = job.flags()
        if (host := self.flags.host) is not None:
            self.result.stats.host_files = {"indexed": len(host.files), "clang": len(host.clang_read),
                                            "clang_failed": len(host.clang_failed)}
        for args in job.files:
            self.add_file(*args)
        self.result.warnings += [n for n in early_notes if n not in self.flags.notes] + self.flags.notes
        for task, outcome in sorted(job.outcomes, key=lambda done: done[0].id):  # in the files' order, not the
            self.finish_file(task, outcome)  # order they compiled in: a header's kernel is first seen through one

    def _queue(self, tid: int) -> deque[int]:
        return self.analyses if self.tasks[tid].kind == ANALYSE else self.compiles

    # -- outcomes -------------------------------------------------------------------------------------------

    def finish_file(self, task: Task, outcome: FileListing | FileFailure) -> None:
        """File one compile outcome.  A file compiled in several variants is done after its last one: it is
        ``ok`` when a variant compiled (each variant that did not is a warning, unless variants assuming types
        replaced it), else the first failure.  Before the host index is built, the outcome waits for it."""
        if self.host_job is not None:
            self.host_job.outcomes.append((task, outcome))
            return
        fr = task.file
        fr.language = outcome.language or fr.language
        left = self.variants_left[id(fr)] = self.variants_left.get(id(fr), 1) - 1
        if isinstance(outcome, FileFailure):
            retyped = self._retype(task, outcome)
            left = self.variants_left[id(fr)] = left + retyped
            self.variant_failures.setdefault(id(fr), []).append((task.variant, outcome, retyped > 0))
        else:
            fr.status = FILE_OK
            self.result.warnings += [f"{fr.rel}: {note}" for note in outcome.notes]
            added = sum(self._add_kernel(task, outcome, entry) for entry in outcome.kernels)
            self.result.stats.kernels += added
            self.events.kernels_found(added)
        if left > 0:
            return
        failures = self.variant_failures.pop(id(fr), [])
        if fr.status == FILE_OK:
            for variant, failure, _ in (f for f in failures if not f[2]):
                self.result.warnings.append(f"{fr.rel} [{variant}]: does not compile with these build options: "
                                            f"{failure.first.replace(str(fr.path), fr.rel)}")
        elif failures:
            failure = failures[0][1]
            info, index = self.includes.get(fr.path, (None, None))
            fr.status = failure.status
            fr.first = explain_missing(failure.first, info, index).replace(str(fr.path), fr.rel)
            fr.diagnostics = failure.diagnostics
            fr.traceback = failure.traceback
            fr.where = failure.where
        self.events.file_done(fr)
        self._includer_done(fr)

    def _retype(self, task: Task, failure: FileFailure) -> int:
        """A ``.cl`` variant that failed on unknown type names the build passes is compiled again once per common
        type (:meth:`FileFlags.type_variants`); how many variants were queued."""
        if failure.status != COMPILE_ERROR or task.rounds >= MAX_TYPE_ROUNDS or task.copts is None:
            return 0
        fr = task.file
        variants, note = self.flags.type_variants(fr.path, task.variant, task.copts, failure.diagnostics, task.typed)
        if note and note not in self.result.warnings:
            self.result.warnings.append(note)
        for label, typed, copts in variants:
            new = self._new_task(LIST, (str(fr.path), copts, self.compile_cache), COMPILE_LIMIT + self.options.budget,
                                 fr, copts=copts,
                                 variant=label, typed=typed, rounds=task.rounds + 1)
            self.compiles.append(new.id)
        return len(variants)

    def finish_kernel(self, task: Task, verdict: KernelVerdict, cached: bool) -> None:
        k = task.kernel
        assert k is not None
        k.status, k.reason, k.launches = verdict.status, verdict.reason, verdict.launches
        k.seconds, k.traceback, k.cached, k.where = verdict.seconds, verdict.traceback, cached, verdict.where
        findings = mark_findings(list(verdict.findings), getattr(k.compile_options, "assumed", ()),
                                 getattr(k.compile_options, "assumed_why", ""))
        findings = cap(findings, self.unlaunched.get(task.id, ""))
        k.findings, k.suppressed = apply_policy(findings, self.config, self.options.root, self.lines)
        if cached:
            self.result.stats.cache_hits += 1
        else:
            self.result.stats.analysed += 1
            if self.cache is not None and k.status != FAILED and task.key:
                self.cache.put(task.key, task.file.rel, k.name, verdict)
        self.events.kernel_done(task.file, k)

    def fail_task(self, task: Task, status: str, reason: str) -> None:
        if task.kind == LIST:
            self.finish_file(task, FileFailure(status, reason))
        else:
            self.finish_kernel(task, KernelVerdict(status, reason), cached=False)

    # -- the loop -------------------------------------------------------------------------------------------

    def run(self) -> None:
        """Run every queued task; Ctrl-C (or SIGTERM) marks what did not finish as interrupted."""
        try:
            self.pool = WorkerPool(self.options.jobs)
            while self.analyses or self.compiles or self.suspects or self.inflight or self.host_job is not None:
                broken = self.submit_ready()
                waited = [*self.inflight, *([self.host_job.future] if self.host_job is not None else [])]
                done, _ = wait(waited, timeout=0.2, return_when=FIRST_COMPLETED) if waited else (set(), set())
                if self.host_job is not None and self.host_job.done():
                    done.discard(self.host_job.future)
                    self.host_ready()
                self.pool.drain()
                broken = self.collect(done) or broken
                broken = self.stop_overdue() or broken
                if broken and not self.restart():
                    break
        except KeyboardInterrupt:
            self.interrupt()
        finally:
            if self.pool is not None:
                self.pool.close(kill=bool(self.inflight) or self.result.interrupted)

    def submit(self, tid: int) -> bool:
        """Give a task to the pool; False when the pool is broken (the task is not queued anywhere)."""
        try:
            self.inflight[self.pool.submit(self.tasks[tid])] = tid
            return True
        except BrokenProcessPool:
            return False

    def submit_ready(self) -> bool:
        """Fill the pool (one task beyond the workers); a suspect runs alone.  True if the pool broke."""
        if self.suspects:
            if self.inflight:
                return False
            tid = self.suspects.popleft()
            if self.submit(tid):
                return False
            self.suspects.appendleft(tid)
            return True
        while (self.analyses or self.compiles) and len(self.inflight) < self.options.jobs + 1:
            queue = self.analyses if self.analyses else self.compiles
            tid = queue.popleft()
            if not self.submit(tid):
                queue.appendleft(tid)
                return True
        return False

    def collect(self, done) -> bool:
        """File the outcomes of finished tasks; True if a worker died."""
        broken = False
        for fut in done:
            tid = self.inflight.pop(fut)
            task = self.tasks[tid]
            started = self.pool.starts.pop(tid, None) is not None
            try:
                outcome = fut.result()
            except BrokenProcessPool:
                broken = True
                self._worker_died(task, started)
                continue
            except KernelTimeout:  # the worker's alarm fired again while it was returning
                self.fail_task(task, TIMEOUT, "analysis ran past its CPU-time limit")
                continue
            except Exception as exc:  # noqa: BLE001 - e.g. a result that cannot be pickled
                self.fail_task(task, FAILED, f"{type(exc).__name__}: {exc}")
                continue
            self.barren_restarts = 0
            if task.kind == LIST:
                self.finish_file(task, outcome)
            else:
                self.finish_kernel(task, outcome, cached=False)
        return broken

    def _worker_died(self, task: Task, started: bool) -> None:
        if task.suspect:
            self.fail_task(task, FAILED, "the worker process died (crash in native code?)")
        elif started:
            task.suspect = True
            self.suspects.append(task.id)
        else:
            self._queue(task.id).appendleft(task.id)

    def stop_overdue(self) -> bool:
        """Kill the worker of every task past its limit (a timeout); True if one was killed.  An analysis's limit
        counts its worker's CPU time where the system tells it, so that a loaded machine (more workers than
        cores, other jobs) does not stop an analysis that is only waiting for a core; its wall time may reach
        :data:`STUCK_FACTOR` times the limit (a worker blocked without using CPU).  A compile's limit counts the
        CPU time of the worker and its children (clang runs in a child process), the same way."""
        killed = False
        now = time.time()
        for fut, tid in list(self.inflight.items()):
            task = self.tasks[tid]
            started_at = self.pool.starts.get(tid)
            if started_at is not None and _overdue(task, started_at, now):
                self.pool.kill(started_at[0])
                self.inflight.pop(fut)
                self.fail_task(task, TIMEOUT, f"{task.what} ran past {task.limit:g} s; worker stopped")
                self.barren_restarts = 0
                killed = True
        return killed

    def restart(self) -> bool:
        """A fresh pool after a death or a kill; the tasks in flight die with the old one and run again
        (those that had started as suspects).  False when pools keep dying: what is left fails."""
        for tid in self.inflight.values():
            task = self.tasks[tid]
            if tid in self.pool.starts and not task.suspect:
                task.suspect = True
                self.suspects.append(tid)
            else:
                self._queue(tid).appendleft(tid)
        self.inflight.clear()
        self.barren_restarts += 1
        if self.barren_restarts > MAX_BARREN_RESTARTS:
            for tid in [*self.analyses, *self.compiles, *self.suspects]:
                self.fail_task(self.tasks[tid], FAILED, "worker processes could not start or keep dying")
            self.analyses.clear(), self.compiles.clear(), self.suspects.clear()
            return False
        self.pool.restart()
        return True

    def interrupt(self) -> None:
        """Ctrl-C: what did not finish is reported as interrupted (what finished stays cached)."""
        self.result.interrupted = True
        for fr in self.result.files:
            if fr.status == PENDING:
                fr.status = INTERRUPTED
            for k in fr.kernels:
                if k.status == PENDING:
                    k.status = INTERRUPTED
                    k.reason = "scan interrupted"


__all__ = ["ScanEvents", "Scheduler", "scan"]
