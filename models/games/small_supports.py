"""A Nash equilibrium of a game of any number of players given as a payoff table, by
enumerating small supports.

Porter, Nudelman and Shoham (*Simple search methods for finding a Nash equilibrium*,
Games and Economic Behavior 63, 2008), the n-player form: after iterated removal of
strictly dominated options, try support profiles in order of total size (balanced
first), skip a profile where an option of some support is conditionally dominated
against the others' supports, and solve the profile's indifference equations — every
option of each player's support earns the same value ``v_i`` against the others'
mixtures, each mixture sums to one — which for three or more players are polynomial:
solved here by Newton's method from the uniform mixtures (and from a hint), then kept
only if every probability is non-negative and no player gains in the whole table by
leaving its support (`tensor_gains`, exact).  Supports are capped at ``max_support``
options a player.  Given a ``hint`` (an approximate equilibrium: fictitious play's
mixtures), the supports near it are tried first, whatever their size: the options it
plays clearly are in, the ones it plays a little are tried in and out (`_near`);
``limit=0`` tries only those.
Anytime: `dipsolve.core.results.TimeUp` when the deadline passes.

    >>> import numpy as np
    >>> A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    >>> table = np.zeros((2, 2, 2, 3))                 # matching pennies, and a bystander
    >>> table[:, :, 0, 0], table[:, :, 0, 1] = A, -A
    >>> table[:, :, 1, 0], table[:, :, 1, 1] = A, -A
    >>> table[..., 2] = np.array([0.0, 1.0])[None, None, :]
    >>> x = small_support_nash(table)
    >>> [[round(float(p), 6) for p in s] for s in x]
    [[0.5, 0.5], [0.5, 0.5], [0.0, 1.0]]
"""

from __future__ import annotations

import itertools
from typing import Iterator, Sequence

import numpy as np

from dipsolve.core.results import Deadline

from .gains import contract, tensor_gains

__all__ = ["newton_indifference", "pair_matrix", "small_support_nash", "solve_support"]


def _undominated(table: np.ndarray) -> list[list[int]]:
    """Each player's options left after iterated removal of strictly dominated ones."""
    k = table.ndim - 1
    live = [list(range(s)) for s in table.shape[:k]]
    changed = True
    while changed:
        changed = False
        for i in range(k):
            sub = np.moveaxis(table[np.ix_(*live)][..., i], i, 0).reshape(len(live[i]), -1)
            keep = [a for n, a in enumerate(live[i])
                    if not any((sub[m] > sub[n]).all() for m in range(len(live[i])) if m != n)]
            if len(keep) < len(live[i]):
                live[i], changed = keep, True
    return live


