"""Decoded modules kept on disk: a small file's IR is parsed and decoded once, then read back in milliseconds.

Parsing IR with llvmlite and decoding the kernel a check runs costs a few hundredths of a second even for a
small file, more than the launch itself; `simu check` run again on an unchanged file (a hook, a script checking
launch after launch) should not pay it.  A module of at most :data:`MAX_IR_BYTES` of IR is decoded whole (every
function body, so that nothing still needs llvmlite) and pickled, keyed by its IR text, path, language and
parameter names, under the running simu's code fingerprint (the caller's ``salt``).  Pickles are only ever read
from the user's own cache folder (:func:`private_store`), never from a project's: a pickle runs code when read.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sqlite3
import stat
import time
from pathlib import Path

from simu.frontend.compilecache import open_salted, prune
from simu.ir.module import Module, load_module

MAX_IR_BYTES = 1 << 20  # larger modules decode only what a kernel reaches, which is cheaper than decoding all
MAX_BYTES = 64 * 1024 * 1024  # pickles kept at most, over every entry
FILE_NAME = "decoded.sqlite3"
FORMAT = 1  # bumped when what a key covers changes


class DecodedStore:
    """Pickled modules by key in one SQLite file, the least recently used going beyond :data:`MAX_BYTES`."""

    def __init__(self, directory: Path, salt: str):
        self.salt = salt
        self.conn = open_salted(directory / FILE_NAME, "decoded",
                                "key TEXT PRIMARY KEY, salt TEXT, module BLOB, bytes INTEGER, used REAL", salt)

    def get(self, key: str) -> bytes | None:
        row = self.conn.execute("SELECT module FROM decoded WHERE key=? AND salt=?", (key, self.salt)).fetchone()
        return row[0] if row else None

    def put(self, key: str, blob: bytes) -> None:
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO decoded VALUES (?, ?, ?, ?, ?)",
                              (key, self.salt, blob, len(blob), time.time()))
            prune(self.conn, "decoded", MAX_BYTES)

    def close(self) -> None:
        self.conn.close()


def private_store(directory: Path, salt: str) -> DecodedStore | None:
    """The store in ``directory``, made this user's alone; None where it is not (another user's folder, one open
    to others) or cannot be opened: modules are then decoded, which only costs time."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(directory)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
            return None
        return DecodedStore(directory, salt)
    except (OSError, sqlite3.Error):
        return None


def module_key(ir: str, path: str, language: str, param_names: dict | None) -> str:
    blob = json.dumps([FORMAT, path, language, param_names], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode() + b"\0" + ir.encode()).hexdigest()


def decoded_module(ir: str, path: str, language: str, param_names: dict | None,
                   store: DecodedStore | None) -> Module:
    """:func:`~simu.ir.module.load_module` through ``store`` (None: no store)."""
    if store is None or len(ir) > MAX_IR_BYTES:
        return load_module(ir, path, language, param_names)
    key = module_key(ir, path, language, param_names)
    try:
        blob = store.get(key)
    except sqlite3.Error:
        blob = None
    if blob is not None:
        try:
            module = pickle.loads(blob)
            if isinstance(module, Module):
                return module
        except Exception:  # noqa: BLE001 - an entry this code cannot read is decoded again
            pass
    module = load_module(ir, path, language, param_names)
    if _decode_all(module):
        try:
            store.put(key, pickle.dumps(module, protocol=pickle.HIGHEST_PROTOCOL))
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError, sqlite3.Error):
            pass  # kept undecoded next time: it only costs time
    return module


def _decode_all(module: Module) -> bool:
    """Decode every function body; False where one cannot be (the module is then not kept: that function's
    error belongs to the kernel that reaches it, when one does)."""
    for fn in module.functions.values():
        if not fn.is_declaration:
            try:
                _ = fn.blocks
            except Exception:  # noqa: BLE001 - raised again where a kernel reaches it
                return False
    return True
