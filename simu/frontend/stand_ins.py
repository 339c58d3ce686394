"""Empty stand-ins for headers the preprocessor cannot find.

A missing header is a fatal error: clang stops reading includes and drops much of what follows (a template's
kernel launches among it), although the kernels and the host functions that launch them rarely need a
third-party host library.  ``clang -M -MG`` lists every missing header instead of stopping
(:func:`dependencies`); each gets an empty file in a folder searched last (:func:`write_stand_ins`), deep enough
for the ``../`` of every name (at least :data:`STAND_IN_DEPTH` folders).  Used by the device-only slice of a
kernel file (:mod:`simu.frontend.device_slice`) and by the host code's AST (:mod:`simu.host.ast.clang`).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

STAND_IN_DEPTH = 4  # a missing "../x.h" still lands inside the stand-in folder
_NOT_FOUND = re.compile(r"fatal error: '[^'\n]+' file not found")


def header_missing(stderr: str | bytes) -> bool:
    """Whether clang's ``stderr`` says an included file was not found."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    return _NOT_FOUND.search(text) is not None


def dependencies(path: Path, base: list[str], timeout: float | None = None) -> tuple[list[Path], list[str]]:
    """(the files the translation unit ``path`` includes, the headers it includes that are not found), with the
    clang command line ``base`` (without the source file)."""
    proc = subprocess.run(base + ["-M", "-MG", str(path)], capture_output=True, text=True, timeout=timeout)
    words = [w.replace("\\ ", " ") for w in re.split(r"(?<!\\)\s+", proc.stdout.replace("\\\n", " ")) if w]
    found, missing = [], []
    for w in words[1:] if words and words[0].endswith(":") else words:
        p = Path(w)
        if p.is_file():
            found.append(p.resolve())
        else:
            missing.append(w)
    return found, list(dict.fromkeys(missing))


def write_stand_ins(top: Path, missing: list[str]) -> tuple[list[str], dict[Path, Path]]:
    """Empty stand-ins under the new folder ``top`` for the ``missing`` header names: the clang arguments that find
    them (``-idirafter`` a folder deep enough for each name's ``../``), and for a name given as an absolute path the
    file that stands in for it (to be mapped in a VFS overlay)."""
    if not missing:
        return [], {}
    depth = max([STAND_IN_DEPTH] + [Path(n).parts.count("..") for n in missing])
    stand = top / Path(*(["d"] * depth))
    stand.mkdir(parents=True)
    absolute: dict[Path, Path] = {}
    for name in missing:
        text = f"/* simu: empty stand-in for the missing header {name} */\n"
        if name and Path(name).is_absolute():
            copy = top / f"absent{len(absolute)}.h"
            copy.write_text(text)
            absolute.setdefault(Path(name), copy)
            continue
        target = (stand / name).resolve()
        if not name or not target.is_relative_to(top.resolve()):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return ["-idirafter", str(stand)], absolute
