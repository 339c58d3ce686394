"""The lifecycle every check follows, after Oclgrind's plugins: per launch, then once per kernel.

A kernel is analysed over any number of launches (one given by the user, or the dozens a search
tries).  For each launch the pipeline calls :meth:`Check.on_launch` (findings of that launch) and
:meth:`Check.observe` (what the kernel phase will need from it, kept small: never the trace).  When
the caller accepts the launch, the observation is kept; after the last launch
:meth:`Check.on_kernel_end` judges all of them together.  A check overrides only what it needs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from simu.detect.context import Context
from simu.detect.finding import Finding


class Check:
    """Base class of a check; ``name`` is what ``--checks`` and the configuration select."""

    name: ClassVar[str] = ""

    def on_launch(self, ctx: Context) -> list[Finding]:
        """Findings that this one launch shows."""
        return []

    def observe(self, ctx: Context) -> Any:
        """What the kernel phase needs to remember of this launch (None: nothing)."""
        return None

    def on_kernel_end(self, observations: list[Any]) -> list[Finding]:
        """Findings that need every accepted launch (e.g. a barrier no launch needed)."""
        return []

    def unsettled(self, observations: list[Any]) -> bool:
        """True while the kernel phase would report something more launches could refute: the search
        then spends part of its budget on launches chosen to refute it."""
        return False
