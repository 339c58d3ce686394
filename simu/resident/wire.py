"""The resident checker's messages: a 4-byte length and a :mod:`marshal` dump of plain values (strings, numbers,
lists, dicts); the client's standard streams ride on its request as file descriptors (``SCM_RIGHTS``).

Only C modules (``_socket``, ``marshal``): the client imports this before anything else, and ``socket`` and
``json`` alone cost a command more than its hand-over (their ``enum`` and ``re``).  Both ends are the same
installation (:func:`simu.resident.address.socket_path`), so marshal's format is theirs; a peer is this user alone.
"""

from __future__ import annotations

import _socket
import marshal
import sys

MAX_MESSAGE = 16 * 1024 * 1024  # a request carries the environment; nothing sane comes near this
_INT = 4  # bytes of a C int: a descriptor in SCM_RIGHTS data


def encode(message: dict) -> bytes:
    data = marshal.dumps(message)
    return len(data).to_bytes(4, "little") + data


def send(sock, message: dict, fds: list[int] | None = None) -> None:
    """``message`` on ``sock`` (a ``socket.socket`` or a bare ``_socket.socket``), ``fds`` with its first byte."""
    data = encode(message)
    sent = 0
    if fds:
        rights = b"".join(fd.to_bytes(_INT, sys.byteorder) for fd in fds)
        sent = sock.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
    sock.sendall(data[sent:])


def receive(sock) -> dict | None:
    """The next message, or None where the peer closed first; ValueError on one that is not a message."""
    head = _exactly(sock, 4, b"")
    return None if head is None else _body(sock, head, b"")


def receive_request(sock, max_fds: int = 3) -> tuple[dict | None, list[int]]:
    """A client's one message and the descriptors that came with it; (None, fds) when it closed first."""
    data, ancillary, _flags, _addr = sock.recvmsg(65536, _socket.CMSG_SPACE(max_fds * _INT))
    fds: list[int] = []
    for level, kind, payload in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            usable = len(payload) - len(payload) % _INT
            fds += [int.from_bytes(payload[i:i + _INT], sys.byteorder) for i in range(0, usable, _INT)]
    if len(data) < 4:
        head = _exactly(sock, 4, data)
        return (None if head is None else _body(sock, head, b"")), fds
    return _body(sock, data[:4], data[4:]), fds


def _body(sock, head: bytes, start: bytes) -> dict | None:
    size = int.from_bytes(head, "little")
    if size > MAX_MESSAGE:
        raise ValueError(f"a message of over {MAX_MESSAGE} bytes")
    data = _exactly(sock, size, start)
    if data is None:
        return None
    try:
        message = marshal.loads(data)
    except (EOFError, TypeError) as exc:
        raise ValueError(f"not a message: {exc}") from None
    if not isinstance(message, dict):
        raise ValueError("not a message")
    return message


def _exactly(sock, size: int, start: bytes) -> bytes | None:
    data = start
    while len(data) < size:
        chunk = sock.recv(min(size - len(data), 1 << 20))
        if not chunk:
            return None
        data += chunk
    return data
