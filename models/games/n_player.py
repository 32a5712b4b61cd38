"""A Nash equilibrium of a payoff table of three or more players: the solvers of this
package in the order that finds one soonest on the tables dipsolve meets.

1. `small_support_nash` on the first ``first`` support profiles (Porter, Nudelman and
   Shoham: small, balanced supports first);
2. `logit_tracing`: the logit branch to its limit, whatever the supports' sizes;
3. `small_support_nash` on the first ``limit`` support profiles, where the branch is lost;
4. the supports near fictitious play's mixtures after ``rounds`` rounds.

Measured (CPU seconds) on the 15 restricted games of three or more players the double
oracle meets in ``examples/adjustments/`` (stress-correlated, stress-three-removers,
stress-two-removers, stress-wide): the branch found an equilibrium in every one, in
0.03-1.46 s; small supports found one in 12 of the 15, in 0-2.0 s, and failed on three
2 x 2 x 2 x m x n tables after 1.5-1.7 s, where the branch took 0.10-0.16 s.  Small
supports up to 1,000 profiles take at most 0.3 s and answer eight of the 15, among them
the one where the branch is slowest (0.23 s against 1.46 s): so they go first, briefly.
On random integer tables (30 each of 3 x 3, 4 x 4 x 4, 2 x 2 x 2 x 6 x 6, 5 x 5 x 5,
2 x 3 x 4 x 5) both find one every time.  Every answer is checked exactly in the whole
table (`tensor_gains`).

A 4 x 4 zero-sum game whose only equilibrium mixes all four options of each player:
supports of at most three, small supports' cap, cannot reach it; the branch does.

    >>> import numpy as np
    >>> A = np.random.default_rng(28).random((4, 4)) * 10
    >>> strategies, method = table_nash(np.stack([A, -A], axis=-1))
    >>> method, [int((s > 0).sum()) for s in strategies]
    ('logit tracing', [4, 4])
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from dipsolve.core.results import Deadline

from .fictitious_play import fictitious_play
from .logit_tracing import logit_tracing
from .small_supports import small_support_nash

__all__ = ["table_nash"]

#: support profiles the small-support search tries before the logit branch ...
FIRST_SUPPORTS = 1_000
#: ... and after it
SUPPORT_LIMIT = 20_000
#: ... before the supports near fictitious play's mixtures after this many rounds
HINT_ROUNDS = 300


def table_nash(table: np.ndarray, deadline: Deadline | None = None,
               start: Sequence[int] | None = None, *, first: int = FIRST_SUPPORTS,
               limit: int = SUPPORT_LIMIT, rounds: int = HINT_ROUNDS) -> tuple[list[np.ndarray], str] | None:
    """A Nash equilibrium of ``table`` (shape ``(m_1, …, m_k, k)``) as each player's
    mixture over all its options, and the method that found it; None when none of the
    three finds one.  ``start``:
    each player's first option in fictitious play.  Raises
    `dipsolve.core.results.TimeUp` at ``deadline``."""
    if deadline is not None:
        deadline.check()
    found = small_support_nash(table, deadline, limit=first)
    if found is not None:
        return found, "small-support enumeration"
    found = logit_tracing(table, deadline)
    if found is not None:
        return found, "logit tracing"
    found = small_support_nash(table, deadline, limit=limit)
    if found is not None:
        return found, "small-support enumeration"
    hint, _ = fictitious_play(table, deadline, start, rounds=rounds)
    found = small_support_nash(table, deadline, hint=hint, limit=0)
    return None if found is None else (found, "supports near fictitious play")
