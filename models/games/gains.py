"""How far a mixed profile is from an equilibrium: each player's largest gain from
deviating alone (its regret), computed exactly on a payoff table.

A profile's *epsilon* is the largest of these gains: 0 for a Nash equilibrium, and an
epsilon-equilibrium otherwise (Nisan, Roughgarden, Tardos and Vazirani, *Algorithmic
Game Theory*, 2007, section 2.6).

    >>> import numpy as np
    >>> A = np.array([[3.0, 0.0], [5.0, 1.0]])            # the prisoner's dilemma
    >>> cooperate = np.array([1.0, 0.0])
    >>> two_player_gain(A, A.T, cooperate, cooperate)     # defecting gains 2
    2.0
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["contract", "tensor_gains", "two_player_gain"]


def contract(U: np.ndarray, strategies: Sequence[np.ndarray], skip: int) -> np.ndarray:
    """Player ``skip``'s expected payoff of each of its options: ``U`` (its payoff
    tensor, one axis per player) contracted with every other player's mixed strategy."""
    out = U
    for j in range(len(strategies) - 1, -1, -1):
        if j == skip:
            continue
        out = np.tensordot(out, strategies[j], axes=([j], [0]))
    return out


def tensor_gains(table: np.ndarray, strategies: Sequence[np.ndarray]) -> list[float]:
    """Each player's largest gain from deviating alone from the mixed profile
    ``strategies`` in ``table`` (shape ``(m_1, …, m_k, k)``); never below 0."""
    gains = []
    for i in range(len(strategies)):
        v = contract(table[..., i], strategies, i)
        gains.append(max(0.0, float(v.max() - v @ strategies[i])))
    return gains


def two_player_gain(A: np.ndarray, B: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """The larger of the two players' gains from deviating from ``(x, y)`` in the
    bimatrix game ``(A, B)`` (row player's payoffs ``A``)."""
    return max(float((A @ y).max() - x @ A @ y), float((x @ B).max() - x @ B @ y))
