"""A bound on the CPU time one kernel's analysis may take (``simu scan``'s workers and ``simu check`` alike).

The limit counts this process's CPU time (``ITIMER_PROF``), so a loaded machine does not turn a slow analysis into a
timeout; the alarm re-fires every 0.1 s, because an exception raised inside a ``__del__`` is swallowed."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# the CPU seconds, in budgets, after which one kernel's analysis is stopped: the loop's budget, the timed phases'
# 0.6 more, then the severity refutations, bounded by steps (never by the clock), which a loaded machine makes
# dearer in CPU: twice the room they take on an idle one
HARD_FACTOR = 4.0


class KernelTimeout(BaseException):
    """Raised by the alarm when one kernel's analysis runs past its limit."""


def can_limit() -> bool:
    """Whether this process and thread can set the alarm (POSIX, main thread)."""
    return hasattr(signal, "SIGPROF") and hasattr(signal, "setitimer") \
        and threading.current_thread() is threading.main_thread()


@contextmanager
def cpu_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`KernelTimeout` inside the block once it has used ``seconds`` of CPU (no limit when 0 or when
    :func:`can_limit` says no)."""
    if seconds <= 0 or not can_limit():
        yield
        return

    def on_alarm(signum, frame):
        raise KernelTimeout()

    old = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds, 0.1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def timeout_reason(seconds: float) -> str:
    return f"analysis used more than {seconds:g} s of CPU (the limit per kernel: four times the budget)"
