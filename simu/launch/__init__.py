"""Launches: the Launch model, text specs, buffers and their fills, constraints."""

from simu.launch.model import Launch, LocalBuffer, Schedule, as_dim3

__all__ = ["Launch", "LocalBuffer", "Schedule", "as_dim3"]
