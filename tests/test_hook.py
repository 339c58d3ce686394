"""The git pre-commit hook: install/uninstall, and a racy commit refused while a fixed one goes through."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
BIN = str(Path(sys.executable).parent)
FIXED = (EXAMPLES / "opencl" / "histogram.cl").read_text().replace(
    "bins[data[i] % 16] += 1;", "atomic_inc(&bins[data[i] % 16]);")


def sh(args, cwd, check=True):
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", "")}
    for var in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"):
        env.pop(var, None)
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


@pytest.fixture
def repo(tmp_path):
    r = tmp_path / "repo"
    r.mkdir()
    sh(["git", "init", "-q"], r)
    sh(["git", "config", "user.name", "simu test"], r)
    sh(["git", "config", "user.email", "simu@example.invalid"], r)
    sh(["git", "config", "commit.gpgsign", "false"], r)
    # small budget, one worker: the hook stays fast
    (r / "simu.toml").write_text("budget = 0.5\njobs = 1\n")
    (r / ".gitignore").write_text(".simu-cache/\n")
    (r / "README").write_text("x\n")
    sh(["git", "add", "."], r)
    sh(["git", "commit", "-q", "-m", "init"], r)
    return r


def simu(args, cwd, check=True):
    return sh([str(Path(BIN) / "simu"), *args], cwd, check)


def test_hook_blocks_a_race_and_lets_the_fix_through(repo):
    out = simu(["hook", "install"], repo).stdout
    hook = repo / ".git" / "hooks" / "pre-commit"
    assert hook.is_file() and os.access(hook, os.X_OK) and "installed" in out
    (repo / "kernels").mkdir()
    shutil.copy(EXAMPLES / "opencl" / "histogram.cl", repo / "kernels" / "histogram.cl")
    sh(["git", "add", "kernels/histogram.cl"], repo)
    refused = sh(["git", "commit", "-m", "racy histogram"], repo, check=False)
    assert refused.returncode != 0
    printed = refused.stdout + refused.stderr
    assert "race" in printed and "kernels/histogram.cl:10" in printed
    assert "racy histogram" not in sh(["git", "log", "--oneline"], repo).stdout

    (repo / "kernels" / "histogram.cl").write_text(FIXED)
    sh(["git", "add", "kernels/histogram.cl"], repo)
    done = sh(["git", "commit", "-m", "atomic histogram"], repo, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "atomic histogram" in sh(["git", "log", "--oneline"], repo).stdout


def test_changed_follows_headers(repo):
    (repo / "inc").mkdir()
    (repo / "inc" / "bins.h").write_text("#define NBINS 16\n")
    kernel = FIXED.replace("__kernel", '#include "bins.h"\n__kernel', 1)
    (repo / "a.cl").write_text(kernel)
    (repo / "b.cl").write_text(FIXED)
    sh(["git", "add", "."], repo)
    sh(["git", "commit", "-q", "-m", "two kernels"], repo)
    (repo / "inc" / "bins.h").write_text("#define NBINS 32\n")
    sh(["git", "add", "inc/bins.h"], repo)
    r = simu(["scan", "--changed", "--format", "json"], repo)
    import json

    files = [f["path"] for f in json.loads(r.stdout)["files"]]
    assert files == ["a.cl"]
    # nothing staged: nothing to do, success
    sh(["git", "commit", "-q", "-m", "header"], repo)
    r = simu(["scan", "--changed"], repo)
    assert "no staged kernel file" in r.stdout


def test_foreign_hook_is_respected(repo):
    from simu.cli.hook import HookError, install, uninstall

    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\necho mine\n")
    r = simu(["hook", "install"], repo, check=False)  # the command: exit 2 and a message
    assert r.returncode == 2 and "--force" in r.stderr + r.stdout
    assert hook.read_text() == "#!/bin/sh\necho mine\n"
    with pytest.raises(HookError, match="not simu's hook"):
        uninstall(repo)
    install(repo, force=True)
    assert "simu scan --changed" in hook.read_text()
    assert (hook.parent / "pre-commit.simu-backup").read_text() == "#!/bin/sh\necho mine\n"
    install(repo)  # re-installing over our own hook needs no --force
    uninstall(repo)
    assert hook.read_text() == "#!/bin/sh\necho mine\n"  # the previous hook is back


def test_pre_commit_framework_manifest():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    entries = dict(line.strip().lstrip("- ").split(": ", 1) for line in text.splitlines()
                   if line.strip() and not line.lstrip().startswith("#"))
    assert entries["id"] == "simu"
    assert entries["language"] == "python"
    assert entries["entry"] == "simu scan --changed"
    assert entries["pass_filenames"] == "false"
    pattern = entries["files"].strip("'\"")
    import re

    for name in ("a.cu", "b.cuh", "c.cl", "d.h", "e.hpp"):
        assert re.search(pattern, name), name
    assert not re.search(pattern, "x.py")
