"""Many independent jobs (the games of a tournament, the positions of a batch) run by one
small interface: in this process, in local worker processes, or on Ray.

    with executor(jobs=2) as ex:                      # or ray="local", or ray="ADDRESS"
        ex.run(solve_one, [("a.dip", task_a), ("b.dip", task_b)], on_done=keep)

`Executor.run` calls ``fn(task)`` for every ``(key, task)`` and hands each job back to
``on_done`` exactly once, as a `Done`, in the order the jobs finish (in the calling
thread): ``ok`` with the function's value, or not ok with the reason in words; an
``on_start(key)`` hears of each job as it is handed to a worker (on Ray: sent to the
cluster, which may queue it).  The
jobs are independent and carry everything they need (their seeds too), so the values
are the same whatever the backend, the number of workers or the order of completion.

Failures, the same on every backend:

- a job whose function raises is done at once, not ok, with the exception in words
  (``ValueError: ...``): running it again would raise again;
- a job whose worker *dies* (killed, out of memory, a crash in a library) is run again,
  up to ``attempts`` times in all (2 by default); ``on_retry(key, reason)`` hears of each
  retry, and a job that died every time is done, not ok: ``its worker died 2 times
  (killed by SIGKILL)``.  No job is lost and none is reported twice;
- after `dipsolve.core.results.request_stop` (Ctrl-C), the jobs running are dropped and
  `dipsolve.core.results.Stopped` is raised once every finished job has been handed back.

The backends: `InProcess` (one job after another here: no process to start, nothing to
survive a crash), `LocalPool` (``jobs`` fresh worker processes, `dipsolve.execution.workers`) and
`dipsolve.execution.ray_cluster.RayExecutor` (Ray, the optional ``cluster`` extra,
imported only when asked for: a local Ray started for the run, or an existing cluster).
``fn`` must be a module-level function of an installed module (workers import it by
name) and each task and value must pickle.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from ..core.errors import DipsolveSyntaxError
from ..core.results import Stopped, stop_requested
from .jobs import (ATTEMPTS, Done, ExecutionUnavailable, Executor, OnDone, OnRetry, OnStart, _Base,
                   died, guarded)

__all__ = ["ATTEMPTS", "Done", "Executor", "ExecutionUnavailable", "InProcess", "LocalPool", "executor",
           "OnDone", "OnRetry", "OnStart", "died", "guarded"]

class InProcess(_Base):
    """Every job in this process, one after the other (nothing to start; a crash of the
    process ends the run)."""

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone,
            on_retry: OnRetry | None = None, on_start: OnStart | None = None) -> None:
        for key, task in jobs:
            if stop_requested():
                raise Stopped
            if on_start is not None:
                on_start(key)
            ok, value = guarded(fn, task)
            if stop_requested():
                raise Stopped            # cut short by the stop: no answer of it is kept
            on_done(Done(key, True, value) if ok else Done(key, False, error=value))


class LocalPool(_Base):
    """``workers`` fresh worker processes on this machine (`dipsolve.execution.workers`): a worker
    that dies is replaced and its job run again."""

    name = "local processes"

    def __init__(self, workers: int, attempts: int = ATTEMPTS) -> None:
        if workers < 1 or attempts < 1:
            raise DipsolveSyntaxError(f"workers and attempts must be 1 or more, not {workers}, {attempts}")
        self.workers = workers
        self.attempts = attempts

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[tuple[str, Any]], on_done: OnDone,
            on_retry: OnRetry | None = None, on_start: OnStart | None = None) -> None:
        from .workers import run_tasks
        call = functools.partial(guarded, fn)
        todo = list(range(len(jobs)))
        for attempt in range(1, self.attempts + 1):
            again: list[int] = []
            batch = todo

            def finished(i: int, answer: tuple[bool, Any], batch: list[int] = batch,
                         attempt: int = attempt) -> None:
                ok, value = answer
                key = jobs[batch[i]][0]
                on_done(Done(key, True, value, attempts=attempt) if ok
                        else Done(key, False, error=value, attempts=attempt))

            def lost(i: int, reason: str, batch: list[int] = batch, attempt: int = attempt) -> None:
                key = jobs[batch[i]][0]
                if attempt < self.attempts:
                    again.append(batch[i])
                    if on_retry is not None:
                        on_retry(key, reason)
                else:
                    on_done(Done(key, False, error=died(attempt, reason), attempts=attempt))

            def started(i: int, batch: list[int] = batch) -> None:
                if on_start is not None:
                    on_start(jobs[batch[i]][0])

            run_tasks(call, [jobs[j][1] for j in batch], min(self.workers, len(batch)),
                      on_result=finished, on_lost=lost, on_start=started, ordered=False)
            if not again:
                return
            todo = again


def executor(jobs: int = 1, ray: str | None = None, *, attempts: int = ATTEMPTS) -> Executor:
    """The backend for ``jobs`` jobs at once: this process (1), local worker processes
    (more), or Ray: ``ray="local"`` starts a local Ray with ``jobs`` CPUs for the run,
    any other ``ray`` is the address of an existing cluster (``ray://HOST:10001``,
    ``HOST:6379``, ``auto``), whose CPUs set the jobs at once."""
    if ray is not None:
        from .ray_cluster import RayExecutor
        return RayExecutor(None if ray == "local" else ray, jobs, attempts=attempts)
    if jobs <= 1:
        return InProcess()
    return LocalPool(jobs, attempts)
