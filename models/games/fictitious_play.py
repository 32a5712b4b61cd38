"""An approximate Nash equilibrium of any game given as a payoff table, by fictitious
play.

Brown, *Iterative solution of games by fictitious play* (in Koopmans, ed., *Activity
Analysis of Production and Allocation*, 1951), simultaneous form: every round each
player best-responds to the others' empirical mixtures so far.  The empirical mixtures
converge to an equilibrium in two-player zero-sum games (Robinson, *An iterative method
of solving a game*, Annals of Mathematics 54, 1951), not in general; so the epsilon of
the mixtures is computed exactly (`tensor_gains`) every fifth round and the best
profile seen is returned.  Anytime: it stops at the deadline with its best.

    >>> import numpy as np
    >>> A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    >>> table = np.stack([A, -A], axis=-1)             # matching pennies
    >>> strategies, epsilon = fictitious_play(table, rounds=20_000)
    >>> epsilon < 0.01                                 # converging, slowly (Robinson)
    True
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from dipsolve.core.results import Deadline

from .gains import contract, tensor_gains

__all__ = ["fictitious_play"]


def fictitious_play(table: np.ndarray, deadline: Deadline | None = None,
                    start: Sequence[int] | None = None, rounds: int = 20_000
                    ) -> tuple[list[np.ndarray], float]:
    """The empirical mixtures with the smallest epsilon seen in at most ``rounds``
    rounds (or until ``deadline``), and that epsilon.  ``start``: each player's first
    option (0 when not given)."""
    k = table.ndim - 1
    sizes = table.shape[:k]
    counts = [np.zeros(s) for s in sizes]
    for i in range(k):
        counts[i][start[i] if start else 0] = 1.0
    best: list[np.ndarray] = [c / c.sum() for c in counts]
    best_eps = math.inf
    for t in range(1, rounds + 1):
        strategies = [c / c.sum() for c in counts]
        if t % 5 == 1 or t == rounds:
            eps = max(tensor_gains(table, strategies))
            if eps < best_eps:
                best, best_eps = [s.copy() for s in strategies], eps
            if eps <= 1e-12 or (deadline is not None and deadline.expired()):
                break
        for i in range(k):
            v = contract(table[..., i], strategies, i)
            counts[i][int(np.argmax(v))] += 1.0
    return best, best_eps
