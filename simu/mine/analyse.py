"""Analyse one tree with `simu scan`'s machinery, in the coordinator (events write each kernel as it finishes)
or on a Dask worker (:func:`run_job`: plain data in, plain rows out).

A *job* is a dict: ``root`` (a folder the coordinator sees), or ``files`` (the tree's source files, shipped
as bytes), or ``clone`` (a URL and commit the worker clones itself); ``paths`` (files to analyse, relative;
empty = the whole tree), ``overrides`` (:class:`ScanOverrides` fields), ``jobs`` and ``work`` (the worker's
folder for clones, trees and simu's result cache).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from simu.config import ConfigError, find_config
from simu.mine.git import GitError, clone, extract_tree
from simu.mine.limits import LIMITED, Deadline, TimeLimit
from simu.mine.rows import file_row, kernel_row
from simu.report.results import ScanResult
from simu.scan import ScanError, ScanEvents, ScanOverrides, resolve_options, scan
from simu.scan.cache import code_fingerprint

MAX_SHIPPED_FILE = 1 << 20  # bytes: larger files are not shipped to workers
MAX_SHIPPED_TOTAL = 256 << 20  # bytes of one shipped tree
SHIPPED_SUFFIXES = {".cu", ".cuh", ".cl", ".clh", ".h", ".hh", ".hpp", ".hxx", ".c", ".cc", ".cpp", ".cxx", ".inl",
                    ".inc", ".ipp", ".tpp", ".cl.h", ".json", ".toml", ".txt", ".cmake", ".in", ".mk", ""}
SKIPPED_DIRS = {".git", ".hg", ".svn", ".simu-cache", "node_modules", "__pycache__", ".venv", "venv"}


class AnalysisError(Exception):
    """A tree that could not be analysed at all (bad configuration, a failed clone on a worker)."""


def scan_tree(root: Path, paths: list[str], overrides: ScanOverrides, events: ScanEvents | None = None,
              empty_config: Path | None = None) -> ScanResult:
    """`simu scan` of ``paths`` (relative to ``root``; all of it when empty), reported relative to ``root``."""
    root = root.resolve()
    targets = [root / p for p in paths] or [root]
    found = find_config(targets[0])
    if found is not None and root not in found.resolve().parents and empty_config is not None:
        overrides = dataclasses.replace(overrides, config=str(empty_config))  # never a folder above the tree's
    try:
        options, config = resolve_options(targets, overrides)
    except (ConfigError, ScanError) as exc:
        raise AnalysisError(str(exc)) from None
    options.root = root
    return scan(options, config, events)


def stats_of(result: ScanResult) -> dict[str, Any]:
    return {"files": len(result.files), "kernels": sum(1 for _ in result.kernels()),
            "analysed": result.stats.analysed, "reused": result.stats.cache_hits,
            "seconds": round(result.stats.seconds, 3), "warnings": list(result.warnings)}


def empty_config_file(work: Path) -> Path:
    """An empty simu.toml: the configuration of a tree written outside any repository (so that no simu.toml
    above the work folder applies to it)."""
    path = work / "empty" / "simu.toml"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# simu mine: trees written out of a repository's history use no configuration above them\n")
    return path


# -- shipping a tree to a worker ----------------------------------------------------------------------------

def pack_tree(root: Path) -> dict[str, bytes]:
    """The source files of a tree (regular files, no symlinks, size-capped) by relative path."""
    out: dict[str, bytes] = {}
    total = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        for name in sorted(filenames):
            p = Path(dirpath, name)
            if p.suffix.lower() not in SHIPPED_SUFFIXES or p.is_symlink() or not p.is_file():
                continue
            try:
                size = p.stat().st_size
                if size > MAX_SHIPPED_FILE or total + size > MAX_SHIPPED_TOTAL:
                    continue
                out[p.relative_to(root).as_posix()] = p.read_bytes()
                total += size
            except OSError:
                continue
    return out


def unpack_tree(files: dict[str, bytes], dest: Path) -> None:
    shutil.rmtree(dest, ignore_errors=True)
    for rel, data in files.items():
        target = (dest / rel).resolve()
        if dest.resolve() not in target.parents:  # a name with '..' would leave the folder
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


# -- the worker side ----------------------------------------------------------------------------------------

class _Clock(ScanEvents):
    """A Dask task's share of its repository's time limit: the scan stops when it is spent."""

    def __init__(self, seconds: float | None):
        self.deadline = Deadline(seconds)
        self.out_of_time = False

    def file_done(self, f) -> None:
        self.check()

    def kernel_done(self, f, k) -> None:
        self.check()

    def check(self) -> None:
        if self.deadline.passed():
            self.out_of_time = True
            raise TimeLimit


def worker_work(job: dict[str, Any]) -> Path:
    """The worker's folder: the job's ``work``, else $SIMU_MINE_WORK, else one in the temporary folder."""
    return Path(job.get("work") or os.environ.get("SIMU_MINE_WORK") or Path(tempfile.gettempdir()) / "simu-mine")


def _materialise(job: dict[str, Any], work: Path) -> tuple[Path, Path | None, list[str]]:
    """(the tree to analyse, a folder to delete afterwards, the paths to analyse in it)."""
    tag = hashlib.sha1(repr(job.get("identity")).encode()).hexdigest()[:16]
    paths = list(job.get("paths", []))
    if job.get("files") is not None:
        dest = work / "trees" / tag
        unpack_tree(job["files"], dest)
        return dest, dest, paths
    if job.get("clone"):
        c = job["clone"]
        repo = work / "repos" / c["slug"]
        try:
            clone(c["url"], repo, bool(c.get("full")), c.get("commit", ""))
            if not paths:
                return repo, None, paths
            dest = work / "trees" / tag
            extract_tree(repo, c["commit"], dest)
            return dest, dest, [p for p in paths if (dest / p).is_file()]
        except GitError as exc:
            raise AnalysisError(str(exc)) from None
    return Path(job["root"]), None, paths


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """Analyse one job (see the module docstring) and return plain data: ``status`` (done | failed), ``reason``,
    ``files`` and ``kernels`` rows (:mod:`simu.mine.rows`), ``stats`` and the worker's ``simu_version``.
    Never raises for a bad tree: the failure is the answer."""
    start = time.perf_counter()
    work = worker_work(job)
    out: dict[str, Any] = {"snapshot_id": job.get("snapshot_id"), "simu_version": code_fingerprint(),
                           "status": "done", "reason": "", "files": [], "kernels": [], "stats": {}}
    cleanup = None
    try:
        root, cleanup, paths = _materialise(job, work)
        if job.get("paths") and not paths:
            out["reason"] = "none of the commit's kernel files exists here"
            out["stats"] = {"files": 0, "kernels": 0, "analysed": 0, "reused": 0}
            return out
        overrides = ScanOverrides(**{**job.get("overrides", {}), "jobs": int(job.get("jobs", 1)),
                                     "cache_dir": str(work / "scan"), "no_cache": False})
        clock = _Clock(job.get("seconds_left"))
        try:
            result = scan_tree(root, paths, overrides, clock, empty_config=empty_config_file(work))
        except TimeLimit:
            out["status"], out["reason"] = LIMITED, job.get("time_reason", "")
            return out
        root = root.resolve()
        out["files"] = [file_row(fr, root) for fr in result.files if fr.status != "pending"]
        out["kernels"] = [kernel_row(fr, k, root) for fr, k in result.kernels()
                          if k.status not in ("pending", "interrupted")]
        out["stats"] = stats_of(result)
        if clock.out_of_time:
            out["status"], out["reason"] = LIMITED, job.get("time_reason", "")
        elif result.interrupted:
            out["status"], out["reason"] = "partial", "interrupted on the worker"
    except AnalysisError as exc:
        out["status"], out["reason"] = "failed", str(exc)
    finally:
        if cleanup is not None:
            shutil.rmtree(cleanup, ignore_errors=True)
    out["stats"].setdefault("seconds", round(time.perf_counter() - start, 3))
    return out


__all__ = ["AnalysisError", "empty_config_file", "pack_tree", "run_job", "scan_tree", "stats_of", "unpack_tree"]
