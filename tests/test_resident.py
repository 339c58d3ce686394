"""The resident checker (`simu serve`): a command it answers is the command run alone — output, exit status,
folder, environment — and a caller's signal or disappearance reaches the worker running it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simu.resident import address, client
from simu.resident.server import Snapshot

RACY = """
__kernel void racy(__global int *out) {
    __local int tile[64];
    tile[get_local_id(0)] = (int)get_local_id(0);
    out[get_global_id(0)] = tile[(get_local_id(0) + 1) % 64];
}
"""

SPIN = """
__kernel void spin(__global int *out, int n) {
    int i = 0;
    while (out[0] != n) { i++; }
    out[get_global_id(0)] = i;
}
"""

RACY_LAUNCH = ["--kernel", "racy", "--grid", "1", "--block", "64", "--buffer", "out=int32:64", "--format", "json"]


def _simu(args: list[str], env: dict, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simu", *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=300, **kwargs)


def _status(env: dict, cwd: Path) -> dict:
    """The checker's own account (asked in this process: a `simu serve --status` process per poll is slow)."""
    path = os.path.join(env["XDG_RUNTIME_DIR"], "simu", os.path.basename(address.socket_path()))
    reply = client.ask(path, "status")
    assert reply is not None, "the resident checker answers"
    return {"served": reply["served"], "running": reply["workers"], "abandoned": reply["abandoned"],
            "server": reply["server"]}


@pytest.fixture(scope="module")
def resident(tmp_path_factory):
    """A resident checker in a folder of the test's own; the environment that reaches it, and a work folder."""
    work = tmp_path_factory.mktemp("resident")
    runtime = Path("/tmp") / f"simu-test-{os.getpid()}"  # a socket's path must stay short
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), SIMU_RESIDENT="1", XDG_CACHE_HOME=str(work / "cache"))
    started = _simu(["serve", "--detach", "--idle", "10"], env, work)
    assert started.returncode == 0, started.stderr
    (work / "racy.cl").write_text(RACY)
    (work / "spin.cl").write_text(SPIN)
    yield env, work
    stopped = _simu(["serve", "--stop"], env, work)
    assert stopped.returncode == 0 and "stopping" in stopped.stdout, stopped.stderr
    shutil.rmtree(runtime, ignore_errors=True)


def _findings(stdout: str) -> list:
    report = json.loads(stdout)
    kernel = report["files"][0]["kernels"][0]
    return [kernel["status"], [(f["kind"], f["severity"], f.get("message")) for f in kernel["findings"]]]


def test_a_command_the_resident_checker_answers_is_the_command_run_alone(resident):
    env, work = resident
    before = _status(env, work)["served"]
    served = _simu(["check", "racy.cl", *RACY_LAUNCH], env, work)
    alone = _simu(["check", "racy.cl", *RACY_LAUNCH], dict(env, SIMU_RESIDENT="0"), work)
    assert _status(env, work)["served"] == before + 1
    assert served.returncode == alone.returncode == 1  # an error finding
    assert _findings(served.stdout) == _findings(alone.stdout)
    assert _findings(served.stdout)[1], "the race is found"


def test_the_callers_folder_environment_and_streams_are_the_commands(resident, tmp_path):
    env, work = resident
    env = dict(env, XDG_CACHE_HOME=str(tmp_path / "elsewhere"))
    out_file = tmp_path / "report.json"
    with open(out_file, "w") as fh:  # a file, not a pipe: the worker writes to the caller's own descriptor
        proc = subprocess.run([sys.executable, "-m", "simu", "check", "racy.cl", *RACY_LAUNCH], env=env, cwd=work,
                              stdout=fh, stderr=subprocess.PIPE, text=True, timeout=300)
    assert proc.returncode == 1
    assert _findings(out_file.read_text())[1]
    # the compiled-file cache of a file outside a repository goes to the caller's $XDG_CACHE_HOME
    assert (tmp_path / "elsewhere" / "simu" / "compiled" / "compiled.sqlite3").is_file()
    missing = _simu(["check", "missing.cl"], env, work)
    assert missing.returncode == 2
    assert missing.stderr.strip() == "error: no such file: missing.cl"


