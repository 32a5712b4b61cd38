"""The legal-order generator is the checker, on many random positions: every order
`legal_orders` and `build_orders` generate is one `order_problem` accepts, and every
order `order_problem` accepts is generated, for every order kind (hold, move, move by
convoy, support to hold, support of a move, convoy; retreat, disband; build, remove,
waive), in movement, retreat and adjustment phases.

Each position is checked cheaply: one or two of its units (every dislodged unit of a
retreat phase, two powers of an adjustment phase), every order generated for them, and
a random sample of the orders that name real places near them, legal or not.  The
default run checks 2,000 positions (about 9 s of CPU, 175,000 orders); set
``DIPSOLVE_LEGAL_POSITIONS`` for more.  Three positions are also checked exhaustively,
below, by the adjudicator's own verdicts.
"""

from __future__ import annotations

import os
import random

import pytest

from dipsolve.core.adjudicator import Reason, adjudicate
from dipsolve.core.legal import build_orders, legal_orders
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove,
                                  Waive)
from dipsolve.core.position import Position, Unit
from dipsolve.core.rules import order_problem
from dipsolve.testing import random_position

POSITIONS = int(os.environ.get("DIPSOLVE_LEGAL_POSITIONS", "2000"))
#: orders drawn from the candidates of each unit checked (besides every generated one)
SAMPLE = 40


def _key(position: Position, order):
    """One key per order as the rules read it: an army's move names a province, with or
    without VIA when no land route exists; a fleet's move to a two-coast province without
    a coast names the one coast it can reach; a retreat names the open place it is to
    (an army's to a coast is to the province)."""
    m = position.map
    if type(order) is Retreat:
        open_ = next(d.retreats for d in position.dislodged if d.unit.location == order.location)
        target = m.province_of.get(order.target)
        same = [loc for loc in open_ if m.province_of[loc] == target]
        if (order.kind == "A" or order.target == target) and len(same) == 1:
            return Retreat(order.kind, order.location, same[0])
        return order
    if type(order) is Move:
        target = m.province_of[order.target]
        if order.kind == "A":
            return ("move", order.location, target)
        if order.target == target and m.provinces[target].coasts:
            reach = [loc for loc in m.fleet_locations[target] if loc in m.fleet_moves[order.location]]
            if len(reach) == 1:
                return Move("F", order.location, reach[0])
    return order


def _readings(order) -> list:
    """The orders with one key (`_key`): an army's move with and without VIA."""
    if type(order) is Move and order.kind == "A":
        return [Move("A", order.location, order.target, via_convoy=v) for v in (False, True)]
    return [order]


def _movement_candidates(position: Position, unit: Unit) -> list:
    """Orders for the unit that name real places, legal or not, of every kind: a move to
    every location (and by convoy to every province), supports of every unit into the
    provinces next to the unit (no other can be reached), convoys of every army to every
    province."""
    m = position.map
    here = m.province_of[unit.location]
    out: list = [Hold(unit.kind, unit.location)]
    for loc in sorted(m.province_of):
        out.append(Move(unit.kind, unit.location, loc))
        if unit.kind == "A" and loc in m.provinces:
            out.append(Move("A", unit.location, loc, via_convoy=True))
    for other in position.units:
        if other == unit:
            continue
        out.append(SupportHold(unit.kind, unit.location, other.kind, other.location))
        for p in sorted(m.neighbours[here]):
            if p != m.province_of[other.location]:
                out.append(SupportMove(unit.kind, unit.location, other.kind, other.location, p))
        if unit.kind == "F" and other.kind == "A":
            out += [Convoy(unit.location, "A", other.location, p) for p in sorted(m.provinces)]
    return out


def _check(position: Position, power: str, generated: list, candidates: list, rng: random.Random) -> int:
    """Generated orders all accepted; sampled candidates accepted exactly when generated."""
    keys = {_key(position, o) for o in generated}
    assert len(keys) == len(generated), f"an order generated twice in {position.phase}"
    for o in generated:
        assert order_problem(position, power, o) is None, (o, order_problem(position, power, o), position)
    sample = rng.sample(candidates, min(SAMPLE, len(candidates)))
    for o in sample:
        accepted = any(order_problem(position, power, v) is None for v in _readings(o))
        assert accepted == (_key(position, o) in keys), (o, accepted, position)
    return len(generated) + len(sample)


def _one(seed: int) -> int:
    rng = random.Random(seed)
    kind = ("movement", "movement", "retreat", "adjustment")[seed % 4]
    position = random_position(rng, n_units=rng.randint(2, 30), phase_kind=kind)
    m = position.map
    checked = 0
    if kind == "movement":
        for unit in rng.sample(position.units, min(2, len(position.units))):
            checked += _check(position, unit.power, legal_orders(position, unit),
                              _movement_candidates(position, unit), rng)
    elif kind == "retreat":
        for d in position.dislodged:
            u = d.unit
            candidates = [Retreat(u.kind, u.location, loc) for loc in sorted(m.province_of)]
            candidates.append(Disband(u.kind, u.location))
            checked += _check(position, u.power, legal_orders(position, u), candidates, rng)
    else:
        for power in rng.sample(position.powers(), min(2, len(position.powers()))):
            generated = build_orders(position, power)
            for u in position.units_of(power):
                generated += legal_orders(position, u)        # a removal, when one is owed
            candidates = [Waive()] + [Build(k, loc) for loc in sorted(m.province_of) for k in "AF"]
            candidates += [Disband(u.kind, u.location) for u in position.units]
            checked += _check(position, power, generated, candidates, rng)
    return checked


@pytest.mark.slow  # many random positions
def test_the_generator_is_the_checker_on_many_random_positions():
    checked = sum(_one(seed) for seed in range(POSITIONS))
    assert checked > POSITIONS * 10


# -- three positions exhaustively, judged by the adjudicator itself ------------------------------

def _accepted(position: Position, unit: Unit, order) -> bool:
    r = adjudicate(position, {unit.power: [order]}).result_for(unit.location)
    return r is not None and r.reason not in (Reason.ILLEGAL, Reason.NO_UNIT)


@pytest.mark.parametrize("seed", range(3))
def test_legal_orders_are_exactly_the_orders_the_adjudicator_accepts(seed):
    position = random_position(seed, n_units=18)
    for unit in position.units:
        legal = legal_orders(position, unit)
        assert len(set(legal)) == len(legal)
        accepted = {_key(position, o) for o in _movement_candidates(position, unit)
                    if _accepted(position, unit, o)}
        assert {_key(position, o) for o in legal} == accepted, unit
