"""Stopping the solvers dipsolve runs, at once, on `dipsolve.core.results.request_stop`
(Ctrl-C or SIGTERM at the command line): CP-SAT in this process, CBC in a child process.

CP-SAT catches SIGINT by itself (``catch_sigint_signal``): it would stop its search but
swallow the signal, so that the program never learns it was asked to stop, and it would
leave SIGTERM to wait for the end of the search.  `cpsat_solve` turns that off and
registers ``stop_search`` with `dipsolve.core.results.on_stop` instead.

PuLP runs CBC as a child process and waits for it; `pulp_solve` sends that child
SIGINT on a stop request, on which CBC stops and reports the best solution it has (as
a Ctrl-C at a terminal, which reaches the whole process group, does).  The child is
found by name among this process's children (Linux ``/proc``; elsewhere CBC runs to its
own time limit).
"""

from __future__ import annotations

import glob
import os
import signal
from typing import Any

from dipsolve.core.results import Deadline, WorkClock, on_stop


def cpsat_solve(solver: Any, model: Any, deadline: Deadline | None = None) -> Any:
    """``solver.solve(model)`` (a ``CpSolver`` and a ``CpModel``), stopped early by a
    stop request: the status CP-SAT reports then is that of the best answer so far.
    On a ``deadline`` that counts work (`Limits.nodes`), the solve's deterministic time
    is counted on its clock (`WorkClock.DETERMINISTIC_NODES` nodes a deterministic
    second; `dipsolve.models.cpsat`)."""
    solver.parameters.catch_sigint_signal = False
    with on_stop(solver.stop_search):
        status = solver.solve(model)
    clock = deadline.clock if deadline is not None else None
    if isinstance(clock, WorkClock):
        clock.spend(solver.deterministic_time * WorkClock.DETERMINISTIC_NODES)
    return status


def pulp_solve(problem: Any, solver: Any) -> Any:
    """``problem.solve(solver)`` (PuLP with CBC), with CBC told to stop on a stop request."""
    with on_stop(_interrupt_cbc):
        return problem.solve(solver)


def _children() -> list[int]:
    pids: list[int] = []
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/children"):
        try:
            with open(path) as f:
                pids += [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            pass
    return pids


def _interrupt_cbc() -> None:
    for pid in _children():
        try:
            with open(f"/proc/{pid}/comm") as f:
                if not f.read().strip().lower().startswith("cbc"):
                    continue
            os.kill(pid, signal.SIGINT)
        except (OSError, ValueError):
            pass