def test_the_status_names_the_server_that_runs(resident):
    """`simu serve --status` names the detached server's pid, not that of the command that started it."""
    env, work = resident
    pid = _status(env, work)["server"]
    os.kill(pid, 0)  # it runs
    assert "serve" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")


def _wait_running(env: dict, work: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while _status(env, work)["running"] != count:
        assert time.monotonic() < deadline, f"the checker never had {count} command(s) running"
        time.sleep(0.2)


SPIN_LAUNCH = ["check", "spin.cl", "--kernel", "spin", "--grid", "1", "--block", "32", "--buffer", "out=int32:32",
               "--arg", "n=7", "--budget", "60s"]


def test_ctrl_c_reaches_the_worker_and_the_caller_ends_as_it_did(resident):
    env, work = resident
    before = _status(env, work)["abandoned"]
    proc = subprocess.Popen([sys.executable, "-m", "simu", *SPIN_LAUNCH], env=env, cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_running(env, work, 1)
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err  # what Ctrl-C makes of `simu check` run alone
    _wait_running(env, work, 0)
    assert _status(env, work)["abandoned"] == before  # the command itself was interrupted, and said how it ended


def test_a_caller_that_goes_away_takes_its_worker_with_it(resident):
    env, work = resident
    before = _status(env, work)["abandoned"]
    proc = subprocess.Popen([sys.executable, "-m", "simu", *SPIN_LAUNCH], env=env, cwd=work,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_running(env, work, 1)
    finally:
        proc.kill()  # SIGKILL: nothing of the caller's is left to pass a signal on
        proc.wait(timeout=60)
    _wait_running(env, work, 0)
    assert _status(env, work)["abandoned"] == before + 1  # the server stopped it, not its own time limit


def test_without_a_checker_a_command_runs_itself(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setenv("SIMU_RESIDENT", "1")
    assert client.forward(["--version"]) is None  # no socket: nothing ran, the caller runs it


def test_a_folder_others_can_open_is_never_used(tmp_path, monkeypatch):
    shared = tmp_path / "simu"
    shared.mkdir(mode=0o700)
    assert address.private(str(shared))
    shared.chmod(0o777)
    assert not address.private(str(shared))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setenv("SIMU_RESIDENT", "1")
    Path(address.socket_path()).touch()  # whatever lies there, it is never connected to
    assert client.forward(["--version"]) is None


def test_an_edited_added_or_removed_source_shows_in_the_snapshot(tmp_path):
    (tmp_path / "pkg").mkdir()
    source = tmp_path / "pkg" / "a.py"
    source.write_text("x = 1\n")
    snap = Snapshot.take(str(tmp_path))
    assert snap.unchanged()
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))
    assert not snap.unchanged()
    snap = Snapshot.take(str(tmp_path))
    (tmp_path / "pkg" / "b.py").write_text("y = 2\n")
    assert not snap.unchanged()
    snap = Snapshot.take(str(tmp_path))
    (tmp_path / "pkg" / "b.py").unlink()
    assert not snap.unchanged()


def test_python_writing_its_bytecode_is_no_change_of_the_sources(tmp_path):
    """An editable install's first imports write ``__pycache__`` into simu's folders, changing their times: the
    checker must keep answering (it stopped at its first command, and every test of it failed, in a fresh clone)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    snap = Snapshot.take(str(tmp_path))
    cache = tmp_path / "pkg" / "__pycache__"
    cache.mkdir()
    (cache / "a.cpython-311.pyc").write_bytes(b"\0" * 16)
    os.utime(tmp_path / "pkg", ns=(0, 10**9))
    assert snap.unchanged()
