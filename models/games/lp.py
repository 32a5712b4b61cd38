"""A GLOP linear program (OR-Tools) given the time left of a `Deadline`, for the LP
solvers of this package (`zero_sum_lp`, `correlated_lp`): in seconds, on a work clock
(`Limits.nodes`) too, whose safety net then bounds it (GLOP counts no nodes)."""

from __future__ import annotations

from typing import Any

from dipsolve.core.results import Deadline, TimeUp

__all__ = ["glop", "solved"]


def glop(deadline: Deadline | None) -> Any:
    """A fresh GLOP solver whose time limit is what is left of ``deadline``; raises
    `dipsolve.core.results.TimeUp` when nothing is."""
    from ortools.linear_solver import pywraplp
    solver = pywraplp.Solver.CreateSolver("GLOP")
    if deadline is not None:
        left = deadline.seconds_left()        # GLOP counts no nodes: seconds
        if left <= 0 or deadline.expired():
            raise TimeUp
        solver.SetTimeLimit(max(1, int(left * 1000)))
    return solver


def solved(solver: Any, deadline: Deadline | None) -> bool:
    """Solve; True when GLOP reports an optimal (or feasible) solution.  Raises
    `dipsolve.core.results.TimeUp` when it stopped without one because the time was up."""
    status = solver.Solve()
    if status in (solver.OPTIMAL, solver.FEASIBLE):
        return True
    if deadline is not None and deadline.seconds_left() < 0.01:
        deadline.out_of_time()      # GLOP's own time limit came (on a work clock too)
    if deadline is not None and deadline.expired():
        raise TimeUp
    return False
