"""Legal order generation: every order a unit may be given, and the ones worth trying.

Hall & Loeb (seed ``002_…``, section 3.2) generate "all the valid orders for each of the
units to be ordered, while pruning out any illegal or stupid orders"; footnote 5 adds
that illegal orders are simply never generated, while stupid ones are weeded out by
maxims such as "never cut your own support".  So:

`legal_orders(position, unit)`
    every order the adjudicator accepts for the unit, and only those: in a movement
    phase a hold; a move to each adjacent location (each coast named for a fleet); a
    move by convoy to each coastal province a chain of fleets at sea (anyone's) can carry
    the army to; a support to hold of each unit it could move next to; a support of
    each move another unit can make (by land or by a real chain of fleets) into a
    province it could move to; for a fleet at sea, a convoy of each army along each
    route the fleet is part of without a shortcut (the rule the adjudicator applies,
    DATC 4.E.1).  In a retreat phase (``unit`` a dislodged unit) a retreat to each open
    place and a disband; in an adjustment phase a removal when the power owes one.
`build_orders(position, power)`
    the builds a power may make (each army and fleet in each owned, empty home center)
    and a waive.
`useful_orders(position, power)`
    the power's units with their legal orders minus those that only help someone else
    or need someone else's help (supports and convoys of foreign units, moves by convoy
    through foreign fleets), unless ``foreign=True``.
`useless(orders)`
    the order-set maxims: an order set that attacks its own unit that stays put (a
    bounce at best, a cut support at worst), or supports or convoys an own unit that
    was not ordered to do what is supported, is never worth adjudicating.

Moves, supports and convoy routes come from one table per position (``Position.memo``),
built on the routes of `dipsolve.core.graph` (`reachable`, `convoy_routes`, and `on_route`, the
adjudicator's own test of a convoy order).  Whether a given order is legal is
`dipsolve.core.rules`' question; every order generated here passes it.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .errors import DipsolveRuleError
from .graph import convoy_routes, on_route, reachable, reachable_provinces, sea_component
from .map import Map
from .orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                     SupportMove, UnitOrder, Waive)
from .position import Position, Unit

__all__ = ["backs", "build_orders", "legal_orders", "orders_by_unit", "useful_orders", "useless"]


# -- the per-position tables ----------------------------------------------------------------

def _tables(position: Position) -> dict:
    """What every unit's orders are built from, once per position: for each unit the
    provinces it reaches, the convoy destinations of each army, and province -> the
    moves into it (unit, target location, by convoy)."""
    memo = position.memo
    t = memo.get("legal")
    if t is not None:
        return t
    m = position.map
    units = position.units
    reach = {u: reachable_provinces(m, u) for u in units}
    fleets_at_sea = [u for u in units if u.kind == "F" and m.is_sea(m.province_of[u.location])]
    convoys: dict[Unit, dict[str, list[Unit]]] = {}
    if fleets_at_sea:
        for u in units:
            if u.kind == "A":
                routes = convoy_routes(position, u, fleets_at_sea)
                if routes:
                    convoys[u] = routes
    into: dict[str, list[tuple[Unit, str, bool]]] = {}
    for u in units:
        for loc in reachable(m, u):
            into.setdefault(m.province_of[loc], []).append((u, loc, False))
        for dest in sorted(convoys.get(u, ())):
            if dest not in reach[u]:
                into.setdefault(dest, []).append((u, dest, True))
    seas = frozenset(m.province_of[f.location] for f in fleets_at_sea)
    t = memo["legal"] = {"reach": reach, "convoys": convoys, "into": into, "seas": seas}
    return t


# -- orders of one unit --------------------------------------------------------------------

def legal_orders(position: Position, unit: Unit) -> list[Order]:
    """Every legal order for ``unit`` in this phase, in a fixed order (hold, moves,
    convoyed moves, support holds, support moves, convoys; retreats, disband)."""
    kind = position.phase.kind
    if kind == "retreat":
        return _retreat_orders(position, unit)
    if kind == "adjustment":
        if unit in position.units and position.adjustment(unit.power) < 0:
            return [Disband(unit.kind, unit.location)]
        return []
    return _movement_orders(position, unit)


def _movement_orders(position: Position, unit: Unit) -> list[Order]:
    if unit not in position.units:
        raise DipsolveRuleError(f"no unit {unit} ({unit.power}) in this position")
    m = position.map
    po = m.province_of
    t = _tables(position)
    here = po[unit.location]
    mine = t["reach"][unit]
    out: list[Order] = [Hold(unit.kind, unit.location)]
    out += [Move(unit.kind, unit.location, loc) for loc in reachable(m, unit)]
    out += [Move("A", unit.location, dest, via_convoy=True)
            for dest in sorted(t["convoys"].get(unit, ())) if dest not in mine]
    unit_in = position.unit_in
    out += [SupportHold(unit.kind, unit.location, unit_in[p].kind, unit_in[p].location)
            for p in mine if p in unit_in]
    for p in mine:
        supported: set[Unit] = set()
        for other, _, _ in t["into"].get(p, ()):
            if other != unit and other not in supported:    # a fleet may reach p on two coasts
                supported.add(other)
                out.append(SupportMove(unit.kind, unit.location, other.kind, other.location, p))
    if unit.kind == "F" and here in t["seas"]:
        for army, routes in sorted(t["convoys"].items()):
            aprov = po[army.location]
            if here not in _convoy_component(position, army):
                continue
            for dest in sorted(routes):
                if on_route(m, aprov, dest, here, t["seas"]):
                    out.append(Convoy(unit.location, "A", army.location, dest))
    return out


def _convoy_component(position: Position, army: Unit) -> frozenset[str]:
    """The fleet-held seas connected to the army's coast (a fleet outside it can carry
    the army nowhere)."""
    memo = position.memo.setdefault("legal.component", {})
    comp = memo.get(army)
    if comp is None:
        comp = memo[army] = sea_component(position.map, position.map.province_of[army.location],
                                          _tables(position)["seas"])
    return comp


def _retreat_orders(position: Position, unit: Unit) -> list[Order]:
    for d in position.dislodged:
        if d.unit == unit:
            return [Retreat(unit.kind, unit.location, r) for r in d.retreats] + \
                [Disband(unit.kind, unit.location)]
    raise DipsolveRuleError(f"{unit} ({unit.power}) is not dislodged in this position")


def build_orders(position: Position, power: str) -> list[Order]:
    """The builds ``power`` may order in an adjustment phase (an army in each owned,
    empty home center, a fleet on each of its coasts), then ``WAIVE``; nothing when it
    owes no build."""
    if position.phase.kind != "adjustment" or position.adjustment(power) <= 0:
        return []
    out: list[Order] = []
    for p in position.buildable(power):
        out += site_builds(position.map, p)
    return out + [Waive()]


def site_builds(game_map: Map, province: str) -> tuple[Build, ...]:
    """The builds a center allows (`Map.unit_places`): an army on land, a fleet on each coast."""
    return tuple(Build(kind, loc) for kind, loc in game_map.unit_places(province))


# -- pruning ---------------------------------------------------------------------------------

def _helps_foreign(order: Order, position: Position, power: str) -> bool:
    """Whether the order supports or convoys another power's unit."""
    if type(order) is SupportHold or type(order) is SupportMove:
        loc = order.supported_location
    elif type(order) is Convoy:
        loc = order.convoyed_location
    else:
        return False
    other = position.unit_in.get(position.map.province_of[loc])
    return other is not None and other.power != power


