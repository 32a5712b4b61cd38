"""Deterministic generators of random legal positions and order sets, for tests and benchmarks.

Every generator takes a ``random.Random`` (or an int seed) and nothing else that varies,
so a fixed seed gives the same positions and orders in every process: choices are only
ever made from sorted sequences, never from sets.

* `random_position` — units on distinct provinces near their powers' homes (armies on
  land or coast, fleets on coast or sea with a coast where one is needed), plausible
  supply-center owners; a movement, retreat or adjustment phase.
* `opening_position` — Spring 1901, or a Fall 1901 position one uncontested move on.
* `random_orders` — a realistic order set for any phase: holds; moves to adjacent
  provinces (often contested); supported attacks that dislodge; supports of real
  neighbouring orders, hold and move, some of which get cut; convoys along real chains
  of fleets with ``via_convoy`` moves; self-bounces; retreats (some colliding) and
  disbands; builds, removals and waives (with ``civil_disorder`` > 0, some missing).
* `benchmark_phases` — the fixed mix of opening and mid-game movement phases that
  ``benchmarks/adjudication.py`` times.
* `play_forward` — random orders through any adjudicate function, phase after phase.

Pure: it imports only the solver core (no peer, no adjudicator); the routes it walks are
`dipsolve.core.graph`'s.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Callable, Iterator, Sequence, TypeVar

from ..core.graph import convoy_routes, reachable, reachable_provinces, steps
from ..core.map import Map, standard_map
from ..core.orders import (Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold,
                      SupportMove, Waive)
from ..core.board import retreat_options
from ..core.position import Dislodged, Phase, Position, Unit

Orders = dict[str, list[Order]]
T = TypeVar("T")

#: how often a power puts a fleet (rather than an army) on a coastal province
FLEET_BIAS = {"Austria": 0.2, "England": 0.7, "France": 0.4, "Germany": 0.35,
              "Italy": 0.45, "Russia": 0.35, "Turkey": 0.45}


def as_rng(rng: random.Random | int | None) -> random.Random:
    """A ``random.Random`` from a Random, a seed, or None (seed 0)."""
    if isinstance(rng, random.Random):
        return rng
    return random.Random(0 if rng is None else rng)


# -- map helpers ---------------------------------------------------------------

def _home_distance(m: Map, power: str) -> dict[str, int]:
    """Province -> steps (any unit type) from the nearest home center of ``power``."""
    return steps(m, m.homes[power])


# -- positions -----------------------------------------------------------------

def _weighted(rng: random.Random, items: Sequence[T], weights: Sequence[float]) -> T:
    return rng.choices(items, weights=weights, k=1)[0]


def _place_units(rng: random.Random, m: Map, n_units: int) -> list[Unit]:
    powers = m.powers
    most = max(1, 14 * len(m.centers) // 34)    # a power's units at most (14 on the standard map)
    n_units = min(n_units, most * len(powers), len(m.provinces) * 2 // 3)
    weights = [rng.uniform(0.4, 1.6) for _ in powers]
    if rng.random() < 0.2:                      # a power in trouble
        weights[rng.randrange(len(powers))] = 0.08
    counts = dict.fromkeys(powers, 0)
    for _ in range(n_units):
        open_powers = [p for p in powers if counts[p] < most]
        counts[_weighted(rng, open_powers, [weights[powers.index(p)] for p in open_powers])] += 1
    tokens = [p for p in powers for _ in range(counts[p])]
    rng.shuffle(tokens)
    taken: set[str] = set()
    units: list[Unit] = []
    provinces = sorted(m.provinces)
    for power in tokens:
        dist = _home_distance(m, power)
        cands = [p for p in provinces if p not in taken and dist.get(p, 99) <= 4]
        if not cands:
            cands = [p for p in provinces if p not in taken]
        w = [(2.5 if m.provinces[p].center else 1.0) * math.exp(-0.9 * dist.get(p, 9)) for p in cands]
        prov = _weighted(rng, cands, w)
        terrain = m.provinces[prov].terrain
        if terrain == "sea":
            kind = "F"
        elif terrain == "land":
            kind = "A"
        else:
            kind = "F" if rng.random() < FLEET_BIAS.get(power, 0.4) else "A"
        loc = rng.choice(m.fleet_locations[prov]) if kind == "F" else prov
        taken.add(prov)
        units.append(Unit(power, kind, loc))
    return units


def _own_centers(rng: random.Random, m: Map, units: list[Unit], occupied_wins: float) -> dict[str, str]:
    unit_in = {m.province_of[u.location]: u for u in units}
    alive = sorted({u.power for u in units})
    owner: dict[str, str] = {}
    for c in sorted(m.centers):
        home = m.provinces[c].home
        u = unit_in.get(c)
        r = rng.random()
        if u is not None and r < occupied_wins:
            owner[c] = u.power
            continue
        if home and rng.random() < 0.7:
            owner[c] = home
            continue
        near = sorted(alive, key=lambda p: (min(_home_distance(m, p).get(c, 9), 9), p))
        if near and rng.random() < 0.6 and _home_distance(m, near[0]).get(c, 9) <= 2:
            owner[c] = near[0]
    # nobody wins outright here: at most 15 centers a power (on the standard map's 34)
    most = (len(m.centers) - 1) // 2 - 1
    counts: dict[str, int] = {}
    for c in sorted(owner):
        counts[owner[c]] = counts.get(owner[c], 0) + 1
        if counts[owner[c]] > most:
            del owner[c]
    if not owner:                               # the peer re-initialises an empty board
        owner[sorted(m.centers)[0]] = units[0].power if units else m.powers[0]
    return owner


def random_position(rng: random.Random | int | None = None, n_units: int = 25,
                    phase_kind: str = "movement", *, season: str | None = None,
                    year: int | None = None, game_map: Map | None = None) -> Position:
    """A random legal mid-game position of ``n_units`` units near their home centers.

    ``phase_kind`` is ``"movement"`` (Spring or Fall), ``"retreat"`` (one to three units
    dislodged by an adjacent attacker, with their retreat options, some standoffs) or
    ``"adjustment"`` (Winter; occupied centers belong to their occupant, so most powers
    owe builds or removals).
    """
    rng = as_rng(rng)
    m = game_map or standard_map()
    units = _place_units(rng, m, n_units)
    year = year or rng.randint(1901, 1910)
    if phase_kind == "movement":
        centers = _own_centers(rng, m, units, 0.8)
        phase = Phase(season or rng.choice(("Spring", "Fall")), year, "movement")
        return Position.build(phase, units, centers, game_map=m)
    if phase_kind == "adjustment":
        centers = _own_centers(rng, m, units, 1.0)
        return Position.build(Phase("Winter", year, "adjustment"), units, centers, game_map=m)
    if phase_kind == "retreat":
        centers = _own_centers(rng, m, units, 0.8)
        return _dislodge(rng, m, Phase(season or rng.choice(("Spring", "Fall")), year, "retreat"),
                         units, centers)
    raise ValueError(f"phase_kind must be movement, retreat or adjustment, not {phase_kind!r}")


def _dislodge(rng: random.Random, m: Map, phase: Phase, units: list[Unit],
              centers: dict[str, str]) -> Position:
    """A retreat-phase position: some units pushed out by an adjacent enemy that moved in."""
    units = list(units)
    dislodged: list[tuple[Unit, str]] = []
    moved: set[Unit] = set()          # attackers that moved in: neither victims nor attackers again
    for _ in range(rng.randint(1, 3)):
        pairs = []
        for victim in units:
            if victim in moved:
                continue
            x = m.province_of[victim.location]
            for attacker in units:
                if attacker.power == victim.power or attacker in moved:
                    continue
                locs = [loc for loc in reachable(m, attacker) if m.province_of[loc] == x]
                if locs:
                    pairs.append((victim, attacker, locs))
        if not pairs:
            break
        victim, attacker, locs = rng.choice(pairs)
        origin = m.province_of[attacker.location]
        units.remove(victim)
        units.remove(attacker)
        units.append(Unit(attacker.power, attacker.kind, rng.choice(locs)))
        moved.add(units[-1])
        dislodged.append((victim, origin))
    occupied = {m.province_of[u.location] for u in units}
    empty_near = sorted({m.province_of[loc] for v, _ in dislodged for loc in reachable(m, v)}
                        - occupied)
    standoffs = rng.sample(empty_near, min(len(empty_near), rng.randint(0, 2)))
    result = []
    for victim, origin in dislodged:
        options = retreat_options(m, victim, origin, occupied, standoffs)
        if options:
            result.append(Dislodged(victim, origin, options))
    return Position.build(phase, units, centers, result, standoffs, game_map=m)


def opening_position(rng: random.Random | int | None = None) -> Position:
    """Spring 1901, or (half the time) Fall 1901 with each unit moved on at random to a
    free neighbouring province, as after an uncontested spring."""
    rng = as_rng(rng)
    start = Position.initial()
    if rng.random() < 0.5:
        return start
    m = start.map
    taken = {m.province_of[u.location] for u in start.units}
    units = []
    for u in sorted(start.units, key=lambda u: (rng.random(), u)):
        here = m.province_of[u.location]
        free = [loc for loc in reachable(m, u) if m.province_of[loc] not in taken]
        if free and rng.random() < 0.75:
            loc = rng.choice(free)
            taken.discard(here)
            taken.add(m.province_of[loc])
            u = Unit(u.power, u.kind, loc)
        units.append(u)
    return Position.build(Phase("Fall", 1901, "movement"), units, start.centers, game_map=m)


# -- orders --------------------------------------------------------------------

def random_orders(rng: random.Random | int | None, position: Position, *,
                  civil_disorder: float = 0.0, unordered: float = 0.04) -> Orders:
    """A random legal order set for the position's phase, filed by power.

    Every order names a unit of the power it is filed under (a dislodged one in a
    retreat phase).  ``unordered`` is the share of units left without an order (they
    hold, or disband when dislodged).  In adjustment phases ``civil_disorder`` is the
    chance a power owing removals orders too few (the rules then choose for it).
    """
    rng = as_rng(rng)
    kind = position.phase.kind
    if kind == "movement":
        return _movement_orders(rng, position, unordered)
    if kind == "retreat":
        return _retreat_orders(rng, position, unordered)
    return _adjustment_orders(rng, position, civil_disorder)


def _move_order(rng: random.Random, m: Map, unit: Unit, prov: str) -> Move:
    if unit.kind == "A":
        return Move("A", unit.location, prov)
    locs = [loc for loc in reachable(m, unit) if m.province_of[loc] == prov]
    return Move("F", unit.location, rng.choice(locs))


def _movement_orders(rng: random.Random, pos: Position, unordered: float) -> Orders:
    m = pos.map
    po = m.province_of
    unit_in = pos.unit_in
    units = list(pos.units)
    rng.shuffle(units)
    order: dict[Unit, Order] = {}
    moves: dict[Unit, str] = {}                     # unit -> target province

    def free(u: Unit) -> bool:
        return u not in order

    # 1. convoys along real chains of fleets (any power's) in the seas
    for army in units:
        if army.kind != "A" or not free(army) or rng.random() > 0.3:
            continue
        fleets = [u for u in units if u.kind == "F" and free(u)]
        routes = convoy_routes(pos, army, fleets)
        if not routes:
            continue
        dests = sorted(routes)
        far = [d for d in dests if d not in m.army_moves.get(army.location, ())]
        dest = rng.choice(far if far and rng.random() < 0.85 else dests)
        order[army] = Move("A", army.location, dest, via_convoy=True)
        moves[army] = dest
        for f in routes[dest]:
            order[f] = Convoy(f.location, "A", army.location, dest)

    # 2. supported attacks on occupied provinces (the dislodgements)
    for _ in range(rng.randint(1, max(1, len(units) // 5))):
        attackers = [u for u in units if free(u)]
        rng.shuffle(attackers)
        for a in attackers:
            targets = [p for p in reachable_provinces(m, a)
                       if p in unit_in and (unit_in[p].power != a.power or rng.random() < 0.1)]
            if not targets:
                continue
            t = rng.choice(targets)
            order[a] = _move_order(rng, m, a, t)
            moves[a] = t
            helpers = [u for u in units if free(u) and u is not unit_in[t] and t in reachable_provinces(m, u)]
            rng.shuffle(helpers)
            helpers.sort(key=lambda u: u.power != a.power)   # friends first
            for h in helpers[:rng.choice((0, 1, 1, 2, 2, 3))]:
                order[h] = SupportMove(h.kind, h.location, a.kind, a.location, t)
            defender = unit_in[t]
            if free(defender) and rng.random() < 0.5:
                order[defender] = Hold(defender.kind, defender.location)
                guards = [u for u in units if free(u) and u.power == defender.power
                          and t in reachable_provinces(m, u)]
                for g in guards[:rng.choice((0, 1, 1, 2))]:
                    order[g] = SupportHold(g.kind, g.location, defender.kind, defender.location)
            break

    # 3. a self-bounce now and then: two units of one power into one empty province
    if rng.random() < 0.3:
        by_target: dict[tuple[str, str], list[Unit]] = {}
        for u in units:
            if free(u):
                for p in reachable_provinces(m, u):
                    if p not in unit_in:
                        by_target.setdefault((u.power, p), []).append(u)
        pairs = sorted(k for k, v in by_target.items() if len(v) >= 2)
        if pairs:
            key = rng.choice(pairs)
            for u in rng.sample(by_target[key], 2):
                order[u] = _move_order(rng, m, u, key[1])
                moves[u] = key[1]

    # 4. everybody else: decide a kind of order first, then moves, then supports
    rest = [u for u in units if free(u)]
    plans: dict[Unit, str] = {}
    for u in rest:
        r = rng.random()
        plans[u] = ("none" if r < unordered else "hold" if r < 0.16 else "move" if r < 0.55
                    else "support" if r < 0.92 else "convoy")
    for u in rest:
        if plans[u] == "hold":
            order[u] = Hold(u.kind, u.location)
        elif plans[u] == "move" and not reachable_provinces(m, u):   # a unit that can go nowhere
            order[u] = Hold(u.kind, u.location)
        elif plans[u] == "move":
            cands = reachable_provinces(m, u)
            targeted = set(moves.values())
            w = [1.0 + 3.0 * (p in targeted) + 2.0 * (p in unit_in) + 1.5 * m.provinces[p].center
                 for p in cands]
            t = _weighted(rng, cands, w)
            order[u] = _move_order(rng, m, u, t)
            moves[u] = t
    for u in rest:
        if plans[u] == "support":
            reach = set(reachable_provinces(m, u))
            move_cands = sorted((v, t) for v, t in moves.items() if t in reach and v != u)
            hold_cands = sorted(v for p, v in unit_in.items() if p in reach)
            if move_cands and (not hold_cands or rng.random() < 0.65):
                v, t = rng.choice(move_cands)
                order[u] = SupportMove(u.kind, u.location, v.kind, v.location, t)
            elif hold_cands:
                v = rng.choice(hold_cands)
                order[u] = SupportHold(u.kind, u.location, v.kind, v.location)
            else:
                order[u] = Hold(u.kind, u.location)
        elif plans[u] == "convoy":
            here = po[u.location]
            armies = sorted(v for p, v in unit_in.items() if v.kind == "A" and p in m.neighbours[here]
                            and m.provinces[p].terrain == "coast")
            if u.kind == "F" and m.is_sea(here) and armies:
                a = rng.choice(armies)
                dests = sorted(p for p in m.neighbours[here] if m.provinces[p].terrain == "coast"
                               and p != po[a.location])
                order[u] = Convoy(u.location, "A", a.location, rng.choice(dests))
            else:
                order[u] = Hold(u.kind, u.location)

    out: Orders = {}
    for u in sorted(order):
        out.setdefault(u.power, []).append(order[u])
    return out


def _retreat_orders(rng: random.Random, pos: Position, unordered: float) -> Orders:
    out: Orders = {}
    counts: dict[str, int] = {}
    for d in pos.dislodged:
        for loc in d.retreats:
            counts[pos.map.province_of[loc]] = counts.get(pos.map.province_of[loc], 0) + 1
    for d in pos.dislodged:
        u = d.unit
        r = rng.random()
        if r < unordered:
            continue
        if r < 0.85 and d.retreats:
            shared = [loc for loc in d.retreats if counts[pos.map.province_of[loc]] > 1]
            loc = rng.choice(shared if shared and rng.random() < 0.5 else list(d.retreats))
            out.setdefault(u.power, []).append(Retreat(u.kind, u.location, loc))
        else:
            out.setdefault(u.power, []).append(Disband(u.kind, u.location))
    return out


def _adjustment_orders(rng: random.Random, pos: Position, civil_disorder: float) -> Orders:
    m = pos.map
    out: Orders = {}
    for power in pos.powers():
        owed = pos.adjustment(power)
        if owed > 0:
            sites = pos.buildable(power)
            n = min(owed, len(sites))
            k = n if rng.random() < 0.8 else rng.randint(0, n)
            for site in rng.sample(sites, k):
                fleets = [loc for kind, loc in m.unit_places(site) if kind == "F"]
                if fleets and rng.random() < FLEET_BIAS.get(power, 0.4):
                    out.setdefault(power, []).append(Build("F", rng.choice(fleets)))
                else:
                    out.setdefault(power, []).append(Build("A", site))
            if k < owed and rng.random() < 0.5:
                out.setdefault(power, []).extend(Waive() for _ in range(min(owed, len(sites)) - k))
        elif owed < 0:
            need = -owed
            k = need if rng.random() >= civil_disorder else rng.randint(0, need - 1)
            for u in rng.sample(pos.units_of(power), k):
                out.setdefault(power, []).append(Disband(u.kind, u.location))
    return out


# -- mixes and games -----------------------------------------------------------

def benchmark_phases(seed: int, n: int) -> list[tuple[Position, Orders]]:
    """``n`` movement phases with orders: a quarter openings (22 units), the rest
    mid-game positions of 22 to 28 units.  The same list for the same seed."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        pos = opening_position(rng) if i % 4 == 0 else random_position(rng, rng.randint(22, 28))
        out.append((pos, random_orders(rng, pos)))
    return out


