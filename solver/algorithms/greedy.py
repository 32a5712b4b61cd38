"""A greedy center grabber: a second heuristic bot, independent of DumbBot, for the fields
dipsolve plays in (issue 24), so that its strength is not tuned to one opponent.

The baseline is the "greedy" player of the Diplomacy AI literature (every unit heads for
the nearest supply center its power does not own; e.g. the rule-based baselines of Paquette
et al. 2019, *No Press Diplomacy: Modeling Multi-Agent Gameplay*), written here from that
one-line description with the smallest rules that make it play whole games:

movement
    The units are taken in a random order.  A unit standing on a center of its own power
    that a foreign unit could enter holds (it guards it).  Every other unit moves to the
    adjacent place that brings it closest (in its own moves, no convoys) to a supply
    center its power does not own and that no other unit of its power has already chosen
    as its goal, an unowned center next to it first; among equal choices, at random.  A
    unit whose goal another of its units is already entering supports that move instead
    (a center taken with support when two units are near it).  A unit with no such center
    in reach holds.
retreats
    To the place nearest to a center not owned by its power; else to any place; else it
    disbands.
adjustments
    Builds in the owned, empty home centers, an army where an army can stand (a fleet only
    where an army cannot, or at random one time in three on a coast), waiving what is left;
    removals of the units farthest from any center their power does not own.

It ignores the deadline and takes a few milliseconds a phase.
"""

from __future__ import annotations

import random
from typing import Iterable

from ..core.graph import distances, moves_from, provinces_from
from ..core.orders import Build, Disband, Hold, Move, Order, Retreat, SupportMove, Waive
from ..core.position import Position, Unit


def _nearest(position: Position, unit: Unit, location: str, targets: Iterable[str]) -> int | None:
    """The fewest moves from ``location`` to any of ``targets`` for a unit of this kind."""
    dist = distances(position.map, unit.kind, location)
    best = None
    for t in targets:
        d = dist.get(t)
        if d is not None and (best is None or d < best):
            best = d
    return best


def _wanted(position: Position, power: str) -> set[str]:
    """The supply centers the power does not own."""
    owner = position.owner
    return {c for c in position.map.centers if owner.get(c) != power}


def movement_orders(position: Position, power: str, rng: random.Random) -> list[Order]:
    """One order per unit of ``power`` (see the module notes)."""
    m = position.map
    po = m.province_of
    owner = position.owner
    units = list(position.units_of(power))
    rng.shuffle(units)
    wanted = _wanted(position, power)
    foreign_reach: set[str] = set()
    for u in position.units:
        if u.power != power:
            foreign_reach.update(provinces_from(m, u.kind, u.location))
    goals: dict[str, Unit] = {}            # province -> our unit moving into it
    out: dict[Unit, Order] = {}
    for u in units:
        here = po[u.location]
        if here in m.centers and owner.get(here) == power and here in foreign_reach:
            out[u] = Hold(u.kind, u.location)
            continue
        options = moves_from(m, u.kind, u.location)
        scored: list[tuple[int, str]] = []
        for dst in options:
            prov = po[dst]
            if prov in goals:
                continue
            if prov in wanted:
                scored.append((0, dst))
                continue
            d = _nearest(position, u, dst, wanted - set(goals))
            if d is not None:
                scored.append((d + 1, dst))
        # a move into a center another of our units is already entering: support it
        helped = [g for g in sorted(goals) if g in wanted
                  and any(po[dst] == g for dst in options) and isinstance(out.get(goals[g]), Move)]
        if helped and (not scored or min(s for s, _ in scored) > 0):
            target = goals[helped[0]]
            mv = out[target]
            assert isinstance(mv, Move)
            out[u] = SupportMove(u.kind, u.location, target.kind, target.location, mv.target)
            continue
        if not scored:
            out[u] = Hold(u.kind, u.location)
            continue
        best = min(s for s, _ in scored)
        here_d = _nearest(position, u, u.location, wanted - set(goals))
        if here_d is not None and best > here_d and here in wanted:
            out[u] = Hold(u.kind, u.location)         # already on a center it wants
            continue
        dst = rng.choice([d for s, d in scored if s == best])
        out[u] = Move(u.kind, u.location, dst)
        goals[po[dst]] = u
    return [out[u] for u in position.units_of(power)]


def retreat_orders(position: Position, power: str, rng: random.Random) -> list[Order]:
    """A retreat (or disband) for each dislodged unit of ``power``."""
    wanted = _wanted(position, power)
    po = position.map.province_of
    taken: set[str] = set()
    out: list[Order] = []
    for d in sorted(position.dislodged, key=lambda d: d.unit):
        u = d.unit
        if u.power != power:
            continue
        options = [loc for loc in sorted(d.retreats) if po[loc] not in taken]
        if not options:
            out.append(Disband(u.kind, u.location))
            continue
        scored = [(_nearest(position, u, loc, wanted) if wanted else 0, loc) for loc in options]
        reachable = [(s, loc) for s, loc in scored if s is not None]
        pool = reachable or [(0, loc) for loc in options]
        best = min(s for s, _ in pool)
        loc = rng.choice([loc for s, loc in pool if s == best])
        taken.add(po[loc])
        out.append(Retreat(u.kind, u.location, loc))
    return out


def adjustment_orders(position: Position, power: str, rng: random.Random) -> list[Order]:
    """Builds or removals for ``power``."""
    delta = position.adjustment(power)
    m = position.map
    if delta > 0:
        out: list[Order] = []
        homes = position.buildable(power)
        for prov in rng.sample(homes, min(delta, len(homes))):
            places = m.unit_places(prov)
            coasts = [loc for kind, loc in places if kind == "F"]
            if ("A", prov) in places and (not coasts or rng.random() >= 1 / 3):
                out.append(Build("A", prov))
            elif coasts:
                out.append(Build("F", rng.choice(sorted(coasts))))
        return out + [Waive()] * (delta - len(out))
    if delta < 0:
        wanted = _wanted(position, power)
        far = sorted(position.units_of(power),
                     key=lambda u: (-(_nearest(position, u, u.location, wanted) or 99), rng.random()))
        return [Disband(u.kind, u.location) for u in far[:-delta]]
    return []


def orders(position: Position, power: str, rng: random.Random) -> list[Order]:
    """The greedy bot's orders for ``power`` in the position's phase (empty when it has
    nothing to order)."""
    kind = position.phase.kind
    if kind == "movement":
        return movement_orders(position, power, rng) if position.units_of(power) else []
    if kind == "retreat":
        return retreat_orders(position, power, rng)
    return adjustment_orders(position, power, rng)
