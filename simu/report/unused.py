"""Kernels no host code launches, beside kernels of the same file that it does (issue 29).

Projects keep old variants of a kernel in the file that holds the ones ``main()`` uses (``reduce0`` ..
``reduce6`` with only ``reduce6`` launched, a ``_naive`` version beside the tuned one).  The search gives such a
kernel launches no host code makes, and its findings then stand on nothing the program does: each is at most a
warning that says so.  A file none of whose kernels the host code launches (a library without host code, or one
whose launcher simu does not read) keeps the search's severities: there the search's contract is all there is.
"""

from __future__ import annotations

from collections.abc import Callable

UNLAUNCHED = "unused variant"  # the assumption key of the findings capped here


class Siblings:
    """Which kernels of each defining file the host code launches, asked once per kernel."""

    def __init__(self) -> None:
        self._memo: dict[tuple[str, str], bool] = {}

    def known(self, where: str, name: str, launched: bool) -> None:
        """Record what a kernel's own contracts said: whether a host launch (or the user's constraints) is read."""
        self._memo[(where, name)] = launched

    def note(self, where: str, name: str, names: list[str], launched: Callable[[str], bool]) -> str:
        """Why kernel ``name`` (defined in ``where``) is an unused variant, "" when it is none: the host code
        launches other kernels of its file and not this one.  ``names``: the kernels defined there;
        ``launched(name)``: whether a host launch of that kernel is read, asked once per kernel."""
        def is_launched(n: str) -> bool:
            if (where, n) not in self._memo:
                self._memo[(where, n)] = launched(n)
            return self._memo[(where, n)]

        if is_launched(name):
            return ""
        others = sorted({n for n in names if n != name and is_launched(n)})
        if not others:
            return ""
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        return (f"no host code launches {name}, while it launches {shown} of the same file: the launch is the "
                "search's, for a kernel the program may never run")


def cap(findings: list, note: str) -> list:
    """Findings of an unused variant, each at most a warning that says why (:func:`simu.pipeline.beyond_contract`)."""
    if not note:
        return findings
    from simu.pipeline import beyond_contract

    return [beyond_contract(f, note, UNLAUNCHED) for f in findings]
