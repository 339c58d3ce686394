"""Object-like macros of the project headers a host file includes (``#include "…"``, followed a few levels).

Launch sizes are often named by a macro of a project header (``k<<<cuda_gridsize(n), BLOCK>>>`` with
``#define BLOCK 512`` in ``darknet.h``): the lexical index sees a host file's own macros, and this gives it
those of its headers too.  A quoted include is resolved next to the includer first, then as a path suffix
of a project file, nearest to the includer as include discovery ranks folders; the file's own definitions win.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from simu.frontend.includes import closeness
from simu.host.cscan import CSource, file_constants, int_functions
from simu.host.definers import definers
from simu.host.launchmacros import Macro, launch_macros

# `#include "x.h"`, and `#include <lib/x.h>` with a folder (a library's own headers, named from its include root):
# resolved among the project's files, where a system header is not
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]*/[^>\n]+)>)', re.M)
MAX_DEPTH = 3
MAX_HEADER_BYTES = 1 << 20


def _includes(text: str) -> list[str]:
    return [quoted or angled for quoted, angled in _INCLUDE.findall(text)]


class HeaderMacros:
    """Resolves and reads a project's headers once per index build."""

    def __init__(self, files: list[Path], more: Callable[[], Iterable[Path]] | None = None):
        """``files``: the project files includes are resolved among; ``more``: gives the others, asked the first
        time an include is not next to its includer (`simu check` walks the repository only then)."""
        self._by_name: dict[str, list[Path]] = {}
        self._more = more
        self._add(files)
        self._macros: dict[Path, tuple[dict[str, str], list[str], dict]] = {}
        self._headers: dict[tuple[Path, int], list[Path]] = {}

    def headers_of(self, path: Path, text: str) -> list[Path]:
        """The project headers ``path`` includes, transitively (at most :data:`MAX_DEPTH` levels), in order
        (memoised per file and text)."""
        key = (path, hash(text))
        if key not in self._headers:
            self._headers[key] = self._headers_of(path, text)
        return self._headers[key]

    def _headers_of(self, path: Path, text: str) -> list[Path]:
        out: list[Path] = []
        seen = {path.resolve()}
        level = [(path, _includes(text))]  # raw text: an include in a comment costs a lookup only
        for _ in range(MAX_DEPTH):
            nxt = []
            for includer, includes in level:
                for inc in includes:
                    h = self._resolve(includer, inc)
                    if h is None or h in seen:
                        continue
                    seen.add(h)
                    out.append(h)
                    nxt.append((h, self._read(h)[1]))
            level = nxt
        return out

    def macros(self, headers: list[Path]) -> dict[str, str]:
        """The object-like macros the headers define, and their integer constants (``const int N = 512;``): the
        first definition of a name wins."""
        out: dict[str, str] = {}
        for h in headers:
            for k, v in self._read(h)[0].items():
                out.setdefault(k, v)
        return out

    def functions(self, headers: list[Path]) -> dict[str, tuple[tuple[str, ...], str]]:
        """The one-``return`` integer functions the headers define (:func:`~simu.host.cscan.int_functions`), and
        their helpers that make a ``-D`` build option (functions and macros: :func:`~simu.host.definers.definers`)."""
        out: dict[str, tuple[tuple[str, ...], str]] = {}
        for h in headers:
            for k, v in self._read(h)[2].items():
                out.setdefault(k, v)
        return out

    def launch_macros(self, headers: list[Path]) -> dict[str, Macro]:
        """The function-like macros the headers define that launch kernels (:mod:`simu.host.launchmacros`)."""
        out: dict[str, Macro] = {}
        for h in headers:
            for k, v in self._read(h)[3].items():
                out.setdefault(k, v)
        return out

    def prepare(self, src: CSource, path: Path, text: str) -> None:
        """Give ``src`` (the file at ``path``) what its project headers define: macros, constants, functions (its
        own definitions win)."""
        included = self.headers_of(path, text)
        for k, v in self.macros(included).items():
            src.macros.setdefault(k, v)
        src.header_functions = self.functions(included)

    def _read(self, h: Path) -> tuple[dict[str, str], list[str], dict, dict]:
        hit = self._macros.get(h)
        if hit is None:
            try:
                text = h.read_text(errors="replace") if h.stat().st_size <= MAX_HEADER_BYTES else ""
            except OSError:
                text = ""
            src = CSource(text)
            macros = dict(src.macros)
            for k, v in file_constants(src.code):
                macros.setdefault(k, v)
            functions = int_functions(src.code)
            hit = (macros, _includes(src.code), {**definers(src.code), **functions},
                   launch_macros(text))
            self._macros[h] = hit
        return hit

    def _add(self, files: Iterable[Path]) -> None:
        known = {p for ps in self._by_name.values() for p in ps} if self._by_name else set()
        for p in files:
            if p not in known:
                known.add(p)
                self._by_name.setdefault(p.name, []).append(p)

    def _resolve(self, includer: Path, inc: str) -> Path | None:
        near = includer.parent / inc
        if near.is_file():
            return near.resolve()
        if self._more is not None:
            more, self._more = self._more, None
            self._add(more())
        name = inc.rsplit("/", 1)[-1]
        suffix = "/" + inc.lstrip("./")
        cands = [p for p in self._by_name.get(name, []) if p.as_posix().endswith(suffix)]
        if not cands:
            return None
        here = includer.parent.resolve()
        return min(cands, key=lambda p: closeness(p.parent.resolve(), here)).resolve()
