"""Orders as read, before the map and the position complete them (unit types, coasts, bare units).

A player may leave out what the board tells: the unit type (``Ven - Tri``), the coast of
a fleet's goal when only one can be reached (``F Mar - Spa`` is ``F MAR - SPA/SC``), the
coast a fleet stands on, and, in an adjustment phase, whether a bare unit (``A Par``) is
a build or a removal.  The reader (`dipsolve.grammar.orders`) gives a `Draft`; `complete`
makes it an `Order` from the map alone (`Board` None) or from a position (`Board`):

- a unit type left out comes from the unit in the position, else from the map: the types
  that can stand there and do what the order says (only a fleet convoys, only an army is
  convoyed, an army cannot go to sea, ...).  When more than one reading is left the
  order is ambiguous: `DipsolveSyntaxError` listing the readings, never a guess;
- an order for a unit that is not there (a type left out, nothing to fill it from) is a
  `DipsolveRuleError` with ``rule == "unit"`` naming the unit that is there, if any.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from dipsolve.core.graph import fill_coast
from dipsolve.core.map import Map
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                             SupportMove, Waive)
from dipsolve.core.position import Position

from .errors import DipsolveRuleError, DipsolveSyntaxError, Source, Span

__all__ = ["Board", "Draft", "PlaceAt", "UnitAt", "complete", "fleet_goal"]


@dataclass(frozen=True, slots=True)
class PlaceAt:
    """A location as read, and where it was written."""
    loc: str
    at: Span


@dataclass(frozen=True, slots=True)
class UnitAt:
    """A unit as read: its kind (``""`` when the text left it out), location and span."""
    kind: str
    loc: str
    at: Span


@dataclass(frozen=True, slots=True)
class Draft:
    """An order as written: what it does (``hold``, ``move``, ``support_hold``,
    ``support_move``, ``convoy``, ``retreat``, ``disband``, ``build``, ``waive``), its
    units (the one ordered, then the one supported or convoyed), its places (a route's
    seas, then the goal), ``via`` (by convoy), and ``bare`` (a unit and nothing more)."""
    what: str
    units: tuple[UnitAt, ...]
    places: tuple[PlaceAt, ...] = ()
    via: bool = False
    bare: bool = False


class Board:
    """What a position tells the reader: the unit in each province (a dislodged one first
    in a retreat phase) and the kind of phase."""

    def __init__(self, position: Position) -> None:
        prov = position.map.province_of
        self.phase = position.phase.kind
        self.units = {prov[u.location]: u for u in position.units if u.location in prov}
        self.dislodged: set[str] = set()
        if self.phase == "retreat":
            for d in position.dislodged:
                if d.unit.location in prov:
                    self.units[prov[d.unit.location]] = d.unit
                    self.dislodged.add(prov[d.unit.location])


def _province(m: Map, loc: str) -> str:
    return m.province_of.get(loc, loc.partition("/")[0])


def _standing(m: Map, loc: str) -> list[str]:
    """The kinds that may stand in a location (a fleet in a two-coast province whose
    coast was left out too)."""
    if "/" in loc:
        return ["F"]
    terrain = m.terrain.get(loc)
    return ["A"] if terrain == "land" else ["F"] if terrain == "sea" else ["A", "F"]


def _reach(m: Map, kind: str, loc: str) -> set[str]:
    """The provinces a unit of ``kind`` in ``loc`` moves to without a convoy."""
    if kind == "A":
        return set(m.army_moves.get(loc, ()))
    locs = m.fleet_locations.get(loc) or (loc,)
    return set().union(*(m.fleet_reach.get(x, ()) for x in locs))


def _can_go(m: Map, kind: str, loc: str, target: str, convoy: bool = True) -> bool:
    """Whether a unit can make a move: directly, or an army by convoy (both ends on a coast)."""
    t = _province(m, target)
    if t in _reach(m, kind, loc):
        return True
    return (convoy and kind == "A" and m.terrain.get(_province(m, loc)) == "coast"
            and m.terrain.get(t) == "coast")


def _fits(m: Map, d: Draft, kinds: tuple[str, ...]) -> bool:
    """Whether the order makes sense with these unit types (the map's say, not the rules')."""
    u = d.units
    k0 = kinds[0]
    if d.what == "convoy":
        return k0 == "F" and kinds[1] == "A"
    if d.what == "move":
        if len(d.places) > 1:
            return k0 == "A"
        return _can_go(m, k0, u[0].loc, d.places[-1].loc)
    if d.what == "retreat":
        return _can_go(m, k0, u[0].loc, d.places[-1].loc, convoy=False)
    if d.what in ("support_hold", "support_move"):
        goal = d.places[-1].loc if d.what == "support_move" else u[1].loc
        if _province(m, goal) not in _reach(m, k0, u[0].loc):
            return False
        return d.what == "support_hold" or _can_go(m, kinds[1], u[1].loc, goal)
    return True


def _error_unit(source: Source, u: UnitAt, board: Board, m: Map) -> DipsolveRuleError:
    prov = _province(m, u.loc)
    name = m.provinces[prov].name if prov in m.provinces else prov
    there = board.units.get(prov)
    written = f"{u.kind} {u.loc}" if u.kind else u.loc
    what = "army" if u.kind == "A" else "fleet" if u.kind == "F" else "unit"
    message = f"order for {written}, but there is no {what} in {name}"
    if there is not None:
        message += f": {there.power}'s {there.kind} {there.location} is there"
    return source.at(DipsolveRuleError, message, u.at, "a unit on the board", rule="unit")


def complete(d: Draft, m: Map, board: Board | None, source: Source, at: Span) -> Order:
    """The order a draft means, on map ``m`` and, when given, the position's ``board``
    (see the module's docstring); ``at`` is where the order was written."""
    if d.what == "waive":
        return Waive()
    what, units = d.what, list(d.units)
    adjusting = board is not None and board.phase == "adjustment"
    # -- the unit types: the position's, else the map's
    choices: list[list[str]] = []
    for i, u in enumerate(units):
        prov = _province(m, u.loc)
        there = board.units.get(prov) if board is not None else None
        if i == 0 and adjusting and d.bare:
            what = "disband" if there is not None else "build"
        if there is None or (i == 0 and what == "build"):
            if i == 0 and board is not None and not u.kind and what not in ("build", "disband"):
                raise _error_unit(source, u, board, m)     # nothing to read the type from
            choices.append([u.kind] if u.kind else _standing(m, u.loc))
        elif u.kind and u.kind != there.kind:
            choices.append([u.kind])     # as written: the rules say that it is not there
        else:
            # the type, and the coast it stands on (the unit ordered only)
            loc = there.location if i == 0 and "/" not in u.loc else u.loc
            units[i] = UnitAt(there.kind, loc, u.at)
            choices.append([there.kind])
    readings = [k for k in product(*choices)]
    if len(readings) > 1:
        fitting = [k for k in readings if _fits(m, d, k)]
        readings = fitting or readings
    orders = [_build(m, what, d, units, kinds) for kinds in readings]
    if len(orders) > 1:
        said = " or ".join(str(o) for o in orders)
        advice = "A or F" if board is not None else "A or F, or read it against a position"
        raise source.at(DipsolveSyntaxError, f"ambiguous order {at.text!r}: it reads as {said} "
                        f"(write the unit type, {advice})", at, said)
    order = orders[0]
    if board is not None and isinstance(order, Move) and not order.via_convoy \
            and _province(m, order.location) in board.dislodged:
        order = Retreat(order.kind, order.location, order.target)
    return order


def _build(m: Map, what: str, d: Draft, units: list[UnitAt], kinds: tuple[str, ...]) -> Order:
    """The order of one reading (one unit type for each unit)."""
    k, loc = kinds[0], units[0].loc
    places = [p.loc for p in d.places]
    if what in ("move", "retreat"):
        target = places[-1]
        if k == "F":
            target = fleet_goal(m, loc, target)
        if what == "retreat":
            return Retreat(k, loc, target)
        route = tuple(_province(m, p) for p in places[:-1])
        return Move(k, loc, target, via_convoy=d.via or bool(route), route=route)
    if what == "hold":
        return Hold(k, loc)
    if what == "support_hold":
        return SupportHold(k, loc, kinds[1], units[1].loc)
    if what == "support_move":
        return SupportMove(k, loc, kinds[1], units[1].loc, places[-1])
    if what == "convoy":
        return Convoy(loc, kinds[1], units[1].loc, places[-1], kind=k)
    if what == "disband":
        return Disband(k, loc)
    return Build(k, loc)


def fleet_goal(m: Map, src: str, target: str) -> str:
    """A fleet's goal with its coast, when the text left it out and only one is in reach."""
    return fill_coast(m, target, m.fleet_moves.get(src, ()))
