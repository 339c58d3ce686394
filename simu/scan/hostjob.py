"""The host index built beside a scan's first compiles.

Reading a project's host code (clang's dump of every file that can reach a launch) takes seconds on a large
repository, and nothing but a ``.cl`` file's compile options and every kernel's launch contracts need it: CUDA files
compile meanwhile.  The index is built in a thread of the scan's parent (its clang processes and the workers'
compiles share the cores), and what needs it waits here: the files to compile with its options, and the compiled
files whose kernels take its contracts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from simu.scan.flags import FileFlags


class HostIndexJob:
    """The :class:`FileFlags` with the host index, being built; ``files`` and ``outcomes`` wait for it."""

    def __init__(self, build: Callable[[], FileFlags]):
        self.future: Future = Future()
        self.files: list[tuple[Any, ...]] = []  # Scheduler.add_file arguments of files whose options need the index
        self.outcomes: list[tuple[Any, Any]] = []  # (task, outcome) of compiles finished before it
        # a daemon thread: an interrupted scan does not wait for the clang reads still under way
        threading.Thread(target=self._build, args=(build,), name="simu-host-index", daemon=True).start()

    def _build(self, build: Callable[[], FileFlags]) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            self.future.set_result(build())
        except BaseException as exc:  # noqa: BLE001 - raised again in the scan's own thread
            self.future.set_exception(exc)

    def done(self) -> bool:
        return self.future.done()

    def flags(self) -> FileFlags:
        """The finished flags (what the build raised is raised here)."""
        return self.future.result()


__all__ = ["HostIndexJob"]
