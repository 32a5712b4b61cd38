"""A Nash equilibrium of a game too large for a payoff table, by the double oracle.

McMahan, Gordon and Blum, *Planning in the presence of cost functions controlled by an
adversary* (ICML 2003): keep for each player a small set of options; solve the game
restricted to them exactly; ask each player's *best-response oracle* for its best option
against that solution over all its options; add any that gains, and repeat until none
does: then the restricted solution is an equilibrium of the whole game.

The game is reached through two questions (`Oracle`): a profile's payoff to a player,
and a player's expected payoff of each of its options against the others' mixtures.
The restricted game is solved exactly while at most two players have more than one
option kept (`support_enumeration`, else `sgc_milp`); with three or more, its table
(the product of the options kept, up to ``table_limit`` profiles) is solved by
`table_nash` (the logit branch to its limit, then small supports; every answer checked
exactly in the restricted table), and the search gives up (None) when it finds none.
"""

from __future__ import annotations

import itertools
import math
from typing import Protocol, Sequence

import numpy as np

from dipsolve.core.results import Deadline

from .n_player import table_nash
from .sgc_milp import sgc_milp
from .support_enumeration import support_enumeration

__all__ = ["Mixed", "Oracle", "Profile", "double_oracle"]

#: one option index per player
Profile = tuple[int, ...]
#: a mixed profile: per player, option -> probability (the support only)
Mixed = list[dict[int, float]]


class Oracle(Protocol):
    """What `double_oracle` asks of a game."""

    def payoff(self, profile: Profile, i: int) -> float:
        """Player ``i``'s payoff of a pure profile."""
        ...

    def expectations(self, mixed: Mixed, i: int, deadline: Deadline | None = None
                     ) -> tuple[np.ndarray, float]:
        """Player ``i``'s expected payoff of each of its options against the others'
        mixtures in ``mixed``, and of its own mixture there (exact)."""
        ...


def double_oracle(game: Oracle, group: Sequence[int], start: Profile,
                  deadline: Deadline | None = None, rounds: int = 200,
                  kept: dict[int, list[int]] | None = None, table_limit: int = 4096
                  ) -> tuple[Mixed, int] | None:
    """A Nash equilibrium of the players in ``group`` (the others keep their options in
    ``start``), each starting from its option in ``start`` (and those in ``kept``):
    every player's mixed strategy and the number of rounds; None when the restricted
    game has no equilibrium the solvers find (the MILP for two players, small supports
    for more), when it outgrows ``table_limit`` profiles, or after ``rounds`` rounds.
    Raises `dipsolve.core.results.TimeUp` when ``deadline`` passes first."""
    keep: dict[int, list[int]] = {i: [start[i]] for i in group}
    for i, opts in (kept or {}).items():
        keep[i] += [a for a in opts if a not in keep[i]]
    mixed: Mixed = [{a: 1.0} for a in start]
    solve = any(len(v) > 1 for v in keep.values())
    for r in range(1, rounds + 1):
        if solve:
            found = _restricted(game, group, start, keep, deadline, table_limit)
            if found is None:
                return None
            mixed = found
        solve = True
        added = False
        for i in group:
            vals, own = game.expectations(mixed, i, deadline)
            b = int(vals.argmax())
            if float(vals[b]) - own > 1e-9 * max(1.0, abs(own)) and b not in keep[i]:
                keep[i].append(b)
                added = True
        if not added:
            return mixed, r
    return None


def _restricted(game: Oracle, group: Sequence[int], start: Profile, keep: dict[int, list[int]],
                deadline: Deadline | None, table_limit: int) -> Mixed | None:
    """An equilibrium of the game restricted to the options in ``keep`` (None when
    none is found): one player with several options takes its best; two, support
    enumeration or the SGC MILP; more, `table_nash` on the restricted table."""
    mixed: Mixed = [{a: 1.0} for a in start]
    wide = [i for i in group if len(keep[i]) > 1]
    if not wide:
        return mixed
    if len(wide) == 1:
        (i,) = wide
        profile = list(start)

        def value(a: int) -> float:
            profile[i] = a
            return game.payoff(tuple(profile), i)
        mixed[i] = {max(keep[i], key=value): 1.0}
        return mixed
    sizes = [len(keep[i]) for i in wide]
    if math.prod(sizes) > table_limit:
        return None
    table = np.empty(sizes + [len(wide)])
    profile = list(start)
    for idx in itertools.product(*(range(s) for s in sizes)):
        for i, x in zip(wide, idx):
            profile[i] = keep[i][x]
        key = tuple(profile)
        for k, i in enumerate(wide):
            table[idx + (k,)] = game.payoff(key, i)
        if deadline is not None:
            deadline.check()
    if len(wide) == 2:
        A, B = table[..., 0], table[..., 1]
        found = support_enumeration(A, B, deadline)
        if found:
            strategies = list(found[0])
        else:
            sol = sgc_milp(A, B, deadline)
            if sol is None:
                return None
            strategies = list(sol)
    else:
        nash = table_nash(table, deadline)
        if nash is None:
            return None
        strategies = nash[0]
    for i, probs in zip(wide, strategies):
        support = {a: float(q) for a, q in zip(keep[i], probs) if q > 1e-12}
        total = sum(support.values())
        mixed[i] = {a: q / total for a, q in support.items()}
    return mixed
