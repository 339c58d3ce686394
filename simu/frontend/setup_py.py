"""The macros a Python extension's ``setup.py`` defines for its CUDA sources.

A PyTorch (or any setuptools) extension builds its ``.cu`` files with ``define_macros`` —
``define_macros += [("WITH_CUDA", None)]`` under ``if torch.cuda.is_available()`` — and kernels behind ``#ifdef
WITH_CUDA`` (or helpers a kernel calls, included under it) exist only in that build.  A ``.cu`` file is compiled only
by the CUDA build, so its macros are the ones the file gets: every ``("NAME", None)`` / ``("NAME", "value")`` pair of
a list assigned or added to a name or keyword ``define_macros``, read from the syntax tree (the file is never run).
The ``setup.py`` that applies is the nearest one at or above the source, inside the project.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

SETUP = "setup.py"
MAX_BYTES = 1 << 20


def setup_defines(source: Path, root: Path) -> tuple[str, ...]:
    """The ``-D`` definitions (``NAME`` or ``NAME=value``) of the nearest ``setup.py`` at or above ``source``, not
    above ``root``; empty when there is none."""
    source, root = source.resolve(), root.resolve()
    for folder in source.parents:
        if (folder / SETUP).is_file():
            return _defines(folder / SETUP)
        if folder == root or root not in folder.parents:
            break
    return ()


@functools.lru_cache(maxsize=64)
def _defines(setup: Path) -> tuple[str, ...]:
    try:
        if setup.stat().st_size > MAX_BYTES:
            return ()
        tree = ast.parse(setup.read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return ()
    out: list[str] = []
    for node in ast.walk(tree):
        value = None
        if isinstance(node, ast.Assign) and any(_named(t) for t in node.targets):
            value = node.value
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and _named(node.target):
            value = node.value
        elif isinstance(node, ast.keyword) and node.arg == "define_macros":
            value = node.value
        if isinstance(value, (ast.List, ast.Tuple)):
            out += [d for d in map(_pair, value.elts) if d]
    return tuple(dict.fromkeys(out))


def _named(target: ast.AST) -> bool:
    return isinstance(target, ast.Name) and target.id == "define_macros"


def _pair(node: ast.AST) -> str | None:
    """``NAME`` or ``NAME=value`` of a ``("NAME", None | "value" | number)`` literal."""
    if not isinstance(node, ast.Tuple) or len(node.elts) != 2:
        return None
    name, value = node.elts
    if not isinstance(name, ast.Constant) or not isinstance(name.value, str) or not name.value.isidentifier():
        return None
    if isinstance(value, ast.Constant) and value.value is None:
        return name.value
    if isinstance(value, ast.Constant) and isinstance(value.value, (str, int)) and not isinstance(value.value, bool):
        return f"{name.value}={value.value}"
    return None
