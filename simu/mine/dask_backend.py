"""Analyses as tasks on a Dask distributed cluster: one task per snapshot, run by
:func:`simu.mine.analyse.run_job` on a worker, whose plain-data answer the coordinator writes.

How a tree reaches a worker (``ship``):

* ``sources`` (the default): the coordinator clones the repository (or writes a commit's tree out of it) and
  ships the tree's source files with the task (regular files up to 1 MiB each, 256 MiB in all).  Workers need
  neither git nor network nor a shared file system.
* ``clone``: the task carries the repository URL and the commit; the worker clones it into its own work folder
  ($SIMU_MINE_WORK, else the temporary folder), reusing the clone for later tasks.  Workers need git and access
  to the repository (a local path must be visible to them); nothing large travels through the scheduler.

Workers must run the same simu (``pip install simu`` in their environment); each answer carries the worker's
code fingerprint, which its analyses record (the snapshot's identity stays the coordinator's, so that re-running
the command skips it).
"""

from __future__ import annotations

from typing import Any, Callable

from simu.mine.analyse import run_job

CONNECT_TIMEOUT = "20s"


class SchedulerError(Exception):
    """No cluster to run on: distributed is not installed, or the scheduler cannot be reached."""


class DaskBackend:
    """Submit jobs to a cluster; finished ones are handed to ``on_result(job, answer)`` in the coordinator."""

    def __init__(self, scheduler: Any, on_result: Callable[[dict[str, Any], dict[str, Any]], None]):
        try:
            from distributed import Client
        except ImportError:
            raise SchedulerError("--scheduler needs the 'distributed' package (pip install distributed)") from None
        self.on_result = on_result
        self.own = not isinstance(scheduler, Client)
        try:
            self.client = Client(scheduler, timeout=CONNECT_TIMEOUT) if self.own else scheduler
        except (OSError, TimeoutError, ValueError) as exc:
            raise SchedulerError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
        self.futures: dict[Any, dict[str, Any]] = {}

    def submit(self, job: dict[str, Any]) -> None:
        fut = self.client.submit(run_job, job, pure=False, key=f"simu-mine-{job['snapshot_id']}-{id(job):x}")
        self.futures[fut] = job

    def _finish(self, fut) -> None:
        job = self.futures.pop(fut)
        try:
            answer = fut.result()
        except Exception as exc:  # noqa: BLE001 - a worker lost or a task that raised: that snapshot fails
            answer = {"status": "failed", "reason": f"Dask task failed: {type(exc).__name__}: {exc}", "stats": {}}
        self.on_result(job, answer)

    def poll(self) -> None:
        """Store the tasks finished so far (the coordinator keeps planning meanwhile)."""
        for fut in [f for f in self.futures if f.done()]:
            self._finish(fut)

    def drain(self) -> None:
        from distributed import as_completed

        for fut in as_completed(list(self.futures)):
            self._finish(fut)

    def cancel(self) -> None:
        if self.futures:
            self.client.cancel(list(self.futures))
            self.futures.clear()

    def close(self) -> None:
        if self.own:
            self.client.close()


__all__ = ["DaskBackend", "SchedulerError"]
