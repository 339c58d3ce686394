"""The resident checker's loop: accept a command, fork a worker that becomes it, report how the worker ended.

One thread, a selector over the listening socket, each waiting client's connection and a wake-up pipe for
SIGCHLD.  A client that goes away (killed, its terminal closed) takes its worker with it (SIGTERM).  The server
answers only while simu's sources are those it imported (:class:`Snapshot`): after an edit it refuses the command —
the client then runs it itself — and stops.  It stops too after ``idle`` seconds without a command or worker.
"""

from __future__ import annotations

import gc
import os
import selectors
import signal
import socket
import struct
import time
from dataclasses import dataclass, field
from typing import Callable

import simu
from simu.resident import address, wire
from simu.resident.client import FORWARDED
from simu.resident.worker import become, run

Command = Callable[[list[str]], int]


@dataclass
class Snapshot:
    """Sizes and times of simu's source files, and the names in each of its folders (a file added or removed
    shows).  Folders' own times are not kept: Python writing ``__pycache__`` into a package changes them."""

    root: str
    stamps: dict[str, tuple[int, int]] = field(default_factory=dict)

    @classmethod
    def take(cls, root: str | None = None) -> Snapshot:
        root = root or os.path.dirname(os.path.abspath(simu.__file__))
        stamps: dict[str, tuple[int, int]] = {}
        _stamp(root, stamps)
        return cls(root, stamps)

    def unchanged(self) -> bool:
        return Snapshot.take(self.root).stamps == self.stamps


def _stamp(folder: str, stamps: dict[str, tuple[int, int]]) -> None:
    """Each file below ``folder`` (``__pycache__`` left out) by size and modification time; a folder by the
    number of its entries (its name is then a key too, so that an emptied folder still differs)."""
    try:
        entries = [e for e in os.scandir(folder) if e.name != "__pycache__"]
    except OSError:
        return
    stamps[folder] = (len(entries), 0)
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                _stamp(entry.path, stamps)
            else:
                st = entry.stat()
                stamps[entry.path] = (st.st_size, st.st_mtime_ns)
        except OSError:
            continue


@dataclass
class Status:
    pid: int
    started: float
    served: int = 0
    workers: int = 0
    abandoned: int = 0  # workers stopped because their caller went away

    def as_dict(self) -> dict:
        return {"server": self.pid, "started": self.started, "served": self.served, "workers": self.workers,
                "abandoned": self.abandoned}


