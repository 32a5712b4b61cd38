"""Nash equilibria of a two-player game by support enumeration.

Porter, Nudelman and Shoham, *Simple search methods for finding a Nash equilibrium*
(Games and Economic Behavior 63, 2008; AAAI 2004): try supports of equal size, smallest
first, after iterated removal of strictly dominated strategies; for each row support
skip the columns conditionally dominated against it, and keep a pair only if no row of
it is conditionally dominated against the columns.  Each pair's indifference equations
are solved exactly (`indifferent`) and the answer kept when no player gains by leaving
it.  Exact for nondegenerate games (where every equilibrium has supports of equal size).

    >>> import numpy as np
    >>> A = np.array([[1.0, -1.0], [-1.0, 1.0]])          # matching pennies
    >>> [(x.tolist(), y.tolist()) for x, y in support_enumeration(A, -A)]
    [([0.5, 0.5], [0.5, 0.5])]
"""

from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np

from dipsolve.core.results import Deadline

from .gains import two_player_gain

__all__ = ["conditionally_dominated", "indifferent", "support_enumeration", "undominated"]


def indifferent(M: np.ndarray, rows: Sequence[int], cols: Sequence[int]) -> np.ndarray | None:
    """The mixture ``y`` over ``cols`` making every row in ``rows`` equally good against
    it under ``M`` (rows x cols): ``M[rows][:, cols] y = v 1``, ``sum y = 1``, ``y >= 0``;
    None when there is none."""
    k, l = len(rows), len(cols)
    sys_ = np.zeros((k + 1, l + 1))
    sys_[:k, :l] = M[np.ix_(rows, cols)]
    sys_[:k, l] = -1.0
    sys_[k, :l] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    if k == l:
        try:
            sol = np.linalg.solve(sys_, rhs)
        except np.linalg.LinAlgError:
            return None
    else:
        sol, *_ = np.linalg.lstsq(sys_, rhs, rcond=None)
        if np.abs(sys_ @ sol - rhs).max() > 1e-9:
            return None
    y = sol[:l]
    if y.min() < -1e-12:
        return None
    y = np.clip(y, 0.0, None)
    return y / y.sum()


def undominated(A: np.ndarray, B: np.ndarray) -> tuple[list[int], list[int]]:
    """Rows and columns left after iterated elimination of strictly dominated pure
    strategies (no equilibrium uses a strictly dominated strategy)."""
    rows, cols = list(range(A.shape[0])), list(range(A.shape[1]))
    changed = True
    while changed:
        changed = False
        sub = A[np.ix_(rows, cols)]
        keep = [r for k, r in enumerate(rows)
                if not any((sub[j] > sub[k]).all() for j in range(len(rows)) if j != k)]
        if len(keep) < len(rows):
            rows, changed = keep, True
        sub = B[np.ix_(rows, cols)]
        keep = [c for k, c in enumerate(cols)
                if not any((sub[:, j] > sub[:, k]).all() for j in range(len(cols)) if j != k)]
        if len(keep) < len(cols):
            cols, changed = keep, True
    return rows, cols


def conditionally_dominated(M: np.ndarray, given: Sequence[int], among: Sequence[int]) -> set[int]:
    """Actions of ``among`` (columns of ``M``) strictly dominated by another of them when
    the opponent plays only ``given`` (rows of ``M``)."""
    sub = M[np.ix_(list(given), list(among))]
    return {among[k] for k in range(len(among))
            if any((sub[:, j] > sub[:, k]).all() for j in range(len(among)) if j != k)}


def support_enumeration(A: np.ndarray, B: np.ndarray, deadline: Deadline | None = None,
                        first_only: bool = True, tolerance: float = 1e-9
                        ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Nash equilibria ``(x, y)`` of the bimatrix game ``(A, B)`` (see the module notes),
    in the order found; ``first_only`` stops at the first.  Raises
    `dipsolve.core.results.TimeUp` when ``deadline`` passes first."""
    m, n = A.shape
    scale = max(1.0, float(np.abs(A).max()), float(np.abs(B).max()))
    live_rows, live_cols = undominated(A, B)
    found = []
    for k in range(1, min(len(live_rows), len(live_cols)) + 1):
        for rows in itertools.combinations(live_rows, k):
            dominated = conditionally_dominated(B, rows, live_cols)
            cols_ok = [c for c in live_cols if c not in dominated]
            for cols in itertools.combinations(cols_ok, k):
                if deadline is not None:
                    deadline.check()
                if conditionally_dominated(A.T, cols, rows):
                    continue
                y = indifferent(A, rows, cols)
                if y is None:
                    continue
                x = indifferent(B.T, cols, rows)
                if x is None:
                    continue
                xf, yf = np.zeros(m), np.zeros(n)
                xf[list(rows)], yf[list(cols)] = x, y
                if two_player_gain(A, B, xf, yf) <= tolerance * scale:
                    found.append((xf, yf))
                    if first_only:
                        return found
    return found
