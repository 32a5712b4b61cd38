"""Maximin strategies of a two-player zero-sum game by linear programming.

Von Neumann's minimax theorem (1928): in a zero-sum game each player's maximin mixture
(the one that maximises its worst-case expected payoff) forms an equilibrium, and each is
the solution of one LP (Dantzig, *Linear Programming and Extensions*, 1963, chapter 13):
maximise ``v`` subject to ``sum_a x_a A[a, b] >= v`` for every column ``b``,
``sum x = 1``, ``x >= 0``.  Solved by GLOP.  A constant-sum game is solved the same way
(the constant does not change the strategies).

    >>> import numpy as np
    >>> rock_paper_scissors = np.array([[0.0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    >>> x, y = zero_sum_lp(rock_paper_scissors)
    >>> [round(float(p), 6) for p in y]
    [0.333333, 0.333333, 0.333333]
"""

from __future__ import annotations

import numpy as np

from dipsolve.core.errors import DipsolveInternalError
from dipsolve.core.results import Deadline

from .lp import glop, solved

__all__ = ["zero_sum_lp"]


def zero_sum_lp(A: np.ndarray, deadline: Deadline | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The row and column players' maximin strategies when the row player's payoffs are
    ``A`` and the column player's ``-A``.  Raises `dipsolve.core.results.TimeUp` when the
    deadline stops GLOP."""
    def maximin(M: np.ndarray) -> np.ndarray:
        s = glop(deadline)
        x = [s.NumVar(0, 1, f"x{a}") for a in range(M.shape[0])]
        v = s.NumVar(-s.infinity(), s.infinity(), "v")
        s.Add(sum(x) == 1)
        for b in range(M.shape[1]):
            s.Add(sum(float(M[a, b]) * x[a] for a in range(M.shape[0])) >= v)
        s.Maximize(v)
        if not solved(s, deadline):       # a finite zero-sum game always has a value
            raise DipsolveInternalError("GLOP found no maximin strategy of a finite game")
        return np.array([xi.solution_value() for xi in x])
    return maximin(A), maximin(-A.T)
