"""Many order sets over one position: `Resolver`, the adjudicator's movement phase for a search.

A search asks the same position the same question thousands of times, with one power's
(or a few powers') orders changed each time.  `Resolver` does once what does not
change: the position's tables (`dipsolve.core.rules.movement_table`), the fixed powers'
orders matched to their units (`dipsolve.core.rules.match_movement`), the map's
indices; each order set then matches only its own units onto a copy of that matching
and is resolved by the adjudicator's own steps (`dipsolve.core.adjudicator.settle`).
The `Resolution` says what a search needs (who is where, who is dislodged, which
centers change hands); the full `Outcome`, with the next `Position`, is built only on
request, by the adjudicator's own last step, so it is the one `adjudicate` gives::

    r = Resolver(position, {"France": [...], "Germany": [...]})   # fixed once
    for orders in candidates:                                     # England's sets
        res = r.resolve({"England": orders})
        res.units, res.dislodged, res.center_changes               # cheap
        res.next                                                   # the next Position

`resolve(orders)` equals ``adjudicate(position, {**fixed, **orders})`` (the tests check
it on random positions and on every DATC case): the orders of a power that is neither
fixed nor given are none (its units hold), and a power may not be both fixed and given.

Who calls it: the agenda search (`dipsolve.search.agenda`: its background orders fixed
once per search, each candidate set of its power resolved).  DumbBot
(`dipsolve.algorithms.dumbbot`) never adjudicates (it ranks destinations by its own
values), so it has nothing to route through here.  How the other searches should call
it (they belong to other issues today):

* the phase game (`dipsolve.search.phase_game`): every player's orders vary and the
  other powers hold, so ``self._resolver = Resolver(position)`` once in
  ``PhaseGame.__init__``, and in ``payoff`` and ``_value_against``
  ``self._resolver.resolve(orders).next`` where ``adjudicate(self.position,
  orders).next`` is now (the same `Position`; a payoff that needs only who is where
  can read ``.units`` and skip the next position);
* the opponent models (`dipsolve.search.opponents`: ``adjudicate(self.position,
  orders)`` per sampled scenario): a `Resolver` with the powers that do not change
  across the samples fixed;
* the adjustment equilibria (`dipsolve.models.equilibria`) resolve adjustment phases,
  which this module does not (they have no resolution to share: each removal set is a
  different board); they keep `adjudicate`.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .adjudicator import Outcome, _Movement, after_moves, center_changes, execute_movement, settle
from .errors import DipsolveRuleError
from .orders import Order
from .position import Position, Unit
from .rules import OrderResult, match_movement, movement_table

__all__ = ["Resolution", "Resolver"]


class Resolution:
    """One order set resolved by a `Resolver`: what a search reads, and the full
    `Outcome` on request."""

    __slots__ = ("position", "_st", "_results", "_after", "_outcome")

    def __init__(self, position: Position, st: _Movement, results: list[OrderResult]) -> None:
        self.position = position
        self._st = st
        self._results = results
        self._after = after_moves(st)
        self._outcome: Outcome | None = None

    @property
    def units(self) -> tuple[Unit, ...]:
        """The units on the board after movement (dislodged ones left out), in
        canonical order: who is where."""
        return tuple(self._after[2])

    @property
    def dislodged(self) -> tuple[Unit, ...]:
        """The units dislodged (where they stood), in board order."""
        units = self._st.units
        return tuple(units[i] for i in sorted(self._after[1]))

    @property
    def moved(self) -> tuple[Unit, ...]:
        """The units whose move succeeded (where they stood), in board order."""
        units, moved = self._st.units, self._after[0]
        return tuple(u for u, m in zip(units, moved) if m)

    @property
    def center_changes(self) -> dict[str, str]:
        """In a Fall phase, the supply centers that change hands if the board stands as
        after this movement (center -> new owner; a retreat phase between may change
        it); in Spring, none."""
        if self.position.phase.season != "Fall":
            return {}
        return center_changes(self.position, self._after[2])

    def outcome(self) -> Outcome:
        """The full `Outcome` (per-order results, the next position), as `adjudicate`
        gives it; built on the first call."""
        if self._outcome is None:
            self._outcome = execute_movement(self.position, self._st, self._results, self._after)
        return self._outcome

    @property
    def next(self) -> Position:
        """The position after this phase (`Outcome.next`)."""
        return self.outcome().next


class Resolver:
    """A movement phase's position with some powers' orders fixed, resolving many
    order sets of the other powers (see the module notes)."""

    def __init__(self, position: Position, fixed: Mapping[str, Iterable[Order]] | None = None) -> None:
        if position.phase.kind != "movement":
            raise DipsolveRuleError(f"a Resolver resolves movement phases, not {position.phase}",
                                    rule="phase")
        self.position = position
        self.fixed: dict[str, tuple[Order, ...]] = {p: tuple(os) for p, os in (fixed or {}).items()}
        base = self._base = _Movement(position, movement_table(position))
        self._base_results = match_movement(base, position, self.fixed)
        # what each order set starts from: the matching's per-order lists, copied (but
        # the lists of units ordered to move and to support or convoy, which
        # match_movement makes anew), and the rest of it, shared (what `settle` makes
        # is left unset)
        values = [(name, getattr(base, name)) for name in _SLOTS if hasattr(base, name)
                  and name not in ("moving", "others")]
        self._copied = [(name, v) for name, v in values if isinstance(v, list)]
        self._shared = [(name, v) for name, v in values if not isinstance(v, list)]

    def resolve(self, orders: Mapping[str, Iterable[Order]]) -> Resolution:
        """Resolve the fixed orders with ``orders`` (power -> orders, no fixed power)."""
        position, base = self.position, self._base
        for power in orders:
            if power in self.fixed:
                raise DipsolveRuleError(f"{power}'s orders are fixed in this Resolver",
                                        rule="fixed-orders")
        st = _Movement.__new__(_Movement)
        for name, value in self._shared:
            setattr(st, name, value)
        for name, lst in self._copied:
            setattr(st, name, lst[:])
        results = self._base_results + match_movement(st, position, orders)
        # match_movement leaves the units it ordered; the fixed ones come first
        if base.moving:
            st.moving = sorted(base.moving + st.moving)
        if base.others:
            st.others = sorted(base.others + st.others)
        settle(st)
        return Resolution(position, st, results)

    def adjudicate(self, orders: Mapping[str, Iterable[Order]]) -> Outcome:
        """The full `Outcome` of one order set: ``resolve(orders).outcome()``."""
        return self.resolve(orders).outcome()


#: every attribute of a matching (`Matching` and the adjudicator's state)
_SLOTS: tuple[str, ...] = tuple(dict.fromkeys(
    name for cls in _Movement.__mro__ for name in getattr(cls, "__slots__", ())))
