"""Per-repository limits of `simu mine run`: the size of the clone (or folder) on disk, its number of kernel
files, and the wall time spent on one repository.  A repository past a limit is stored as ``limited`` with the
reason, and so is its snapshot; kernels not analysed by a time limit are left out.  A limited snapshot is not
tried again until the limit that stopped it is raised (the limit and its value are stored with it).
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

LIMITED = "limited"
KERNEL_SUFFIXES = {".cu", ".cuh", ".cl"}
SKIPPED_DIRS = {".hg", ".svn", ".simu-cache", "node_modules", "__pycache__", ".venv", "venv"}  # .git counts: on disk


@dataclass(frozen=True)
class Limits:
    max_repo_mb: float | None = 2000.0  # the clone (with its .git) or the folder, on disk
    max_kernel_files: int | None = 5000  # .cu, .cuh and .cl files of the tree
    max_repo_seconds: float | None = None  # wall time for one repository (all its snapshots); None: no limit


class TimeLimit(KeyboardInterrupt):
    """Raised from a scan's progress events when a repository's time is up: the scan stops like on Ctrl-C
    (what finished is kept, what did not is left), and the caller stores the snapshot as limited."""


def tree_bytes(root: Path, stop_above: float | None = None) -> int:
    """Bytes of the regular files under ``root`` (symlinks not followed); counting stops past ``stop_above``."""
    total = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            try:
                st = os.lstat(os.path.join(dirpath, name))
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                total += st.st_size
        if stop_above is not None and total > stop_above:
            break
    return total


def kernel_files(root: Path, stop_above: int | None = None) -> int:
    """Kernel files (``.cu``, ``.cuh``, ``.cl``) under ``root``, outside .git and tool folders."""
    n = 0
    for _dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS and d != ".git"]
        n += sum(1 for f in filenames if Path(f).suffix.lower() in KERNEL_SUFFIXES)
        if stop_above is not None and n > stop_above:
            break
    return n


def check_tree(root: Path, limits: Limits) -> tuple[str, str, float] | None:
    """(reason, limit name, its value) when the tree at ``root`` is past a size limit, else None."""
    if limits.max_repo_mb is not None:
        size = tree_bytes(root, limits.max_repo_mb * 1e6)
        if size > limits.max_repo_mb * 1e6:
            return (f"the repository takes more than {limits.max_repo_mb:g} MB on disk (--max-repo-mb)",
                    "max_repo_mb", limits.max_repo_mb)
    if limits.max_kernel_files is not None:
        n = kernel_files(root, limits.max_kernel_files)
        if n > limits.max_kernel_files:
            return (f"the repository has more than {limits.max_kernel_files} kernel files (--max-kernel-files)",
                    "max_kernel_files", limits.max_kernel_files)
    return None


def time_reason(limits: Limits) -> str:
    return f"the repository's time limit of {limits.max_repo_seconds:g} s was reached (--max-repo-seconds)"


def stored(name: str, value: float | None) -> str:
    """What a limited snapshot records: the limit that stopped it."""
    return json.dumps({"limit": name, "value": value}, sort_keys=True)


def raised(record: str | None, limits: Limits) -> bool:
    """Whether the limit recorded with a limited snapshot is higher now (or gone): then it is tried again."""
    try:
        d = json.loads(record or "")
        name, value = d["limit"], d["value"]
    except (ValueError, KeyError, TypeError):
        return True
    now = getattr(limits, name, None)
    return now is None or value is None or now > value


class Deadline:
    """A repository's wall-time limit, started when its mining starts."""

    def __init__(self, seconds: float | None):
        self.at = None if seconds is None else time.monotonic() + seconds

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def left(self) -> float | None:
        return None if self.at is None else max(0.0, self.at - time.monotonic())


__all__ = ["LIMITED", "Deadline", "Limits", "TimeLimit", "check_tree", "kernel_files", "raised", "stored",
           "time_reason", "tree_bytes"]
