"""One Nash equilibrium of a two-player game by mixed-integer programming.

Sandholm, Gilpin and Conitzer, *Mixed-integer programming methods for finding Nash
equilibria* (AAAI 2005), formulation 1: for each player, probabilities ``p_a``, each
action's expected value ``u_a`` against the other's mixture, the player's value
``u >= u_a``, the regret ``r_a = u - u_a``, and a binary ``s_a`` that is 1 when ``a`` is
out of the support: ``p_a <= 1 - s_a`` and ``r_a <= U s_a`` (``U`` the player's payoff
range), so that only actions without regret are played.  The objective prefers small
supports (the cheapest to certify and to read).  Solved by CBC through PuLP with the
time left; the support found is then polished by solving its indifference equations
exactly (`indifferent`), which keeps whichever of the two is closer to an equilibrium.
"""

from __future__ import annotations

import numpy as np

from dipsolve.core.results import Deadline, TimeUp

from ..stopping import pulp_solve
from .gains import two_player_gain
from .support_enumeration import indifferent

__all__ = ["sgc_milp"]


def sgc_milp(A: np.ndarray, B: np.ndarray, deadline: Deadline | None = None
             ) -> tuple[np.ndarray, np.ndarray] | None:
    """A Nash equilibrium ``(x, y)`` of the bimatrix game ``(A, B)``, or None when CBC
    found none in the time left.  Raises `dipsolve.core.results.TimeUp` if no time is left
    to start CBC."""
    import pulp
    time_limit = None
    if deadline is not None:
        time_limit = deadline.seconds_left()      # CBC counts no nodes: seconds
        if time_limit <= 0 or deadline.expired():
            raise TimeUp
    m, n = A.shape
    prob = pulp.LpProblem("sgc", pulp.LpMinimize)
    players = [(A, m, n, "r"), (B.T, n, m, "c")]
    p = {"r": [pulp.LpVariable(f"pr{a}", 0, 1) for a in range(m)],
         "c": [pulp.LpVariable(f"pc{b}", 0, 1) for b in range(n)]}
    s = {"r": [pulp.LpVariable(f"sr{a}", cat="Binary") for a in range(m)],
         "c": [pulp.LpVariable(f"sc{b}", cat="Binary") for b in range(n)]}
    for M, mine, theirs, tag in players:
        other = "c" if tag == "r" else "r"
        rng = float(M.max() - M.min()) or 1.0
        u = pulp.LpVariable(f"u{tag}")
        prob += pulp.lpSum(p[tag]) == 1
        for a in range(mine):
            ua = pulp.lpSum(float(M[a, b]) * p[other][b] for b in range(theirs))
            prob += u >= ua
            prob += p[tag][a] <= 1 - s[tag][a]
            prob += u - ua <= rng * s[tag][a]
    prob += pulp.lpSum(1 - v for v in s["r"] + s["c"])
    if deadline is not None:
        time_limit = deadline.seconds_left()
        if time_limit <= 0 or deadline.expired():
            raise TimeUp
    pulp_solve(prob, pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, threads=1))
    if prob.sol_status != 1 and deadline is not None:
        deadline.out_of_time()                 # CBC's time limit came (not a node limit)
    if prob.sol_status not in (1, 2):          # no solution within the time limit
        return None
    x = np.array([v.value() or 0.0 for v in p["r"]])
    y = np.array([v.value() or 0.0 for v in p["c"]])
    rows = [a for a in range(m) if x[a] > 1e-9]
    cols = [b for b in range(n) if y[b] > 1e-9]
    yp = indifferent(A, rows, cols)
    xp = indifferent(B.T, cols, rows)
    if yp is not None and xp is not None:
        xf, yf = np.zeros(m), np.zeros(n)
        xf[rows], yf[cols] = xp, yp
        if two_player_gain(A, B, xf, yf) <= two_player_gain(A, B, x / x.sum(), y / y.sum()):
            return xf, yf
    return x / x.sum(), y / y.sum()
