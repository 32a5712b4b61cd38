"""Distances and routes on the map: its breadth-first searches, each table built once per map.

Two graphs are searched.  The *plain adjacency* (`Map.neighbours`: provinces next to each
other for any unit) measures how far a place is from a power's centers; the *moves of a
unit kind* (`Map.army_moves`, `Map.fleet_moves`, coasts as their own locations) measure how
many moves a unit needs.  Convoy routes run over the plain adjacency through the seas
that fleets hold.

    >>> from dipsolve.core.map import standard_map
    >>> from dipsolve.core.position import Unit
    >>> m = standard_map()
    >>> distances(m, "A", "PAR")["MUN"], distances(m, "F", "BRE")["NAO"]
    (2, 2)
    >>> steps(m, ["LON"])["PAR"]
    3
    >>> reachable_provinces(m, Unit("France", "F", "SPA/SC"))
    ('LYO', 'MAO', 'MAR', 'POR', 'WES')
    >>> sea_route(m, "LON", "NWY", {"NTH"}), sea_route(m, "LON", "SWE", {"NTH"})
    (True, False)

Tables that depend on the map alone (`steps` from a set of provinces, `distances` and
`rings` of a unit, `reachable` places) are kept in the map's own `Map.memo`, so they live
exactly as long as the map and are shared by every position on it; they are shared
objects: read them, never change them.  Searches that depend on where fleets stand
(`sea_route`, `on_route`, `sea_component`, `convoy_routes`) are computed each time.
"""

from __future__ import annotations

from typing import Iterable

from .map import Map
from .position import Position, Unit

__all__ = ["convoy_routes", "distances", "on_route", "reachable", "reachable_provinces", "rings",
           "sea_component", "sea_route", "steps"]

#: `steps` keeps at most this many tables per map (one per set of provinces asked about)
_STEPS_KEPT = 4096


def _table(game_map: Map, name: str) -> dict:
    """The map's cache named ``name`` (a dict in `Map.memo`), made on first use."""
    memo = game_map.memo
    table = memo.get(name)
    if table is None:
        table = memo[name] = {}
    return table


# -- the plain adjacency ---------------------------------------------------------------------

def steps(game_map: Map, provinces: Iterable[str]) -> dict[str, int]:
    """Province -> the fewest steps between neighbouring provinces (any unit type,
    `Map.neighbours`) from the nearest of ``provinces`` (0 for themselves); provinces
    that cannot be reached are absent."""
    key = frozenset(provinces)
    cache = _table(game_map, "graph.steps")
    dist = cache.get(key)
    if dist is None:
        nb = game_map.neighbours
        dist = {p: 0 for p in sorted(key)}
        frontier = sorted(dist)
        while frontier:
            nxt = []
            for p in frontier:
                for q in sorted(nb[p]):
                    if q not in dist:
                        dist[q] = dist[p] + 1
                        nxt.append(q)
            frontier = nxt
        if len(cache) >= _STEPS_KEPT:
            cache.clear()
        cache[key] = dist
    return dist


# -- the moves of one unit ---------------------------------------------------------------------

def distances(game_map: Map, kind: str, location: str) -> dict[str, int]:
    """Province -> the fewest moves a unit of ``kind`` at ``location`` needs to reach it
    (0 for its own province; provinces it can never reach are absent; no convoys)."""
    cache = _table(game_map, "graph.distances")
    key = (kind, location)
    table = cache.get(key)
    if table is None:
        moves = game_map.army_moves if kind == "A" else game_map.fleet_moves
        po = game_map.province_of
        seen = {location: 0}
        frontier = [location]
        while frontier:
            nxt = []
            for loc in frontier:
                for dst in moves.get(loc, ()):
                    if dst not in seen:
                        seen[dst] = seen[loc] + 1
                        nxt.append(dst)
            frontier = nxt
        table = {}
        for loc, d in seen.items():
            p = po[loc]
            if p not in table or d < table[p]:
                table[p] = d
        cache[key] = table
    return table


def rings(game_map: Map, kind: str, location: str) -> tuple[frozenset[str], ...]:
    """The provinces a unit of ``kind`` at ``location`` reaches in exactly 0, 1, 2, …
    moves (`distances` by level)."""
    cache = _table(game_map, "graph.rings")
    key = (kind, location)
    r = cache.get(key)
    if r is None:
        by_level: dict[int, set[str]] = {}
        for p, d in distances(game_map, kind, location).items():
            by_level.setdefault(d, set()).add(p)
        r = cache[key] = tuple(frozenset(by_level.get(d, ())) for d in range(max(by_level) + 1))
    return r


