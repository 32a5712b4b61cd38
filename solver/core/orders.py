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

import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import DipsolveRuleError


class Order:
    """The base of every order (no fields of its own: equality, hashing and ``str()``
    are each order class's own).  Every order class is a frozen dataclass."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]


class UnitOrder(Order):
    """An order to one unit: its ``kind`` (``"A"`` or ``"F"``) and ``location``.

    Each carries its `code` (``_code``), made when the order is made: the compiled path
    of the adjudicator reads an order's code instead of hashing the order (not a field:
    equality, hashing, ``repr`` and `dataclasses.fields` are the order's fields alone)."""

    __slots__ = ("_code",)
    kind: str
    location: str


#: the order types of `code` (bits 0-2)
C_HOLD, C_MOVE, C_SUPPORT_HOLD, C_SUPPORT_MOVE, C_CONVOY, C_RETREAT, C_DISBAND, C_BUILD = range(8)
#: every place name an order has named -> its number in a `code` (1 up; 0 is "none"):
#: names are numbered in the order first seen, in every process alike only for the
#: standard names (`dipsolve.core.fast_phase` maps them to a map's locations)
NAMES: dict[str, int] = {}
#: at most this many names are numbered (12 bits); an order naming another has no code
MAX_NAMES = 4095
_KINDS = {"A": 0, "F": 1}
_N = NAMES.__getitem__
#: held while a new name is numbered: two threads numbering two new names at once must
#: not give them the same number (the look-up of a known name takes no lock)
_NAMING = threading.Lock()


def number_name(text: str) -> int:
    """The number of a place name (`NAMES`), numbered on first sight; -1 past `MAX_NAMES`
    or for what is not a string."""
    n = NAMES.get(text) if type(text) is str else -1
    if n is None:
        with _NAMING:
            n = NAMES.get(text)
            if n is None:
                if len(NAMES) >= MAX_NAMES:
                    return -1
                n = NAMES[text] = len(NAMES) + 1
    return n


def code(kind_of_order: int, kind: str, location: str, target: str | None = None,
         via: object = False, other_kind: str = "A", other: str | None = None) -> int:
    """An order as one int, injective over the orders the compiled path takes (two orders
    are equal exactly when their codes are): bits 0-2 its type (``C_HOLD`` ...), 3 a
    fleet's, 4 by convoy, 5 the other unit (supported, convoyed) a fleet, 6-17 the
    number of its location (`NAMES`), 18-29 of its target, 30-41 of the other unit's
    location; -1 when the order has none (a kind not ``"A"``/``"F"``, a place name past
    `MAX_NAMES`, a move naming its route): the reference adjudicator takes those."""
    k, ok = _KINDS.get(kind), _KINDS.get(other_kind)
    loc = number_name(location)
    tgt = number_name(target) if target is not None else 0
    oth = number_name(other) if other is not None else 0
    if k is None or ok is None or loc < 0 or tgt < 0 or oth < 0 or type(via) is not bool:
        return -1
    return kind_of_order | k << 3 | via << 4 | ok << 5 | loc << 6 | tgt << 18 | oth << 30


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

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = C_HOLD | _KINDS[self.kind] << 3 | _N(self.location) << 6
        except (KeyError, TypeError):
            c = code(C_HOLD, self.kind, self.location)
        object.__setattr__(self, "_code", c if type(self) is Hold else -1)

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

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = (C_MOVE | _KINDS[self.kind] << 3 | self.via_convoy << 4
                 | _N(self.location) << 6
                 | _N(self.target) << 18)
        except (KeyError, TypeError):
            c = code(C_MOVE, self.kind, self.location, self.target, self.via_convoy)
        ok = type(self) is Move and not self.route and type(self.via_convoy) is bool
        object.__setattr__(self, "_code", c if ok else -1)

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

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = (C_SUPPORT_HOLD | _KINDS[self.kind] << 3 | _KINDS[self.supported_kind] << 5
                 | _N(self.location) << 6
                 | _N(self.supported_location) << 30)
        except (KeyError, TypeError):
            c = code(C_SUPPORT_HOLD, self.kind, self.location, None, False, self.supported_kind, self.supported_location)
        object.__setattr__(self, "_code", c if type(self) is SupportHold else -1)

    def __str__(self) -> str:
        return f"{self.kind} {self.location} S {self.supported_kind} {self.supported_location}"


@dataclass(frozen=True, slots=True)
class SupportMove(UnitOrder):
    kind: str
    location: str
    supported_kind: str
    supported_location: str
    target: str

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = (C_SUPPORT_MOVE | _KINDS[self.kind] << 3 | _KINDS[self.supported_kind] << 5
                 | _N(self.location) << 6
                 | _N(self.target) << 18
                 | _N(self.supported_location) << 30)
        except (KeyError, TypeError):
            c = code(C_SUPPORT_MOVE, self.kind, self.location, self.target, False, self.supported_kind, self.supported_location)
        object.__setattr__(self, "_code", c if type(self) is SupportMove else -1)

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

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = (C_CONVOY | _KINDS[self.kind] << 3 | _KINDS[self.convoyed_kind] << 5
                 | _N(self.location) << 6
                 | _N(self.target) << 18
                 | _N(self.convoyed_location) << 30)
        except (KeyError, TypeError):
            c = code(C_CONVOY, self.kind, self.location, self.target, False, self.convoyed_kind, self.convoyed_location)
        object.__setattr__(self, "_code", c if type(self) is Convoy else -1)

    def __str__(self) -> str:
        return (f"{self.kind} {self.location} C {self.convoyed_kind} "
                f"{self.convoyed_location} - {self.target}")


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    kind: str
    location: str
    target: str

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = C_RETREAT | _KINDS[self.kind] << 3 | _N(self.location) << 6 | _N(self.target) << 18
        except (KeyError, TypeError):
            c = code(C_RETREAT, self.kind, self.location, self.target)
        object.__setattr__(self, "_code", c if type(self) is Retreat else -1)

    def __str__(self) -> str:
        return f"{self.kind} {self.location} R {self.target}"


@dataclass(frozen=True, slots=True)
class Disband(UnitOrder):
    kind: str
    location: str

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = C_DISBAND | _KINDS[self.kind] << 3 | _N(self.location) << 6
        except (KeyError, TypeError):
            c = code(C_DISBAND, self.kind, self.location)
        object.__setattr__(self, "_code", c if type(self) is Disband else -1)

    def __str__(self) -> str:
        return f"{self.kind} {self.location} D"


Remove = Disband


@dataclass(frozen=True, slots=True)
class Build(UnitOrder):
    kind: str
    location: str

    def __post_init__(self) -> None:
        try:          # the common case inline: known names, kinds A and F
            c = C_BUILD | _KINDS[self.kind] << 3 | _N(self.location) << 6
        except (KeyError, TypeError):
            c = code(C_BUILD, self.kind, self.location)
        object.__setattr__(self, "_code", c if type(self) is Build else -1)

    def __str__(self) -> str:
        return f"{self.kind} {self.location} B"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    def __str__(self) -> str:
        return "WAIVE"


MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Disband, Waive)
