"""CP-SAT set up in one place: every model of dipsolve is solved by a solver made here,
with the call's time left, its workers and its seed (`dipsolve.core.results.Limits`), so
that the same question with the same seed on one worker gets the same answer.

CP-SAT with one worker and a fixed ``random_seed`` is deterministic as long as the time
limit does not cut its search; with several workers it runs them in parallel and the
first to finish wins, which depends on the machine's load.

Under a limit counted in work (`Limits.nodes`: the call's `Deadline` runs on a
`dipsolve.core.results.WorkClock`) the nodes a solve may use become CP-SAT's
deterministic time (``max_deterministic_time``, `WorkClock.DETERMINISTIC_NODES` nodes a
deterministic second), on one worker with the seed: CP-SAT then stops at the same point
of its search on every run, however loaded the machine.  The wall time left before the
work clock's safety net stays its time limit (``max_time_in_seconds``), and
`dipsolve.models.stopping.cpsat_solve` counts the deterministic time a solve took on the
work clock.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from dipsolve.core.results import Deadline, WorkClock

__all__ = ["cpsat_solver"]


def cpsat_solver(seconds: float, *, workers: int = 1, seed: int = 0,
                 deadline: Deadline | None = None) -> cp_model.CpSolver:
    """A CP-SAT solver for at most ``seconds`` (at least 5 ms: CP-SAT reads 0 as "no
    limit"), ``workers`` threads and ``random_seed`` ``seed`` (a 32-bit integer, as
    ``max_seed`` of `dipsolve.core.bounds.LIMITS` allows).

    ``deadline``: the call's; when it counts work (`Deadline.counts_work`), ``seconds``
    are nodes of it: CP-SAT gets them as deterministic time, one worker whatever
    ``workers`` says, and the seconds left before the safety net as its time limit."""
    solver = cp_model.CpSolver()
    solver.parameters.random_seed = seed
    clock = deadline.clock if deadline is not None else None
    if isinstance(clock, WorkClock):
        solver.parameters.max_deterministic_time = max(1e-3, seconds / WorkClock.DETERMINISTIC_NODES)
        solver.parameters.max_time_in_seconds = max(0.005, clock.seconds_left())
        solver.parameters.num_workers = 1
        return solver
    solver.parameters.max_time_in_seconds = max(0.005, seconds)
    solver.parameters.num_workers = max(1, workers)
    return solver