def reachable(game_map: Map, unit: Unit) -> tuple[str, ...]:
    """The locations ``unit`` can move to without a convoy (a fleet's coasts named), sorted."""
    cache = _table(game_map, "graph.reachable")
    key = (unit.kind, unit.location)
    out = cache.get(key)
    if out is None:
        moves = game_map.army_moves if unit.kind == "A" else game_map.fleet_moves
        out = cache[key] = tuple(sorted(moves.get(unit.location, ())))
    return out


def reachable_provinces(game_map: Map, unit: Unit) -> tuple[str, ...]:
    """The provinces ``unit`` can move to (and so support into) without a convoy, sorted."""
    cache = _table(game_map, "graph.reachable_provinces")
    key = (unit.kind, unit.location)
    out = cache.get(key)
    if out is None:
        po = game_map.province_of
        out = cache[key] = tuple(sorted({po[loc] for loc in reachable(game_map, unit)}))
    return out


# -- convoy routes ------------------------------------------------------------------------------

def sea_route(game_map: Map, src: str, dst: str, seas: set[str] | frozenset[str]) -> bool:
    """Whether an army in province ``src`` can be convoyed to ``dst`` through fleets
    standing in the sea provinces ``seas`` (the adjudicator's test of a convoy route)."""
    if not seas:
        return False
    nb = game_map.neighbours
    frontier = [s for s in nb[src] if s in seas]
    seen = set(frontier)
    while frontier:
        s = frontier.pop()
        if dst in nb[s]:
            return True
        for t in nb[s]:
            if t in seas and t not in seen:
                seen.add(t)
                frontier.append(t)
    return False


def on_route(game_map: Map, src: str, dst: str, sea: str, seas: frozenset[str]) -> bool:
    """Whether the fleet in ``sea`` is necessary for some convoy route from ``src`` to ``dst``.

    A route is a chain of fleet-held seas; the fleet is necessary for it when the chain
    has no shortcut (no two non-consecutive places on it are adjacent), so that leaving
    the fleet out breaks it.  DATC 4.E.1 calls a convoy order illegal when its fleet is
    necessary for no route (test case 6.G.19).
    """
    nb = game_map.neighbours
    if src not in nb or dst not in nb:
        return False

    def extend(path: list[str]) -> bool:
        last = path[-1]
        if dst in nb[last] and len(path) > 1:
            return sea in path
        for t in nb[last]:
            if t not in seas or t in path:
                continue
            # no shortcut: t touches only its predecessor on the path (and not dst early)
            if any(t in nb[p] for p in path[:-1]):
                continue
            path.append(t)
            if extend(path):
                return True
            path.pop()
        return False

    return extend([src])


def sea_component(game_map: Map, province: str, seas: set[str] | frozenset[str]) -> frozenset[str]:
    """The seas of ``seas`` connected to ``province`` through one another (a fleet outside
    them can carry an army from there nowhere)."""
    nb = game_map.neighbours
    frontier = [s for s in nb[province] if s in seas]
    seen = set(frontier)
    while frontier:
        s = frontier.pop()
        for q in nb[s]:
            if q in seas and q not in seen:
                seen.add(q)
                frontier.append(q)
    return frozenset(seen)


def convoy_routes(position: Position, army: Unit, fleets: Iterable[Unit]) -> dict[str, list[Unit]]:
    """Destination province -> a shortest chain of the given fleets (each in a sea) that
    can carry ``army`` there.  Only coastal destinations other than its own province."""
    m = position.map
    start = m.province_of[army.location]
    if m.provinces[start].terrain != "coast":
        return {}
    at_sea = {m.province_of[f.location]: f for f in fleets
              if f.kind == "F" and m.is_sea(m.province_of[f.location])}
    path: dict[str, list[Unit]] = {}
    frontier = []
    for s in sorted(m.neighbours[start]):
        if s in at_sea:
            path[s] = [at_sea[s]]
            frontier.append(s)
    routes: dict[str, list[Unit]] = {}
    while frontier:
        nxt = []
        for s in frontier:
            for q in sorted(m.neighbours[s]):
                terrain = m.provinces[q].terrain
                if terrain == "coast" and q != start and q not in routes:
                    routes[q] = path[s]
                elif q in at_sea and q not in path:
                    path[q] = path[s] + [at_sea[q]]
                    nxt.append(q)
        frontier = nxt
    return routes
