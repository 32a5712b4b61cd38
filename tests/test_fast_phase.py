"""A fresh movement phase through the compiled kernel (`dipsolve.core.fast_phase`: the
orders matched, checked and resolved in the kernel) against the reference adjudicator:
the same next position, the same units destroyed and the same per-order results, on
random positions with odd orders, every DATC case, the benchmark's phases and the real
records; the rare cases sent to the reference; the orders' codes."""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from test_datc import CASE_FILES, case_id, split_case

from dipsolve.core import fast_phase, fast_resolver
from dipsolve.core.adjudicator import Outcome, adjudicate
from dipsolve.core.orders import (Build, Convoy, Disband, Hold, Move, Retreat, SupportHold,
                                  SupportMove, Waive)
from dipsolve.core.position import Position, Unit
from dipsolve.testing import benchmark_phases, random_orders, random_position

compiled = pytest.mark.skipif(not fast_resolver.ready(),
                              reason=f"the compiled path is off: {fast_resolver.why_not()}")


def reference(position: Position, orders) -> Outcome:
    """``adjudicate`` with the compiled path switched off."""
    before = fast_resolver.set_enabled(False)
    try:
        return adjudicate(position, orders)
    finally:
        fast_resolver.set_enabled(before)


def same(position: Position, orders, *, taken: bool = True) -> None:
    """The compiled path (which must take the phase when ``taken``) and the reference
    give the same outcome."""
    want = reference(position, orders)
    if taken:
        assert fast_phase.movement(position, orders) is not None
    got = adjudicate(position, orders)
    assert got.next == want.next
    assert got.destroyed == want.destroyed
    assert got.results == want.results


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


@compiled
@pytest.mark.parametrize("seed", range(40))
def test_fresh_phases_compiled_equal_reference_on_random_positions(seed):
    rng = random.Random(7000 + seed)
    for _ in range(25):
        position = random_position(rng, n_units=rng.randint(1, 34),
                                   season=rng.choice(["Spring", "Fall"]))
        same(position, odd_orders(rng, position))


@compiled
@pytest.mark.parametrize("path", CASE_FILES, ids=[case_id(p) for p in CASE_FILES])
def test_datc_cases_compiled_equal_reference(path: Path) -> None:
    from dipsolve.grammar import parse_position
    position, orders = parse_position(split_case(path.read_text(encoding="utf-8"))[0], str(path))
    if position.phase.kind != "movement" or not position.units:
        return
    # a named convoy route has no code: the reference takes those cases
    routed = any(type(o) is Move and o.route for os in orders.values() for o in os)
    same(position, orders, taken=not routed)


@compiled
def test_benchmark_phases_compiled_equal_reference():
    for position, orders in benchmark_phases(3, 300):
        same(position, orders)


@compiled
def test_real_records_compiled_equal_reference():
    """Every movement phase of the real records the tests read (tests/data/records, and
    those the installed `diplomacy` package keeps)."""
    import dipsolve
    from dipsolve.testing.peer import real_records
    records = sorted((Path(__file__).parent / "data" / "records").glob("*.json"))
    assert records
    records += sorted(real_records().values())
    phases = 0
    for path in records:
        for ph in dipsolve.Game.load(str(path)):
            if ph.position.phase.kind == "movement" and ph.position.units:
                same(ph.position, {p: list(os) for p, os in ph.orders.items()})
                phases += 1
    assert phases >= 50


@compiled
def test_rare_cases_go_to_the_reference():
    position = random_position(12, n_units=20)
    orders = random_orders(12, position)
    power = sorted(orders)[0]
    army = next((u for u in position.units if u.kind == "A"), position.units[0])
    for given in ({**orders, power: [*orders[power], Waive()]},          # no unit's order
                  {**orders, power: [Hold("X", "PAR")]},                 # a kind that is none
                  {**orders, army.power: [Move("A", army.location, "NWY", True, ("NTH",))]}):  # a route
        assert fast_phase.movement(position, given) is None
        same(position, given, taken=False)
    # set aside or held in the kernel: another phase's orders
    for given in ({**orders, power: [*orders[power], Build("A", "PAR")]},
                  {**orders, power: [*orders[power], Build(*position.units[0][1:])]}):
        same(position, given)
    stranger = Position.build(position.phase, [*position.units[:5], Unit("Atlantis", "F", "NAO")],
                              position.centers)
    assert fast_phase.movement(stranger, {}) is None          # a power without home centers
    same(stranger, {}, taken=False)


