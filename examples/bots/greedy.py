"""An example bot of your own: a greedy center grabber written against ``import dipsolve``.

Seat it by its file and class::

    dipsolve play --bots examples/bots/greedy.py:GreedyBot,dumbbot --games 1 --until 1903
    dipsolve daide 127.0.0.1:16713 --bot examples/bots/greedy.py:GreedyBot

A bot is any object with a ``name`` (text, for the results table) and
``orders(position, power, deadline_s, rng)`` returning the orders ``power`` gives in
``position``'s phase: movement, retreat or adjustment (docs/bots.md).  Every random
choice comes from ``rng``, so a seeded game replays exactly.
"""

from __future__ import annotations

import random

import dipsolve


class GreedyBot:
    """Each unit moves to a supply center its power does not own when one is a move away
    (else it holds); a dislodged unit retreats where it can; builds are armies where
    armies can stand, fleets elsewhere; removals are drawn at random."""

    name = "example-greedy"

    def orders(self, position: dipsolve.Position, power: str, deadline_s: float,
               rng: random.Random) -> list[dipsolve.Order]:
        kind = position.phase.kind
        if kind == "adjustment":
            return self._adjust(position, power, rng)
        centers = position.map.centers
        mine = set(position.centers_of(power))
        out: list[dipsolve.Order] = []
        units = ([d.unit for d in position.dislodged if d.unit.power == power] if kind == "retreat"
                 else position.units_of(power))
        for unit in units:
            choices = dipsolve.legal_orders(position, unit)
            wanted = [o for o in choices if isinstance(o, (dipsolve.Move, dipsolve.Retreat))
                      and position.map.province_of[o.target] in centers
                      and position.map.province_of[o.target] not in mine]
            if wanted:
                out.append(rng.choice(wanted))
            elif kind == "retreat":
                out.append(rng.choice(choices))
            else:
                out.append(dipsolve.Hold(unit.kind, unit.location))
        return out

    def _adjust(self, position: dipsolve.Position, power: str, rng: random.Random) -> list[dipsolve.Order]:
        owed = position.adjustment(power)
        if owed < 0:
            units = sorted(position.units_of(power))
            return [dipsolve.Disband(u.kind, u.location) for u in rng.sample(units, -owed)]
        builds: list[dipsolve.Order] = []
        for order in dipsolve.legal_orders(position, power):
            if len(builds) == owed:
                break
            if isinstance(order, dipsolve.Build) and all(
                    position.map.province_of[b.location] != position.map.province_of[order.location]
                    for b in builds if isinstance(b, dipsolve.Build)):
                builds.append(order)
        return builds
