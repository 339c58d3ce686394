"""A dump too large to parse whole: only the top-level declarations of the project's own files.

A C++ host file that includes a large header library (a JSON library, the standard library's ``valarray``) dumps
hundreds of MB of JSON, most of it declarations no launch is in; parsed whole, it costs gigabytes.  clang pretty-prints
the dump, so each top-level declaration starts on a line of its own at the translation unit's first indentation (a
JSON string holds no raw newline): the declarations are told apart by that line, the file each is in is read off its
location text (clang names a location's file only where it changes, so the last file printed before it counts), and
only the kept ones are parsed.  Kept: those in the project's files, outside the folders that hold vendored
libraries, within :data:`MAX_KEPT_BYTES`.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import Any, Callable

_ITEM = re.compile(rb"\n    \{\n")  # a top-level declaration: the translation unit's `inner` is at four spaces
_FILE = re.compile(rb'"file": "((?:[^"\\]|\\.)*)"')
_INCLUDED_FROM = b'"includedFrom": {'
VENDORED = frozenset({"third_party", "thirdparty", "third-party", "3rdparty", "external", "externals", "extern",
                      "dependencies", "deps", "vendor", "vendored"})
MAX_KEPT_BYTES = 192 << 20


def project_part(data: bytes, keep: Callable[[str], bool], limit: int = MAX_KEPT_BYTES) -> dict[str, Any] | None:
    """The translation unit of ``data`` (a pretty-printed clang JSON dump) with only the top-level declarations
    whose file ``keep`` accepts, each located in its own file; ``None`` when what is kept is still past ``limit``
    bytes or a declaration does not parse."""
    starts = [m.start() + 1 for m in _ITEM.finditer(data)]
    current = ""
    kept: list[tuple[str, int, int]] = []
    size = 0
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        ends = [i for i in (data.find(b'"range"', start, end), data.find(b'"inner"', start, end)) if i > 0]
        head = min(ends, default=end)  # its own location comes first
        files = _files(data, start, end)
        own = next((f for at, f in reversed(files) if at < head), "") or current
        last = files[-1][1] if files else ""
        if keep(own):
            close = data.rfind(b"\n    }", start, end)
            if close < 0:
                return None
            kept.append((own, start, close + len(b"\n    }")))
            size += close - start
            if size > limit:
                return None
        current = last or current
    inner = []
    for own, start, end in kept:
        try:
            decl = json.loads(data[start:end])
        except ValueError:
            return None
        loc = decl.setdefault("loc", {})
        if isinstance(loc, dict) and "file" not in loc:
            loc["file"] = own  # the file a dropped declaration printed last: say it here
        inner.append(decl)
    return {"kind": "TranslationUnitDecl", "inner": inner}


def _files(data: bytes, start: int, end: int) -> list[tuple[int, str]]:
    """(position, file) of each location between ``start`` and ``end`` that names a file (not an ``includedFrom``:
    it is no location)."""
    found = []
    for m in _FILE.finditer(data, start, end):
        opened = data.rfind(b"{", start, m.start())  # "file" is the first key of the object it is in
        if opened < 0 or not data[max(0, opened - len(_INCLUDED_FROM) + 1):opened + 1] == _INCLUDED_FROM:
            found.append((m.start(), m.group(1).decode(errors="replace")))
    return found


def in_project(root: str, path: str) -> Callable[[str], bool]:
    """Whether a file is the host file ``path`` itself or a project file under ``root`` outside a vendored folder."""
    prefix = root.rstrip("/") + "/"

    def keep(file: str) -> bool:
        if file == path:
            return True
        if not file.startswith(prefix):
            return False
        return not any(part.lower() in VENDORED for part in PurePosixPath(file[len(prefix):]).parts[:-1])
    return keep
