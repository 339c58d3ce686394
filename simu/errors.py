"""Errors that reach the user as one clear message (never a traceback)."""

from __future__ import annotations


class SimuError(Exception):
    """Base class: an error with a message meant for the user."""


class CompileError(SimuError):
    """A source file did not compile; carries clang's diagnostics."""

    def __init__(self, path: str, diagnostics: str, first: str | None = None):
        self.path = path
        self.diagnostics = diagnostics.rstrip()
        self.first = first or first_error_line(diagnostics) or "compilation failed"
        super().__init__(f"{path}: compile error: {self.first}")


class UnsupportedError(SimuError):
    """The IR uses an instruction or built-in the machine does not implement."""

    def __init__(self, what: str, location: str | None = None):
        self.what = what
        self.location = location
        where = f"{location}: " if location else ""
        super().__init__(f"{where}unsupported: {what}")


class LaunchError(SimuError):
    """A launch description is invalid (too large, missing argument, ...)."""


def first_error_line(diagnostics: str) -> str | None:
    """Return the first line of clang output that reports an error."""
    for line in diagnostics.splitlines():
        if "error:" in line:
            return line.strip()
    for line in diagnostics.splitlines():
        if line.strip():
            return line.strip()
    return None
