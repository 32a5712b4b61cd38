"""A correlated equilibrium of a game given as a payoff table, by linear programming.

Aumann, *Subjectivity and correlation in randomized strategies* (Journal of Mathematical
Economics 1, 1974): a distribution ``P`` over profiles such that no player, told only its
own recommendation ``a``, gains by playing ``a'`` instead.  The constraints are linear in
``P`` (Papadimitriou and Roughgarden, *Computing correlated equilibria in multi-player
games*, JACM 2008, section 2): for every player ``i`` and options ``a != a'``,
``sum over profiles recommending a of P(profile) (u_i(a', rest) - u_i(a, rest)) <= 0``.
Among them this LP (GLOP) maximises the sum of the players' expected payoffs.

    >>> import numpy as np
    >>> chicken = np.array([[[0.0, 0.0], [-1, 1]], [[1, -1], [-10, -10]]])
    >>> P = correlated_lp(chicken)
    >>> round(float(P[1, 1]), 6)                  # nobody is told to drive on
    0.0
"""

from __future__ import annotations

import numpy as np

from dipsolve.core.results import Deadline

from .lp import glop, solved

__all__ = ["correlated_lp"]


def correlated_lp(table: np.ndarray, deadline: Deadline | None = None) -> np.ndarray | None:
    """A welfare-maximising correlated equilibrium of ``table`` (shape
    ``(m_1, …, m_k, k)``) as an array of probabilities of shape ``(m_1, …, m_k)``;
    None if GLOP fails.  Raises `dipsolve.core.results.TimeUp` when the deadline stops it."""
    k = table.ndim - 1
    sizes = table.shape[:k]
    s = glop(deadline)
    flat = int(np.prod(sizes))
    p = [s.NumVar(0, 1, f"p{t}") for t in range(flat)]
    P = np.array(p, dtype=object).reshape(sizes)
    s.Add(sum(p) == 1)
    scale = max(1.0, float(np.abs(table).max()))
    for i in range(k):
        U = np.moveaxis(table[..., i], i, 0) / scale
        Pi = np.moveaxis(P, i, 0)
        for a in range(sizes[i]):
            base = U[a].ravel()
            vars_a = Pi[a].ravel()
            for a2 in range(sizes[i]):
                if a2 == a:
                    continue
                diff = U[a2].ravel() - base
                terms = [(float(d), v) for d, v in zip(diff, vars_a) if d > 1e-15 or d < -1e-15]
                if terms and any(d > 0 for d, _ in terms):
                    s.Add(sum(d * v for d, v in terms) <= 0)
            if deadline is not None:
                deadline.check()
    welfare = table.sum(axis=-1).ravel() / scale
    s.Maximize(sum(float(w) * v for w, v in zip(welfare, p)))
    if not solved(s, deadline):
        return None
    out = np.array([max(0.0, v.solution_value()) for v in p]).reshape(sizes)
    return out / out.sum()
