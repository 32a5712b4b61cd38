"""A Nash equilibrium of a game too large for a payoff table, by the double oracle.

McMahan, Gordon and Blum, *Planning in the presence of cost functions controlled by an
adversary* (ICML 2003): keep for each player a small set of options; solve the game
restricted to them exactly; ask each player's *best-response oracle* for its best option
against that solution over all its options; add any that gains, and repeat until none
does: then the restricted solution is an equilibrium of the whole game.

The game is reached through two questions (`Oracle`): a profile's payoff to a player,
and a player's expected payoff of each of its options against the others' mixtures.
The restricted game is solved exactly while at most two players have more than one
option kept (`support_enumeration`, else `sgc_milp`); when a third would need to mix,
the search gives up (None).
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from dipsolve.results import Deadline

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
                  deadline: Deadline | None = None, rounds: int = 200
                  ) -> tuple[Mixed, int] | None:
    """A Nash equilibrium of the players in ``group`` (the others keep their options in
    ``start``), each starting from its option in ``start``: every player's mixed
    strategy (the others pure) and the number of rounds; None when a third player would
    need to mix, the MILP found nothing, or after ``rounds`` rounds.  Raises
    `dipsolve.results.TimeUp` when ``deadline`` passes first."""
    kept: dict[int, list[int]] = {i: [start[i]] for i in group}
    mixed: Mixed = [{a: 1.0} for a in start]
    for r in range(1, rounds + 1):
        added = False
        for i in group:
            vals, own = game.expectations(mixed, i, deadline)
            b = int(vals.argmax())
            if float(vals[b]) - own > 1e-9 * max(1.0, abs(own)) and b not in kept[i]:
                kept[i].append(b)
                added = True
        if not added:
            return mixed, r
        wide = [i for i in group if len(kept[i]) > 1]
        if len(wide) > 2:
            return None
        mixed = [{a: 1.0} for a in start]
        if len(wide) == 1:
            (i,) = wide
            profile = list(start)

            def value(a: int) -> float:
                profile[i] = a
                return game.payoff(tuple(profile), i)
            mixed[i] = {max(kept[i], key=value): 1.0}
            continue
        i, j = wide
        A = np.empty((len(kept[i]), len(kept[j])))
        B = np.empty_like(A)
        profile = list(start)
        for x, a in enumerate(kept[i]):
            for y, b in enumerate(kept[j]):
                profile[i], profile[j] = a, b
                A[x, y] = game.payoff(tuple(profile), i)
                B[x, y] = game.payoff(tuple(profile), j)
        found = support_enumeration(A, B, deadline)
        if found:
            xs, ys = found[0]
        else:
            sol = sgc_milp(A, B, deadline)
            if sol is None:
                return None
            xs, ys = sol
        for who, opts, probs in ((i, kept[i], xs), (j, kept[j], ys)):
            support = {a: float(q) for a, q in zip(opts, probs) if q > 1e-12}
            total = sum(support.values())
            mixed[who] = {a: q / total for a, q in support.items()}
    return None
