"""Generic solvers of finite games in normal form: one pure function per module.

Nothing here knows Diplomacy.  A game is a payoff array: a bimatrix ``(A, B)`` for two
players, or a table of shape ``(m_1, …, m_k, k)`` (``table[a_1, …, a_k, i]`` is player
``i``'s payoff) for any number; `double_oracle` works on a game too large for a table,
through two questions it asks of it (`Oracle`).  Every solver takes an optional
`dipsolve.core.results.Deadline`; when the time is up it raises `dipsolve.core.results.TimeUp`
(or, for the anytime ones, returns its best answer so far), and the LP/MILP solvers
hand the time left to GLOP or CBC.

==========================  =============================================================
`pure_equilibria`           every pure Nash equilibrium of a table (`pure`)
`support_enumeration`       Nash equilibria of a bimatrix game by support enumeration
                            (Porter, Nudelman and Shoham 2004; `support_enumeration`)
`sgc_milp`                  one Nash equilibrium of a bimatrix game by mixed-integer
                            programming (Sandholm, Gilpin and Conitzer 2005; `sgc_milp`)
`zero_sum_lp`               maximin strategies of a zero-sum bimatrix game by LP
                            (von Neumann 1928; `zero_sum`)
`correlated_lp`             a welfare-maximising correlated equilibrium by LP
                            (Aumann 1974; `correlated`)
`correlated_generation`     a correlated or coarse correlated equilibrium of a game
                            too large for a table: LP with column and row generation,
                            exact best responses as separation (`correlated_generation`)
`small_support_nash`        a Nash equilibrium of a table of any number of players by
                            small-support enumeration (Porter, Nudelman and Shoham
                            2004, n-player form; `small_supports`)
`logit_tracing`             a Nash equilibrium of a table of any number of players by
                            following the logit quantal response branch (McKelvey and
                            Palfrey 1995; Turocy 2005; `logit_tracing`)
`table_nash`                the above in the order that finds one soonest (`n_player`)
`fictitious_play`           an approximate Nash equilibrium of any table
                            (Brown 1951; `fictitious_play`)
`double_oracle`             a Nash equilibrium of a game too large for a table
                            (McMahan, Gordon and Blum 2003; `double_oracle`)
`tensor_gains`              each player's largest gain from deviating (`gains`)
==========================  =============================================================

    >>> import numpy as np
    >>> matching = np.array([[1.0, -1.0], [-1.0, 1.0]])     # matching pennies
    >>> x, y = zero_sum_lp(matching)
    >>> [round(float(p), 6) for p in x]
    [0.5, 0.5]
"""

from .correlated import correlated_lp
from .correlated_generation import Generation, RowOracle, correlated_generation, deviation_gains
from .double_oracle import Mixed, Oracle, Profile, double_oracle
from .fictitious_play import fictitious_play
from .gains import contract, tensor_gains, two_player_gain
from .logit_tracing import logit_tracing
from .n_player import table_nash
from .pure import pure_equilibria
from .sgc_milp import sgc_milp
from .small_supports import small_support_nash
from .support_enumeration import indifferent, support_enumeration
from .zero_sum import zero_sum_lp

__all__ = ["Generation", "Mixed", "Oracle", "Profile", "RowOracle", "contract", "correlated_generation",
           "correlated_lp", "deviation_gains", "double_oracle",
           "fictitious_play", "indifferent", "logit_tracing", "pure_equilibria", "sgc_milp", "small_support_nash",
           "support_enumeration", "table_nash", "tensor_gains", "two_player_gain", "zero_sum_lp"]
