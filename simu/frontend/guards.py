"""Macros that gate the CUDA headers: ``#ifdef GPU`` / ``#include "cuda_runtime.h"`` / ``#endif``.

A project whose headers serve a CPU-only and a GPU build includes the CUDA headers only when its build
defines a switch (darknet's ``-DGPU``, ``-DUSE_CUDA``, ...).  A ``.cu`` file is compiled only by the GPU
build, so that build had the switch on: simu defines it too (and says so) when no option names it.

The rule, read lexically from the file and the project headers it includes (quoted includes next to the
includer, then the ``-I`` and discovered folders; simu's shim and the system headers are not read): a
macro ``X`` whose ``#ifdef X`` / ``#if defined(X)`` / ``#if X`` / ``#elif defined(X)`` branch directly
includes one of the CUDA toolkit headers simu's shim provides (:data:`CUDA_HEADERS`), and nothing that
simu cannot provide (a header that is neither in the project, the shim, CCCL nor the system:
``cudnn.h`` without cuDNN installed; defining ``X`` would then only trade one error for another).  Only
includes at the branch's own level count (darknet's ``#ifdef CUDNN #include "cudnn.h" #endif`` inside
its ``#ifdef GPU`` belongs to ``CUDNN``, which stays undefined).  Not chosen: a macro the options
already define or undefine, one the scanned files ``#define`` themselves, reserved names (``__CUDACC__``,
``_WIN32``: the compiler's) and ``#ifndef`` branches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from simu.frontend.ctext import comment_free
from simu.frontend.sysheaders import find_header

# CUDA toolkit headers of the runtime, driver and math libraries that simu's shim provides
CUDA_HEADERS = frozenset({
    "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "driver_types.h", "vector_types.h",
    "device_launch_parameters.h", "cuda_fp16.h", "cuComplex.h",
    "cublas.h", "cublas_v2.h", "cublas_api.h", "cublasLt.h", "curand.h", "curand_kernel.h",
    "cufft.h", "cufftXt.h", "cusparse.h", "cusparse_v2.h", "cusolverDn.h",
})
MAX_FILES = 400  # headers read per translation unit

_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|include|define)\b[ \t]*(.*)$", re.M)
_INCLUDE = re.compile(r'^\s*([<"])([^">]+)[">]')
_ONE = re.compile(r"^\(?\s*(?:defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|(\w+))\s*\)?\s*(?://.*|/\*.*)?$")


@dataclass(frozen=True)
class Guard:
    macro: str
    file: Path  # where the branch is
    line: int  # its directive, 1-based
    header: str  # the CUDA header it includes


@dataclass
class _Branch:
    macro: str | None
    line: int
    includes: list[tuple[str, bool]]


def reserved(name: str) -> bool:
    """A name the compiler or platform defines (``__CUDACC__``, ``_WIN32``): never simu's to choose."""
    return name.startswith("_") or name.isdigit()


def branch_macro(kind: str, condition: str) -> str | None:
    """The macro a ``#ifdef``/``#if``/``#elif`` branch is taken on, when it tests one macro only."""
    if kind == "ifdef":
        words = condition.split()
        return words[0] if words and not reserved(words[0]) else None
    if kind not in ("if", "elif"):
        return None
    m = _ONE.match(condition.strip())
    name = next((g for g in m.groups() if g), None) if m else None
    return name if name and not reserved(name) and name != "defined" else None


def scan_text(text: str) -> tuple[list[tuple[str, int, list[tuple[str, bool]]]], set[str], list[tuple[str, bool]]]:
    """``(branches, defined, includes)`` of one file: each single-macro branch as (macro, line, its direct
    includes as (name, quoted)), the macros the file ``#define``s, every include of the file."""
    text = comment_free(text)
    stack: list[_Branch] = []
    branches: list[tuple[str, int, list[tuple[str, bool]]]] = []
    defined: set[str] = set()
    includes: list[tuple[str, bool]] = []

    def close() -> None:
        b = stack.pop()
        if b.macro is not None:
            branches.append((b.macro, b.line, b.includes))

    for m in _DIRECTIVE.finditer(text):
        kind, rest = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        if kind in ("if", "ifdef", "ifndef"):
            stack.append(_Branch(branch_macro(kind, rest), line, []))
        elif kind in ("elif", "else") and stack:
            close()
            stack.append(_Branch(branch_macro(kind, rest), line, []))
        elif kind == "endif" and stack:
            close()
        elif kind == "define":
            if rest.split():
                defined.add(re.split(r"[(\s]", rest, maxsplit=1)[0])
        elif kind == "include":
            inc = _INCLUDE.match(rest)
            if inc:
                item = (inc.group(2).strip(), inc.group(1) == '"')
                includes.append(item)
                if stack:
                    stack[-1].includes.append(item)
    while stack:
        close()
    return branches, defined, includes


def _provided(name: str) -> bool:
    from simu.frontend.cuda_headers import cccl_include_dir
    from simu.frontend.sysheaders import provided_outside

    cccl = cccl_include_dir()
    return provided_outside(name, "cuda") or (cccl is not None and (cccl / name).is_file())


def cuda_guards(source: Path, search: list[Path], excluded: set[str] = frozenset()) -> list[Guard]:
    """The macros that gate CUDA headers for ``source`` and the project headers it reaches (module
    docstring), in the order they are met; ``search`` is the ``-I`` then discovered folders."""
    todo, done = [source.resolve()], set()
    found: dict[str, Guard] = {}
    defined: set[str] = set()
    while todo and len(done) < MAX_FILES:
        f = todo.pop(0)
        if f in done:
            continue
        done.add(f)
        try:
            text = f.read_text(errors="replace")
        except OSError:
            continue
        branches, file_defines, includes = scan_text(text)
        defined |= file_defines
        for name, quoted in includes:
            hit = find_header(name, ([f.parent] if quoted else []) + search)
            if hit is not None and hit not in done:
                todo.append(hit)
        for macro, line, direct in branches:
            if macro in found or macro in excluded:
                continue
            cuda, ok = None, True
            for name, quoted in direct:
                if find_header(name, ([f.parent] if quoted else []) + search) is not None:
                    continue  # a project header (darknet's own "cuda.h" is not the toolkit's)
                if name in CUDA_HEADERS:
                    cuda = cuda or name
                elif not _provided(name):
                    ok = False
            if cuda and ok:
                found[macro] = Guard(macro, f, line, cuda)
    return [g for g in found.values() if g.macro not in defined]


def option_macros(defines: tuple[str, ...], clang_args: tuple[str, ...]) -> set[str]:
    """The macros compile options already define (``-D``) or undefine (``-U``)."""
    names = {d.split("=", 1)[0] for d in defines}
    args = list(clang_args)
    for i, a in enumerate(args):
        for flag in ("-D", "-U"):
            if a == flag and i + 1 < len(args):
                names.add(args[i + 1].split("=", 1)[0])
            elif a.startswith(flag) and len(a) > 2:
                names.add(a[2:].split("=", 1)[0])
    return names


def describe(guards: list[Guard]) -> str:
    """The note for the macros defined: which branch each comes from."""
    parts = [f"{g.macro} ({g.file}:{g.line} includes {g.header} only when it is defined)" for g in guards]
    return ("a .cu file is compiled by the GPU build: defined " + ", ".join(parts) +
            " (give -D/-U options to choose otherwise)")


__all__ = ["CUDA_HEADERS", "Guard", "branch_macro", "cuda_guards", "describe", "option_macros", "reserved", "scan_text"]
