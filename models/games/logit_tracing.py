"""A Nash equilibrium of a game of any number of players given as a payoff table, by
following the logit quantal response equilibria to their limit.

McKelvey and Palfrey, *Quantal response equilibria for normal form games* (Games and
Economic Behavior 10, 1995): at precision ``lam`` each player plays each option with
probability proportional to ``exp(lam * its expected payoff)``; at ``lam = 0`` the
only such profile is uniform play, and for almost every game the branch that starts
there reaches a Nash equilibrium as ``lam`` grows without bound.  Turocy, *A dynamic
homotopy interpretation of the logistic quantal response equilibrium correspondence*
(Games and Economic Behavior 51, 2005) follows that branch by predictor-corrector path
following in the log-probabilities, as here: an Euler step along the branch's tangent
(the null space of the equations' Jacobian), Newton's method back onto it with the step
held orthogonal to the tangent, the step length adapted to how well Newton does.

Along the way, every time ``lam`` doubles, the options played with probability above a
threshold are taken as each player's support and the support's indifference equations
are solved exactly by Newton's method (the polish of `small_support_nash`); an answer
is returned only when no player gains in the whole table by deviating (`tensor_gains`,
exact): so a branch that turns back, or a game where it does not arrive, gives None,
never a wrong answer.  The supports found here have no size cap: this is what finds
the equilibria where one or two players mix over five or six options, which small
supports miss.

    >>> import numpy as np
    >>> A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    >>> table = np.stack([A, -A], axis=-1)             # matching pennies
    >>> x, y = logit_tracing(table)
    >>> [round(float(p), 9) for p in x], [round(float(p), 9) for p in y]
    ([0.5, 0.5], [0.5, 0.5])
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from dipsolve.core.results import Deadline

from .small_supports import solve_support

__all__ = ["logit_tracing"]

#: the supports tried at each doubling of ``lam``: the options played above each share
THRESHOLDS = (1e-3, 1e-5, 1e-7)
#: ``lam`` (in units of the table's payoff range) where the first support is tried ...
FIRST_TRY = 5.0
#: ... and where the branch is given up
LAST_LAMBDA = 1e8
#: the least cosine between two tangents one step apart (a sharper turn: a shorter step)
TURN = 0.95
#: the corrector's most iterations (a step that needs more is shortened; one that
#: needs fewer than half lengthens the next)
CORRECTIONS = 10


class _Branch:
    """The equations of the logit branch of ``table`` (payoffs rescaled to a range of
    one) in the unknowns ``z``: each player's log-probabilities, then ``lam``."""

    def __init__(self, table: np.ndarray):
        self.k = k = table.ndim - 1
        self.sizes = list(table.shape[:k])
        scale = float(table.max() - table.min())
        self.offs = np.concatenate([[0], np.cumsum(self.sizes)]).astype(int)
        self.n = int(self.offs[-1])
        # each player's payoffs with its own axis first (and, for the Jacobian, each
        # other player's second), the rest in order: contracted from the last axis by
        # matrix products, far cheaper than tensordot on tables this small
        U = [table[..., i] / scale for i in range(k)]
        self.own = [np.ascontiguousarray(np.moveaxis(U[i], i, 0)) for i in range(k)]
        self.rest = [[j for j in range(k) if j != i] for i in range(k)]
        self.pairs = {(i, j): np.ascontiguousarray(np.moveaxis(U[i], (i, j), (0, 1)))
                      for i in range(k) for j in range(k)
                      if i != j and self.sizes[i] > 1 and self.sizes[j] > 1}

    def probabilities(self, z: np.ndarray) -> list[np.ndarray]:
        return [np.exp(z[self.offs[i]:self.offs[i + 1]]) for i in range(self.k)]

    def payoffs(self, ps: Sequence[np.ndarray], i: int) -> np.ndarray:
        """Player ``i``'s expected payoff of each option against the others' ``ps``."""
        out = self.own[i]
        for j in reversed(self.rest[i]):
            out = out @ ps[j]
        return out

    def pair(self, ps: Sequence[np.ndarray], i: int, j: int) -> np.ndarray:
        """Player ``i``'s expected payoff of each pair of its and ``j``'s options
        against the rest's ``ps``: a matrix (i's options x j's)."""
        out = self.pairs[i, j]
        for l in reversed(self.rest[i]):
            if l != j:
                out = out @ ps[l]
        return out

    def equations(self, z: np.ndarray) -> np.ndarray:
        """For each player: its probabilities sum to one, and each option's
        log-odds against its first option is ``lam`` times their payoff difference."""
        ps, lam = self.probabilities(z), z[self.n]
        F = np.empty(self.n)
        for i in range(self.k):
            r, y = self.offs[i], z[self.offs[i]:self.offs[i + 1]]
            u = self.payoffs(ps, i)
            F[r] = ps[i].sum() - 1.0
            F[r + 1:self.offs[i + 1]] = (y[1:] - y[0]) - lam * (u[1:] - u[0])
        return F

    def jacobian(self, z: np.ndarray) -> np.ndarray:
        """The ``n x (n + 1)`` Jacobian of `equations`."""
        ps, lam = self.probabilities(z), z[self.n]
        M = np.zeros((self.n, self.n + 1))
        for i in range(self.k):
            r, m = self.offs[i], self.sizes[i]
            u = self.payoffs(ps, i)
            M[r, r:r + m] = ps[i]
            rows = np.arange(r + 1, r + m)
            M[rows, rows] += 1.0
            M[rows, r] -= 1.0
            M[r + 1:r + m, self.n] = -(u[1:] - u[0])
            for j in range(self.k):
                if j != i and self.sizes[j] > 1 and m > 1:
                    P = self.pair(ps, i, j)
                    M[r + 1:r + m, self.offs[j]:self.offs[j + 1]] -= (
                        lam * (P[1:] - P[0][None, :]) * ps[j][None, :])
        return M

    @staticmethod
    def tangent(J: np.ndarray, previous: np.ndarray | None) -> np.ndarray:
        """The unit tangent of the branch where its Jacobian is ``J``, pointed on along
        it (``lam`` growing at the start)."""
        q, _ = np.linalg.qr(J.T, mode="complete")
        t = q[:, -1]
        forward = t[-1] if previous is None else float(t @ previous)
        return -t if forward < 0 else t


