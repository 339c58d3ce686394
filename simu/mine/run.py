"""`simu mine run`: sources -> clones -> snapshots to analyse -> the database, resumable and idempotent.

The unit of work is a *snapshot*: one tree (a repository at a commit, or the changed kernel files of a commit
or its parent in history mode) analysed with one set of options by one simu.  Its identity is (repository,
commit, scope, options hash, simu code fingerprint); a snapshot stored as ``done`` is never analysed again, so
re-running a command skips everything it finished before (the remote's HEAD is read with ``git ls-remote``,
nothing is cloned).  Inside a snapshot, each kernel is written in its own transaction as soon as its analysis
ends, and simu's per-kernel result cache (in the work folder, keyed by the kernel's IR, options and simu) makes
a snapshot that was interrupted skip every kernel it had finished: a stopped run loses the kernels in flight.

Analyses run in the coordinator's local worker pool (``jobs``), or as one Dask task per snapshot when
``scheduler`` is given (:mod:`simu.mine.dask_backend`); only the coordinator writes the database.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simu.mine import history as hist
from simu.mine.analyse import AnalysisError, empty_config_file, pack_tree, scan_tree, stats_of
from simu.mine.git import GitError, extract_tree
from simu.mine.limits import LIMITED, Deadline, Limits, TimeLimit, check_tree, raised, stored, time_reason
from simu.mine.rows import file_row, kernel_row, options_hash, options_json
from simu.mine.sources import Checkout, Source, SourceError, checkout, current_commit, kind_of, slug
from simu.mine.store import DONE, FAILED, PARTIAL, PENDING, Store
from simu.scan import ScanEvents, ScanOverrides
from simu.scan.cache import code_fingerprint


class MineError(Exception):
    """A problem that stops the whole run before it starts (unusable database, unreachable scheduler)."""


@dataclass
class MineSettings:
    db: Path
    work: Path | None = None  # clones, trees, simu's result cache [default: DB's folder / DB name + ".work"]
    overrides: ScanOverrides = field(default_factory=ScanOverrides)  # budget, jobs, checks, ... as `simu scan`
    history: bool = False
    since: str | None = None
    max_commits: int | None = None
    keywords: str = hist.DEFAULT_KEYWORDS
    scheduler: Any = None  # a Dask scheduler address, or a distributed.Client
    ship: str = "sources"  # how trees reach Dask workers: sources (shipped by the coordinator) | clone
    worker_work: str | None = None  # the workers' folder [default: $SIMU_MINE_WORK, else the temporary folder]
    argv: list[str] = field(default_factory=list)
    limits: Limits = field(default_factory=Limits)  # per repository: size, kernel files, wall time

    def work_dir(self) -> Path:
        return Path(self.work) if self.work else self.db.parent / (self.db.name + ".work")


@dataclass
class MineSummary:
    repositories: int = 0
    done: int = 0
    skipped: int = 0  # repositories whose analyses were all stored already
    failed: list[tuple[str, str]] = field(default_factory=list)  # (source, reason)
    limited: list[tuple[str, str]] = field(default_factory=list)  # (source, reason): past a per-repository limit
    snapshots: int = 0  # analysed in this run
    kernels: int = 0  # kernels stored in this run
    analysed: int = 0  # of which analysed now (the rest came from the result cache)
    findings: int = 0
    commits: int = 0  # history mode: kept commits classified in this run
    fixed: int = 0
    introduced: int = 0
    unchanged: int = 0
    seconds: float = 0.0
    interrupted: bool = False


class MineEvents:
    """Progress callbacks (the command draws a rich progress display with them); every method is optional."""

    def sources_found(self, n: int) -> None: ...
    def source_started(self, name: str) -> None: ...
    def source_done(self, name: str, status: str, reason: str = "") -> None: ...
    def kernels_found(self, n: int) -> None: ...
    def kernel_done(self, findings: int) -> None: ...


class _Writer(ScanEvents):
    """A local scan's events: each file and kernel is written as soon as it is done."""

    def __init__(self, run: _Run, snapshot_id: int, root: Path):
        self.run, self.sid, self.root = run, snapshot_id, root.resolve()
        self.out_of_time = False

    def kernels_found(self, n: int) -> None:
        self.run.events.kernels_found(n)

    def file_done(self, f) -> None:
        self.run.store.write_file(self.sid, file_row(f, self.root))
        self.check_time()

    def kernel_done(self, f, k) -> None:
        self.run.store_kernel(self.sid, kernel_row(f, k, self.root), self.run.version)
        self.check_time()

    def check_time(self) -> None:
        """The repository's time is up: stop the scan (it keeps what finished, as on Ctrl-C)."""
        if self.run.deadline.passed():
            self.out_of_time = True
            raise TimeLimit


