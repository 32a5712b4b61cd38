"""Equilibria of the adjustment phase, their certificates, the time limit, and pygambit's
recorded answers as the oracle (tests/tools/record_gambit.py; the generic solvers alone
are tested in tests/test_games.py)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from dipsolve.core.results import Limits
from dipsolve.algorithms.adjustments import after_adjustments, iter_adjustments
from dipsolve.cli import load, main
from dipsolve.algorithms.evaluation import evaluator
from dipsolve.models.equilibria import (AdjustmentGame, combined_search, group_table,
                                        interaction_groups, preliminary_order, solve_equilibrium)
from dipsolve.models.games import (correlated_lp, fictitious_play, pure_equilibria, sgc_milp,
                                   support_enumeration, tensor_gains, zero_sum_lp)
from dipsolve.core.position import Position
from dipsolve.core.results import Deadline

ROOT = Path(__file__).resolve().parents[1]
ADJUST = ROOT / "examples" / "adjustments"
GAMBIT = ROOT / "tests" / "data" / "gambit"
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
    eq = solve_equilibrium(position, INFLUENCE, "pure", limits=Limits(time_limit=60))
    assert eq.status == "optimal" and eq.certified and eq.epsilon <= 1e-6


def test_worst_case_with_waives_cycles_and_the_double_oracle_certifies_it():
    """With waives the combined search cycles (Austria and Italy answer each other) and
    the group is far too large for a table: a correlated equilibrium by column
    generation, then the double oracle from its support finds a mixed equilibrium,
    certified in the whole game."""
    position = example("worst-case-waives.dip")
    eq = solve_equilibrium(position, INFLUENCE, "pure", limits=Limits(time_limit=60))
    assert eq.groups[0].method.startswith("double oracle after a cycle")
    assert eq.kind == "mixed" and eq.status == "optimal"
    assert eq.certified and eq.epsilon <= 1e-6


# -- pure equilibria -------------------------------------------------------------------------------

def test_pure_equilibrium_of_a_billion_profiles_is_certified():
    pos = example("billion.dip")
    eq = solve_equilibrium(pos, INFLUENCE, "pure", limits=Limits(time_limit=60))
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
    eq = solve_equilibrium(pos, fleets_near_home, "pure", limits=Limits(time_limit=60))
    assert eq.status == "optimal"
    assert max(independent_gains(pos, fleets_near_home, eq).values()) <= 1e-9


def test_centers_evaluator_makes_every_profile_an_equilibrium():
    pos = example("trieste.dip")
    eq = solve_equilibrium(pos, evaluator("centers"), "pure", limits=Limits(time_limit=30))
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
    eq = solve_equilibrium(pos, follow, "pure", limits=Limits(time_limit=60))
    assert any("searched again with all powers together" in n for n in eq.notes)
    assert eq.status == "optimal" and eq.epsilon == 0
    kinds = {s.power: s.support[0][0] for s in eq.strategies}
    assert str(kinds["Russia"][0]).startswith("F") and str(kinds["Turkey"][0]).startswith("F")
    assert str(kinds["England"][0]).startswith("F")


# -- mixed equilibria, against pygambit's recorded answers ----------------------------------------

def recorded(name: str) -> dict:
    """pygambit's answers on one game, recorded by tests/tools/record_gambit.py."""
    return json.loads((GAMBIT / f"{name}.json").read_text(encoding="utf-8"))


def same_profile(a, b, tol=1e-7) -> bool:
    return all(np.allclose(x, y, atol=tol) for x, y in zip(a, b))


def recorded_tables(name: str) -> list[tuple[tuple[str, ...], np.ndarray, dict]]:
    """The recorded groups of an example, each checked to be the game dipsolve builds
    today (the same players, the same payoffs up to float rounding): the table
    returned is the recorded one, the very input pygambit answered."""
    pos = example(name)
    game = AdjustmentGame(pos, INFLUENCE)
    groups = ((0, 1),) if name == "trieste.dip" else interaction_groups(game)
    data = recorded(name.removesuffix(".dip"))["groups"]
    assert [list(game.players[i] for i in grp) for grp in groups] == [g["players"] for g in data]
    out = []
    for grp, g in zip(groups, data):
        table = np.array(g["payoffs"])
        fresh = group_table(game, grp, tuple(0 for _ in game.players))
        assert fresh.shape == table.shape
        assert np.allclose(fresh, table, rtol=1e-12, atol=0), "not the game pygambit answered"
        out.append((tuple(g["players"]), table, g))
    return out


