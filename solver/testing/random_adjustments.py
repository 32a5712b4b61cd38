"""Deterministic random adjustment positions with large interacting groups, for the
stress tests and benchmarks of the adjustment equilibria (issue 15).

`random_adjustment_position` puts removing powers next to each other and to building
powers: each remover has many units near its home and owes several removals (C(n, k)
choices: 12,870 for 8 of 16), each builder owns its home centers, leaves them free and
owes builds; the remaining powers have as many units as centers (no adjustment).  The
joint profiles reach 1e12–1e15 with two removers and four builders.  A fixed seed gives
the same position in every process (choices only from sorted sequences).

    >>> from dipsolve.algorithms.adjustments import joint_count
    >>> pos = random_adjustment_position(7)
    >>> pos.phase.short, joint_count(pos, False) > 10 ** 12
    ('W1905A', True)
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from ..core.graph import steps
from ..core.map import Map, standard_map
from ..core.position import Phase, Position, Unit
from .random_positions import as_rng

__all__ = ["random_adjustment_position"]

#: pairs of powers whose home centers are close: removers are drawn from these
NEIGHBOURS = (("Austria", "Italy"), ("Austria", "Russia"), ("Austria", "Turkey"),
              ("Russia", "Turkey"), ("Germany", "Russia"), ("France", "Germany"),
              ("England", "France"), ("England", "Germany"), ("France", "Italy"))


def _unit_at(rng: random.Random, m: Map, power: str, prov: str) -> Unit:
    terrain = m.provinces[prov].terrain
    kind = "F" if terrain == "sea" else "A" if terrain == "land" else rng.choice("AF")
    loc = rng.choice(m.fleet_locations[prov]) if kind == "F" else prov
    return Unit(power, kind, loc)


def random_adjustment_position(rng: random.Random | int | None = None, *,
                               removers: Sequence[str] | None = None, units: int = 16,
                               removals: int = 8, builders: int = 4, builder_units: int = 1,
                               year: int = 1905, game_map: Map | None = None) -> Position:
    """A Winter adjustment position: two (or the given) neighbouring ``removers`` with
    ``units`` units each, owing ``removals`` removals, placed near their homes and the
    builders'; ``builders`` other powers own their free home centers, have
    ``builder_units`` units elsewhere and owe builds; the rest are balanced."""
    rng = as_rng(rng)
    m = game_map or standard_map()
    if removers is None:
        removers = rng.choice(NEIGHBOURS) if m.powers == standard_map().powers else rng.sample(m.powers, 2)
    removers = tuple(removers)
    rest = [p for p in m.powers if p not in removers]
    rng.shuffle(rest)
    building = sorted(rest[:builders])
    balanced = sorted(rest[builders:])
    owner: dict[str, str] = {}
    taken: set[str] = set()
    placed: list[Unit] = []
    free_homes = {h for p in building for h in m.homes[p]}
    for p in building:                       # builders own their homes, kept free
        for h in sorted(m.homes[p]):
            owner[h] = p
    for p in balanced:                       # the others sit on their homes
        for h in sorted(m.homes[p]):
            owner[h] = p
            taken.add(h)
            placed.append(_unit_at(rng, m, p, h))
    provinces = sorted(m.provinces)
    # the removers' units: near their own homes and the builders' (never on a free home)
    near_builders = steps(m, sorted(free_homes)) if free_homes else {}
    for p in removers:
        home = steps(m, sorted(m.homes[p]))
        for _ in range(units):
            cands = [q for q in provinces if q not in taken and q not in free_homes]
            weights = [math.exp(-0.8 * home.get(q, 9)) + math.exp(-0.8 * near_builders.get(q, 9))
                       for q in cands]
            q = rng.choices(cands, weights=weights, k=1)[0]
            taken.add(q)
            placed.append(_unit_at(rng, m, p, q))
    for p in building:                       # the builders' few units, near home
        home = steps(m, sorted(m.homes[p]))
        for _ in range(builder_units):
            cands = [q for q in provinces if q not in taken and q not in free_homes]
            q = min(cands, key=lambda c: (home.get(c, 9), rng.random()))
            taken.add(q)
            placed.append(_unit_at(rng, m, p, q))
    # the removers' centers: their homes, then the free centers nearest to them
    for p in removers:
        keep = units - removals
        mine = [h for h in sorted(m.homes[p]) if h not in owner][:keep]
        home = steps(m, sorted(m.homes[p]))
        spare = sorted((c for c in m.centers if c not in owner and c not in mine),
                       key=lambda c: (home.get(c, 9), c))
        mine += spare[:keep - len(mine)]
        if len(mine) < keep:
            raise ValueError(f"not enough centers left for {p} to keep {keep}")
        for c in mine:
            owner[c] = p
    return Position.build(Phase("Winter", year, "adjustment"), placed, owner, game_map=m)
