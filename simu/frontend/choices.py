"""A configuration choice the build was meant to make: ``#if defined(SINGLE_PRECISION) ... #elif
defined(DOUBLE_PRECISION) ... #else #error No precision defined`` compiles only when the host
passes one of the macros.  With no build flags at hand, simu defines the chain's first choice (and
says so) rather than give up on the file."""

from __future__ import annotations

import re

_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif|error)\b(.*)$")
_FIRST = re.compile(r"^\s*(?:defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|(\w+))\s*(?:$|\|\||&&)")
_ERROR_AT = re.compile(r"^(.*?):(\d+):\d+: error: ", re.M)


def error_line(diagnostics: str, path: str) -> int | None:
    """The line of ``path`` clang's first error is on, if it is in that file."""
    m = _ERROR_AT.search(diagnostics)
    return int(m.group(2)) if m and m.group(1) == path else None


def chain_default(text: str, line: int) -> str | None:
    """The macro of the first branch of the ``#if``/``#elif`` chain whose ``#else`` holds the ``#error`` on
    ``line`` (1-based), when that branch tests one macro being defined; else None."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return None
    m = _DIRECTIVE.match(lines[line - 1])
    if not m or m.group(1) != "error":
        return None
    depth, first = 0, None
    for i in range(line - 2, -1, -1):
        d = _DIRECTIVE.match(lines[i])
        if not d:
            continue
        kind, rest = d.group(1), d.group(2)
        if kind == "endif":
            depth += 1
        elif kind in ("if", "ifdef", "ifndef") and depth:
            depth -= 1
        elif depth:
            continue
        elif kind == "elif":
            continue
        elif kind == "else":
            continue
        elif kind == "ifdef":
            first = rest.split()[0] if rest.split() else None
            break
        elif kind == "if":
            f = _FIRST.match(rest)
            first = next((g for g in f.groups() if g), None) if f else None
            break
        else:  # #ifndef: its first branch is taken when the macro is *not* defined
            break
    return first if first and not first.isdigit() else None
