"""Equilibria of the adjustment phase, their certificates, and pygambit as the oracle."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pygambit as gbt
import pytest

from dipsolve.adjustments import after_adjustments, iter_adjustments
from dipsolve.cli import load, main
from dipsolve.evaluation import evaluator
from dipsolve.models.equilibria import (AdjustmentGame, combined_search, group_table,
                                        interaction_groups, preliminary_order, solve_equilibrium)
from dipsolve.models.games import (correlated_lp, fictitious_play, pure_equilibria, sgc_milp,
                                   support_enumeration, tensor_gains, zero_sum_lp)
from dipsolve.position import Position

ROOT = Path(__file__).resolve().parents[1]
ADJUST = ROOT / "examples" / "adjustments"
INFLUENCE = evaluator("influence")


def example(name: str) -> Position:
    return load(str(ADJUST / name))[0]


def fleets_near_home(position: Position, power: str) -> float:
    """A simple evaluator for the tests: a unit is worth 10, a fleet 3 more, and each
    unit loses 4 for every foreign unit next to it (so builds answer each other)."""
    m = position.map
    value = 0.0
    for u in position.units_of(power):
        value += 13.0 if u.kind == "F" else 10.0
        here = m.province_of[u.location]
        value -= 4.0 * sum(1 for q in m.neighbours[here]
                           if q in position.unit_in and position.unit_in[q].power != power)
    return value


def independent_gains(position: Position, evaluate, eq) -> dict[str, float]:
    """Each power's largest deviation gain against the answer's pure profile, computed
    from scratch: fresh positions, the evaluator called directly, no cache."""
    chosen = {s.power: s.support[0][0] for s in eq.strategies}
    chosen.update(eq.fixed)
    gains = {}
    for s in eq.strategies:
        base = evaluate(after_adjustments(position, chosen), s.power)
        best = max(evaluate(after_adjustments(position, dict(chosen, **{s.power: o})), s.power)
                   for o in iter_adjustments(position, s.power, True))
        gains[s.power] = best - base
    return gains


# -- the vectorised influence evaluation ----------------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.name for p in ADJUST.glob("*.dip")))
def test_vectorised_influence_agrees_with_the_evaluator(name):
    """The game values profiles of the plain influence evaluation with numpy, many at a
    time: every value (and every skip value) must be the evaluator's, up to rounding."""
    position = example(name)
    game = AdjustmentGame(position, INFLUENCE)
    slow = AdjustmentGame(position, lambda pos, p: INFLUENCE(pos, p))
    assert game.batched and not slow.batched
    rng = np.random.default_rng(5)
    for _ in range(12):
        profile = tuple(int(rng.integers(s)) for s in game.sizes)
        for i in range(len(game.players)):
            picks = sorted({int(a) for a in rng.integers(game.sizes[i], size=8)})
            game.prefetch(profile, i, picks)
            for a in picks:
                trial = profile[:i] + (a,) + profile[i + 1:]
                assert game.payoff(trial, i) == pytest.approx(slow.payoff(trial, i), abs=1e-9)
    for i in range(len(game.players)):
        picks = range(min(game.sizes[i], 40))
        fast = game.skip_values(i)
        for a in picks:
            assert fast[a] == pytest.approx(slow.skip_value(i, a), abs=1e-9)


def test_worst_case_position_is_certified():
    """Issue #5: Loeb's worst case (Austria alone has 24,310 removals; 392,177,866,080
    joint profiles counting waives): a pure equilibrium, certified in the whole game (its
    time is measured in benchmarks/adjustments.py, not asserted here)."""
    position = example("worst-case.dip")
    eq = solve_equilibrium(position, INFLUENCE, "pure", time_limit=60)
    assert eq.status == "optimal" and eq.certified and eq.epsilon <= 1e-6


def test_worst_case_with_waives_cycles_and_the_double_oracle_certifies_it():
    """With waives the combined search cycles (Austria and Italy answer each other) and
    the group is far too large for a table: the double oracle finds a mixed equilibrium,
    certified in the whole game."""
    position = example("worst-case-waives.dip")
    eq = solve_equilibrium(position, INFLUENCE, "pure", time_limit=60)
    assert eq.groups[0].method == "double oracle after a cycle"
    assert eq.kind == "mixed" and eq.status == "optimal"
    assert eq.certified and eq.epsilon <= 1e-6


