"""The engine against the old reference adjudicator (``tests/oracle/reference.py``) where
the DATC and the `diplomacy` package say nothing: random positions with the odd orders a
player or a bot may give (another power's unit, a unit that is not there, a place not on
the map, the same order twice, two different orders for one unit, orders of other phases,
moves by convoy, supports and convoys of anything): the same next position, the same units
destroyed, the same results with the same reasons and words.

One difference is the reference's and is allowed: an army convoyed to attack a unit of its
own power, whose convoy is broken, is reported "no convoy" by the engine (the convoy did
fail) and "bounced" by the reference (which stopped at the attack on its own unit and never
asked about the convoy)."""

from __future__ import annotations

import random

import pytest

from oracle.reference import adjudicate_movement

from dipsolve.core.adjudicator import adjudicate
from dipsolve.core.orders import Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove
from dipsolve.core.position import Position
from dipsolve.core.rules import Reason
from dipsolve.testing import benchmark_phases, random_orders, random_position


def odd_orders(rng: random.Random, position: Position) -> dict[str, list]:
    """Random orders with the odd ones a player or a bot may give: another power's unit,
    a unit that is not there, a place not on the map, the same order twice, two different
    orders for one unit, orders of other phases, moves by convoy, supports and convoys of
    anything."""
    orders = random_orders(rng, position, unordered=rng.random() * 0.3)
    units = list(position.units)
    locations = sorted(position.map.province_of) + ["XYZ", "PAR/NC", ""]
    powers = sorted(orders) or ["France"]
    for _ in range(rng.randint(0, 6)):
        p = rng.choice(powers)
        u = rng.choice(units)
        kind = rng.choice(["A", "F", u.kind, u.kind])
        loc = rng.choice([u.location, u.location, rng.choice(locations)])
        other = rng.choice(units)
        target = rng.choice(locations)
        pick = rng.randrange(11)
        if pick == 0:
            o = Move(kind, loc, target, via_convoy=rng.random() < 0.5)
        elif pick == 1:
            o = SupportHold(kind, loc, other.kind, rng.choice([other.location, target]))
        elif pick == 2:
            o = SupportMove(kind, loc, rng.choice(["A", "F", other.kind]), other.location, target)
        elif pick == 3:
            o = Convoy(loc, rng.choice(["A", "F"]), other.location, target)
        elif pick == 4:
            o = Hold(kind, loc)
        elif pick == 5:
            o = Retreat(kind, loc, target)
        elif pick == 6 and orders.get(p):
            o = orders[p][0]                      # the same order again
        elif pick == 7:
            o = Move(kind, loc, target, via_convoy=True)
        elif pick == 8:
            o = SupportMove(u.kind, u.location, other.kind, other.location,
                            rng.choice(sorted(position.map.province_of)))
        elif pick == 9:
            o = Disband(kind, loc)
        else:
            o = Hold(u.kind, u.location)
        orders.setdefault(p, []).append(o)
    return orders



def _own_unit_attacked_by_convoy(position, got, want) -> bool:
    """The one allowed difference (see the module notes)."""
    if not (got.reason is Reason.NO_CONVOY and want.reason is Reason.BOUNCED):
        return False
    order = got.order
    target = position.unit_in.get(position.map.province_of.get(order.target, ""))
    return target is not None and target.power == got.power


def same(position, orders) -> None:
    want = adjudicate_movement(position, orders)
    got = adjudicate(position, orders)
    assert got.next == want.next
    assert got.destroyed == want.destroyed
    assert len(got.results) == len(want.results)
    for g, w in zip(got.results, want.results):
        assert g == w or _own_unit_attacked_by_convoy(position, g, w), (g, w)


@pytest.mark.parametrize("seed", range(40))
def test_the_engine_equals_the_reference_on_random_positions_with_odd_orders(seed):
    rng = random.Random(7000 + seed)
    for _ in range(25):
        position = random_position(rng, n_units=rng.randint(1, 34),
                                   season=rng.choice(["Spring", "Fall"]))
        same(position, odd_orders(rng, position))


def test_the_engine_equals_the_reference_on_the_benchmark_phases():
    for position, orders in benchmark_phases(3, 300):
        same(position, orders)
