"""Stand-ins for headers a build generates (CMake ``configure_file``), made from the project's template.

A project whose sources ``#include "config.h"`` and that ships ``config.h.in`` (or ``config.h.cmake``)
cannot compile before CMake has run.  simu writes a stand-in into a folder of its own (never into the
project) with every option *off*, the choice that needs no guess about the build:

* ``#cmakedefine X ...`` becomes ``/* #undef X */``; ``#cmakedefine01 X`` becomes ``#define X 0``;
* ``@VAR@`` and ``${VAR}`` become ``0`` in code (so ``#if @HAVE_X@`` and ``#define N @N@`` still parse)
  and nothing inside a string literal (``"@VERSION@"`` becomes ``""``);
* in an autoconf (autoheader) template, one with no ``#cmakedefine``, every ``#undef X`` line is a slot
  that ``./configure`` turns into ``#define X 1`` or ``/* #undef X */``: it becomes the latter, so that
  the stand-in undefines nothing a ``-D`` option (or simu's choice of an ``#error`` chain) defined.
  The one keyword slot C++ code needs filled, ``AC_C_RESTRICT``'s ``#undef restrict``, becomes what
  ``configure`` writes for GCC and clang: ``#define restrict __restrict``.

The folder is named by a digest of the template's path and text, so it is stable across runs (cache
keys stay valid) and changes when the template does.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

TEMPLATE_SUFFIXES = (".in", ".cmake")

_CMAKEDEFINE01 = re.compile(r"^(\s*)#\s*cmakedefine01\s+(\w+).*$", re.M)
_CMAKEDEFINE = re.compile(r"^(\s*)#\s*cmakedefine\s+(\w+).*$", re.M)
_UNDEF = re.compile(r"^(\s*)#\s*undef\s+(\w+)\s*$", re.M)
_VAR = re.compile(r"@[A-Za-z_][\w-]*@|\$\{[A-Za-z_][\w-]*\}")
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def configure(template: str) -> str:
    """The text of a stand-in for a CMake template (see the module docstring)."""
    if not _CMAKEDEFINE.search(template) and not _CMAKEDEFINE01.search(template):
        template = _UNDEF.sub(lambda m: f"{m.group(1)}#define restrict __restrict" if m.group(2) == "restrict"
                              else f"{m.group(1)}/* #undef {m.group(2)} */", template)
    text = _CMAKEDEFINE01.sub(lambda m: f"{m.group(1)}#define {m.group(2)} 0", template)
    text = _CMAKEDEFINE.sub(lambda m: f"{m.group(1)}/* #undef {m.group(2)} */", text)
    out = []
    pos = 0
    for s in _STRING.finditer(text):
        out.append(_VAR.sub("0", text[pos:s.start()]))
        out.append(_VAR.sub("", s.group(0)))
        pos = s.end()
    out.append(_VAR.sub("0", text[pos:]))
    return "".join(out)


def stand_in_root() -> Path:
    return Path(tempfile.gettempdir()) / "simu-generated"


def generate_stand_in(name: str, template: Path) -> Path:
    """Write the stand-in for ``#include "name"`` made from ``template``; returns the include folder."""
    text = template.read_text(errors="replace")
    digest = hashlib.sha256(f"{template.resolve()}\0{name}\0{text}".encode()).hexdigest()[:16]
    folder = stand_in_root() / digest
    target = folder / name
    body = f"/* simu: stand-in for {name}, generated from {template} (options off) */\n" + configure(text)
    try:
        if not target.is_file() or target.read_text(errors="replace") != body:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
            tmp.write_text(body)
            tmp.replace(target)
    except OSError:
        pass  # the compile then reports the missing header
    return folder


__all__ = ["TEMPLATE_SUFFIXES", "configure", "generate_stand_in", "stand_in_root"]
