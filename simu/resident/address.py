"""Where this installation's resident checker listens: one socket per user, Python, simu package and path.

Standard library only (not even :mod:`pathlib`), and cheap: every `simu` command asks before it imports anything else.
"""

from __future__ import annotations

import os
import stat
import sys
import zlib

import simu

DISABLE = "SIMU_RESIDENT"  # "0": never hand a command to a resident checker


def runtime_dir() -> str:
    """``$XDG_RUNTIME_DIR/simu``, else ``$TMPDIR/simu-UID`` (``/tmp``): the folder of this user's sockets."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base and os.path.isdir(base):
        return os.path.join(base, "simu")
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"simu-{os.getuid()}")


def socket_path() -> str:
    """The socket of the checker that runs this very code: the environment (``sys.prefix``), the simu package it
    imported, the module path and simu's version name it (a checker of another installation never answers)."""
    key = "\0".join((sys.prefix, os.path.dirname(os.path.abspath(simu.__file__)),
                     os.environ.get("PYTHONPATH", ""), simu.__version__))
    data = key.encode()  # two checksums, 64 bits: hashlib's import alone costs what a command's hand-over does
    return os.path.join(runtime_dir(), f"checker-{zlib.crc32(data):08x}{zlib.adler32(data):08x}.sock")


def private(folder: str, create: bool = False) -> bool:
    """Whether ``folder`` is this user's alone (owned, no access for others); ``create`` makes it so first.  A
    socket in a folder another user can write could be theirs: it is never used."""
    if create:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        except OSError:
            return False
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def enabled() -> bool:
    return os.environ.get(DISABLE, "1") != "0"