class _Run:
    def __init__(self, settings: MineSettings, events: MineEvents):
        self.settings, self.events = settings, events
        self.work = settings.work_dir()
        self.version = code_fingerprint()
        self.ohash = options_hash(settings.overrides)
        self.summary = MineSummary()
        self.store = Store(settings.db)
        self.pending: dict[int, int] = {}  # repository id -> snapshots not finished
        self.problems: dict[int, str] = {}  # repository id -> first failure
        self.names: dict[int, str] = {}
        self.specs: dict[int, str] = {}
        self.current = 0  # the repository being planned or analysed locally
        self.deadline = Deadline(None)  # the current repository's wall-time limit
        self.limited: dict[int, str] = {}  # repository id -> the limit it hit
        self.backend = None
        if settings.scheduler is not None:
            from simu.mine.dask_backend import DaskBackend, SchedulerError

            try:
                self.backend = DaskBackend(settings.scheduler, self.finish_job)
            except SchedulerError as exc:
                self.store.close()
                raise MineError(str(exc)) from None
            except BaseException:
                self.store.close()
                raise

    # -- one source ---------------------------------------------------------------------------------------

    def mine_source(self, source: Source, rid: int) -> None:
        self.names[rid], self.specs[rid] = source.name, source.spec
        self.current = rid
        self.deadline = Deadline(self.settings.limits.max_repo_seconds)
        self.events.source_started(source.name)
        self.pending[rid] = 1  # planning: the repository is not settled before all its jobs are known
        try:
            kind = kind_of(source)
            self.store.set_repository(rid, PENDING, kind=kind)
            jobs = self.plan_history(source, rid) if self.settings.history else self.plan_head(source, rid, kind)
        except SourceError as exc:
            self.pending.pop(rid, None)
            self.store.set_repository(rid, FAILED, str(exc))
            self.summary.failed.append((source.spec, str(exc)))
            self.events.source_done(source.spec, FAILED, str(exc))
            return
        if not jobs and rid not in self.limited:
            self.summary.skipped += 1
        for job in jobs:
            self.pending[rid] += 1
            self.run_job(job)
        self.pending[rid] -= 1
        self.settle(rid)

    def stored_already(self, rid: int, sid: int, status: str) -> bool:
        """Whether a snapshot needs no work: done, or limited by a limit not raised since (that is noted)."""
        if status == LIMITED:
            reason, record = self.store.snapshot_limits(sid)
            if not raised(record, self.settings.limits):
                self.limited.setdefault(rid, reason)
                return True
        return status == DONE

    def past_size_limits(self, co: Checkout, rid: int, sid: int | None) -> bool:
        """Whether the checkout is past the size or kernel-file limit: stored as limited (a clone is deleted)."""
        hit = check_tree(co.root if co.repo is None else co.repo, self.settings.limits)
        if hit is None:
            return False
        reason, name, value = hit
        if sid is not None:
            self.store.finish_snapshot(sid, LIMITED, reason, limits=stored(name, value))
        self.limited.setdefault(rid, reason)
        if co.repo is not None:  # a clone of ours, not the user's folder
            shutil.rmtree(co.repo, ignore_errors=True)
        return True

    def plan_head(self, source: Source, rid: int, kind: str) -> list[dict[str, Any]]:
        sid, status = self.store.snapshot(rid, current_commit(source, kind), "", self.ohash, self.version)
        if self.stored_already(rid, sid, status):
            return []
        co = checkout(source, self.work)
        self.store.set_repository(rid, PENDING, head=co.commit)
        sid, status = self.store.snapshot(rid, co.commit, "", self.ohash, self.version)  # HEAD may have moved
        if self.stored_already(rid, sid, status) or self.past_size_limits(co, rid, sid):
            return []
        return [self.job(source, co, sid, co.commit, co.root, [])]

    def plan_history(self, source: Source, rid: int) -> list[dict[str, Any]]:
        s = self.settings
        co = checkout(source, self.work, full=True)
        self.store.set_repository(rid, PENDING, head=co.commit)
        assert co.repo is not None
        if self.past_size_limits(co, rid, None):
            return []
        try:
            commits = hist.walk(co.repo, s.keywords, s.since, s.max_commits)
        except GitError as exc:
            raise SourceError(str(exc)) from None
        jobs: list[dict[str, Any]] = []
        planned: set[int] = set()  # a commit's tree is often the next kept commit's parent tree
        for c in commits:
            cid, cstatus = self.store.commit(rid, c.as_row())
            if not c.paths:
                self.store.set_commit(cid, "skipped", "the commit changes no kernel file")
                continue
            scope = json.dumps(c.paths)
            sides = []
            for sha in (c.parent, c.sha):
                sid, status = self.store.snapshot(rid, sha, scope, self.ohash, self.version)
                sides.append(sid)
                if not self.stored_already(rid, sid, status) and sid not in planned:
                    planned.add(sid)
                    jobs.append(self.history_job(source, co, sid, sha, c.paths))
            if cstatus != DONE or self.store.commit_snapshots(cid) != tuple(sides):
                self.store.set_commit(cid, PENDING, parent_snapshot=sides[0], commit_snapshot=sides[1])
        return jobs

    def history_job(self, source: Source, co: Checkout, sid: int, sha: str, paths: list[str]) -> dict[str, Any]:
        """The job analysing ``paths`` at ``sha``: its tree is written out of the clone when the job runs."""
        assert co.repo is not None
        tag = hashlib.sha1(json.dumps(paths).encode()).hexdigest()[:8]
        tree = self.work / "trees" / slug(source) / f"{sha[:12]}-{tag}"
        job = self.job(source, co, sid, sha, tree, paths, cleanup=tree)
        job["extract"] = str(co.repo)
        return job

    def job(self, source: Source, co: Checkout, sid: int, commit: str, root: Path, paths: list[str],
            cleanup: Path | None = None) -> dict[str, Any]:
        ov = self.settings.overrides
        overrides = {k: getattr(ov, k) for k in ScanOverrides.__dataclass_fields__ if k not in ("jobs", "cache_dir",
                                                                                                 "no_cache")}
        job: dict[str, Any] = {"snapshot_id": sid, "repo_id": self.current, "name": source.name, "commit": commit,
                               "identity": [source.spec, commit, paths], "paths": paths, "overrides": overrides,
                               "root": str(root), "cleanup": str(cleanup) if cleanup else "",
                               "jobs": ov.jobs or 1, "work": self.settings.worker_work,
                               "time_reason": time_reason(self.settings.limits)
                               if self.settings.limits.max_repo_seconds is not None else ""}
        if self.backend is not None and self.settings.ship == "clone" and co.kind != "folder":
            url = source.spec if co.kind == "url" else Path(source.spec).as_uri()
            job["clone"] = {"url": url, "commit": commit, "full": bool(paths), "slug": slug(source)}
        return job

    def prepare_tree(self, job: dict[str, Any]) -> bool:
        """Write a history job's tree (only the paths that exist at its commit are kept) and, for Dask workers
        that are sent sources, pack it.  False when there is nothing to analyse (the job is finished)."""
        if job.get("clone"):
            return True  # the worker clones and writes the tree itself
        if job.get("extract"):
            tree = Path(job["root"])
            try:
                extract_tree(Path(job["extract"]), job["commit"], tree)
            except GitError as exc:
                self.finish_job(job, {"status": FAILED, "reason": str(exc), "stats": {}}, written=True)
                return False
            job["paths"] = [p for p in job["paths"] if (tree / p).is_file()]
            if not job["paths"]:
                self.finish_job(job, {"status": DONE, "reason": "none of the commit's kernel files exists here",
                                      "stats": {"files": 0, "kernels": 0, "analysed": 0, "reused": 0,
                                                "seconds": 0.0}}, written=True)
                return False
        if self.backend is not None:
            job["files"] = pack_tree(Path(job["root"]))
            if job.get("cleanup"):
                shutil.rmtree(job["cleanup"], ignore_errors=True)
        return True

    # -- running and storing a job ------------------------------------------------------------------------

    def run_job(self, job: dict[str, Any]) -> None:
        self.store.begin_snapshot(job["snapshot_id"])
        if self.deadline.passed():  # the repository's earlier snapshots took its time
            self.finish_job(job, {"status": LIMITED, "reason": time_reason(self.settings.limits), "stats": {}},
                            written=True)
            return
        if not self.prepare_tree(job):
            return
        self.summary.snapshots += 1
        if self.backend is not None:
            job["seconds_left"] = self.deadline.left()
            self.backend.submit(job)
            return
        o = self.settings.overrides
        overrides = ScanOverrides(**{**job["overrides"], "jobs": o.jobs, "cache_dir": str(self.work / "scan")})
        writer = _Writer(self, job["snapshot_id"], Path(job["root"]))
        try:
            result = scan_tree(Path(job["root"]), job["paths"], overrides, writer,
                               empty_config=empty_config_file(self.work))
        except AnalysisError as exc:
            self.finish_job(job, {"status": FAILED, "reason": str(exc), "stats": {}})
            return
        except TimeLimit:  # raised where the scan does not catch it (before its workers started)
            self.finish_job(job, {"status": LIMITED, "reason": time_reason(self.settings.limits), "stats": {}},
                            written=True)
            return
        if writer.out_of_time:
            self.finish_job(job, {"status": LIMITED, "reason": time_reason(self.settings.limits),
                                  "stats": stats_of(result)}, written=True)
            return
        if result.interrupted:
            self.store.finish_snapshot(job["snapshot_id"], PARTIAL, "interrupted", stats_of(result))
            raise KeyboardInterrupt
        self.finish_job(job, {"status": DONE, "reason": "", "stats": stats_of(result)}, written=True)

    def finish_job(self, job: dict[str, Any], result: dict[str, Any], written: bool = False) -> None:
        """Store a finished job (a Dask worker's rows are written here; a local scan's are already written)."""
        sid, rid = job["snapshot_id"], job["repo_id"]
        version = result.get("simu_version") or self.version
        if not written:
            for row in result.get("files", []):
                self.store.write_file(sid, row)
            for row in result.get("kernels", []):
                self.store_kernel(sid, row, version)
        status = result["status"] if result["status"] in (DONE, FAILED, LIMITED) else PARTIAL
        self.store.finish_snapshot(sid, status, result.get("reason", ""), result.get("stats"),
                                   stored("max_repo_seconds", self.settings.limits.max_repo_seconds)
                                   if status == LIMITED else "")
        self.summary.analysed += int(result.get("stats", {}).get("analysed") or 0)
        if status == LIMITED:
            self.limited.setdefault(rid, result.get("reason", "") or status)
        elif status != DONE:
            self.problems.setdefault(rid, result.get("reason", "") or status)
        if job.get("cleanup"):
            shutil.rmtree(job["cleanup"], ignore_errors=True)
        if rid in self.pending:
            self.pending[rid] -= 1
            self.settle(rid)

    def store_kernel(self, sid: int, row: dict[str, Any], version: str) -> None:
        self.store.write_kernel(sid, row, version, self.ohash)
        self.summary.kernels += 1
        self.summary.findings += len(row["findings"])
        self.events.kernel_done(len(row["findings"]))

    def settle(self, rid: int) -> None:
        """A repository with no job left: its commits classified, its status stored."""
        if rid not in self.pending or self.pending[rid] > 0:
            return
        self.pending.pop(rid, None)
        if self.settings.history:
            self.classify(rid)
        problem = self.problems.pop(rid, "")
        limit = self.limited.pop(rid, "")
        status = FAILED if problem else LIMITED if limit else DONE
        self.store.set_repository(rid, status, problem or limit)
        if problem:
            self.summary.failed.append((self.specs.get(rid, str(rid)), problem))
        elif limit:
            self.summary.limited.append((self.specs.get(rid, str(rid)), limit))
        else:
            self.summary.done += 1
        self.events.source_done(self.specs[rid] if problem or limit else self.names.get(rid, ""), status,
                                problem or limit)

    def classify(self, rid: int) -> None:
        for c in self.store.pending_commits(rid):
            p, a = c["parent_snapshot_id"], c["commit_snapshot_id"]
            if self.store.snapshot_status(p) != DONE or self.store.snapshot_status(a) != DONE:
                continue
            changes = hist.classify(self.store.snapshot_findings(p), self.store.snapshot_findings(a),
                                       self.store.analysed_kernels(p), self.store.analysed_kernels(a))
            self.store.write_changes(c["id"], changes)
            self.summary.commits += 1
            for ch in changes:
                if ch["class"] == hist.FIXED:
                    self.summary.fixed += 1
                elif ch["class"] == hist.INTRODUCED:
                    self.summary.introduced += 1
                elif ch["class"] == hist.UNCHANGED:
                    self.summary.unchanged += 1


