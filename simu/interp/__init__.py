"""The SIMT machine: executes a Launch over vectorised lanes and records a Trace."""

from simu.interp.launch import Launch, LocalBuffer, Schedule, as_dim3
from simu.interp.machine import Limits, Machine, run
from simu.interp.outcome import Outcome, RunResult
from simu.interp.trace import Trace

__all__ = ["Launch", "LocalBuffer", "Limits", "Machine", "Outcome", "RunResult", "Schedule", "Trace", "as_dim3", "run"]
