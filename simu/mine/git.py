"""The git command line, run so that nothing of a mined repository executes.

simu mines through ``git`` in a subprocess, not a library binding: git is installed wherever
repositories are, it does shallow and partial clones, and it needs no native build (pygit2) or
large dependency (PyDriller).  Every call disables hooks, fsmonitor, LFS smudging and symlinks
(a symlink is checked out as a small file holding its target, so no path leads out of a clone),
never prompts for credentials, and never recurses into submodules.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

SAFE_CONFIG = ("core.hooksPath=/dev/null", "core.symlinks=false", "core.fsmonitor=false",
               "protocol.ext.allow=never", "submodule.recurse=false", "advice.detachedHead=false")
GIT_TIMEOUT = 1800.0  # seconds one git command may take (a clone of a large repository)
MAX_FILE_BYTES = 4 << 20  # files of a tree written out of the history larger than this are left out


class GitError(Exception):
    """A git command that failed; the message is one line."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "SSH_ASKPASS": "true", "GIT_LFS_SKIP_SMUDGE": "1",
                "LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1"})
    return env


def git(args: list[str], cwd: Path | None = None, timeout: float = GIT_TIMEOUT, binary: bool = False):
    """Run ``git args`` (safe configuration first); its stdout, or :class:`GitError` with git's first error line."""
    cmd = ["git"]
    for c in SAFE_CONFIG:
        cmd += ["-c", c]
    try:
        proc = subprocess.run(cmd + list(args), cwd=cwd, capture_output=True, timeout=timeout, env=_env(),
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} ran past {timeout:g} s") from None
    if proc.returncode != 0:
        lines = [x for x in proc.stderr.decode(errors="replace").splitlines() if x.strip()]
        first = next((x for x in lines if x.startswith(("fatal", "error"))), lines[-1] if lines else "")
        raise GitError(f"git {args[0]} failed: {first.strip() or f'exit code {proc.returncode}'}")
    return proc.stdout if binary else proc.stdout.decode(errors="replace")


def git_dir_kind(path: Path) -> str:
    """``"worktree"`` when ``path`` is the top of a git work tree, ``"bare"`` for a bare repository, else ``""``
    (a plain folder, or a folder inside a repository: mined as a folder)."""
    try:
        if git(["rev-parse", "--is-bare-repository"], cwd=path, timeout=60).strip() == "true":
            return "bare"
        top = git(["rev-parse", "--show-toplevel"], cwd=path, timeout=60).strip()
    except GitError:
        return ""
    return "worktree" if top and Path(top).resolve() == path.resolve() else ""


def head_commit(repo: Path, rev: str = "HEAD") -> str:
    return git(["rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=repo, timeout=60).strip()


def remote_head(url: str) -> str:
    """The commit a remote's HEAD names, without cloning."""
    out = git(["ls-remote", "--", url, "HEAD"], timeout=300)
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1] == "HEAD":
            return parts[0]
    raise GitError(f"git ls-remote failed: {url} has no HEAD")


def clone(url: str, dest: Path, full: bool, commit: str = "") -> None:
    """Clone ``url`` into ``dest`` (depth 1 unless ``full``), or bring an existing clone to ``commit`` / the remote
    head; a clone that cannot be updated is made again."""
    if (dest / ".git").is_dir():
        try:
            _update(dest, full, commit)
            return
        except GitError:
            shutil.rmtree(dest, ignore_errors=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    shutil.rmtree(part, ignore_errors=True)
    depth = [] if full else ["--depth", "1"]
    git(["clone", "--quiet", "--no-tags", "--single-branch", *depth, "--", url, str(part)])
    part.rename(dest)
    if commit and head_commit(dest) != commit:
        _update(dest, full, commit)


def _update(dest: Path, full: bool, commit: str) -> None:
    shallow = git(["rev-parse", "--is-shallow-repository"], cwd=dest, timeout=60).strip() == "true"
    if commit and not (full and shallow) and _has(dest, commit):
        git(["checkout", "--quiet", "--force", "--detach", commit], cwd=dest)
        return
    depth = [] if full else ["--depth", "1"]
    if full and shallow:
        git(["fetch", "--quiet", "--unshallow", "--no-tags", "origin"], cwd=dest)
    elif commit:
        git(["fetch", "--quiet", "--no-tags", *depth, "origin", commit], cwd=dest)
    else:
        git(["fetch", "--quiet", "--no-tags", *depth, "origin", "HEAD"], cwd=dest)
    git(["checkout", "--quiet", "--force", "--detach", commit or "FETCH_HEAD"], cwd=dest)


def _has(repo: Path, commit: str) -> bool:
    try:
        head_commit(repo, commit)
        return True
    except GitError:
        return False


def extract_tree(repo: Path, commit: str, dest: Path, max_file_bytes: int = MAX_FILE_BYTES) -> None:
    """Write the files of ``commit`` into ``dest`` through ``git archive`` (no checkout, no hook, no filter):
    regular files and folders only, none larger than ``max_file_bytes``, none outside ``dest``."""
    data = git(["archive", "--format=tar", commit], cwd=repo, binary=True)
    part = dest.with_name(dest.name + ".part")
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)

    def keep(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
        if not (member.isfile() or member.isdir()) or member.size > max_file_bytes:
            return None
        try:
            return tarfile.data_filter(member, path)
        except tarfile.FilterError:
            return None

    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(part, filter=keep)
        else:  # a Python before 3.11.4 (Debian 12's 3.11.2) has no extraction filters: the same checks by hand
            for member in _safe_members(tar, part, max_file_bytes):
                tar.extract(member, part, set_attrs=False)
    shutil.rmtree(dest, ignore_errors=True)
    part.rename(dest)


def _safe_members(tar: tarfile.TarFile, dest: Path, max_file_bytes: int) -> list[tarfile.TarInfo]:
    """Regular files and folders of at most ``max_file_bytes`` whose path stays inside ``dest``."""
    root = os.path.realpath(dest)
    kept = []
    for member in tar.getmembers():
        if not (member.isfile() or member.isdir()) or member.size > max_file_bytes or os.path.isabs(member.name):
            continue
        if os.path.commonpath([root, os.path.realpath(os.path.join(root, member.name))]) == root:
            kept.append(member)
    return kept


__all__ = ["GitError", "clone", "extract_tree", "git", "git_dir_kind", "head_commit", "remote_head"]
