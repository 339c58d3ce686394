"""A `simu` command handed to the resident checker: C modules of the standard library only (``_socket``,
``_signal``, ``marshal``: ``socket``, ``signal`` and ``json`` import ``enum`` and ``re``, 10 ms of a command that
costs 35), so that it costs little more than a bare Python start.

The worker the server forks runs the command with this process's standard streams, folder, environment and
umask; signals that would stop this process (Ctrl-C, a hook's SIGTERM, a closed terminal) are passed on to it,
and this process ends as it ended: its exit status, or the same signal.
"""

from __future__ import annotations

import _signal
import _socket
import os
import sys

from simu.resident import address, wire

FORWARDED = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP, _signal.SIGQUIT)
_STREAMS = ("stdin", "stdout", "stderr")


def request(args: list[str]) -> dict:
    """What the worker needs to become this command."""
    umask = os.umask(0)
    os.umask(umask)
    streams = [getattr(sys, name) for name in _STREAMS]
    return {"argv": list(args), "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask,
            "streams": [[getattr(s, "encoding", None), getattr(s, "errors", None)] for s in streams]}


def forward(args: list[str]) -> int | None:
    """Run ``simu ARGS`` in the resident checker and return its exit status, or None where no checker of this
    code answers (the caller then runs the command itself: nothing has run yet)."""
    if not address.enabled():
        return None
    path = address.socket_path()
    if not _usable(path):
        return None
    try:
        fds = [s.fileno() for s in (sys.stdin, sys.stdout, sys.stderr)]
    except (AttributeError, ValueError, OSError):
        return None  # a stream without a descriptor (closed, replaced): nothing to hand over
    relay = _Relay()
    old = {sig: _signal.signal(sig, relay) for sig in FORWARDED}
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        try:
            sock.connect(path)
            wire.send(sock, request(args), fds)
            first = wire.receive(sock)
        except (OSError, ValueError):
            first = None
        if first is None or "pid" not in first:  # a checker of other code, stopping, or refusing
            return 128 + relay.pending[0] if relay.pending else None  # interrupted first, else run here
        relay.start(int(first["pid"]))
        return _wait(sock)
    finally:
        for sig, handler in old.items():
            _signal.signal(sig, handler)
        sock.close()


class _Relay:
    """The forwarded signals' handler: each is passed on to the worker, or kept until its pid is known (a Ctrl-C
    at the very start reaches the command too, instead of leaving it running without its caller)."""

    def __init__(self):
        self.pid: int | None = None
        self.pending: list[int] = []

    def __call__(self, signum, frame) -> None:
        if self.pid is None:
            self.pending.append(signum)
        else:
            _kill(self.pid, signum)

    def start(self, pid: int) -> None:
        self.pid = pid
        for signum in self.pending:
            _kill(pid, signum)


def _kill(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except OSError:
        pass


def ask(path: str, control: str) -> dict | None:
    """The checker's answer to a control message (``status``, ``stop``), or None where none answers at ``path``."""
    if not _usable(path):
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(10)
        sock.connect(path)
        wire.send(sock, {"control": control})
        return wire.receive(sock)
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


def _usable(path: str) -> bool:
    """A socket is there, in a folder only this user can open (one anybody could have put there is never used)."""
    return os.path.exists(path) and address.private(os.path.dirname(path))


def _wait(sock) -> int:
    try:
        status = wire.receive(sock)
    except (OSError, ValueError):
        status = None
    if status is None:
        print("simu: the resident checker stopped before the command ended (`simu serve --status`)",
              file=sys.stderr)
        return 2
    if "signal" in status:
        signum = int(status["signal"])
        if signum in FORWARDED:  # end as the command did, so that a shell or hook sees the same
            _signal.signal(signum, _signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        return 128 + signum
    return int(status.get("exit", 2))
