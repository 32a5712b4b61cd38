"""A correlated (or coarse correlated) equilibrium of a game too large for a payoff table,
by linear programming with column and row generation over a working set of profiles.

A correlated equilibrium (Aumann 1974) is a distribution ``P`` over joint profiles such
that no player, told its own recommendation ``a``, gains by playing ``a'`` instead:
``sum over profiles s recommending a of P(s) (u_i(a', s_-i) - u_i(s)) <= 0``; a coarse
one (Hannan; Moulin and Vial 1978) asks it only of unconditional deviations
``sum over s of P(s) (u_i(a', s_-i) - u_i(s)) <= 0``.  The joint table is never built:

- the LP's columns are a *working set* ``W`` of profiles (at the start: the profiles the
  combined search walked through before it cycled); its rows are the deviations to a
  working set ``K_i`` of each player's options; it minimises the largest violation
  ``eps`` (GLOP, given the time left, from numpy arrays);
- *columns*: while ``eps > 0`` the deviations the LP's duals price (the rows that bind
  with a positive dual) are applied to the profiles of ``W`` they concern, and the
  profiles so reached join ``W`` (when none is new, every deviation within the ``K_i``
  of the support: ``W`` grows towards the product of the ``K_i``, whose restricted game
  has an equilibrium, so this ends);
- *rows*: when ``eps`` is 0, each player's exact best deviation from each recommendation
  is computed over **every** one of its options (one vectorised row of the game per
  profile of the others in the support, `RowOracle.option_values`); a deviation that
  gains joins ``K_i`` (and the profile it reaches joins ``W``).  When none gains, the
  distribution is an equilibrium of the whole game, and those very rows are its
  certificate: each player's largest gain (for a correlated equilibrium, from its best
  deviation *rule*, recommendation -> option; for a coarse one, from its best single
  option), exact.

This is the column generation of Dantzig and Wolfe applied to Papadimitriou and
Roughgarden's LP (*Computing correlated equilibria in multi-player games*, JACM 2008),
with exact best responses as the separation oracle, as in the double oracle of McMahan,
Gordon and Blum (2003).  Anytime: `Generation` holds the last distribution and its
certificate when the deadline stops it (`dipsolve.core.results.TimeUp`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np

from dipsolve.core.results import Deadline

from .double_oracle import Profile
from .lp import glop, solved

__all__ = ["Generation", "RowOracle", "correlated_generation", "deviation_gains"]

#: GLOP's tolerances, tighter than its defaults: the certificate must come out below 1e-6
_GLOP_PARAMETERS = ("primal_feasibility_tolerance: 1e-11 dual_feasibility_tolerance: 1e-11 "
                    "solution_feasibility_tolerance: 1e-9")
#: most new profiles one round adds to the working set
_MAX_NEW = 400


class RowOracle(Protocol):
    """What `correlated_generation` asks of a game."""

    @property
    def sizes(self) -> tuple[int, ...]:
        """Each player's number of options."""
        ...

    def payoff(self, profile: Profile, i: int) -> float:
        ...

    def values(self, profile: Profile, i: int, options: Sequence[int],
               deadline: Deadline | None = None) -> np.ndarray:
        """Player ``i``'s payoffs of ``options``, the others playing ``profile``."""
        ...

    def option_values(self, profile: Profile, i: int, deadline: Deadline | None = None
                      ) -> np.ndarray:
        """Player ``i``'s payoff of every one of its options, the others playing
        ``profile`` (exact)."""
        ...


@dataclass
class Generation:
    """The state of one run: what a deadline leaves behind is always a distribution."""

    distribution: dict[Profile, float]
    coarse: bool = False
    rounds: int = 0
    columns: int = 0                   # profiles in the working set
    rows: int = 0                      # deviation rows of the last LP
    lp_epsilon: float = math.inf       # the last LP's largest violation
    #: per player of the group: its largest gain, exact, over all its options (for the
    #: current distribution; empty until computed)
    gains: dict[int, float] = field(default_factory=dict)
    converged: bool = False

    @property
    def epsilon(self) -> float:
        return max(self.gains.values(), default=math.inf)


