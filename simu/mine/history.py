"""History mode: the commits that may fix synchronization bugs, the kernel files they change, and how the
findings before and after a commit match up.

A commit is kept when its message matches the keywords (a Python regular expression, case-insensitive) and
its diff touches GPU code: a ``.cl`` file, or an added or removed line with a CUDA/OpenCL construct
(:data:`GPU_CODE`).  Its changed kernel files (``.cu``, ``.cuh``, ``.cl``, and headers whose changed lines hold
GPU code) are analysed at the parent and at the commit; merges and root commits are skipped.

Findings match across the two versions on :func:`simu.mine.rows.match_key` (kind, kernel, variable, space,
files and source text of both locations; never line numbers), as multisets: a finding at the parent with no
match after the commit was *fixed*, one after the commit with no match at the parent was *introduced*, a
matched pair is *unchanged*.  A finding whose kernel was not analysed on the other side (the kernel was
removed or renamed, or its analysis failed or timed out there) is *unknown*.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from simu.mine.git import git

DEFAULT_KEYWORDS = r"fix|error|sync|race|barrier|deadlock"
GPU_CODE = re.compile(r"__global__|__device__|__shared__|__syncthreads|__syncwarp|__threadfence|__kernel\b"
                      r"|\b__\w+_sync\s*\(|\batomic(?:[A-Z]|_)\w*\s*\(|\b(?:barrier|mem_fence)\s*\("
                      r"|\bcuda\w+\s*\(|<<<|>>>")
KERNEL_SUFFIXES = {".cu", ".cuh", ".cl"}
HEADER_SUFFIXES = {".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".clh"}
FIXED, INTRODUCED, UNCHANGED, UNKNOWN = "fixed", "introduced", "unchanged", "unknown"
ANALYSED = ("analysed", "incomplete")


@dataclass
class Commit:
    sha: str
    parent: str
    authored: int
    subject: str
    message: str
    files: list[str] = field(default_factory=list)  # every file the diff touches
    paths: list[str] = field(default_factory=list)  # the kernel files analysed on both sides

    def as_row(self) -> dict[str, Any]:
        return {"sha": self.sha, "parent": self.parent, "authored": self.authored, "subject": self.subject,
                "message": self.message, "files": self.files, "paths": self.paths}


def walk(repo: Path, keywords: str = DEFAULT_KEYWORDS, since: str | None = None,
         max_commits: int | None = None) -> list[Commit]:
    """The kept commits of ``repo``'s HEAD history, newest first; at most ``max_commits`` with kernel files."""
    pattern = re.compile(keywords, re.I)
    args = ["log", "--no-merges", "--format=%H%x1f%P%x1f%at%x1f%B%x1e"]
    if since:
        args.append(f"--since={since}")
    out: list[Commit] = []
    for record in git(args + ["HEAD", "--"], cwd=repo).split("\x1e"):
        parts = record.strip("\n").split("\x1f")
        if len(parts) != 4:
            continue
        sha, parents, authored, message = parts
        parents_list = parents.split()
        if len(parents_list) != 1 or not pattern.search(message):
            continue
        files, paths = changed_gpu_files(repo, parents_list[0], sha)
        if files is None:
            continue
        out.append(Commit(sha, parents_list[0], int(authored or 0), message.strip().split("\n", 1)[0],
                          message.strip(), files, paths))
        if max_commits is not None and sum(1 for c in out if c.paths) >= max_commits:
            break
    return out


def changed_gpu_files(repo: Path, parent: str, sha: str) -> tuple[list[str] | None, list[str]]:
    """(every changed file, or None when the diff touches no GPU code; the kernel files to analyse)."""
    diff = git(["diff-tree", "-r", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames",
                parent, sha], cwd=repo)
    touched: dict[str, bool] = {}  # file -> whether its changed lines hold GPU code
    current = ""
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            current = ""
        elif line.startswith(("--- a/", "+++ b/")):
            current = line[6:]
            touched.setdefault(current, False)
        elif current and line[:1] in "+-" and not line.startswith(("+++", "---")) and GPU_CODE.search(line):
            touched[current] = True
    touched.pop("", None)
    gpu = any(Path(f).suffix.lower() == ".cl" for f in touched) or any(touched.values())
    if not gpu:
        return None, []
    paths = [f for f, code in touched.items()
             if Path(f).suffix.lower() in KERNEL_SUFFIXES or (code and Path(f).suffix.lower() in HEADER_SUFFIXES)]
    return sorted(touched), sorted(paths)


def classify(before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]],
             analysed_before: set[tuple[str, str]], analysed_after: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """The change rows of one commit: every finding at the parent and after the commit, classified (see the
    module docstring).  ``analysed_*``: the (file, kernel) pairs analysed on each side."""
    groups: dict[str, tuple[list, list]] = {}
    for side, rows in ((0, before), (1, after)):
        for r in rows:
            groups.setdefault(r["match_key"], ([], []))[side].append(r)
    out: list[dict[str, Any]] = []
    for key in sorted(groups):
        p, c = groups[key]
        n = min(len(p), len(c))
        out += [_change(UNCHANGED, key, a, b) for a, b in zip(p[:n], c[:n], strict=True)]
        for a in p[n:]:
            out.append(_change(FIXED if _where(a) in analysed_after else UNKNOWN, key, a, None))
        for b in c[n:]:
            out.append(_change(INTRODUCED if _where(b) in analysed_before else UNKNOWN, key, None, b))
    return out


def _where(row: Mapping[str, Any]) -> tuple[str, str]:
    return (row["kernel_file"], row["kernel_name"])


def _change(cls: str, key: str, a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> dict[str, Any]:
    some = a if a is not None else b
    assert some is not None
    return {"class": cls, "match_key": key, "kind": some["kind"], "severity": some["severity"],
            "kernel": some["kernel"], "variable": some["variable"], "file": some["first_file"],
            "parent_line": a["first_line"] if a is not None else None,
            "commit_line": b["first_line"] if b is not None else None,
            "parent_finding_id": a["id"] if a is not None else None,
            "commit_finding_id": b["id"] if b is not None else None}


__all__ = ["ANALYSED", "DEFAULT_KEYWORDS", "FIXED", "GPU_CODE", "INTRODUCED", "UNCHANGED", "UNKNOWN", "Commit",
           "changed_gpu_files", "classify", "walk"]