# -- pure equilibria -------------------------------------------------------------------------------

def test_pure_equilibrium_of_a_billion_profiles_is_certified():
    pos = example("billion.dip")
    eq = solve_equilibrium(pos, INFLUENCE, "pure", time_limit=60)
    assert eq.joint_profiles == 1_330_920_360
    assert eq.status == "optimal" and eq.kind == "pure" and eq.certified
    assert eq.epsilon <= 1e-6
    # the certificate, recomputed from scratch over every order set of every power
    again = independent_gains(pos, INFLUENCE, eq)
    assert max(again.values()) <= 1e-6
    assert set(again) == set(eq.gains)
    # the evaluations needed are about the sum of the options, not their product
    assert eq.evaluations < 20 * sum(len(o) for o in AdjustmentGame(pos, INFLUENCE).options)
    # replayed through the adjudicator
    assert eq.next_position is not None and eq.next_position.phase.short == "S1908M"


def test_combined_search_finds_a_pure_equilibrium_of_the_table():
    pos = example("two-groups.dip")
    game = AdjustmentGame(pos, fleets_near_home)
    n = len(game.players)
    orders = {i: preliminary_order(game, i) for i in range(n)}
    start = tuple(orders[i][0] for i in range(n))
    out = combined_search(game, tuple(range(n)), start, orders)
    table = group_table(game, tuple(range(n)), start)
    if out.converged:
        assert out.profile in set(pure_equilibria(table))
    else:
        assert out.cycle


def test_simple_evaluator_answer_is_certified():
    pos = example("billion.dip")
    eq = solve_equilibrium(pos, fleets_near_home, "pure", time_limit=60)
    assert eq.status == "optimal"
    assert max(independent_gains(pos, fleets_near_home, eq).values()) <= 1e-9


def test_centers_evaluator_makes_every_profile_an_equilibrium():
    pos = example("trieste.dip")
    eq = solve_equilibrium(pos, evaluator("centers"), "pure", time_limit=30)
    assert eq.status == "optimal" and eq.epsilon == 0


# -- structure -------------------------------------------------------------------------------------

def test_groups_split_and_really_do_not_interact():
    pos = example("two-groups.dip")
    game = AdjustmentGame(pos, INFLUENCE)
    groups = [{game.players[i] for i in g} for g in interaction_groups(game)]
    assert sorted(map(sorted, groups)) == [["England", "France"], ["Russia", "Turkey"]]
    # exhaustively: no choice of one group changes a value in the other
    sizes = game.sizes
    for profile in itertools.product(*(range(s) for s in sizes)):
        for i, p in enumerate(game.players):
            mine = next(g for g in groups if p in g)
            reference = tuple(a if game.players[j] in mine else 0 for j, a in enumerate(profile))
            assert game.payoff(profile, i) == pytest.approx(game.payoff(reference, i), abs=1e-9)


def test_a_global_evaluator_is_caught_by_the_certificate():
    """An evaluator under which far-off powers matter: England wants to build what Turkey
    builds, Turkey what Russia builds, Russia a fleet.  The structure analysis (made for
    influence) puts England apart from Turkey; England's search answers Turkey's
    preliminary choice (an army: Russia skips in the preliminary search), Turkey then
    switches to a fleet, and the whole-game certificate catches England's gain: the
    search runs again with all powers together and ends in a certified equilibrium."""
    pos = example("two-groups.dip")
    empty = {p for p in pos.map.centers if p not in pos.unit_in}

    def built(position: Position, power: str) -> str | None:
        for u in position.units_of(power):
            if position.map.province_of[u.location] in empty:
                return u.kind
        return None

    def follow(position: Position, power: str) -> float:
        leader = {"England": "Turkey", "Turkey": "Russia"}.get(power)
        mine = built(position, power)
        if power == "Russia":
            return 1.0 if mine == "F" else 0.0
        if leader is None:
            return 0.0
        target = built(position, leader) or "A"
        return 1.0 if mine == target else 0.0

    game = AdjustmentGame(pos, follow)
    groups = [{game.players[i] for i in g} for g in interaction_groups(game)]
    assert {"England", "Turkey"} not in [g & {"England", "Turkey"} for g in groups]
    eq = solve_equilibrium(pos, follow, "pure", time_limit=60)
    assert any("searched again with all powers together" in n for n in eq.notes)
    assert eq.status == "optimal" and eq.epsilon == 0
    kinds = {s.power: s.support[0][0] for s in eq.strategies}
    assert str(kinds["Russia"][0]).startswith("F") and str(kinds["Turkey"][0]).startswith("F")
    assert str(kinds["England"][0]).startswith("F")