def deviation_gains(game: RowOracle, group: Sequence[int], dist: dict[Profile, float],
                    coarse: bool = False, deadline: Deadline | None = None
                    ) -> tuple[dict[int, float], dict[int, dict[int, np.ndarray]]]:
    """Each player's exact largest gain from deviating from ``dist`` (correlated: the
    best rule recommendation -> option, the sum over recommendations of the best gain
    of each; coarse: the best single option), and the regret rows behind it (per player,
    per recommendation — one row, key -1, when coarse — the gain of every option)."""
    gains: dict[int, float] = {}
    regrets: dict[int, dict[int, np.ndarray]] = {}
    for i in group:
        mine: dict[int, np.ndarray] = {}
        for s, p in dist.items():
            row = game.option_values(s, i, deadline)
            key = -1 if coarse else s[i]
            add = p * (row - row[s[i]])
            mine[key] = add if key not in mine else mine[key] + add
        regrets[i] = mine
        gains[i] = float(sum(max(0.0, float(r.max())) for r in mine.values()))
    return gains, regrets


def correlated_generation(game: RowOracle, group: Sequence[int], seeds: Sequence[Profile],
                          deadline: Deadline | None = None, coarse: bool = False,
                          tolerance: float = 1e-7, state: Generation | None = None,
                          max_rounds: int = 500) -> Generation:
    """A correlated (``coarse``: coarse correlated) equilibrium of the players in
    ``group`` (the others keep their options in ``seeds[0]``), from the working set
    ``seeds``.  ``tolerance``: the largest exact gain accepted.  ``state`` (updated in
    place) keeps the last distribution when `dipsolve.core.results.TimeUp` is raised."""
    group = list(group)
    work: list[Profile] = list(dict.fromkeys(seeds))
    index = {s: k for k, s in enumerate(work)}
    known: dict[int, list[int]] = {i: list(dict.fromkeys(s[i] for s in work)) for i in group}
    st = state if state is not None else Generation({work[0]: 1.0}, coarse)
    st.coarse = coarse
    own: dict[int, list[float]] = {i: [] for i in group}      # u_i(s), s in work order
    dev: dict[int, dict[tuple[int, int], float]] = {i: {} for i in group}

    def add(s: Profile) -> bool:
        if s in index:
            return False
        index[s] = len(work)
        work.append(s)
        return True

    for r in range(1, max_rounds + 1):
        st.rounds = r
        # the payoffs the LP needs: each profile's, and each deviation within K_i
        for i in group:
            while len(own[i]) < len(work):
                own[i].append(game.payoff(work[len(own[i])], i))
            for k, s in enumerate(work):
                missing = [a for a in known[i] if a != s[i] and (k, a) not in dev[i]]
                if missing:
                    vals = game.values(s, i, missing, deadline)
                    for a, v in zip(missing, vals):
                        dev[i][(k, a)] = float(v)
        solution = _solve(work, group, known, own, dev, coarse, deadline)
        if solution is None:         # GLOP could not solve this LP: keep the last answer
            return st
        p, eps, duals = solution
        st.columns, st.lp_epsilon = len(work), eps
        st.rows = len(duals)
        dist = {work[k]: float(q) for k, q in enumerate(p) if q > 1e-12}
        total = sum(dist.values())
        st.distribution = {s: q / total for s, q in dist.items()}
        st.gains = {}
        if eps > 1e-9:
            # columns: the priced deviations applied to the profiles they concern
            new = 0
            for (i, a, b), y in sorted(duals.items(), key=lambda t: -t[1]):
                if y <= 1e-12:
                    break
                for s in list(work):
                    if a == -1 or s[i] == a:
                        new += add(s[:i] + (b,) + s[i + 1:])
                if new >= _MAX_NEW:
                    break
            if not new:              # every deviation within K of the support, then of W
                for pool in (list(st.distribution), list(work)):
                    for s in pool:
                        for i in group:
                            for b in known[i]:
                                new += add(s[:i] + (b,) + s[i + 1:])
                    if new:
                        break
            if new:
                continue
        # rows: exact best deviations over every option, from the support; the players
        # with the fewest options first, and a round stops at the first that gains (the
        # rows of the others are needed only once nobody does: the certificate)
        gains, regrets = {}, {}
        for i in sorted(group, key=lambda j: (game.sizes[j], j)):
            g_i, r_i = deviation_gains(game, [i], st.distribution, coarse, deadline)
            gains.update(g_i)
            regrets.update(r_i)
            if g_i[i] > tolerance:
                break
        if len(gains) == len(group):
            st.gains = gains
            if max(gains.values(), default=0.0) <= tolerance:
                st.converged = True
                return st
        grew = False
        for i in regrets:
            for key, reg in regrets[i].items():
                b = int(reg.argmax())
                if reg[b] <= tolerance / 4:
                    continue
                if b not in known[i]:
                    known[i].append(b)
                    grew = True
                for s in st.distribution:
                    if key == -1 or s[i] == key:
                        grew |= add(s[:i] + (b,) + s[i + 1:])
        if not grew:                 # the LP's own accuracy is the limit: stop here
            return st
    return st


