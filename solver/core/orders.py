"""Typed orders: frozen, hashable dataclasses whose ``str()`` is the canonical short notation.

    >>> str(Move("A", "PAR", "BUR"))
    'A PAR - BUR'
    >>> str(Convoy("NTH", "A", "LON", "NWY"))
    'F NTH C A LON - NWY'
    >>> str(SupportMove("A", "MUN", "A", "BER", "KIE"))
    'A MUN S A BER - KIE'

An order names its unit by kind (``"A"`` or ``"F"``) and location; the power giving it is
the key it is filed under (``{"France": [Move(...)]}``).  Locations are canonical map
locations (``"STP/SC"``) or, where a player left the coast out, the bare province
(``"SPA"``): the adjudicator decides what a coastless order means, as the DATC asks.

Every order is an `Order`; every order but ``Waive`` is a `UnitOrder`, which names its
unit (``kind`` and ``location``).  ``Disband`` serves both the retreat phase (disband a
dislodged unit) and the adjustment phase (remove a unit); ``Remove`` is the same class
under its adjustment-phase name.

    >>> isinstance(Move("A", "PAR", "BUR"), UnitOrder), isinstance(Waive(), UnitOrder)
    (True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import DipsolveRuleError


class Order:
    """The base of every order (no fields of its own: equality, hashing and ``str()``
    are each order class's own).  Every order class is a frozen dataclass."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]


class UnitOrder(Order):
    """An order to one unit: its ``kind`` (``"A"`` or ``"F"``) and ``location``."""

    __slots__ = ()
    kind: str
    location: str


def unit_key(order: Order) -> tuple[str, str]:
    """``(kind, location)`` of the unit an order is for: the key orders are sorted and
    matched by.  A `Waive` is for no unit (`ValueError`).

        >>> unit_key(Move("A", "PAR", "BUR"))
        ('A', 'PAR')
    """
    if isinstance(order, UnitOrder):
        return (order.kind, order.location)
    raise DipsolveRuleError(f"{order} is for no unit", rule="unit-order")


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    kind: str
    location: str

    def __str__(self) -> str:
        return f"{self.kind} {self.location} H"


@dataclass(frozen=True, slots=True)
class Move(UnitOrder):
    """A move; a convoyed army's may name its ``route``, the seas it crosses in order
    (``A SMY - AEG - GRE``: the Judges' form), which `dipsolve.core.rules` checks (each sea
    next to the one before) and the adjudicator, as the rules have it, does not bind
    the convoy to.  A route implies ``via_convoy``.

        >>> str(Move("A", "SMY", "GRE", via_convoy=True, route=("AEG",)))
        'A SMY - AEG - GRE'
    """
    kind: str
    location: str
    target: str
    via_convoy: bool = False
    route: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.route:
            return f"{self.kind} {self.location} - {' - '.join(self.route)} - {self.target}"
        return f"{self.kind} {self.location} - {self.target}" + (" VIA" if self.via_convoy else "")

    def __repr__(self) -> str:     # the route only when there is one (most moves name none)
        route = f", route={self.route!r}" if self.route else ""
        return (f"Move(kind={self.kind!r}, location={self.location!r}, target={self.target!r}, "
                f"via_convoy={self.via_convoy!r}{route})")


@dataclass(frozen=True, slots=True)
class SupportHold(UnitOrder):
    kind: str
    location: str
    supported_kind: str
    supported_location: str

    def __str__(self) -> str:
        return f"{self.kind} {self.location} S {self.supported_kind} {self.supported_location}"


@dataclass(frozen=True, slots=True)
class SupportMove(UnitOrder):
    kind: str
    location: str
    supported_kind: str
    supported_location: str
    target: str

    def __str__(self) -> str:
        return (f"{self.kind} {self.location} S {self.supported_kind} "
                f"{self.supported_location} - {self.target}")


@dataclass(frozen=True, slots=True)
class Convoy(UnitOrder):
    location: str
    convoyed_kind: str
    convoyed_location: str
    target: str
    kind: str = "F"

    def __str__(self) -> str:
        return (f"{self.kind} {self.location} C {self.convoyed_kind} "
                f"{self.convoyed_location} - {self.target}")


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    kind: str
    location: str
    target: str

    def __str__(self) -> str:
        return f"{self.kind} {self.location} R {self.target}"


@dataclass(frozen=True, slots=True)
class Disband(UnitOrder):
    kind: str
    location: str

    def __str__(self) -> str:
        return f"{self.kind} {self.location} D"


Remove = Disband


@dataclass(frozen=True, slots=True)
class Build(UnitOrder):
    kind: str
    location: str

    def __str__(self) -> str:
        return f"{self.kind} {self.location} B"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    def __str__(self) -> str:
        return "WAIVE"


MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Disband, Waive)
