"""Errors that reach the user as one clear message (never a traceback), with their kind and place.

Every stage raises these; callers decide a status from the exception's type (``UnsupportedError``
means the machine does not model something: status ``unsupported``), never from its text, and
read the source position from ``where``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SourcePoint:
    """A position in a user's source file (column 0: unknown)."""

    file: str
    line: int
    column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}" if self.column else f"{self.file}:{self.line}"


class SimuError(Exception):
    """Base class: an error with a message meant for the user."""

    where: SourcePoint | None = None


class CompileError(SimuError):
    """A source file did not compile; carries clang's diagnostics."""

    def __init__(self, path: str, diagnostics: str, first: str | None = None):
        self.path = path
        self.diagnostics = diagnostics.rstrip()
        self.first = first or first_error_line(diagnostics) or "compilation failed"
        self.where, self.message = _diagnostic_parts(self.first)
        super().__init__(f"{path}: compile error: {self.first}")


class UnsupportedError(SimuError):
    """The IR uses an instruction or built-in the machine does not implement."""

    def __init__(self, what: str, where: SourcePoint | None = None):
        self.what = what
        self.where = where
        super().__init__(f"{where}: unsupported: {what}" if where else f"unsupported: {what}")


class LaunchError(SimuError):
    """A launch description is invalid (too large, missing argument, ...)."""


class NotLaunchableError(LaunchError):
    """The launch is beyond what a real GPU runs (threads per block, shared memory per block)."""


def first_error_line(diagnostics: str) -> str | None:
    """Return the first line of clang output that reports an error."""
    for line in diagnostics.splitlines():
        if "error:" in line:
            return line.strip()
    for line in diagnostics.splitlines():
        if line.strip():
            return line.strip()
    return None


_DIAGNOSTIC = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<what>.*)$")


def _diagnostic_parts(line: str) -> tuple[SourcePoint | None, str]:
    """Where a clang diagnostic line points, and its message ("file:line:col: error: message")."""
    m = _DIAGNOSTIC.match(line.strip())
    if m is None:
        return None, line.strip()
    return SourcePoint(m["file"], int(m["line"]), int(m["col"] or 0)), m["what"].strip()