def _solve(work: list[Profile], group: list[int], known: dict[int, list[int]],
           own: dict[int, list[float]], dev: dict[int, dict[tuple[int, int], float]],
           coarse: bool, deadline: Deadline | None
           ) -> tuple[np.ndarray, float, dict[tuple[int, int, int], float]] | None:
    """The LP over ``work``: minimise the largest violation of the deviation rows.
    Returns the distribution, that violation and each row's dual (key (player,
    recommendation or -1, deviation)); None if GLOP fails (tight tolerances, then its
    own) for another reason than the deadline."""
    n = len(work)
    # the rows as arrays: for each (player, recommendation, deviation) the coefficients
    # over the profiles that recommend it
    rows: list[tuple[tuple[int, int, int], np.ndarray, np.ndarray]] = []
    scale = 1.0
    for i in group:
        rec = np.array([s[i] for s in work])
        u = np.array(own[i][:n])
        if coarse:
            for b in known[i]:
                d = np.array([dev[i].get((k, b), u[k]) if work[k][i] != b else u[k]
                              for k in range(n)]) - u
                rows.append(((i, -1, b), np.arange(n), d))
        else:
            for a in dict.fromkeys(rec.tolist()):
                ks = np.nonzero(rec == a)[0]
                for b in known[i]:
                    if b == a:
                        continue
                    d = np.array([dev[i][(int(k), b)] for k in ks]) - u[ks]
                    rows.append(((i, int(a), b), ks, d))
    for _, _, d in rows:
        if len(d):
            scale = max(scale, float(np.abs(d).max()))
    for parameters in (_GLOP_PARAMETERS, ""):    # tight tolerances; GLOP's own if they fail
        s = glop(deadline)
        s.SetSolverSpecificParametersAsString(parameters)
        p = [s.NumVar(0.0, 1.0, "") for _ in range(n)]
        eps = s.NumVar(0.0, s.infinity(), "eps")
        one = s.Constraint(1.0, 1.0)
        for v in p:
            one.SetCoefficient(v, 1.0)
        cons = []
        for key, ks, d in rows:
            c = s.Constraint(-s.infinity(), 0.0)
            c.SetCoefficient(eps, -1.0)
            for k, coef in zip(ks.tolist(), (d / scale).tolist()):
                if abs(coef) > 1e-13:          # float noise of sums equal in exact arithmetic
                    c.SetCoefficient(p[k], coef)
            cons.append((key, c))
        s.Minimize(eps)
        if solved(s, deadline):
            break
    else:
        return None
    x = np.clip(np.array([v.solution_value() for v in p]), 0.0, None)
    duals = {key: abs(c.dual_value()) for key, c in cons}
    return x / x.sum(), eps.solution_value() * scale, duals
