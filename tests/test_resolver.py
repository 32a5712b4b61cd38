"""`dipsolve.core.resolver.Resolver`: many order sets over one position give what
`adjudicate` gives, on random positions (many sets through one resolver) and on every
DATC movement case (each power's orders varied, the others fixed)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_datc import CASE_FILES, case_id, split_case

from dipsolve.core.adjudicator import Outcome, adjudicate
from dipsolve.core.errors import DipsolveRuleError
from dipsolve.core.orders import Hold, Move
from dipsolve.core.position import Position
from dipsolve.core.resolver import Resolver
from dipsolve.testing import random_orders, random_position


def _same(position: Position, res, full: Outcome) -> None:
    """The resolution says what the full adjudication says."""
    got = res.outcome()
    assert got.next == full.next
    assert got.results == full.results
    assert got.destroyed == full.destroyed
    nxt = full.next
    assert res.units == nxt.units
    assert set(res.dislodged) == {d.unit for d in nxt.dislodged} | set(full.destroyed)
    po = position.map.province_of
    moved = {po[r.order.location] for r in full.results if r.success and type(r.order) is Move}
    assert {po[u.location] for u in res.moved} == moved
    if position.phase.season == "Fall" and nxt.phase.kind != "retreat":
        changed = {c: o for c, o in nxt.owner.items() if position.owner.get(c) != o}
        assert res.center_changes == changed
    elif position.phase.season == "Spring":
        assert res.center_changes == {}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3), st.sampled_from(["Spring", "Fall"]))
def test_many_order_sets_through_one_resolver_equal_adjudicate(seed, varied, season):
    rng = random.Random(seed)
    position = random_position(rng, n_units=rng.randint(12, 30), season=season)
    base = random_orders(rng, position)
    powers = sorted({u.power for u in position.units})
    free = set(rng.sample(powers, min(varied, len(powers))))
    fixed = {p: os for p, os in base.items() if p not in free}
    resolver = Resolver(position, fixed)
    for _ in range(6):     # several sets through the same resolver: nothing carries over
        sets = random_orders(rng, position, unordered=rng.random() * 0.3)
        given_ = {p: os for p, os in sets.items() if p in free}
        if rng.random() < 0.3 and given_:      # an order for a unit not one's own
            p = next(iter(given_))
            other = next((u for u in position.units if u.power != p), None)
            if other is not None:
                given_[p] = list(given_[p]) + [Hold(other.kind, other.location)]
        _same(position, resolver.resolve(given_), adjudicate(position, {**fixed, **given_}))




@pytest.mark.parametrize("path", CASE_FILES, ids=[case_id(p) for p in CASE_FILES])
def test_datc_cases_with_each_power_varied(path: Path) -> None:
    from dipsolve.grammar import parse_position
    position, orders = parse_position(split_case(path.read_text(encoding="utf-8"))[0], str(path))
    if position.phase.kind != "movement":
        with pytest.raises(DipsolveRuleError, match="movement phases"):
            Resolver(position)
        return
    full = adjudicate(position, orders)
    _same(position, Resolver(position).resolve(orders), full)
    for power in orders:
        fixed = {p: os for p, os in orders.items() if p != power}
        _same(position, Resolver(position, fixed).resolve({power: orders[power]}), full)


def test_a_power_both_fixed_and_given_is_refused():
    position = random_position(1, n_units=10)
    power = position.units[0].power
    resolver = Resolver(position, {power: []})
    with pytest.raises(DipsolveRuleError, match="fixed"):
        resolver.resolve({power: []})
