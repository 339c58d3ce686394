"""The SIMT machine: executes a Launch over vectorised lanes and records a Trace."""

from simu.interp.machine import Limits, Machine, run
from simu.interp.outcome import Outcome, RunResult
from simu.interp.trace import Trace

__all__ = ["Limits", "Machine", "Outcome", "RunResult", "Trace", "run"]