class Server:
    def __init__(self, command: Command, idle_seconds: float, path: str | None = None):
        self.command = command
        self.idle_seconds = idle_seconds
        self.path = path or address.socket_path()
        self.snapshot = Snapshot.take()
        self.status = Status(os.getpid(), time.time())
        self.workers: dict[int, socket.socket] = {}
        self.selector = selectors.DefaultSelector()
        self.stopping = False
        self.bound: int | None = None  # the socket file's inode: only the server that made it removes it

    def bind(self) -> socket.socket:
        """Listen at :attr:`path`; OSError where its folder is not this user's alone or another server answers."""
        folder = os.path.dirname(self.path)
        if not address.private(folder, create=True):
            raise OSError(f"{folder} is not this user's alone (owned by another user, or open to others)")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(self.path)
            raise OSError(f"a resident checker already answers at {self.path}")
        except (ConnectionRefusedError, FileNotFoundError):
            pass
        finally:
            probe.close()
        if os.path.exists(self.path):
            os.unlink(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.path)
        listener.listen(64)
        self.bound = os.stat(self.path).st_ino
        return listener

    def serve(self, listener: socket.socket) -> None:
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: self._stop())
        self.selector.register(listener, selectors.EVENT_READ, "accept")
        self.selector.register(wake_r, selectors.EVENT_READ, "wake")
        gc.freeze()  # what the server imported stays shared with its workers instead of copied by the collector
        last = time.monotonic()
        try:
            while not (self.stopping and not self.workers):
                for key, _ in self.selector.select(timeout=1.0):
                    if key.data == "accept":
                        last = time.monotonic()
                        self._accept(listener, (listener, wake_r, wake_w))
                    elif key.data == "wake":
                        _drain(wake_r)
                    else:
                        self._client_gone(key.fileobj, key.data)
                self._reap()
                if self.workers:
                    last = time.monotonic()
                elif time.monotonic() - last > self.idle_seconds:
                    self._stop()
        finally:
            signal.set_wakeup_fd(-1)
            self._unlink()
            listener.close()
            for fd in (wake_r, wake_w):
                os.close(fd)

    def _accept(self, listener: socket.socket, own: tuple) -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        if not _same_user(conn):
            conn.close()
            return
        conn.settimeout(10)
        fds: list[int] = []
        try:
            message, fds = wire.receive_request(conn)
            if message is None:
                conn.close()
                return
            control = message.get("control")
            if control:
                self._control(conn, control)
            elif self.stopping or not self.snapshot.unchanged():
                wire.send(conn, {"refused": "stopping" if self.stopping else "simu's sources changed"})
                conn.close()
                self._stop()
            else:
                self._fork(conn, message, fds, own)
        except (OSError, ValueError):
            conn.close()
        finally:
            for fd in fds:
                os.close(fd)

    def _control(self, conn: socket.socket, control: str) -> None:
        self.status.workers = len(self.workers)
        if control == "stop":
            self._stop()
        wire.send(conn, self.status.as_dict())
        conn.close()

    def _fork(self, conn: socket.socket, message: dict, fds: list[int], own: tuple) -> None:
        # the caller's signals wait until the worker has the command's handlers (it learns the pid at once)
        signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the loop
            code = 1
            try:
                self.selector.close()
                for s in (*own, conn, *self.workers.values()):
                    (s.close() if isinstance(s, socket.socket) else os.close(s))
                become(message, fds)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
                code = run(self.command, message["argv"])
            except BaseException as exc:
                os.write(2, f"simu: the resident checker could not start the command: {exc!r}\n".encode())
            finally:
                os._exit(code)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
        self.status.served += 1
        self.workers[pid] = conn
        conn.settimeout(None)
        self.selector.register(conn, selectors.EVENT_READ, pid)
        try:
            wire.send(conn, {"pid": pid})
        except OSError:
            self._client_gone(conn, pid)

    def _client_gone(self, conn, pid: int) -> None:
        """A waiting client's connection became readable: it sends nothing more, so it is gone."""
        if self.workers.get(pid) is conn:
            try:
                os.kill(pid, signal.SIGTERM)
                self.status.abandoned += 1
            except OSError:
                pass
            self.selector.unregister(conn)

    def _reap(self) -> None:
        while self.workers:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.workers.pop(pid, None)
            if conn is None:
                continue
            reply = ({"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status)
                     else {"exit": os.waitstatus_to_exitcode(status)})
            try:
                self.selector.unregister(conn)
            except (KeyError, ValueError):
                pass
            try:
                wire.send(conn, reply)
            except OSError:
                pass
            conn.close()

    def _stop(self) -> None:
        """Answer no new command (the socket goes at once: clients run their commands themselves); the loop ends
        when the running workers have."""
        self.stopping = True
        self._unlink()

    def _unlink(self) -> None:
        try:
            if self.bound is not None and os.stat(self.path).st_ino == self.bound:
                os.unlink(self.path)
        except OSError:
            pass
        self.bound = None


def _same_user(conn: socket.socket) -> bool:
    """Whether the peer runs as this user (the folder's mode already keeps others out; this is the second lock)."""
    try:
        _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                              struct.calcsize("3i")))
    except (OSError, AttributeError, struct.error):
        return True  # no peer credentials on this system: the folder's mode is the lock
    return uid == os.getuid()


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 4096):
            pass
    except BlockingIOError:
        pass