def _corrected(branch: _Branch, J: np.ndarray, predicted: np.ndarray, t: np.ndarray,
               step: float) -> tuple[np.ndarray, int] | None:
    """Newton's method from ``predicted`` back onto the branch, in the hyperplane
    through it orthogonal to ``t``, with the Jacobian ``J`` of the point the step left
    (the chord method: one Jacobian a step); the point and the iterations it took, or
    None when it does not contract at once (the step was too long: the caller shortens
    it)."""
    z = predicted.copy()
    last = np.inf
    try:
        lu = np.linalg.inv(np.vstack([J, t]))
    except np.linalg.LinAlgError:
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        for it in range(CORRECTIONS):
            b = np.concatenate([branch.equations(z), [t @ (z - predicted)]])
            d = -(lu @ b)
            size = float(np.abs(d).max())
            # a first correction longer than half the step, or one that does not
            # halve the last: the predictor left the branch's neighbourhood
            if not np.isfinite(size) or size > (0.5 * step if it == 0 else 0.5 * last):
                if size > 1e-9 * (1.0 + float(np.abs(z).max())):
                    return None
            z = z + d
            if float(z[:branch.n].max()) > 1.0:     # a probability above e: lost
                return None
            if size <= 1e-10 * (1.0 + float(np.abs(z).max())):
                # the equations scale with lam: so does what is left of them
                left = float(np.abs(branch.equations(z)).max())
                return (z, it) if left <= 1e-8 * (1.0 + abs(float(z[branch.n]))) else None
            last = size
    return None


def _polished(table: np.ndarray, ps: Sequence[np.ndarray], tolerance: float,
              tried: set[tuple[tuple[int, ...], ...]]) -> list[np.ndarray] | None:
    """An exact equilibrium on the supports that ``ps`` plays above each threshold,
    by Newton's method on their indifference equations; None if none checks out.
    ``tried``: the supports tried before (each is tried once), added to."""
    bound = tolerance * max(1.0, float(np.abs(table).max()))
    for threshold in THRESHOLDS:
        supports = [np.nonzero(p > threshold)[0] for p in ps]
        key = tuple(tuple(int(a) for a in s) for s in supports)
        if key in tried:
            continue
        tried.add(key)
        start = [p[s] / p[s].sum() for p, s in zip(ps, supports)]
        found = solve_support(table, [list(s) for s in supports], start, bound)
        if found is not None:
            return found
    return None


def logit_tracing(table: np.ndarray, deadline: Deadline | None = None,
                  tolerance: float = 1e-9, steps: int = 5000) -> list[np.ndarray] | None:
    """A Nash equilibrium of ``table`` (shape ``(m_1, …, m_k, k)``), each player's
    mixture over all its options, from the logit branch; None when the branch is lost
    (a step that Newton cannot correct however short) or ``steps`` steps end before an
    answer checks out.  Raises `dipsolve.core.results.TimeUp` at ``deadline``."""
    k = table.ndim - 1
    if float(table.max() - table.min()) <= 1e-12 * max(1.0, float(np.abs(table).max())):
        return [np.eye(m)[0] for m in table.shape[:k]]       # every profile is one
    branch = _Branch(table)
    z = np.concatenate([np.full(m, -np.log(m)) for m in branch.sizes] + [np.zeros(1)])
    J = branch.jacobian(z)
    t = branch.tangent(J, None)
    h, tried = 0.05, 0.0
    polished: set[tuple[tuple[int, ...], ...]] = set()
    for _ in range(steps):
        if deadline is not None:
            deadline.check()
        got = _corrected(branch, J, z + h * t, t, h)
        if got is None:
            h /= 2
            if h < 1e-10:
                return None
            continue
        z_new, iterations = got
        J_new = branch.jacobian(z_new)
        t_new = branch.tangent(J_new, t)
        if float(t_new @ t) < TURN and h > 1e-6:      # turned too sharply: shorter
            h /= 2
            continue
        z, t, J = z_new, t_new, J_new
        lam = float(z[branch.n])
        if iterations < CORRECTIONS // 2:
            h = min(h * 1.5, 10.0 + 0.3 * abs(lam))
        if lam > max(FIRST_TRY, 2 * tried):
            tried = lam
            found = _polished(table, branch.probabilities(z), tolerance, polished)
            if found is not None:
                return found
        if lam > LAST_LAMBDA:
            return None
    return None
