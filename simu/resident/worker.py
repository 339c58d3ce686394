"""The forked worker becoming the client's command: its streams, folder, environment, umask and arguments."""

from __future__ import annotations

import atexit
import io
import locale
import os
import signal
import sys
import traceback
from typing import Callable

from simu.resident.client import FORWARDED


def become(request: dict, fds: list[int]) -> None:
    """Take on the client's process state; ``fds`` are its stdin, stdout and stderr."""
    signal.set_wakeup_fd(-1)
    for sig in (*FORWARDED, signal.SIGCHLD):  # as a new Python has them
        signal.signal(sig, signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL)
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.umask(int(request["umask"]))
    try:
        locale.setlocale(locale.LC_CTYPE, "")
    except locale.Error:
        pass
    streams = request.get("streams") or [[None, None]] * 3
    sys.stdin = _text_stream(0, "r", *streams[0])
    sys.stdout = _text_stream(1, "w", *streams[1])
    sys.stderr = _text_stream(2, "w", *streams[2], line=True)
    sys.argv = ["simu", *request["argv"]]


def _text_stream(fd: int, mode: str, encoding: str | None, errors: str | None, line: bool = False):
    raw = io.FileIO(fd, mode, closefd=False)
    tty = raw.isatty()
    binary = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    return io.TextIOWrapper(binary, encoding=encoding, errors=errors, line_buffering=line or tty,
                            write_through=line)


def run(command: Callable[[list[str]], int], args: list[str]) -> int:
    """``command(args)``'s exit status, after the exit functions it registered ran and its streams were flushed;
    an exception is reported as Python would and is status 1."""
    try:
        code = command(args)
    except SystemExit as exc:
        code = exit_status(exc.code)
    except KeyboardInterrupt:
        code = 130
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    return code


def exit_status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
