"""Is an order legal here?  ``order_problem(position, power, order) -> str | None``.

An order can be wrong in two ways, and dipsolve keeps them apart as python-chess
(``InvalidMoveError`` / ``IllegalMoveError``) and godip ("invalid" / "illegal") do:

- *not understood*: the text is no order (``A PAR --- BUR``): a `DipsolveSyntaxError`
  of the grammar, at its line and column;
- *understood but illegal*: the order is clear, and the rules forbid it in this
  position (``F ENG - PAR: a fleet cannot enter Paris (inland)``): a `Problem` here,
  naming the rule broken.

The rules are the adjudicator's own: it already sets aside every illegal order (the
unit holds, DATC 4.E.1), and this module asks it, phase by phase, what it would set
aside and why, without resolving anything.  There is one copy of each rule, in
`dipsolve.adjudicator`; `RULES` lists them by the names a `Problem` (and an
``OrderResult.rule``) carries:
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterable, Mapping

from .adjudicator import REFUSED, OrderResult, _movement, adjudicate
from .orders import Move, Order, Retreat
from .position import Position

__all__ = ["RULES", "Problem", "order_problem", "order_problems", "validate_orders"]

#: every rule an order can break, by name, with what it asks
RULES: dict[str, str] = {
    "phase": "an order belongs to the phase played: holds, moves, supports and convoys "
             "in movement; retreats and disbands in retreats; builds, removals and "
             "waives in adjustments",
    "unit": "the order names a unit that is there (a dislodged one in a retreat phase), "
            "of the type it says",
    "owner": "the unit belongs to the power that orders it",
    "location": "every place named is on the map",
    "terrain": "an army never enters a sea, a fleet never an inland province",
    "adjacency": "a move goes to a neighbouring place for that unit type and coast (an "
                 "army's may go by convoy: see 'convoy route')",
    "coast": "a fleet moving to a province with two coasts names one it can reach",
    "convoy route": "an army moved by convoy has a chain of fleet-held seas from its "
                    "province to its goal",
    "support": "a support names another unit, in a place the supporter could move to, "
               "and a move that unit could make",
    "convoy": "only a fleet at sea convoys, only an army is convoyed, and the fleet lies "
              "on some route of fleets from the army to its goal",
    "retreat": "a dislodged unit retreats only to a place open to it (adjacent, empty, "
               "not its attacker's origin, not left empty by a standoff)",
    "build": "a build goes in an owned, empty home center, of a unit that can stand "
             "there, a fleet naming its coast",
    "builds left": "no more builds and waives than the power's centers over its units",
    "removals": "removals only when the power's units outnumber its centers, and no "
                "more than that",
    "one order": "each unit takes one order (with two different ones it holds, DATC 4.D.3)",
}
__doc__ += "".join(f"\n- ``{name}``: {text};" for name, text in RULES.items()).rstrip(";") + ".\n"

@dataclass(frozen=True, slots=True)
class Problem:
    """An order that is understood but breaks a rule: who gave it, the order, the
    rule's name (a key of `RULES`) and what is wrong, in words."""

    power: str
    order: Order
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.order}: {self.message}"


def order_problem(position: Position, power: str, order: Order) -> str | None:
    """What is wrong with one order, given alone by ``power`` in ``position`` (None if
    nothing is):

        >>> from dipsolve.orders import Move
        >>> from dipsolve.position import Unit
        >>> p = Position.build("S1901M", [Unit("England", "F", "ENG")])
        >>> order_problem(p, "England", Move("F", "ENG", "PAR"))
        'a fleet cannot enter Paris (inland)'
    """
    problem = order_problems(position, [(power, order)])[0]
    return problem.message if problem is not None else None


def validate_orders(position: Position,
                    orders: Mapping[str, Iterable[Order]] | Iterable[tuple[str, Order]]
                    ) -> list[Problem]:
    """Every problem of an order set (``{power: [Order]}`` or ``[(power, Order)]``), in
    the order given.  The orders are judged together: a second, different order for a
    unit and a build beyond the power's count are problems too."""
    return [p for p in order_problems(position, orders) if p is not None]


def order_problems(position: Position,
                   orders: Mapping[str, Iterable[Order]] | Iterable[tuple[str, Order]]
                   ) -> list[Problem | None]:
    """One entry per order given, in the order given: its `Problem`, or None."""
    pairs = ([(power, o) for power, os in orders.items() for o in os]
             if isinstance(orders, Mapping) else list(orders))
    by_power: dict[str, list[Order]] = {}
    for power, o in pairs:
        by_power.setdefault(power, []).append(o)
    # the adjudicator's verdicts, queued by (power, order): the same order given twice
    # takes them in turn
    verdicts: dict[tuple[str, Order], deque[OrderResult]] = {}
    for r in _verdicts(position, by_power):
        verdicts.setdefault((r.power, r.order), deque()).append(r)
    retreating = position.phase.kind == "retreat"
    out: list[Problem | None] = []
    for power, o in pairs:
        # in a retreat phase the adjudicator reads a move as the unit's retreat
        key = Retreat(o.kind, o.location, o.target) if retreating and type(o) is Move else o
        queue = verdicts.get((power, key))
        r = queue.popleft() if queue else None
        if r is not None and r.reason in REFUSED:
            out.append(Problem(power, o, r.rule, r.detail))
        else:
            out.append(None)
    return out


def _verdicts(position: Position, orders: Mapping[str, list[Order]]) -> list[OrderResult]:
    """The adjudicator's verdicts, in the order it judged.  A movement phase stops after
    the adjudicator's first step (matching and checking), so that nothing about the play
    (a bounce, a dislodgement) is mixed in, and gives the orders set aside; the other
    phases are cheap and judge every order as they go (all their verdicts are kept, so
    that the same order given twice, built once and refused once, is matched in turn)."""
    if position.phase.kind != "movement":
        return list(adjudicate(position, orders).results)
    st, results = _movement(position, orders, check_only=True)  # type: ignore[misc]
    for i, why in enumerate(st.why):
        if why is not None:
            reason, detail, rule = why
            results.append(OrderResult(st.power[i], st.orders[i], False, reason, detail, rule))
    return results
