"""Many order sets over one position: `Resolver`, the adjudicator's movement phase for a search.

A search asks the same position the same question thousands of times, with one power's
(or a few powers') orders changed each time.  `Resolver` does once what does not
change: the position's units and the fixed powers' orders as the engine's rows
(`dipsolve.core.board`); each order set then adds its own rows and is resolved by the
one rules engine (`dipsolve.core.kernel.movement`), matching included.  The
`Resolution` says what a search needs (who is where, who is dislodged, which centers
change hands); the full `Outcome`, with the next `Position` and the per-order results,
is built only on request, from the same answer, so it is the one `adjudicate` gives::

    r = Resolver(position, {"France": [...], "Germany": [...]})   # fixed once
    for orders in candidates:                                     # England's sets
        res = r.resolve({"England": orders})
        res.units, res.dislodged, res.center_changes               # cheap
        res.next                                                   # the next Position

A search that judges a candidate set many times (against other powers' sets, in other
resolvers' rounds) packs it once, ``packed = r.pack({"England": orders})``, and resolves
``r.resolve(packed)``: its orders are made into the engine's rows once.

`resolve(orders)` equals ``adjudicate(position, {**fixed, **orders})`` (the tests check
it on random positions and on every DATC case): the orders of a power that is neither
fixed nor given are none (its units hold), and a power may not be both fixed and given.

Who calls it: the agenda search (`dipsolve.search.agenda`: its background orders fixed
once per search, each candidate set of its power resolved) and the phase game
(`dipsolve.search.phase_game`: every player's orders vary).  The adjustment equilibria
(`dipsolve.models.equilibria`) resolve adjustment phases, which this module does not;
they keep `adjudicate`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from . import kernel as k
from .adjudicator import (Outcome, center_changes, dislodged_by, moved_in, movement_outcome,
                          units_after)
from .board import board_of, engine_movement, engine_units, order_chunks, packed
from .errors import DipsolveRuleError
from .orders import Order
from .position import Position, Unit

__all__ = ["Packed", "Resolution", "Resolver"]


class Resolution:
    """One order set resolved by a `Resolver`: what a search reads, and the full
    `Outcome` on request."""

    __slots__ = ("position", "_summary", "_details", "_given", "_resolver", "_units", "_outcome")

    def __init__(self, resolver: "Resolver", summary: list[int], details: Any,
                 given: list[tuple[str, Sequence[Order]]]) -> None:
        self.position = resolver.position
        self._resolver = resolver
        self._summary, self._details, self._given = summary, details, given
        self._units: list[Unit] | None = None
        self._outcome: Outcome | None = None

    def _after(self) -> list[Unit]:
        units = self._units
        if units is None:
            units = self._units = units_after(self._summary, self._resolver.board)
        return units

    @property
    def units(self) -> tuple[Unit, ...]:
        """The units on the board after movement (dislodged ones left out), in
        canonical order: who is where."""
        return tuple(self._after())

    @property
    def dislodged(self) -> tuple[Unit, ...]:
        """The units dislodged (where they stood), in board order."""
        units = self.position.units
        return tuple(units[i] for i in sorted(dislodged_by(self._summary)))

    @property
    def moved(self) -> tuple[Unit, ...]:
        """The units whose move succeeded (where they stood), in board order."""
        units = self.position.units
        return tuple(units[i] for i in moved_in(self._summary))

    @property
    def center_changes(self) -> dict[str, str]:
        """In a Fall phase, the supply centers that change hands if the board stands as
        after this movement (center -> new owner; a retreat phase between may change
        it); in Spring, none."""
        if self.position.phase.season != "Fall":
            return {}
        return center_changes(self.position, self._after())

    def outcome(self) -> Outcome:
        """The full `Outcome` (per-order results, the next position), as `adjudicate`
        gives it; built on the first call."""
        if self._outcome is None:
            self._outcome = movement_outcome(self.position, self._summary, self._details,
                                             self._given, self._resolver.board, self._after())
        return self._outcome

    @property
    def next(self) -> Position:
        """The position after this phase (`Outcome.next`)."""
        return self.outcome().next


class Packed:
    """An order set packed by `Resolver.pack` for that resolver: its orders as the
    engine's rows, made once."""

    __slots__ = ("resolver", "orders", "rows", "given")

    def __init__(self, resolver: "Resolver", orders: dict[str, tuple[Order, ...]], rows: Any,
                 given: list[tuple[str, Sequence[Order]]]) -> None:
        self.resolver, self.orders, self.rows, self.given = resolver, orders, rows, given


class Resolver:
    """A movement phase's position with some powers' orders fixed, resolving many
    order sets of the other powers (see the module notes)."""

    def __init__(self, position: Position, fixed: Mapping[str, Iterable[Order]] | None = None) -> None:
        if position.phase.kind != "movement":
            raise DipsolveRuleError(f"a Resolver resolves movement phases, not {position.phase}",
                                    rule="phase")
        if not k.loaded():
            k.load()
        self.position = position
        self.fixed: dict[str, tuple[Order, ...]] = {p: tuple(os) for p, os in (fixed or {}).items()}
        self.board = board_of(position.map)
        self._units = engine_units(self.board, position)
        self._fixed_rows, self._fixed_given = order_chunks(self.board, self.fixed)

    def resolve(self, orders: Mapping[str, Iterable[Order]] | Packed) -> Resolution:
        """Resolve the fixed orders with ``orders`` (power -> orders, no fixed power; or
        an order set this resolver packed, `pack`)."""
        if not isinstance(orders, Packed):
            orders = self.pack(orders)
        elif orders.resolver is not self:
            raise DipsolveRuleError("an order set packed by another Resolver", rule="packed-orders")
        summary, details = engine_movement(self.board, self._units, orders.rows)
        return Resolution(self, summary, details, orders.given)

    def pack(self, orders: Mapping[str, Iterable[Order]]) -> Packed:
        """``orders`` (power -> orders, no fixed power) made ready for `resolve`: the
        engine's rows, with the fixed orders', made once; `resolve` of it equals
        `resolve` of ``orders``."""
        for power in orders:
            if power in self.fixed:
                raise DipsolveRuleError(f"{power}'s orders are fixed in this Resolver",
                                        rule="fixed-orders")
        given = {p: tuple(os) for p, os in orders.items()}
        rows, pairs = order_chunks(self.board, given)
        return Packed(self, given, packed(self._fixed_rows + rows), self._fixed_given + pairs)

    def adjudicate(self, orders: Mapping[str, Iterable[Order]]) -> Outcome:
        """The full `Outcome` of one order set: ``resolve(orders).outcome()``."""
        return self.resolve(orders).outcome()
