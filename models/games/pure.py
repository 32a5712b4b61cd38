"""Every pure Nash equilibrium of a game given as a payoff table.

A profile is a pure equilibrium when each player's option is a best response to the
others' (Nash 1951); checked for every profile at once, one array comparison per player
(as Gambit's ``enumpure_solve`` does profile by profile: McKelvey, McLennan and Turocy,
*Gambit: Software Tools for Game Theory*).

    >>> import numpy as np
    >>> coordination = np.array([[[2.0, 1.0], [0.0, 0.0]], [[0.0, 0.0], [1.0, 2.0]]])
    >>> pure_equilibria(coordination)
    [(0, 0), (1, 1)]
"""

from __future__ import annotations

import numpy as np

__all__ = ["pure_equilibria"]


def pure_equilibria(table: np.ndarray, first_only: bool = False,
                    tolerance: float = 1e-9) -> list[tuple[int, ...]]:
    """Every pure equilibrium of ``table`` (shape ``(m_1, …, m_k, k)``), in table order.

    A payoff within ``tolerance`` (relative, at least 1 absolute unit of scale) of the
    best is counted as best: two sums equal in exact arithmetic may differ in their last
    bit.  ``first_only`` returns at most one."""
    k = table.ndim - 1
    ok = np.ones(table.shape[:k], dtype=bool)
    for i in range(k):
        U = table[..., i]
        best = U.max(axis=i, keepdims=True)
        ok &= U >= best - tolerance * np.maximum(1.0, np.abs(best))
    found = [tuple(int(a) for a in idx) for idx in zip(*np.nonzero(ok))]
    return found[:1] if first_only else found
