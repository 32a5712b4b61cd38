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
objects: read them, never change them.  Whether a convoy route exists and whether a fleet is on one
(`sea_route`, `on_route`) are the rules engine's questions (`dipsolve.core.tables`), asked
here by name; the chains themselves, to show or to order (a shortest chain to a place or
to every coast, the seas reached), are `sea_chains`, with `sea_component` and
`convoy_routes` its modes by name, computed each time.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping

from .board import Board, board_of
from .kernel import plain
from .map import Map
from .position import Position, Unit

__all__ = ["coasts_in_reach", "convoy_routes", "distances", "fill_coast", "moves_from", "on_route",
           "provinces_from", "reachable", "reachable_provinces", "rings", "sea_chains", "sea_component",
           "sea_route", "steps"]

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


def moves_from(game_map: Map, kind: str, location: str) -> tuple[str, ...]:
    """The locations a unit of ``kind`` at ``location`` can move to without a convoy (a
    fleet's coasts named), sorted: the one reading of the map's adjacency for a unit."""
    cache = _table(game_map, "graph.reachable")
    key = (kind, location)
    out = cache.get(key)
    if out is None:
        moves = game_map.army_moves if kind == "A" else game_map.fleet_moves
        out = cache[key] = tuple(sorted(moves.get(location, ())))
    return out


def provinces_from(game_map: Map, kind: str, location: str) -> tuple[str, ...]:
    """The provinces a unit of ``kind`` at ``location`` can move to (and so support
    into) without a convoy, sorted."""
    cache = _table(game_map, "graph.reachable_provinces")
    key = (kind, location)
    out = cache.get(key)
    if out is None:
        po = game_map.province_of
        out = cache[key] = tuple(sorted({po[loc] for loc in moves_from(game_map, kind, location)}))
    return out


def reachable(game_map: Map, unit: Unit) -> tuple[str, ...]:
    """The locations ``unit`` can move to without a convoy (a fleet's coasts named), sorted."""
    return moves_from(game_map, unit.kind, unit.location)


def reachable_provinces(game_map: Map, unit: Unit) -> tuple[str, ...]:
    """The provinces ``unit`` can move to (and so support into) without a convoy, sorted."""
    return provinces_from(game_map, unit.kind, unit.location)


# -- coasts -------------------------------------------------------------------------------------------

def coasts_in_reach(game_map: Map, province: str, reach: Iterable[str]) -> tuple[str, ...]:
    """The locations of ``province`` among ``reach`` (where a fleet can go: its moves, or
    a dislodged fleet's retreats), in the map's order of its coasts."""
    places = reach if isinstance(reach, (set, frozenset, dict)) else set(reach)
    return tuple(loc for loc in game_map.fleet_locations.get(province, ()) if loc in places)


def fill_coast(game_map: Map, target: str, reach: Iterable[str]) -> str:
    """A fleet's ``target`` with its coast filled in: when it names a province of several
    coasts without one and exactly one of them is in ``reach``, that coast; otherwise
    ``target`` as it is.  The one coast fill-in of the rules and of the text readers.

        >>> from dipsolve.core.map import standard_map
        >>> m = standard_map()
        >>> fill_coast(m, "STP", m.fleet_moves["BOT"]), fill_coast(m, "SPA", m.fleet_moves["MAO"])
        ('STP/SC', 'SPA')
    """
    prov = game_map.province_of.get(target)
    if prov != target or not game_map.provinces[prov].coasts:
        return target
    coasts = coasts_in_reach(game_map, prov, reach)
    return coasts[0] if len(coasts) == 1 else target


# -- convoy routes: one search, with modes ---------------------------------------------------------

#: the modes of `sea_chains`
CHAIN_MODES = ("shortest", "seas")


def _sorted_neighbours(game_map: Map) -> dict[str, tuple[str, ...]]:
    """Province -> its neighbours in name order (kept in the map's memo): every search
    below takes them in this order, so that its ties are broken by names."""
    table = game_map.memo.get("graph.sorted_neighbours")
    if table is None:
        table = game_map.memo["graph.sorted_neighbours"] = {
            p: tuple(sorted(q)) for p, q in game_map.neighbours.items()}
    return table


