"""The opponent model "learned": a policy fitted to the orders the other powers have given.

A seat at a table (`dipsolve.play.bots.DipsolveBot`, the DAIDE client) and ``solve`` on a
game record's phase ask the same question: how do the others play *here*?  A `Table` keeps
the movement phases seen, each with every reported power's orders, and fits, per power we
order for, an `OrderPolicy` of the others' choices (`PolicyLearner`), starting from the
package's prior (`default_prior`, fitted to dipsolve's own self-play) and pulled toward it:
before any phase is seen the policy *is* the prior.  The search then plays a best response
to joint draws of that policy (``opponents="sampled"`` with the policy as predictor).

The fit takes at most `LEARNING_SHARE` of a phase's time; the search keeps at least
`SEARCH_FLOOR` of it.  Each phase is read once per power, when it is kept (a seat reads it
between phases, not in the next phase's time).

    >>> from dipsolve.core.position import Position
    >>> table = Table()
    >>> table.policy("France") is not None, table.phases
    (True, 0)
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ..algorithms.order_policy import OrderPolicy, PolicyLearner, default_prior
from ..core.orders import Order
from ..core.position import Position
from ..core.results import Deadline

#: the share of a phase's time the policy's fit may take at most, and the least share left
#: to the search (the phase then overruns by at most that much)
LEARNING_SHARE = 0.25
SEARCH_FLOOR = 0.05


class Table:
    """The movement phases of one game seen so far, and per power we order for, its
    learner of the others' policy (`PolicyLearner` from the prior), how many phases it
    has read and how many it had read at its last fit."""

    def __init__(self, history: Iterable[tuple[Position, Mapping[str, Sequence[Order]]]] = ()) -> None:
        self._seen: list[tuple[Position, dict[str, tuple[Order, ...]]]] = []
        self._learners: dict[str, tuple[PolicyLearner, int, int]] = {}
        for position, orders in history:
            self.observe(position, orders)

    @property
    def phases(self) -> int:
        """How many movement phases have been seen."""
        return len(self._seen)

    def observe(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> None:
        """Keep a movement phase's orders (other phases are ignored) and read it at once
        with the learner of every power already ordered for.  A power missing from
        ``orders`` is not learned from (a DAIDE server may report a seat its own orders
        only); one present with fewer orders than units held with the rest."""
        if position.phase.kind != "movement":
            return
        self._seen.append((position, {p: tuple(os) for p, os in orders.items()}))
        for power in list(self._learners):
            self._read(power)

    def _read(self, power: str, deadline: Deadline | None = None) -> tuple[PolicyLearner, int, int]:
        """``power``'s learner, having read the phases kept since it last read (in the
        order kept, until ``deadline``: 20-70 ms a phase); how many it has read, and how
        many it had read at its last fit."""
        learner, read, fitted = self._learners.get(power) or (
            PolicyLearner(prior=default_prior()), 0, 0)
        for position, orders in self._seen[read:]:
            if deadline is not None and deadline.expired():
                break
            learner.observe(position, orders,
                            [p for p in position.powers() if p != power and p in orders])
            read += 1
        self._learners[power] = entry = (learner, read, fitted)
        return entry

    def policy(self, power: str, deadline: Deadline | None = None) -> OrderPolicy:
        """The others' policy as ``power`` sees it: fitted to every phase seen (those
        not read yet are read first, as far as ``deadline`` allows; the fit resumes from
        the last one and stops at ``deadline``), the prior before any."""
        learner, read, fitted = self._read(power, deadline)
        if fitted < read:
            learner.fit(deadline=deadline)
            self._learners[power] = (learner, read, read)
        return learner.policy

    def describe(self, power: str) -> str:
        """The model in a few words, for an answer to say what it assumed."""
        learner, read, fitted = self._learners.get(power) or (None, 0, 0)
        if not fitted:
            return ("learned: the package's prior policy (no orders seen)" if not self._seen else
                    f"learned: the package's prior policy (no time to read the {self.phases} "
                    f"movement phases of orders)")
        assert learner is not None
        of = f"{fitted} of {self.phases}" if fitted < self.phases else f"{fitted}"
        return (f"learned: the prior policy fitted to {of} movement phase"
                f"{'s' if self.phases != 1 else ''} of orders ({learner.observed} units' choices)")