def useful_orders(position: Position, power: str, *, foreign: bool = False) -> dict[Unit, list[Order]]:
    """The power's units (dislodged units in a retreat phase) with the orders worth
    searching: the legal ones less supports and convoys of other powers' units and moves
    by convoy that the power's own fleets cannot carry (unless ``foreign``): they serve
    an ally, or need one."""
    kind = position.phase.kind
    if kind == "retreat":
        return {d.unit: _retreat_orders(position, d.unit) for d in position.dislodged
                if d.unit.power == power}
    out: dict[Unit, list[Order]] = {}
    m = position.map
    own_fleets = [f for f in position.units_of(power)
                  if f.kind == "F" and m.is_sea(m.province_of[f.location])]
    for u in position.units_of(power):
        orders = legal_orders(position, u)
        if not foreign:
            own_routes = convoy_routes(position, u, own_fleets) if u.kind == "A" and own_fleets else {}
            orders = [o for o in orders if not _helps_foreign(o, position, power)
                      and not (type(o) is Move and o.via_convoy and o.target not in own_routes)]
        out[u] = orders
    return out


def backs(order: SupportHold | SupportMove | Convoy, given: Order, province_of: Mapping[str, str]) -> bool:
    """Whether ``given``, the order of the unit that ``order`` supports or convoys, is the
    order it supports or convoys: a support to hold backs any order but a move; a support
    of a move, or a convoy, backs a move into the province of its target."""
    if isinstance(order, SupportHold):
        return type(given) is not Move
    return type(given) is Move and province_of[given.target] == province_of[order.target]


