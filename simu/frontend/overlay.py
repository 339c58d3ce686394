"""Sources the build reads differently from clang: kernel launches written with spaced chevrons,
``k<< <grid, block >> >(...)`` (nvcc accepts them, older clang-format wrote them), kernel files written as C++
raw string literals, ``R"(__kernel void k(…) {…})"``, that the host program includes into a string and
builds at run time (OpenCL libraries, NVRTC sources), and inline PTX with operands that names a special register
with one ``%``, ``asm("mov.u32 %0, %lanemask_lt;" : "=r"(r))``: nvcc passes it through, clang wants ``%%`` (the
copy doubles it; a ``%`` before an operand modifier, ``%c0``, is a letter and a digit and stays).

Rather than edit the user's files, the main file and the project headers it includes that need it are copied,
with ``<< <`` / ``>> >`` closed up to ``<<<`` / ``>>>`` and a raw string's ``R"(`` / ``)"`` blanked (padded to the
same width, so lines and columns do not move), into a temporary folder, and clang reads them through a virtual
file system overlay (``-ivfsoverlay``) under their own paths: diagnostics and debug information still name the
user's files.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from simu.frontend.ctext import RAW_STRING, comment_free, spaces

_OPEN = re.compile(r"<<\s+<(?!<)")
_CLOSE = re.compile(r">>\s+>")
_LAUNCH_OPEN = re.compile(r"<<\s*<(?!<)")
_INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)
_ASM = re.compile(r"\b(?:asm|__asm__)\s*(?:(?:volatile|__volatile__)\s*)?\(")
_ASM_TEXT = re.compile(r'(?:\s*"(?:[^"\\\n]|\\.)*")+')
_SPECIAL_REGISTER = re.compile(r"(?<!%)%(?=[A-Za-z_][A-Za-z_])")
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


def escape_registers(text: str) -> str | None:
    """``text`` with the special registers of inline PTX that has operands written ``%%name``, or None if none
    needed it (lines kept; a changed line is longer by one column per register)."""
    if "asm" not in text or "%" not in text:
        return None
    out: list[str] = []
    pos = 0
    for m in _ASM.finditer(text):
        body = _ASM_TEXT.match(text, m.end())
        if body is None or m.start() < pos or not text[body.end():body.end() + 200].lstrip().startswith(":"):
            continue  # a basic asm statement (no operands) keeps its text: its % is literal
        escaped = _SPECIAL_REGISTER.sub("%%", body.group(0))
        if escaped != body.group(0):
            out += [text[pos:body.start()], escaped]
            pos = body.end()
    return "".join(out) + text[pos:] if out else None


def cuda_rewrites(text: str) -> str | None:
    """``text`` as clang must read what nvcc takes (chevrons closed up, special registers escaped), or None."""
    closed = close_up(text)
    escaped = escape_registers(closed or text)
    return escaped or closed


_RAW = re.compile(RAW_STRING, re.S)


def unwrap_raw_string(text: str) -> str | None:
    """The source a file of raw string literals holds (``R"(…)" R"(…)"``, comments and a ``;`` between them),
    the delimiters blanked; ``None`` when the file is not one (code outside the literals)."""
    if 'R"' not in text:
        return None
    spans = list(_RAW.finditer(text))
    if not spans:
        return None
    outside = "".join(text[a:b] for a, b in zip([0] + [m.end() for m in spans],
                                                [m.start() for m in spans] + [len(text)], strict=True))
    if comment_free(outside).replace(";", "").strip():
        return None
    out = list(text)
    for m in spans:
        for a, b in ((m.start(), m.start(2)), (m.end(2), m.end())):
            out[a:b] = list(spaces(text[a:b]))
    return "".join(out)


_STRINGIFIED = re.compile(r"\A(\s*)([A-Za-z_]\w*)(\s*\()(.*)(\))(\s*;?\s*)\Z", re.S)
_NEWLINE_ESCAPES = re.compile(r"^([ \t]*)((?:\\n)+)", re.M)


def unwrap_stringified(text: str) -> str | None:
    """The source a kernel file wrapped in a stringizing macro holds (``MSTRINGIFY( … )`` with ``#define
    MSTRINGIFY(...) #__VA_ARGS__`` in the host file that includes it into a string), the wrapper blanked and the
    ``\\n`` escapes that start lines (which put the file's ``#define``/``#undef`` lines on lines of their own in the
    string) turned into spaces; ``None`` when the file is not one (code outside the macro's parentheses, or no
    kernel inside)."""
    code = comment_free(text)
    m = _STRINGIFIED.match(code)
    if not m or not re.search(r"\b(?:__)?kernel\b", m.group(4)):
        return None
    out = list(text)
    for k in (2, 3, 5):  # the macro's name, its opening and its closing parenthesis (same offsets in ``code``)
        out[m.start(k):m.end(k)] = list(spaces(text[m.start(k):m.end(k)]))
    blanked = "".join(out)
    return _NEWLINE_ESCAPES.sub(lambda e: e.group(1) + " " * len(e.group(2)), blanked)


Overlay = tuple[list[str], "tempfile.TemporaryDirectory | None"]


def spaced_launch_overlay(path: Path, include_dirs: tuple[str, ...] = (), language: str = "cuda") -> Overlay:
    """Clang arguments that make it read closed-up or unwrapped copies of ``path`` and its includes that need it
    (quoted ones, and ``<…>`` ones found in ``include_dirs``), and the temporary folder holding them (the caller
    cleans it up); ``([], None)`` if none does."""
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
        new = unwrap_raw_string(text)
        if new is None and language == "opencl":
            new = unwrap_stringified(text)
        if language == "cuda":
            new = cuda_rewrites(new or text) or new
        if new is not None:
            fixed[f] = new
        for quoted, angled in _INCLUDE.findall(text):  # <…> only from the project's folders, never the system's
            name = quoted or angled
            for base in (f.parent, *map(Path, include_dirs)) if quoted else map(Path, include_dirs):
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
