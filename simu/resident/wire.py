"""The resident checker's messages: one JSON object a line; the client's standard streams ride on its request
as file descriptors (``SCM_RIGHTS``)."""

from __future__ import annotations

import json
import socket

MAX_REQUEST = 16 * 1024 * 1024  # a request carries the environment; nothing sane comes near this


def encode(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


def send(sock: socket.socket, message: dict, fds: list[int] | None = None) -> None:
    data = encode(message)
    sent = socket.send_fds(sock, [data], fds) if fds else 0
    sock.sendall(data[sent:])


def receive_request(sock: socket.socket, max_fds: int = 3) -> tuple[dict | None, list[int]]:
    """A client's one message and the descriptors that came with it; (None, fds) when it closed first."""
    buf, fds, _flags, _addr = socket.recv_fds(sock, 65536, max_fds)
    while buf and not buf.endswith(b"\n"):
        if len(buf) > MAX_REQUEST:
            raise ValueError(f"a request of over {MAX_REQUEST} bytes")
        chunk = sock.recv(65536)
        if not chunk:
            return None, fds
        buf += chunk
    return (json.loads(buf) if buf else None), fds
