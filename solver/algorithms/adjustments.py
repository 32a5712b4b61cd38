"""Every legal adjustment order set of a power, and how many there are.

The winter adjustment phase of Loeb's *The combinatorics of adjustments* (seed ``003_…``):
a power with more supply centers than units builds, one unit in each chosen owned,
unoccupied home center (an army, or a fleet where the center is coastal, naming the
coast in St Petersburg); a power with more units than centers removes exactly that many
of its units, any of them; a power may waive builds.

Two ways to count the builds, both used below:

``waives=True``
    every legal order set: build ``j`` units for any ``j`` from 0 up to what is owed
    and possible, the rest waived.  This is what a player can really do.
``waives=False``
    the seed's "not counting waives": build as many units as owed, or as the free home
    centers allow when they are fewer (those builds are then waived perforce).

The number of ways to build exactly ``j`` units in home centers with ``w1, w2, …`` build
options each (1 inland, 2 coastal, 3 St Petersburg: army, fleet on the north coast,
fleet on the south coast) is the elementary symmetric polynomial ``e_j(w)``: choose the
``j`` centers, then one option in each.  Removals of ``k`` of ``n`` units: ``C(n, k)``.
`count_adjustments` uses these formulas and never enumerates; `legal_adjustments`
enumerates (python-constraint places the builds, one variable per home center) and is
tested to agree with the formulas.

Loeb's tables and their one slip: he gives Russia "1 + 1 + 2 + 3 = 5" choices for one
build, but the sum is 7, so Russia's counts with waives are 24/41/47 for 2/3/4 builds,
not 22/39/45.  His "counting waives" figures add up the ways to build 1, 2, … units and
leave out the order set that waives every build; `seed_waive_count` reproduces that
convention, `count_adjustments(..., waives=True)` counts that order set too (one more).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence

from constraint import FunctionConstraint, Problem

from ..core.legal import site_builds
from ..core.map import Map
from ..core.orders import Build, Disband, Order, Waive
from ..core.position import Phase, Position, Unit

OrderSet = tuple[Order, ...]


# -- build sites ------------------------------------------------------------------------

@dataclass(frozen=True)
class BuildSite:
    """One home center where a power may build now, with every build it allows there."""

    province: str
    builds: tuple[Build, ...]     # A BER B, F BER B; F STP/NC B, F STP/SC B, A STP B

    @property
    def options(self) -> int:
        return len(self.builds)


def build_sites(position: Position, power: str) -> tuple[BuildSite, ...]:
    """The power's owned, unoccupied home centers (`Position.buildable`) and their builds."""
    m = position.map
    return tuple(BuildSite(p, site_builds(m, p)) for p in position.buildable(power))


def home_weights(game_map: Map, power: str) -> tuple[int, ...]:
    """Build options at each home center of a power, in province order (England: 2, 2, 2;
    Russia: MOS 1, SEV 2, STP 3, WAR 1)."""
    return tuple(len(site_builds(game_map, p)) for p in sorted(game_map.homes[power]))


# -- counting by formula ------------------------------------------------------------------

def elementary_symmetric(weights: Sequence[int], j: int) -> int:
    """``e_j(w)``: the sum over ``j``-subsets of the weights of their product.

    The number of ways to build exactly ``j`` units in centers offering ``w`` options each.
    """
    if j < 0 or j > len(weights):
        return 0
    e = [1] + [0] * j
    for w in weights:
        for i in range(j, 0, -1):
            e[i] += e[i - 1] * w
    return e[j]


def build_count(weights: Sequence[int], builds: int, waives: bool = True) -> int:
    """Legal build order sets for ``builds`` owed in centers with these option counts.

    With waives: ``e_0 + e_1 + … + e_b``, ``b = min(builds, centers)`` (``e_0 = 1`` is the
    set that waives everything).  Without: ``e_b`` (build all that can be built).
    """
    if builds <= 0:
        return 1
    top = min(builds, len(weights))
    if waives:
        return sum(elementary_symmetric(weights, j) for j in range(top + 1))
    return elementary_symmetric(weights, top)


def seed_waive_count(weights: Sequence[int], builds: int) -> int:
    """Loeb's "counting waives" figure: ways to build 1, 2, …, ``builds`` units (18 for
    England with 2 builds).  One less than `build_count` with waives: the seed does not
    count the order set that waives every build."""
    return build_count(weights, builds, waives=True) - 1


def removal_count(units: int, removals: int) -> int:
    """Ways to remove ``removals`` of ``units`` units: the binomial coefficient."""
    return math.comb(units, removals)