def test_trieste_has_no_pure_equilibrium_and_the_same_mixed_one_as_gambit():
    ((_, table, theirs),) = recorded_tables("trieste.dip")
    assert pure_equilibria(table) == [] and theirs["enumpure_solve"] == []
    A, B = table[..., 0], table[..., 1]
    ours = support_enumeration(A, B, first_only=False)
    assert len(ours) == len(theirs["enummixed_solve"]) == 1
    assert same_profile(ours[0], theirs["enummixed_solve"][0])
    eq = solve_equilibrium(example("trieste.dip"), INFLUENCE, "pure", limits=Limits(time_limit=30))
    assert eq.kind == "mixed" and eq.status == "optimal" and eq.epsilon <= 1e-6
    probs = {s.power: sorted(p for _, p in s.support) for s in eq.strategies}
    austria = np.array(theirs["enummixed_solve"][0][0])
    assert probs["Austria"] == pytest.approx(sorted(austria[austria > 1e-9]))


@pytest.mark.parametrize("name", ["two-groups.dip", "west-guessing.dip"])
def test_pure_equilibria_of_example_groups_agree_with_gambit(name):
    """The same pure equilibria, but for one documented difference: where two payoffs
    are equal in exact arithmetic but differ in the last bit of a float sum
    (1646.6666666666665 against 1646.6666666666667 in two-groups.dip), dipsolve
    counts the tie (tolerance 1e-9 relative) and gambit, comparing floats exactly,
    does not.  Every extra profile must be such a tie."""
    for players, table, data in recorded_tables(name):
        ours = set(pure_equilibria(table))
        theirs = {tuple(p) for p in data["enumpure_solve"]}
        assert theirs <= ours
        for profile in ours - theirs:
            strict = pure_equilibria(table, tolerance=0.0)
            assert profile not in strict
            gains = []
            for k in range(len(players)):
                U = table[..., k]
                others = profile[:k] + (slice(None),) + profile[k + 1:]
                gains.append(float(U[others].max() - U[profile]) / abs(float(U[profile])))
            assert 0 < max(gains) <= 1e-9


def test_mixed_mode_solves_two_groups_exactly():
    pos = example("west-guessing.dip")
    eq = solve_equilibrium(pos, INFLUENCE, "mixed", limits=Limits(time_limit=60))
    assert eq.status == "optimal" and eq.certified and eq.epsilon <= 1e-6
    assert sorted(sorted(g.powers) for g in eq.groups) == [["Austria", "Turkey"], ["England", "France"]]
    assert any(not s.pure for s in eq.strategies)


def test_correlated_mode_certificate():
    pos = example("two-groups.dip")
    eq = solve_equilibrium(pos, INFLUENCE, "correlated", limits=Limits(time_limit=60))
    assert eq.kind == "correlated" and eq.status == "optimal" and eq.epsilon <= 1e-6
    assert all(abs(sum(p for _, p in dist) - 1) < 1e-9 for _, dist in eq.correlated)


# -- the time limit: an injected clock, never the machine's -----------------------------------------

class JumpingClock:
    """A clock for `Deadline`: it reads 0.0 until it jumps (after ``after`` readings,
    when ``when()`` is first true at a reading, or when `jump` is called), then ``to``."""

    def __init__(self, to: float, after: int | None = None, when=None):
        self.to, self.after, self.when = to, after, when
        self.reads, self.jumped = 0, False

    def jump(self) -> None:
        self.jumped = True

    def __call__(self) -> float:
        self.reads += 1
        if ((self.after is not None and self.reads > self.after)
                or (self.when is not None and self.when())):
            self.jumped = True
        return self.to if self.jumped else 0.0


