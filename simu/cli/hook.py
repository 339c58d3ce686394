"""`simu hook install|uninstall`: a git pre-commit hook that runs `simu scan --changed`.

The hook file carries a marker line so that simu only ever replaces or removes its own hook; a
foreign hook is left alone unless ``--force`` (it is then kept as ``pre-commit.simu-backup`` and
restored by ``uninstall``).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from simu.cli.common import console, fail

MARKER = "# simu-pre-commit-hook: managed by `simu hook install`; remove with `simu hook uninstall`"
BACKUP = "pre-commit.simu-backup"


class HookError(Exception):
    """A refusal or failure with a one-line message (exit code 2)."""


def hooks_dir(cwd: Path) -> Path:
    """The repository's hooks folder (honours core.hooksPath and worktrees)."""
    proc = subprocess.run(["git", "rev-parse", "--git-path", "hooks"], cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise HookError(f"not inside a git repository: {cwd}")
    path = Path(proc.stdout.strip())
    return path if path.is_absolute() else (cwd / path).resolve()


def hook_script(python: str | None = None) -> str:
    """The pre-commit script: `simu` from PATH, else the interpreter that installed the hook."""
    python = python or sys.executable
    return f"""#!/bin/sh
{MARKER}
# Blocks a commit whose staged kernels (or kernels including staged headers) have findings at or
# above the configured fail-on severity (default: error). Bypass once with `git commit --no-verify`.
if command -v simu >/dev/null 2>&1; then
    simu scan --changed
else
    "{python}" -m simu scan --changed
fi
status=$?
if [ "$status" -ne 0 ]; then
    echo "simu: commit blocked (simu scan --changed exited $status); fix the findings above \
or commit with --no-verify" >&2
fi
exit "$status"
"""


def is_simu_hook(path: Path) -> bool:
    try:
        return MARKER in path.read_text(errors="replace")
    except OSError:
        return False


def install(cwd: Path, force: bool = False) -> str:
    """Write the hook; returns a message. Raises :class:`HookError` on a foreign hook without ``force``."""
    folder = hooks_dir(cwd)
    folder.mkdir(parents=True, exist_ok=True)
    hook = folder / "pre-commit"
    note = ""
    if hook.exists() and not is_simu_hook(hook):
        if not force:
            raise HookError(f"{hook} exists and is not simu's hook; use --force to replace it "
                            f"(it is kept as {BACKUP})")
        os.replace(hook, folder / BACKUP)
        note = f" (the previous hook is kept as {folder / BACKUP})"
    hook.write_text(hook_script())
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return f"installed {hook}{note}"


def uninstall(cwd: Path) -> str:
    folder = hooks_dir(cwd)
    hook = folder / "pre-commit"
    if not hook.exists():
        return f"no pre-commit hook in {folder}"
    if not is_simu_hook(hook):
        raise HookError(f"{hook} is not simu's hook; leaving it alone")
    hook.unlink()
    backup = folder / BACKUP
    if backup.exists():
        os.replace(backup, hook)
        return f"removed simu's hook; restored the previous hook {hook}"
    return f"removed {hook}"


def install_cmd(force: Annotated[bool, typer.Option("--force", metavar="",
                                                    help="Replace a hook that is not simu's.")] = False) -> None:
    """Write .git/hooks/pre-commit running `simu scan --changed`."""
    try:
        console.print(install(Path.cwd(), force), highlight=False)
    except HookError as exc:
        fail(str(exc))


def uninstall_cmd() -> None:
    """Remove simu's pre-commit hook (never a foreign one)."""
    try:
        console.print(uninstall(Path.cwd()), highlight=False)
    except HookError as exc:
        fail(str(exc))