def useless(position: Position, orders: Iterable[Order], *, complete: bool = True) -> str | None:
    """Why this order set of one power breaks a maxim of footnote 5, or None.

    Checked: a move into a province where an own unit stays (it bounces, or cuts that
    unit's support: "never cut your own support"); a support or convoy of an own unit
    whose order is not the one supported (void); a move by convoy that none of the
    power's fleets convoys (it needs an ally); two own units' supports of the same
    thing where one would do is *not* flagged (extra support can be needed).  With
    ``complete=False`` the set is a partial one: a unit it gives no order may still be
    ordered to move, so only a unit *ordered* to stay counts as staying."""
    m = position.map
    po = m.province_of
    by_prov: dict[str, UnitOrder] = {po[o.location]: o for o in orders
                                     if isinstance(o, UnitOrder)}
    unit_in = position.unit_in
    power = None
    for prov in by_prov:
        u = unit_in.get(prov)
        if u is not None:
            power = u.power
            break
    convoyed = {(po[o.convoyed_location], po[o.target]) for o in by_prov.values()
                if type(o) is Convoy}
    for prov, o in by_prov.items():
        if type(o) is Move:
            dest = po[o.target]
            if complete and o.via_convoy and (prov, dest) not in convoyed:
                return f"{o} goes by convoy, and no fleet of ours convoys it"
            occupant = unit_in.get(dest)
            if occupant is not None and occupant.power == power:
                other = by_prov.get(dest)
                if (other is None and complete) or (other is not None and type(other) is not Move):
                    return f"{o} attacks its own unit {occupant}, which stays"
        elif type(o) is SupportHold or type(o) is SupportMove or type(o) is Convoy:
            sloc = o.convoyed_location if isinstance(o, Convoy) else o.supported_location
            sprov = po[sloc]
            supported = unit_in.get(sprov)
            if supported is None or supported.power != power:
                continue
            given = by_prov.get(sprov)
            if type(o) is SupportHold:
                if given is not None and not backs(o, given, po):
                    return f"{o} supports a unit that moves ({given})"
            elif given is None and not complete:
                continue
            elif given is None or not backs(o, given, po):
                return f"{o} supports or convoys a move that was not ordered"
    return None


def orders_by_unit(position: Position, orders: Mapping[str, Iterable[Order]]) -> dict[Unit, Order]:
    """Power -> orders, as unit -> order (orders for no unit are left out)."""
    po = position.map.province_of
    unit_in = position.unit_in
    out: dict[Unit, Order] = {}
    for os in orders.values():
        for o in os:
            loc = getattr(o, "location", None)
            u = unit_in.get(po.get(loc, "")) if loc else None
            if u is not None:
                out[u] = o
    return out