@compiled
def test_orders_read_from_generators_and_changed_later_report_as_given():
    position = random_position(21, n_units=22)
    orders = random_orders(21, position)
    want = reference(position, orders)
    lists = {p: list(os) for p, os in orders.items()}
    got = adjudicate(position, {p: iter(os) for p, os in lists.items()})
    for os in lists.values():
        os.clear()
    assert got.next == want.next and got.results == want.results


def test_switched_off_adjudicate_takes_the_reference_path():
    before = fast_resolver.set_enabled(False)
    try:
        position = random_position(3, n_units=12)
        assert fast_phase.movement(position, random_orders(3, position)) is None
    finally:
        fast_resolver.set_enabled(before)


def test_an_order_carries_a_code_equal_exactly_when_the_orders_are():
    rng = random.Random(5)
    names = ["PAR", "BUR", "STP/NC", "STP", "NTH", "LON", "XYZ", ""]
    made = []
    for _ in range(3000):
        a, b, c = (rng.choice(names) for _ in range(3))
        k1, k2 = rng.choice("AF"), rng.choice("AF")
        made.append(rng.choice([
            Hold(k1, a), Move(k1, a, b), Move(k1, a, b, True), SupportHold(k1, a, k2, b),
            SupportMove(k1, a, k2, b, c), Convoy(a, k2, b, c), Retreat(k1, a, b),
            Disband(k1, a), Build(k1, a)]))
    by_code: dict[int, object] = {}
    for o in made:
        code = o._code
        assert code >= 0
        assert by_code.setdefault(code, o) == o
    assert len(by_code) == len(set(made))
    assert Move("A", "SMY", "GRE", True, ("AEG",))._code == -1
    assert Hold("X", "PAR")._code == -1 and Move("A", "PAR", "BUR", via_convoy=1)._code == -1


@compiled
def test_an_order_without_its_code_is_judged_by_the_reference():
    """A copied or unpickled order has no code (dataclasses copy their fields only): the
    phase goes to the reference, with the same answer."""
    position = random_position(31, n_units=18)
    orders = random_orders(31, position)
    for thaw in (pickle.loads, copy.copy):
        given = {p: [thaw(pickle.dumps(o)) if thaw is pickle.loads else thaw(o) for o in os]
                 for p, os in orders.items()}
        assert given == orders
        same(position, given, taken=False)


def test_a_process_adjudicates_by_the_reference_until_the_kernel_is_loaded():
    """``adjudicate`` never waits for numba: until `warm` has run in the process it takes
    the reference path, and imports neither numba nor numpy."""
    code = (
        "import sys\n"
        "from dipsolve.core.adjudicator import adjudicate\n"
        "from dipsolve.testing import random_position, random_orders\n"
        "p = random_position(4, n_units=12); o = random_orders(4, p)\n"
        "adjudicate(p, o)\n"
        "print('numba' in sys.modules, 'numpy' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "DIPSOLVE_NO_NUMBA": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


@compiled
def test_a_map_too_large_for_the_codes_goes_to_the_reference(monkeypatch):
    """A map of more places than a code holds (4,095) gets no tables: its phases take the
    reference path (shown on the standard map with the limit lowered)."""
    from dipsolve.core import fast_kernel
    position = random_position(41, n_units=20)
    orders = random_orders(41, position)
    monkeypatch.setattr(fast_kernel, "LOCATIONS", 50)
    position.map.memo.pop("fast.phase", None)
    try:
        assert not fast_phase.tables(position.map).usable
        assert fast_phase.movement(position, orders) is None
        same(position, orders, taken=False)
    finally:
        position.map.memo.pop("fast.phase", None)


@compiled
def test_threads_adjudicating_at_once_each_get_their_answer():
    """The kernel's scratch memory is taken by one call at a time (never shared between
    threads that adjudicate at once)."""
    from concurrent.futures import ThreadPoolExecutor
    phases = benchmark_phases(8, 60)
    want = [reference(p, o).next for p, o in phases]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert list(pool.map(lambda po: adjudicate(*po).next, phases)) == want


def test_a_maps_place_names_are_numbered_when_its_tables_are_made():
    from dipsolve.core.map import standard_map
    from dipsolve.core.orders import NAMES
    m = standard_map()
    fast_phase.tables(m)
    assert all(loc in NAMES for loc in m.province_of)
