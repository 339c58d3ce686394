"""A configuration choice the build was meant to make: ``#if defined(SINGLE_PRECISION) ... #elif
defined(DOUBLE_PRECISION) ... #else #error No precision defined`` compiles only when the host
passes one of the macros.  With no build flags at hand, simu defines the chain's first choice (and
says so) rather than give up on the file.

The ``#error`` may be in the file or in a header it includes (shoc's ``Timer.h``: ``#if defined(_WIN32)
... #elif defined(HAVE_CLOCK_GETTIME) && defined(HAVE_CLOCK_PROCESS_CPUTIME_ID) ... #elif
defined(HAVE_GETTIMEOFDAY) ... #else #error No supported timer available``, behind an autoconf
``config.h`` that only ``./configure`` writes).  The choice is the first branch whose condition is one
macro, or a conjunction of macros, being defined (of a disjunction, its first such term); a branch on a name the
compiler or platform defines (``_WIN32``, ``__APPLE__``, ``WIN32``) is never chosen, nor an ``#ifndef`` or a negated
test -- except nvcc's own name, ``__NVCC__``: simu compiles CUDA as nvcc does (``#if defined(__NVCC__) ||
defined(__NVCOMPILER_CUDA__) … #elif defined(__HIP_PLATFORM_HCC__) … #else #error Unsupported compiler``).

A static assertion that ``__CUDA_ARCH__`` is at least a value (:func:`arch_choice`) chooses the architecture the
file is compiled for."""

from __future__ import annotations

import re
from pathlib import Path

from simu.frontend.guards import reserved

_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif|error)\b(.*)$")
_TERM = re.compile(r"^\(?\s*(?:defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|(\w+))\s*\)?$")
_ERROR_AT = re.compile(r"^(.*?):(\d+):\d+: error: ", re.M)
PLATFORM = frozenset({"WIN32", "WIN64", "WINNT", "MSVC", "linux", "unix", "APPLE", "MACOSX"})
NVCC = "__NVCC__"  # the compiler simu stands in for: a chain may choose it


def error_location(diagnostics: str) -> tuple[str, int] | None:
    """``(file, line)`` of clang's first error."""
    m = _ERROR_AT.search(diagnostics)
    return (m.group(1), int(m.group(2))) if m else None


def branch_macros(kind: str, condition: str) -> tuple[str, ...]:
    """The macros whose definition takes a ``#ifdef``/``#if``/``#elif`` branch, when its condition is one
    macro or a conjunction (``&&``) of macros being defined and none is the platform's; else ()."""
    condition = re.sub(r"/\*.*?\*/|//.*$", "", condition).strip()
    if kind in ("if", "elif") and "||" in condition and "&&" not in condition and "(" not in condition.replace(
            "defined(", "").replace("defined (", ""):
        return next((names for alt in condition.split("||") if (names := branch_macros(kind, alt))), ())
    if kind == "ifdef":
        terms = condition.split()[:1]
    elif kind in ("if", "elif"):
        terms = [t.strip() for t in condition.split("&&")]
    else:
        return ()
    names = []
    for t in terms:
        m = _TERM.match(t) if kind != "ifdef" else re.match(r"(\w+)$", t)
        name = next((g for g in m.groups() if g), None) if m else None
        if not name or name == "defined" or reserved(name) and name != NVCC or name in PLATFORM:
            return ()
        names.append(name)
    return tuple(names)