def _size_vectors(caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Support sizes, smallest total first, balanced before lopsided."""
    vecs = list(itertools.product(*(range(1, c + 1) for c in caps)))
    vecs.sort(key=lambda v: (sum(v), max(v) - min(v), v))
    return iter(vecs)


def pair_matrix(U: np.ndarray, xs: Sequence[np.ndarray], i: int, j: int) -> np.ndarray:
    """``U`` contracted with every mixture but players ``i`` and ``j``'s: a matrix
    (i's options x j's options)."""
    out = U
    for n in range(len(xs) - 1, -1, -1):
        if n not in (i, j):
            out = np.tensordot(out, xs[n], axes=([n], [0]))
    return out if i < j else out.T


def newton_indifference(sub: np.ndarray, start: list[np.ndarray], iterations: int = 25
            ) -> list[np.ndarray] | None:
    """Solve the indifference equations of the support sub-table ``sub`` (every option
    of each player equally good against the others' mixtures, each mixture summing to
    one) from ``start``; None if Newton's method does not converge."""
    k = sub.ndim - 1
    sizes = [x.size for x in start]
    offs = np.concatenate([[0], np.cumsum(sizes)])
    n = int(offs[-1])
    scale = max(1.0, float(np.abs(sub).max()))
    xs = [x.astype(float).copy() for x in start]
    v = np.array([float(contract(sub[..., i], xs, i) @ xs[i]) for i in range(k)])
    for _ in range(iterations):
        F = np.zeros(n + k)
        J = np.zeros((n + k, n + k))
        for i in range(k):
            ui = contract(sub[..., i], xs, i)
            F[offs[i]:offs[i + 1]] = (ui - v[i]) / scale
            J[offs[i]:offs[i + 1], n + i] = -1.0 / scale
            for j in range(k):
                if j != i and sizes[j] > 1:
                    J[offs[i]:offs[i + 1], offs[j]:offs[j + 1]] = pair_matrix(sub[..., i], xs, i, j) / scale
            F[n + i] = xs[i].sum() - 1.0
            J[n + i, offs[i]:offs[i + 1]] = 1.0
        if np.abs(F).max() < 1e-14:
            return xs
        if np.abs(F).max() > 1e6:          # diverging
            return None
        step, *_ = np.linalg.lstsq(J, -F, rcond=None)
        for i in range(k):
            xs[i] = xs[i] + step[offs[i]:offs[i + 1]]
        v = v + step[n:] * 1.0
        if any(not np.isfinite(x).all() for x in xs):
            return None
    return xs if np.abs(F).max() < 1e-10 else None


def solve_support(table: np.ndarray, supports: Sequence[Sequence[int]], start: list[np.ndarray],
                  bound: float) -> list[np.ndarray] | None:
    """The equilibrium of ``table`` on ``supports`` (each player's options played), by
    Newton's method on their indifference equations from ``start`` (mixtures over the
    supports), widened to mixtures over all options; None unless Newton converges to
    non-negative mixtures and no player gains more than ``bound`` by deviating in the
    whole table (the exact check: an answer is never a near miss)."""
    xs = newton_indifference(table[np.ix_(*supports)], start)
    if xs is None or min(float(x.min()) for x in xs) < -1e-12:
        return None
    full = []
    for i, s in enumerate(supports):
        x = np.zeros(table.shape[i])
        x[list(s)] = np.clip(xs[i], 0.0, None)
        full.append(x / x.sum())
    return full if max(tensor_gains(table, full)) <= bound else None


def small_support_nash(table: np.ndarray, deadline: Deadline | None = None,
                       max_support: int = 3, tolerance: float = 1e-9,
                       hint: Sequence[np.ndarray] | None = None,
                       limit: int = 20_000) -> list[np.ndarray] | None:
    """A Nash equilibrium of ``table`` (shape ``(m_1, …, m_k, k)``) with at most
    ``max_support`` options in each player's support, as each player's mixture over
    all its options; None when none is found among the first ``limit`` support
    profiles.  ``hint``: mixtures near an equilibrium (fictitious play's), whose
    nearby supports are tried first, Newton's method starting from them."""
    k = table.ndim - 1
    scale = max(1.0, float(np.abs(table).max()))
    live = _undominated(table)
    caps = [min(max_support, len(x)) for x in live]

    def attempt(supports: Sequence[Sequence[int]]) -> list[np.ndarray] | None:
        starts = [[np.full(len(s), 1.0 / len(s)) for s in supports]]
        if hint is not None:
            h = [np.asarray(hint[i])[list(s)] + 1e-3 for i, s in enumerate(supports)]
            starts.insert(0, [x / x.sum() for x in h])
        for start in starts:
            found = solve_support(table, supports, start, tolerance * scale)
            if found is not None:
                return found
        return None

    if hint is not None:
        for n, near in enumerate(_near(hint, k)):
            if deadline is not None and n % 16 == 15:
                deadline.check()
            found = attempt(near)
            if found is not None:
                return found
    tried = 0
    for sizes in _size_vectors(caps):
        for supports in itertools.product(*(itertools.combinations(live[i], s)
                                             for i, s in enumerate(sizes))):
            tried += 1
            if tried > limit:
                return None
            if deadline is not None and tried % 16 == 0:
                deadline.check()
            if _conditionally_dominated(table, supports, live):
                continue
            found = attempt(supports)
            if found is not None:
                return found
    return None


def _near(hint: Sequence[np.ndarray], k: int, low: float = 1e-4, high: float = 0.15,
          cap: int = 256) -> Iterator[list[list[int]]]:
    """Supports near an approximate equilibrium ``hint`` (fictitious play's mixtures,
    say): the options it plays with weight at least ``high`` are in, those between
    ``low`` and ``high`` are tried in and out, fewest first (at most ``cap`` supports)."""
    sure = [[a for a in range(len(h)) if h[a] >= high] or [int(np.argmax(h))] for h in hint]
    doubt = [(i, a) for i in range(k) for a in range(len(hint[i]))
             if low < hint[i][a] < high and a not in sure[i]]
    n = 0
    for r in range(len(doubt) + 1):
        for pick in itertools.combinations(doubt, r):
            n += 1
            if n > cap:
                return
            yield [sorted(sure[i] + [a for j, a in pick if j == i]) for i in range(k)]


def _conditionally_dominated(table: np.ndarray, supports: Sequence[Sequence[int]],
                             live: Sequence[Sequence[int]]) -> bool:
    """Whether an option in some player's support is strictly dominated by one of its
    live options when the others play only within their supports."""
    k = table.ndim - 1
    for i in range(k):
        if len(supports[i]) == 1 and len(live[i]) == 1:
            continue
        idx = [list(s) for s in supports]
        idx[i] = list(live[i])
        sub = np.moveaxis(table[np.ix_(*idx)][..., i], i, 0).reshape(len(live[i]), -1)
        pos = {a: n for n, a in enumerate(live[i])}
        for a in supports[i]:
            row = sub[pos[a]]
            if any((sub[m] > row).all() for m in range(len(live[i])) if m != pos[a]):
                return True
    return False
