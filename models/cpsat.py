"""CP-SAT set up in one place: every model of dipsolve is solved by a solver made here,
with the call's time left, its workers and its seed (`dipsolve.core.results.Limits`), so
that the same question with the same seed on one worker gets the same answer.

CP-SAT with one worker and a fixed ``random_seed`` is deterministic as long as the time
limit does not cut its search; with several workers it runs them in parallel and the
first to finish wins, which depends on the machine's load.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

__all__ = ["cpsat_solver"]


def cpsat_solver(seconds: float, *, workers: int = 1, seed: int = 0) -> cp_model.CpSolver:
    """A CP-SAT solver for at most ``seconds`` (at least 5 ms: CP-SAT reads 0 as "no
    limit"), ``workers`` threads and ``random_seed`` ``seed`` (a 32-bit integer, as
    ``max_seed`` of `dipsolve.core.bounds.LIMITS` allows)."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.005, seconds)
    solver.parameters.num_workers = max(1, workers)
    solver.parameters.random_seed = seed
    return solver
