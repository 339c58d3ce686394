"""Precompiled preludes: simu's shim headers parsed once per clang, flags and shim content, read by every compile.

Parsing the CUDA shim (``cuda_runtime.h`` and what it includes: some 2,500 lines of declarations and inline
functions) is most of what clang spends on a small ``.cu`` file: 50 ms a device compile, 15 ms with the shim read
from a precompiled header.  The host-code reader keeps its own prelude (the shim and the common C++ headers,
:mod:`simu.host.ast.clang`); both are built here, in the user's cache folder, once, with their pending template
instantiations made when they are built (``-fpch-instantiate-templates``: otherwise every file reading the prelude
makes them again at its end).

A device compile reads the prelude only where it cannot change what the file sees (:func:`device_prelude`): a file
compiled with its own clang arguments, a macro the shim's text names, or an include folder holding a header of a
name the shim includes (``-I`` folders are searched before the shim's) is compiled as before, the shim parsed.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from simu.frontend.toolchain import clang_command, user_cache_dir

BUILD_ARGS = ["-fpch-instantiate-templates"]
PCH_KEEP_DAYS = 14
PCH_TIMEOUT = 300  # a prelude is built once: a loaded machine must not leave every compile without it
_WORD = re.compile(rb"[A-Za-z_]\w*")
_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
_HEADER_NAMES = re.compile(rb"^[ \t]*#[ \t]*include(?:_next)?[ \t]*[<\"]([^>\"\n]+)[>\"]"
                           rb"|__has_include(?:_next)?\s*\(\s*[<\"]([^>\"\n]+)[>\"]", re.M)


def cache_root() -> Path:
    return user_cache_dir() / "pch"


def precompiled(prefix: str, base: list[str], action: list[str], text: str = "") -> Path | None:
    """The prelude of ``text`` (a header, empty where ``base`` force-includes what it holds) compiled with ``base``
    (clang's arguments after the command) and ``action`` (how the driver is asked for it: ``-c`` for a host parse,
    ``-S`` for a device compile); None where clang cannot build it.  Kept per clang, arguments, text and the
    stamps of the shim files and folders ``base`` names."""
    shim = [a for a in base if a.startswith("/") or a.endswith(".h")]
    clang = clang_command()
    stamp = hashlib.sha256(repr((clang[1:], _stamp(clang[0]), base, action, BUILD_ARGS, [_stamp(p) for p in shim],
                                 text)).encode()).hexdigest()[:20]
    out = cache_root() / f"{prefix}-{stamp}.pch"
    if out.is_file():
        return out
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        header = out.with_suffix(".cuh")  # the PCH names its header: it stays beside it, never rewritten
        _create_once(header, text)
        with tempfile.TemporaryDirectory(prefix="simu-pch-") as tmp:
            made = Path(tmp) / "prelude.pch"
            argv = clang + base + BUILD_ARGS + action + \
                [str(header), "-Xclang", "-emit-pch", "-o", str(made), "-MD", "-MF", str(made.with_suffix(".d"))]
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=PCH_TIMEOUT)
            if proc.returncode != 0 or not made.is_file():
                return None
            os.replace(made.with_suffix(".d"), out.with_suffix(".d"))  # the files it holds, before it is seen
            os.replace(made, out)  # atomic: concurrent builders write the same bytes
        _prune(out.parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return out


def device_prelude(base: list[str], defines: tuple[str, ...], search_dirs: tuple[str, ...]) -> Path | None:
    """The precompiled shim of a CUDA device compile with ``base`` arguments (those of every file: no include
    folder, define or argument of its own), or None where reading it could change what the file sees: a macro of
    ``defines`` (``NAME`` or ``NAME=value``) the shim's text names, or a folder of ``search_dirs`` (the file's
    include folders) holding a header of a name the shim includes or tests."""
    pch = precompiled("device", [a for a in base if a not in ("-S", "-emit-llvm")], ["-S"])
    if pch is None:
        return None
    names = _shim_names(pch.with_suffix(".d"))
    if names is None:  # what the prelude holds is not known: nothing can be said about the file's macros
        return None
    words, headers = names
    if any(d.partition("=")[0].encode() in words for d in defines):
        return None
    if any(_holds(d, headers) for d in search_dirs):
        return None
    return pch


@lru_cache(maxsize=8)
def _shim_names(deps: Path) -> tuple[frozenset[bytes], tuple[str, ...]] | None:
    """Every word outside comments of the headers a prelude holds (``deps``: the make rule clang wrote when it built
    it), and the header names they include or test with ``__has_include``; None where a file cannot be read."""
    try:
        rule = deps.read_text(errors="replace").replace("\\\n", " ")
    except OSError:
        return None
    words: set[bytes] = set()
    headers: set[str] = set()
    for name in re.split(r"(?<!\\)\s+", rule.partition(": ")[2].strip()):
        try:
            data = _COMMENT.sub(b" ", Path(name.replace("\\ ", " ")).read_bytes())
        except OSError:
            return None
        words.update(_WORD.findall(data))
        headers.update((a or b).decode(errors="replace") for a, b in _HEADER_NAMES.findall(data))
    return frozenset(words), tuple(sorted(headers))


def _holds(folder: str, names: tuple[str, ...]) -> bool:
    """Whether ``folder`` holds a header of one of ``names`` (asked at every compile: a folder's files change)."""
    return any(os.path.exists(os.path.join(folder, n)) for n in names)


def _prune(folder: Path) -> None:
    """Drop preludes not built for :data:`PCH_KEEP_DAYS` (each checkout of simu's shim stamps its own)."""
    horizon = time.time() - PCH_KEEP_DAYS * 86400
    for old in folder.glob("*-*.*"):
        try:
            if old.stat().st_mtime < horizon:
                old.unlink()
        except OSError:
            pass


def _create_once(path: Path, text: str) -> None:
    """Write ``path`` whole, unless it exists (its name stamps its text): a PCH records its header's size and time,
    so a header rewritten while another process builds or reads a PCH of it would make that PCH stale."""
    if path.is_file():
        return
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".simu-pch-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        try:
            os.link(tmp, path)  # fails where another process made it first: theirs stays, same text
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)


def _stamp(path: str) -> tuple[str, int]:
    """A shim file's time, or a shim folder's latest: its own and its direct entries' (a fresh checkout or a
    reinstalled header package stamps a new prelude, where a stale one would cost a parse without it)."""
    try:
        if not os.path.isdir(path):
            return path, os.stat(path).st_mtime_ns
        with os.scandir(path) as entries:
            return path, max([os.stat(path).st_mtime_ns, *(e.stat().st_mtime_ns for e in entries)])
    except OSError:
        return path, 0


__all__ = ["cache_root", "device_prelude", "precompiled"]