def play_forward(rng: random.Random | int | None, position: Position,
                 adjudicate: Callable[[Position, Orders], Position], phases: int,
                 **order_options) -> Iterator[tuple[Position, Orders, Position]]:
    """Play ``phases`` phases from ``position`` with random orders through ``adjudicate``
    (any function from a position and orders to the next position), yielding
    ``(position, orders, next_position)`` for each."""
    rng = as_rng(rng)
    for _ in range(phases):
        orders = random_orders(rng, position, **order_options)
        nxt = adjudicate(position, orders)
        yield position, orders, nxt
        position = nxt


def _mentions(order: Order, locations: set[str]) -> bool:
    for attr in ("location", "supported_location", "convoyed_location"):
        if getattr(order, attr, None) in locations:
            return True
    return False


def shrink_case(position: Position, orders: Orders,
                still_fails: Callable[[Position, Orders], bool]) -> tuple[Position, Orders]:
    """The smallest case (by greedy deletion) on which ``still_fails`` stays true: drop
    units with every order naming them, then single orders, then dislodged units,
    standoffs and center owners that do not matter; Fall becomes Spring if it can."""
    import dataclasses

    def rebuild(pos: Position, **changes) -> Position:
        return Position.build(changes.get("phase", pos.phase), changes.get("units", pos.units),
                              changes.get("centers", pos.centers),
                              changes.get("dislodged", pos.dislodged),
                              changes.get("standoffs", pos.standoffs), game_map=pos.map)

    def without_unit(pos: Position, os: Orders, u: Unit) -> tuple[Position, Orders]:
        gone = {u.location}
        return (rebuild(pos, units=[v for v in pos.units if v != u]),
                {p: [o for o in ol if not _mentions(o, gone)] for p, ol in os.items()})

    changed = True
    while changed:
        changed = False
        for u in list(position.units):
            p2, o2 = without_unit(position, orders, u)
            if still_fails(p2, o2):
                position, orders, changed = p2, o2, True
        for power in sorted(orders):
            for o in list(orders.get(power, ())):
                o2 = dict(orders)
                o2[power] = [x for x in orders[power] if x != o]
                if still_fails(position, o2):
                    orders, changed = o2, True
        for d in list(position.dislodged):
            p2 = rebuild(position, dislodged=[x for x in position.dislodged if x != d])
            o2 = {p: [o for o in ol if not _mentions(o, {d.unit.location})] for p, ol in orders.items()}
            if still_fails(p2, o2):
                position, orders, changed = p2, o2, True
        for s in list(position.standoffs):
            p2 = rebuild(position, standoffs=[x for x in position.standoffs if x != s])
            if still_fails(p2, orders):
                position, changed = p2, True
        for c in list(position.centers):
            p2 = rebuild(position, centers=[x for x in position.centers if x != c])
            if p2.centers and still_fails(p2, orders):
                position, changed = p2, True
        if position.phase.season == "Fall":
            p2 = rebuild(position, phase=dataclasses.replace(position.phase, season="Spring"))
            if still_fails(p2, orders):
                position, changed = p2, True
    orders = {p: ol for p, ol in orders.items() if ol}
    return position, orders


def as_read(order: Order, game_map: Map | None = None) -> Order:
    """``order`` as the order reader gives it back from its printed form: the goal of a
    fleet's move or retreat written without a coast gets the coast when the map leaves only
    one in the fleet's reach (``F LYO - SPA`` reads as ``F LYO - SPA/SC``; the reader's own
    rule, `dipsolve.grammar.drafts.fleet_goal`).  Round-trip tests of randomly drawn orders
    compare with this."""
    from ..grammar.drafts import fleet_goal
    if not isinstance(order, (Move, Retreat)) or order.kind != "F":
        return order
    target = fleet_goal(game_map or standard_map(), order.location, order.target)
    return order if target == order.target else dataclasses.replace(order, target=target)