def sea_chains(game_map: Map, src: str, seas: Iterable[str], dst: str | None = None,
               mode: str = "shortest") -> Iterator[tuple[str, ...]]:
    """The convoy chains that carry an army from province ``src`` through fleets standing
    in the sea provinces ``seas`` (the seas of the fleets the question is about: all
    fleets at sea, one power's, or the fleets ordered to convoy), each chain the seas in
    order and then the province reached: the chain a route takes, to show or to order.
    (Whether a route exists and whether a fleet is on one are the engine's questions,
    `sea_route` and `on_route`.)  Two modes:

    ``"shortest"`` (breadth-first; ties by province names)
        with ``dst``: a shortest chain to ``dst`` if there is one; without: a shortest
        chain to each coastal province the army can be carried to, nearest first
        (`convoy_routes`).
    ``"seas"`` (breadth-first)
        a shortest chain to each sea of ``seas`` reachable from ``src`` through the
        others (`sea_component`), ending in that sea.

        >>> from dipsolve.core.map import standard_map
        >>> m = standard_map()
        >>> next(sea_chains(m, "LON", {"NTH", "NWG", "ENG"}, "CLY"))
        ('NTH', 'NWG', 'CLY')
        >>> [c for c in sea_chains(m, "LON", {"NTH", "NWG", "ENG"}) if c[-1] in ("NWY", "BRE")]
        [('ENG', 'BRE'), ('NTH', 'NWY')]
    """
    nb = _sorted_neighbours(game_map)
    if src not in nb or (dst is not None and dst not in nb):
        return
    held = seas if isinstance(seas, (set, frozenset)) else set(seas)
    if mode not in CHAIN_MODES:
        raise ValueError(f"sea_chains: unknown mode {mode!r} (expected one of {', '.join(CHAIN_MODES)})")
    before: dict[str, str | None] = {}
    order: list[str] = []
    for s in nb[src]:
        if s in held:
            before[s] = None
            order.append(s)
    landed: set[str] = set()
    coast = game_map.provinces
    i = 0
    while i < len(order):
        s = order[i]
        i += 1
        if mode == "seas":
            yield _chain(before, s, ())
        elif dst is not None:
            if dst in game_map.neighbours[s]:
                yield _chain(before, s, (dst,))
                return
        else:
            for q in nb[s]:
                if q not in landed and q != src and coast[q].terrain == "coast":
                    landed.add(q)
                    yield _chain(before, s, (q,))
        for t in nb[s]:
            if t in held and t not in before and t != src:
                before[t] = s
                order.append(t)


def _chain(before: Mapping[str, str | None], sea: str, tail: tuple[str, ...]) -> tuple[str, ...]:
    """The seas from the first to ``sea`` by the search's links back, then ``tail``."""
    chain = [sea]
    while (previous := before[chain[-1]]) is not None:
        chain.append(previous)
    return tuple(reversed(chain)) + tail


def sea_route(game_map: Map, src: str, dst: str, seas: set[str] | frozenset[str]) -> bool:
    """Whether an army in province ``src`` can be convoyed to ``dst`` through fleets
    standing in the sea provinces ``seas``: the engine's test of a convoy route
    (`dipsolve.core.tables.sea_route`), asked by name."""
    asked = _engine_question(game_map, (src, dst), seas)
    if asked is None:
        return False
    board, (s, d), held = asked
    return bool(plain("sea_route")(board.tables, s, d, held))


def on_route(game_map: Map, src: str, dst: str, sea: str, seas: frozenset[str]) -> bool:
    """Whether the fleet in ``sea`` is necessary for some convoy route from ``src`` to ``dst``:
    on a chain without a shortcut, so that leaving the fleet out breaks it.  DATC 4.E.1
    calls a convoy order illegal when its fleet is necessary for no route (test case
    6.G.19).  The engine's test (`dipsolve.core.tables.on_route`), asked by name."""
    asked = _engine_question(game_map, (src, dst, sea), seas)
    if asked is None:
        return False
    board, (s, d, f), held = asked
    return bool(plain("on_route")(board.tables, s, d, f, held))


def _engine_question(game_map: Map, provinces: tuple[str, ...], seas: Iterable[str]
                     ) -> tuple[Board, list[int], list[int]] | None:
    """The board, the provinces' numbers and the seas held as the engine takes them;
    None when a province is not on the map."""
    board = board_of(game_map)
    ids = board.location_id                  # a province's number is its location's
    numbers = [ids.get(p, -1) for p in provinces]
    if min(numbers) < 0 or any(n >= len(board.provinces) for n in numbers):
        return None
    held = [0] * len(board.provinces)
    for sea in seas:
        n = ids.get(sea, -1)
        if 0 <= n < len(held):
            held[n] = 1
    return board, numbers, held


def sea_component(game_map: Map, province: str, seas: set[str] | frozenset[str]) -> frozenset[str]:
    """The seas of ``seas`` connected to ``province`` through one another (a fleet outside
    them can carry an army from there nowhere)."""
    return frozenset(chain[-1] for chain in sea_chains(game_map, province, seas, mode="seas"))


def convoy_routes(position: Position, army: Unit, fleets: Iterable[Unit]) -> dict[str, list[Unit]]:
    """Destination province -> a shortest chain of the given fleets (each in a sea) that
    can carry ``army`` there.  Only coastal destinations other than its own province."""
    m = position.map
    start = m.province_of[army.location]
    if m.provinces[start].terrain != "coast":
        return {}
    at_sea = {m.province_of[f.location]: f for f in fleets
              if f.kind == "F" and m.is_sea(m.province_of[f.location])}
    return {chain[-1]: [at_sea[s] for s in chain[:-1]]
            for chain in sea_chains(m, start, set(at_sea))}