def chain_choice(text: str, line: int) -> tuple[str, ...]:
    """The macros of the first choosable branch (see :func:`branch_macros`) of the ``#if``/``#elif``
    chain whose ``#else`` holds the ``#error`` on ``line`` (1-based); () when there is none."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return ()
    m = _DIRECTIVE.match(lines[line - 1])
    if not m or m.group(1) != "error":
        return ()
    depth, chain = 0, []
    for i in range(line - 2, -1, -1):
        d = _DIRECTIVE.match(lines[i])
        if not d:
            continue
        kind, rest = d.group(1), d.group(2)
        if kind == "endif":
            depth += 1
        elif kind in ("if", "ifdef", "ifndef") and depth:
            depth -= 1
        elif depth or kind in ("else", "error"):
            continue
        elif kind == "elif":
            chain.append(branch_macros(kind, rest))
        else:
            chain.append(branch_macros(kind, rest))
            break
    return next((c for c in reversed(chain) if c), ())


_MISSING = re.compile(r"error: (?:unknown type name|use of undeclared identifier) '(\w+)'")
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def definition_choice(diagnostics: str, folders: tuple[Path, ...]) -> tuple[tuple[str, ...], str]:
    """(the macros to define, the header) when clang's first error names a type or identifier that a header the
    failing file includes (``#include "…"``, three levels deep) defines only inside ``#ifdef`` choices with no
    default (``#ifdef CL_DTYPE_float`` / ``#define CL_DTYPE float`` … ``#ifdef CL_DTYPE_half`` / ``#define CL_DTYPE
    half``): the build passes one of them, and simu takes the first; ((), "") when there is none."""
    missing, at = _MISSING.search(diagnostics), error_location(diagnostics)
    if missing is None or at is None:
        return (), ""
    name = missing.group(1)
    seen: set[Path] = set()
    todo = [(Path(at[0]), 0)]
    while todo:
        path, depth = todo.pop(0)
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        chosen = _defined_under(text, name)
        if chosen:
            return chosen, str(path)
        if depth < 3:
            for inc in _INCLUDE.findall(text):
                for d in (path.parent, *folders):
                    q = (d / inc).resolve()
                    if q.is_file() and q not in seen:
                        seen.add(q)
                        todo.append((q, depth + 1))
                        break
    return (), ""


def _defined_under(text: str, name: str) -> tuple[str, ...]:
    """The macros of the ``#ifdef`` branch holding the first ``#define name`` of ``text``, when every definition
    of it sits in such a branch; () when one is unconditional or none is choosable."""
    lines = text.splitlines()
    first: tuple[str, ...] = ()
    for i, line in enumerate(lines):
        if not re.match(rf"\s*#\s*define\s+{name}\b", line):
            continue
        branch = _enclosing(lines, i)
        if not branch:
            return ()  # defined whatever the build passes: not this
        first = first or branch
    return first


def _enclosing(lines: list[str], i: int) -> tuple[str, ...]:
    """The macros of the innermost conditional branch holding line ``i`` (:func:`branch_macros`), () for an
    ``#else``, an ``#ifndef``, or no conditional at all."""
    depth = 0
    for j in range(i - 1, -1, -1):
        d = _DIRECTIVE.match(lines[j])
        if not d:
            continue
        kind = d.group(1)
        if kind == "endif":
            depth += 1
        elif kind in ("if", "ifdef", "ifndef") and depth:
            depth -= 1
        elif not depth and kind in ("if", "ifdef", "elif"):
            return branch_macros(kind, d.group(2))
        elif not depth and kind in ("ifndef", "else"):
            return ()
    return ()


__all__ = ["PLATFORM", "branch_macros", "chain_choice", "definition_choice", "error_location"]


DEFAULT_ARCH = 70  # simu compiles CUDA for sm_70 (compile.clang_arguments)
KNOWN_ARCHES = (75, 80, 86, 89, 90)  # what a static assertion on __CUDA_ARCH__ may ask for instead
_ARCH_ASSERT = re.compile(r"static assertion failed due to requirement '(\d+) (>=|>) (\d+)(?: \* (\d+))?'")


def arch_choice(diagnostics: str, arch: int) -> int | None:
    """The GPU architecture (``75`` for sm_75) a file asks for with a static assertion that ``__CUDA_ARCH__`` is at
    least some value (``static_assert(__CUDA_ARCH__ >= MIN_GPU_ARCH * 10)``, clang saying ``'700 >= 75 * 10'``)
    that compiling for ``arch`` failed; None when clang's errors say no such thing."""
    for m in _ARCH_ASSERT.finditer(diagnostics):
        if int(m.group(1)) != arch * 10:
            continue
        need = int(m.group(3)) * int(m.group(4) or 1) + (1 if m.group(2) == ">" else 0)
        return next((a for a in KNOWN_ARCHES if a * 10 >= need and a > arch), None)
    return None
