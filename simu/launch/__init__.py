"""Launches: the model (:mod:`.model`), buffers and their fills (:mod:`.buffers`), launches from text
(:mod:`.spec`), ``// launch:`` / ``// constrain:`` comments (:mod:`.comments`), user constraints
(:mod:`.constraints`) and the replayable record (:mod:`.record`).

The model's names are loaded on first use, so that :mod:`simu.config` can read
:mod:`.constraints` without numpy.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Launch", "LocalBuffer", "Schedule", "as_dim3"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from simu.launch import model

        return getattr(model, name)
    raise AttributeError(f"module 'simu.launch' has no attribute {name!r}")