def mine(sources: list[Source], settings: MineSettings, events: MineEvents | None = None) -> MineSummary:
    """Mine ``sources`` into ``settings.db`` (see the module docstring).  Ctrl-C (KeyboardInterrupt) stops the run
    with everything finished stored; ``summary.interrupted`` tells.  Raises :class:`MineError` before any work
    when the database or the Dask scheduler cannot be used."""
    from simu.mine.schema import SchemaError

    start = time.perf_counter()
    events = events or MineEvents()
    try:
        run = _Run(settings, events)
    except (SchemaError, OSError) as exc:
        raise MineError(str(exc)) from None
    s = settings
    run.store.start_run(list(s.argv), run.version, options_json(s.overrides), run.ohash,
                        "dask" if s.scheduler is not None else "local", s.history)
    run.summary.repositories = len(sources)
    status = DONE
    try:
        ids = [run.store.repository(src) for src in sources]  # all listed first: `status` shows what is pending
        events.sources_found(len(sources))
        for src, rid in zip(sources, ids, strict=True):
            run.mine_source(src, rid)
            if run.backend is not None:
                run.backend.poll()
        if run.backend is not None:
            run.backend.drain()
    except KeyboardInterrupt:
        status, run.summary.interrupted = "interrupted", True
        if run.backend is not None:
            run.backend.cancel()
        for rid in [*run.pending, run.current] if run.current else list(run.pending):
            run.store.set_repository(rid, PARTIAL, "interrupted")
    finally:
        if run.backend is not None:
            run.backend.close()
        run.summary.seconds = time.perf_counter() - start
        run.store.finish_run(status, run.summary.analysed, run.summary.kernels - run.summary.analysed)
        run.store.close()
    return run.summary


__all__ = ["MineError", "MineEvents", "MineSettings", "MineSummary", "mine"]
