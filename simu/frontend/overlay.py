"""Kernel launches written with spaced chevrons, ``k<< <grid, block >> >(...)``: nvcc accepts them
(older clang-format wrote them), clang does not.

Rather than edit the user's files, the main file and the project headers it includes that contain
such a launch are copied, with ``<< <`` / ``>> >`` closed up to ``<<<`` / ``>>>`` (padded to the same
width, so lines and columns do not move), into a temporary folder, and clang reads them through a
virtual file system overlay (``-ivfsoverlay``) under their own paths: diagnostics and debug
information still name the user's files.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

_OPEN = re.compile(r"<<\s+<(?!<)")
_CLOSE = re.compile(r">>\s+>")
_LAUNCH_OPEN = re.compile(r"<<\s*<(?!<)")
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
MAX_FILES = 400
MAX_BYTES = 4 << 20


def close_up(text: str) -> str | None:
    """``text`` with every spaced launch chevron pair closed up (same length), or None if it has none."""
    if "<<" not in text or not (_OPEN.search(text) or _CLOSE.search(text)):
        return None
    out = list(text)
    changed = False
    for m in _LAUNCH_OPEN.finditer(text):
        end = text.find(";", m.end())
        segment = text[m.end(): end if end >= 0 else len(text)]
        close = _CLOSE.search(segment) or re.search(r">>>", segment)
        if close is None:
            continue
        for start, stop in ((m.start(), m.end()), (m.end() + close.start(), m.end() + close.end())):
            token = text[start:stop]
            squeezed = token.replace(" ", "").replace("\t", "")
            if squeezed != token:
                out[start:stop] = list(squeezed + " " * (len(token) - len(squeezed)))
                changed = True
    return "".join(out) if changed else None


Overlay = tuple[list[str], "tempfile.TemporaryDirectory | None"]


def spaced_launch_overlay(path: Path, include_dirs: tuple[str, ...] = ()) -> Overlay:
    """Clang arguments that make it read closed-up copies of ``path`` and its quoted includes that need
    it, and the temporary folder holding them (the caller cleans it up); ``([], None)`` if none does."""
    fixed: dict[Path, str] = {}
    seen: set[Path] = set()
    todo = [path.resolve()]
    while todo and len(seen) < MAX_FILES:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        try:
            if f.stat().st_size > MAX_BYTES:
                continue
            text = f.read_text(errors="replace")
        except OSError:
            continue
        new = close_up(text)
        if new is not None:
            fixed[f] = new
        for name in _INCLUDE.findall(text):
            for base in (f.parent, *map(Path, include_dirs)):
                candidate = (base / name)
                if candidate.is_file():
                    todo.append(candidate.resolve())
                    break
    if not fixed:
        return [], None
    tmp = tempfile.TemporaryDirectory(prefix="simu-overlay-")
    roots = []
    for i, (f, text) in enumerate(sorted(fixed.items())):
        copy = Path(tmp.name) / f"{i}{f.suffix}"
        copy.write_text(text)
        roots.append({"type": "file", "name": str(f), "external-contents": str(copy)})
    overlay = Path(tmp.name) / "overlay.json"
    overlay.write_text(json.dumps({"version": 0, "case-sensitive": True, "use-external-names": False,
                                   "roots": roots}))
    return ["-ivfsoverlay", str(overlay)], tmp