# -- mixed equilibria and pygambit -------------------------------------------------------------------

def gambit_mixed(A: np.ndarray, B: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    g = gbt.Game.from_arrays(A, B)
    out = []
    for eq in gbt.nash.enummixed_solve(g, rational=False).equilibria:
        x, y = ([float(eq[s]) for s in pl.strategies] for pl in g.players)
        out.append((np.array(x), np.array(y)))
    return out


def gambit_pure(table: np.ndarray) -> set[tuple[int, ...]]:
    arrays = [table[..., k] for k in range(table.shape[-1])]
    g = gbt.Game.from_arrays(*arrays)
    found = set()
    for eq in gbt.nash.enumpure_solve(g).equilibria:
        found.add(tuple(next(j for j, s in enumerate(pl.strategies) if float(eq[s]) > 0.5)
                        for pl in g.players))
    return found


def same_profile(a, b, tol=1e-7) -> bool:
    return all(np.allclose(x, y, atol=tol) for x, y in zip(a, b))


def test_trieste_has_no_pure_equilibrium_and_the_same_mixed_one_as_gambit():
    pos = example("trieste.dip")
    game = AdjustmentGame(pos, INFLUENCE)
    table = group_table(game, (0, 1), (0, 0))
    assert pure_equilibria(table) == [] and gambit_pure(table) == set()
    A, B = table[..., 0], table[..., 1]
    ours = support_enumeration(A, B, first_only=False)
    theirs = gambit_mixed(A, B)
    assert len(ours) == len(theirs) == 1
    assert same_profile(ours[0], theirs[0])
    eq = solve_equilibrium(pos, INFLUENCE, "pure", time_limit=30)
    assert eq.kind == "mixed" and eq.status == "optimal" and eq.epsilon <= 1e-6
    probs = {s.power: sorted(p for _, p in s.support) for s in eq.strategies}
    assert probs["Austria"] == pytest.approx(sorted(theirs[0][0][theirs[0][0] > 1e-9]))


@pytest.mark.parametrize("name", ["two-groups.dip", "west-guessing.dip"])
def test_pure_equilibria_of_example_groups_agree_with_gambit(name):
    """The same pure equilibria, but for one documented difference: where two payoffs
    are equal in exact arithmetic but differ in the last bit of a float sum
    (1646.6666666666665 against 1646.6666666666667 in two-groups.dip), dipsolve
    counts the tie (tolerance 1e-9 relative) and gambit, comparing floats exactly,
    does not.  Every extra profile must be such a tie."""
    pos = example(name)
    game = AdjustmentGame(pos, INFLUENCE)
    for grp in interaction_groups(game):
        table = group_table(game, grp, tuple(0 for _ in game.players))
        ours, theirs = set(pure_equilibria(table)), gambit_pure(table)
        assert theirs <= ours
        for profile in ours - theirs:
            strict = pure_equilibria(table, tolerance=0.0)
            assert profile not in strict
            gains = []
            for k in range(len(grp)):
                U = table[..., k]
                others = profile[:k] + (slice(None),) + profile[k + 1:]
                gains.append(float(U[others].max() - U[profile]) / abs(float(U[profile])))
            assert 0 < max(gains) <= 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_support_enumeration_finds_every_equilibrium_gambit_finds(seed):
    rng = np.random.default_rng(seed)
    A, B = rng.integers(0, 20, (4, 4)).astype(float), rng.integers(0, 20, (4, 4)).astype(float)
    A += rng.random((4, 4)) * 1e-3          # nondegenerate
    B += rng.random((4, 4)) * 1e-3
    ours = support_enumeration(A, B, first_only=False)
    theirs = gambit_mixed(A, B)
    assert len(ours) == len(theirs)
    for t in theirs:
        assert any(same_profile(o, t) for o in ours)


@pytest.mark.parametrize("seed", range(4))
def test_sgc_milp_equilibrium_is_one_of_gambits(seed):
    rng = np.random.default_rng(100 + seed)
    A, B = rng.random((6, 5)) * 100, rng.random((6, 5)) * 100
    x, y = sgc_milp(A, B)
    gain = max(float((A @ y).max() - x @ A @ y), float((x @ B).max() - x @ B @ y))
    assert gain <= 1e-7
    assert any(same_profile((x, y), t, tol=1e-6) for t in gambit_mixed(A, B))


def test_zero_sum_lp_value_matches_gambit():
    rng = np.random.default_rng(7)
    A = rng.random((5, 6)) * 10
    x, y = zero_sum_lp(A)
    value = float(x @ A @ y)
    g = gbt.Game.from_arrays(A, -A)
    eq = gbt.nash.lp_solve(g, rational=False).equilibria[0]
    row, col = list(g.players)
    gx = np.array([float(eq[s]) for s in row.strategies])
    gy = np.array([float(eq[s]) for s in col.strategies])
    assert value == pytest.approx(float(gx @ A @ gy), abs=1e-6)
    assert float((A @ y).max()) - value <= 1e-6 and value - float((x @ A).min()) <= 1e-6


def test_correlated_lp_and_fictitious_play_on_three_powers():
    rng = np.random.default_rng(3)
    table = rng.random((3, 4, 3, 3)) * 50
    dist = correlated_lp(table)
    assert dist.sum() == pytest.approx(1) and dist.min() >= -1e-12
    # no power gains by any deviation rule: following a recommendation is best
    for i in range(3):
        U, P = np.moveaxis(table[..., i], i, 0), np.moveaxis(dist, i, 0)
        for a in range(U.shape[0]):
            for b in range(U.shape[0]):
                assert float((P[a] * (U[b] - U[a])).sum()) <= 1e-7
    strategies, eps = fictitious_play(table, rounds=3000)
    assert eps == pytest.approx(max(tensor_gains(table, strategies)))


def test_mixed_mode_solves_two_groups_exactly():
    pos = example("west-guessing.dip")
    eq = solve_equilibrium(pos, INFLUENCE, "mixed", time_limit=60)
    assert eq.status == "optimal" and eq.certified and eq.epsilon <= 1e-6
    assert sorted(sorted(g.powers) for g in eq.groups) == [["Austria", "Turkey"], ["England", "France"]]
    assert any(not s.pure for s in eq.strategies)


def test_correlated_mode_certificate():
    pos = example("two-groups.dip")
    eq = solve_equilibrium(pos, INFLUENCE, "correlated", time_limit=60)
    assert eq.kind == "correlated" and eq.status == "optimal" and eq.epsilon <= 1e-6
    assert all(abs(sum(p for _, p in dist) - 1) < 1e-9 for _, dist in eq.correlated)


def test_time_limit_is_honoured():
    pos = example("worst-case.dip")
    eq = solve_equilibrium(pos, INFLUENCE, "pure", time_limit=0.2)
    assert eq.status == "timed out" and not eq.certified and eq.seconds < 3


def test_cli_equilibrium_json(capsys):
    code = main(["adjust", str(ADJUST / "trieste.dip"), "--equilibrium", "mixed", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    obj = json.loads(out)
    assert obj["status"] == "optimal" and obj["epsilon"] <= 1e-6 and obj["kind"] == "mixed"
    assert set(obj["gains"]) == {"Austria", "Italy"}
    assert all(abs(sum(s["probability"] for s in v) - 1) < 1e-9 for v in obj["strategies"].values())
    code = main(["adjust", str(ADJUST / "billion.dip")])
    out, _ = capsys.readouterr()
    assert code == 0 and "pure equilibrium: optimal" in out and "[orders]" in out
    # the [orders] section printed is the equilibrium: appended to the file, it adjudicates
    from dipsolve.adjudicator import adjudicate
    from dipsolve.grammar import parse_position
    text = (ADJUST / "billion.dip").read_text() + "\n" + out[out.index("[orders]"):]
    pos, orders = parse_position(text, "billion+orders.dip")
    assert sum(len(o) for o in orders.values()) > 10
    assert all(r.success for r in adjudicate(pos, orders).results)
