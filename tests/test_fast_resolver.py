"""The compiled resolver (`dipsolve.core.fast_resolver`, numba) against the reference
adjudicator: the same units, dislodgements and outcomes through `Resolver` on random
positions (many sets through one resolver) and on every DATC case; and the fallback
without numba."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from test_datc import CASE_FILES, case_id, split_case

from dipsolve.core import fast_resolver
from dipsolve.core.adjudicator import Outcome, adjudicate
from dipsolve.core.errors import DipsolveRuleError, DipsolveUnavailable
from dipsolve.core.orders import Hold, Move
from dipsolve.core.position import Position
from dipsolve.core.resolver import Resolver
from dipsolve.testing import random_orders, random_position

compiled = pytest.mark.skipif(not fast_resolver.available(),
                              reason=f"the compiled path is off: {fast_resolver.why_not()}")


def reference(position: Position, orders) -> Outcome:
    """The reference adjudicator (``adjudicate`` with the compiled path switched off: it
    takes the kernel for a fresh phase too, `dipsolve.core.fast_phase`)."""
    before = fast_resolver.set_enabled(False)
    try:
        return adjudicate(position, orders)
    finally:
        fast_resolver.set_enabled(before)


def same_outcome(got: Outcome, want: Outcome) -> None:
    assert got.next == want.next
    assert got.destroyed == want.destroyed
    assert got.results == want.results


@compiled
@pytest.mark.parametrize("seed", range(60))
def test_resolver_compiled_equals_reference_on_random_positions(seed):
    rng = random.Random(1000 + seed)
    position = random_position(rng, n_units=rng.randint(10, 34), season=rng.choice(["Spring", "Fall"]))
    base = random_orders(rng, position)
    powers = sorted({u.power for u in position.units})
    free = set(rng.sample(powers, min(rng.randint(1, 3), len(powers))))
    fixed = {p: os for p, os in base.items() if p not in free}
    fast, slow = Resolver(position, fixed), Resolver(position, fixed, compiled=False)
    assert fast.compiled and not slow.compiled
    for k in range(12):     # several sets through one resolver: the order columns are reused
        sets = random_orders(rng, position, unordered=rng.random() * 0.3)
        given = {p: list(os) for p, os in sets.items() if p in free}
        if k % 3 == 2 and given:          # an order for a unit not its power's, and a repeat
            p = next(iter(given))
            other = next((u for u in position.units if u.power != p), None)
            if other is not None:
                given[p].append(Hold(other.kind, other.location))
            if given[p]:
                given[p].append(given[p][0])
        a, b = fast.resolve(given), slow.resolve(given)
        # the same sets packed first (`Resolver.pack`), as a search hands them over
        c, d = fast.resolve(fast.pack(given)), slow.resolve(slow.pack(given))
        for r in (b, c, d):
            assert (a.units, a.dislodged, a.moved, a.center_changes) == \
                (r.units, r.dislodged, r.moved, r.center_changes)
            same_outcome(r.outcome(), b.outcome())
        same_outcome(a.outcome(), reference(position, {**fixed, **given}))


def test_a_packed_set_belongs_to_its_resolver_and_to_no_fixed_power():
    position = random_position(11, n_units=16)
    orders = random_orders(11, position)
    power = sorted(orders)[0]
    r = Resolver(position, {power: orders[power]})
    with pytest.raises(DipsolveRuleError, match="fixed"):
        r.pack({power: orders[power]})
    others = {p: os for p, os in orders.items() if p != power}
    with pytest.raises(DipsolveRuleError, match="another Resolver"):
        Resolver(position, {power: orders[power]}).resolve(r.pack(others))
    assert r.resolve(r.pack(others)).next == reference(position, orders).next


@compiled
def test_a_unit_given_two_orders_takes_the_reference_path():
    position = random_position(5, n_units=14)
    u = position.units[0]
    moves = sorted(position.map.army_moves[u.location] if u.kind == "A" else position.map.fleet_moves[u.location])
    orders = {u.power: [Hold(u.kind, u.location), Move(u.kind, u.location, moves[0])]}
    resolver = Resolver(position)
    for r in (resolver.resolve(orders), resolver.resolve(resolver.pack(orders))):
        same_outcome(r.outcome(), reference(position, orders))
        assert r.units == reference(position, orders).next.units


@compiled
@pytest.mark.parametrize("path", CASE_FILES, ids=[case_id(p) for p in CASE_FILES])
def test_datc_cases_compiled_equal_reference(path: Path) -> None:
    from dipsolve.grammar import parse_position
    position, orders = parse_position(split_case(path.read_text(encoding="utf-8"))[0], str(path))
    if position.phase.kind != "movement":
        return
    want = reference(position, orders)
    same_outcome(Resolver(position).resolve(orders).outcome(), want)
    for power in orders:
        fixed = {p: os for p, os in orders.items() if p != power}
        r = Resolver(position, fixed).resolve({power: orders[power]})
        assert r.units == tuple(u for u in want.next.units)
        same_outcome(r.outcome(), want)


def test_switched_off_every_caller_takes_the_reference_path():
    before = fast_resolver.set_enabled(False)
    try:
        assert not fast_resolver.available()
        assert fast_resolver.why_not()
        position = random_position(3, n_units=12)
        assert not Resolver(position).compiled
        with pytest.raises(DipsolveUnavailable, match="not available"):
            Resolver(position, compiled=True)
    finally:
        fast_resolver.set_enabled(before)


def test_numba_that_cannot_be_imported_turns_the_compiled_path_off(monkeypatch):
    """numba installed but failing to import (a broken installation): the first
    resolver finds out when it is built, takes the reference path, and the compiled path
    is off from then on."""
    monkeypatch.setattr(fast_resolver, "_enabled", True)
    monkeypatch.setattr(fast_resolver.k, "compiled", lambda: None)
    position = random_position(9, n_units=18)
    orders = random_orders(9, position)
    resolver = Resolver(position)
    assert not resolver.compiled
    same_outcome(resolver.resolve(orders).outcome(), reference(position, orders))
    assert not fast_resolver.available()


@compiled
def test_a_process_takes_the_compiled_path_once_the_kernel_is_loaded():
    """Until `warm` has run in a process a Resolver takes the reference path (a search
    never waits for numba inside its time limit); ``compiled=True`` loads the kernel."""
    code = (
        "from dipsolve.core import fast_kernel, fast_resolver\n"
        "from dipsolve.core.resolver import Resolver\n"
        "from dipsolve.testing import random_position\n"
        "p = random_position(4, n_units=12)\n"
        "print(fast_resolver.ready(), Resolver(p).compiled)\n"
        "print(Resolver(p, compiled=True).compiled, fast_resolver.ready(), Resolver(p).compiled)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["False False", "True True True"]


def test_without_numba_dipsolve_adjudicates_by_the_reference():
    """A process where numba cannot be imported (as on a plain install without the
    ``fast`` extra): the compiled path says why it is off, and adjudication works."""
    code = (
        "import sys; sys.modules['numba'] = None\n"      # import numba raises ImportError
        "from dipsolve.core import fast_resolver, fast_kernel\n"
        "from dipsolve.core.adjudicator import adjudicate\n"
        "from dipsolve.core.resolver import Resolver\n"
        "from dipsolve.testing import random_position, random_orders\n"
        "assert not fast_kernel.numba_installed() and not fast_resolver.available()\n"
        "print(fast_resolver.why_not())\n"
        "p = random_position(7, n_units=20); o = random_orders(7, p)\n"
        "assert not Resolver(p).compiled\n"
        "print(adjudicate(p, o).next == Resolver(p).resolve(o).next)\n")
    env = {k: v for k, v in os.environ.items() if k != "DIPSOLVE_NO_NUMBA"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    why, same = out.stdout.splitlines()
    assert "numba is not available" in why and "dipsolve[fast]" in why
    assert same == "True"