def test_time_limit_during_the_set_up_answers_the_first_order_sets():
    """The clock passes the end while the game is set up (Austria's 24,310 removals are
    being enumerated): the answer comes back after a few more readings of the clock,
    every power's first order set, timed out, its epsilon not known."""
    pos = example("worst-case.dip")
    clock = JumpingClock(to=0.25, after=3)
    eq = solve_equilibrium(pos, INFLUENCE, "pure", deadline=Deadline(0.2, clock=clock))
    assert clock.reads <= 3 + 2
    assert eq.status == "timed out" and not eq.certified
    assert eq.epsilon == math.inf and eq.objective is None and eq.gains == {}
    assert eq.seconds == 0.25                       # the injected clock's time
    first = {p: next(iter_adjustments(pos, p)) for p in pos.powers()}
    assert {s.power: s.support[0][0] for s in eq.strategies} | eq.fixed == first
    assert eq.to_json()["status"] == "timed out" and eq.to_json()["epsilon"] is None


def test_time_limit_during_the_search_keeps_its_profile_with_an_honest_epsilon():
    """The clock passes the end of the search's share of the time as soon as the combined
    search reports progress: the certificate still has its share, so the profile the
    search had reached comes back with its epsilon, computed in the whole game (and
    recomputed here from scratch): timed out, not an equilibrium."""
    pos = example("billion.dip")
    clock = JumpingClock(to=0.9)                    # past the search's 0.9 of 0.93, before 0.93

    def progress(evaluations: int, stage: str) -> None:
        if stage.startswith("group"):
            clock.jump()

    eq = solve_equilibrium(pos, INFLUENCE, "pure", progress=progress,
                           deadline=Deadline(1.0, clock=clock))
    assert clock.jumped and eq.certified
    assert eq.status == "timed out" and eq.kind == "pure"
    assert any(g.status == "timed out" for g in eq.groups)
    again = independent_gains(pos, INFLUENCE, eq)
    assert eq.epsilon == pytest.approx(max(again.values()), abs=1e-9) and eq.epsilon > 1e-6
    assert eq.objective == eq.epsilon and eq.seconds == 0.9


def test_time_limit_during_the_certificate_leaves_it_unfinished():
    """The clock passes the very end while the certificate runs: the answer keeps the
    gains computed so far and says it is not certified."""
    pos = example("billion.dip")
    game = AdjustmentGame(pos, INFLUENCE)
    clock = JumpingClock(to=2.0, when=lambda: game.stage == "certificate")
    eq = solve_equilibrium(pos, INFLUENCE, "pure", game=game, deadline=Deadline(1.0, clock=clock))
    assert eq.status == "timed out" and not eq.certified and eq.epsilon == math.inf
    assert len(eq.gains) < len(eq.strategies)
    assert any("certificate was cut short" in n for n in eq.notes)


def test_a_time_limit_must_be_a_positive_number_of_seconds():
    pos = example("trieste.dip")
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(ValueError):
            solve_equilibrium(pos, INFLUENCE, limits=Limits(time_limit=bad))


def test_the_reported_seconds_are_the_solvers_own():
    """A real clock, a generous bound: the answer's own seconds, never the wall clock of
    the test (speed is measured in benchmarks/adjustments.py)."""
    eq = solve_equilibrium(example("worst-case.dip"), INFLUENCE, "pure", limits=Limits(time_limit=0.2))
    assert eq.status in ("timed out", "optimal") and 0 < eq.seconds < 0.2 + 2.0


@pytest.mark.parametrize("name", ["worst-case.dip", "trieste.dip"])
def test_cli_answers_at_a_small_time_limit(name, capsys):
    """Whatever the machine manages in 0.2 s, an answer with a status in strict JSON:
    every power's order sets, an epsilon only when certified."""
    assert main(["adjust", str(ADJUST / name), "--time-limit", "0.2", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out,
                     parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert obj["status"] in ("optimal", "feasible", "timed out")
    assert (obj["epsilon"] is not None) == obj["certified"]
    assert obj["status"] != "optimal" or obj["epsilon"] <= 1e-6
    assert set(obj["strategies"]) | set(obj["fixed"]) == set(example(name).powers())


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
    from dipsolve.core.adjudicator import adjudicate
    from dipsolve.grammar import parse_position
    text = (ADJUST / "billion.dip").read_text() + "\n" + out[out.index("[orders]"):]
    pos, orders = parse_position(text, "billion+orders.dip")
    assert sum(len(o) for o in orders.values()) > 10
    assert all(r.success for r in adjudicate(pos, orders).results)