def count_adjustments(position: Position, power: str, waives: bool = True) -> int:
    """How many legal adjustment order sets the power has, by formula (no enumeration)."""
    delta = position.adjustment(power)
    if delta > 0:
        return build_count([s.options for s in build_sites(position, power)], delta, waives)
    if delta < 0:
        return removal_count(len(position.units_of(power)), -delta)
    return 1


def adjusting_powers(position: Position) -> list[str]:
    """Powers that build or remove (in the standard order)."""
    return [p for p in position.powers() if position.adjustment(p) != 0]


def joint_count(position: Position, waives: bool = True) -> int:
    """The number of joint adjustment profiles: the product over powers of their choices."""
    return math.prod(count_adjustments(position, p, waives) for p in position.powers())


# -- enumeration ------------------------------------------------------------------------

def build_placements(sites: Sequence[BuildSite], least: int, most: int) -> list[tuple[Build, ...]]:
    """Every way to build between ``least`` and ``most`` units at these sites.

    A constraint problem with one variable per home center whose domain is "no build"
    (0) or one of its builds (1, 2, …); the number of centers used is constrained.
    """
    if most <= 0 or not sites:
        return [()] if least <= 0 else []
    problem = Problem()
    names = [s.province for s in sites]
    for s in sites:
        problem.addVariable(s.province, list(range(s.options + 1)))
    problem.addConstraint(FunctionConstraint(
        lambda *chosen: least <= sum(1 for c in chosen if c) <= most), names)
    placements = []
    for solution in problem.getSolutions():
        placements.append(tuple(s.builds[solution[s.province] - 1]
                                for s in sites if solution[s.province]))
    placements.sort(key=lambda b: (len(b), [str(o) for o in b]))
    return placements


def iter_adjustments(position: Position, power: str, waives: bool = True) -> Iterator[OrderSet]:
    """Every legal adjustment order set of the power, each a tuple of orders.

    Builds: each placement of builds in owned free home centers, padded with ``WAIVE``
    orders to the number owed (so the set says what happens to every build).  Removals:
    each choice of units to remove (``Disband`` orders).  No adjustment: one empty set.
    """
    delta = position.adjustment(power)
    if delta > 0:
        sites = build_sites(position, power)
        top = min(delta, len(sites))
        for placement in build_placements(sites, 0 if waives else top, top):
            yield placement + (Waive(),) * (delta - len(placement))
    elif delta < 0:
        # one order per unit, shared by the sets that remove it (24,310 sets of 8 for 17 units)
        disbands = [Disband(u.kind, u.location) for u in sorted(position.units_of(power))]
        yield from itertools.combinations(disbands, -delta)
    else:
        yield ()


def legal_adjustments(position: Position, power: str, waives: bool = True) -> list[OrderSet]:
    """`iter_adjustments` as a list (its length is `count_adjustments`)."""
    return list(iter_adjustments(position, power, waives))


# -- applying a joint profile ----------------------------------------------------------------

def units_after(position: Position, orders: Mapping[str, Iterable[Order]]) -> list[Unit]:
    """The units after legal adjustment orders (as `legal_adjustments` makes them).

    The fast path the equilibrium search uses millions of times instead of the full
    adjudicator; `tests/test_adjustments.py` checks that it agrees with
    `dipsolve.core.adjudicator.adjudicate` on every order set of the example positions.
    """
    po = position.map.province_of
    removed: set[tuple[str, str]] = set()
    built: list[Unit] = []
    for power, os in orders.items():
        for o in os:
            if isinstance(o, Build):
                built.append(Unit(power, o.kind, po[o.location] if o.kind == "A" else o.location))
            elif isinstance(o, Disband):
                removed.add((o.kind, o.location))
    return [u for u in position.units if (u.kind, u.location) not in removed] + built


def after_adjustments(position: Position, orders: Mapping[str, Iterable[Order]]) -> Position:
    """The Spring position that follows legal adjustment orders (see `units_after`)."""
    return Position.build(Phase("Spring", position.phase.year + 1, "movement"),
                          units_after(position, orders), position.centers,
                          game_map=position.map)


__all__ = ["BuildSite", "OrderSet", "adjusting_powers", "after_adjustments",
           "build_count", "build_placements", "build_sites", "count_adjustments",
           "elementary_symmetric", "home_weights", "iter_adjustments", "joint_count",
           "legal_adjustments", "removal_count", "seed_waive_count", "site_builds",
           "units_after"]
