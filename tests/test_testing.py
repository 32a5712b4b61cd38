"""The random generators of `dipsolve.testing`: legal, deterministic, and varied enough."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter

import pytest

from dipsolve.core.map import POWERS, standard_map
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Retreat, SupportHold,
                             SupportMove, Waive)
from dipsolve.core.board import retreat_options
from dipsolve.core.position import Position, Unit
from dipsolve.core.graph import convoy_routes, reachable_provinces
from dipsolve.testing import (benchmark_phases, opening_position, play_forward, random_orders,
                              random_position, shrink_case)

M = standard_map()
KINDS = ("movement", "retreat", "adjustment")


def _cases(n: int = 120, seed: int = 7):
    rng = random.Random(seed)
    for i in range(n):
        kind = KINDS[i % 3]
        pos = random_position(rng, rng.randint(15, 32), kind)
        yield pos, random_orders(rng, pos, civil_disorder=0.2)


def test_positions_are_legal() -> None:
    for pos, _ in _cases():
        assert pos.problems() == [], pos.to_text()
        provinces = [M.province_of[u.location] for u in pos.units]
        assert len(provinces) == len(set(provinces))
        for power in POWERS:
            assert len(pos.centers_of(power)) <= 15


def test_opening_positions_are_legal() -> None:
    rng = random.Random(3)
    seen = Counter()
    for _ in range(40):
        pos = opening_position(rng)
        assert pos.problems() == []
        assert len(pos.units) == 22
        seen[pos.phase.short] += 1
    assert set(seen) == {"S1901M", "F1901M"}


def test_unit_count_and_phase_kind() -> None:
    rng = random.Random(1)
    for kind in KINDS:
        pos = random_position(rng, 25, kind)
        assert pos.phase.kind == kind
        n = len(pos.units) + len(pos.dislodged)
        assert n == 25 or (kind == "retreat" and 23 <= n <= 25)   # a dislodged unit with no retreat is gone
    assert random_position(rng, 25, "adjustment").phase.season == "Winter"
    with pytest.raises(ValueError):
        random_position(rng, 25, "builds")


def test_retreat_positions_have_real_retreats() -> None:
    rng = random.Random(11)
    for _ in range(60):
        pos = random_position(rng, 25, "retreat")
        occupied = {M.province_of[u.location] for u in pos.units}
        provinces = [M.province_of[d.unit.location] for d in pos.dislodged]
        assert len(provinces) == len(set(provinces))          # one dislodged unit a province
        for d in pos.dislodged:
            assert d.retreats, d
            assert M.province_of[d.unit.location] in occupied  # the attacker stands there
            assert d.retreats == retreat_options(M, d.unit, d.attacker_origin, occupied, pos.standoffs)


def test_every_order_names_a_real_unit_of_its_power() -> None:
    for pos, orders in _cases(240):
        if pos.phase.kind == "movement":
            own = {(u.power, u.kind, u.location) for u in pos.units}
        elif pos.phase.kind == "retreat":
            own = {(d.unit.power, d.unit.kind, d.unit.location) for d in pos.dislodged}
        else:
            own = {(u.power, u.kind, u.location) for u in pos.units}
        everyone = {(u.kind, u.location) for u in pos.units}
        ordered = Counter()
        for power, os in orders.items():
            for o in os:
                if isinstance(o, (Build, Waive)):
                    continue
                assert (power, o.kind, o.location) in own, (power, str(o), pos.to_text())
                ordered[(o.kind, o.location)] += 1
                if isinstance(o, (SupportHold, SupportMove)):
                    assert (o.supported_kind, o.supported_location) in everyone, str(o)
                if isinstance(o, Convoy):
                    assert (o.convoyed_kind, o.convoyed_location) in everyone, str(o)
        assert max(ordered.values(), default=1) == 1          # one order a unit


def test_movement_orders_are_legal() -> None:
    for pos, orders in _cases(240):
        if pos.phase.kind != "movement":
            continue
        for power, os in orders.items():
            for o in os:
                assert type(o) in (Hold, Move, SupportHold, SupportMove, Convoy)
                unit = Unit(power, o.kind, o.location)
                if isinstance(o, Move) and not o.via_convoy:
                    assert M.can_move(o.kind, o.location, o.target), str(o)
                if isinstance(o, Move) and o.via_convoy:
                    assert o.kind == "A" and M.provinces[o.target].terrain == "coast"
                if isinstance(o, (SupportHold, SupportMove)):
                    target = o.target if isinstance(o, SupportMove) else M.province_of[o.supported_location]
                    assert target in reachable_provinces(M, unit), str(o)
                if isinstance(o, Convoy):
                    assert M.is_sea(M.province_of[o.location]), str(o)


def test_retreat_and_adjustment_orders_are_legal() -> None:
    for pos, orders in _cases(240):
        if pos.phase.kind == "retreat":
            options = {(d.unit.kind, d.unit.location): d.retreats for d in pos.dislodged}
            for os in orders.values():
                for o in os:
                    assert isinstance(o, (Retreat, Disband))
                    if isinstance(o, Retreat):
                        assert o.target in options[(o.kind, o.location)]
        elif pos.phase.kind == "adjustment":
            for power, os in orders.items():
                builds = [o for o in os if isinstance(o, (Build, Waive))]
                removals = [o for o in os if isinstance(o, Disband)]
                owed = pos.adjustment(power)
                assert len(builds) <= max(owed, 0) and len(removals) <= max(-owed, 0)
                for b in (o for o in builds if isinstance(o, Build)):
                    assert M.province_of[b.location] in pos.buildable(power)
                    assert M.can_stand(b.kind, b.location)


def test_the_mix_is_realistic() -> None:
    """Enough of every kind of order, convoys and self-bounces included."""
    kinds = Counter()
    self_bounces = 0
    for pos, orders in benchmark_phases(5, 300):
        targets = Counter()
        for power, os in orders.items():
            for o in os:
                kinds[type(o).__name__ + (" via" if getattr(o, "via_convoy", False) else "")] += 1
                if isinstance(o, Move):
                    targets[(power, M.province_of[o.target])] += 1
        self_bounces += sum(1 for n in targets.values() if n > 1)
    total = sum(kinds.values())
    assert kinds["Move"] > 0.25 * total and kinds["Hold"] > 0.05 * total
    assert kinds["SupportMove"] > 0.1 * total and kinds["SupportHold"] > 0.03 * total
    assert kinds["Convoy"] > 50 and kinds["Move via"] > 30
    assert self_bounces > 20


def test_convoy_routes_follow_fleets() -> None:
    pos = Position.build("S1901M", [Unit("England", "A", "LON"), Unit("England", "F", "NTH"),
                                    Unit("France", "F", "NWG")], {"LON": "England"})
    routes = convoy_routes(pos, pos.units[0], [u for u in pos.units if u.kind == "F"])
    assert "NWY" in routes and "BEL" in routes and "EDI" in routes
    assert "CLY" in routes and len(routes["CLY"]) == 2             # NTH then NWG
    assert "LON" not in routes and "WAL" not in routes             # WAL needs ENG


def test_same_seed_same_phases_in_another_process() -> None:
    """Choices come from sorted sequences, never from sets (whose order varies with
    the string hash seed of the process)."""
    code = ("from dipsolve.testing import benchmark_phases as b\n"
            "print(repr([(p.to_text(), sorted((k, [str(x) for x in v]) for k, v in o.items()))"
            " for p, o in b(9, 40)]))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1
    assert benchmark_phases(9, 40) == benchmark_phases(9, 40)


def test_play_forward_and_shrink() -> None:
    def stay(position, orders):          # a toy adjudicator: nothing moves
        return position

    steps = list(play_forward(3, Position.initial(), stay, 3))
    assert len(steps) == 3 and all(nxt == pos for pos, _, nxt in steps)

    pos = random_position(4, 25)
    orders = random_orders(4, pos)
    target = pos.units[0]
    small, small_orders = shrink_case(pos, orders, lambda p, o: target in p.units)
    assert small.units == (target,)
